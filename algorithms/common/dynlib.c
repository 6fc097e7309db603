/* dynlib.c -- libraries opened on first use (dynlib.h). */
#include "dynlib.h"

#include <dlfcn.h>

static gboolean dynlib_failure(DynLib *lib, GError **error)
{
    g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT, "%s", lib->failed);
    return FALSE;
}

gboolean dynlib_open(DynLib *lib, GError **error)
{
    if (lib->handle)
        return TRUE;
    if (lib->failed)
        return dynlib_failure(lib, error);
    const char *why = NULL;
    for (const char *const *n = lib->names; *n && !lib->handle; n++) {
        lib->handle = dlopen(*n, RTLD_NOW | RTLD_LOCAL);
        if (lib->handle)
            lib->opened = *n;
        else if (!why)
            why = dlerror();
    }
    if (!lib->handle) {
        lib->failed = g_strdup_printf("cannot load %s (%s: %s); %s",
                                      lib->what, lib->names[0],
                                      why ? why : "not found", lib->hint);
        return dynlib_failure(lib, error);
    }
    return TRUE;
}

gboolean dynlib_find(DynLib *lib, void **slot, const char *symbol,
                     GError **error)
{
    if (!dynlib_open(lib, error))
        return FALSE;
    *slot = dlsym(lib->handle, symbol);
    if (*slot)
        return TRUE;
    lib->failed = g_strdup_printf("the %s library (%s) has no %s", lib->what,
                                  lib->opened, symbol);
    dlclose(lib->handle);
    lib->handle = NULL;
    return dynlib_failure(lib, error);
}

void *dynlib_optional(DynLib *lib, const char *symbol)
{
    return lib->handle ? dlsym(lib->handle, symbol) : NULL;
}
