/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target for the sweep specification reader (src/sweep/sweep_spec.c): the
 * input is written to a file and loaded through the public header
 * (clink_sweep_load(): well-formedness, the embedded sweep schema, the checks of
 * docs/sweeps.md and the expansion of lists, ranges, zips and random axes into
 * values), then the cases are laid out as a run lays them out, without running any:
 * the header and, for up to 256 cases spread over the sweep, the value index of
 * every parameter (clink_sweep_case()) and the table row (sweep_row() of the
 * module's internal header, for a made-up failed result whose cause needs quoting).
 * What must hold: a specification that is read has 1 .. 10^7 cases, the product of
 * its axes' lengths, every axis at least one value and its parameters that many,
 * every index within its parameter's values; one that is refused has a message.
 * Built by scripts/fuzz (--sweep) with clang -fsanitize=fuzzer,address,undefined;
 * never part of the default build.
 */
#define _POSIX_C_SOURCE 200809L

#include "clink/sweep.h"
#include "sweep/sweep_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* the spec file of this process, holding data: 0, or -1 when it cannot be written */
static int fuzz_write(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");

    if (f == NULL)
        return -1;
    if (fwrite(data, 1, size, f) != size) {
        fclose(f);
        return -1;
    }
    return fclose(f) != 0 ? -1 : 0;
}

/* the axes checked against the parameters; their product */
static double fuzz_axes(const clink_sweep *sw)
{
    double product = 1;

    for (int a = 0; a < clink_sweep_axis_count(sw); a++) {
        int first, count;
        long n;
        if (clink_sweep_axis(sw, a, &first, &count, &n) != CLINK_OK || n < 1 || count < 0 ||
            first + count > clink_sweep_parameter_count(sw))
            __builtin_trap();
        for (int i = 0; i < count; i++)
            if (clink_sweep_value_count(sw, first + i) != n)
                __builtin_trap();
        product *= (double) n;
    }
    return product;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    static char buf[SWEEP_ROW_MAX];
    clink_sweep *sw = NULL;
    sweep_result res;
    char err[1300];
    long n, idx[SWEEP_MAX_PARAMS];

    if (path[0] == '\0')
        snprintf(path, sizeof path, "/tmp/clink-fuzz-sweep-%ld.xml", (long) getpid());
    if (fuzz_write(path, data, size) != 0)
        return 0;
    err[0] = '\0';
    if (clink_sweep_load(path, &sw, err, sizeof err) != CLINK_OK) {
        if (err[0] == '\0' || sw != NULL)
            __builtin_trap();
        return 0;
    }
    n = clink_sweep_case_count(sw);
    if (n < 1 || n > SWEEP_MAX_CASES || fuzz_axes(sw) != (double) n)
        __builtin_trap();
    if (strlen(clink_sweep_header(sw)) >= SWEEP_ROW_MAX)
        __builtin_trap();
    memset(&res, 0, sizeof res);
    res.status = "failed";
    res.has_q = 1;
    snprintf(res.cause, sizeof res.cause, "a \"cause\", with a comma");
    for (long j = 0; j < 256 && j < n; j++) {
        long k = n <= 256 ? j : j * (n - 1) / 255;
        if (clink_sweep_case(sw, k, idx) != CLINK_OK)
            __builtin_trap();
        for (int i = 0; i < clink_sweep_parameter_count(sw); i++)
            if (clink_sweep_value(sw, i, idx[i]) == NULL)
                __builtin_trap();
        sweep_row(&sw->spec, k, &res, buf, sizeof buf);
        if (strlen(buf) >= sizeof buf)
            __builtin_trap();
    }
    if (clink_sweep_case(sw, n, idx) != CLINK_ERR_RANGE)
        __builtin_trap();
    clink_sweep_destroy(&sw);
    return 0;
}
