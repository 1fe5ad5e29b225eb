/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Tests of the CSV writer (src/output/output_csv.c): the text of a value equal bit for bit to
 * the same column's in the previous row is copied from the previous line instead of being
 * formatted again; the lines written must be the bytes of every value formatted on its own
 * (output_format_double, joined by commas), on rows whose values repeat, change sign, are
 * -0 and 0, NaN of different payloads and infinities, over enough rows that the buffer is
 * handed on many times (a line after that must not copy from a line no longer there), and
 * on rows too wide for the reuse.
 */
#define _XOPEN_SOURCE 700

#include "ensure.h"

#include "fmt_double.h"
#include "output/output_writer.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* a NaN with the payload given */
static double nan_with(uint64_t payload)
{
    uint64_t b = 0x7ff8000000000000u | (payload & 0x0007ffffffffffffu);
    double x;
    memcpy(&x, &b, sizeof x);
    return x;
}

/* value of column j in row i: repeats, sign changes, zeros of both signs, NaNs, infinities */
static double test_value(long i, int j, uint64_t *rng)
{
    static const double pool[] = {0.1, -0.1, 1e-300, 123456.789, 0.0, -0.0, 3.0};
    *rng = *rng * 6364136223846793005u + 1442695040888963407u;
    unsigned r = (unsigned) (*rng >> 33);
    switch (j % 8) {
    case 0:
        return 1e-5 * (double) i; /* the time: always new */
    case 1:
        return 523.598775598; /* constant */
    case 2:
        return (i / 3) % 2 ? 0.0 : -0.0; /* -0 and 0 in runs */
    case 3:
        return (i / 2) % 2 ? 0.25 * (double) (i / 4) : -0.25 * (double) (i / 4); /* sign flips */
    case 4:
        return r % 4 == 0 ? nan_with(r % 3 + 1) : (r % 4 == 1 ? INFINITY : -INFINITY);
    case 5:
        return pool[r % (sizeof pool / sizeof pool[0])];
    case 6:
        return r % 5 == 0 ? (double) r * 1.0000000000000002 : 6853.891945193118;
    default:
        return (double) (r % 3) - 1.0; /* -1, 0, 1 */
    }
}

/* the lines of rows rows of ncols columns written by the CSV writer equal every value
   formatted alone; 0 when they do */
static int check_csv(int ncols, long rows)
{
    char dir[] = "/tmp/clink_test_csv_XXXXXX", ts[64], imp[64], sec[64], err[512];
    ENSURE(mkdtemp(dir) != NULL);
    snprintf(ts, sizeof ts, "%s/timeseries.csv", dir);
    snprintf(imp, sizeof imp, "%s/impacts.csv", dir);
    snprintf(sec, sizeof sec, "%s/poincare.csv", dir);
    const char *names[] = {ts, imp, sec};
    out_column *cols = calloc((size_t) ncols, sizeof *cols);
    double *row = malloc((size_t) ncols * sizeof *row);
    size_t cap = (size_t) rows * (size_t) ncols * OUTPUT_DOUBLE_MAX + 1, len = 0;
    char *want = malloc(cap), *got = malloc(cap);
    ENSURE(cols != NULL && row != NULL && want != NULL && got != NULL);
    if (cols == NULL || row == NULL || want == NULL || got == NULL)
        return 1;
    for (int j = 0; j < ncols; j++) {
        snprintf(cols[j].name, sizeof cols[j].name, "c%d", j);
        cols[j].unit = "-";
    }
    out_writer_setup s = {names, names, cols, ncols};
    void *w = output_csv_writer.open(&s, err, sizeof err);
    ENSURE(w != NULL);
    if (w == NULL)
        return 1;
    uint64_t rng = 42;
    for (long i = 0; i < rows; i++) {
        for (int j = 0; j < ncols; j++) {
            row[j] = test_value(i, j, &rng);
            len += output_format_double(row[j], want + len);
            want[len++] = j + 1 < ncols ? ',' : '\n';
        }
        ENSURE(output_csv_writer.row(w, row, err, sizeof err) == 0);
    }
    ENSURE(output_csv_writer.finish(w, "{}", err, sizeof err) == 0);
    /* the file after its header line */
    FILE *f = fopen(ts, "r");
    ENSURE(f != NULL);
    if (f == NULL)
        return 1;
    int ch;
    while ((ch = fgetc(f)) != EOF && ch != '\n')
        ;
    size_t n = fread(got, 1, cap, f);
    fclose(f);
    int same = n == len && memcmp(got, want, len) == 0;
    if (!same) {
        size_t k = 0;
        while (k < n && k < len && got[k] == want[k])
            k++;
        fprintf(stderr, "%d columns: %zu bytes written, %zu expected, first difference at %zu\n",
                ncols, n, len, k);
    }
    for (int i = 0; i < 3; i++)
        unlink(names[i]);
    rmdir(dir);
    free(cols);
    free(row);
    free(want);
    free(got);
    return same ? 0 : 1;
}

TEST(csv_rows_whose_values_repeat_are_the_bytes_of_every_value_formatted)
{
    /* 20,000 rows of 9 columns (about 2 MB: the 64 KiB buffer handed on about 30 times) */
    ENSURE(check_csv(9, 20000) == 0);
    ENSURE(check_csv(1, 5000) == 0);
    /* lines of about half the buffer: each row hands the buffer on and overwrites the last */
    ENSURE(check_csv(1900, 60) == 0);
    /* a line wider than the buffer: every value formatted */
    ENSURE(check_csv(2100, 40) == 0);
}
