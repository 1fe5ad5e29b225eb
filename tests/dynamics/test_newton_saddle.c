/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * BDF's Newton system in the saddle form (src/dynamics/newton_saddle.c): its solutions
 * against the dense Newton matrix I - gamma J built from the analytic dense Jacobian
 * (dyn_jacobian, itself tested against central differences in test_jacobian.c) and solved by
 * Gaussian elimination here, on a chain with loads that couple distant bodies (with and
 * without Baumgarte's terms) and on the closed loops of the N-four-bar; and the sizes of
 * its matrix and factors on chains, which must grow in proportion to the bodies.
 */
#include "ensure.h"
#include "test_models.h"

#include "clink/sim.h"
#include "clink/xml.h"
#include "dynamics/newton_saddle.h"
#include "sim/sim_internal.h"
#define TEST_RANDOM_SEED 0x5ad01e42ULL
#include "test_random.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * A chain of n unit bars hinged to the ground at the origin, bar i centred at (i + 0.5, 0);
 * with loads: a spring-damper from bar 1 to bar n / 2 and a point force on the last
 */
static clink_model *bar_chain(int n, int loads)
{
    clink_model_builder *b = test_bar_chain(n, 1);
    if (loads) {
        clink_force_def fd = clink_default_force_def();
        fd.type = CLINK_FORCE_SPRING_DAMPER;
        fd.body_a = 1;
        fd.body_b = n / 2;
        fd.point_a[1] = 0.1;
        fd.point_b[1] = -0.1;
        fd.k = 400.0;
        fd.c = 3.0;
        fd.free_length = 0.5 * n - 2.0;
        clink_model_builder_add_force(b, &fd, NULL);
        fd = clink_default_force_def();
        fd.type = CLINK_FORCE_POINT;
        fd.body_a = n;
        fd.point_a[0] = 0.5;
        fd.fx = 3.0;
        fd.fy = 7.0;
        clink_model_builder_add_force(b, &fd, NULL);
    }
    clink_model_builder_set_gravity(b, 0.0, -9.81);
    clink_model *m = NULL;
    clink_model_builder_finalize(b, &m);
    clink_model_builder_destroy(&b);
    return m;
}

/* solves A x = b (n x n, column-major, destroyed) by Gaussian elimination with partial
   pivoting; 0, or -1 when a pivot is zero */
static int dense_solve(int n, double *A, double *x)
{
    for (int k = 0; k < n; k++) {
        int p = k;
        for (int i = k + 1; i < n; i++)
            if (fabs(A[(size_t) k * n + i]) > fabs(A[(size_t) k * n + p]))
                p = i;
        if (A[(size_t) k * n + p] == 0.0)
            return -1;
        for (int j = 0; j < n; j++) {
            double t = A[(size_t) j * n + k];
            A[(size_t) j * n + k] = A[(size_t) j * n + p];
            A[(size_t) j * n + p] = t;
        }
        double t = x[k];
        x[k] = x[p];
        x[p] = t;
        for (int i = k + 1; i < n; i++) {
            double f = A[(size_t) k * n + i] / A[(size_t) k * n + k];
            for (int j = k; j < n; j++)
                A[(size_t) j * n + i] -= f * A[(size_t) j * n + k];
            x[i] -= f * x[k];
        }
    }
    for (int k = n - 1; k >= 0; k--) {
        for (int j = k + 1; j < n; j++)
            x[k] -= A[(size_t) j * n + k] * x[j];
        x[k] /= A[(size_t) k * n + k];
    }
    return 0;
}

/*
 * At (t, q, v) and gamma: the saddle solve of (I - gamma J) x = b for a random b against
 * the dense one; the largest difference over the largest |x| into *err, and how far x is
 * from b (J's share of the solution) into *share. 0, or -1
 */
static int compare_at(dyn_system *s, int nq, double t, const double *q, const double *v,
                      double gamma, double *err, double *share)
{
    int n2 = 2 * nq, rc = -1;
    double *jq = malloc((size_t) nq * nq * sizeof(double));
    double *jv = malloc((size_t) nq * nq * sizeof(double));
    double *A = calloc((size_t) n2 * n2, sizeof(double));
    double *b = malloc(3 * (size_t) n2 * sizeof(double)), *xr = b ? b + n2 : NULL;
    double *xs = xr ? xr + n2 : NULL;
    dyn_newton *nw = NULL;
    dyn_newton_jac *jac = NULL;
    if (!jq || !jv || !A || !b || dyn_jacobian(s, t, q, v, jq, jv) != CLINK_OK)
        goto done;
    /* I - gamma [0 I; jq jv] */
    for (int i = 0; i < n2; i++)
        A[(size_t) i * n2 + i] = 1.0;
    for (int c = 0; c < nq; c++) {
        A[(size_t) (nq + c) * n2 + c] -= gamma;
        for (int i = 0; i < nq; i++) {
            A[(size_t) c * n2 + nq + i] -= gamma * jq[(size_t) c * nq + i];
            A[(size_t) (nq + c) * n2 + nq + i] -= gamma * jv[(size_t) c * nq + i];
        }
    }
    for (int i = 0; i < n2; i++)
        b[i] = xr[i] = xs[i] = uniform(-1.0, 1.0);
    if (dense_solve(n2, A, xr) != 0)
        goto done;
    ENSURE(dyn_jacobian_couple(s, 0, NULL) == CLINK_OK);
    nw = dyn_newton_create(s);
    jac = nw ? dyn_newton_jac_create(nw) : NULL;
    if (!jac || dyn_newton_eval(nw, t, q, v, jac) != CLINK_OK ||
        dyn_newton_factor(nw, jac, gamma) != CLINK_OK ||
        dyn_newton_solve(nw, xs, xs + nq, xs, xs + nq) != CLINK_OK)
        goto done;
    double dmax = 0.0, xmax = 0.0, smax = 0.0;
    for (int i = 0; i < n2; i++) {
        dmax = fmax(dmax, fabs(xs[i] - xr[i]));
        xmax = fmax(xmax, fabs(xr[i]));
        smax = fmax(smax, fabs(xr[i] - b[i]));
    }
    *err = dmax / xmax;
    *share = smax / xmax;
    rc = 0;
done:
    dyn_newton_jac_destroy(jac);
    dyn_newton_destroy(&nw);
    free(jq);
    free(jv);
    free(A);
    free(b);
    return rc;
}

/* the chain of 20 bars with loads, bent and moving, with and without Baumgarte */
static void chain_case(double alpha, double beta)
{
    int n = 20, nq = 3 * n;
    clink_model *m = bar_chain(n, 1);
    ENSURE(m != NULL);
    dyn_system *s = m ? dyn_create(m) : NULL;
    ENSURE(s != NULL);
    double *q = malloc(2 * (size_t) nq * sizeof(double)), *v = q ? q + nq : NULL;
    if (!s || !q) {
        free(q);
        dyn_destroy(&s);
        clink_model_destroy(&m);
        return;
    }
    dyn_set_baumgarte(s, alpha, beta);
    /* a zigzag (joints off by up to 1e-3 m: Baumgarte's terms see them) moving */
    for (int i = 0; i < n; i++) {
        q[3 * i] = i + 0.5;
        q[3 * i + 1] = 0.3 * sin(0.7 * i) + uniform(-1e-3, 1e-3);
        q[3 * i + 2] = 0.4 * cos(0.5 * i);
        for (int k = 0; k < 3; k++)
            v[3 * i + k] = uniform(-1.0, 1.0);
    }
    double gammas[] = {1e-4, 1e-2, 0.1};
    for (int g = 0; g < 3; g++) {
        double err = 1.0, share = 0.0;
        ENSURE(compare_at(s, nq, 0.3, q, v, gammas[g], &err, &share) == 0);
        printf("  alpha %g beta %g gamma %g: |saddle - dense| / |x| = %.3g (x - b: %.3g of |x|)\n",
               alpha, beta, gammas[g], err, share);
        ENSURE(err <= 1e-10);
        /* J's share of the solution is far above the tolerance: a wrong block would show */
        ENSURE(share >= 1e-6);
    }
    free(q);
    dyn_destroy(&s);
    clink_model_destroy(&m);
}

TEST(the_saddle_newton_solve_agrees_with_the_dense_newton_matrix_on_a_loaded_chain)
{
    chain_case(0.0, 0.0);
    chain_case(5.0, 5.0);
}

TEST(the_saddle_newton_solve_agrees_with_the_dense_newton_matrix_on_closed_loops)
{
    clink_model *m = test_model_file("n_four_bar.xml");
    ENSURE(m != NULL);
    if (!m)
        return;
    clink_sim *sim = test_sim_start(m);
    ENSURE(sim != NULL);
    if (sim && clink_sim_advance(sim, 0.37) == CLINK_OK) {
        int nq = sim->sys->nq;
        double e = 1.0, share = 0.0;
        ENSURE(compare_at(sim->sys->dyn, nq, clink_sim_time(sim), sim->out.y, sim->out.y + nq, 0.01,
                          &e, &share) == 0);
        printf("  N-four-bar (%d coordinates): |saddle - dense| / |x| = %.3g (x - b: %.3g)\n", nq,
               e, share);
        ENSURE(e <= 1e-10);
        ENSURE(share >= 1e-6);
    } else
        ENSURE(!"the N-four-bar runs to 0.37 s");
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

/* the sizes of K and of its factors for a chain of n bars at its initial state */
static int chain_sizes(int n, dyn_newton_stats *st)
{
    int nq = 3 * n, rc = -1;
    clink_model *m = bar_chain(n, 0);
    dyn_system *s = m ? dyn_create(m) : NULL;
    double *q = calloc(2 * (size_t) nq, sizeof(double));
    dyn_newton *nw = NULL;
    dyn_newton_jac *jac = NULL;
    if (s && q && dyn_jacobian_couple(s, 0, NULL) == CLINK_OK && (nw = dyn_newton_create(s)) &&
        (jac = dyn_newton_jac_create(nw))) {
        for (int i = 0; i < n; i++)
            q[3 * i] = i + 0.5;
        if (dyn_newton_eval(nw, 0.0, q, q + nq, jac) == CLINK_OK &&
            dyn_newton_factor(nw, jac, 1e-3) == CLINK_OK) {
            dyn_newton_get_stats(nw, st);
            rc = 0;
        }
    }
    dyn_newton_jac_destroy(jac);
    dyn_newton_destroy(&nw);
    free(q);
    dyn_destroy(&s);
    clink_model_destroy(&m);
    return rc;
}

/*
 * K's column of an inner bar's coordinate holds the 3 x 3 blocks of the bar and its two
 * neighbours and the bar's four joint rows (13 entries), a joint row's column its two bars'
 * six coordinates: 3 x 13 + 2 x 6 = 51 entries per bar at most. Its LU factors must stay in
 * proportion: per bar the same within 2% from 100 to 10,000 bars (the dense J of a chain
 * has 18 N entries per bar, its LU as many).
 */
TEST(the_saddle_newton_matrix_of_a_chain_does_not_fill_in)
{
    int ns[] = {100, 1000, 10000};
    double per[3] = {0};
    for (int k = 0; k < 3; k++) {
        dyn_newton_stats st = {0};
        ENSURE(chain_sizes(ns[k], &st) == 0);
        printf("  %d bars: K order %ld, %ld entries (%.2f per bar), LU %ld (%.2f per bar), "
               "%ld factorisation(s)\n",
               ns[k], st.n, st.nnz, (double) st.nnz / ns[k], st.factor_nnz,
               (double) st.factor_nnz / ns[k], st.factors);
        ENSURE(st.n == 5L * ns[k]);
        ENSURE(st.nnz <= 51L * ns[k]);
        ENSURE(st.factor_nnz > st.nnz / 2);
        per[k] = (double) st.factor_nnz / ns[k];
        ENSURE(per[k] <= 80.0);
    }
    ENSURE(per[2] <= 1.02 * per[0]);
}
