/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The analytic Jacobian of the accelerations (dyn_jacobian: joint and driver
 * Hessians, applied-force derivatives, Baumgarte terms, the contact forces'
 * companion) against forward differences of the accelerations
 * (dyn_jacobian_fd) on every shipped model, at its state after a short run; the
 * contact forces' companion (contacts_forces_jacobian) against differences of the contact
 * forces alone; and the driver's state without the coordinates that cannot change
 * (sim.c) against the full state on an oblique impact.
 */
#include "ensure.h"

#include "clink/sim.h"
#include "clink/xml.h"
#include "dynamics/dynamics.h"
#include "contacts/contacts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Largest |A - F| over the largest |F| of each block (q and v columns), where F are
 * the differences with the smaller step and F10 those with ten times the step floor.
 * The reference has an error of its own, roundoff of order eps |qdd| / h where a
 * coordinate near zero takes the step floor (at 5000 rpm |qdd| reaches 6e4): its size
 * is estimated entry by entry as |F - F10| and not charged to the analytic
 * Jacobian. An analytic error larger than tol of the largest entry and than the
 * two references' disagreement still fails.
 */
static void compare(const char *what, const double *a, const double *f, const double *f10, size_t n,
                    double tol)
{
    double dmax = 0.0, fmax_ = 0.0, excess = 0.0;
    size_t imax = 0;
    for (size_t i = 0; i < n; i++)
        fmax_ = fmax(fmax_, fabs(f[i]));
    double scale = fmax_ > 0.0 ? fmax_ : 1.0;
    for (size_t i = 0; i < n; i++) {
        double d = fabs(a[i] - f[i]), e = d - fabs(f[i] - f10[i]);
        if (e > excess) {
            excess = e;
            imax = i;
        }
        dmax = fmax(dmax, d);
    }
    printf("  %s: max |analytic - fd| %.3g, max |fd| %.3g, largest excess over the reference's "
           "own error %.3g of the largest entry (entry %zu: %.9g vs %.9g or %.9g)\n",
           what, dmax, fmax_, excess / scale, imax, a[imax], f[imax], f10[imax]);
    ENSURE(excess / scale <= tol);
}

/* advances sim in steps of dt (at most max_steps) until no contact penetrates; 1 if so */
static int run_until_apart(clink_sim *sim, double dt, int max_steps)
{
    for (int step = 0;; step++) {
        int apart = 1;
        for (int k = 0; k < clink_sim_contact_count(sim); k++) {
            clink_contact_info info;
            if (clink_sim_contact(sim, k, &info) != CLINK_OK || info.delta > 0.0)
                apart = 0;
        }
        if (apart)
            return 1;
        if (step == max_steps || clink_sim_advance(sim, clink_sim_time(sim) + dt) != CLINK_OK)
            return 0;
    }
}

/*
 * runs the model to t_run (with the companion, on until no contact penetrates: the
 * reference is not accurate to the bound in contact, see the next tests), then compares the two
 * Jacobians at that state; companion: the contact forces' analytic companion
 * (contacts_forces_jacobian), else dyn_jacobian's central differences of the contact hook
 */
