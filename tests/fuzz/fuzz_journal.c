/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target for the sweep journal's reader on resume (src/sweep/sweep_journal.c,
 * the row checks of src/sweep/sweep_table.c): a fixed specification of 12 cases (three
 * parameters, one of them with values that need CSV quoting) is loaded once; each input
 * becomes the body of DIR/sweep.journal after the specification's own tag line, and the
 * journal is opened for resuming as clink_sweep_run() opens it (sweep_run_begin() with
 * resume set: lock, read, check every row, cut the file to its complete lines). What
 * must hold: the open succeeds (a damaged row is skipped, never refused or a crash);
 * every row kept is case k's (sweep_row_case()), passes sweep_row_check(), holds no NUL
 * byte and ends with its newline; the tally counts exactly the rows kept; the journal
 * left on disk is the tag line and whole lines only, never longer than what was
 * written; one warning at most per line of input. Built by scripts/fuzz (--journal) with
 * clang -fsanitize=fuzzer,address,undefined; never part of the default build.
 */
#define _POSIX_C_SOURCE 200809L

#include "clink/sweep.h"
#include "sweep/sweep_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* the specification of every input (the model is never loaded: no case runs) */
static const char fuzz_spec[] =
    "<?xml version=\"1.0\"?>\n"
    "<sweep model=\"no-model.xml\">\n"
    "  <parameter path=\"settings.t_end\" values=\"0.005 0.01\"/>\n"
    "  <parameter path=\"body[crank].mass\" values=\"0.3 0.31 0.32\"/>\n"
    "  <parameter path=\"body[crank].name\" values='a,b c\"d'/>\n"
    "  <collect quantities=\"impacts steps\"/>\n"
    "</sweep>\n";

static char fuzz_dir[64], fuzz_journal[96], fuzz_tag[256];
static clink_sweep *fuzz_sw;

/* path holding the n bytes of a then the n2 of b: 0, or -1 when it cannot be written */
static int fuzz_write(const char *path, const void *a, size_t n, const void *b, size_t n2)
{
    FILE *f = fopen(path, "wb");

    if (f == NULL)
        return -1;
    if (fwrite(a, 1, n, f) != n || (n2 > 0 && fwrite(b, 1, n2, f) != n2)) {
        fclose(f);
        return -1;
    }
    return fclose(f) != 0 ? -1 : 0;
}

/* once: the directory, the specification loaded, its tag line (from a fresh journal) */
static int fuzz_setup(void)
{
    char spec[96], err[1300];
    sweep_run run;
    FILE *f;

    snprintf(fuzz_dir, sizeof fuzz_dir, "/tmp/clink-fuzz-journal-%ld", (long) getpid());
    snprintf(spec, sizeof spec, "%s/spec.xml", fuzz_dir);
    snprintf(fuzz_journal, sizeof fuzz_journal, "%s/sweep.journal", fuzz_dir);
    if ((mkdir(fuzz_dir, 0777) != 0 && access(fuzz_dir, W_OK) != 0) ||
        fuzz_write(spec, fuzz_spec, strlen(fuzz_spec), NULL, 0) != 0 ||
        clink_sweep_load(spec, &fuzz_sw, err, sizeof err) != CLINK_OK)
        return -1;
    if (sweep_run_begin(&run, fuzz_sw, fuzz_dir, NULL) != CLINK_OK ||
        sweep_journal_close(&run) != CLINK_OK)
        return -1;
    f = fopen(fuzz_journal, "r");
    if (f == NULL)
        return -1;
    if (fgets(fuzz_tag, sizeof fuzz_tag, f) == NULL || strchr(fuzz_tag, '\n') == NULL) {
        fclose(f);
        return -1;
    }
    fclose(f);
    return 0;
}

/* the rows kept and the tally checked against each other and the row checks */
static void fuzz_check_rows(const clink_sweep *sw)
{
    char why[200];
    long kept = 0;

    for (long k = 0; k < sw->spec.n_cases; k++) {
        const char *row = sw->rows[k];
        size_t n;
        if (row == NULL)
            continue;
        kept++;
        n = strlen(row);
        if (n == 0 || row[n - 1] != '\n' || memchr(row, '\n', n - 1) != NULL)
            __builtin_trap();
        if (sweep_row_case(row, sw->spec.n_cases) != k ||
            sweep_row_check(sw, k, row, why, sizeof why) != 0)
            __builtin_trap();
    }
    if (sw->tally.done != kept ||
        sw->tally.ok + sw->tally.failed + sw->tally.invalid + sw->tally.crashed != kept)
        __builtin_trap();
}

/* the journal left on disk: the tag, then whole lines, no longer than what was written */
static void fuzz_check_file(size_t written)
{
    struct stat st;
    char last;
    FILE *f;

    if (stat(fuzz_journal, &st) != 0 || (size_t) st.st_size > written ||
        (size_t) st.st_size < strlen(fuzz_tag))
        __builtin_trap();
    f = fopen(fuzz_journal, "rb");
    if (f == NULL || fseek(f, -1, SEEK_END) != 0 || fread(&last, 1, 1, f) != 1 || last != '\n')
        __builtin_trap();
    fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int ready = -2;
    sweep_run run;
    clink_sweep_options opt;
    long lines = 1;

    if (ready == -2)
        ready = fuzz_setup();
    if (ready != 0)
        __builtin_trap();
    if (fuzz_write(fuzz_journal, fuzz_tag, strlen(fuzz_tag), data, size) != 0)
        return 0;
    for (size_t i = 0; i < size; i++)
        lines += data[i] == '\n';
    clink_sweep_options_init(&opt);
    opt.resume = 1;
    opt.workers = 1;
    if (sweep_run_begin(&run, fuzz_sw, fuzz_dir, &opt) != CLINK_OK)
        __builtin_trap();
    fuzz_check_rows(fuzz_sw);
    if (fuzz_sw->n_warnings > lines)
        __builtin_trap();
    if (sweep_journal_close(&run) != CLINK_OK)
        __builtin_trap();
    fuzz_check_file(strlen(fuzz_tag) + size);
    return 0;
}
