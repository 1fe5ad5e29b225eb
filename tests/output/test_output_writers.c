/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Tests of the format table of the run outputs (src/output/output_writer.h,
 * output_writers.c): every row is complete, its files are its own and its name is the
 * public one (clink_output_format_name, clink_output_format_from_name); the recorder looks
 * formats up in the table only (one outside it is refused with the table's names); a run
 * in each format this build can write leaves exactly that row's files and summary.json,
 * and removes the previous run's files of every format first.
 */
#define _XOPEN_SOURCE 700

#include "ensure.h"

#include "clink/output.h"
#include "clink/sim.h"
#include "clink/xml.h"
#include "output/output_writer.h"

#include <dirent.h>
#include <unistd.h>

/* the rows of the table */
static int table_rows(void)
{
    int n = 0;
    while (output_writers[n] != NULL)
        n++;
    return n;
}

/* nonzero when name is a file of another row than k, or twice in row k */
static int file_claimed_elsewhere(int k, int i)
{
    const char *name = output_writers[k]->files[i];
    for (int j = 0; output_writers[j] != NULL; j++)
        for (int m = 0; output_writers[j]->files[m] != NULL; m++)
            if ((j != k || m != i) && strcmp(output_writers[j]->files[m], name) == 0)
                return 1;
    return 0;
}

TEST(every_output_format_has_one_complete_table_row_with_files_of_its_own)
{
    int n = table_rows();

    ENSURE(n >= 2);
    ENSURE(output_writer_find(CLINK_FORMAT_CSV) == &output_csv_writer);
    ENSURE(output_writer_find(CLINK_FORMAT_HDF5) == &output_hdf5_writer);
    ENSURE(output_writer_find((clink_output_format) 77) == NULL);
    ENSURE(clink_output_format_name((clink_output_format) 77) == NULL);
    {
        clink_output_format f = CLINK_FORMAT_HDF5;
        ENSURE(clink_output_format_from_name("xls", &f) == -1 && f == CLINK_FORMAT_HDF5);
        ENSURE(clink_output_format_from_name(NULL, &f) == -1);
    }
    for (int k = 0; k < n; k++) {
        const out_writer_ops *w = output_writers[k];
        int nf = 0;
        clink_output_format f = (clink_output_format) 77;
        ENSURE(output_writer_find(w->format) == w);
        ENSURE(clink_output_format_name(w->format) == w->name);
        ENSURE(clink_output_format_from_name(w->name, &f) == 0 && f == w->format);
        ENSURE(w->name != NULL && w->name[0] != '\0');
        for (int j = 0; j < k; j++)
            ENSURE(strcmp(output_writers[j]->name, w->name) != 0);
        ENSURE(w->available != NULL && w->open != NULL && w->row != NULL);
        ENSURE(w->impact != NULL && w->finish != NULL && w->abort != NULL);
        if (w->available != NULL && !w->available())
            ENSURE(w->unavailable != NULL && w->unavailable[0] != '\0');
        for (; w->files[nf] != NULL; nf++) {
            ENSURE(strcmp(w->files[nf], "summary.json") != 0);
            ENSURE(!file_claimed_elsewhere(k, nf));
        }
        ENSURE(nf >= 1 && nf <= OUTPUT_WRITER_FILES_MAX);
        w->abort(NULL); /* accepted */
    }
    ENSURE(clink_output_has_hdf5() == output_hdf5_writer.available());
}

static int open_pendulum(clink_model **model, clink_sim **sim)
{
    char err[512];
    *model = NULL;
    *sim = NULL;
    if (clink_xml_load(CLINK_SOURCE_DIR "/models/pendulum.xml", model, NULL, err, sizeof err) !=
        CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    if (clink_sim_create(*model, NULL, sim, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        clink_model_destroy(model);
        return -1;
    }
    return 0;
}

TEST(recorder_refuses_a_format_outside_the_table_naming_the_table_s_formats)
{
    clink_output_options opt = clink_default_output_options();
    clink_model *model;
    clink_sim *sim;
    clink_recorder *rec = NULL;
    char dir[] = "/tmp/clink_test_writers_XXXXXX", err[512] = "";

    ENSURE(mkdtemp(dir) != NULL);
    ENSURE(open_pendulum(&model, &sim) == 0);
    if (sim == NULL)
        return;
    opt.format = (clink_output_format) 77;
    ENSURE(clink_recorder_create(model, dir, &opt, &rec, err, sizeof err) == CLINK_ERR_ARG);
    ENSURE(rec == NULL);
    ENSURE(strcmp(err, "output format 77: not csv or hdf5") == 0);
    printf("refused: %s\n", err);
    clink_sim_destroy(&sim);
    clink_model_destroy(&model);
    ENSURE(rmdir(dir) == 0);
}

static void touch(const char *dir, const char *name)
{
    char path[4200];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "w");
    if (f != NULL) {
        fputs("old\n", f);
        fclose(f);
    }
}

/* nonzero when dir holds exactly summary.json and the files of w (each removed) */
static int holds_exactly(const char *dir, const out_writer_ops *w)
{
    char path[4200];
    int expected = 1, found = 0, ok = 1;
    struct dirent *e;
    DIR *d = opendir(dir);

    if (d == NULL)
        return 0;
    while ((e = readdir(d)) != NULL) {
        int mine = strcmp(e->d_name, "summary.json") == 0;
        if (e->d_name[0] == '.')
            continue;
        for (int i = 0; w->files[i] != NULL; i++)
            mine |= strcmp(e->d_name, w->files[i]) == 0;
        if (!mine)
            fprintf(stderr, "%s: unexpected file %s\n", w->name, e->d_name);
        ok &= mine;
        found++;
    }
    closedir(d);
    for (int i = 0; w->files[i] != NULL; i++) /* a table of sections only with sections */
        expected += !(w->sections_file && strcmp(w->files[i], w->sections_file) == 0);
    for (int i = 0; w->files[i] != NULL; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, w->files[i]);
        remove(path);
    }
    snprintf(path, sizeof path, "%s/summary.json", dir);
    remove(path);
    return ok && found == expected;
}

/* the pendulum over 0.01 s in w's format into dir, over every format's old files */
static void run_in_format(const char *dir, const out_writer_ops *w)
{
    clink_output_options opt = clink_default_output_options();
    clink_run_info info;
    clink_model *model;
    clink_sim *sim;
    clink_recorder *rec = NULL;
    char err[512] = "";

    ENSURE(open_pendulum(&model, &sim) == 0);
    if (sim == NULL)
        return;
    for (int k = 0; output_writers[k] != NULL; k++)
        for (int i = 0; output_writers[k]->files[i] != NULL; i++)
            touch(dir, output_writers[k]->files[i]);
    touch(dir, "summary.json");
    opt.format = w->format;
    ENSURE(clink_recorder_create(model, dir, &opt, &rec, err, sizeof err) == CLINK_OK);
    ENSURE(clink_recorder_sample(rec, sim) == CLINK_OK);
    ENSURE(clink_recorder_advance(rec, sim, 0.01) == CLINK_OK);
    memset(&info, 0, sizeof info);
    info.model_name = "pendulum";
    info.t_end = 0.01;
    info.wall_time = -1;
    ENSURE(clink_recorder_finish(rec, sim, &info) == CLINK_OK);
    clink_recorder_destroy(&rec);
    ENSURE(holds_exactly(dir, w));
    clink_sim_destroy(&sim);
    clink_model_destroy(&model);
}

TEST(a_run_in_each_format_leaves_exactly_its_row_s_files_and_summary_json)
{
    char dir[] = "/tmp/clink_test_writers_XXXXXX";
    int runs = 0;

    ENSURE(mkdtemp(dir) != NULL);
    for (int k = 0; output_writers[k] != NULL; k++) {
        if (!output_writers[k]->available())
            continue;
        run_in_format(dir, output_writers[k]);
        runs++;
    }
    ENSURE(runs >= 1);
    ENSURE(rmdir(dir) == 0);
}
