/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * output_hdf5.c: results.h5, the HDF5 form of a run's outputs (docs/outputs.md).
 * One dataset per quantity (time, row_kind, q, v, a, reactions, driver_forces,
 * contacts/delta, ..., energies, constraint_violation), rows along the first
 * dimension, each chunked, byte-shuffled and deflated, extendible, with the
 * attributes "description", "units" and (2-D) "columns" (the CSV's names); the
 * impact log as one 1-D dataset per field in the group "impacts"; the summary
 * (the text of summary.json) as the string dataset "summary". Values are the
 * doubles the CSV prints in shortest round-trip form, so both read back equal.
 *
 * Rows are gathered in memory, one block per dataset, and written a block of rows
 * at a time (the chunk's height), so that a chunk is compressed once. The writing
 * (H5Dset_extent, H5Dwrite and the deflate inside) happens on a writer thread that
 * the handle owns: the integrating thread copies each row into the block being
 * filled and hands a full block over through a bounded queue (H5_BLOCKS blocks in
 * all: one being filled, the others queued or being written), waiting only when
 * every other block is still in flight. Between create and finish only the writer
 * thread calls HDF5 (Debian's libhdf5 is not thread-safe); create, finish and
 * abandon run on the caller's thread with the writer not running (before it is
 * started or after it is joined). A failure on the writer thread is kept and
 * reported by the next output_h5_row, or by finish. When the thread cannot be
 * started (or CLINK_BENCH_H5_SYNC is set: a benchmark switch, docs/outputs.md)
 * the blocks are written on the caller's thread as they fill, as before; the
 * file is the same either way.
 *
 * HDF5's own error printing is switched off around every call of this file (the
 * library does not print) and restored after; a failure is reported with the
 * dataset and, when the system set one, errno's reason.
 *
 * Without HDF5 (CLINK_HAVE_HDF5 undefined) the functions report that the build
 * has none.
 */
#define _POSIX_C_SOURCE 200809L /* pthread_sigmask, sigfillset */

#include "output/output_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef CLINK_HAVE_HDF5

#include <fcntl.h>
#include <hdf5.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

/* bytes of row data gathered before a block is written */
#define H5_BLOCK_BYTES (1 << 20)
/* blocks of rows: one being filled, the others queued for or being written by the writer */
#define H5_BLOCKS 3

typedef struct h5_ds {
    hid_t id;               /* -1: the dataset has no column */
    int ncols;              /* 0: none */
    int oned;               /* 1-D (time, row kind) */
    double *buf[H5_BLOCKS]; /* block x ncols each */
} h5_ds;

/*
 * The file driver of results.h5: POSIX pread/pwrite on one descriptor, with the layout
 * features of HDF5's default driver (sec2), so the file is the same. It differs in one
 * thing: after a write or a truncation has failed (a full disk, a file size limit), or once
 * the handle has given the file up (discard set by h5_file_close), it drops every later
 * write and truncation and reports success, and a failing close(2) is reported to the
 * handle (close_err) rather than to HDF5. The file is then incomplete, as it was already,
 * and the caller removes it; but H5Fclose succeeds. This matters because HDF5 1.10 frees a
 * file whose closing failed and yet keeps its identifier, which its exit-time cleanup
 * (H5_term_library, at exit) closes again: a crash after the run had reported its error
 * (fixed upstream in HDF5 1.14.1; Debian 12 ships 1.10.8).
 */
typedef struct h5_fd {
    H5FD_t pub; /* first: HDF5 sees this */
    int fd;
    haddr_t eoa, eof;
    int discard;    /* 1: writes and truncations dropped */
    int io_err;     /* errno of the first failed write or truncation; 0: none */
    int *close_err; /* where close(2)'s errno goes (0: closed); NULL: nowhere */
} h5_fd;

static H5FD_t *h5_fd_open(const char *name, unsigned flags, hid_t fapl, haddr_t maxaddr)
{
    int o = (flags & H5F_ACC_RDWR) ? O_RDWR : O_RDONLY;
    struct stat st;
    h5_fd *f;
    (void) fapl;
    (void) maxaddr;
    if (flags & H5F_ACC_CREAT)
        o |= O_CREAT;
    if (flags & H5F_ACC_EXCL)
        o |= O_EXCL;
    if (flags & H5F_ACC_TRUNC)
        o |= O_TRUNC;
    f = calloc(1, sizeof *f);
    if (f == NULL) {
        errno = ENOMEM;
        return NULL;
    }
    f->fd = open(name, o, 0666);
    if (f->fd < 0 || fstat(f->fd, &st) != 0) {
        int e = errno;
        if (f->fd >= 0)
            close(f->fd);
        free(f);
        errno = e;
        return NULL;
    }
    f->eof = (haddr_t) st.st_size;
    return &f->pub;
}

static herr_t h5_fd_close(H5FD_t *file)
{
    h5_fd *f = (h5_fd *) file;
    int rc = close(f->fd), e = errno;
    herr_t ret = 0;
    if (f->close_err != NULL)
        *f->close_err = rc != 0 ? e : 0;
    else if (rc != 0 && !f->discard)
        ret = -1;
    free(f);
    return ret;
}

static herr_t h5_fd_query(const H5FD_t *file, unsigned long *flags)
{
    (void) file;
    *flags = H5FD_FEAT_AGGREGATE_METADATA | H5FD_FEAT_ACCUMULATE_METADATA | H5FD_FEAT_DATA_SIEVE |
             H5FD_FEAT_AGGREGATE_SMALLDATA;
    return 0;
}

static haddr_t h5_fd_get_eoa(const H5FD_t *file, H5FD_mem_t type)
{
    (void) type;
    return ((const h5_fd *) file)->eoa;
}

static herr_t h5_fd_set_eoa(H5FD_t *file, H5FD_mem_t type, haddr_t addr)
{
    (void) type;
    ((h5_fd *) file)->eoa = addr;
    return 0;
}

static haddr_t h5_fd_get_eof(const H5FD_t *file, H5FD_mem_t type)
{
    (void) type;
    return ((const h5_fd *) file)->eof;
}

/* the handle HDF5 gives back through H5Fget_vfd_handle: the driver's own record */
static herr_t h5_fd_get_handle(H5FD_t *file, hid_t fapl, void **handle)
{
    (void) fapl;
    *handle = file;
    return 0;
}

/* size bytes at addr; what lies beyond the end of the file reads as zeros */
static herr_t h5_fd_read(H5FD_t *file, H5FD_mem_t type, hid_t dxpl, haddr_t addr, size_t size,
                         void *buffer)
{
    h5_fd *f = (h5_fd *) file;
    char *b = buffer;
    (void) type;
    (void) dxpl;
    while (size > 0) {
        ssize_t n = pread(f->fd, b, size, (off_t) addr);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0) {
            memset(b, 0, size);
            break;
        }
        b += n;
        addr += (haddr_t) n;
        size -= (size_t) n;
    }
    return 0;
}

