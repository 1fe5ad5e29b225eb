/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Tests of src/output/output_beam.c: the beam elements' columns (kappa, eps, gamma, M, N, Q at
 * each element's middle). At rest, a cantilever's moments and forces are the statics of the
 * loads beyond each element (the tip load and the lumped weights), and its curvature is the
 * elastic line's; in motion, they are the loads minus the nodes' inertia beyond the element
 * (d'Alembert), the Kelvin-Voigt part included; and recording them never changes the run.
 */
#define _XOPEN_SOURCE 700

#include "ensure.h"
#include "test_table.h"

#include "clink/analysis.h"
#include "clink/model.h"
#include "clink/output.h"
#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the value of column "ENTITY.QUANTITY [UNIT]" in row r (NaN when there is no such column) */
static double cell(const table *t, int r, const char *entity, int index, const char *quantity,
                   const char *unit)
{
    char name[128];
    snprintf(name, sizeof name, "%s.%d.%s [%s]", entity, index, quantity, unit);
    int c = table_col(t, name);
    return c < 0 ? NAN : t->v[(size_t) r * (size_t) t->ncols + (size_t) c];
}

static double beam_cell(const table *t, int r, int element, const char *quantity, const char *unit)
{
    char name[128];
    snprintf(name, sizeof name, "beam.e%d.%s [%s]", element, quantity, unit);
    int c = table_col(t, name);
    return c < 0 ? NAN : t->v[(size_t) r * (size_t) t->ncols + (size_t) c];
}

static void remove_run(const char *dir)
{
    static const char *const files[] = {"timeseries.csv", "impacts.csv", "summary.json"};
    char path[512];
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        remove(path);
    }
    rmdir(dir);
}

/* the stubby steel cantilever of val_beam_static.c (L = 1 m, 10 x 100 mm, 8 elements) named
   "beam", welded to the ground at beam.0, under its weight and a tip load of P downwards */
enum { NEL = 8 };
static const double L = 1.0, B = 0.01, H = 0.1, E = 2.07e11, NU = 0.3, RHO = 7800.0, G = 9.81,
                    P = 100.0;

static clink_model *stubby_cantilever(void)
{
    clink_model_builder *b = clink_model_builder_create();
    clink_beam_def d = clink_default_beam_def();
    d.name = "beam";
    d.to[0] = L;
    d.elements = NEL;
    d.area = B * H;
    d.second_moment = B * H * H * H / 12.0;
    d.E = E;
    d.G = E / (2.0 * (1.0 + NU));
    d.density = RHO;
    int first = -1;
    clink_status st = clink_model_builder_set_gravity(b, 0.0, -G);
    if (st == CLINK_OK)
        st = clink_model_builder_add_beam(b, &d, &first);
    clink_joint_def j = clink_default_joint_def();
    j.type = CLINK_JOINT_WELD;
    j.body_a = 0;
    j.body_b = first;
    if (st == CLINK_OK)
        st = clink_model_builder_add_joint(b, &j, NULL);
    clink_force_def f = clink_default_force_def();
    f.type = CLINK_FORCE_POINT;
    f.body_a = first + NEL;
    f.fy = -P;
    if (st == CLINK_OK)
        st = clink_model_builder_add_force(b, &f, NULL);
    clink_model *m = NULL;
    if (st == CLINK_OK)
        st = clink_model_builder_finalize(b, &m);
    if (st != CLINK_OK)
        printf("cantilever: %s\n", clink_model_builder_error(b));
    clink_model_builder_destroy(&b);
    return m;
}

/* one row of sim's state recorded into dir (CSV), read back into t */
static int record_one_row(const clink_model *m, clink_sim *sim, const char *dir, table *t)
{
    clink_recorder *rec = NULL;
    clink_run_info info;
    char err[512];
    memset(&info, 0, sizeof info);
    info.model_name = "cantilever";
    info.wall_time = -1;
    if (clink_recorder_create(m, dir, NULL, &rec, err, sizeof err) != CLINK_OK) {
        printf("%s\n", err);
        return -1;
    }
    int rc = clink_recorder_sample(rec, sim) == CLINK_OK &&
                     clink_recorder_finish(rec, sim, &info) == CLINK_OK
                 ? 0
                 : -1;
    clink_recorder_destroy(&rec);
    return rc == 0 ? table_read(dir, "timeseries.csv", -1, 0, t) : -1;
}