static void check_model_with(const char *name, double t_run, double xmin, double tol, int companion)
{
    char path[512], err[256];
    snprintf(path, sizeof path, "%s/models/%s.xml", CLINK_SOURCE_DIR, name);
    clink_model *m = clink_model_load_xml(path, err, sizeof err);
    ENSURE(m != NULL);
    if (!m)
        return;
    clink_sim *sim = NULL;
    ENSURE(clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_OK);
    if (!sim) {
        clink_model_destroy(&m);
        return;
    }
    ENSURE(clink_sim_advance(sim, t_run) == CLINK_OK);
    if (companion)
        ENSURE(run_until_apart(sim, 1e-5, 1000));
    int nq = m->ncoords;
    size_t nn = (size_t) nq * nq;
    double *q = calloc((size_t) nq, sizeof *q), *v = calloc((size_t) nq, sizeof *v);
    double *jq = calloc(nn, sizeof *jq), *jv = calloc(nn, sizeof *jv);
    double *fq = calloc(nn, sizeof *fq), *fv = calloc(nn, sizeof *fv);
    double *gq = calloc(nn, sizeof *gq), *gv = calloc(nn, sizeof *gv);
    ENSURE(q && v && jq && jv && fq && fv && gq && gv);
    for (int i = 1; q && v && i < m->d.nbodies; i++)
        clink_sim_body_state(sim, i, q + 3 * (i - 1), v + 3 * (i - 1));
    double t = clink_sim_time(sim);
    clink_sim_destroy(&sim);
    dyn_system *dyn = dyn_create(m);
    ENSURE(dyn != NULL);
    contact_set *sc = contacts_create(m, m->d.settings.settle_speed, err, sizeof err);
    ENSURE(sc != NULL);
    if (dyn && sc && q && v && jq && fq && gq) {
        if (m->d.settings.drift == CLINK_DRIFT_BAUMGARTE)
            dyn_set_baumgarte(dyn, m->d.settings.baumgarte_alpha, m->d.settings.baumgarte_beta);
        if (contacts_count(sc)) {
            contacts_start(sc, q, v);
            dyn_set_external(dyn, contacts_forces, sc);
            dyn_set_external_jacobian(dyn, companion ? contacts_forces_jacobian : NULL);
        }
        printf("%s at t = %.6g s (%d coordinates, %d contacts)\n", name, t, nq, contacts_count(sc));
        ENSURE(dyn_jacobian(dyn, t, q, v, jq, jv) == CLINK_OK);
        ENSURE(dyn_jacobian_fd(dyn, t, q, v, xmin, fq, fv) == CLINK_OK);
        ENSURE(dyn_jacobian_fd(dyn, t, q, v, 10.0 * xmin, gq, gv) == CLINK_OK);
        compare("d qdd / dq", jq, fq, gq, nn, tol);
        compare("d qdd / dv", jv, fv, gv, nn, tol);
    }
    contacts_destroy(&sc);
    dyn_destroy(&dyn);
    free(q);
    free(v);
    free(jq);
    free(jv);
    free(fq);
    free(fv);
    free(gq);
    free(gv);
    clink_model_destroy(&m);
}

static void check_model(const char *name, double t_run, double xmin, double tol)
{
    check_model_with(name, t_run, xmin, tol, 1);
}

/* central differences (h = 6e-6 max(|x|, 1e-2)) agree to 1e-8 of the largest entry or better */
TEST(analytic_jacobian_matches_finite_differences_on_the_mechanisms)
{
    check_model("pendulum", 0.7, 1e-2, 1e-6);
    check_model("double_pendulum", 0.9, 1e-2, 1e-6);
    check_model("four_bar", 0.8, 1e-2, 1e-6);
    check_model("slider_crank", 0.01, 1e-2, 1e-6);
    /* 242 rows (the KLU path): with xmin 1e-2 the reference carries roundoff of 1e-5 of the
       largest entry on coordinates near 0 (4.3e-4, against 8.6e-5 with xmin 1e-1: it scales as
       1 / h), so the larger step */
    check_model("n_four_bar", 1.0, 1e-1, 1e-5);
}

/* the beam elements' stiffness and Kelvin-Voigt damping in the assembled Jacobian (a cantilever
   of 8 elements, bending, src/flex/) */
TEST(analytic_jacobian_matches_finite_differences_on_a_flexible_beam)
{
    check_model("cantilever_beam", 0.05, 1e-2, 1e-6);
}

/*
 * With the contact hook differenced by dyn_jacobian itself (the rest of the analytic
 * Jacobian around a contact). With the analytic companion, the reference's own
 * truncation error at a stiff contact (h = 6e-6 |x| on the slider's position, against a
 * penetration of micrometres: 2.7e-5 of the largest entry in the clearance joint) exceeds
 * what |F - F10| estimates, so the companion is checked here at states where no contact
 * penetrates (check_model_with runs on from t_run until then), against differences of the
 * contact forces alone in the next test, and in contact against extrapolated differences
 * at steps scaled to the penetration (analytic_jacobian_matches_extrapolated_differences_
 * in_contact).
 */
