/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The HDF5 writer's thread (src/output/output_hdf5.c, docs/outputs.md "Cost of
 * writing"): rows handed to output_h5_row are written by a writer thread through a
 * bounded queue of blocks, or on the caller's thread when the thread is not used
 * (CLINK_BENCH_H5_SYNC, the same path as when pthread_create fails).
 *
 * - Every value read back from the file (H5Dread) equals, bit for bit, the value
 *   handed in, with the writer thread and with the synchronous path, over many full
 *   blocks (the queue fills, the integrating thread waits) and a partial last one.
 * - A write that fails on the writer thread is reported by a later output_h5_row in
 *   the form "FILE: cannot write dataset NAME: reason", and by output_h5_finish when
 *   the rows are not checked; both release everything (the ASan build checks leaks,
 *   the TSan build races). The failure is a real one: the process's file size limit
 *   (RLIMIT_FSIZE, POSIX) is set below what the rows need, so write(2) fails with
 *   EFBIG ("File too large") inside HDF5; SIGXFSZ is ignored meanwhile.
 * - Both close the file under the limit, as a full disk would stay full, and leave no
 *   file open in HDF5 (HDF5 1.10 would otherwise crash at exit closing a file it had
 *   freed when its close failed; tests/cli/run_hdf5_write_failure_exits_3_without_crash.sh
 *   checks the exit of the command itself).
 * - Abandoning a handle with blocks in flight stops the thread and frees everything.
 *
 * Label "threads" as well: scripts/test-all runs these under ThreadSanitizer.
 */
#define _POSIX_C_SOURCE 200809L

#include "ensure.h"

#include "output/h5_file.h"
#include "output/output_hdf5.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#ifdef CLINK_HAVE_HDF5
#include <hdf5.h>
#endif

/* columns: time, K of q, K of v, row kind (the order of the CSV) */
enum { K = 1000, NCOLS = 2 * K + 2 };

static out_column *make_columns(void)
{
    out_column *c = calloc(NCOLS, sizeof *c);
    int i;
    if (c == NULL)
        return NULL;
    snprintf(c[0].name, sizeof c[0].name, "time");
    c[0].unit = "s";
    c[0].ds = OUT_DS_TIME;
    for (i = 0; i < K; i++) {
        snprintf(c[1 + i].name, sizeof c[1 + i].name, "b%d.x", i);
        c[1 + i].unit = "m";
        c[1 + i].ds = OUT_DS_Q;
        snprintf(c[1 + K + i].name, sizeof c[1 + K + i].name, "b%d.vx", i);
        c[1 + K + i].unit = "m/s";
        c[1 + K + i].ds = OUT_DS_V;
    }
    snprintf(c[NCOLS - 1].name, sizeof c[NCOLS - 1].name, "row.kind");
    c[NCOLS - 1].unit = "-";
    c[NCOLS - 1].ds = OUT_DS_KIND;
    return c;
}

/* value of column j in row r: every bit pattern distinct, incompressible when noisy */
static double value(long r, int j, int noisy)
{
    uint64_t x = (uint64_t) r * 1000003u + (uint64_t) j * 7919u + 12345u;
    if (j == 0)
        return 1e-6 * (double) r;
    if (j == NCOLS - 1)
        return (double) (r % 3);
    if (!noisy)
        return 1e-3 * (double) j + 1e-9 * (double) r;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    x *= 0x2545F4914F6CDD1Dull;
    return (double) (x >> 11) * 0x1.0p-53 - 0.5;
}

static void fill_row(double *row, long r, int noisy)
{
    int j;
    for (j = 0; j < NCOLS; j++)
        row[j] = value(r, j, noisy);
}

/* a fresh directory under the build tree; 0 or -1 */
static int make_dir(char *dir, size_t n)
{
    snprintf(dir, n, "%s/test_output_hdf5_XXXXXX", CLINK_BINARY_DIR);
    return mkdtemp(dir) != NULL ? 0 : -1;
}

static void remove_file_and_dir(const char *path, const char *dir)
{
    remove(path);
    rmdir(dir);
}

static void set_sync(int sync)
{
    if (sync)
        ENSURE(setenv("CLINK_BENCH_H5_SYNC", "1", 1) == 0);
    else
        ENSURE(unsetenv("CLINK_BENCH_H5_SYNC") == 0);
}

/* DIR/results.h5 created with the NCOLS columns, by the synchronous writer if sync (path
   receives its name); NULL (a failed check) if it cannot be */
