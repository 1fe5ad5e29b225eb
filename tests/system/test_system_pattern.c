/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The pattern of the BDF Newton Jacobian (src/system/system_pattern.c):
 *   - it holds every nonzero entry of the analytic Jacobian d qdd / d(q, v) (dyn_jacobian,
 *     dense) at a state off the constraints, for the shipped BDF models, mechanisms with
 *     joints (one component of the joint graph: dense over its bodies) and a chain of
 *     overlapping discs (every Hertz contact active);
 *   - for the chain of free discs it is sized by what couples: a disc's columns hold the
 *     rows of itself and its two neighbours, 3 x 3 x 3 per disc at most, not the N^2 of the
 *     dense columns;
 *   - a user force (which may couple anything) makes it dense and changes its version, and
 *     the simulation still runs with BDF after the switch.
 */
#include "ensure.h"

#include "clink/sim.h"
#include "clink/xml.h"
#include "sim/sim_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* a chain of n discs 4.9 mm apart (radius 2.5 mm: 0.1 mm overlap), no gravity, BDF */
static clink_model *disc_chain(int n)
{
    size_t cap = 4096 + (size_t) n * 400, len = 0;
    char *x = malloc(cap);
    if (!x)
        return NULL;
    len += (size_t) snprintf(
        x + len, cap - len,
        "<mechanism name=\"chain\"><settings t_end=\"1e-6\" output_step=\"1e-6\" method=\"bdf\"/>"
        "<gravity g=\"0 0\"/><materials><material name=\"steel\" E=\"200e9\" nu=\"0.3\" "
        "density=\"7800\"/></materials><bodies><ground material=\"steel\"/>");
    for (int i = 0; i < n; i++)
        len += (size_t) snprintf(x + len, cap - len,
                                 "<body name=\"b%d\" mass=\"0.001\" inertia=\"1e-9\" x=\"%.4f\" "
                                 "y=\"%.5f\" vx=\"%d\" material=\"steel\"/>",
                                 i, i * 0.0049, 1e-5 * (i % 3), i == 0);
    len += (size_t) snprintf(x + len, cap - len, "</bodies><contacts>");
    for (int i = 1; i < n; i++)
        len += (size_t) snprintf(x + len, cap - len,
                                 "<pair name=\"c%d\"><circle body=\"b%d\" radius=\"0.0025\"/>"
                                 "<circle body=\"b%d\" radius=\"0.0025\"/><law name=\"hertz\"/>"
                                 "</pair>",
                                 i, i - 1, i);
    len += (size_t) snprintf(x + len, cap - len, "</contacts></mechanism>");
    clink_model *m = NULL;
    char err[512];
    if (clink_xml_load_memory(x, len, "chain.xml", &m, NULL, err, sizeof err) != CLINK_OK)
        printf("disc chain: %s\n", err);
    free(x);
    return m;
}

/* the simulation of m with method BDF (projection) */
static clink_sim *bdf_sim(const clink_model *m)
{
    clink_settings_def set = clink_model_settings(m);
    set.method = CLINK_METHOD_BDF;
    set.drift = CLINK_DRIFT_PROJECTION;
    clink_sim *sim = NULL;
    char err[512];
    if (clink_sim_create(m, &set, &sim, err, sizeof err) != CLINK_OK)
        printf("create: %s\n", err);
    return sim;
}

/* nonzero entries of the analytic Jacobian outside the pattern (off the constraints by
   1e-6 in positions, 1e-4 in rates); -1 if it cannot be evaluated */
static long entries_outside(clink_sim *sim)
{
    mechsys *s = sim->sys;
    int nf = s->nq, nr = s->nr;
    const int *rows = NULL;
    long version = 0;
    const long *ptr = system_jacobian_pattern(s, &rows, &version);
    double *w = malloc((2 * (size_t) nf * (size_t) nf + 2 * (size_t) nf) * sizeof(double));
    if (!ptr || !w) {
        free(w);
        return -1;
    }
    double *jq = w, *jv = w + (size_t) nf * nf, *q = jv + (size_t) nf * nf, *v = q + nf;
    for (int i = 0; i < nf; i++) {
        q[i] = sim->out.y[i] + 1e-6 * sin(1.0 + i);
        v[i] = sim->out.y[nf + i] + 1e-4 * cos(2.0 + i);
    }
    long out = 0;
    if (dyn_jacobian(s->dyn, 1e-4, q, v, jq, jv) != CLINK_OK)
        out = -1;
    for (int j = 0; j < nr && out >= 0; j++) {
        int c = s->red[j];
        for (int i = 0; i < nr; i++) {
            double a = jq[(size_t) c * nf + s->red[i]], b = jv[(size_t) c * nf + s->red[i]];
            if ((a != 0.0 || b != 0.0) && system_pattern_find(s, j, i) < 0)
                out++;
        }
    }
    free(w);
    return out;
}