TEST(analytic_jacobian_matches_finite_differences_with_contact)
{
    check_model_with("slider_crank_clearance", 0.02, 1e-2, 1e-6, 0);
    check_model_with("slider_crank_clearance_frictionless", 0.02, 1e-2, 1e-6, 0);
    check_model_with("slider_crank_clearance_wang_liu", 0.02, 1e-2, 1e-6, 0);
    check_model_with("ball_drop", 0.3, 1e-2, 1e-6, 0);
    check_model_with("double_pendulum_impact", 0.5, 1e-2, 1e-6, 0);
    check_model("slider_crank_clearance", 0.02, 1e-2, 1e-6);
    check_model("ball_drop", 0.3, 1e-2, 1e-6);
    check_model("double_pendulum_impact", 0.5, 1e-2, 1e-6);
}

/* central differences of the contact forces alone, step rel max(|x|, 1e-2) per column */
static void contact_differences(contact_set *sc, int nq, double *q, double *v, double rel,
                                double *fq, double *fv)
{
    double *gp = calloc((size_t) nq, sizeof *gp), *gm = calloc((size_t) nq, sizeof *gm), pw = 0.0;
    ENSURE(gp && gm);
    for (int side = 0; gp && gm && side < 2; side++) {
        double *x = side ? v : q, *out = side ? fv : fq;
        for (int j = 0; j < nq; j++) {
            double xj = x[j], h = rel * fmax(fabs(xj), 1e-2);
            memset(gp, 0, (size_t) nq * sizeof *gp);
            memset(gm, 0, (size_t) nq * sizeof *gm);
            x[j] = xj + h;
            ENSURE(contacts_forces(sc, 0.0, q, v, gp, &pw) == 0);
            x[j] = xj - h;
            ENSURE(contacts_forces(sc, 0.0, q, v, gm, &pw) == 0);
            x[j] = xj;
            for (int i = 0; i < nq; i++)
                out[(size_t) j * nq + i] = (gp[i] - gm[i]) / (2.0 * h);
        }
    }
    free(gp);
    free(gm);
}

/*
 * Runs the model until a contact penetrates by more than 1e-6 m (at most to t_max), then compares
 * the companion contacts_forces_jacobian with central differences of contacts_forces at the steps
 * 1e-7 and 1e-6 of the coordinates' size, charging their disagreement to the reference; the contact
 * must carry force (some entry nonzero).
 */
static void check_contact_jacobian_with(const char *name, const char *set, double t_max, double tol)
{
    char path[512], err[256];
    snprintf(path, sizeof path, "%s/models/%s.xml", CLINK_SOURCE_DIR, name);
    clink_model *m = NULL;
    if (set)
        ENSURE(clink_xml_load_with(path, &set, 1, NULL, &m, NULL, err, sizeof err) == CLINK_OK);
    else
        m = clink_model_load_xml(path, err, sizeof err);
    ENSURE(m != NULL);
    if (!m)
        return;
    clink_sim *sim = NULL;
    ENSURE(clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_OK);
    int touching = 0;
    double dt = t_max / 20000.0;
    while (sim && !touching && clink_sim_time(sim) + dt <= t_max) {
        ENSURE(clink_sim_advance(sim, clink_sim_time(sim) + dt) == CLINK_OK);
        for (int k = 0; k < clink_sim_contact_count(sim); k++) {
            clink_contact_info info;
            /* a penetration well beyond the differences' steps (at most 3e-7 m here), so that
               they do not cross the kink of the force at delta = 0 */
            if (clink_sim_contact(sim, k, &info) == CLINK_OK && info.delta > 1e-6 && info.fn > 0.0)
                touching = 1;
        }
    }
    ENSURE(touching);
    int nq = m->ncoords;
    size_t nn = (size_t) nq * nq;
    double *q = calloc((size_t) nq, sizeof *q), *v = calloc((size_t) nq, sizeof *v);
    double *aq = calloc(nn, sizeof *aq), *av = calloc(nn, sizeof *av);
    double *fq = calloc(nn, sizeof *fq), *fv = calloc(nn, sizeof *fv);
    double *gq = calloc(nn, sizeof *gq), *gv = calloc(nn, sizeof *gv);
    contact_set *sc = contacts_create(m, m->d.settings.settle_speed, err, sizeof err);
    ENSURE(q && v && aq && av && fq && fv && gq && gv && sc);
    if (sim && touching && q && v && aq && av && fq && fv && gq && gv && sc) {
        for (int i = 1; i < m->d.nbodies; i++)
            clink_sim_body_state(sim, i, q + 3 * (i - 1), v + 3 * (i - 1));
        printf("%s at t = %.6g s (contact forces alone)\n", name, clink_sim_time(sim));
        contacts_start(sc, q, v);
        dyn_gjac J = dyn_gjac_dense(nq, aq, av);
        ENSURE(contacts_forces_jacobian(sc, 0.0, q, v, &J) == 0);
        contact_differences(sc, nq, q, v, 1e-7, fq, fv);
        contact_differences(sc, nq, q, v, 1e-6, gq, gv);
        double fmax_ = 0.0;
        for (size_t i = 0; i < nn; i++)
            fmax_ = fmax(fmax_, fmax(fabs(fq[i]), fabs(fv[i])));
        ENSURE(fmax_ > 0.0);
        compare("d g_contact / dq", aq, fq, gq, nn, tol);
        compare("d g_contact / dv", av, fv, gv, nn, tol);
    }
    contacts_destroy(&sc);
    clink_sim_destroy(&sim);
    free(q);
    free(v);
    free(aq);
    free(av);
    free(fq);
    free(fv);
    free(gq);
    free(gv);
    clink_model_destroy(&m);
}

