/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sweep_hdf5.c: DIR/sweep.h5, the sweep's table in HDF5 (docs/sweeps.md). The rows
 * are the text rows of sweep.csv, parsed back: one dataset per column, in the
 * table's order, of the case count's length: the case index as int64, a parameter as
 * float64 when every value reads whole as a number (else as strings), status and
 * cause as variable-length UTF-8 strings, t_failed, the quantities and wall_time as
 * float64 with NaN for an empty field. Because the doubles are read from the CSV's
 * "%.17g" text, they are the CSV's values bit for bit, whichever way the sweep ran.
 * Each dataset carries "column" (the CSV name), "units" and "description"; the file
 * carries "columns" (the names in order) and "specification" (the sweep file's
 * text). Object times are not recorded, so that two files of the same table differ
 * only by wall_time. The file goes through the failure-safe helper of
 * output/h5_file.h, as results.h5 does: written to DIR/sweep.h5.tmp through its file
 * driver (a full disk or a file size limit is reported with the system's reason and
 * the temporary removed, the file closed without HDF5 crashing at exit), every close
 * checked, fsync'd, then renamed.
 *
 * HDF5 is loaded on first use (output/hdf5_load.h); when it cannot be, sweep_h5_write()
 * fails naming the library and the dynamic loader's reason.
 *
 * Without HDF5 (CLINK_HAVE_HDF5 undefined) sweep_h5_write() refuses
 * (output_h5_file_available() says so beforehand).
 */
#define _POSIX_C_SOURCE 200809L

#include "sweep/sweep_hdf5.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#ifdef CLINK_HAVE_HDF5

#include "output/h5_file.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "output/hdf5_load.h" /* last: HDF5's names become the loaded table's */

/* splits one CSV row (copied into buf, unquoted in place) into ncols fields; 0 or -1 */
static int sweep_h5_split(char *buf, char **f, int ncols)
{
    char *c = buf;

    for (int i = 0; i < ncols; i++) {
        char *w = c;
        f[i] = w;
        if (*c == '"') {
            c++;
            for (;;) {
                if (*c == '\0')
                    return -1;
                if (*c == '"') {
                    if (c[1] != '"') {
                        c++;
                        break;
                    }
                    c++;
                }
                *w++ = *c++;
            }
        } else {
            while (*c != ',' && *c != '\n' && *c != '\0')
                *w++ = *c++;
        }
        if (i + 1 < ncols && *c != ',')
            return -1;
        if (i + 1 == ncols && *c != '\n' && *c != '\0')
            return -1;
        c++;
        *w = '\0';
    }
    return 0;
}

/* the whole text as a double (empty: NaN); 0, or -1 when it is not a number */
static int sweep_h5_number(const char *s, double *x)
{
    char *end;

    if (*s == '\0') {
        *x = NAN;
        return 0;
    }
    errno = 0;
    *x = strtod(s, &end);
    return *end == '\0' && end != s ? 0 : -1;
}

/* one column's dataset from its m fields; 0 or -1 (what in *why, the system's reason in
   errno when it gave one) */
static int sweep_h5_dataset(hid_t file, hid_t dcpl, const sweep_h5_column *col, char *const *field,
                            hsize_t m, const char **why)
{
    char name[1100];
    hid_t ft = -1, mt = -1;
    void *data = NULL;
    int rc = -1, as_string = col->kind == SWEEP_H5_STRING;

    snprintf(name, sizeof name, "%s", col->name);
    for (char *c = name; *c != '\0'; c++)
        if (*c == '/')
            *c = '_';
    if (col->kind == SWEEP_H5_PARAM) {
        double x;
        for (hsize_t i = 0; i < m && !as_string; i++)
            as_string = field[i][0] == '\0' || sweep_h5_number(field[i], &x) != 0;
    }
    *why = "out of memory";
    data = malloc((size_t) (m > 0 ? m : 1) * (as_string ? sizeof(char *) : sizeof(double)));
    if (data == NULL)
        goto out;
    *why = "a field is not a number";
    for (hsize_t i = 0; i < m; i++) {
        if (as_string) {
            ((const char **) data)[i] = field[i];
        } else if (col->kind == SWEEP_H5_INT) {
            double x;
            if (sweep_h5_number(field[i], &x) != 0 || !(fabs(x) < 9e15))
                goto out;
            ((int64_t *) data)[i] = (int64_t) x;
        } else if (sweep_h5_number(field[i], &((double *) data)[i]) != 0) {
            goto out;
        }
    }
    *why = "the HDF5 library failed";
    if (as_string) {
        ft = output_h5_file_string_type();
        mt = output_h5_file_string_type();
    } else if (col->kind == SWEEP_H5_INT) {
        ft = H5Tcopy(H5T_STD_I64LE);
        mt = H5Tcopy(H5T_NATIVE_INT64);
    } else {
        ft = H5Tcopy(H5T_IEEE_F64LE);
        mt = H5Tcopy(H5T_NATIVE_DOUBLE);
    }
    if (ft < 0 || mt < 0)
        goto out;
    errno = 0;
    rc = output_h5_file_column(file, name, ft, mt, dcpl, 0, data, m,
                               (const char *[]){"column", col->name, "units", col->unit,
                                                "description", col->description, NULL});
    if (rc != 0 && errno != 0)
        *why = strerror(errno);
out:
    if (ft >= 0)
        H5Tclose(ft);
    if (mt >= 0)
        H5Tclose(mt);
    free(data);
    return rc;
}