static out_h5 *create_in(const char *dir, char *path, size_t path_size, const out_column *cols,
                         int sync, char *err, size_t err_size)
{
    snprintf(path, path_size, "%s/results.h5", dir);
    set_sync(sync);
    out_h5 *h = output_h5_create(path, "results.h5", cols, NCOLS, err, err_size);
    set_sync(0);
    ENSURE(h != NULL);
    return h;
}

#ifdef CLINK_HAVE_HDF5
/* dataset path read back as doubles, compared bit for bit with the values of its columns */
static void check_dataset(hid_t f, const char *path, long rows, int first, int ncols, int noisy)
{
    hid_t d = H5Dopen2(f, path, H5P_DEFAULT);
    hid_t sp = d >= 0 ? H5Dget_space(d) : -1;
    hsize_t dims[2] = {0, 0};
    int rank = sp >= 0 ? H5Sget_simple_extent_dims(sp, dims, NULL) : -1;
    double *got = malloc((size_t) rows * (size_t) ncols * sizeof *got);
    long r, bad = 0;
    int j;

    ENSURE(d >= 0 && sp >= 0 && got != NULL);
    ENSURE(rank == (ncols == 1 ? 1 : 2));
    ENSURE(dims[0] == (hsize_t) rows);
    if (d >= 0 && got != NULL && dims[0] == (hsize_t) rows &&
        H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, got) >= 0) {
        for (r = 0; r < rows; r++)
            for (j = 0; j < ncols; j++) {
                double want = value(r, first + j, noisy);
                if (memcmp(&got[r * ncols + j], &want, sizeof want) != 0)
                    bad++;
            }
    } else
        bad = -1;
    if (bad != 0)
        fprintf(stderr, "%s: %ld values differ from those written (-1: unreadable)\n", path, bad);
    ENSURE(bad == 0);
    free(got);
    if (sp >= 0)
        H5Sclose(sp);
    if (d >= 0)
        H5Dclose(d);
}
#endif

/* rows rows written through a handle (sync: on the caller's thread) and read back */
static void write_and_read_back(long rows, int sync)
{
    out_column *cols = make_columns();
    double *row = malloc(NCOLS * sizeof *row);
    char dir[512], path[600], err[4600] = "";
    out_h5 *h = NULL;
    long r;
    int rc = 0;

    ENSURE(cols != NULL && row != NULL && make_dir(dir, sizeof dir) == 0);
    if (cols == NULL || row == NULL) {
        free(cols);
        free(row);
        return;
    }
    h = create_in(dir, path, sizeof path, cols, sync, err, sizeof err);
    for (r = 0; h != NULL && r < rows && rc == 0; r++) {
        fill_row(row, r, 0);
        rc = output_h5_row(h, row, err, sizeof err);
    }
    ENSURE(rc == 0);
    if (h != NULL)
        ENSURE(output_h5_finish(h, "{}", err, sizeof err) == 0);
    if (err[0] != '\0')
        fprintf(stderr, "%s\n", err);
#ifdef CLINK_HAVE_HDF5
    {
        hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
        ENSURE(f >= 0);
        if (f >= 0) {
            check_dataset(f, "time", rows, 0, 1, 0);
            check_dataset(f, "q", rows, 1, K, 0);
            check_dataset(f, "v", rows, 1 + K, K, 0);
            check_dataset(f, "row_kind", rows, NCOLS - 1, 1, 0);
            H5Fclose(f);
        }
    }
#endif
    remove_file_and_dir(path, dir);
    free(row);
    free(cols);
}

/*
 * Noisy rows written under a file size limit until output_h5_row fails, then the handle
 * abandoned; or (finish_only) every row's result ignored, then output_h5_finish, which
 * must report the failure kept. The message must have the writer's form.
 */