static void check_contact_jacobian(const char *name, double t_max, double tol)
{
    check_contact_jacobian_with(name, NULL, t_max, tol);
}

/* every contact model shipped with a continuous law: bores, a line, capsules (differences),
   a polygon */
TEST(contact_force_jacobian_matches_differences_of_the_contact_forces)
{
    check_contact_jacobian("slider_crank_clearance", 0.05, 1e-7);
    check_contact_jacobian("slider_crank_clearance_frictionless", 0.05, 1e-7);
    check_contact_jacobian("slider_crank_clearance_wang_liu", 0.05, 1e-7);
    check_contact_jacobian("ball_drop", 1.0, 1e-7);
    check_contact_jacobian("double_pendulum_impact", 1.3, 1e-7);
    check_contact_jacobian("granular_chain", 2e-5, 1e-7);
    check_contact_jacobian("box_drop", 0.2, 1e-7); /* a polygon's corners on a line */
    /* a gear mesh whose stiffness varies over the mesh cycle (its factor's slope and the
       torque of its potential on the pinion), external and internal */
    check_contact_jacobian("gear_mesh_cycle", 2e-3, 1e-7);
    check_contact_jacobian("gear_internal", 2e-3, 1e-7);
    /* the same at a phase that puts the first impact (u = 0.8627 + phase) on the rising step
       of the stiffness, [-0.025, 0.025] of the cycle: its slope and curvature enter */
    check_contact_jacobian_with("gear_mesh_cycle", "gear_pair[mesh].mesh_phase=0.147", 2e-3, 1e-7);
}

