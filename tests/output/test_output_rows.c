/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Tests of the rows of the time series (include/clink/output.h, docs/outputs.md):
 * the event-dense default draws every impact with its peak force (the largest
 * sampled Fn through each impact against the impact log's F_max), the rows
 * between grid times never steer the integrator (the grid rows and the step count
 * are those of the grid alone, bit for bit), and each impact has its onset, end of
 * compression and separation rows at the event times.
 */
#define _XOPEN_SOURCE 700

#include "ensure.h"
#include "test_table.h"

#include "clink/output.h"
#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* runs models/NAME.xml as `clink run` does (grid k H, then t_end) with the given rows into
   dir; t_end > 0 overrides the model's; the steps taken in *steps */
static int run_model(const char *name, clink_output_rows rows, double t_end, const char *dir,
                     long *steps)
{
    char path[512], err[1024];
    clink_model *model = NULL;
    clink_sim *sim = NULL;
    clink_recorder *rec = NULL;
    clink_output_options opt = clink_default_output_options();
    clink_settings_def set;
    clink_sim_stats stats;
    clink_run_info info;
    clink_status st;
    long n, k;

    snprintf(path, sizeof path, "%s/models/%s.xml", CLINK_SOURCE_DIR, name);
    if (clink_xml_load(path, &model, NULL, err, sizeof err) != CLINK_OK) {
        printf("%s\n", err);
        return -1;
    }
    set = clink_model_settings(model);
    if (t_end > 0)
        set.t_end = t_end;
    opt.rows = rows;
    if (clink_sim_create(model, &set, &sim, err, sizeof err) != CLINK_OK ||
        clink_recorder_create(model, dir, &opt, &rec, err, sizeof err) != CLINK_OK) {
        printf("%s\n", err);
        clink_sim_destroy(&sim);
        clink_model_destroy(&model);
        return -1;
    }
    st = clink_recorder_sample(rec, sim);
    n = (long) floor(set.t_end / set.output_step * (1.0 + 1e-12));
    for (k = 1; k <= n + 1 && st == CLINK_OK; k++) {
        double t = k <= n ? (double) k * set.output_step : set.t_end;
        if (t > set.t_end)
            t = set.t_end;
        if (t > clink_sim_time(sim))
            st = clink_recorder_advance(rec, sim, t);
    }
    if (st != CLINK_OK)
        printf("%s: %s%s\n", name, clink_sim_error(sim), clink_recorder_error(rec));
    memset(&info, 0, sizeof info);
    info.model_name = name;
    info.t_end = set.t_end;
    info.wall_time = -1;
    if (st == CLINK_OK)
        st = clink_recorder_finish(rec, sim, &info);
    clink_sim_stats_get(sim, &stats);
    *steps = stats.steps;
    clink_recorder_destroy(&rec);
    clink_sim_destroy(&sim);
    clink_model_destroy(&model);
    return st == CLINK_OK ? 0 : -1;
}

static void remove_run(const char *dir)
{
    static const char *const files[] = {"timeseries.csv", "impacts.csv", "summary.json",
                                        "results.h5"};
    char path[512];
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        remove(path);
    }
    rmdir(dir);
}

/* the largest relative gap between each impact's F_max and the largest Fn of the rows
   through it (only grid rows when grid_only); the number of impacts in *count */
static double worst_peak_gap(const char *dir, int grid_only, int *count)
{
    table ts, imp;
    double worst = 0.0;
    ENSURE(table_read(dir, "timeseries.csv", -1, 1, &ts) == 0);
    ENSURE(table_read(dir, "impacts.csv", 1, 1, &imp) == 0);
    int kind = table_col(&ts, "row.kind [-]");
    ENSURE(kind == ts.ncols - 1);
    *count = imp.nrows;
    FILE *f = NULL;
    char path[512], *line = NULL;
    size_t cap = 0;
    snprintf(path, sizeof path, "%s/impacts.csv", dir);
    f = fopen(path, "r");
    ENSURE(f != NULL && getline(&line, &cap, f) > 0);
    for (int i = 0; i < imp.nrows && f != NULL; i++) {
        char col[200], *pair;
        ENSURE(getline(&line, &cap, f) > 0);
        pair = strchr(line, ',') + 1;
        pair[strcspn(pair, ",")] = '\0';
        snprintf(col, sizeof col, "%s.Fn [N]", pair);
        int c = table_col(&ts, col);
        ENSURE(c > 0);
        double t0 = table_at(&imp, i, 0), dur = table_at(&imp, i, 7), fmax = table_at(&imp, i, 6);
        double peak = 0.0;
        for (int r = 0; r < ts.nrows && c > 0; r++) {
            double t = table_at(&ts, r, 0);
            if (t >= t0 && t <= t0 + dur && (!grid_only || table_at(&ts, r, kind) == 0) &&
                table_at(&ts, r, c) > peak)
                peak = table_at(&ts, r, c);
        }
        double gap = fabs(peak - fmax) / fmax;
        if (gap > worst)
            worst = gap;
    }
    free(line);
    if (f != NULL)
        fclose(f);
    table_free(&ts);
    table_free(&imp);
    return worst;
}