static void write_until_failure(int sync, int finish_only)
{
    out_column *cols = make_columns();
    double *row = malloc(NCOLS * sizeof *row);
    char dir[512], path[600], err[4600] = "", want[256];
    struct rlimit old, lim;
    void (*old_xfsz)(int) = signal(SIGXFSZ, SIG_IGN);
    out_h5 *h = NULL;
    long r, failed_at = -1;
    int rc = 0;

    ENSURE(old_xfsz != SIG_ERR);
    ENSURE(cols != NULL && row != NULL && make_dir(dir, sizeof dir) == 0);
    ENSURE(getrlimit(RLIMIT_FSIZE, &old) == 0);
    if (cols == NULL || row == NULL) {
        free(cols);
        free(row);
        return;
    }
    h = create_in(dir, path, sizeof path, cols, sync, err, sizeof err);
    lim = old;
    lim.rlim_cur = 256 * 1024; /* the rows below are about 100 MB, incompressible */
    ENSURE(setrlimit(RLIMIT_FSIZE, &lim) == 0);
    for (r = 0; h != NULL && r < 6000; r++) {
        fill_row(row, r, 1);
        rc = output_h5_row(h, row, err, sizeof err);
        if (rc != 0 && failed_at < 0)
            failed_at = r;
        if (rc != 0 && !finish_only)
            break;
    }
    /* the handle closed under the limit, as a user's full disk would stay full */
    if (finish_only && h != NULL) {
        err[0] = '\0';
        rc = output_h5_finish(h, "{}", err, sizeof err);
        ENSURE(rc != 0);
    } else {
        ENSURE(failed_at >= 0);
        output_h5_abandon(h);
    }
    ENSURE(setrlimit(RLIMIT_FSIZE, &old) == 0);
#ifdef CLINK_HAVE_HDF5
    /* no file left open in HDF5: HDF5 1.10 keeps the identifier of a file whose close
       failed, after freeing the file, and its exit-time cleanup then crashes on it */
    {
        ssize_t open_files = H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_FILE);
        if (open_files != 0)
            fprintf(stderr, "%zd HDF5 files still open after the handle was closed\n", open_files);
        ENSURE(open_files == 0);
    }
#endif
    ENSURE(signal(SIGXFSZ, old_xfsz) != SIG_ERR);
    snprintf(want, sizeof want, "results.h5: cannot write dataset ");
    if (strncmp(err, want, strlen(want)) != 0 || strstr(err, strerror(EFBIG)) == NULL) {
        fprintf(stderr, "message \"%s\", expected \"%sNAME: %s\"\n", err, want, strerror(EFBIG));
        ENSURE(0);
    }
    printf("%s, %s: failure reported at row %ld: %s\n", sync ? "synchronous" : "writer thread",
           finish_only ? "rows unchecked" : "rows checked", failed_at, err);
    remove_file_and_dir(path, dir);
    free(row);
    free(cols);
}

/* 1 (and says so) when the library has no HDF5: the test has nothing to check */
static int skip_without_hdf5(void)
{
    if (output_h5_available())
        return 0;
    printf("skip: built without HDF5\n");
    return 1;
}

TEST(hdf5_writer_thread_writes_every_value_bit_for_bit)
{
    if (skip_without_hdf5())
        return;
    /* 65 rows a block at 2002 columns: 9 full blocks (the queue of two fills) and 12 rows */
    write_and_read_back(9 * 65 + 12, 0);
    write_and_read_back(0, 0);
    write_and_read_back(65, 0);
}

TEST(hdf5_synchronous_writer_writes_every_value_bit_for_bit)
{
    if (skip_without_hdf5())
        return;
    write_and_read_back(9 * 65 + 12, 1);
}

TEST(hdf5_write_failure_on_the_writer_thread_is_reported_by_a_later_row)
{
    if (skip_without_hdf5())
        return;
    write_until_failure(0, 0);
    write_until_failure(1, 0);
}

TEST(hdf5_write_failure_on_the_writer_thread_is_reported_by_finish)
{
    if (skip_without_hdf5())
        return;
    write_until_failure(0, 1);
    write_until_failure(1, 1);
}

TEST(hdf5_writer_abandoned_with_blocks_in_flight_frees_everything)
{
    out_column *cols = make_columns();
    double *row = malloc(NCOLS * sizeof *row);
    char dir[512], path[600], err[4600] = "";
    out_h5 *h;
    long r;
    int rc = 0;

    if (!output_h5_available()) {
        printf("skip: built without HDF5\n");
        free(cols);
        free(row);
        return;
    }
    ENSURE(cols != NULL && row != NULL && make_dir(dir, sizeof dir) == 0);
    if (cols == NULL || row == NULL) {
        free(cols);
        free(row);
        return;
    }
    snprintf(path, sizeof path, "%s/results.h5", dir);
    h = output_h5_create(path, "results.h5", cols, NCOLS, err, sizeof err);
    ENSURE(h != NULL);
    for (r = 0; h != NULL && r < 5 * 65 && rc == 0; r++) {
        fill_row(row, r, 1);
        rc = output_h5_row(h, row, err, sizeof err);
    }
    ENSURE(rc == 0);
    output_h5_abandon(h); /* ASan: nothing leaked; TSan: no race; the test ends: no deadlock */
    remove_file_and_dir(path, dir);
    free(row);
    free(cols);
}

