/* gif.h -- an animated GIF from canvas frames (giflib).
 *
 * One global palette built from the renderer's own colours (the heat scale
 * and the flat interface colours exactly, a colour cube for the rest, such
 * as antialiased text); each frame after the first stores only the box of
 * pixels that changed, the unchanged ones inside it transparent, so a
 * minute of animation stays small.
 */
#ifndef CUBE_GIF_H
#define CUBE_GIF_H

#include "draw.h"

typedef struct GifOut GifOut;

/* delay: hundredths of a second per frame. All frames have the size given
 * here. The animation loops forever. */
GifOut *gif_out_open(const char *path, int width, int height, int delay,
                     const Color *colors, int ncolors, GError **error);
gboolean gif_out_add(GifOut *g, const Canvas *frame, GError **error);
/* Writes the trailer, replaces the target with the finished file
 * (output.h) and frees g, even on failure. */
gboolean gif_out_close(GifOut *g, GError **error);
/* Drops the GIF: the file it would have replaced stays as it was. */
void gif_out_abort(GifOut *g);

#endif
