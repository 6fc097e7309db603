/* progress.c -- the progress line on standard error (progress.h). */
#ifndef _DEFAULT_SOURCE      /* TIOCGWINSZ */
#define _DEFAULT_SOURCE
#endif
#include "progress.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define ERASE "\r\033[K"
#define LINE_MAX_BYTES 512

static gboolean on;                 /* progress_configure decided so */
static gboolean terminal;           /* standard error is a terminal */
static gint64 delay_us = (gint64)(PROGRESS_DELAY * 1e6);

static char prefix[128];
static gint64 prefix_since;         /* when a prefix was first set; 0 none */
static char label[256];
static gboolean begun;
static gint64 begin_us;             /* progress_begin */
static gint64 last_draw_us;         /* 0: never drawn */
static gboolean drawn;              /* since progress_begin */
/* The line is on the screen: read by progress_clear in a signal handler. */
static volatile sig_atomic_t shown;

void progress_configure(ProgressMode mode)
{
    terminal = isatty(STDERR_FILENO) == 1;
    const char *term = getenv("TERM");
    on = mode == PROGRESS_ON
         || (mode == PROGRESS_AUTO && terminal
             && !(term && !strcmp(term, "dumb")));
    /* The test hook: seconds before the line shows (0: at once). A
     * value that is not a number of seconds is ignored. */
    delay_us = (gint64)(PROGRESS_DELAY * 1e6);
    const char *env = getenv("CUBEMU_PROGRESS_DELAY");
    if (env && *env) {
        char *end;
        double d = g_ascii_strtod(env, &end);
        if (!*end && end != env && isfinite(d) && d >= 0 && d < 1e6)
            delay_us = (gint64)(d * 1e6);
    }
}

gboolean progress_mode_from_flags(gboolean progress, gboolean quiet,
                                  ProgressMode *mode)
{
    if (progress && quiet)
        return FALSE;
    *mode = progress ? PROGRESS_ON : quiet ? PROGRESS_OFF : PROGRESS_AUTO;
    return TRUE;
}

gboolean progress_enabled(void)
{
    return on;
}

void progress_set_prefix(const char *fmt, ...)
{
    if (!fmt) {
        prefix[0] = '\0';
        prefix_since = 0;
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    g_vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    if (!prefix_since)
        prefix_since = g_get_monotonic_time();
}

void progress_begin(const char *text)
{
    g_strlcpy(label, text ? text : "", sizeof label);
    begin_us = g_get_monotonic_time();
    begun = TRUE;
    drawn = FALSE;
}

gboolean progress_drawn(void)
{
    return begun && drawn;
}

gboolean progress_due(void)
{
    if (!on || !begun)
        return FALSE;
    gint64 now = g_get_monotonic_time();
    gint64 from = prefix_since ? MIN(prefix_since, begin_us) : begin_us;
    if (now - from < delay_us)
        return FALSE;
    return !last_draw_us || now - last_draw_us >= G_USEC_PER_SEC / PROGRESS_HZ;
}

/* All of [s, s + n) to standard error; FALSE if it cannot be written. */
static gboolean write_all(const char *s, size_t n)
{
    while (n > 0) {
        ssize_t w = write(STDERR_FILENO, s, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return FALSE;
        s += w;
        n -= (size_t)w;
    }
    return TRUE;
}

/* The terminal's width, or 0 (no limit: not a terminal). */
static size_t columns(void)
{
    if (!terminal)
        return 0;
    struct winsize ws;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
    return 80;
}

/* Characters (UTF-8 sequences; a stray byte counts as one) in s. */
static size_t text_width(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* Cuts s after `width` characters. */
static void cut(char *s, size_t width)
{
    size_t n = 0;
    for (char *p = s; *p; p++) {
        if (((unsigned char)*p & 0xC0) != 0x80 && n++ == width) {
            *p = '\0';
            return;
        }
    }
}

/* A process in the background of its terminal keeps off it: the shell's
 * prompt is there, and with `stty tostop` writing would stop the
 * process. */
static gboolean in_background(void)
{
    if (!terminal)
        return FALSE;
    pid_t fg = tcgetpgrp(STDERR_FILENO);
    return fg != -1 && fg != getpgrp();
}

void progress_update(const char *fmt, ...)
{
    if (!progress_due() || in_background())
        return;
    char text[LINE_MAX_BYTES / 2];
    va_list ap;
    va_start(ap, fmt);
    g_vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    char elapsed[32];
    progress_duration_text(elapsed, sizeof elapsed, progress_elapsed());
    size_t width = columns();
    /* The label alone when a path is too long for the terminal. */
    const char *name = label;
    const char *slash = strrchr(label, '/');
    char line[LINE_MAX_BYTES];
    for (int pass = 0; pass < 2; pass++) {
        g_snprintf(line, sizeof line, "[%s] %s%s%s%s%s", elapsed, prefix,
                   *prefix && *name ? ", " : "", name,
                   *prefix || *name ? ": " : "", text);
        if (!width || text_width(line) < width || !slash)
            break;
        name = slash + 1;
    }
    /* Never as wide as the terminal: a wrapped line cannot be erased,
     * and a full one wraps on some terminals. */
    if (width)
        cut(line, width - 1);
    char out[LINE_MAX_BYTES + 8];
    int n = g_snprintf(out, sizeof out, "\r%s\033[K", line);
    last_draw_us = g_get_monotonic_time();
    shown = 1;
    drawn = TRUE;
    if (!write_all(out, (size_t)MIN(n, (int)sizeof out - 1)))
        on = FALSE;                 /* standard error is gone: stop */
}

void progress_clear(void)
{
    if (shown) {
        shown = 0;
        ssize_t w = write(STDERR_FILENO, ERASE, sizeof ERASE - 1);
        (void)w;
    }
}

void progress_end(void)
{
    progress_clear();
    begun = FALSE;
}

double progress_elapsed(void)
{
    return begun ? (double)(g_get_monotonic_time() - begin_us) / 1e6 : 0;
}

void progress_duration_text(char *buf, size_t size, double seconds)
{
    unsigned long long s = seconds > 0 ? (unsigned long long)seconds : 0;
    if (s >= 3600)
        g_snprintf(buf, size, "%llu:%02llu:%02llu", s / 3600, s / 60 % 60,
                   s % 60);
    else
        g_snprintf(buf, size, "%llu:%02llu", s / 60, s % 60);
}

void progress_eta(char *buf, size_t size, uint64_t done, uint64_t total,
                  double seconds)
{
    if (!done || !total || done > total || !(seconds > 0)) {
        if (size)
            buf[0] = '\0';
        return;
    }
    char left[32];
    progress_duration_text(left, sizeof left,
                           seconds * (double)(total - done) / (double)done);
    g_snprintf(buf, size, ", ETA %s", left);
}

void progress_count_text(char *buf, size_t size, uint64_t value)
{
    char digits[32];
    g_snprintf(digits, sizeof digits, "%" G_GUINT64_FORMAT, (guint64)value);
    size_t n = strlen(digits), o = 0;
    for (size_t i = 0; i < n && o + 2 < size; i++) {
        if (i > 0 && (n - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = digits[i];
    }
    if (size)
        buf[MIN(o, size - 1)] = '\0';
}

void progress_rate_text(char *buf, size_t size, double value)
{
    static const char *const unit[] = { "", " k", " M", " G", " T" };
    unsigned u = 0;
    while (value >= 1000 && u + 1 < G_N_ELEMENTS(unit)) {
        value /= 1000;
        u++;
    }
    g_snprintf(buf, size, u ? "%.1f%s" : "%.0f%s", value, unit[u]);
}
