/* check_main.h -- the main() every Check suite shares: run one suite in
 * Check's default fork mode (a crash counts as a failed test) and exit
 * nonzero if anything failed: CUBE_CHECK_MAIN(name_suite) at the end of a
 * suite file. */
#ifndef CUBE_CHECK_MAIN_H
#define CUBE_CHECK_MAIN_H

#include <check.h>
#include "machine.h"

#define CUBE_CHECK_MAIN(suite_fn)                          \
    int main(int argc, char **argv)                        \
    {                                                      \
        (void)argc;                                        \
        machine_set_program_path(argv[0]);                 \
        SRunner *sr = srunner_create(suite_fn());          \
        srunner_run_all(sr, CK_NORMAL);                    \
        int failed = srunner_ntests_failed(sr);            \
        srunner_free(sr);                                  \
        return failed ? 1 : 0;                             \
    }

#endif
