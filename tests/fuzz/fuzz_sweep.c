/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target for the sweep specification reader of `clink sweep`
 * (src/cli/cmd_sweep.c): the input is written to a file and read by the
 * command's own reader (sweep_spec_read: well-formedness, the embedded sweep
 * schema, the checks of docs/sweeps.md and the expansion of lists, ranges,
 * zips and random axes into values), then the cases are laid out as the
 * command lays them out, without running any: the header and, for up to 256
 * cases spread over the sweep, the value index of every parameter and the
 * table row. What must hold: a specification that is read has 1 ..
 * SWEEP_MAX_CASES cases, the product of its axes' lengths, every axis at least
 * one value, every index within its parameter's values; one that is refused
 * has a message. The reader is static in the command, so this file includes
 * the command's source (nothing in the command changes for it). Built by
 * scripts/fuzz (--sweep) with clang -fsanitize=fuzzer,address,undefined;
 * never part of the default build.
 */
#include "cli/cmd_sweep.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    static sweep_spec spec;
    static char buf[SWEEP_ROW_MAX];
    sweep_result res;
    char err[1200];
    double product = 1;
    FILE *f;

    if (path[0] == '\0')
        snprintf(path, sizeof path, "/tmp/clink-fuzz-sweep-%ld.xml", (long) getpid());
    f = fopen(path, "wb");
    if (f == NULL)
        return 0;
    if (fwrite(data, 1, size, f) != size) {
        fclose(f);
        return 0;
    }
    if (fclose(f) != 0)
        return 0;
    memset(&spec, 0, sizeof spec);
    err[0] = '\0';
    if (sweep_spec_read(&spec, path, err, sizeof err) != 0) {
        if (err[0] == '\0')
            __builtin_trap();
        sweep_spec_free(&spec);
        return 0;
    }
    for (int a = 0; a < spec.n_axes; a++) {
        if (spec.axes[a].n < 1 || spec.axes[a].count < 0 ||
            spec.axes[a].first + spec.axes[a].count > spec.n_params)
            __builtin_trap();
        for (int i = 0; i < spec.axes[a].count; i++)
            if (spec.params[spec.axes[a].first + i].n != spec.axes[a].n)
                __builtin_trap();
        product *= (double) spec.axes[a].n;
    }
    if (spec.n_cases < 1 || spec.n_cases > SWEEP_MAX_CASES || product != (double) spec.n_cases)
        __builtin_trap();
    sweep_header(&spec, buf, sizeof buf);
    memset(&res, 0, sizeof res);
    res.status = "failed";
    res.has_q = 1;
    snprintf(res.cause, sizeof res.cause, "a \"cause\", with a comma");
    for (long j = 0; j < 256 && j < spec.n_cases; j++) {
        long k = spec.n_cases <= 256 ? j : j * (spec.n_cases - 1) / 255, idx[SWEEP_MAX_PARAMS];
        sweep_case_values(&spec, k, idx);
        for (int i = 0; i < spec.n_params; i++)
            if (idx[i] < 0 || idx[i] >= spec.params[i].n)
                __builtin_trap();
        sweep_row(&spec, k, &res, buf, sizeof buf);
        if (strlen(buf) >= sizeof buf)
            __builtin_trap();
    }
    sweep_spec_free(&spec);
    return 0;
}