TEST(every_impact_of_the_double_pendulum_and_the_slider_crank_is_drawn_with_its_peak_force)
{
    static const char *const models[] = {"double_pendulum_impact", "slider_crank_clearance"};
    for (int m = 0; m < 2; m++) {
        char dir[] = "/tmp/clink_test_rows_XXXXXX";
        long steps = 0;
        int n = 0;
        ENSURE(mkdtemp(dir) != NULL);
        ENSURE(run_model(models[m], CLINK_ROWS_EVENTS, 0, dir, &steps) == 0);
        double worst = worst_peak_gap(dir, 0, &n);
        double grid = worst_peak_gap(dir, 1, &n);
        printf("%s: %d impacts; largest gap between F_max and the sampled peak %.3g (the grid "
               "rows alone: %.3g)\n",
               models[m], n, worst, grid);
        ENSURE(n >= 3);
        ENSURE(worst <= 0.01);
        /* the check can fail: the grid alone misses peaks (the zero force) */
        ENSURE(grid > 0.05);
        remove_run(dir);
    }
}

TEST(rows_between_grid_times_do_not_steer_the_integrator)
{
    char dg[] = "/tmp/clink_test_rows_XXXXXX", de[] = "/tmp/clink_test_rows_XXXXXX",
         ds[] = "/tmp/clink_test_rows_XXXXXX";
    long steps_g = 0, steps_e = 1, steps_s = 2;
    table g, e, s;
    ENSURE(mkdtemp(dg) != NULL && mkdtemp(de) != NULL && mkdtemp(ds) != NULL);
    ENSURE(run_model("double_pendulum_impact", CLINK_ROWS_GRID, 1.5, dg, &steps_g) == 0);
    ENSURE(run_model("double_pendulum_impact", CLINK_ROWS_EVENTS, 1.5, de, &steps_e) == 0);
    ENSURE(run_model("double_pendulum_impact", CLINK_ROWS_STEPS, 1.5, ds, &steps_s) == 0);
    ENSURE(steps_g == steps_e && steps_g == steps_s);
    ENSURE(table_read(dg, "timeseries.csv", -1, 1, &g) == 0);
    ENSURE(table_read(de, "timeseries.csv", -1, 1, &e) == 0);
    ENSURE(table_read(ds, "timeseries.csv", -1, 1, &s) == 0);
    int kind = g.ncols - 1, same = 0, grid_e = 0, grid_s = 0;
    for (int r = 0, i = 0, j = 0; r < g.nrows; r++) {
        while (i < e.nrows && table_at(&e, i, kind) != 0)
            i++;
        while (j < s.nrows && table_at(&s, j, kind) != 0)
            j++;
        if (i < e.nrows && j < s.nrows && strcmp(g.lines[r], e.lines[i]) == 0 &&
            strcmp(g.lines[r], s.lines[j]) == 0)
            same++;
        grid_e += i < e.nrows;
        grid_s += j < s.nrows;
        i++;
        j++;
    }
    printf("%ld steps in each mode; rows: grid %d, events %d, steps %d; %d grid rows identical\n",
           steps_g, g.nrows, e.nrows, s.nrows, same);
    ENSURE(same == g.nrows && g.nrows == 1501);
    ENSURE(e.nrows > g.nrows && s.nrows > e.nrows);
    ENSURE(s.nrows - g.nrows >= steps_s - 1501); /* a row at every step (some on the grid) */
    table_free(&g);
    table_free(&e);
    table_free(&s);
    remove_run(dg);
    remove_run(de);
    remove_run(ds);
}

TEST(each_impact_has_onset_end_of_compression_and_separation_rows_at_its_events)
{
    char dir[] = "/tmp/clink_test_rows_XXXXXX";
    long steps = 0;
    table ts, imp;
    ENSURE(mkdtemp(dir) != NULL);
    ENSURE(run_model("double_pendulum_impact", CLINK_ROWS_EVENTS, 0, dir, &steps) == 0);
    ENSURE(table_read(dir, "timeseries.csv", -1, 1, &ts) == 0);
    ENSURE(table_read(dir, "impacts.csv", 1, 1, &imp) == 0);
    int kind = ts.ncols - 1, fn = table_col(&ts, "tip.Fn [N]"),
        dl = table_col(&ts, "tip.delta [m]");
    ENSURE(fn > 0 && dl > 0 && imp.nrows == 3);
    for (int i = 0; i < imp.nrows; i++) {
        double t0 = table_at(&imp, i, 0), t1 = t0 + table_at(&imp, i, 7);
        int onset = 0, peak = 0, sep = 0;
        for (int r = 0; r < ts.nrows; r++) {
            double t = table_at(&ts, r, 0), k = table_at(&ts, r, kind);
            if (k == CLINK_ROW_ONSET && t == t0)
                onset++;
            if (k == CLINK_ROW_PEAK && t > t0 && t < t1) {
                peak++;
                /* the end of compression: the largest penetration of the impact */
                ENSURE_REL(table_at(&ts, r, dl), table_at(&imp, i, 5), 1e-9);
            }
            if (k == CLINK_ROW_SEPARATION && fabs(t - t1) <= 1e-12 * t1)
                sep++;
        }
        ENSURE(onset == 1 && peak == 1 && sep == 1);
    }
    table_free(&ts);
    table_free(&imp);
    remove_run(dir);
}
