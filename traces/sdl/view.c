/* view.c -- the viewer's two drivers: headless output (PNG, GIF, frames)
 * and the interactive SDL2 window with its keys and mouse.
 *
 * Invariant: both drivers only choose ViewStates and hand them to the
 * renderer; neither draws anything itself, so the window and the files
 * show the same pixels for the same cycle.
 */
#include "view.h"
#include "gif.h"
#include "render.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

/* A run plays in about this many seconds at the starting speed. */
#define VIEW_PLAY_SECONDS 12.0
/* Speed keys multiply or divide by 2 within these limits (cycles/s). */
#define VIEW_MIN_SPEED 0.25
#define VIEW_MAX_SPEED 1e9
/* Frame interval while playing, and how long a notice stays, in ms. */
#define VIEW_FRAME_MS 16
#define VIEW_NOTICE_MS 3000
/* Paused, the window still wakes this often, so a resize or expose that
 * SDL reports late is drawn soon. */
#define VIEW_IDLE_MS 250

int view_min_width(void)
{
    return RENDER_MIN_WIDTH;
}

int view_min_height(void)
{
    return RENDER_MIN_HEIGHT;
}

static ViewKind view_initial_kind(const Render *r, const ViewOptions *o,
                                  const char **notice)
{
    const char *why = NULL;
    gboolean graph = render_graph_available(r, &why);
    *notice = NULL;
    if (o->view == VIEW_AS_MATRIX)
        return VIEW_MATRIX;
    if (o->view == VIEW_AS_GRAPH && !graph)
        *notice = why;
    return graph && o->view != VIEW_AS_MATRIX ? VIEW_GRAPH : VIEW_MATRIX;
}

/* ---- headless ---------------------------------------------------------- */

static Tick frame_cycle(const Trace *t, int i, int frames)
{
    Tick last = render_last_cycle(t);
    return frames > 1 ? (Tick)llround((double)i * last / (frames - 1)) : last;
}

static gboolean view_headless(const Trace *t, const ViewOptions *o, GError **error)
{
    g_autoptr(Render) r = render_new(t, o->width, o->height, error);
    if (!r)
        return FALSE;
    const char *notice;
    ViewState s = {
        .cycle = o->at >= 0 ? o->at : render_last_cycle(t) / 2,
        .window = o->window > 0 ? o->window : render_default_window(t),
        .kind = view_initial_kind(r, o, &notice),
        .mouse_x = -1, .mouse_y = -1,
    };
    if (o->view == VIEW_AS_GRAPH && s.kind != VIEW_GRAPH) {
        g_set_error(error, DRAW_ERROR, DRAW_ERROR_FAILED,
                    "--view graph: %s", notice);
        return FALSE;
    }
    Canvas *c = render_canvas(r);
    if (o->png) {
        render_frame(r, &s);
        if (!canvas_save_png(c, o->png, error))
            return FALSE;
    }
    if (!o->gif && !o->frames)
        return TRUE;
    if (o->frames && g_mkdir_with_parents(o->frames, 0777) != 0) {
        g_set_error(error, DRAW_ERROR, DRAW_ERROR_FAILED,
                    "%s: cannot create the folder: %s", o->frames,
                    g_strerror(errno));
        return FALSE;
    }
    GifOut *gif = NULL;
    if (o->gif) {
        Color palette[64];
        int n = render_palette(palette, G_N_ELEMENTS(palette));
        gif = gif_out_open(o->gif, c->surface->w, c->surface->h,
                           MAX(100 / o->fps, 1), palette, n, error);
        if (!gif)
            return FALSE;
    }
    /* Unless a window was given, each frame covers at least the cycles
     * since the previous one, so no activity falls between frames. */
    if (o->window <= 0 && o->frame_count > 1) {
        Tick spacing = (render_last_cycle(t) + o->frame_count - 2) / (o->frame_count - 1);
        s.window = MAX(s.window, spacing);
    }
    gboolean ok = TRUE;
    for (int i = 0; ok && i < o->frame_count; i++) {
        s.cycle = frame_cycle(t, i, o->frame_count);
        render_frame(r, &s);
        if (gif)
            ok = gif_out_add(gif, c, error);
        if (ok && o->frames) {
            g_autofree char *name = g_strdup_printf("frame-%05d.png", i);
            g_autofree char *path = g_build_filename(o->frames, name, NULL);
            ok = canvas_save_png(c, path, error);
        }
    }
    if (gif && ok)
        ok = gif_out_close(gif, error);
    else
        gif_out_abort(gif);
    return ok;
}

/* ---- interactive ------------------------------------------------------- */

typedef struct {
    const Trace *trace;
    Render *render;
    ViewState state;
    double position;              /* the cycle as a real number, for play */
    guint32 notice_until;
    gboolean dragging, quit;
} Viewer;

