/* view.h -- `cubemu view`: play a trace in an SDL2 window, or render it
 * headless to a PNG, an animated GIF or a folder of PNG frames.
 *
 * This header has no SDL types, so the command line compiles without SDL's
 * flags; only traces/sdl/ does.
 */
#ifndef CUBE_VIEW_H
#define CUBE_VIEW_H

#include <glib.h>
#include "trace.h"

typedef enum { VIEW_AUTO, VIEW_AS_GRAPH, VIEW_AS_MATRIX } ViewChoice;

/* Largest width or height: a bigger canvas is no more readable and its
 * frames would take hundreds of megabytes. */
#define VIEW_MAX_SIZE 8192
#define VIEW_DEFAULT_WIDTH 1280
#define VIEW_DEFAULT_HEIGHT 800
/* Animation defaults: frames over the whole run, and frames per second. */
#define VIEW_DEFAULT_FRAMES 60
#define VIEW_MAX_FRAMES 10000
#define VIEW_DEFAULT_FPS 12
#define VIEW_MAX_FPS 100

typedef struct {
    ViewChoice view;
    Tick at;                  /* --png cycle; < 0: the middle of the run */
    Tick window;              /* <= 0: the renderer's default */
    int width, height;
    const char *png, *gif, *frames;   /* headless outputs, any of them */
    int frame_count, fps;
    const char *keys;             /* tests: keys to press, then quit */
} ViewOptions;

/* Smallest canvas (render.h's limits, repeated for the command line). */
int view_min_width(void);
int view_min_height(void);

/* Headless when any of png, gif, frames is set, else the window. FALSE
 * with *error set ("OUT: reason", or what SDL could not do). */
gboolean view_run(const Trace *t, const ViewOptions *o, GError **error);

#endif
