/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * h5_file.c: the failure-safe HDF5 file of h5_file.h: a POSIX file driver (pread/pwrite on
 * one descriptor, the layout features of HDF5's default sec2 driver) that drops every write
 * after a failed one so that H5Fclose succeeds after a full disk; the checked close that
 * reports the first failure; the string attributes and 1-D datasets clink's HDF5 files
 * share; the fsync and rename that give a finished file its name.
 *
 * HDF5 is called through the table of hdf5_load.h (loaded on first use): quiet and loud do
 * nothing, and create fails with ELIBACC, when it cannot be loaded (output_h5_load says why).
 *
 * Without HDF5 (CLINK_HAVE_HDF5 undefined) only output_h5_file_available is here (0).
 */
#define _POSIX_C_SOURCE 200809L /* pread, pwrite, fsync */

#include "output/h5_file.h"

int output_h5_file_available(void)
{
#ifdef CLINK_HAVE_HDF5
    return 1;
#else
    return 0;
#endif
}

#ifdef CLINK_HAVE_HDF5

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/hdf5_load.h" /* last: HDF5's names become the loaded table's */

/*
 * The file driver: POSIX pread/pwrite on one descriptor, with the layout
 * features of HDF5's default driver (sec2), so the file is the same. It differs in one
 * thing: after a write or a truncation has failed (a full disk, a file size limit), or once
 * the caller has given the file up (discard set by output_h5_file_close), it drops every later
 * write and truncation and reports success, and a failing close(2) is reported to the
 * caller's output_h5_file (close_err) rather than to HDF5. The file is then incomplete, as it was
 * already, and the caller removes it; but H5Fclose succeeds. This matters because HDF5 1.10 frees a
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

void output_h5_file_quiet(output_h5_quiet *saved)
{
    saved->fn = NULL;
    saved->data = NULL;
    if (output_h5_load(NULL, 0) != 0)
        return; /* no HDF5 to quieten; output_h5_file_create fails */
    if (H5Eget_auto2(H5E_DEFAULT, &saved->fn, &saved->data) < 0) {
        saved->fn = NULL;
        saved->data = NULL;
    }
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

void output_h5_file_loud(const output_h5_quiet *saved)
{
    if (output_h5_load(NULL, 0) != 0)
        return;
    H5Eset_auto2(H5E_DEFAULT, saved->fn, saved->data);
}

int output_h5_file_create(output_h5_file *f, const char *path, int replace)
{
    hid_t fapl;

    f->id = -1;
    f->close_err = 0;
    f->driver = -1;
    if (output_h5_load(NULL, 0) != 0) {
        errno = ELIBACC; /* the caller asks output_h5_load for the words */
        return -1;
    }
    f->driver = H5FDregister(&h5_fd_class);
    fapl = f->driver >= 0 ? H5Pcreate(H5P_FILE_ACCESS) : -1;
    errno = 0;
    f->id = fapl >= 0 && H5Pset_driver(fapl, f->driver, NULL) >= 0
                ? H5Fcreate(path, replace ? H5F_ACC_TRUNC : H5F_ACC_EXCL, H5P_DEFAULT, fapl)
                : -1;
    if (fapl >= 0)
        H5Pclose(fapl);
    if (f->id < 0) {
        int e = errno;
        if (f->driver >= 0)
            H5FDunregister(f->driver);
        f->driver = -1;
        errno = e;
        return -1;
    }
    return 0;
}

/* the driver's record of the open file f, NULL when HDF5 gives none (not our driver) */
static h5_fd *h5_fd_of(const output_h5_file *f)
{
    void *p = NULL;
    if (H5Fget_vfd_handle(f->id, H5P_DEFAULT, &p) >= 0 && p != NULL)
        return p;
    return NULL;
}

/* H5Fclose of f->id; rc and *e updated with the first failure */
static void h5_file_release(output_h5_file *f, int *rc, int *e)
{
    errno = 0;
    if (H5Fclose(f->id) < 0) {
        if (*rc == 0) {
            *rc = -1;
            *e = errno;
        }
        /* not expected with h5_fd; should it happen, HDF5 1.10 keeps the identifier
           of the file it freed: one more reference keeps its exit-time cleanup away */
        if (H5Iis_valid(f->id) > 0)
            H5Iinc_ref(f->id);
    } else if (f->close_err != 0 && *rc == 0) {
        *rc = -1;
        *e = f->close_err;
    }
    f->id = -1;
}

int output_h5_file_close(output_h5_file *f, int give_up)
{
    h5_fd *d = NULL;
    int rc = 0, e = 0;

    if (f->id >= 0) {
        d = h5_fd_of(f);
        if (d != NULL) {
            d->close_err = &f->close_err;
            d->discard |= give_up;
        }
        errno = 0;
        if (!give_up && H5Fflush(f->id, H5F_SCOPE_LOCAL) < 0) {
            rc = -1;
            e = errno;
            if (d != NULL)
                d->discard = 1;
        }
        if (d != NULL && d->io_err != 0 && !give_up) {
            rc = -1;
            e = d->io_err;
        }
        if (d == NULL && !give_up) {
            rc = -1; /* not our driver: the file's completeness cannot be known */
        }
        h5_file_release(f, &rc, &e);
    }
    if (f->driver >= 0)
        H5FDunregister(f->driver);
    f->driver = -1;
    errno = e;
    return rc;
}

int output_h5_file_commit(const char *tmp, const char *path)
{
    int fd = open(tmp, O_RDONLY), e;

    if (fd < 0)
        return -1;
    if (fsync(fd) != 0) {
        e = errno;
        (void) close(fd); /* the fsync's failure is the one reported */
        errno = e;
        return -1;
    }
    if (close(fd) != 0)
        return -1;
    return rename(tmp, path) == 0 ? 0 : -1;
}

hid_t output_h5_file_string_type(void)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t >= 0 && (H5Tset_size(t, H5T_VARIABLE) < 0 || H5Tset_cset(t, H5T_CSET_UTF8) < 0)) {
        H5Tclose(t);
        return -1;
    }
    return t;
}