static void viewer_notice(Viewer *v, const char *text)
{
    v->state.notice = text;
    v->notice_until = SDL_GetTicks() + VIEW_NOTICE_MS;
}

static void viewer_seek(Viewer *v, Tick cycle)
{
    v->state.cycle = CLAMP(cycle, 0, render_last_cycle(v->trace));
    v->position = (double)v->state.cycle;
}

static void viewer_key(Viewer *v, SDL_Keycode key, Uint16 mod)
{
    ViewState *s = &v->state;
    const Trace *t = v->trace;
    gboolean shift = (mod & KMOD_SHIFT) != 0;
    switch (key) {
    case SDLK_SPACE:
        s->playing = !s->playing;
        if (s->playing && s->cycle >= render_last_cycle(t))
            viewer_seek(v, 0);
        break;
    case SDLK_LEFT:
    case SDLK_RIGHT: {
        int dir = key == SDLK_LEFT ? -1 : 1;
        s->playing = FALSE;
        viewer_seek(v, shift ? render_phase_step(v->render, s->cycle, dir)
                                : s->cycle + dir * trace_min_element_time(t));
        break;
    }
    case SDLK_PLUS: case SDLK_EQUALS: case SDLK_KP_PLUS:
        s->speed = MIN(s->speed * 2, VIEW_MAX_SPEED);
        break;
    case SDLK_MINUS: case SDLK_KP_MINUS:
        s->speed = MAX(s->speed / 2, VIEW_MIN_SPEED);
        break;
    case SDLK_HOME:
        viewer_seek(v, 0);
        break;
    case SDLK_END:
        s->playing = FALSE;
        viewer_seek(v, render_last_cycle(t));
        break;
    case SDLK_LEFTBRACKET:
        s->window = MAX(s->window / 2, 1);
        break;
    case SDLK_RIGHTBRACKET:
        s->window = MIN(s->window * 2, MAX(t->cycles, 1));
        break;
    case SDLK_g: {
        const char *why;
        if (render_graph_available(v->render, &why))
            s->kind = VIEW_GRAPH;
        else
            viewer_notice(v, why);
        break;
    }
    case SDLK_m:
        s->kind = VIEW_MATRIX;
        break;
    case SDLK_q:
    case SDLK_ESCAPE:
        v->quit = TRUE;
        break;
    default:
        break;
    }
}

/* Press the keys of a comma-separated list ("space,right,g,q"), one per
 * frame, as the tests do without a person at the keyboard. */
static gboolean viewer_script(char **keys, guint *next, gboolean *done)
{
    if (!keys[*next]) {
        *done = TRUE;
        return FALSE;
    }
    SDL_Keycode k = SDL_GetKeyFromName(keys[*next]);
    (*next)++;
    if (k == SDLK_UNKNOWN)
        return TRUE;
    SDL_Event e = { 0 };
    e.type = SDL_KEYDOWN;
    e.key.keysym.sym = k;
    SDL_PushEvent(&e);
    return TRUE;
}

static gboolean viewer_present(Viewer *v, SDL_Window *win, GError **error)
{
    SDL_Surface *ws = SDL_GetWindowSurface(win);
    if (!ws) {
        g_set_error(error, DRAW_ERROR, DRAW_ERROR_FAILED,
                    "cannot draw in the window: %s", SDL_GetError());
        return FALSE;
    }
    if (!render_resize(v->render, ws->w, ws->h, error))
        return FALSE;
    render_frame(v->render, &v->state);
    SDL_BlitSurface(render_canvas(v->render)->surface, NULL, ws, NULL);
    SDL_UpdateWindowSurface(win);
    return TRUE;
}