#ifdef CLINK_HAVE_HDF5
/* the string attribute name of obj equals want */
static int attr_is(hid_t obj, const char *name, const char *want)
{
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    hid_t t = output_h5_file_string_type();
    char *got = NULL;
    int same =
        a >= 0 && t >= 0 && H5Aread(a, t, &got) >= 0 && got != NULL && strcmp(got, want) == 0;
    if (got != NULL)
        H5free_memory(got);
    if (t >= 0)
        H5Tclose(t);
    if (a >= 0)
        H5Aclose(a);
    return same;
}
#endif

TEST(h5_file_commit_gives_a_complete_file_its_name_with_its_column_and_attributes)
{
#ifdef CLINK_HAVE_HDF5
    const char *const attrs[] = {"units", "m", "description", "a test column", NULL};
    double v[100], got[100];
    char dir[512], tmp[600], path[600];
    output_h5_quiet q;
    output_h5_file f;
    hid_t file, d;
    int i;

    ENSURE(make_dir(dir, sizeof dir) == 0);
    snprintf(tmp, sizeof tmp, "%s/x.h5.tmp", dir);
    snprintf(path, sizeof path, "%s/x.h5", dir);
    for (i = 0; i < 100; i++)
        v[i] = value(i, 1, 1);
    output_h5_file_quiet(&q);
    ENSURE(output_h5_file_create(&f, tmp, 0) == 0);
    ENSURE(output_h5_file_column(f.id, "v", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, H5P_DEFAULT, 0, v,
                                 100, attrs) == 0);
    ENSURE(output_h5_file_close(&f, 0) == 0);
    ENSURE(f.id == -1 && f.driver == -1);
    /* without replace an existing file is refused, with the system's reason */
    ENSURE(output_h5_file_create(&f, tmp, 0) == -1 && errno == EEXIST && f.id == -1);
    output_h5_file_loud(&q);
    ENSURE(output_h5_file_commit(tmp, path) == 0);
    ENSURE(access(tmp, F_OK) != 0 && access(path, F_OK) == 0);
    file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    d = file >= 0 ? H5Dopen2(file, "v", H5P_DEFAULT) : -1;
    ENSURE(d >= 0 && H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, got) >= 0);
    ENSURE(d >= 0 && memcmp(v, got, sizeof v) == 0);
    ENSURE(d >= 0 && attr_is(d, "units", "m") && attr_is(d, "description", "a test column"));
    if (d >= 0)
        H5Dclose(d);
    if (file >= 0)
        H5Fclose(file);
    ENSURE(output_h5_file_commit(tmp, path) == -1 && errno == ENOENT);
    remove_file_and_dir(path, dir);
#else
    printf("skip: built without HDF5\n");
#endif
}

TEST(h5_file_close_reports_a_full_disk_and_still_closes_the_file)
{
#ifdef CLINK_HAVE_HDF5
    enum { N = 1 << 17 }; /* 1 MiB of doubles, above the limit below */
    double *v = calloc(N, sizeof *v);
    char dir[512], tmp[600];
    void (*old_xfsz)(int) = signal(SIGXFSZ, SIG_IGN);
    struct rlimit old, lim;
    output_h5_quiet q;
    output_h5_file f;
    int rc, e;

    ENSURE(v != NULL && old_xfsz != SIG_ERR && make_dir(dir, sizeof dir) == 0);
    ENSURE(getrlimit(RLIMIT_FSIZE, &old) == 0);
    snprintf(tmp, sizeof tmp, "%s/x.h5.tmp", dir);
    output_h5_file_quiet(&q);
    ENSURE(output_h5_file_create(&f, tmp, 1) == 0);
    lim = old;
    lim.rlim_cur = 64 * 1024;
    ENSURE(setrlimit(RLIMIT_FSIZE, &lim) == 0);
    if (v != NULL && f.id >= 0) /* may fail here already, or only when flushed at the close */
        (void) output_h5_file_column(f.id, "v", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, H5P_DEFAULT, 0,
                                     v, N, NULL);
    rc = output_h5_file_close(&f, 0);
    e = errno;
    ENSURE(setrlimit(RLIMIT_FSIZE, &old) == 0);
    output_h5_file_loud(&q);
    ENSURE(rc == -1 && e == EFBIG);
    /* the file is closed all the same: nothing for HDF5's exit-time cleanup */
    ENSURE(H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_FILE) == 0);
    ENSURE(f.id == -1 && f.driver == -1);
    ENSURE(signal(SIGXFSZ, old_xfsz) != SIG_ERR);
    printf("close under a 64 KiB file size limit: %s\n", strerror(e));
    remove_file_and_dir(tmp, dir);
    free(v);
#else
    printf("skip: built without HDF5\n");
#endif
}
