/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target for the simulator: every input is loaded as an XML model
 * from memory (clink_xml_load_memory, the whole loading path) and, when the
 * model builds, simulated briefly under bounded settings (t_end at most 0.02 s
 * of the model's own, at most 2000 steps, 2 s of wall clock), advancing to four
 * output times and reading every getter after each advance. A finding is any
 * crash or sanitizer report, a hang beyond libFuzzer's -timeout, a leak, or a
 * non-finite value reported by a getter after an advance that returned
 * CLINK_OK (the simulator promises to stop with CLINK_ERR_NONFINITE instead).
 * Non-finite values trap, so libFuzzer keeps the input. Built by scripts/fuzz
 * --sim with clang -fsanitize=fuzzer,address,undefined; never part of the
 * default build. The same run (fuzz_sim_run.h) replays the regressions and the
 * kept corpus in ctest (tests/sim/test_reliability.c).
 */
#include "fuzz_sim_run.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char why[256];

    if (fuzz_sim_run((const char *) data, size, why, sizeof why) < 0)
        __builtin_trap();
    return 0;
}
