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

/*
 * runs the model to t_run, then compares the two Jacobians at that state; companion:
 * the contact forces' analytic companion (contacts_forces_jacobian), else dyn_jacobian's
 * central differences of the contact hook
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

/*
 * With the contact hook differenced by dyn_jacobian itself (the rest of the analytic
 * Jacobian around a contact). With the analytic companion, the reference's own
 * truncation error at a stiff contact (h = 6e-6 |x| on the slider's position, against a
 * penetration of micrometres: 2.6e-5 of the largest entry in the frictionless clearance
 * joint, where the contact test below finds the companion within 2e-8 of converged
 * differences) exceeds what |F - F10| estimates, so the companion is checked here on the
 * models where the reference is good to the bound and against differences of the contact
 * forces alone in the next test.
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
static void check_contact_jacobian(const char *name, double t_max, double tol)
{
    char path[512], err[256];
    snprintf(path, sizeof path, "%s/models/%s.xml", CLINK_SOURCE_DIR, name);
    clink_model *m = clink_model_load_xml(path, err, sizeof err);
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
