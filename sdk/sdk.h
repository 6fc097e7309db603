/* sdk.h -- the node-program SDK inside cubemu: a descriptor
 * (cubemu/program.h) made into an Algorithm that the runner, the reports,
 * the traces and both backends treat like any other, and the loading of
 * a descriptor from a shared object.
 *
 * sdk/program.c implements the header's cubemu_* functions over the
 * engine's own (emu/node.h, run/report.h, machines/): a program's
 * configuration is wrapped with a copy of the machine that its handle
 * points at, so the program's callbacks see only cubemu_* types.
 * sdk/load.c opens the shared object, checks the descriptor and keeps
 * both for the life of the process (a run's report holds the program's
 * strings).
 */
#ifndef CUBE_SDK_H
#define CUBE_SDK_H

#include "algorithm.h"
#include "cubemu/program.h"

#include <stddef.h>

/* The Algorithm that runs descriptor p, after checking every field the
 * header requires; `path` is the shared object it came from (NULL for a
 * built-in), named in errors. NULL with *error (SCENARIO_ERROR, so exit
 * status 2) when the descriptor is unusable. Kept until the process
 * exits. */
const Algorithm *sdk_algorithm(const cubemu_program *p, const char *path,
                               GError **error);

/* The descriptor sizes this cubemu loads (cubemu_program.size): the
 * interface's version grows only by fields at the end, so a program built
 * against an earlier header of the same version is the first fields of
 * today's descriptor. The smallest is version 1 as first released, every
 * field before `flags`; the largest, today's. */
#define SDK_DESCRIPTOR_SIZE_MIN offsetof(cubemu_program, flags)
#define SDK_DESCRIPTOR_SIZE_MAX sizeof(cubemu_program)

/* Descriptor p's flags (CUBEMU_RUNS_*): 0 when its size does not cover
 * the field (a program built before it was added). */
unsigned sdk_flags(const cubemu_program *p);

/* Load the program at `path` (a file name as the scenario resolved it;
 * `shown` is how to name it in messages) and make its Algorithm. The
 * same path gives the same Algorithm. NULL with *error "SHOWN: what is
 * wrong" (SCENARIO_ERROR). */
const Algorithm *sdk_load(const char *path, const char *shown,
                          GError **error);

#endif