static herr_t h5_fd_write(H5FD_t *file, H5FD_mem_t type, hid_t dxpl, haddr_t addr, size_t size,
                          const void *buffer)
{
    h5_fd *f = (h5_fd *) file;
    const char *b = buffer;
    haddr_t end = addr + size;
    (void) type;
    (void) dxpl;
    if (f->discard)
        size = 0;
    while (size > 0) {
        ssize_t n = pwrite(f->fd, b, size, (off_t) addr);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = EIO;
            f->io_err = errno;
            f->discard = 1;
            return -1;
        }
        b += n;
        addr += (haddr_t) n;
        size -= (size_t) n;
    }
    if (end > f->eof)
        f->eof = end;
    return 0;
}

/* the file's length made its end of allocation, as sec2 does */
static herr_t h5_fd_truncate(H5FD_t *file, hid_t dxpl, hbool_t closing)
{
    h5_fd *f = (h5_fd *) file;
    (void) dxpl;
    (void) closing;
    if (f->eoa == f->eof)
        return 0;
    if (!f->discard && ftruncate(f->fd, (off_t) f->eoa) != 0) {
        f->io_err = errno;
        f->discard = 1;
        return -1;
    }
    f->eof = f->eoa;
    return 0;
}

static const H5FD_class_t h5_fd_class = {
    .name = "clink-posix",
    .maxaddr = (haddr_t) INT64_MAX,
    .fc_degree = H5F_CLOSE_WEAK,
    .open = h5_fd_open,
    .close = h5_fd_close,
    .query = h5_fd_query,
    .get_eoa = h5_fd_get_eoa,
    .set_eoa = h5_fd_set_eoa,
    .get_eof = h5_fd_get_eof,
    .get_handle = h5_fd_get_handle,
    .read = h5_fd_read,
    .write = h5_fd_write,
    .truncate = h5_fd_truncate,
    .fl_map = H5FD_FLMAP_DICHOTOMY,
};