/* every kind of applied load and a translational joint, with Baumgarte terms */
TEST(analytic_jacobian_matches_finite_differences_with_springs_dampers_and_loads)
{
    clink_model_builder *b = clink_model_builder_create();
    clink_body_def bd = clink_default_body_def();
    bd.mass = 1.3;
    bd.inertia = 0.07;
    ENSURE(clink_model_builder_add_body(b, &bd, NULL) == CLINK_OK);
    bd.mass = 0.8;
    bd.inertia = 0.03;
    ENSURE(clink_model_builder_add_body(b, &bd, NULL) == CLINK_OK);
    clink_joint_def jd = clink_default_joint_def();
    jd.body_a = 0;
    jd.body_b = 1;
    jd.point_b[0] = -0.4;
    ENSURE(clink_model_builder_add_joint(b, &jd, NULL) == CLINK_OK);
    jd = clink_default_joint_def();
    jd.type = CLINK_JOINT_TRANSLATIONAL;
    jd.body_a = 1;
    jd.body_b = 2;
    jd.point_a[0] = 0.2;
    jd.point_b[1] = 0.05;
    jd.axis_a[0] = 0.6;
    jd.axis_a[1] = 0.8;
    ENSURE(clink_model_builder_add_joint(b, &jd, NULL) == CLINK_OK);
    clink_force_def fd = clink_default_force_def();
    fd.type = CLINK_FORCE_SPRING_DAMPER;
    fd.body_a = 0;
    fd.body_b = 2;
    fd.point_a[0] = 1.0;
    fd.point_b[0] = 0.1;
    fd.point_b[1] = -0.07;
    fd.k = 300.0;
    fd.c = 4.0;
    fd.free_length = 0.3;
    fd.actuator = 2.0;
    ENSURE(clink_model_builder_add_force(b, &fd, NULL) == CLINK_OK);
    fd.body_a = 1;
    fd.point_a[1] = 0.12;
    ENSURE(clink_model_builder_add_force(b, &fd, NULL) == CLINK_OK);
    fd = clink_default_force_def();
    fd.type = CLINK_FORCE_ROTATIONAL_SPRING_DAMPER;
    fd.body_a = 1;
    fd.body_b = 2;
    fd.k = 20.0;
    fd.c = 0.5;
    fd.free_length = 0.1;
    ENSURE(clink_model_builder_add_force(b, &fd, NULL) == CLINK_OK);
    fd = clink_default_force_def();
    fd.type = CLINK_FORCE_POINT;
    fd.body_a = 2;
    fd.point_a[0] = 0.3;
    fd.point_a[1] = 0.1;
    fd.fx = 5.0;
    fd.fy = -2.0;
    ENSURE(clink_model_builder_add_force(b, &fd, NULL) == CLINK_OK);
    fd.type = CLINK_FORCE_TORQUE;
    fd.torque = 1.5;
    ENSURE(clink_model_builder_add_force(b, &fd, NULL) == CLINK_OK);
    clink_model *m = NULL;
    ENSURE(clink_model_builder_finalize(b, &m) == CLINK_OK);
    clink_model_builder_destroy(&b);
    if (!m)
        return;
    dyn_system *dyn = dyn_create(m);
    ENSURE(dyn != NULL);
    if (dyn) {
        dyn_set_baumgarte(dyn, 7.0, 11.0);
        double q[6], v[6], jq[36], jv[36], fq[36], fv[36], gq[36], gv[36];
        for (int i = 0; i < 6; i++) {
            q[i] = 0.4 * sin(1.3 * i + 0.2);
            v[i] = 1.7 * cos(0.9 * i + 0.5);
        }
        ENSURE(dyn_jacobian(dyn, 0.1, q, v, jq, jv) == CLINK_OK);
        ENSURE(dyn_jacobian_fd(dyn, 0.1, q, v, 1e-2, fq, fv) == CLINK_OK);
        ENSURE(dyn_jacobian_fd(dyn, 0.1, q, v, 1e-1, gq, gv) == CLINK_OK);
        compare("d qdd / dq", jq, fq, gq, 36, 1e-6);
        compare("d qdd / dv", jv, fv, gv, 36, 1e-6);
        dyn_destroy(&dyn);
    }
    clink_model_destroy(&m);
}

/* ---- the driver's state over what can change (sim.c, sim_reduction) -------- */

/*
 * Three discs without gravity, struck along the x axis, the third off the axis: the
 * first two start on the axis at rest in y (their y and angles are candidates for
 * leaving CVODE's state), but the oblique contact reaches them all. spin: a tiny
 * initial angular rate on every disc, which keeps every coordinate in the state.
 */
