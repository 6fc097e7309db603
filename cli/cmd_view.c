/* cmd_view.c -- `cubemu view [TRACE|SCENARIO] [options]`: play a trace in
 * an SDL2 window, or render it headless (--png/--gif/--frames). Given a
 * scenario (or nothing: the default scenario) it runs it first, recording
 * the trace in memory, under --tick-limit and --wall-limit as `run` does.
 * Bad input is "cubemu view: WHAT: reason", exit 2.
 */
#include "cli.h"
#include "run.h"
#include "sdl/view.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A trace if the file begins with the trace magic (or is not text at
 * all); a scenario if it is named *.ini or is text. */
static gboolean view_is_trace(const char *path)
{
    if (g_str_has_suffix(path, ".ini"))
        return FALSE;
    FILE *f = fopen(path, "rb");
    if (!f)
        return FALSE;            /* the scenario loader reports it */
    guint8 head[512];
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    if (n == 0)
        return TRUE;             /* empty: "not a cubemu trace" */
    return trace_looks_like_trace(head, n)
           || !g_utf8_validate((const char *)head, (gssize)n, NULL)
           || memchr(head, 0, n) != NULL;
}

static Trace *view_record(const char *path, char **sets, CliLimits *limits,
                          GError **error)
{
    g_autoptr(Scenario) s = cli_build_scenario(path, sets, error);
    if (!s)
        return NULL;
    g_autoptr(TraceRecorder) recorder = trace_recorder_new();
    RunOptions options = {
        .observer = trace_recorder_observer(),
        .observer_data = recorder,
    };
    if (!cli_limits_begin("view", limits, s, &options, error))
        return NULL;
    g_autoptr(Report) r = run_scenario(s, &options, error);
    cli_limits_end(limits);
    if (!r)
        return NULL;
    if (!r->data_correct)
        fprintf(stderr, "cubemu view: %s: the final memory is wrong (%s); "
                "showing the run anyway\n", r->scenario, r->data_problem);
    return trace_recorder_finish(recorder, r);
}

static gboolean parse_size(const char *text, int *w, int *h)
{
    char *end;
    long a = strtol(text, &end, 10);
    if (end == text || (*end != 'x' && *end != 'X'))
        return FALSE;
    const char *b_text = end + 1;
    long b = strtol(b_text, &end, 10);
    if (end == b_text || *end)
        return FALSE;
    if (a < view_min_width() || b < view_min_height() || a > VIEW_MAX_SIZE
        || b > VIEW_MAX_SIZE)
        return FALSE;
    *w = (int)a;
    *h = (int)b;
    return TRUE;
}