struct out_h5 {
    hid_t file;
    hid_t driver;  /* h5_fd_class registered for this handle; -1: not */
    int close_err; /* close(2)'s errno when the driver closed the file; 0: none */
    char shown[4200];
    h5_ds ds[OUT_DS_COUNT];
    int *slot; /* per column: its index within its dataset */
    int *dsof; /* per column: its dataset */
    int ncols;
    hsize_t block; /* rows per block and chunk */
    hsize_t nbuf;  /* rows in the block being filled (integrating thread) */
    int fill;      /* the block being filled (integrating thread) */
    hsize_t rows;  /* rows written (by the writer thread while it runs) */
    H5E_auto2_t saved_fn;
    void *saved_data;

    /* the writer thread; threaded 0: blocks are written on the caller's thread */
    int threaded;
    int sync_made; /* 1: lock and cond initialised */
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond;      /* a block queued or written, or stop */
    hsize_t qrows[H5_BLOCKS]; /* rows of each queued block (under lock) */
    int queued;               /* blocks queued or being written (under lock) */
    int head;                 /* the oldest queued block (writer thread) */
    int stop;                 /* 1: finish the queue and end; 2: drop it and end */
    atomic_int failed;        /* 1 once werr holds the first failure of a block's writing */
    char werr[4400];          /* written before failed is set, then never again */
};

int output_h5_available(void)
{
    return 1;
}

/* HDF5 quiet while we call it; the caller's handler back after */
static void h5_quiet(out_h5 *h)
{
    if (H5Eget_auto2(H5E_DEFAULT, &h->saved_fn, &h->saved_data) < 0) {
        h->saved_fn = NULL;
        h->saved_data = NULL;
    }
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

static void h5_loud(const out_h5 *h)
{
    H5Eset_auto2(H5E_DEFAULT, h->saved_fn, h->saved_data);
}

/* err = "FILE: what: reason" (errno's when the system gave one) */
static int h5_fail(const out_h5 *h, char *err, size_t n, const char *what, const char *name)
{
    int e = errno;
    snprintf(err, n, "%s: %s %s: %s", h->shown, what, name,
             e != 0 ? strerror(e) : "the HDF5 library failed");
    return -1;
}

/* a variable-length UTF-8 string type; the caller closes it */
static hid_t h5_string_type(void)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t >= 0 && (H5Tset_size(t, H5T_VARIABLE) < 0 || H5Tset_cset(t, H5T_CSET_UTF8) < 0)) {
        H5Tclose(t);
        return -1;
    }
    return t;
}