static clink_model *three_discs(double spin)
{
    clink_model_builder *b = clink_model_builder_create();
    ENSURE(clink_model_builder_set_gravity(b, 0.0, 0.0) == CLINK_OK);
    const double x[3] = {0.0, 0.05, 0.1}, y[3] = {0.0, 0.0, 0.01};
    for (int i = 0; i < 3; i++) {
        clink_body_def bd = clink_default_body_def();
        bd.mass = 0.1;
        bd.inertia = 5e-6;
        bd.x = x[i];
        bd.y = y[i];
        bd.vx = i == 0 ? 1.0 : 0.0;
        bd.omega = spin;
        ENSURE(clink_model_builder_add_body(b, &bd, NULL) == CLINK_OK);
    }
    for (int i = 0; i < 2; i++) {
        clink_contact_pair_def c = clink_default_contact_pair_def();
        c.body_a = i + 1;
        c.body_b = i + 2;
        c.shape_a.type = c.shape_b.type = CLINK_SHAPE_CIRCLE;
        c.shape_a.radius = c.shape_b.radius = 0.01;
        c.law = "hunt-crossley";
        c.params.K = 1e8;
        c.params.e = 0.8;
        ENSURE(clink_model_builder_add_contact_pair(b, &c, NULL) == CLINK_OK);
    }
    clink_settings_def st = clink_default_settings_def();
    st.method = CLINK_METHOD_BDF; /* the Jacobian under test is BDF's */
    st.drift = CLINK_DRIFT_PROJECTION;
    st.t_end = 0.1;
    st.output_step = 1e-3;
    st.max_step = 1e-4; /* free flight: no step may jump over a contact */
    ENSURE(clink_model_builder_set_settings(b, &st) == CLINK_OK);
    clink_model *m = NULL;
    ENSURE(clink_model_builder_finalize(b, &m) == CLINK_OK);
    clink_model_builder_destroy(&b);
    return m;
}

/* the discs' states at t_end (x, y, phi, then rates, per disc) */
static void run_discs(double spin, double out[18])
{
    char err[256];
    clink_model *m = three_discs(spin);
    clink_sim *sim = NULL;
    ENSURE(m && clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_OK);
    for (int k = 1; sim && k <= 100; k++)
        ENSURE(clink_sim_advance(sim, 1e-3 * k) == CLINK_OK);
    for (int i = 0; sim && i < 3; i++)
        ENSURE(clink_sim_body_state(sim, i + 1, out + 6 * i, out + 6 * i + 3) == CLINK_OK);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

/* coordinates left out of CVODE's state must be those that cannot change: the same motion
   as with every coordinate integrated, the oblique impact's y motion included */
TEST(coordinates_left_out_of_the_state_are_only_those_that_cannot_change)
{
    double red[18] = {0}, full[18] = {0};
    run_discs(0.0, red);
    run_discs(1e-300, full);
    double dmax = 0.0;
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 2; k++) {
            dmax = fmax(dmax, fabs(red[6 * i + k] - full[6 * i + k]) / 0.01);
            dmax = fmax(dmax, fabs(red[6 * i + 3 + k] - full[6 * i + 3 + k]) / 1.0);
        }
    printf("three discs: vy of the discs %.6g %.6g %.6g m/s; largest difference to the full "
           "state %.3g (of 0.01 m, 1 m/s)\n",
           red[4], red[10], red[16], dmax);
    ENSURE(fabs(red[16]) > 0.05); /* the off-axis disc was struck obliquely */
    ENSURE(fabs(red[10]) > 0.0);  /* and pushed back the one on the axis */
    ENSURE(dmax < 1e-6);
    ENSURE(red[2] == 0.0 && red[5] == 0.0); /* no moment on a frictionless centred disc */
}

/* ---- in contact: differences at steps scaled to the penetration ----------------------- */

/* central differences of dyn_accelerations: q columns step hq (m, rad), v columns hv (m/s,
   rad/s); 0 or -1 */
static int accel_differences(dyn_system *dyn, double t, int nq, double *q, double *v, double hq,
                             double hv, double *dq, double *dv)
{
    double *ap = calloc((size_t) nq, sizeof *ap), *am = calloc((size_t) nq, sizeof *am);
    int rc = ap && am ? 0 : -1;
    for (int side = 0; rc == 0 && side < 2; side++) {
        double *x = side ? v : q, *out = side ? dv : dq, h = side ? hv : hq;
        for (int j = 0; rc == 0 && j < nq; j++) {
            double xj = x[j];
            x[j] = xj + h;
            rc |= dyn_accelerations(dyn, t, q, v, ap, NULL) != CLINK_OK ? -1 : 0;
            x[j] = xj - h;
            rc |= dyn_accelerations(dyn, t, q, v, am, NULL) != CLINK_OK ? -1 : 0;
            x[j] = xj;
            for (int i = 0; i < nq; i++)
                out[(size_t) j * nq + i] = (ap[i] - am[i]) / (2.0 * h);
        }
    }
    free(ap);
    free(am);
    return rc;
}

