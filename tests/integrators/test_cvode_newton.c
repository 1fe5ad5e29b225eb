/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * BDF with its Newton system solved in the mechanism's saddle form (src/integrators/cvode/
 * cvode_newton.c over src/dynamics/newton_saddle.c) against BDF with the sparse Newton
 * matrix I - gamma J (cvode_setup.c) and against Adams, on revolute chains pinned to the
 * ground and falling under gravity (rtol 1e-8, atol 1e-10, projection): the positions after
 * 0.05 s, and CVODE's counts (steps, Newton iterations, linear solver set-ups, Jacobians),
 * which must be those of the sparse path since both solve the same Newton systems; the
 * choice by size (SYSTEM_NEWTON_MIN_BODIES) and the matrix's entries per body on a run.
 */
#include "ensure.h"
#include "test_models.h"

#include "clink/sim.h"
#include "clink/xml.h"
#include "dynamics/newton_saddle.h"
#include "sim/sim_internal.h"
#include "sim/sim_jac.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* a chain of n bars of 1 m, 1 kg, 1 kg m^2 along x, the first pinned, under gravity;
   redundant: pinned twice at the same point (two dependent rows) */
static clink_model *chain_with(int n, const char *method, int redundant)
{
    size_t cap = 512 + 200 * (size_t) n, len = 0;
    char *x = malloc(cap), err[512];
    if (!x)
        return NULL;
    len += (size_t) snprintf(x + len, cap - len,
                             "<mechanism name=\"chain\"><settings t_end=\"0.05\" "
                             "output_step=\"0.05\" method=\"%s\"/><gravity g=\"0 -9.81\"/>"
                             "<bodies>",
                             method);
    for (int i = 0; i < n; i++)
        len += (size_t) snprintf(x + len, cap - len,
                                 "<body name=\"b%d\" mass=\"1\" inertia=\"1\" x=\"%d\"/>", i, i);
    len += (size_t) snprintf(x + len, cap - len,
                             "</bodies><joints><revolute name=\"pin\" body1=\"ground\" "
                             "body2=\"b0\" point1=\"-0.5 0\" point2=\"-0.5 0\"/>");
    if (redundant)
        len += (size_t) snprintf(x + len, cap - len,
                                 "<revolute name=\"pin2\" body1=\"ground\" body2=\"b0\" "
                                 "point1=\"-0.5 0\" point2=\"-0.5 0\"/>");
    for (int i = 1; i < n; i++)
        len += (size_t) snprintf(x + len, cap - len,
                                 "<revolute name=\"j%d\" body1=\"b%d\" body2=\"b%d\" "
                                 "point1=\"0.5 0\" point2=\"-0.5 0\"/>",
                                 i, i - 1, i);
    snprintf(x + len, cap - len, "</joints></mechanism>");
    clink_model *m = NULL;
    if (clink_xml_load_memory(x, strlen(x), "chain.xml", &m, NULL, err, sizeof err) != CLINK_OK)
        printf("chain: %s\n", err);
    free(x);
    return m;
}

static clink_model *chain(int n, const char *method)
{
    return chain_with(n, method, 0);
}

typedef struct chain_run {
    int ok, saddle;
    clink_sim_stats st;
    dyn_newton_stats nw;
} chain_run;

/* runs the chain of n bars to 0.05 s (mode: -1 leaves the choice by size), the positions
   (2 n) into pos */