/*
 * At rest the nodes beyond element i are in equilibrium under the loads on them and the
 * element's section forces: with r_m the element's middle (deformed) and t, n its section's
 * directions, N t + Q n = sum of the loads F_j beyond, and M = sum (r_j - r_m) x F_j. For the
 * straight beam that is M(x) = -(P (L - x) + q (L - x)^2 / 2 + q l^2 / 8), q = rho A g the
 * weight per length, x the middle (the last term: the weight lumped at the nodes), and the
 * Euler-Bernoulli elastic line's curvature w'' = M / EI.
 */
TEST(beam_columns_at_rest_are_the_cantilevers_statics_and_its_elastic_lines_curvature)
{
    char dir[] = "/tmp/clink_test_beam_XXXXXX", err[512];
    clink_model *m = stubby_cantilever();
    clink_analysis *a = NULL;
    clink_sim *sim = NULL;
    ENSURE(m != NULL && mkdtemp(dir) != NULL);
    ENSURE(clink_analysis_create(m, NULL, &a, err, sizeof err) == CLINK_OK);
    clink_equilibrium_options o = clink_default_equilibrium_options();
    o.tolerance = 1e-7 * P; /* above the rounding of the axial forces (val_beam_static.c) */
    clink_equilibrium_result res;
    ENSURE(clink_analysis_equilibrium(a, &o, &res) == CLINK_OK);
    int nq = clink_analysis_coordinate_count(a);
    double *y = calloc(2 * (size_t) (nq > 0 ? nq : 1), sizeof *y);
    ENSURE(clink_analysis_state(a, y, NULL) == CLINK_OK);
    ENSURE(clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_OK);
    ENSURE(clink_sim_state_set(sim, y, 2 * nq) == CLINK_OK);
    table t;
    memset(&t, 0, sizeof t);
    ENSURE(record_one_row(m, sim, dir, &t) == 0 && t.nrows == 1);
    if (ensure_failures > 0 || t.nrows != 1)
        goto out;

    double A = B * H, I = B * H * H * H / 12.0, EI = E * I, l = L / NEL, q = RHO * A * G;
    double kGA = 5.0 / 6.0 * E / (2.0 * (1.0 + NU)) * A;
    double worst_s = 0, worst_f = 0, worst_c = 0, worst_k = 0, worst_w = 0;
    for (int i = 0; i < NEL; i++) {
        double xa = cell(&t, 0, "beam", i, "x", "m"), ya = cell(&t, 0, "beam", i, "y", "m");
        double xb = cell(&t, 0, "beam", i + 1, "x", "m"), yb = cell(&t, 0, "beam", i + 1, "y", "m");
        double tm =
            0.5 * (cell(&t, 0, "beam", i, "phi", "rad") + cell(&t, 0, "beam", i + 1, "phi", "rad"));
        double rm[2] = {0.5 * (xa + xb), 0.5 * (ya + yb)};
        /* the loads beyond the element, and their moment about its middle */
        double F[2] = {0.0, 0.0}, Mref = 0.0;
        for (int j = i + 1; j <= NEL; j++) {
            double fy = -q * l * (j == NEL ? 0.5 : 1.0) - (j == NEL ? P : 0.0);
            double dx = cell(&t, 0, "beam", j, "x", "m") - rm[0];
            F[1] += fy;
            Mref += dx * fy;
        }
        double M = beam_cell(&t, 0, i, "M", "N m"), N = beam_cell(&t, 0, i, "N", "N");
        double Q = beam_cell(&t, 0, i, "Q", "N"), kappa = beam_cell(&t, 0, i, "kappa", "1/m");
        double c = cos(tm), s = sin(tm);
        worst_s = fmax(worst_s, fabs(M - Mref));
        worst_f = fmax(worst_f, hypot(N * c - Q * s - F[0], N * s + Q * c - F[1]));
        double x = (i + 0.5) * l;
        double Mcf = -(P * (L - x) + 0.5 * q * (L - x) * (L - x) + q * l * l / 8.0);
        worst_c = fmax(worst_c, fabs(M - Mcf));
        worst_k = fmax(worst_k, fabs(kappa - Mcf / EI));
        /* the elastic line from the nodes' positions: its second difference at node i */
        if (i > 0) {
            double w0 = cell(&t, 0, "beam", i - 1, "y", "m"), w2 = yb;
            double wpp = (w0 - 2.0 * ya + w2) / (l * l);
            double kmean = 0.5 * (kappa + beam_cell(&t, 0, i - 1, "kappa", "1/m"));
            worst_w = fmax(worst_w, fabs(wpp - kmean));
        }
        ENSURE(fabs(M - EI * kappa) <= 1e-12 * fabs(M)); /* at rest: no Kelvin-Voigt part */
    }
    double Mroot = P * L + 0.5 * q * L * L;
    printf("root moment %.6g N m; M against the statics of the nodes %.3g N m, against the "
           "closed form %.3g N m; N t + Q n against the loads %.3g N; kappa against the elastic "
           "line %.3g 1/m (of %.3g), nodes' second difference %.3g 1/m\n",
           Mroot, worst_s, worst_c, worst_f, worst_k, Mroot / EI, worst_w);
    /* the equilibrium's residual (1e-5 N) over the arms (1 m) of the nodes beyond */
    ENSURE(worst_s <= 1e-4);
    ENSURE(worst_f <= 1e-4);
    /* the closed form on the undeformed arms: the tip's rotation (4e-4 rad) shortens the arms
       by L theta^2 / 2 (1e-7 m) under 176 N of load */
    ENSURE(worst_c <= 1e-4);
    ENSURE(worst_k <= 1e-4 / EI);
    /* the line's second difference is the curvature plus the jump of the shear strain at
       the node, the node's weight over k G A (q / kGA per length) */
    ENSURE(worst_w <= 1.01 * q / kGA + 1e-6 * Mroot / EI);
out:
    table_free(&t);
    remove_run(dir);
    free(y);
    clink_sim_destroy(&sim);
    clink_analysis_destroy(&a);
    clink_model_destroy(&m);
}

