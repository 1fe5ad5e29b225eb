/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * output_hdf5.c: results.h5, the HDF5 form of a run's outputs (docs/outputs.md), and its
 * row of the format table (output_hdf5_writer). One dataset per quantity (time,
 * row_kind, q, v, a, reactions, driver_forces, contacts/delta, ..., energies,
 * constraint_violation), rows along the first dimension, each chunked, byte-shuffled and
 * deflated, extendible, with the attributes "description", "units" and (2-D) "columns"
 * (the CSV's names); the impact log as one 1-D dataset per field in the group "impacts";
 * the summary (the text of summary.json) as the string dataset "summary". Values are the
 * doubles the CSV prints in shortest round-trip form, so both read back equal.
 *
 * Rows are gathered in memory, one block per dataset, and written a block of rows at a
 * time (the chunk's height), so that a chunk is compressed once. The writing
 * (H5Dset_extent, H5Dwrite and the deflate inside) happens on the writer thread of
 * output_queue.c: the integrating thread copies each row into the block being filled and
 * hands a full block over. Between create and finish only the writer thread calls HDF5
 * (Debian's libhdf5 is not thread-safe); create, finish and abandon run on the caller's
 * thread with the writer not running (before it is started or after it is joined). A
 * failure on the writer thread is kept and reported by the next output_h5_row, or by
 * finish. The impact log is kept in memory until finish.
 *
 * The file is made and closed by h5_file.c (the failure-safe driver: after a full disk
 * H5Fclose still succeeds). HDF5's own error printing is switched off around every call
 * of this file (the library does not print) and restored after; a failure is reported
 * with the dataset and, when the system set one, errno's reason.
 *
 * HDF5 is loaded by output_h5_create, the first time a process writes an HDF5 file
 * (hdf5_load.h); when it cannot be, the creation fails naming the library and the reason.
 *
 * Without HDF5 (CLINK_HAVE_HDF5 undefined) the functions report that the build has none.
 */
#include "output/output_hdf5.h"
#include "output/output_writer.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef CLINK_HAVE_HDF5

#include "output/h5_file.h"
#include "output/output_queue.h"

#include "output/hdf5_load.h" /* last: HDF5's names become the loaded table's */

/* bytes of row data gathered before a block is written */
#define H5_BLOCK_BYTES (1 << 20)

typedef struct h5_ds {
    hid_t id;                         /* -1: the dataset has no column */
    int ncols;                        /* 0: none */
    int oned;                         /* 1-D (time, row kind) */
    double *buf[OUTPUT_QUEUE_BLOCKS]; /* block x ncols each */
} h5_ds;

/* an impact's contact name, as the recorder gave it */
typedef char h5_name[CLINK_NAME_MAX + 16];

struct out_h5 {
    output_h5_file file;
    char shown[4200];
    h5_ds ds[OUT_DS_COUNT];
    int *slot; /* per column: its index within its dataset */
    int *dsof; /* per column: its dataset */
    int ncols;
    hsize_t block; /* rows per block and chunk */
    hsize_t nbuf;  /* rows in the block being filled (integrating thread) */
    hsize_t rows;  /* rows written (by the writer thread while it runs) */
    output_h5_quiet saved;
    output_queue queue;
    clink_impact_record *imp; /* the impact log, kept until finish */
    h5_name *names;           /* each impact's contact name */
    int nimp, capimp;
    /* the Poincare table (output_h5_sections), kept until finish */
    double *sec;
    long secrows;
    int secncols, nsecnames;
    const out_column *seccols;
    h5_name *secnames;
};

int output_h5_available(void)
{
    return 1;
}

/* HDF5 quiet while we call it; the caller's handler back after */
static void h5_quiet(out_h5 *h)
{
    output_h5_file_quiet(&h->saved);
}

static void h5_loud(const out_h5 *h)
{
    output_h5_file_loud(&h->saved);
}

/* err = "FILE: what: reason" (errno's when the system gave one) */
static int h5_fail(const out_h5 *h, char *err, size_t n, const char *what, const char *name)
{
    int e = errno;
    snprintf(err, n, "%s: %s %s: %s", h->shown, what, name,
             e != 0 ? strerror(e) : "the HDF5 library failed");
    return -1;
}

/* the creation properties of an extendible dataset: chunks of `chunk`, shuffled and deflated */
static hid_t h5_chunked(int rank, const hsize_t *chunk)
{
    hid_t p = H5Pcreate(H5P_DATASET_CREATE);
    if (p < 0)
        return -1;
    if (H5Pset_chunk(p, rank, chunk) < 0 || (H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0 &&
                                             (H5Pset_shuffle(p) < 0 || H5Pset_deflate(p, 1) < 0))) {
        H5Pclose(p);
        return -1;
    }
    return p;
}

/* the attributes of dataset d: description, units, columns */
static int h5_ds_attributes(out_h5 *h, int d, const out_column *cols, int ncols)
{
    const char *desc = output_datasets[d].description;
    const char **names = calloc((size_t) h->ds[d].ncols + 1, sizeof *names);
    const char **units = calloc((size_t) h->ds[d].ncols + 1, sizeof *units);
    int i, k = 0, rc = -1;

    if (names != NULL && units != NULL) {
        for (i = 0; i < ncols; i++)
            if (cols[i].ds == d) {
                names[k] = cols[i].name;
                units[k++] = cols[i].unit;
            }
        rc = output_h5_file_attr_strings(h->ds[d].id, "description", &desc, 0);
        if (rc == 0)
            rc = output_h5_file_attr_strings(h->ds[d].id, "units", units,
                                             h->ds[d].oned ? 0 : (hsize_t) h->ds[d].ncols);
        if (rc == 0 && !h->ds[d].oned)
            rc = output_h5_file_attr_strings(h->ds[d].id, "columns", names,
                                             (hsize_t) h->ds[d].ncols);
    }
    free(names);
    free(units);
    return rc;
}

/*
 * The access properties of dataset d: a 2-D dataset is written a whole chunk at a time,
 * so it gets no chunk cache and each chunk is compressed and written by the H5Dwrite that
 * fills it (on the writer thread), not kept to be compressed when the dataset is closed
 * (by finish, on the integrating thread); the 1-D datasets, whose chunks of 4096 rows
 * fill over many blocks, keep HDF5's default cache. -1 when HDF5 refuses.
 */
static hid_t h5_access(const h5_ds *x)
{
    hid_t p = H5Pcreate(H5P_DATASET_ACCESS);
    if (p >= 0 && !x->oned &&
        H5Pset_chunk_cache(p, H5D_CHUNK_CACHE_NSLOTS_DEFAULT, 0, H5D_CHUNK_CACHE_W0_DEFAULT) < 0) {
        H5Pclose(p);
        return -1;
    }
    return p;
}

/* dataset d, empty and extendible, with its attributes; 0 or -1 */
static int h5_ds_create(out_h5 *h, int d, const out_column *cols, int ncols)
{
    h5_ds *x = &h->ds[d];
    int rank = x->oned ? 1 : 2;
    hsize_t dims[2] = {0, (hsize_t) x->ncols};
    hsize_t maxd[2] = {H5S_UNLIMITED, (hsize_t) x->ncols};
    hsize_t chunk[2] = {x->oned ? 4096 : h->block, (hsize_t) x->ncols};
    hid_t sp = H5Screate_simple(rank, dims, maxd);
    hid_t p = h5_chunked(rank, chunk);
    hid_t a = h5_access(x);
    int b;
    x->id =
        sp >= 0 && p >= 0 && a >= 0
            ? H5Dcreate2(h->file.id, output_datasets[d].path,
                         d == OUT_DS_KIND ? H5T_STD_I8LE : H5T_IEEE_F64LE, sp, H5P_DEFAULT, p, a)
            : -1;
    if (a >= 0)
        H5Pclose(a);
    if (p >= 0)
        H5Pclose(p);
    if (sp >= 0)
        H5Sclose(sp);
    if (x->id < 0)
        return -1;
    for (b = 0; b < OUTPUT_QUEUE_BLOCKS; b++) {
        x->buf[b] = malloc((size_t) h->block * (size_t) x->ncols * sizeof *x->buf[b]);
        if (x->buf[b] == NULL) {
            errno = ENOMEM;
            return -1;
        }
    }
    return h5_ds_attributes(h, d, cols, ncols);
}

/* the handle's column maps and block size; 0 or -1 (out of memory) */
static int h5_layout(out_h5 *h, const out_column *cols, int ncols)
{
    int i;
    h->ncols = ncols;
    h->slot = malloc((size_t) ncols * sizeof *h->slot);
    h->dsof = malloc((size_t) ncols * sizeof *h->dsof);
    if (h->slot == NULL || h->dsof == NULL) {
        errno = ENOMEM;
        return -1;
    }
    for (i = 0; i < OUT_DS_COUNT; i++)
        h->ds[i].id = -1;
    for (i = 0; i < ncols; i++) {
        h->dsof[i] = cols[i].ds;
        h->slot[i] = h->ds[cols[i].ds].ncols++;
    }
    h->ds[OUT_DS_TIME].oned = h->ds[OUT_DS_KIND].oned = 1;
    h->block = (hsize_t) (H5_BLOCK_BYTES / (8 * ncols));
    if (h->block < 16)
        h->block = 16;
    if (h->block > 4096)
        h->block = 4096;
    return 0;
}

static void h5_release(out_h5 *h)
{
    int i, b;
    output_queue_destroy(&h->queue);
    for (i = 0; i < OUT_DS_COUNT; i++) {
        if (h->ds[i].id >= 0)
            H5Dclose(h->ds[i].id);
        for (b = 0; b < OUTPUT_QUEUE_BLOCKS; b++)
            free(h->ds[i].buf[b]);
    }
    output_h5_file_close(&h->file, 1);
    free(h->slot);
    free(h->dsof);
    free(h->imp);
    free(h->names);
    free(h->sec);
    free(h->secnames);
    free(h);
}

/* the n rows of block b appended to the datasets; 0 or -1 */
static int h5_flush(out_h5 *h, int b, hsize_t n, char *err, size_t err_size)
{
    int d;
    if (n == 0)
        return 0;
    for (d = 0; d < OUT_DS_COUNT; d++) {
        h5_ds *x = &h->ds[d];
        hsize_t size[2] = {h->rows + n, (hsize_t) x->ncols};
        hsize_t start[2] = {h->rows, 0}, count[2] = {n, (hsize_t) x->ncols};
        int rank = x->oned ? 1 : 2, rc = -1;
        hid_t fs = -1, ms = -1;
        if (x->id < 0)
            continue;
        errno = 0;
        if (H5Dset_extent(x->id, size) >= 0 && (fs = H5Dget_space(x->id)) >= 0 &&
            H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0 &&
            (ms = H5Screate_simple(rank, count, NULL)) >= 0 &&
            H5Dwrite(x->id, H5T_NATIVE_DOUBLE, ms, fs, H5P_DEFAULT, x->buf[b]) >= 0)
            rc = 0;
        if (ms >= 0)
            H5Sclose(ms);
        if (fs >= 0)
            H5Sclose(fs);
        if (rc != 0)
            return h5_fail(h, err, err_size, "cannot write dataset", output_datasets[d].path);
    }
    h->rows += n;
    return 0;
}

/* output_queue_write_fn: block b written, HDF5 quiet meanwhile (on the thread that calls) */
static int h5_write_block(void *ctx, int b, size_t rows, char *err, size_t err_size)
{
    out_h5 *h = ctx;
    output_h5_quiet q;
    int rc;

    output_h5_file_quiet(&q);
    rc = h5_flush(h, b, (hsize_t) rows, err, err_size);
    output_h5_file_loud(&q);
    return rc;
}

/* the file with the group "contacts" (when there are contacts) and the datasets; 0 or -1 */
static int h5_make(out_h5 *h, const char *path, const out_column *cols, int ncols, char *err,
                   size_t err_size)
{
    int d;

    if (output_h5_file_create(&h->file, path, 0) != 0) {
        snprintf(err, err_size, "%s: cannot create: %s", h->shown,
                 errno != 0 ? strerror(errno) : "the HDF5 library failed");
        return -1;
    }
    if (h->ds[OUT_DS_DELTA].ncols > 0) {
        hid_t g = H5Gcreate2(h->file.id, "contacts", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        if (g < 0 || H5Gclose(g) < 0)
            return h5_fail(h, err, err_size, "cannot create group", "contacts");
    }
    for (d = 0; d < OUT_DS_COUNT; d++)
        if (h->ds[d].ncols > 0 && h5_ds_create(h, d, cols, ncols) != 0)
            return h5_fail(h, err, err_size, "cannot create dataset", output_datasets[d].path);
    return 0;
}

out_h5 *output_h5_create(const char *path, const char *shown, const out_column *cols, int ncols,
                         char *err, size_t err_size)
{
    char why[1536];
    out_h5 *h;

    /* the library is loaded by the first file a process writes */
    if (output_h5_load(why, sizeof why) != 0) {
        snprintf(err, err_size, "%s: cannot create: %s", shown, why);
        return NULL;
    }
    h = calloc(1, sizeof *h);
    if (h == NULL) {
        snprintf(err, err_size, "%s: cannot create: %s", shown, strerror(ENOMEM));
        return NULL;
    }
    snprintf(h->shown, sizeof h->shown, "%s", shown);
    output_queue_init(&h->queue, h5_write_block, h);
    h->file.id = -1;
    h->file.driver = -1;
    h5_quiet(h);
    errno = 0;
    if (h5_layout(h, cols, ncols) != 0) {
        h5_fail(h, err, err_size, "cannot create", "");
        goto fail;
    }
    if (h5_make(h, path, cols, ncols, err, err_size) != 0)
        goto fail;
    h5_loud(h);
    output_queue_start(&h->queue);
    return h;
fail:
    h5_loud(h);
    h5_release(h);
    return NULL;
}

int output_h5_row(out_h5 *h, const double *row, char *err, size_t err_size)
{
    hsize_t base = h->nbuf;
    int b = h->queue.fill, i, rc;
    if (output_queue_failed(&h->queue))
        return output_queue_failure(&h->queue, err, err_size);
    for (i = 0; i < h->ncols; i++) {
        h5_ds *x = &h->ds[h->dsof[i]];
        x->buf[b][base * (hsize_t) x->ncols + (hsize_t) h->slot[i]] = row[i];
    }
    if (++h->nbuf < h->block)
        return 0;
    rc = output_queue_hand_over(&h->queue, (size_t) h->nbuf, err, err_size);
    if (rc == 0 || !h->queue.threaded)
        h->nbuf = 0;
    return rc;
}

int output_h5_impact(out_h5 *h, const clink_impact_record *rec, const char *contact, char *err,
                     size_t err_size)
{
    if (h->nimp == h->capimp) {
        int nc = h->capimp ? 2 * h->capimp : 64;
        clink_impact_record *p = realloc(h->imp, (size_t) nc * sizeof *p);
        h5_name *q = p != NULL ? realloc(h->names, (size_t) nc * sizeof *q) : NULL;
        if (p != NULL)
            h->imp = p;
        if (q == NULL) {
            snprintf(err, err_size, "%s: keeping the impact log: %s", h->shown, strerror(ENOMEM));
            return -1;
        }
        h->names = q;
        h->capimp = nc;
    }
    h->imp[h->nimp] = *rec;
    snprintf(h->names[h->nimp], sizeof h->names[h->nimp], "%s", contact);
    h->nimp++;
    return 0;
}

/* a 1-D dataset of the impact log: n values of memory type mt stored as ft, chunked as one */
static int h5_column(hid_t g, const char *name, hid_t ft, hid_t mt, const void *data, hsize_t n,
                     const char *unit, const char *desc)
{
    const char *const attrs[] = {"units", unit, "description", desc, NULL};
    hsize_t chunk = n > 0 ? n : 1;
    hid_t p = h5_chunked(1, &chunk);
    int rc = p >= 0 ? output_h5_file_column(g, name, ft, mt, p, 1, data, n, attrs) : -1;
    if (p >= 0)
        H5Pclose(p);
    return rc;
}

/* the impact log: group "impacts", one dataset per field of clink_impact_record */
static int h5_impacts(out_h5 *h, const clink_impact_record *imp, const char *const *names, int n)
{
    static const struct {
        const char *name, *unit, *desc;
        size_t off;
    } f[] = {
        {"t_onset", "s", "time of the onset", offsetof(clink_impact_record, t_onset)},
        {"v_impact", "m/s", "approach speed at onset", offsetof(clink_impact_record, v_impact)},
        {"v_separation", "m/s", "separation speed", offsetof(clink_impact_record, v_separation)},
        {"restitution", "-", "v_separation / v_impact (NaN below the settle speed)",
         offsetof(clink_impact_record, restitution)},
        {"delta_max", "m", "largest penetration", offsetof(clink_impact_record, delta_max)},
        {"F_max", "N", "largest normal force at the accepted steps and events",
         offsetof(clink_impact_record, F_max)},
        {"duration", "s", "time from onset to separation", offsetof(clink_impact_record, duration)},
        {"dissipated", "J", "energy dissipated by the law and friction",
         offsetof(clink_impact_record, dissipated)},
    };
    hid_t g = H5Gcreate2(h->file.id, "impacts", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    double *v = malloc(((size_t) n + 1) * sizeof *v);
    int *k = malloc(((size_t) n + 1) * sizeof *k);
    hid_t st = output_h5_file_string_type();
    int rc = g >= 0 && v != NULL && k != NULL && st >= 0 ? 0 : -1;
    size_t j;
    int i;

    for (i = 0; rc == 0 && i < n; i++)
        k[i] = imp[i].contact;
    if (rc == 0)
        rc = h5_column(g, "contact", H5T_STD_I32LE, H5T_NATIVE_INT, k, (hsize_t) n, "-",
                       "contact index (pairs first, then clearance joints)");
    if (rc == 0)
        rc = h5_column(g, "contact_name", st, st, names, (hsize_t) n, "-", "contact name");
    for (j = 0; rc == 0 && j < sizeof f / sizeof f[0]; j++) {
        for (i = 0; i < n; i++)
            memcpy(&v[i], (const char *) &imp[i] + f[j].off, sizeof v[i]);
        rc = h5_column(g, f[j].name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, v, (hsize_t) n, f[j].unit,
                       f[j].desc);
    }
    for (i = 0; rc == 0 && i < n; i++)
        k[i] = imp[i].lobes;
    if (rc == 0)
        rc = h5_column(g, "lobes", H5T_STD_I32LE, H5T_NATIVE_INT, k, (hsize_t) n, "-",
                       "compression lobes: 1 + the re-compressions while in contact");
    for (i = 0; rc == 0 && i < n; i++)
        k[i] = imp[i].persistent;
    if (rc == 0)
        rc = h5_column(g, "persistent", H5T_STD_I8LE, H5T_NATIVE_INT, k, (hsize_t) n, "-",
                       "1 if the impact ended in permanent contact");
    if (st >= 0)
        H5Tclose(st);
    if (g >= 0)
        H5Gclose(g);
    free(v);
    free(k);
    return rc;
}

/* the summary: a scalar string dataset holding summary.json's text */
static int h5_summary(out_h5 *h, const char *json)
{
    static const char *const desc = "the run's summary: the text of summary.json (JSON)";
    hid_t t = output_h5_file_string_type();
    hid_t sp = H5Screate(H5S_SCALAR);
    hid_t d = t >= 0 && sp >= 0
                  ? H5Dcreate2(h->file.id, "summary", t, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)
                  : -1;
    int rc = d >= 0 && H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, &json) >= 0 &&
                     output_h5_file_attr_strings(d, "description", &desc, 0) == 0
                 ? 0
                 : -1;
    if (d >= 0)
        H5Dclose(d);
    if (sp >= 0)
        H5Sclose(sp);
    if (t >= 0)
        H5Tclose(t);
    return rc;
}

int output_h5_sections(out_h5 *h, const out_section_table *t, char *err, size_t err_size)
{
    size_t n = (size_t) t->rows * (size_t) t->ncols;
    h->sec = malloc((n + 1) * sizeof *h->sec);
    h->secnames = calloc((size_t) t->nsections + 1, sizeof *h->secnames);
    if (h->sec == NULL || h->secnames == NULL) {
        errno = ENOMEM;
        return h5_fail(h, err, err_size, "cannot write", "the Poincare table");
    }
    if (n > 0)
        memcpy(h->sec, t->data, n * sizeof *h->sec);
    for (int i = 0; i < t->nsections; i++)
        snprintf(h->secnames[i], sizeof h->secnames[i], "%s", t->names[i]);
    h->secrows = t->rows;
    h->secncols = t->ncols;
    h->nsecnames = t->nsections;
    h->seccols = t->cols;
    return 0;
}

/* the attributes of the Poincare table: description, units, columns, sections */
static int h5_sections_attributes(const out_h5 *h, hid_t d)
{
    static const char *const desc = "Poincare sections: one row per sample (section index, "
                                    "count, time, then x, y, phi, vx, vy, omega of each body)";
    const char **names = calloc((size_t) h->secncols + 1, sizeof *names);
    const char **units = calloc((size_t) h->secncols + 1, sizeof *units);
    const char **secs = calloc((size_t) h->nsecnames + 1, sizeof *secs);
    int rc = names && units && secs ? 0 : -1;
    for (int i = 0; rc == 0 && i < h->secncols; i++) {
        names[i] = h->seccols[i].name;
        units[i] = h->seccols[i].unit;
    }
    for (int i = 0; rc == 0 && i < h->nsecnames; i++)
        secs[i] = h->secnames[i];
    if (rc == 0)
        rc = output_h5_file_attr_strings(d, "description", &desc, 0);
    if (rc == 0)
        rc = output_h5_file_attr_strings(d, "units", units, (hsize_t) h->secncols);
    if (rc == 0)
        rc = output_h5_file_attr_strings(d, "columns", names, (hsize_t) h->secncols);
    if (rc == 0)
        rc = output_h5_file_attr_strings(d, "sections", secs, (hsize_t) h->nsecnames);
    free(names);
    free(units);
    free(secs);
    return rc;
}

/* the Poincare table as the 2-D dataset "poincare"; 0 or -1 */
static int h5_sections(out_h5 *h, char *err, size_t err_size)
{
    hsize_t dims[2] = {(hsize_t) h->secrows, (hsize_t) h->secncols};
    hsize_t chunk[2] = {h->secrows > 0 ? (hsize_t) h->secrows : 1, (hsize_t) h->secncols};
    hid_t p = h5_chunked(2, chunk);
    hid_t sp = H5Screate_simple(2, dims, NULL);
    hid_t d = p >= 0 && sp >= 0 ? H5Dcreate2(h->file.id, "poincare", H5T_IEEE_F64LE, sp,
                                             H5P_DEFAULT, p, H5P_DEFAULT)
                                : -1;
    int rc = d >= 0 ? 0 : -1;
    if (rc == 0 && h->secrows > 0 &&
        H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, h->sec) < 0)
        rc = -1;
    if (rc == 0)
        rc = h5_sections_attributes(h, d);
    if (d >= 0 && H5Dclose(d) < 0)
        rc = -1;
    if (sp >= 0)
        H5Sclose(sp);
    if (p >= 0)
        H5Pclose(p);
    return rc != 0 ? h5_fail(h, err, err_size, "cannot write dataset", "poincare") : 0;
}

/* the impact log kept, with its contacts' names; 0 or -1 */
static int h5_log(out_h5 *h, char *err, size_t err_size)
{
    const char **names = calloc((size_t) h->nimp + 1, sizeof *names);
    int i, rc;

    errno = ENOMEM;
    if (names == NULL)
        return h5_fail(h, err, err_size, "cannot write", "the impact log");
    for (i = 0; i < h->nimp; i++)
        names[i] = h->names[i];
    errno = 0;
    rc = h5_impacts(h, h->imp, names, h->nimp);
    if (rc != 0)
        h5_fail(h, err, err_size, "cannot write", "the impact log");
    free(names);
    return rc;
}

int output_h5_finish(out_h5 *h, const char *summary_json, char *err, size_t err_size)
{
    int rc = 0, d;

    /* the writer thread writes what is queued and ends; the last block is written here */
    output_queue_join(&h->queue, 1);
    if (output_queue_failed(&h->queue))
        rc = output_queue_failure(&h->queue, err, err_size);
    h5_quiet(h);
    if (rc == 0)
        rc = h5_flush(h, h->queue.fill, h->nbuf, err, err_size);
    if (rc == 0)
        rc = h5_log(h, err, err_size);
    errno = 0;
    if (rc == 0 && h->sec != NULL)
        rc = h5_sections(h, err, err_size);
    errno = 0;
    if (rc == 0 && h5_summary(h, summary_json) != 0)
        rc = h5_fail(h, err, err_size, "cannot write", "the summary");
    for (d = 0; d < OUT_DS_COUNT; d++)
        if (h->ds[d].id >= 0) {
            errno = 0;
            if (H5Dclose(h->ds[d].id) < 0 && rc == 0)
                rc = h5_fail(h, err, err_size, "cannot write dataset", output_datasets[d].path);
            h->ds[d].id = -1;
        }
    errno = 0;
    if (output_h5_file_close(&h->file, rc != 0) != 0 && rc == 0)
        rc = h5_fail(h, err, err_size, "cannot close", "the file");
    h5_loud(h);
    h5_release(h);
    return rc;
}

void output_h5_abandon(out_h5 *h)
{
    output_h5_quiet saved;

    if (h == NULL)
        return;
    output_queue_join(&h->queue, 2); /* before HDF5 is called here */
    output_h5_file_quiet(&saved);
    h5_release(h);
    output_h5_file_loud(&saved);
}

#else /* no HDF5 in this build */

struct out_h5 {
    int unused;
};

int output_h5_available(void)
{
    return 0;
}

out_h5 *output_h5_create(const char *path, const char *shown, const out_column *cols, int ncols,
                         char *err, size_t err_size)
{
    (void) path;
    (void) cols;
    (void) ncols;
    snprintf(err, err_size,
             "%s: this clink was built without HDF5 (Debian: apt-get install "
             "libhdf5-dev, then build again)",
             shown);
    return NULL;
}

int output_h5_row(out_h5 *h, const double *row, char *err, size_t err_size)
{
    (void) h;
    (void) row;
    snprintf(err, err_size, "HDF5 output: not built");
    return -1;
}

int output_h5_impact(out_h5 *h, const clink_impact_record *rec, const char *contact, char *err,
                     size_t err_size)
{
    (void) h;
    (void) rec;
    (void) contact;
    snprintf(err, err_size, "HDF5 output: not built");
    return -1;
}

int output_h5_finish(out_h5 *h, const char *summary_json, char *err, size_t err_size)
{
    (void) h;
    (void) summary_json;
    snprintf(err, err_size, "HDF5 output: not built");
    return -1;
}

int output_h5_sections(out_h5 *h, const out_section_table *t, char *err, size_t err_size)
{
    (void) h;
    (void) t;
    snprintf(err, err_size, "HDF5 output: not built");
    return -1;
}

void output_h5_abandon(out_h5 *h)
{
    (void) h;
}

#endif

/* ---- the row of the format table ------------------------------------------ */

static void *h5_op_open(const out_writer_setup *s, char *err, size_t err_size)
{
    return output_h5_create(s->tmp[0], s->shown[0], s->cols, s->ncols, err, err_size);
}

static int h5_op_row(void *w, const double *row, char *err, size_t err_size)
{
    return output_h5_row(w, row, err, err_size);
}

static int h5_op_impact(void *w, const clink_impact_record *rec, const char *contact, char *err,
                        size_t err_size)
{
    return output_h5_impact(w, rec, contact, err, err_size);
}

static int h5_op_finish(void *w, const char *summary_json, char *err, size_t err_size)
{
    return output_h5_finish(w, summary_json, err, err_size);
}

static void h5_op_abort(void *w)
{
    output_h5_abandon(w);
}

static int h5_op_sections(void *w, const out_section_table *t, char *err, size_t err_size)
{
    return output_h5_sections(w, t, err, err_size);
}

const out_writer_ops output_hdf5_writer = {
    .format = CLINK_FORMAT_HDF5,
    .name = "hdf5",
    .files = {"results.h5", NULL},
    .available = output_h5_available,
    .unavailable = "HDF5 output: this clink was built without HDF5; install the HDF5 library "
                   "(Debian: apt-get install libhdf5-dev) and build again (docs/outputs.md)",
    .open = h5_op_open,
    .check = NULL,
    .row = h5_op_row,
    .impact = h5_op_impact,
    .finish = h5_op_finish,
    .abort = h5_op_abort,
    .sections = h5_op_sections,
    .sections_file = NULL,
};