/* the datasets and attributes of the open file; 0 or -1 (err set) */
static int sweep_h5_fill(hid_t file, const sweep_h5_column *cols, int ncols, char *const *rows,
                         long nrows, const char *spec_text, const char *shown, char *err,
                         size_t err_size)
{
    long m = 0;
    char **copy = NULL, **field = NULL, **colf = NULL;
    const char **names = NULL;
    const char *why = "out of memory";
    hid_t dcpl = -1;
    int rc = -1, bad_col = -1;

    for (long k = 0; k < nrows; k++)
        m += rows[k] != NULL;
    copy = calloc((size_t) (m > 0 ? m : 1), sizeof *copy);
    field = calloc((size_t) (m > 0 ? m : 1) * (size_t) ncols, sizeof *field);
    colf = calloc((size_t) (m > 0 ? m : 1), sizeof *colf);
    names = calloc((size_t) ncols, sizeof *names);
    if (copy == NULL || field == NULL || colf == NULL || names == NULL)
        goto out;
    for (long k = 0, i = 0; k < nrows; k++) {
        if (rows[k] == NULL)
            continue;
        copy[i] = strdup(rows[k]);
        if (copy[i] == NULL)
            goto out;
        if (sweep_h5_split(copy[i], field + (size_t) i * (size_t) ncols, ncols) != 0) {
            snprintf(err, err_size, "%s: row of case %ld: not %d fields", shown, k, ncols);
            goto out;
        }
        i++;
    }
    why = "the HDF5 library failed";
    dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (dcpl < 0 || H5Pset_obj_track_times(dcpl, 0) < 0)
        goto out;
    for (int c = 0; c < ncols; c++) {
        names[c] = cols[c].name;
        for (long i = 0; i < m; i++)
            colf[i] = field[(size_t) i * (size_t) ncols + (size_t) c];
        if (sweep_h5_dataset(file, dcpl, &cols[c], colf, (hsize_t) m, &why) != 0) {
            bad_col = c;
            goto out;
        }
    }
    errno = 0;
    if (output_h5_file_attr_strings(file, "columns", names, (hsize_t) ncols) != 0 ||
        output_h5_file_attr_strings(file, "specification", &spec_text, 0) != 0) {
        why = errno != 0 ? strerror(errno) : why;
        goto out;
    }
    rc = 0;
out:
    if (rc != 0 && err[0] == '\0') {
        if (bad_col >= 0)
            snprintf(err, err_size, "%s: cannot write column %s: %s", shown, cols[bad_col].name,
                     why);
        else
            snprintf(err, err_size, "%s: cannot write: %s", shown, why);
    }
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (copy != NULL)
        for (long i = 0; i < m; i++)
            free(copy[i]);
    free(copy);
    free(field);
    free(colf);
    free(names);
    return rc;
}

int sweep_h5_write(const char *path, const sweep_h5_column *cols, int ncols, char *const *rows,
                   long nrows, const char *spec_text, char *err, size_t err_size)
{
    char tmp[4300];
    output_h5_quiet q;
    output_h5_file f;
    int rc;

    err[0] = '\0';
    if (output_h5_load(tmp, sizeof tmp) != 0) { /* HDF5 is loaded on first use */
        snprintf(err, err_size, "%s: cannot create: %s", path, tmp);
        return -1;
    }
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    output_h5_file_quiet(&q);
    if (output_h5_file_create(&f, tmp, 1) != 0) {
        snprintf(err, err_size, "%s: cannot create: %s", path,
                 errno != 0 ? strerror(errno) : "the HDF5 library failed");
        output_h5_file_loud(&q);
        remove(tmp); /* made before HDF5 failed, or not there */
        return -1;
    }
    rc = sweep_h5_fill(f.id, cols, ncols, rows, nrows, spec_text, path, err, err_size);
    /* a failed file is given up: nothing more is written to it */
    errno = 0;
    if (output_h5_file_close(&f, rc != 0) != 0 && rc == 0) {
        snprintf(err, err_size, "%s: cannot close: %s", path,
                 errno != 0 ? strerror(errno) : "the HDF5 library failed");
        rc = -1;
    }
    output_h5_file_loud(&q);
    if (rc == 0 && output_h5_file_commit(tmp, path) != 0) {
        snprintf(err, err_size, "%s: cannot write: %s", path, strerror(errno));
        rc = -1;
    }
    if (rc != 0)
        remove(tmp);
    return rc;
}

#else

int sweep_h5_write(const char *path, const sweep_h5_column *cols, int ncols, char *const *rows,
                   long nrows, const char *spec_text, char *err, size_t err_size)
{
    (void) cols;
    (void) ncols;
    (void) rows;
    (void) nrows;
    (void) spec_text;
    snprintf(err, err_size,
             "%s: this clink was built without HDF5 (apt-get install libhdf5-dev, "
             "then configure again)",
             path);
    return -1;
}

#endif