/* models/cantilever_beam.xml run as `clink run` runs it (grid rows k step, then t_end) to t_end
   with the output step into dir; 0 or -1 */
static int run_cantilever(double t_end, double step, const char *dir)
{
    char path[512], err[1024];
    clink_model *model = NULL;
    clink_sim *sim = NULL;
    clink_recorder *rec = NULL;
    clink_output_options opt = clink_default_output_options();
    clink_run_info info;
    snprintf(path, sizeof path, "%s/models/cantilever_beam.xml", CLINK_SOURCE_DIR);
    if (clink_xml_load(path, &model, NULL, err, sizeof err) != CLINK_OK) {
        printf("%s\n", err);
        return -1;
    }
    clink_settings_def set = clink_model_settings(model);
    set.t_end = t_end;
    set.output_step = step;
    opt.rows = CLINK_ROWS_GRID;
    clink_status st = clink_sim_create(model, &set, &sim, err, sizeof err);
    if (st == CLINK_OK)
        st = clink_recorder_create(model, dir, &opt, &rec, err, sizeof err);
    if (st == CLINK_OK)
        st = clink_recorder_sample(rec, sim);
    long n = lround(t_end / step);
    for (long k = 1; k <= n && st == CLINK_OK; k++)
        st = clink_recorder_advance(rec, sim, k < n ? (double) k * step : t_end);
    memset(&info, 0, sizeof info);
    info.model_name = "cantilever_beam";
    info.t_end = t_end;
    info.wall_time = -1;
    if (st == CLINK_OK)
        st = clink_recorder_finish(rec, sim, &info);
    if (st != CLINK_OK)
        printf("run: %s %s\n", err, sim ? clink_sim_error(sim) : "");
    clink_recorder_destroy(&rec);
    clink_sim_destroy(&sim);
    clink_model_destroy(&model);
    return st == CLINK_OK ? 0 : -1;
}

