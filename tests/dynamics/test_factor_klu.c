/* SPDX-License-Identifier: BSD-3-Clause */
/* The saddle matrix's KLU path (src/dynamics/factor_klu.c): its pattern, and the sizes of its
   factors on joint chains, which must grow in proportion to the bodies (no fill-in). */
#include "ensure.h"
#include "test_models.h"

#include "dynamics/dynamics.h"
#include "clink/sim.h"

#include <math.h>
#include <stdlib.h>

/*
 * A chain of n unit bars joined by revolute joints, the first hinged to the ground
 * at the origin when `grounded`, each bar i centred at (i + 0.5, 0) along x.
 */
static clink_model *bar_chain(int n, int grounded)
{
    clink_model_builder *b = test_bar_chain(n, grounded);
    clink_model_builder_set_gravity(b, 0.0, -9.81);
    clink_model *m = NULL;
    clink_model_builder_finalize(b, &m);
    clink_model_builder_destroy(&b);
    return m;
}

/* the KLU sizes of a chain of n bars after one factorisation at its initial state */
static int chain_sizes(int n, int grounded, dyn_klu_sizes *sz)
{
    clink_model *m = bar_chain(n, grounded);
    ENSURE(m != NULL);
    if (!m)
        return -1;
    dyn_system *s = dyn_create(m);
    ENSURE(s != NULL);
    int nq = 3 * n, ok = -1;
    double *q = calloc((size_t) nq, sizeof(double)), *v = calloc((size_t) nq, sizeof(double));
    double *a = calloc((size_t) nq, sizeof(double));
    double *mu = calloc((size_t) clink_model_constraint_count(m) + 1, sizeof(double));
    if (s && q && v && a && mu && dyn_set_solver(s, DYN_SOLVER_KLU) == CLINK_OK) {
        for (int i = 0; i < n; i++)
            q[3 * i] = i + 0.5;
        ENSURE(dyn_accelerations(s, 0.0, q, v, a, mu) == CLINK_OK);
        /* a straight chain hanging from nothing or from a pin: every bar is accelerated
           downwards, none sideways (a wrong entry or pivot shows at order 1) */
        for (int i = 0; i < n; i++) {
            ENSURE(fabs(a[3 * i]) < 1e-9);
            ENSURE(a[3 * i + 1] < 0.0);
        }
        dyn_klu_size(s, sz);
        ok = 0;
    }
    free(q);
    free(v);
    free(a);
    free(mu);
    dyn_destroy(&s);
    clink_model_destroy(&m);
    return ok;
}

TEST(a_revolute_chain_factors_with_entries_in_proportion_to_its_bodies)
{
    /*
     * The saddle matrix of a chain of n bars has 3 n mass entries and 2 x 6 entries per
     * joint row pair (each joint's two rows touch the 3 coordinates of each of its two
     * bodies; 3 of each for the pin to the ground). A chain is a tree: an elimination
     * order that follows it (each bar's coordinates, then the joint to its successor)
     * fills no entry; with KLU's pivoting (the zero diagonal of the multipliers) L + U holds
     * twice the matrix's entries (2.0 x from 2000 to 1e6 bars, measured). A fill-in
     * growing with the bandwidth of the ordering would grow as n^2 or n^1.5: the bound
     * per body and the ratio of two sizes both catch it.
     */
    int grounded[2] = {0, 1};
    for (int g = 0; g < 2; g++) {
        dyn_klu_sizes small, large;
        if (chain_sizes(1000, grounded[g], &small) != 0 ||
            chain_sizes(8000, grounded[g], &large) != 0)
            return;
        long joints = grounded[g] ? 1000 : 999, joints8 = grounded[g] ? 8000 : 7999;
        long pin = grounded[g] ? 2 * 2 * 3 : 0;
        ENSURE(small.n == 3 * 1000 + 2 * joints);
        ENSURE(small.matrix_nnz == 3 * 1000 + 2 * 2 * 6 * (joints - grounded[g]) + pin);
        ENSURE(large.matrix_nnz == 3 * 8000 + 2 * 2 * 6 * (joints8 - grounded[g]) + pin);
        ENSURE(small.factor_nnz > 0 && large.factor_nnz > 0);
        ENSURE(small.factor_nnz <= 5 * small.matrix_nnz / 2);
        ENSURE(large.factor_nnz <= 5 * large.matrix_nnz / 2);
        ENSURE(large.predicted <= 5 * large.matrix_nnz / 2);
        /* entries per body: 48 and 54 (grounded: 54 and 54) at 1000 and 8000 bars */
        ENSURE((large.factor_nnz / 8000.0) / (small.factor_nnz / 1000.0) < 1.25);
    }
}
