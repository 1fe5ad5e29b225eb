/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hdf5_load.c: the HDF5 C library opened with dlopen on the first HDF5 file a process
 * writes (hdf5_load.h), and the table of its functions and global identifiers resolved
 * with dlsym. libclink and the clink command no longer name libhdf5 among the libraries
 * the dynamic loader maps at start: a run that writes no HDF5 does not pay for relocating
 * HDF5's chain (libcurl, OpenSSL, LDAP, Kerberos, ...), nor does the FMU.
 *
 * Which library: CLINK_HDF5_LIBRARY when that environment variable is set (alone), else
 * the SONAME of the library CMake found (CLINK_HDF5_SONAME, cmake/clinkHdf5.cmake), else
 * its path at build time (CLINK_HDF5_PATH). The library's major and minor version must be
 * the headers' (H5get_libversion); H5open is called before the global identifiers are
 * read, as HDF5's macros do. The library is never closed: HDF5 registers its exit-time
 * cleanup (H5_term_library) with atexit.
 *
 * The loaded table is process-wide state, as the mapped library is: filled once under
 * pthread_once, read-only afterwards. Without HDF5 this file compiles to nothing.
 */
#define _POSIX_C_SOURCE 200809L

#ifdef CLINK_HAVE_HDF5

#include "output/hdf5_load.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CLINK_HDF5_SONAME
#define CLINK_HDF5_SONAME "libhdf5_serial.so.103"
#endif
#ifndef CLINK_HDF5_PATH
#define CLINK_HDF5_PATH CLINK_HDF5_SONAME
#endif

/* a symbol's address goes into a function pointer by its bytes (ISO C has no cast) */
_Static_assert(sizeof(void *) == sizeof(void (*)(void)), "function pointers are data-sized");

/* the process's one loading of HDF5 */
typedef struct h5_loader {
    pthread_once_t once;
    int rc;         /* 0: loaded; -1: failed (err says why) */
    char err[1536]; /* the failure, worded for the user */
    void *handle;   /* dlopen's handle (never closed) */
    output_h5_table api;
} h5_loader;

static h5_loader h5_state = {.once = PTHREAD_ONCE_INIT, .rc = -1};

/*
 * name's address in handle into *slot (a pointer-sized field); 0, or -1 with err. global
 * (the program's global scope, dlopen(NULL)), when not NULL, is searched first: a variable
 * of HDF5 that the program itself uses (it links libhdf5 and reads H5T_NATIVE_DOUBLE) has
 * been copied into the program by the linker (a copy relocation), and HDF5's own code uses
 * that copy, found first in the global scope, as this lookup does; dlsym on the handle alone
 * would give the library's original, which H5open never sets.
 */
static int h5_resolve(void *handle, void *global, const char *lib, const char *name, void *slot)
{
    void *p = global != NULL ? dlsym(global, name) : NULL;

    dlerror();
    if (p == NULL)
        p = dlsym(handle, name);
    if (p == NULL) {
        const char *why = dlerror();
        snprintf(h5_state.err, sizeof h5_state.err, "cannot load the HDF5 library %s: %s", lib,
                 why != NULL ? why : "symbol is NULL");
        return -1;
    }
    memcpy(slot, &p, sizeof p);
    return 0;
}

/* every function and variable of the table from handle; 0 or -1 with err */
static int h5_resolve_all(void *handle, const char *lib)
{
    output_h5_table *t = &h5_state.api;
    void *global = dlopen(NULL, RTLD_NOW);
    int rc = -1;
#define H5_FUNCTION(name)                                                                          \
    if (h5_resolve(handle, NULL, lib, #name, &t->p_##name) != 0)                                   \
        goto out;
#define H5_VARIABLE(name)                                                                          \
    if (h5_resolve(handle, global, lib, #name, &t->p_##name) != 0)                                 \
        goto out;
    OUTPUT_H5_FUNCTIONS(H5_FUNCTION)
    OUTPUT_H5_VARIABLES(H5_VARIABLE)
#undef H5_FUNCTION
#undef H5_VARIABLE
    rc = 0;
out:
    if (global != NULL)
        dlclose(global);
    return rc;
}

/* HDF5 opened, resolved, version-checked and initialised from lib; 0 or -1 with err */
static int h5_open_library(const char *lib)
{
    unsigned maj = 0, min = 0, rel = 0;
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);

    if (h == NULL) {
        const char *why = dlerror();
        snprintf(h5_state.err, sizeof h5_state.err, "cannot load the HDF5 library %s: %s", lib,
                 why != NULL ? why : "dlopen failed");
        return -1;
    }
    if (h5_resolve_all(h, lib) != 0) {
        dlclose(h); /* none of its code has run */
        return -1;
    }
    /* from here on the library stays open: its first call may have initialised it */
    if (h5_state.api.p_H5get_libversion(&maj, &min, &rel) < 0) {
        snprintf(h5_state.err, sizeof h5_state.err,
                 "cannot load the HDF5 library %s: H5get_libversion failed", lib);
        return -1;
    }
    if (maj != H5_VERS_MAJOR || min != H5_VERS_MINOR) {
        snprintf(h5_state.err, sizeof h5_state.err,
                 "cannot load the HDF5 library %s: it is HDF5 %u.%u.%u, clink was built with "
                 "HDF5 %d.%d headers",
                 lib, maj, min, rel, H5_VERS_MAJOR, H5_VERS_MINOR);
        return -1;
    }
    if (h5_state.api.p_H5open() < 0) {
        snprintf(h5_state.err, sizeof h5_state.err,
                 "cannot load the HDF5 library %s: H5open failed", lib);
        return -1;
    }
    h5_state.handle = h;
    return 0;
}

/* pthread_once's routine: the candidates in order, the first that loads kept */
static void h5_load_once(void)
{
    const char *env = getenv("CLINK_HDF5_LIBRARY");
    char first[sizeof h5_state.err];

    if (env != NULL && env[0] != '\0') {
        h5_state.rc = h5_open_library(env);
        return;
    }
    h5_state.rc = h5_open_library(CLINK_HDF5_SONAME);
    if (h5_state.rc == 0 || strcmp(CLINK_HDF5_SONAME, CLINK_HDF5_PATH) == 0)
        return;
    /* the build's own path; both failures are reported */
    memcpy(first, h5_state.err, sizeof first);
    h5_state.err[0] = '\0';
    memset(&h5_state.api, 0, sizeof h5_state.api);
    h5_state.rc = h5_open_library(CLINK_HDF5_PATH);
    if (h5_state.rc != 0) {
        char second[sizeof h5_state.err];
        memcpy(second, h5_state.err, sizeof second);
        snprintf(h5_state.err, sizeof h5_state.err, "%.700s; %.700s", first, second);
    }
}

int output_h5_load(char *err, size_t err_size)
{
    if (pthread_once(&h5_state.once, h5_load_once) != 0) {
        if (err != NULL && err_size > 0)
            snprintf(err, err_size, "cannot load the HDF5 library: pthread_once failed");
        return -1;
    }
    if (h5_state.rc != 0 && err != NULL && err_size > 0)
        snprintf(err, err_size, "%s", h5_state.err);
    return h5_state.rc;
}

const output_h5_table *output_h5_api(void)
{
    return &h5_state.api;
}

#else

/* ISO C wants a translation unit to declare something */
typedef int output_hdf5_load_empty;

#endif /* CLINK_HAVE_HDF5 */
