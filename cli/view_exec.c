/* view_exec.c -- `cubemu view` in the cubemu program: hand the command to
 * cubemu-view, the same command line built with the SDL2 viewer
 * (cmd_view.c), which lives next to this program: in build/, and in
 * PREFIX/bin after make install (/proc/self/exe is the real file, so a
 * link to cubemu elsewhere still finds it).
 *
 * SDL2 and the libraries it brings (X11, Wayland, PulseAudio, image codecs:
 * sixty of the program's eighty-eight) cost 18 ms of loading and
 * constructors on every start, which was most of a small run's time and
 * all of `cubemu --version`'s. Only `view` needs them, so only cubemu-view
 * links them; the arguments, messages and exit status are cubemu-view's.
 */
#include "cli.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#define VIEW_PROGRAM "cubemu-view"

static int view_exec(int argc, char **argv)
{
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0 || (size_t)len >= sizeof self - sizeof VIEW_PROGRAM)
        return cli_fail("view", "cannot find this program's directory "
                        "(/proc/self/exe) to start %s", VIEW_PROGRAM);
    self[len] = '\0';
    char *slash = strrchr(self, '/');
    size_t dir = slash ? (size_t)(slash - self) + 1 : 0;
    memcpy(self + dir, VIEW_PROGRAM, sizeof VIEW_PROGRAM);

    /* cubemu-view view ARGS...: argv[0] is "view". */
    char **args = g_new(char *, (size_t)argc + 2);
    args[0] = self;
    for (int i = 0; i < argc; i++)
        args[i + 1] = argv[i];
    args[argc + 1] = NULL;
    fflush(stdout);
    execv(self, args);
    int err = errno;
    g_free(args);
    return cli_fail("view", "cannot start the viewer %s: %s (make builds it "
                    "beside cubemu, and make install installs it there, "
                    "where SDL2 is found)", self, strerror(err));
}

const CliCommand cli_command_view = {
    .name = "view",
    .usage = "view ... (runs cubemu-view)",
    .run = view_exec,
};