/* largest |a - d| over the largest |d| (d: the differences at steps h and h / 2, Richardson's
   (4 d(h / 2) - d(h)) / 3 if d1 is given, else d(h / 2) alone) */
static double relative_error(const double *a, const double *d1, const double *d2, size_t n)
{
    double dmax = 0.0, emax = 0.0;
    for (size_t i = 0; i < n; i++) {
        double d = d1 ? (4.0 * d2[i] - d1[i]) / 3.0 : d2[i];
        dmax = fmax(dmax, fabs(d));
        emax = fmax(emax, fabs(a[i] - d));
    }
    return emax / (dmax > 0.0 ? dmax : 1.0);
}

/* the plain and extrapolated differences' errors at steps s delta (q) and s max(|delta_dot|,
   1e-3) (v), into err[4]: q plain, q extrapolated, v plain, v extrapolated */
static void errors_at(dyn_system *dyn, double t, int nq, double *q, double *v, double s,
                      double delta, double ddot, const double *jq, const double *jv, double err[4])
{
    size_t nn = (size_t) nq * nq;
    double *d1 = calloc(4 * nn, sizeof *d1);
    ENSURE(d1 != NULL);
    if (!d1)
        return;
    double *e1 = d1 + nn, *d2 = e1 + nn, *e2 = d2 + nn, hq = s * delta;
    double hv = s * fmax(fabs(ddot), 1e-3);
    ENSURE(accel_differences(dyn, t, nq, q, v, hq, hv, d1, e1) == 0);
    ENSURE(accel_differences(dyn, t, nq, q, v, 0.5 * hq, 0.5 * hv, d2, e2) == 0);
    err[0] = relative_error(jq, NULL, d2, nn);
    err[1] = relative_error(jq, d1, d2, nn);
    err[2] = relative_error(jv, NULL, e2, nn);
    err[3] = relative_error(jv, e1, e2, nn);
    free(d1);
}

/* advances sim in steps of t_max / 20000 until a contact penetrates by more than 1e-6 m,
   carries force and is compressing (at most to t_max); its penetration and rate; 1 if found */
static int run_until_compressing(clink_sim *sim, double t_max, double *delta, double *ddot)
{
    double dt = t_max / 20000.0;
    while (clink_sim_time(sim) + dt <= t_max) {
        if (clink_sim_advance(sim, clink_sim_time(sim) + dt) != CLINK_OK)
            return 0;
        for (int k = 0; k < clink_sim_contact_count(sim); k++) {
            clink_contact_info info;
            if (clink_sim_contact(sim, k, &info) == CLINK_OK && info.delta > 1e-6 &&
                info.fn > 0.0 && info.delta_dot > 0.0) {
                *delta = info.delta;
                *ddot = info.delta_dot;
                return 1;
            }
        }
    }
    return 0;
}

/*
 * The model's first compressing contact state (run_until_compressing), its analytic
 * Jacobian with the contact forces' companion, against central differences of the
 * accelerations at steps s delta on the coordinates (s delta_dot on the rates): the
 * plain differences' error must fall as h^2 from s = 5e-2 to 5e-3 (ratio 100, accepted
 * 50 to 200: an analytic error would stall it at its own size), and the Richardson
 * extrapolation of steps h and h / 2 at s = 5e-3 (truncation O(h^4)) must agree to tol of
 * the largest entry.
 */