/* the nodes' masses and rotary inertias of models/cantilever_beam.xml, its gravity */
static int cantilever_masses(int nodes, double *mass, double *inertia, double *gy)
{
    char path[512], err[1024], name[64];
    clink_model *m = NULL;
    snprintf(path, sizeof path, "%s/models/cantilever_beam.xml", CLINK_SOURCE_DIR);
    if (clink_xml_load(path, &m, NULL, err, sizeof err) != CLINK_OK)
        return -1;
    int rc = 0;
    for (int j = 0; j < nodes && rc == 0; j++) {
        clink_body_def d;
        snprintf(name, sizeof name, "cantilever.%d", j);
        int id = clink_model_find(m, CLINK_ENTITY_BODY, name);
        rc = id > 0 && clink_model_body(m, id, &d) == CLINK_OK ? 0 : -1;
        mass[j] = d.mass;
        inertia[j] = d.inertia;
    }
    clink_model_gravity(m, NULL, gy);
    clink_model_destroy(&m);
    return rc;
}

/*
 * In motion (the cantilever of models/cantilever_beam.xml in the first 10 ms after its tip
 * load of 20 N is applied), the nodes beyond element i move under their loads F_j (weight,
 * tip load) and the element's section forces alone, so at every row, from the columns of the
 * nodes (positions, accelerations) and the model's lumped masses m_j and inertias J_j:
 *   N t + Q n = sum (F_j - m_j a_j),  M = sum ((r_j - r_m) x (F_j - m_j a_j) - J_j alpha_j)
 * (d'Alembert), the section forces with their Kelvin-Voigt part (tau = 2e-4 s), which this
 * transient makes large.
 */
TEST(beam_columns_in_motion_balance_the_loads_and_the_inertia_beyond_each_element)
{
    enum { NODES = 9 };
    char dir[] = "/tmp/clink_test_beam_XXXXXX";
    double mass[NODES], inertia[NODES], gy = 0;
    table t;
    memset(&t, 0, sizeof t);
    ENSURE(mkdtemp(dir) != NULL);
    ENSURE(cantilever_masses(NODES, mass, inertia, &gy) == 0);
    ENSURE(run_cantilever(0.01, 2.5e-4, dir) == 0 &&
           table_read(dir, "timeseries.csv", -1, 0, &t) == 0);
    if (ensure_failures > 0 || t.nrows < 2)
        return;
    double worst_m = 0, worst_f = 0, scale_m = 0, scale_f = 0, damping = 0;
    for (int r = 0; r < t.nrows; r++)
        for (int i = 0; i < NODES - 1; i++) {
            double xa = cell(&t, r, "cantilever", i, "x", "m");
            double ya = cell(&t, r, "cantilever", i, "y", "m");
            double xb = cell(&t, r, "cantilever", i + 1, "x", "m");
            double yb = cell(&t, r, "cantilever", i + 1, "y", "m");
            double tm = 0.5 * (cell(&t, r, "cantilever", i, "phi", "rad") +
                               cell(&t, r, "cantilever", i + 1, "phi", "rad"));
            double rm[2] = {0.5 * (xa + xb), 0.5 * (ya + yb)}, F[2] = {0, 0}, Mref = 0, mag = 0;
            for (int j = i + 1; j < NODES; j++) {
                double fx = -mass[j] * cell(&t, r, "cantilever", j, "ax", "m/s^2");
                double fy = mass[j] * gy - (j == NODES - 1 ? 20.0 : 0.0) -
                            mass[j] * cell(&t, r, "cantilever", j, "ay", "m/s^2");
                double dx = cell(&t, r, "cantilever", j, "x", "m") - rm[0];
                double dy = cell(&t, r, "cantilever", j, "y", "m") - rm[1];
                double ja = inertia[j] * cell(&t, r, "cantilever", j, "alpha", "rad/s^2");
                F[0] += fx;
                F[1] += fy;
                Mref += dx * fy - dy * fx - ja;
                mag += fabs(dx * fy) + fabs(dy * fx) + fabs(ja);
                scale_f = fmax(scale_f, fabs(fx) + fabs(fy));
            }
            char name[64];
            snprintf(name, sizeof name, "cantilever.e%d.M [N m]", i);
            int c = table_col(&t, name);
            ENSURE(c >= 0);
            if (c < 0)
                return;
            const double *row = t.v + (size_t) r * (size_t) t.ncols;
            double kappa = row[c - 3], M = row[c], N = row[c + 1], Q = row[c + 2];
            double cs = cos(tm), sn = sin(tm);
            worst_m = fmax(worst_m, fabs(M - Mref));
            worst_f = fmax(worst_f, hypot(N * cs - Q * sn - F[0], N * sn + Q * cs - F[1]));
            scale_m = fmax(scale_m, mag);
            /* the Kelvin-Voigt part of M: 207e9 * 8.33e-10 = 172.5 N m^2 */
            damping = fmax(damping, fabs(M - 172.5 * kappa));
        }
    printf("%d rows x 8 elements: M against d'Alembert %.3g N m (terms up to %.3g N m), "
           "N t + Q n %.3g N (terms up to %.3g N); the Kelvin-Voigt part of M up to %.3g N m\n",
           t.nrows, worst_m, scale_m, worst_f, scale_f, damping);
    /* the accelerations solve the nodes' equations to rounding: 1e-12 of the largest terms */
    ENSURE(worst_m <= 1e-12 * scale_m);
    ENSURE(worst_f <= 1e-12 * scale_f);
    /* the damping part is far above what the check resolves: it is checked too */
    ENSURE(damping > 1e3 * worst_m);
    table_free(&t);
    remove_run(dir);
}