static void run_chain(int n, const char *method, int mode, double *pos, chain_run *r)
{
    char err[512];
    memset(r, 0, sizeof *r);
    clink_model *m = chain(n, method);
    ENSURE(m != NULL);
    if (!m)
        return;
    clink_settings_def set = clink_model_settings(m);
    clink_sim *sim = NULL;
    ENSURE(clink_sim_create(m, &set, &sim, err, sizeof err) == CLINK_OK);
    if (sim && (mode < 0 || sim_use_saddle_newton(sim, mode) == CLINK_OK) &&
        clink_sim_advance(sim, 0.05) == CLINK_OK) {
        clink_sim_stats_get(sim, &r->st);
        r->saddle = sim_uses_saddle_newton(sim);
        if (r->saddle)
            dyn_newton_get_stats(sim->sys->newton, &r->nw);
        for (int b = 1; b <= n; b++) {
            double q[3];
            clink_sim_body_state(sim, b, q, NULL);
            pos[2 * (b - 1)] = q[0];
            pos[2 * (b - 1) + 1] = q[1];
        }
        r->ok = 1;
    } else
        printf("  chain of %d: %s\n", n, sim ? clink_sim_error(sim) : err);
    ENSURE(r->ok);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

static double max_diff(const double *a, const double *b, int n)
{
    double d = 0.0;
    for (int i = 0; i < n; i++)
        d = fmax(d, fabs(a[i] - b[i]));
    return d;
}

/*
 * Both paths solve the same Newton systems, to rounding (the dense comparison of
 * test_newton_saddle.c: 1e-13 relative): the same decisions of CVODE (steps, iterations,
 * set-ups, Jacobians) and positions within 1e-9 m after 0.05 s, a hundredth of the error the
 * run's tolerances allow over its steps (about 40 steps of rtol |dq| + atol, 1e-10 m each:
 * the Newton iteration's convergence test alone lets two runs part by a fraction of that).
 */
TEST(bdf_with_the_saddle_newton_solve_follows_the_sparse_newton_matrix_on_chains_of_20_to_100)
{
    int ns[] = {20, 50, 100};
    for (int k = 0; k < 3; k++) {
        int n = ns[k];
        double *a = malloc(4 * (size_t) n * sizeof(double)), *b = a ? a + 2 * n : NULL;
        if (!a) {
            ENSURE(a != NULL);
            return;
        }
        chain_run rs, rd;
        run_chain(n, "bdf", SYSTEM_NEWTON_ON, a, &rs);
        run_chain(n, "bdf", SYSTEM_NEWTON_OFF, b, &rd);
        double d = max_diff(a, b, 2 * n);
        printf("  %d bars: max |x_saddle - x_sparse| %.3g m; steps %ld / %ld, Newton iterations "
               "%ld / %ld, set-ups %ld / %ld, Jacobians %ld / %ld\n",
               n, d, rs.st.steps, rd.st.steps, rs.st.nonlin_iters, rd.st.nonlin_iters,
               rs.st.lin_setups, rd.st.lin_setups, rs.st.jac_evals, rd.st.jac_evals);
        ENSURE(rs.saddle && !rd.saddle);
        ENSURE(d <= 1e-9);
        ENSURE(rs.st.steps == rd.st.steps);
        ENSURE(rs.st.nonlin_iters == rd.st.nonlin_iters);
        ENSURE(rs.st.lin_setups == rd.st.lin_setups);
        ENSURE(rs.st.jac_evals == rd.st.jac_evals);
        ENSURE(rs.st.steps > 20); /* the chain moves: a run of a few steps would prove little */
        free(a);
    }
}

/*
 * Adams (no Newton matrix) at the same tolerances: the two methods' global errors differ;
 * over the 0.05 s of the fall (the bars fall by up to 1.2 cm) both are within 1e-8 m of
 * each other, 200 times the measured difference at 50 bars (5e-11 m)
 */
TEST(bdf_with_the_saddle_newton_solve_agrees_with_adams_on_a_chain_of_50)
{
    int n = 50;
    double *a = malloc(4 * (size_t) n * sizeof(double)), *b = a ? a + 2 * n : NULL;
    if (!a) {
        ENSURE(a != NULL);
        return;
    }
    chain_run rs, ra;
    run_chain(n, "bdf", SYSTEM_NEWTON_ON, a, &rs);
    run_chain(n, "adams", -1, b, &ra);
    double d = max_diff(a, b, 2 * n), moved = 0.0;
    for (int i = 0; i < n; i++)
        moved = fmax(moved, fabs(a[2 * i + 1]));
    printf("  50 bars: max |x_bdf - x_adams| %.3g m, largest fall %.3g m\n", d, moved);
    ENSURE(rs.saddle && !ra.saddle);
    ENSURE(d <= 1e-8);
    ENSURE(moved >= 1e-3);
    free(a);
}

/*
 * The choice by size: a chain of SYSTEM_NEWTON_MIN_BODIES bars or more takes the saddle form
 * by itself (its matrix 51 entries per bar at most, its factors 80), a smaller one the sparse
 * Newton matrix (every shipped model keeps that path)
 */
TEST(a_long_chain_takes_the_saddle_newton_solve_by_itself_and_a_short_one_does_not)
{
    int n = 400;
    double *p = malloc(2 * (size_t) n * sizeof(double));
    if (!p) {
        ENSURE(p != NULL);
        return;
    }
    chain_run r;
    run_chain(n, "bdf", -1, p, &r);
    printf("  %d bars: saddle %d, K %ld entries, LU %ld, %ld evaluations, %ld factorisations + "
           "%ld refactorisations, %ld solves\n",
           n, r.saddle, r.nw.nnz, r.nw.factor_nnz, r.nw.evals, r.nw.factors, r.nw.refactors,
           r.nw.solves);
    ENSURE(r.saddle);
    ENSURE(r.nw.nnz <= 51L * n);
    ENSURE(r.nw.factor_nnz <= 80L * n);
    ENSURE(r.nw.factors + r.nw.refactors == r.st.lin_setups);
    ENSURE(r.nw.evals == r.st.jac_evals);
    ENSURE(r.nw.solves == r.st.nonlin_iters);
    run_chain(20, "bdf", -1, p, &r);
    ENSURE(!r.saddle);
    free(p);
}

/*
 * The example model (models/hanging_chain.xml, 120 bars): it takes the saddle form by its
 * size and swings for 0.5 s with its energy balance within 1e-6 of the kinetic energy it
 * gains (the balance of an exact solution is zero; rtol 1e-8 over a few hundred steps keeps
 * it near 1e-7 J against 1.4 kJ) and its bars joined (max |Phi| after projection)
 */
TEST(the_hanging_chain_model_swings_with_the_saddle_newton_solve)
{
    clink_model *m = test_model_file("hanging_chain.xml");
    ENSURE(m != NULL);
    if (!m)
        return;
    clink_settings_def set = clink_model_settings(m);
    clink_sim *sim = test_sim_start(m);
    ENSURE(sim != NULL);
    if (sim && clink_sim_advance(sim, set.t_end) == CLINK_OK) {
        clink_energy e;
        clink_sim_energy(sim, &e);
        clink_sim_stats st;
        clink_sim_stats_get(sim, &st);
        double pos = 0.0, vel = 0.0;
        clink_sim_constraint_violation(sim, &pos, &vel);
        printf("  120 bars, 0.5 s: %ld steps, %ld Newton iterations, kinetic %.6g J, balance "
               "%.3g J, max |Phi| %.3g m\n",
               st.steps, st.nonlin_iters, e.kinetic, e.balance, pos);
        ENSURE(sim_uses_saddle_newton(sim));
        ENSURE(e.kinetic > 1e3);
        ENSURE(fabs(e.balance) <= 1e-6 * e.kinetic);
        ENSURE(pos <= 1e-9);
    } else
        ENSURE(!"the hanging chain runs to its end");
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

/*
 * Redundant constraints make K singular: a chain of 120 bars pinned twice (the start finds
 * two dependent rows) keeps the sparse path, whose saddle solves have the rank-revealing
 * fallback, and runs
 */
TEST(a_long_chain_with_a_redundant_joint_keeps_the_sparse_newton_matrix_and_runs)
{
    char err[512];
    clink_model *m = chain_with(120, "bdf", 1);
    ENSURE(m != NULL);
    if (!m)
        return;
    clink_settings_def set = clink_model_settings(m);
    clink_sim *sim = NULL;
    ENSURE(clink_sim_create(m, &set, &sim, err, sizeof err) == CLINK_OK);
    ENSURE(sim && clink_sim_advance(sim, 0.01) == CLINK_OK);
    if (sim) {
        clink_sim_stats st;
        clink_sim_stats_get(sim, &st);
        printf("  120 bars pinned twice: saddle %d, %ld steps\n", sim_uses_saddle_newton(sim),
               st.steps);
        ENSURE(!sim_uses_saddle_newton(sim));
        ENSURE(st.steps > 0);
    }
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}