TEST(the_jacobian_pattern_holds_every_nonzero_of_the_analytic_jacobian)
{
    static const char *files[] = {"ball_drop",
                                  "box_drop",
                                  "double_pendulum_impact",
                                  "n_four_bar",
                                  "slider_crank_clearance_wang_liu",
                                  "four_bar",
                                  "slider_crank_clearance",
                                  "granular_chain",
                                  "slider_crank_translational_clearance"};
    for (size_t k = 0; k < sizeof files / sizeof *files; k++) {
        char path[512], err[512];
        snprintf(path, sizeof path, "%s/models/%s.xml", CLINK_SOURCE_DIR, files[k]);
        clink_model *m = clink_model_load_xml(path, err, sizeof err);
        ENSURE(m != NULL);
        clink_sim *sim = m ? bdf_sim(m) : NULL;
        ENSURE(sim != NULL);
        if (sim) {
            long out = entries_outside(sim);
            printf("%-40s nr %d, pattern %ld entries, %ld nonzeros outside\n", files[k],
                   sim->sys->nr, sim->sys->pat_ptr[sim->sys->nr], out);
            ENSURE(out == 0);
        }
        clink_sim_destroy(&sim);
        clink_model_destroy(&m);
    }
}

TEST(the_jacobian_pattern_of_a_chain_of_free_discs_holds_neighbours_only)
{
    enum { N = 40 };
    clink_model *m = disc_chain(N);
    ENSURE(m != NULL);
    clink_sim *sim = m ? bdf_sim(m) : NULL;
    ENSURE(sim != NULL);
    if (sim) {
        mechsys *s = sim->sys;
        long out = entries_outside(sim);
        long nnz = s->pat_ptr[s->nr];
        printf("%d discs: nr %d, pattern %ld entries (dense %ld), %ld nonzeros outside\n", N, s->nr,
               nnz, (long) s->nr * (s->Nr - s->nr), out);
        ENSURE(out == 0);
        /* each column: the coordinates of at most three discs */
        for (int j = 0; j < s->nr; j++)
            ENSURE(s->pat_ptr[j + 1] - s->pat_ptr[j] <= 9);
        ENSURE(nnz <= 9L * s->nr);
        /* and it runs */
        ENSURE(clink_sim_advance(sim, 1e-6) == CLINK_OK);
    }
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

/* a weak linear spring between the first and the last disc's x */
static int end_spring(void *data, double t, int n, const double *q, const double *v, double *f)
{
    (void) data;
    (void) t;
    (void) v;
    memset(f, 0, (size_t) n * sizeof(double));
    double d = q[n - 3] - q[0];
    f[0] = 1e-3 * d;
    f[n - 3] = -1e-3 * d;
    return 0;
}

TEST(a_user_force_makes_the_jacobian_pattern_dense_and_the_run_goes_on)
{
    enum { N = 8 };
    clink_model *m = disc_chain(N);
    clink_sim *sim = m ? bdf_sim(m) : NULL;
    ENSURE(sim != NULL);
    if (!sim) {
        clink_model_destroy(&m);
        return;
    }
    mechsys *s = sim->sys;
    const int *rows = NULL;
    long v0 = 0, v1 = 0;
    ENSURE(system_jacobian_pattern(s, &rows, &v0) != NULL);
    ENSURE(clink_sim_advance(sim, 2e-7) == CLINK_OK);
    ENSURE(clink_sim_set_user_force(sim, "end spring", end_spring, NULL, NULL) == CLINK_OK);
    ENSURE(clink_sim_advance(sim, 1e-6) == CLINK_OK);
    const long *ptr = system_jacobian_pattern(s, &rows, &v1);
    ENSURE(ptr != NULL);
    ENSURE(v1 != v0);
    if (ptr)
        ENSURE(ptr[s->nr] == (long) s->nr * (s->Nr - s->nr));
    ENSURE(entries_outside(sim) == 0);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}