/*
 * Observing never changes the answer: the cantilever run with its beam columns at output steps
 * of 1 ms and 0.25 ms gives the same rows, every column (beam ones included) bit for bit, at
 * the times both have; and its nodes' states at the end are those of the same simulation
 * advanced without a recorder, bit for bit.
 */
TEST(beam_columns_never_change_the_run)
{
    char da[] = "/tmp/clink_test_beam_XXXXXX", db[] = "/tmp/clink_test_beam_XXXXXX";
    char path[512], err[1024], name[64];
    table a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    ENSURE(mkdtemp(da) != NULL && mkdtemp(db) != NULL);
    ENSURE(run_cantilever(0.01, 1e-3, da) == 0 && table_read(da, "timeseries.csv", -1, 0, &a) == 0);
    ENSURE(run_cantilever(0.01, 2.5e-4, db) == 0 &&
           table_read(db, "timeseries.csv", -1, 0, &b) == 0);
    ENSURE(a.nrows == 11 && b.nrows == 41 && a.ncols == b.ncols);
    ENSURE(table_col(&a, "cantilever.e7.Q [N]") > 0);
    if (ensure_failures > 0)
        return;
    int same = 0;
    for (int r = 0; r < a.nrows; r++)
        same += strcmp(a.lines[r], b.lines[4 * r]) == 0;
    printf("%d of %d rows of the 1 ms run are those of the 0.25 ms run (%d columns)\n", same,
           a.nrows, a.ncols);
    ENSURE(same == a.nrows);

    /* the same simulation without a recorder */
    clink_model *m = NULL;
    clink_sim *sim = NULL;
    snprintf(path, sizeof path, "%s/models/cantilever_beam.xml", CLINK_SOURCE_DIR);
    ENSURE(clink_xml_load(path, &m, NULL, err, sizeof err) == CLINK_OK);
    clink_settings_def set = clink_model_settings(m);
    set.t_end = 0.01;
    set.output_step = 1e-3;
    ENSURE(clink_sim_create(m, &set, &sim, err, sizeof err) == CLINK_OK);
    ENSURE(clink_sim_advance(sim, 0.01) == CLINK_OK);
    int differ = 0;
    for (int j = 0; j < 9; j++) {
        double q[3], v[3];
        snprintf(name, sizeof name, "cantilever.%d", j);
        ENSURE(clink_sim_body_state(sim, clink_model_find(m, CLINK_ENTITY_BODY, name), q, v) ==
               CLINK_OK);
        static const char *const qn[3] = {"x", "y", "phi"}, *const qu[3] = {"m", "m", "rad"};
        for (int k = 0; k < 3; k++)
            differ += q[k] != cell(&a, a.nrows - 1, "cantilever", j, qn[k], qu[k]);
    }
    printf("nodes' positions at 10 ms without a recorder: %d of 27 differ\n", differ);
    ENSURE(differ == 0);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
    table_free(&a);
    table_free(&b);
    remove_run(da);
    remove_run(db);
}
