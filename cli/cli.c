/* cli.c -- pieces the commands share: building a scenario from a file or
 * the default plus --set values (run/scenario_default.c, shared with
 * cubemu-mpi), error printing, options, limits.
 */
#include "cli.h"
#include "progress.h"

#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

/* What `cubemu run` with the default scenario compares it with (--compare):
 * the CM-200 as built, whose nodes each have one memory path. */
const char *const cli_default_compare[] = { "machine.memory-path=yes", NULL };

gboolean cli_sets_machine(char *const *sets)
{
    for (char *const *a = sets; a && *a; a++)
        if (g_str_has_prefix(*a, "machine."))
            return TRUE;
    return FALSE;
}

void cli_print_error(const char *command, const GError *e)
{
    fprintf(stderr, "cubemu %s: %s\n", command, e->message);
}

int cli_fail(const char *command, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *what = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    fprintf(stderr, "cubemu %s: %s\n", command, what);
    return EXIT_INPUT;
}

/* GLib converts every string option's value from the locale's character
 * set to UTF-8; under the C locale (the program never calls setlocale)
 * that refuses any byte above 127, valid UTF-8 included, and the message
 * names no flag. A value's bytes are taken as UTF-8 instead, whatever the
 * locale, as a scenario file's are: the parse runs with this thread's
 * character type set to UTF-8, where GLib passes valid UTF-8 through
 * unchanged and refuses only what is not UTF-8. Only LC_CTYPE changes,
 * and only for the parse: numbers are still printed with '.'. NULL where
 * no UTF-8 locale exists (the parse is then GLib's as before). */
static locale_t utf8_ctype(void)
{
    static const char *const names[] = { "C.UTF-8", "C.utf8", "en_US.UTF-8" };
    for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
        locale_t base = duplocale(LC_GLOBAL_LOCALE);
        if (base == (locale_t)0)
            return (locale_t)0;
        locale_t l = newlocale(LC_CTYPE_MASK, names[i], base);
        if (l != (locale_t)0)
            return l;
        freelocale(base);           /* a failed newlocale leaves it */
    }
    return (locale_t)0;
}

/* After a parse that failed on bytes that are not UTF-8: the message for
 * the option whose value holds them, naming the flag (and for --set the
 * key, as scenario_apply_set says it), or NULL if none does. */
static char *not_utf8_message(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--"))
            break;
        if (g_utf8_validate(argv[i], -1, NULL))
            continue;
        g_autofree char *flag = NULL;
        const char *value = NULL;
        const char *eq = strchr(argv[i], '=');
        if (g_str_has_prefix(argv[i], "--") && eq) {
            flag = g_strndup(argv[i], (gsize)(eq - argv[i]));
            value = eq + 1;
        } else if (argv[i - 1][0] == '-' && !strchr(argv[i - 1], '=')) {
            flag = g_strdup(argv[i - 1]);
            value = argv[i];
        } else {
            continue;                 /* an operand: GLib does not convert */
        }
        if (!strcmp(flag, "--set")) {
            g_autoptr(Scenario) scratch = scenario_new("--set");
            GError *e = NULL;
            if (!scenario_apply_set(scratch, value, &e)) {
                char *message = g_strdup(e->message);
                g_error_free(e);
                return message;
            }
        }
        g_autofree char *echo = scenario_echo(value);
        return g_strdup_printf("%s %s: not UTF-8 text", flag, echo);
    }
    return NULL;
}

/* Whether ARG is FLAG ("--plot", "--plot=x"; a short flag only alone). */
static gboolean is_flag(const char *arg, const char *flag)
{
    size_t n = strlen(flag);
    return !strncmp(arg, flag, n) && (arg[n] == '\0'
                                      || (flag[1] == '-' && arg[n] == '='));
}

/* GOption keeps the last of a repeated flag; a flag of FLAGS (NULL-ended,
 * "--plot", "-o") given twice is refused instead: "cubemu COMMAND: --plot
 * given twice: it takes one value" and FALSE. */
static gboolean refuse_repeated(const char *command, int argc, char **argv,
                                const char *const *flags)
{
    for (const char *const *f = flags; *f; f++) {
        int seen = 0;
        for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
            if (is_flag(argv[i], *f) && ++seen == 2) {
                cli_fail(command, "%s given twice: it takes one value", *f);
                return FALSE;
            }
    }
    return TRUE;
}

