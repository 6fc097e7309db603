/* load.c -- a node program's shared object opened, its descriptor found
 * and checked, and kept for the rest of the process.
 *
 * The object is opened with RTLD_NOW, so a call it makes that cubemu does
 * not export (a misspelt cubemu_* function, a library it was not linked
 * with) is refused at once rather than when a node first makes it, and
 * RTLD_LOCAL, so two programs never see each other's symbols. It is never
 * closed: the report, the trace and the phase names point into it until
 * the process exits.
 */
#include "sdk.h"
#include "scenario.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Loaded programs by absolute path: the same file loads once. */
static GHashTable *loaded;
G_LOCK_DEFINE_STATIC(loaded);

static void *fail(GError **error, const char *shown, const char *fmt, ...)
    G_GNUC_PRINTF(3, 4);
static void *fail(GError **error, const char *shown, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *what = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INPUT, "%s: %s", shown,
                what);
    return NULL;
}

/* What kind of file a program's path names, by its ELF header (e_ident,
 * then e_type at offset 16 in the byte order e_ident[EI_DATA] gives):
 * dlopen's own messages for the wrong kinds ("invalid ELF header", "only
 * ET_DYN and ET_EXEC can be loaded") name the cause less plainly. */
typedef enum { OBJECT_NOT_ELF, OBJECT_RELOCATABLE, OBJECT_OTHER } ObjectKind;

static ObjectKind object_kind(const char *path)
{
    unsigned char head[EI_NIDENT + 2] = { 0 };
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return OBJECT_NOT_ELF;
    ssize_t n = read(fd, head, sizeof head);
    close(fd);
    if (n < SELFMAG || memcmp(head, ELFMAG, SELFMAG))
        return OBJECT_NOT_ELF;
    if (n < (ssize_t)sizeof head)
        return OBJECT_OTHER;
    unsigned type = head[EI_DATA] == ELFDATA2MSB
                        ? (unsigned)head[EI_NIDENT] << 8 | head[EI_NIDENT + 1]
                        : (unsigned)head[EI_NIDENT + 1] << 8 | head[EI_NIDENT];
    return type == ET_REL ? OBJECT_RELOCATABLE : OBJECT_OTHER;
}

static const Algorithm *load(const char *path, const char *real,
                             const char *shown, GError **error)
{
    switch (object_kind(real)) {
    case OBJECT_NOT_ELF:
        return fail(error, shown, "%s is not a shared object (build it with "
                    "cc -shared -fPIC)", path);
    case OBJECT_RELOCATABLE:
        return fail(error, shown, "%s is an object file (cc -c), not a "
                    "shared object: link it with cc -shared -fPIC", path);
    case OBJECT_OTHER:
        break;
    }
    /* A path with a slash: dlopen takes it as a file, never searching
     * the library path for it. */
    void *handle = dlopen(real, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        return fail(error, shown, "%s cannot be loaded: %s", path,
                    why ? why : "dlopen failed");
    }
    dlerror();
    const cubemu_program *p = dlsym(handle, CUBEMU_PROGRAM_SYMBOL);
    if (!p) {
        dlclose(handle);
        return fail(error, shown, "%s has no node program: it does not "
                    "export %s (define it with CUBEMU_PROGRAM(...) from "
                    "<cubemu/program.h>)", path, CUBEMU_PROGRAM_SYMBOL);
    }
    if (p->abi != CUBEMU_PROGRAM_ABI) {
        uint32_t abi = p->abi;
        dlclose(handle);
        return fail(error, shown, "%s was built for version %u of the "
                    "node-program interface; this cubemu runs version %d "
                    "(rebuild it against this cubemu's <cubemu/program.h>)",
                    path, abi, CUBEMU_PROGRAM_ABI);
    }
    if (p->size < SDK_DESCRIPTOR_SIZE_MIN
        || p->size > SDK_DESCRIPTOR_SIZE_MAX) {
        uint32_t size = p->size;
        dlclose(handle);
        return fail(error, shown, "%s: its descriptor is %u bytes, not the "
                    "%zu to %zu of version %d of the interface (rebuild it "
                    "against this cubemu's <cubemu/program.h>)", path, size,
                    SDK_DESCRIPTOR_SIZE_MIN, SDK_DESCRIPTOR_SIZE_MAX,
                    CUBEMU_PROGRAM_ABI);
    }
    GError *e = NULL;
    const Algorithm *alg = sdk_algorithm(p, path, &e);
    if (!alg) {
        dlclose(handle);
        g_propagate_prefixed_error(error, e, "%s: ", shown);
    }
    return alg;
}

const Algorithm *sdk_load(const char *path, const char *shown,
                          GError **error)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return fail(error, shown, "%s: %s", path, g_strerror(errno));
    if (!S_ISREG(st.st_mode))
        return fail(error, shown, "%s is not a file", path);
#ifdef CUBEMU_SMPI
    /* smpirun runs each rank in a private copy of cubemu-smpi, loaded
     * with dlopen: its functions are not in the global scope, where a
     * program's calls are bound, and making one copy global would bind
     * every rank's program to that copy's state. */
    return fail(error, shown, "%s: a node program of your own does not run "
                "under SMPI (smpirun loads every rank as a private copy of "
                "cubemu-smpi, whose functions the program cannot be bound "
                "to); run it with cubemu or, on MPI, cubemu-mpi", path);
#endif
    g_autofree char *real = g_canonicalize_filename(path, NULL);
    G_LOCK(loaded);
    if (!loaded)
        loaded = g_hash_table_new(g_str_hash, g_str_equal);
    const Algorithm *alg = g_hash_table_lookup(loaded, real);
    if (!alg) {
        alg = load(path, real, shown, error);
        if (alg)
            g_hash_table_insert(loaded, g_strdup(real), (gpointer)alg);
    }
    G_UNLOCK(loaded);
    return alg;
}