/* attribute name = n strings (n 0: one scalar string, s[0]); 0 or -1 */
static int h5_attr_strings(hid_t obj, const char *name, const char *const *s, hsize_t n)
{
    hid_t t = h5_string_type();
    hid_t sp = n == 0 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &n, NULL);
    hid_t a = t >= 0 && sp >= 0 ? H5Acreate2(obj, name, t, sp, H5P_DEFAULT, H5P_DEFAULT) : -1;
    int rc = a >= 0 && H5Awrite(a, t, s) >= 0 ? 0 : -1;
    if (a >= 0)
        H5Aclose(a);
    if (sp >= 0)
        H5Sclose(sp);
    if (t >= 0)
        H5Tclose(t);
    return rc;
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
        rc = h5_attr_strings(h->ds[d].id, "description", &desc, 0);
        if (rc == 0)
            rc = h5_attr_strings(h->ds[d].id, "units", units,
                                 h->ds[d].oned ? 0 : (hsize_t) h->ds[d].ncols);
        if (rc == 0 && !h->ds[d].oned)
            rc = h5_attr_strings(h->ds[d].id, "columns", names, (hsize_t) h->ds[d].ncols);
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
            ? H5Dcreate2(h->file, output_datasets[d].path,
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
    for (b = 0; b < H5_BLOCKS; b++) {
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

/*
 * The lock, wait, broadcast and join calls below have their results cast away: POSIX lets
 * them fail only on misuse (a lock or condition not initialised, a recursive or
 * error-checking lock, a thread already joined or the caller itself), which this file
 * never does; the initialisations and the thread's creation, which can fail, are checked.
 */

/* the writer thread stopped (stop 1: after writing what is queued; 2: dropping it) and joined */
static void h5_writer_join(out_h5 *h, int stop)
{
    if (!h->threaded)
        return;
    (void) pthread_mutex_lock(&h->lock);
    h->stop = stop;
    (void) pthread_cond_broadcast(&h->cond);
    (void) pthread_mutex_unlock(&h->lock);
    (void) pthread_join(h->thread, NULL);
    h->threaded = 0;
}

/*
 * h->file closed and the handle's driver unregistered. give_up: the run has failed and the
 * file will be removed, so nothing more is written to it. 0, or -1 with errno (0 when HDF5
 * failed without the system) when the file could not be completed: HDF5 failed, or the
 * driver failed a write or truncation at any time, even one whose failure HDF5 did not
 * pass on. The close itself cannot fail on a write (see h5_fd): a failing flush leaves the
 * driver dropping writes.
 */
static int h5_file_close(out_h5 *h, int give_up)
{
    void *p = NULL;
    h5_fd *f = NULL;
    int rc = 0, e = 0;

    if (h->file >= 0) {
        if (H5Fget_vfd_handle(h->file, H5P_DEFAULT, &p) >= 0 && p != NULL) {
            f = p;
            f->close_err = &h->close_err;
            f->discard |= give_up;
        }
        errno = 0;
        if (!give_up && H5Fflush(h->file, H5F_SCOPE_LOCAL) < 0) {
            rc = -1;
            e = errno;
            if (f != NULL)
                f->discard = 1;
        }
        if (f != NULL && f->io_err != 0 && !give_up) {
            rc = -1;
            e = f->io_err;
        }
        if (f == NULL && !give_up) {
            rc = -1; /* not our driver: the file's completeness cannot be known */
        }
        errno = 0;
        if (H5Fclose(h->file) < 0) {
            if (rc == 0) {
                rc = -1;
                e = errno;
            }
            /* not expected with h5_fd; should it happen, HDF5 1.10 keeps the identifier
               of the file it freed: one more reference keeps its exit-time cleanup away */
            if (H5Iis_valid(h->file) > 0)
                H5Iinc_ref(h->file);
        } else if (h->close_err != 0 && rc == 0) {
            rc = -1;
            e = h->close_err;
        }
        h->file = -1;
    }
    if (h->driver >= 0)
        H5FDunregister(h->driver);
    h->driver = -1;
    errno = e;
    return rc;
}

static void h5_release(out_h5 *h)
{
    int i, b;
    h5_writer_join(h, 2);
    if (h->sync_made) {
        pthread_cond_destroy(&h->cond);
        pthread_mutex_destroy(&h->lock);
    }
    for (i = 0; i < OUT_DS_COUNT; i++) {
        if (h->ds[i].id >= 0)
            H5Dclose(h->ds[i].id);
        for (b = 0; b < H5_BLOCKS; b++)
            free(h->ds[i].buf[b]);
    }
    h5_file_close(h, 1);
    free(h->slot);
    free(h->dsof);
    free(h);
}

static void *h5_writer(void *arg);

/*
 * The writer thread started, with every signal blocked in it (they go to the integrating
 * thread); h->threaded 1 on success. Not started (the caller's thread writes) when
 * CLINK_BENCH_H5_SYNC is set to anything but "0" (benchmark switch) or when the system
 * refuses a lock, a condition variable or a thread: the file is the same.
 */
static void h5_writer_start(out_h5 *h)
{
    const char *sync = getenv("CLINK_BENCH_H5_SYNC");
    sigset_t all, old;

    if (sync != NULL && sync[0] != '\0' && strcmp(sync, "0") != 0)
        return;
    if (pthread_mutex_init(&h->lock, NULL) != 0)
        return;
    if (pthread_cond_init(&h->cond, NULL) != 0) {
        pthread_mutex_destroy(&h->lock);
        return;
    }
    h->sync_made = 1;
    if (sigfillset(&all) != 0 || pthread_sigmask(SIG_SETMASK, &all, &old) != 0)
        return;
    h->threaded = pthread_create(&h->thread, NULL, h5_writer, h) == 0;
    /* restoring the mask the caller had cannot fail with a mask it gave back itself */
    (void) pthread_sigmask(SIG_SETMASK, &old, NULL);
}

out_h5 *output_h5_create(const char *path, const char *shown, const out_column *cols, int ncols,
                         char *err, size_t err_size)
{
    out_h5 *h = calloc(1, sizeof *h);
    hid_t fapl;
    int d;

    if (h == NULL) {
        snprintf(err, err_size, "%s: cannot create: %s", shown, strerror(ENOMEM));
        return NULL;
    }
    snprintf(h->shown, sizeof h->shown, "%s", shown);
    atomic_init(&h->failed, 0);
    h->file = -1;
    h->driver = -1;
    h5_quiet(h);
    errno = 0;
    if (h5_layout(h, cols, ncols) != 0) {
        h5_fail(h, err, err_size, "cannot create", "");
        goto fail;
    }
    h->driver = H5FDregister(&h5_fd_class);
    fapl = h->driver >= 0 ? H5Pcreate(H5P_FILE_ACCESS) : -1;
    errno = 0;
    h->file = fapl >= 0 && H5Pset_driver(fapl, h->driver, NULL) >= 0
                  ? H5Fcreate(path, H5F_ACC_EXCL, H5P_DEFAULT, fapl)
                  : -1;
    if (fapl >= 0)
        H5Pclose(fapl);
    if (h->file < 0) {
        snprintf(err, err_size, "%s: cannot create: %s", shown,
                 errno != 0 ? strerror(errno) : "the HDF5 library failed");
        goto fail;
    }
    if (h->ds[OUT_DS_DELTA].ncols > 0) {
        hid_t g = H5Gcreate2(h->file, "contacts", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        if (g < 0 || H5Gclose(g) < 0) {
            h5_fail(h, err, err_size, "cannot create group", "contacts");
            goto fail;
        }
    }
    for (d = 0; d < OUT_DS_COUNT; d++)
        if (h->ds[d].ncols > 0 && h5_ds_create(h, d, cols, ncols) != 0) {
            h5_fail(h, err, err_size, "cannot create dataset", output_datasets[d].path);
            goto fail;
        }
    h5_loud(h);
    h5_writer_start(h);
    return h;
fail:
    h5_loud(h);
    h5_release(h);
    return NULL;
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

/*
 * The writer thread: writes the queued blocks in order until told to stop. After a
 * failure, or when told to drop the queue (stop 2), it writes no more but still frees
 * every block it is handed, so that the integrating thread never waits for nothing.
 */
static void *h5_writer(void *arg)
{
    out_h5 *h = arg;
    int failed = 0;

    for (;;) {
        hsize_t n;
        int b, drop;
        (void) pthread_mutex_lock(&h->lock);
        while (h->queued == 0 && h->stop == 0)
            (void) pthread_cond_wait(&h->cond, &h->lock);
        if (h->queued == 0) {
            (void) pthread_mutex_unlock(&h->lock);
            break;
        }
        b = h->head;
        n = h->qrows[b];
        drop = h->stop == 2;
        (void) pthread_mutex_unlock(&h->lock);

        if (!failed && !drop) {
            h5_quiet(h);
            failed = h5_flush(h, b, n, h->werr, sizeof h->werr) != 0;
            h5_loud(h);
            if (failed)
                atomic_store_explicit(&h->failed, 1, memory_order_release);
        }

        (void) pthread_mutex_lock(&h->lock);
        h->head = (h->head + 1) % H5_BLOCKS;
        h->queued--;
        (void) pthread_cond_broadcast(&h->cond);
        (void) pthread_mutex_unlock(&h->lock);
    }
    return NULL;
}

/* the first failure of a block's writing (on either thread) into err; -1 */
static int h5_writer_failure(const out_h5 *h, char *err, size_t err_size)
{
    snprintf(err, err_size, "%s", h->werr);
    return -1;
}

/*
 * The full block handed to the writer thread (waiting while every other block is in
 * flight) and the next one to fill; or written here when there is no writer thread.
 */
static int h5_hand_over(out_h5 *h, char *err, size_t err_size)
{
    int rc = 0;
    if (!h->threaded) {
        h5_quiet(h);
        rc = h5_flush(h, h->fill, h->nbuf, h->werr, sizeof h->werr);
        h5_loud(h);
        h->nbuf = 0;
        if (rc == 0)
            return 0;
        atomic_store_explicit(&h->failed, 1, memory_order_relaxed);
        return h5_writer_failure(h, err, err_size);
    }
    (void) pthread_mutex_lock(&h->lock);
    while (h->queued == H5_BLOCKS - 1 && !atomic_load_explicit(&h->failed, memory_order_acquire))
        (void) pthread_cond_wait(&h->cond, &h->lock);
    if (atomic_load_explicit(&h->failed, memory_order_acquire))
        rc = -1;
    else {
        h->qrows[h->fill] = h->nbuf;
        h->queued++;
        (void) pthread_cond_broadcast(&h->cond);
    }
    (void) pthread_mutex_unlock(&h->lock);
    if (rc != 0)
        return h5_writer_failure(h, err, err_size);
    h->fill = (h->fill + 1) % H5_BLOCKS;
    h->nbuf = 0;
    return 0;
}

int output_h5_row(out_h5 *h, const double *row, char *err, size_t err_size)
{
    hsize_t base = h->nbuf;
    int b = h->fill, i;
    if (atomic_load_explicit(&h->failed, memory_order_acquire))
        return h5_writer_failure(h, err, err_size);
    for (i = 0; i < h->ncols; i++) {
        h5_ds *x = &h->ds[h->dsof[i]];
        x->buf[b][base * (hsize_t) x->ncols + (hsize_t) h->slot[i]] = row[i];
    }
    if (++h->nbuf == h->block)
        return h5_hand_over(h, err, err_size);
    return 0;
}

/* a 1-D dataset of n values of memory type mt stored as ft, with unit and description */
static int h5_column(hid_t g, const char *name, hid_t ft, hid_t mt, const void *data, hsize_t n,
                     const char *unit, const char *desc)
{
    hsize_t maxd = H5S_UNLIMITED, chunk = n > 0 ? n : 1;
    hid_t sp = H5Screate_simple(1, &n, &maxd);
    hid_t p = h5_chunked(1, &chunk);
    hid_t d = sp >= 0 && p >= 0 ? H5Dcreate2(g, name, ft, sp, H5P_DEFAULT, p, H5P_DEFAULT) : -1;
    int rc = d >= 0 && (n == 0 || H5Dwrite(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0) &&
                     h5_attr_strings(d, "units", &unit, 0) == 0 &&
                     h5_attr_strings(d, "description", &desc, 0) == 0
                 ? 0
                 : -1;
    if (d >= 0)
        H5Dclose(d);
    if (p >= 0)
        H5Pclose(p);
    if (sp >= 0)
        H5Sclose(sp);
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
    hid_t g = H5Gcreate2(h->file, "impacts", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    double *v = malloc(((size_t) n + 1) * sizeof *v);
    int *k = malloc(((size_t) n + 1) * sizeof *k);
    hid_t st = h5_string_type();
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
    hid_t t = h5_string_type();
    hid_t sp = H5Screate(H5S_SCALAR);
    hid_t d = t >= 0 && sp >= 0
                  ? H5Dcreate2(h->file, "summary", t, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)
                  : -1;
    int rc = d >= 0 && H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, &json) >= 0 &&
                     h5_attr_strings(d, "description", &desc, 0) == 0
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

int output_h5_finish(out_h5 *h, const clink_impact_record *imp, const char *const *names, int nimp,
                     const char *summary_json, char *err, size_t err_size)
{
    int rc = 0, d;

    /* the writer thread writes what is queued and ends; the last block is written here */
    h5_writer_join(h, 1);
    if (atomic_load_explicit(&h->failed, memory_order_acquire))
        rc = h5_writer_failure(h, err, err_size);
    h5_quiet(h);
    if (rc == 0)
        rc = h5_flush(h, h->fill, h->nbuf, err, err_size);
    errno = 0;
    if (rc == 0 && h5_impacts(h, imp, names, nimp) != 0)
        rc = h5_fail(h, err, err_size, "cannot write", "the impact log");
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
    if (h5_file_close(h, rc != 0) != 0 && rc == 0)
        rc = h5_fail(h, err, err_size, "cannot close", "the file");
    h5_loud(h);
    h5_release(h);
    return rc;
}

void output_h5_abandon(out_h5 *h)
{
    H5E_auto2_t fn;
    void *data;

    if (h == NULL)
        return;
    h5_writer_join(h, 2); /* before HDF5 is called here */
    h5_quiet(h);
    fn = h->saved_fn;
    data = h->saved_data;
    h5_release(h);
    H5Eset_auto2(H5E_DEFAULT, fn, data);
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

int output_h5_finish(out_h5 *h, const clink_impact_record *imp, const char *const *names, int nimp,
                     const char *summary_json, char *err, size_t err_size)
{
    (void) h;
    (void) imp;
    (void) names;
    (void) nimp;
    (void) summary_json;
    snprintf(err, err_size, "HDF5 output: not built");
    return -1;
}

void output_h5_abandon(out_h5 *h)
{
    (void) h;
}

#endif