static int cmd_view(int argc, char **argv)
{
    g_auto(GStrv) sets = NULL;
    g_auto(GStrv) rest = NULL;
    g_autofree char *view = NULL, *size = NULL, *png = NULL, *gif = NULL,
                    *frames = NULL, *keys = NULL;
    gint64 at = G_MININT64, window = 0;      /* G_MININT64: not given */
    int frame_count = VIEW_DEFAULT_FRAMES, fps = VIEW_DEFAULT_FPS;
    g_auto(CliLimits) limits = { 0 };
    GOptionEntry entries[] = {
        { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets,
          "With a scenario: override or add a key", "SECTION.KEY=VALUE" },
        { "view", 0, 0, G_OPTION_ARG_STRING, &view,
          "graph or matrix (default: graph when the machine is small enough)",
          "VIEW" },
        { "at", 0, 0, G_OPTION_ARG_INT64, &at,
          "Cycle to show first, or to render with --png (default: the middle)",
          "CYCLE" },
        { "window", 0, 0, G_OPTION_ARG_INT64, &window,
          "Cycles over which a channel's busy share is shown (default: a "
          "fortieth of the run)", "CYCLES" },
        { "size", 0, 0, G_OPTION_ARG_STRING, &size,
          "Window or image size (default 1280x800)", "WxH" },
        { "png", 0, 0, G_OPTION_ARG_FILENAME, &png,
          "Render the frame at --at to a PNG, no display needed", "OUT.png" },
        { "gif", 0, 0, G_OPTION_ARG_FILENAME, &gif,
          "Render the whole run as an animated GIF", "OUT.gif" },
        { "frames", 0, 0, G_OPTION_ARG_FILENAME, &frames,
          "Render the whole run as PNG frames into a folder", "DIR" },
        { "frame-count", 0, 0, G_OPTION_ARG_INT, &frame_count,
          "Frames of --gif/--frames, spread over the run (default "
          G_STRINGIFY(VIEW_DEFAULT_FRAMES) ")", "N" },
        { "fps", 0, 0, G_OPTION_ARG_INT, &fps,
          "Frames per second of --gif (default " G_STRINGIFY(VIEW_DEFAULT_FPS) ")",
          "N" },
        CLI_LIMIT_ENTRIES(&limits),
        { "keys", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, &keys,
          "Tests: press these keys (comma-separated SDL names), then quit",
          "KEYS" },
        { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL,
          "[TRACE|SCENARIO]" },
        { .long_name = NULL }
    };
    static const char description[] =
        "Keys: space play/pause, left/right step (shift: previous/next phase),\n"
        "+/- speed, [ ] narrower/wider window, Home/End, g graph, m matrix,\n"
        "q quit. The mouse over a node or channel shows its counts; click or\n"
        "drag on the timeline to jump.";
    static const char *const once[] = { "--png", "--gif", "--frames", "--at", "--window", "--view", "--size", "--fps",
                                        "--tick-limit", "--wall-limit", "--threads", NULL };
    if (!cli_parse_options("view", entries, "- watch a run's channels",
                           description, once, &argc, &argv)
        || !cli_limits_check("view", &limits))
        return EXIT_INPUT;
    if (rest && g_strv_length(rest) > 1)
        return cli_fail("view", "one trace or scenario at a time ('%s' is extra)", rest[1]);
    /* The file is what its name says, or nothing is written. */
    if (png && !g_str_has_suffix(png, ".png") && strcmp(png, "-"))
        return cli_fail("view", "--png %s: expected a .png file (--gif writes "
                        "an animation)", png);
    if (gif && !g_str_has_suffix(gif, ".gif") && strcmp(gif, "-"))
        return cli_fail("view", "--gif %s: expected a .gif file (--png writes "
                        "one frame)", gif);

    ViewOptions o = {
        .view = VIEW_AUTO, .at = at == G_MININT64 ? -1 : at, .window = window,
        .width = VIEW_DEFAULT_WIDTH, .height = VIEW_DEFAULT_HEIGHT,
        .png = png, .gif = gif, .frames = frames,
        .frame_count = frame_count, .fps = fps, .keys = keys,
    };
    if (view && !strcmp(view, "graph"))
        o.view = VIEW_AS_GRAPH;
    else if (view && !strcmp(view, "matrix"))
        o.view = VIEW_AS_MATRIX;
    else if (view)
        return cli_fail("view", "--view %s: unknown view (valid: graph, matrix)", view);
    if (size && !parse_size(size, &o.width, &o.height))
        return cli_fail("view", "--size %s: expected WIDTHxHEIGHT within %dx%d..%dx%d",
                         size, view_min_width(), view_min_height(),
                         VIEW_MAX_SIZE, VIEW_MAX_SIZE);
    if (window < 0)
        return cli_fail("view", "--window %" G_GINT64_FORMAT ": must be a positive "
                         "number of cycles", (gint64)window);
    if (frame_count < 1 || frame_count > VIEW_MAX_FRAMES)
        return cli_fail("view", "--frame-count %d: out of range (valid: 1..%d)",
                         frame_count, VIEW_MAX_FRAMES);
    if (fps < 1 || fps > VIEW_MAX_FPS)
        return cli_fail("view", "--fps %d: out of range (valid: 1..%d)", fps, VIEW_MAX_FPS);
    if (at != G_MININT64 && at < 0)
        return cli_fail("view", "--at %" G_GINT64_FORMAT ": must be a cycle >= 0", (gint64)at);

    const char *path = rest ? rest[0] : NULL;
    GError *e = NULL;
    g_autoptr(Trace) t = NULL;
    if (path && view_is_trace(path)) {
        if (sets || limits.tick_text || limits.wall_text)
            return cli_fail("view", "%s applies to scenarios; %s is a trace",
                            sets ? "--set" : limits.tick_text ? "--tick-limit"
                                                              : "--wall-limit",
                            path);
        t = trace_load(path, &e);
    } else {
        t = view_record(path, sets, &limits, &e);
    }
    if (!t) {
        cli_print_error("view", e);
        g_error_free(e);
        return EXIT_INPUT;
    }
    Tick last = t->cycles > 0 ? t->cycles - 1 : 0;
    if (at > last)
        return cli_fail("view", "--at %" G_GINT64_FORMAT ": the run's cycles are 0..%"
                         G_GINT64_FORMAT, (gint64)at, (gint64)last);
    if (!view_run(t, &o, &e)) {
        cli_print_error("view", e);
        g_error_free(e);
        return EXIT_INPUT;
    }
    return EXIT_OK;
}

const CliCommand cli_command_view = {
    .name = "view",
    .usage = "view [TRACE|SCENARIO] [--set SECTION.KEY=VALUE]... [--view graph|matrix] "
             "[--at CYCLE] [--window CYCLES] [--size WxH] [--png OUT.png] "
             "[--gif OUT.gif] [--frames DIR] [--tick-limit TICKS] [--wall-limit SECONDS]",
    .run = cmd_view,
};