/* Parse options; on failure print "cubemu COMMAND: message" and FALSE. */
static gboolean parse(GOptionContext *ctx, const char *command, int *argc,
                      char ***argv)
{
    GError *e = NULL;
    locale_t utf8 = utf8_ctype();
    locale_t before = utf8 != (locale_t)0 ? uselocale(utf8) : (locale_t)0;
    gboolean ok = g_option_context_parse(ctx, argc, argv, &e);
    if (utf8 != (locale_t)0) {
        uselocale(before);
        freelocale(utf8);
    }
    if (ok)
        return TRUE;
    /* A failed parse leaves argv as it was given. */
    g_autofree char *message = e->domain == G_CONVERT_ERROR
                               ? not_utf8_message(*argc, *argv) : NULL;
    if (message)
        cli_fail(command, "%s", message);
    else
        cli_print_error(command, e);
    g_error_free(e);
    return FALSE;
}

gboolean cli_parse_options(const char *command, const GOptionEntry *entries,
                           const char *summary, const char *description,
                           const char *const *once, int *argc, char ***argv)
{
    g_autoptr(GOptionContext) ctx = g_option_context_new(summary);
    g_option_context_add_main_entries(ctx, entries, NULL);
    if (description)
        g_option_context_set_description(ctx, description);
    if (once && !refuse_repeated(command, *argc, *argv, once))
        return FALSE;
    return parse(ctx, command, argc, argv);
}

Scenario *cli_build_compared(const char *path, char **sets, char **compare,
                             GError **error)
{
    return scenario_default_build(path, sets, compare, error);
}

Scenario *cli_build_scenario(const char *path, char **sets, GError **error)
{
    return cli_build_compared(path, sets, NULL, error);
}

gboolean cli_progress(const char *command, gboolean progress, gboolean quiet)
{
    ProgressMode mode;
    if (!progress_mode_from_flags(progress, quiet, &mode)) {
        cli_fail(command, "--progress and --quiet contradict each other: "
                 "give one");
        return FALSE;
    }
    progress_configure(mode);
    return TRUE;
}

gboolean cli_limits_check(const char *command, CliLimits *l)
{
    if (l->tick_text) {
        gint64 v;
        if (!g_ascii_string_to_signed(l->tick_text, 10, 1, G_MAXINT64, &v,
                                      NULL)) {
            cli_fail(command, "--tick-limit: '%s' is not a number of ticks "
                     "(valid: a whole number from 1 to 2^63 - 1)",
                     l->tick_text);
            return FALSE;
        }
        l->ticks = (Tick)v;
        l->tick_name = g_strdup_printf("--tick-limit %" G_GINT64_FORMAT, v);
    }
    if (l->wall_text) {
        char *end = NULL;
        double v = g_ascii_strtod(l->wall_text, &end);
        if (!*l->wall_text || *end || !isfinite(v) || v <= 0) {
            cli_fail(command, "--wall-limit: '%s' is not a number of seconds "
                     "(valid: a number above 0)", l->wall_text);
            return FALSE;
        }
        l->seconds = v;
        l->wall_name = g_strdup_printf("--wall-limit %s", l->wall_text);
    }
    if (l->threads_text && !run_threads_parse(l->threads_text, &l->threads)) {
        cli_fail(command, "--threads: '%s' is not a thread count (valid: a "
                 "whole number from 1 to %d, or auto)", l->threads_text,
                 RUN_THREADS_MAX);
        return FALSE;
    }
    l->sim = (SimLimits){ l->ticks, l->tick_name,
                          l->seconds > 0 ? &l->stop : NULL, l->wall_name };
    return TRUE;
}

gboolean cli_limits_begin(const char *command, CliLimits *l, const Scenario *s,
                          RunOptions *options, GError **error)
{
    options->limits = l->ticks > 0 || l->seconds > 0 ? &l->sim : NULL;
    options->threads = l->threads;
    if (l->seconds <= 0)
        return TRUE;
    g_autofree char *what = g_strdup_printf("%s%s%s%s: the run passed %s",
                                            command ? "cubemu " : "",
                                            command ? command : "",
                                            command ? ": " : "",
                                            scenario_name(s), l->wall_name);
    if (!stop_timer_arm(&l->stop, l->seconds, what, EXIT_INPUT, error)) {
        g_prefix_error(error, "--wall-limit: ");
        return FALSE;
    }
    return TRUE;
}

void cli_limits_end(CliLimits *l)
{
    if (l->seconds > 0)
        stop_timer_disarm();
}

void cli_limits_clear(CliLimits *l)
{
    cli_limits_end(l);
    g_clear_pointer(&l->tick_text, g_free);
    g_clear_pointer(&l->wall_text, g_free);
    g_clear_pointer(&l->threads_text, g_free);
    g_clear_pointer(&l->tick_name, g_free);
    g_clear_pointer(&l->wall_name, g_free);
}
