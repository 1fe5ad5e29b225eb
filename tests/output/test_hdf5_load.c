/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Tests of the HDF5 library loaded on first use (src/output/hdf5_load.c): a process that
 * writes no HDF5 never maps libhdf5 (read from /proc/self/maps, the kernel's list of the
 * process's mappings); the first results.h5 maps it and is an HDF5 file (its format
 * signature); a library that cannot be loaded (CLINK_HDF5_LIBRARY naming a missing file,
 * or a library without HDF5's functions) fails the HDF5 run with the library's name and
 * the dynamic loader's reason, leaves no file, and a CSV run in the same process still
 * runs. Each TEST is its own process (ctest), so each starts with HDF5 not loaded. This
 * program is not linked with libhdf5 (tests/CMakeLists.txt links only test_output_hdf5).
 */
#define _XOPEN_SOURCE 700

#include "ensure.h"

#include "clink/output.h"
#include "clink/sim.h"
#include "clink/xml.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

/* nonzero when a file whose name contains "libhdf5" is mapped into this process */
static int hdf5_mapped(void)
{
    char line[4608];
    int found = 0;
    FILE *f = fopen("/proc/self/maps", "r");

    ENSURE(f != NULL);
    if (f == NULL)
        return -1;
    while (fgets(line, sizeof line, f) != NULL)
        found |= strstr(line, "/libhdf5") != NULL;
    fclose(f);
    return found;
}

/* the pendulum over 0.01 s in format into dir; the recorder's status, its message in err */
static clink_status run_pendulum(const char *dir, clink_output_format format, char *err,
                                 size_t err_size)
{
    clink_output_options opt = clink_default_output_options();
    clink_run_info info;
    clink_model *model = NULL;
    clink_sim *sim = NULL;
    clink_recorder *rec = NULL;
    clink_status st;

    err[0] = '\0';
    ENSURE(clink_xml_load(CLINK_SOURCE_DIR "/models/pendulum.xml", &model, NULL, err, err_size) ==
           CLINK_OK);
    ENSURE(model != NULL && clink_sim_create(model, NULL, &sim, err, err_size) == CLINK_OK);
    if (sim == NULL) {
        clink_model_destroy(&model);
        return CLINK_ERR_ARG;
    }
    opt.format = format;
    st = clink_recorder_create(model, dir, &opt, &rec, err, err_size);
    if (st == CLINK_OK) {
        ENSURE(clink_recorder_sample(rec, sim) == CLINK_OK);
        ENSURE(clink_recorder_advance(rec, sim, 0.01) == CLINK_OK);
        memset(&info, 0, sizeof info);
        info.model_name = "pendulum";
        info.t_end = 0.01;
        info.wall_time = -1;
        st = clink_recorder_finish(rec, sim, &info);
        if (st != CLINK_OK)
            snprintf(err, err_size, "%s", clink_recorder_error(rec));
    }
    clink_recorder_destroy(&rec);
    clink_sim_destroy(&sim);
    clink_model_destroy(&model);
    return st;
}

/* the files in dir removed, then dir; the number of files there were */
static int empty_and_remove(const char *dir)
{
    char path[4200];
    int n = 0;
    struct dirent *e;
    DIR *d = opendir(dir);

    if (d == NULL)
        return -1;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        remove(path);
        n++;
    }
    closedir(d);
    ENSURE(rmdir(dir) == 0);
    return n;
}

/* nonzero when path begins with HDF5's format signature (\211HDF\r\n\032\n at offset 0) */
static int is_hdf5_file(const char *path)
{
    static const unsigned char sig[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
    unsigned char got[8] = {0};
    FILE *f = fopen(path, "rb");
    size_t n = 0;

    if (f == NULL)
        return 0;
    n = fread(got, 1, sizeof got, f);
    fclose(f);
    return n == sizeof got && memcmp(got, sig, sizeof sig) == 0;
}

TEST(a_csv_run_never_maps_the_hdf5_library)
{
    char dir[] = "/tmp/clink_test_h5load_XXXXXX", err[2048];

    ENSURE(mkdtemp(dir) != NULL);
    ENSURE(hdf5_mapped() == 0);
    ENSURE(run_pendulum(dir, CLINK_FORMAT_CSV, err, sizeof err) == CLINK_OK);
    ENSURE(clink_output_has_hdf5() >= 0); /* asking whether the build has HDF5 loads nothing */
    ENSURE(hdf5_mapped() == 0);
    ENSURE(empty_and_remove(dir) == 3); /* timeseries.csv, impacts.csv, summary.json */
}

TEST(the_first_hdf5_run_maps_the_library_and_writes_an_hdf5_file)
{
    char dir[] = "/tmp/clink_test_h5load_XXXXXX", err[2048], path[4200];

    if (!clink_output_has_hdf5()) {
        printf("this build has no HDF5: nothing to load\n");
        return;
    }
    ENSURE(mkdtemp(dir) != NULL);
    ENSURE(hdf5_mapped() == 0);
    ENSURE(run_pendulum(dir, CLINK_FORMAT_HDF5, err, sizeof err) == CLINK_OK);
    if (err[0] != '\0')
        fprintf(stderr, "%s\n", err);
    ENSURE(hdf5_mapped() == 1);
    snprintf(path, sizeof path, "%s/results.h5", dir);
    ENSURE(is_hdf5_file(path));
    /* a second file in the same process uses the library already loaded */
    ENSURE(run_pendulum(dir, CLINK_FORMAT_HDF5, err, sizeof err) == CLINK_OK);
    ENSURE(is_hdf5_file(path));
    ENSURE(empty_and_remove(dir) == 2); /* results.h5, summary.json */
}

/* CLINK_HDF5_LIBRARY = lib: an HDF5 run fails naming lib and containing reason, leaves
   nothing, twice (the failure is kept); a CSV run then still runs */
static void unloadable(const char *lib, const char *reason)
{
    char dir[] = "/tmp/clink_test_h5load_XXXXXX", err[2048];

    if (!clink_output_has_hdf5()) {
        printf("this build has no HDF5: nothing to load\n");
        return;
    }
    ENSURE(setenv("CLINK_HDF5_LIBRARY", lib, 1) == 0);
    ENSURE(mkdtemp(dir) != NULL);
    for (int k = 0; k < 2; k++) {
        ENSURE(run_pendulum(dir, CLINK_FORMAT_HDF5, err, sizeof err) == CLINK_ERR_IO);
        printf("refused: %s\n", err);
        ENSURE(strstr(err, "results.h5: cannot create: cannot load the HDF5 library ") != NULL);
        ENSURE(strstr(err, lib) != NULL);
        ENSURE(strstr(err, reason) != NULL);
        ENSURE(empty_and_remove(dir) == 0);
        ENSURE(mkdir(dir, 0700) == 0);
    }
    ENSURE(run_pendulum(dir, CLINK_FORMAT_CSV, err, sizeof err) == CLINK_OK);
    ENSURE(empty_and_remove(dir) == 3);
}

TEST(a_missing_hdf5_library_is_named_with_the_loader_s_reason_and_csv_still_runs)
{
    unloadable("/nonexistent/libhdf5_missing.so.0", "No such file or directory");
    ENSURE(hdf5_mapped() == 0);
}

TEST(a_library_without_hdf5_s_functions_is_refused_naming_the_missing_one)
{
    unloadable("libm.so.6", "undefined symbol: H5open");
}