static void check_in_contact(const char *name, double t_max, double tol)
{
    char path[512], err[256];
    snprintf(path, sizeof path, "%s/models/%s.xml", CLINK_SOURCE_DIR, name);
    clink_model *m = clink_model_load_xml(path, err, sizeof err);
    clink_sim *sim = NULL;
    ENSURE(m && clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_OK);
    double delta = 0.0, ddot = 0.0;
    int touching = sim && run_until_compressing(sim, t_max, &delta, &ddot);
    ENSURE(touching);
    int nq = m ? m->ncoords : 0;
    size_t nn = (size_t) nq * nq;
    double *q = calloc((size_t) nq + 1, sizeof *q), *v = calloc((size_t) nq + 1, sizeof *v);
    double *jq = calloc(nn + 1, sizeof *jq), *jv = calloc(nn + 1, sizeof *jv);
    dyn_system *dyn = m ? dyn_create(m) : NULL;
    contact_set *sc = m ? contacts_create(m, m->d.settings.settle_speed, err, sizeof err) : NULL;
    ENSURE(q && v && jq && jv && dyn && sc);
    if (touching && q && v && jq && jv && dyn && sc) {
        for (int i = 1; i < m->d.nbodies; i++)
            clink_sim_body_state(sim, i, q + 3 * (i - 1), v + 3 * (i - 1));
        double t = clink_sim_time(sim), lo[4], hi[4];
        if (m->d.settings.drift == CLINK_DRIFT_BAUMGARTE)
            dyn_set_baumgarte(dyn, m->d.settings.baumgarte_alpha, m->d.settings.baumgarte_beta);
        contacts_start(sc, q, v);
        dyn_set_external(dyn, contacts_forces, sc);
        dyn_set_external_jacobian(dyn, contacts_forces_jacobian);
        ENSURE(dyn_jacobian(dyn, t, q, v, jq, jv) == CLINK_OK);
        errors_at(dyn, t, nq, q, v, 5e-2, delta, ddot, jq, jv, hi);
        errors_at(dyn, t, nq, q, v, 5e-3, delta, ddot, jq, jv, lo);
        printf("%s at t = %.9g s, delta %.3g m, delta_dot %.3g m/s; error of the largest entry\n"
               "  d qdd / dq: plain %.3g (h = 2.5e-2 delta), %.3g (2.5e-3 delta), ratio %.4g; "
               "extrapolated %.3g\n  d qdd / dv: plain %.3g, %.3g; extrapolated %.3g\n",
               name, t, delta, ddot, hi[0], lo[0], hi[0] / lo[0], lo[1], hi[2], lo[2], lo[3]);
        ENSURE(hi[0] / lo[0] > 50.0 && hi[0] / lo[0] < 200.0);
        ENSURE(lo[1] <= tol);
        ENSURE(lo[3] <= tol);
    }
    contacts_destroy(&sc);
    dyn_destroy(&dyn);
    clink_sim_destroy(&sim);
    free(q);
    free(v);
    free(jq);
    free(jv);
    clink_model_destroy(&m);
}

/*
 * The whole analytic Jacobian (constraints, Baumgarte terms, the contact forces' companion)
 * in a compressing contact, where the fixed-step reference of the tests above is not
 * accurate: the force K delta^1.5 (1 + D delta_dot) has a second derivative in delta of
 * order F / delta^2, so a central difference at step h errs by O(h^2 / delta^2) of the
 * entry (at the fixed step 6e-6 |x| of dyn_jacobian_fd on the slider, about 1e-6 m, against
 * a penetration of micrometres, 2.7e-5 of the largest entry). Measured on the clearance
 * slider-crank (delta 1.2e-5 m), error of the largest entry: plain differences 1.0e-4 at
 * h = 5e-2 delta, 1.0e-6 at 5e-3 delta, 1.0e-8 at 5e-4 delta (h^2 down to the analytic
 * value); extrapolated (h, h / 2) 2.0e-7 at 1e-1 delta, 2.7e-10 at 1e-2 delta, and below that
 * roundoff, growing as 1 / h (2.9e-9 at 1e-3 delta, 2.4e-8 at 1e-4 delta). Bound 1e-8 of the
 * largest entry, 30 times the extrapolation's measured error.
 */
TEST(analytic_jacobian_matches_extrapolated_differences_in_contact)
{
    check_in_contact("slider_crank_clearance", 0.05, 1e-8);
    check_in_contact("slider_crank_clearance_frictionless", 0.05, 1e-8);
    check_in_contact("slider_crank_clearance_wang_liu", 0.05, 1e-8);
    check_in_contact("ball_drop", 1.0, 1e-8); /* a circle on a line */
    /* a capsule: its companion is itself differences (contacts_jacobian.c, steps 1e-6
       max(|x|, 1e-2)) whose roundoff grows as 1 / h on the rate columns: 1.9e-10, 2.6e-8 and
       1.7e-7 of the largest entry at 1e-5, 1e-6 and 1e-7 max(|x|, 1e-2) */
    check_in_contact("double_pendulum_impact", 1.3, 1e-7);
}
