/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim_auto.c: the integration method and drift control of a model whose settings
 * say neither (CLINK_METHOD_AUTO, CLINK_DRIFT_AUTO), chosen once when the
 * simulation is created, from the model's structure:
 *
 *   no joints and no drivers (free bodies, contacts)      Adams, no drift control
 *   joints forming no closed loop or one loop              Adams, Baumgarte
 *   joints closing two or more independent loops           BDF, projection
 *   any of these with a dynamic friction law (lugre, dahl)  BDF, the drift above
 *
 * The loops are the cyclomatic number of the graph whose nodes are the ground
 * and the bodies and whose edges are the joints: L = joints - bodies + parts
 * (parts: connected components, ground included in one). The rule comes from a
 * study at equal accuracy (bench/auto_settings_study.py, docs/kernel.md "What
 * auto picks and why"): Adams is the cheaper method on every shipped class
 * whose solution it follows (the contacts of the chains, the ball and the
 * clearance joints are resolved by Adams's short steps at fewer instructions
 * than BDF's Newton iterations with their KLU factorizations), Baumgarte costs
 * a few percent over no drift control and keeps a constrained run on its
 * manifold over long horizons, and projection with BDF is the one combination
 * that follows the N-four-bar (IFToMM A02) through its flat positions, where
 * the loops' constraints become dependent: without projection the run leaves
 * the branch or stalls. A tree of joints has a constraint Jacobian of full rank
 * in every configuration, so no singular position can occur there; with loops
 * it can, and the rule takes projection where several loops share their links.
 *
 * A dynamic friction law (a contact's or a joint's law with a state: lugre, dahl)
 * makes the problem stiff: the bristle state relaxes at sigma0 |v_t| / mu, 1e7 / s
 * for the clearance slider-crank's journal with sigma0 = 1e5 1/m, and Adams, whose
 * fixed-point iteration and stability bound follow that rate, took 25 times BDF's
 * steps there (bench/friction_lugre.sh, docs/friction.md "Performance"); BDF's
 * Newton iteration carries the state in its Jacobian (cvode_setup.c).
 *
 * An explicit method or drift is never changed; with one of them explicit the
 * other follows the rule, except that Adams never gets projection (CVODE 6.4's
 * projection works with BDF only): Adams with auto drift gets Baumgarte, and
 * auto method with projection gets BDF. *
 * While running, an auto method (drift not projection, no window of the state) is
 * switched between Adams and BDF by what its steps are measured to be limited by,
 * LSODA's test (Petzold 1983; docs/kernel.md, "Switched while running"): every
 * SIM_AUTO_EVERY steps the integrator's `stiffness` op gives the last step h, its
 * order q, its error test ratio E and L, the Lipschitz constant of f estimated from
 * the fixed-point iteration (Adams) or the Jacobian's spectral radius (BDF). With
 * r(E, q) = 1 / (1.2 E^(1/(q+1)) + 1.2e-6) the step ratio an error test allows and
 * the error constants C_AM(q), C_BDF(q) turning one method's error into the other's:
 *   Adams -> BDF  h L above Adams's stability bound s_q and r(E C_BDF / C_AM) at least
 *                 Adams's ratio min(r(E), s_q / (h L)), at SIM_AUTO_HOLD checks in a row
 *                 (doubled after each BDF trial that did not pay);
 *   BDF -> Adams  min(r(E C_AM / C_BDF), s_q / (h L)) >= r(E), or BDF's measured cost
 *                 per second (right-hand sides, set-ups, steps) above SIM_AUTO_GAIN times
 *                 Adams's before the switch;
 * after a switch the run stays SIM_AUTO_STAY steps or more (doubled at a quick return).
 * A switch re-creates the integrator at its time tn (as the window does, sim_window.c).
 */
#include "sim/sim_auto.h"

#include "elements/element.h"
#include "integrators/integrator.h"
#include "model/model_internal.h"
#include "sim/sim_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the root of node i (path halving) */
static int auto_root(int *parent, int i)
{
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

int sim_auto_loops(const clink_model *m)
{
    int n = m->d.nbodies, loops = 0;
    int *parent = malloc((size_t) n * sizeof *parent);

    if (!parent) /* out of memory: count each joint beyond a tree's n - 1 as a loop */
        return m->d.njoints > n - 1 ? m->d.njoints - (n - 1) : 0;
    for (int i = 0; i < n; i++)
        parent[i] = i;
    /* a joint whose two bodies are already connected closes a loop */
    for (int j = 0; j < m->d.njoints; j++) {
        int a = auto_root(parent, m->d.joints[j].def.body_a);
        int b = auto_root(parent, m->d.joints[j].def.body_b);
        if (a == b)
            loops++;
        else
            parent[a] = b;
    }
    free(parent);
    return loops;
}

int sim_auto_dynamic_friction(const clink_model *m)
{
    for (int j = 0; j < m->d.njoints; j++)
        if (clink_friction_state_count(&m->d.joints[j].def.friction) > 0)
            return 1;
    for (int k = 0; k < m->d.nelems; k++) {
        element_def def = m->d.elems[k].def;
        const clink_element_base *cm = element_base(&def);
        if (cm->treatment != CLINK_CONTACT_PIECEWISE &&
            clink_friction_state_count(&cm->friction) > 0)
            return 1;
    }
    return 0;
}

int sim_auto_resolve(const clink_model *m, clink_settings_def *set)
{
    int method_auto = set->method == CLINK_METHOD_AUTO, drift_auto = set->drift == CLINK_DRIFT_AUTO;
    clink_method method = CLINK_METHOD_ADAMS;
    clink_drift drift = CLINK_DRIFT_BAUMGARTE;

    if (!method_auto && !drift_auto)
        return 0;
    /* the rule */
    if (m->nconstraints == 0)
        drift = CLINK_DRIFT_NONE;
    else if (sim_auto_loops(m) >= 2) {
        method = CLINK_METHOD_BDF;
        drift = CLINK_DRIFT_PROJECTION;
    }
    if (sim_auto_dynamic_friction(m))
        method = CLINK_METHOD_BDF;
    /* one of the two explicit: the other follows it */
    if (!method_auto && drift == CLINK_DRIFT_PROJECTION &&
        !(integrator_caps(set->method) & CLINK_CAP_PROJECTION))
        drift = CLINK_DRIFT_BAUMGARTE;
    if (!drift_auto && set->drift == CLINK_DRIFT_PROJECTION)
        method = CLINK_METHOD_BDF;
    if (method_auto)
        set->method = method;
    if (drift_auto)
        set->drift = drift;
    return 1;
}

/* ---- the settings a simulation runs with (auto resolved) -------------------- */

clink_settings_def clink_sim_settings(const clink_sim *sim)
{
    return sim ? sim->set : clink_default_settings_def();
}

/* ---- switches while running: LSODA's test (Petzold 1983) ---------------------- */

/* steps between two checks, and the least stay on a method after a switch (doubled at each
   switch back within SIM_AUTO_QUICK stays: hysteresis, so that the method cannot flap) */
#define SIM_AUTO_EVERY    16
#define SIM_AUTO_STAY     32
#define SIM_AUTO_QUICK    8
#define SIM_AUTO_STAY_MAX 65536
/* the steps over which BDF's cost per second is measured before it is compared with Adams's,
   and the share of Adams's it must stay below (a BDF step's Newton solves and Jacobian work
   beyond its right-hand sides are not counted: on the dry clearance slider-crank BDF costs
   1.2 to 1.4 times Adams's instructions per right-hand side) */
#define SIM_AUTO_MEASURE 64
#define SIM_AUTO_GAIN    0.75
/* consecutive checks that must find Adams bounded by stability (an estimate of L from one
   step near a contact's onset, where f is not smooth, is not taken alone) */
#define SIM_AUTO_HOLD     3
#define SIM_AUTO_HOLD_MAX 1024
/* LSODA's ratio: BDF's step this many times Adams's switches even where BDF was measured
   dearer before */
#define SIM_AUTO_RATIO 5.0

/* the stability bound of the Adams methods of order q with a fixed-point iteration, h L at
   most (LSODA's sm1, orders 1 .. 12) */
static const double sim_auto_adams_bound[12] = {0.5,  0.575, 0.55, 0.45,  0.35, 0.25,
                                                0.20, 0.15,  0.10, 0.075, 0.05, 0.025};

/* the error constant of the Adams-Moulton method of order q: |gamma*_q|, gamma*_0 = 1,
   sum_{j=0..m} gamma*_j / (m + 1 - j) = 0 (Hairer, Norsett and Wanner 1993, III.1) */
static double sim_auto_adams_const(int q)
{
    double g[13] = {1.0};
    for (int m = 1; m <= q && m <= 12; m++) {
        double sum = 0.0;
        for (int j = 0; j < m; j++)
            sum += g[j] / (double) (m + 1 - j);
        g[m] = -sum;
    }
    return fabs(g[q < 12 ? q : 12]);
}

/* the error constant of the BDF of order q (normalised by sigma(1)): 1 / ((q + 1) H_q) */
static double sim_auto_bdf_const(int q)
{
    double hq = 0.0;
    for (int j = 1; j <= q; j++)
        hq += 1.0 / (double) j;
    return 1.0 / ((double) (q + 1) * hq);
}

/* the step ratio the error test allows at the error ratio err, order q (LSODA's) */
static double sim_auto_ratio(double err, int q)
{
    return 1.0 / (1.2 * pow(err, 1.0 / (double) (q + 1)) + 1.2e-6);
}

void sim_auto_start(clink_sim *s)
{
    sim_autorun *a = &s->aut;
    a->on = a->requested && s->set.drift != CLINK_DRIFT_PROJECTION && !s->sys->win &&
            (s->set.method == CLINK_METHOD_ADAMS || s->set.method == CLINK_METHOD_BDF) &&
            integrator_for(CLINK_METHOD_ADAMS)->stiffness &&
            integrator_for(CLINK_METHOD_BDF)->stiffness;
    a->stay = SIM_AUTO_STAY;
    a->hold = SIM_AUTO_HOLD;
}

int clink_sim_method_switches(const clink_sim *sim, clink_method_switch *out, int max)
{
    if (!sim)
        return 0;
    int n =
        sim->aut.count < CLINK_METHOD_SWITCHES_KEPT ? sim->aut.count : CLINK_METHOD_SWITCHES_KEPT;
    for (int i = 0; out && i < n && i < max; i++)
        out[i] = sim->aut.log[i];
    return sim->aut.count;
}

/* the cost of the run so far in right-hand sides: the integrator's, the finite-difference
   Jacobian's, one per linear set-up (a factorization of the Newton matrix) and one per step
   (the step's own work: prediction, error test, event search, about one right-hand side's
   on the clearance slider-crank) */
static double sim_auto_cost(const clink_sim *s)
{
    integ_stats st;
    s->in->ops->stats(s->in, &st);
    return (double) st.rhs_evals + (double) s->sys->rhs_jac + (double) st.lin_setups +
           (double) st.steps;
}

/* the cost per second since the mark; 0 when no time passed */
static double sim_auto_rate(const clink_sim *s, double tn)
{
    double dt = tn - s->aut.t_mark;
    return dt > 0.0 ? (sim_auto_cost(s) - s->aut.cost_mark) / dt : 0.0;
}

static void sim_auto_mark(clink_sim *s, double tn)
{
    s->aut.t_mark = tn;
    s->aut.cost_mark = sim_auto_cost(s);
}

/* the integrator re-created at tn with method `to`, its first step h0, the switch logged */
static clink_status sim_auto_switch(clink_sim *s, double tn, clink_method to, double h0,
                                    const char *why)
{
    const integ_ops *ops = s->in->ops;
    integ_stats counts;
    ops->stats(s->in, &counts);
    /* the state at tn (an output may have left an interpolated one in the integrator's y) */
    if (ops->dense(s->in, tn, 0) != 0)
        return CLINK_OK; /* no dense output: not switched */
    memcpy(s->loop.yroot, s->in->y, (size_t) s->sys->Nr * sizeof(double));
    clink_method from = s->set.method;
    ops->destroy(s->in);
    s->set.method = to;
    integ_problem p = sim_problem(s);
    integ_config c = sim_config(s);
    c.first_step = h0;
    ops = integrator_for(to);
    clink_status st = CLINK_OK;
    s->in = ops->create(&p, &c, tn, s->loop.yroot, &st, s->msg, sizeof s->msg);
    if (!s->in)
        return st;
    ops->set_counters(s->in, &counts);
    if (s->loop.tstop_set && ops->set_stop_time(s->in, s->loop.t_stop) != 0) {
        sim_msg(s, "auto: %s refused the stop time after the switch to %s", ops->name,
                clink_method_name(to));
        return CLINK_ERR_SOLVER;
    }
    s->loop.at_reinit = 1;
    sim_autorun *a = &s->aut;
    if (a->count > 0 && counts.steps - a->steps_switch < SIM_AUTO_QUICK * a->stay &&
        a->stay < SIM_AUTO_STAY_MAX)
        a->stay *= 2; /* back soon after the last switch: stay longer from now on */
    a->steps_switch = counts.steps;
    a->marked = 0; /* BDF's cost measured from its first check */
    if (a->count < CLINK_METHOD_SWITCHES_KEPT) {
        clink_method_switch *w = &a->log[a->count];
        w->t = tn;
        w->from = from;
        w->to = to;
        snprintf(w->reason, sizeof w->reason, "%s", why);
    }
    a->count++;
    return CLINK_OK;
}

/* Adams now: BDF when Adams's step is bounded by stability (h L above the bound of its order)
   at a->hold checks in a row (SIM_AUTO_HOLD, doubled after each BDF trial that did not pay)
   and BDF's step, from the error estimate, would be at least as long (LSODA's test asks 5
   times as long at once: measured instead) */
static clink_status sim_auto_from_adams(clink_sim *s, double tn, const integ_stiffness *k)
{
    sim_autorun *a = &s->aut;
    int q = k->order, qb = q < 5 ? q : 5;
    double hl = k->lip * k->h, bound = sim_auto_adams_bound[q <= 12 ? q - 1 : 11];
    if (!(k->lip > 0.0) || !(k->err > 0.0) || hl <= bound) {
        a->streak = 0; /* no estimate (the iteration converged at once), or within the bound */
        return CLINK_OK;
    }
    double rh1 = sim_auto_ratio(k->err, q);
    if (bound / hl < rh1)
        rh1 = bound / hl;
    double rh2 = sim_auto_ratio(k->err * sim_auto_bdf_const(qb) / sim_auto_adams_const(q), qb);
    if (rh2 < rh1) {
        a->streak = 0;
        return CLINK_OK;
    }
    if (a->streak++ == 0)
        sim_auto_mark(s, tn); /* Adams's cost measured from the first check that found it */
    if (a->streak < a->hold)
        return CLINK_OK;
    a->rate_adams = sim_auto_rate(s, tn);
    a->streak = 0;
    /* BDF was measured dearer before: tried again only when Adams now costs more than BDF did
       (over SIM_AUTO_GAIN), or BDF's step would be SIM_AUTO_RATIO times Adams's */
    if (a->rate_bdf > 0.0 && SIM_AUTO_GAIN * a->rate_adams < a->rate_bdf &&
        rh2 < SIM_AUTO_RATIO * rh1)
        return CLINK_OK;
    char why[128];
    snprintf(why, sizeof why, "stiff: h L = %.3g > %.3g (Adams order %d); BDF step %.3g x", hl,
             bound, q, rh2 / rh1);
    return sim_auto_switch(s, tn, CLINK_METHOD_BDF, k->h, why);
}

/* BDF now: Adams when its step, bounded by stability, would be at least BDF's (LSODA's test),
   or when BDF has cost more than SIM_AUTO_GAIN of Adams's per second before the switch
   (measured) */
static clink_status sim_auto_from_bdf(clink_sim *s, double tn, const integ_stiffness *k)
{
    sim_autorun *a = &s->aut;
    int q = k->order;
    char why[128];
    long steps = s->in->ops->steps(s->in);
    if (!a->marked) { /* BDF's cost measured after its start (order 1, short steps) */
        sim_auto_mark(s, tn);
        a->marked = 1;
        a->steps_mark = steps;
    }
    double rate = sim_auto_rate(s, tn);
    if (a->rate_adams > 0.0 && steps - a->steps_mark >= SIM_AUTO_MEASURE &&
        rate > SIM_AUTO_GAIN * a->rate_adams) {
        snprintf(why, sizeof why, "measured: BDF %.3g > %.2g x Adams %.3g rhs/ms", 1e-3 * rate,
                 SIM_AUTO_GAIN, 1e-3 * a->rate_adams);
        a->rate_adams = 0.0;
        a->rate_bdf = rate;
        if (a->hold < SIM_AUTO_HOLD_MAX)
            a->hold *= 2; /* a trial that did not pay: the next needs twice the evidence */
        return sim_auto_switch(s, tn, CLINK_METHOD_ADAMS, k->h, why);
    }
    if (!(k->lip > 0.0) || !(k->err > 1e-6))
        return CLINK_OK; /* no Jacobian yet, or an error too small to tell */
    double hl = k->lip * k->h, bound = sim_auto_adams_bound[q - 1];
    double rh2 = sim_auto_ratio(k->err, q);
    double rh1 = sim_auto_ratio(k->err * sim_auto_adams_const(q) / sim_auto_bdf_const(q), q);
    if (hl * rh1 > 1e-5 && bound / hl < rh1)
        rh1 = bound / hl;
    if (rh1 < rh2)
        return CLINK_OK;
    snprintf(why, sizeof why,
             "non-stiff: h L = %.3g (Adams order %d bound %.3g); Adams step %.3g x", hl, q, bound,
             rh1 / rh2);
    a->rate_adams = 0.0;
    return sim_auto_switch(s, tn, CLINK_METHOD_ADAMS, k->h, why);
}

clink_status sim_auto_watch(clink_sim *s, double tn)
{
    sim_autorun *a = &s->aut;
    if (!a->on || s->loop.at_reinit)
        return CLINK_OK;
    long steps = s->in->ops->steps(s->in);
    if (steps - a->steps_check < SIM_AUTO_EVERY)
        return CLINK_OK;
    a->steps_check = steps;
    integ_stiffness k;
    if (!s->in->ops->stiffness || s->in->ops->stiffness(s->in, &k) != 0 || k.order < 1)
        return CLINK_OK;
    if (steps - a->steps_switch < a->stay)
        return CLINK_OK;
    return s->set.method == CLINK_METHOD_ADAMS ? sim_auto_from_adams(s, tn, &k)
                                               : sim_auto_from_bdf(s, tn, &k);
}