static gboolean view_window(const Trace *t, const ViewOptions *o, GError **error)
{
    if (!g_getenv("DISPLAY") && !g_getenv("WAYLAND_DISPLAY")
        && !g_getenv("SDL_VIDEODRIVER")) {
        g_set_error(error, DRAW_ERROR, DRAW_ERROR_FAILED,
                    "cannot open a window: no display (DISPLAY and "
                    "WAYLAND_DISPLAY are unset; without a display, use --png, "
                    "--gif or --frames)");
        return FALSE;
    }
    if (SDL_InitSubSystem(SDL_INIT_VIDEO) != 0) {
        g_set_error(error, DRAW_ERROR, DRAW_ERROR_FAILED,
                    "cannot open a window: %s (without a display, use --png, "
                    "--gif or --frames)", SDL_GetError());
        return FALSE;
    }
    /* With no display SDL falls back to drivers that show nothing; a
     * window nobody can see would play forever. Unless asked for (tests
     * set SDL_VIDEODRIVER), that is an error. */
    const char *driver = SDL_GetCurrentVideoDriver();
    if (driver && (!strcmp(driver, "offscreen") || !strcmp(driver, "dummy"))
        && !g_getenv("SDL_VIDEODRIVER")) {
        g_set_error(error, DRAW_ERROR, DRAW_ERROR_FAILED,
                    "cannot open a window: no display (without one, use "
                    "--png, --gif or --frames)");
        SDL_QuitSubSystem(SDL_INIT_VIDEO);
        return FALSE;
    }
    g_autofree char *title = trace_title(t);
    g_autofree char *caption = g_strdup_printf("cubemu view: %s", title);
    SDL_Window *win = SDL_CreateWindow(caption, SDL_WINDOWPOS_UNDEFINED,
                                       SDL_WINDOWPOS_UNDEFINED, o->width, o->height,
                                       SDL_WINDOW_RESIZABLE);
    if (!win) {
        g_set_error(error, DRAW_ERROR, DRAW_ERROR_FAILED,
                    "cannot open a window: %s", SDL_GetError());
        SDL_QuitSubSystem(SDL_INIT_VIDEO);
        return FALSE;
    }
    SDL_SetWindowMinimumSize(win, RENDER_MIN_WIDTH, RENDER_MIN_HEIGHT);
    Viewer v = { .trace = t };
    v.render = render_new(t, o->width, o->height, error);
    gboolean ok = v.render != NULL;
    if (ok) {
        const char *notice;
        v.state = (ViewState){
            .cycle = o->at >= 0 ? o->at : 0,
            .window = o->window > 0 ? o->window : render_default_window(t),
            .kind = view_initial_kind(v.render, o, &notice),
            .playing = !o->keys,
            .speed = MAX((double)t->cycles / VIEW_PLAY_SECONDS, 1.0),
            .mouse_x = -1, .mouse_y = -1,
        };
        v.position = (double)v.state.cycle;
        if (notice)
            viewer_notice(&v, notice);
    }
    g_auto(GStrv) keys = o->keys ? g_strsplit(o->keys, ",", -1) : NULL;
    guint next_key = 0;
    Uint64 last = SDL_GetPerformanceCounter();
    gboolean dirty = TRUE;
    while (ok && !v.quit) {
        if (dirty)
            ok = viewer_present(&v, win, error);
        dirty = FALSE;
        gboolean script_done = FALSE;
        if (keys && !viewer_script(keys, &next_key, &script_done) && script_done)
            v.quit = TRUE;
        SDL_Event e;
        int timeout = v.state.playing || v.state.notice ? VIEW_FRAME_MS : VIEW_IDLE_MS;
        if (SDL_WaitEventTimeout(&e, keys ? 1 : timeout)) {
            do {
                dirty = TRUE;
                switch (e.type) {
                case SDL_QUIT:
                    v.quit = TRUE;
                    break;
                case SDL_KEYDOWN:
                    viewer_key(&v, e.key.keysym.sym, e.key.keysym.mod);
                    break;
                case SDL_MOUSEMOTION:
                    v.state.mouse_x = e.motion.x;
                    v.state.mouse_y = e.motion.y;
                    if (v.dragging) {
                        Tick c;
                        if (render_timeline_cycle(v.render, e.motion.x,
                                                  e.motion.y, &c))
                            viewer_seek(&v, c);
                    }
                    break;
                case SDL_MOUSEBUTTONDOWN: {
                    Tick c;
                    if (render_timeline_cycle(v.render, e.button.x, e.button.y, &c)) {
                        viewer_seek(&v, c);
                        v.dragging = TRUE;
                    }
                    break;
                }
                case SDL_MOUSEBUTTONUP:
                    v.dragging = FALSE;
                    break;
                case SDL_WINDOWEVENT:
                    if (e.window.event == SDL_WINDOWEVENT_LEAVE)
                        v.state.mouse_x = v.state.mouse_y = -1;
                    break;
                default:
                    break;
                }
            } while (SDL_PollEvent(&e));
        }
        Uint64 now = SDL_GetPerformanceCounter();
        double dt = (double)(now - last) / (double)SDL_GetPerformanceFrequency();
        last = now;
        if (v.state.playing) {
            v.position += v.state.speed * dt;
            Tick end = render_last_cycle(t);
            if (v.position >= (double)end) {
                v.position = (double)end;
                v.state.playing = FALSE;
            }
            v.state.cycle = (Tick)v.position;
            dirty = TRUE;
        }
        if (v.state.notice && SDL_TICKS_PASSED(SDL_GetTicks(), v.notice_until)) {
            v.state.notice = NULL;
            dirty = TRUE;
        }
    }
    render_free(v.render);
    SDL_DestroyWindow(win);
    SDL_QuitSubSystem(SDL_INIT_VIDEO);
    return ok;
}

gboolean view_run(const Trace *t, const ViewOptions *o, GError **error)
{
    gboolean headless = o->png || o->gif || o->frames;
    if (!draw_start(headless, error))
        return FALSE;
    gboolean ok = headless ? view_headless(t, o, error) : view_window(t, o, error);
    draw_stop();
    return ok;
}