int output_h5_file_attr_strings(hid_t obj, const char *name, const char *const *s, hsize_t n)
{
    hid_t t = output_h5_file_string_type();
    hid_t sp = n == 0 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &n, NULL);
    hid_t a = t >= 0 && sp >= 0 ? H5Acreate2(obj, name, t, sp, H5P_DEFAULT, H5P_DEFAULT) : -1;
    int rc = a >= 0 && H5Awrite(a, t, s) >= 0 ? 0 : -1;
    if (a >= 0 && H5Aclose(a) < 0)
        rc = -1;
    if (sp >= 0)
        H5Sclose(sp);
    if (t >= 0)
        H5Tclose(t);
    return rc;
}

int output_h5_file_column(hid_t loc, const char *name, hid_t ft, hid_t mt, hid_t dcpl,
                          int extendible, const void *data, hsize_t n, const char *const *attrs)
{
    hsize_t maxd = H5S_UNLIMITED;
    hid_t sp = H5Screate_simple(1, &n, extendible ? &maxd : NULL);
    hid_t d = sp >= 0 ? H5Dcreate2(loc, name, ft, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT) : -1;
    int rc =
        d >= 0 && (n == 0 || H5Dwrite(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0) ? 0 : -1;

    for (; rc == 0 && attrs != NULL && attrs[0] != NULL; attrs += 2)
        rc = output_h5_file_attr_strings(d, attrs[0], &attrs[1], 0);
    if (d >= 0 && H5Dclose(d) < 0)
        rc = -1;
    if (sp >= 0)
        H5Sclose(sp);
    return rc;
}

#endif /* CLINK_HAVE_HDF5 */
