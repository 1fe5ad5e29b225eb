/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Tests of src/analysis: static equilibrium (analysis_equilibrium.c), linearised modes
 * (analysis_modes.c), the kinematic sweep (analysis_kinematics.c) and their refusals. The
 * closed-form and independent references are in validation/val_analysis_*.c.
 */
#include "../ensure.h"
#include "../test_models.h"

#include "analysis/analysis_internal.h"
#include "clink/analysis.h"

#include <math.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

/* a rod of 1 m, 2 kg pinned at one end, released at 40 degrees; optional rotational spring
   and damper at the pivot */
static clink_model *pendulum(double k, double c)
{
    char xml[2048];
    snprintf(xml, sizeof xml,
             "<mechanism name='p'><gravity g='0 -9.81'/><bodies>"
             "<body name='rod' mass='2' inertia='0.1666666666666667' x='0.3213938048432697' "
             "y='-0.3830222215594890' phi='-0.8726646259971648'/></bodies><joints>"
             "<revolute name='pivot' body1='ground' point1='0 0' body2='rod' point2='-0.5 0'/>"
             "</joints><loads><rotational_spring_damper name='s' body1='ground' body2='rod' "
             "stiffness='%.17g' damping='%.17g' angle='-1.5707963267948966'/></loads></mechanism>",
             k, c);
    return test_model_xml(xml, "pendulum");
}

static clink_analysis *analysis_of(const clink_model *m)
{
    clink_analysis *a = NULL;
    char err[512];
    if (m == NULL || clink_analysis_create(m, NULL, &a, err, sizeof err) != CLINK_OK)
        fprintf(stderr, "analysis: %s\n", m == NULL ? "no model" : err);
    return a;
}

/* the equilibrium of m (default options) is refused with status, its message holding part and
   part2 (unless NULL); m is destroyed */
static void ensure_refused(clink_model *m, clink_status status, const char *part, const char *part2)
{
    clink_analysis *a = analysis_of(m);
    clink_equilibrium_result r;
    ENSURE(clink_analysis_equilibrium(a, NULL, &r) == status);
    const char *msg = clink_analysis_error(a);
    ENSURE(strstr(msg, part) != NULL);
    if (part2)
        ENSURE(strstr(msg, part2) != NULL);
    clink_analysis_destroy(&a);
    clink_model_destroy(&m);
}

TEST(equilibrium_of_a_pendulum_hangs_below_its_pivot_and_its_reaction_carries_the_weight)
{
    clink_model *m = pendulum(0.0, 0.0);
    clink_analysis *a = analysis_of(m);
    clink_equilibrium_result r;
    double q[3], f[3];
    ENSURE(clink_analysis_equilibrium(a, NULL, &r) == CLINK_OK);
    clink_analysis_state(a, q, NULL);
    ENSURE_NEAR(q[0], 0.0, 1e-12);
    ENSURE_NEAR(q[1], -0.5, 1e-12);
    ENSURE_NEAR(q[2], -PI / 2, 1e-12);
    ENSURE(clink_analysis_joint_reaction(a, 0, f) == CLINK_OK);
    /* the force on the rod at the pin holds its weight */
    ENSURE_NEAR(f[1], 2.0 * 9.81, 1e-9);
    ENSURE(r.stable == 1);
    ENSURE(r.residual <= r.tolerance);
    ENSURE(r.fallback == 0);
    clink_analysis_destroy(&a);
    clink_model_destroy(&m);
}

TEST(relaxation_first_reaches_the_equilibrium_newton_reaches_and_says_it_was_used)
{
    clink_model *m = pendulum(0.0, 0.0);
    clink_analysis *a = analysis_of(m);
    clink_equilibrium_options o = clink_default_equilibrium_options();
    clink_equilibrium_result r;
    double q[3];
    o.relax_first = 1;
    ENSURE(clink_analysis_equilibrium(a, &o, &r) == CLINK_OK);
    clink_analysis_state(a, q, NULL);
    ENSURE_NEAR(q[2], -PI / 2, 1e-12);
    ENSURE(r.fallback == 1);
    ENSURE(r.fallback_steps > 0);
    clink_analysis_destroy(&a);
    clink_model_destroy(&m);
}

TEST(an_inverted_pendulum_start_ends_at_the_stable_equilibrium_unless_unstable_is_accepted)
{
    clink_analysis *a;
    clink_equilibrium_options o = clink_default_equilibrium_options();
    clink_equilibrium_result r;
    double q[3];
    /* the rod almost upright: Newton goes to the upright (unstable) equilibrium */
    char xml[] = "<mechanism name='p'><gravity g='0 -9.81'/><bodies><body name='rod' mass='2' "
                 "inertia='0.1666666666666667' x='0.01' y='0.4999' phi='1.55'/></bodies><joints>"
                 "<revolute name='pivot' body1='ground' point1='0 0' body2='rod' point2='-0.5 "
                 "0'/></joints></mechanism>";
    clink_model *up = test_model_xml(xml, "upright");
    a = analysis_of(up);
    o.accept_unstable = 1;
    ENSURE(clink_analysis_equilibrium(a, &o, &r) == CLINK_OK);
    clink_analysis_state(a, q, NULL);
    ENSURE_NEAR(q[2], PI / 2, 1e-10);
    ENSURE(r.stable == 0);
    ENSURE(r.min_stiffness < 0.0);
    clink_analysis_destroy(&a);
    a = analysis_of(up);
    o.accept_unstable = 0;
    ENSURE(clink_analysis_equilibrium(a, &o, &r) == CLINK_OK);
    clink_analysis_state(a, q, NULL);
    ENSURE_NEAR(fabs(remainder(q[2] + PI / 2, 2 * PI)), 0.0, 1e-10);
    ENSURE(r.stable == 1);
    ENSURE(r.fallback == 1);
    clink_analysis_destroy(&a);
    clink_model_destroy(&up);
}

TEST(a_free_body_under_gravity_is_refused_naming_its_free_motion)
{
    clink_model *m = test_model_xml("<mechanism name='f'><gravity g='0 -9.81'/><bodies>"
                                    "<body name='stone' mass='1' inertia='0.1'/></bodies>"
                                    "</mechanism>",
                                    "free");
    ensure_refused(m, CLINK_ERR_SINGULAR, "no static equilibrium: free motion along body 'stone' y",
                   "net generalised force 9.81");
}

TEST(a_body_without_forces_is_a_singular_equilibrium_with_its_null_direction_named)
{
    clink_model *m =
        test_model_xml("<mechanism name='s'><gravity g='0 0'/><bodies><body name='puck' "
                       "mass='1' inertia='0.1'/></bodies><joints><translational name='rail' "
                       "body1='ground' point1='0 0' body2='puck' point2='0 0' axis='1 0'/>"
                       "</joints></mechanism>",
                       "neutral");
    ensure_refused(m, CLINK_ERR_SINGULAR, "singular equilibrium: no stiffness along body 'puck' x",
                   "not isolated");
}

TEST(a_driver_that_moves_has_no_equilibrium_and_is_refused_by_name)
{
    clink_model *m = clink_model_load_xml(CLINK_SOURCE_DIR "/models/slider_crank.xml", NULL, 0);
    ensure_refused(m, CLINK_ERR_MODEL, "driver 'motor' moves", NULL);
}

TEST(a_damped_pendulum_mode_has_the_closed_form_frequency_and_damping_ratio)
{
    /* about the pivot: J_O = J + m (L/2)^2, stiffness m g L/2 + k, damping c */
    double k = 3.0, c = 0.4, JO = 0.1666666666666667 + 2.0 * 0.25, K = 2.0 * 9.81 * 0.5 + k;
    clink_model *m = pendulum(k, c);
    clink_analysis *a = analysis_of(m);
    clink_equilibrium_result r;
    clink_mode md;
    ENSURE(clink_analysis_equilibrium(a, NULL, &r) == CLINK_OK);
    ENSURE(clink_analysis_modes(a) == CLINK_OK);
    ENSURE(clink_analysis_mode_count(a) == 1);
    ENSURE(clink_analysis_mode(a, 0, &md, NULL) == CLINK_OK);
    ENSURE_REL(md.frequency, sqrt(K / JO) / (2 * PI), 1e-11);
    ENSURE_REL(md.damping_ratio, c / (2 * sqrt(K * JO)), 1e-10);
    ENSURE(md.zero == 0 && md.unstable == 0);
    clink_analysis_destroy(&a);
    clink_model_destroy(&m);
}

TEST(modes_of_a_free_body_are_zero_eigenvalues_named_by_their_direction)
{
    clink_model *m = test_model_xml("<mechanism name='f'><gravity g='0 0'/><bodies>"
                                    "<body name='stone' mass='1' inertia='0.1'/></bodies>"
                                    "</mechanism>",
                                    "free");
    clink_analysis *a = analysis_of(m);
    clink_mode md;
    double shape[3];
    char desc[256];
    ENSURE(clink_analysis_modes(a) == CLINK_OK);
    ENSURE(clink_analysis_dof(a) == 3);
    ENSURE(clink_analysis_mode_count(a) >= 3);
    ENSURE(clink_analysis_mode(a, 0, &md, shape) == CLINK_OK);
    ENSURE(md.zero == 1);
    clink_analysis_describe(a, shape, desc, sizeof desc);
    ENSURE(strstr(desc, "body 'stone'") != NULL);
    clink_analysis_destroy(&a);
    clink_model_destroy(&m);
}

TEST(modes_about_a_run_need_a_later_time_and_follow_the_state_there)
{
    clink_model *m = pendulum(0.0, 0.0);
    clink_analysis *a = analysis_of(m);
    ENSURE(clink_analysis_advance(a, 0.0) == CLINK_ERR_RANGE);
    ENSURE(clink_analysis_advance(a, 0.2) == CLINK_OK);
    ENSURE_NEAR(clink_analysis_time(a), 0.2, 0.0);
    ENSURE(clink_analysis_modes(a) == CLINK_OK);
    ENSURE(clink_analysis_mode_count(a) >= 1);
    clink_analysis_destroy(&a);
    clink_model_destroy(&m);
}

TEST(kinematics_refuses_a_mechanism_with_a_free_degree_of_freedom_or_no_driver)
{
    char err[512];
    clink_kinematics *k = NULL;
    clink_model *m = pendulum(0.0, 0.0);
    ENSURE(clink_kinematics_sweep(m, NULL, &k, err, sizeof err) == CLINK_ERR_MODEL);
    ENSURE(strstr(err, "no driver") != NULL);
    ENSURE(k == NULL);
    clink_model_destroy(&m);
    m = clink_model_load_xml(CLINK_SOURCE_DIR "/models/slider_crank.xml", NULL, 0);
    clink_kinematics_options o = clink_default_kinematics_options();
    o.steps = 0;
    ENSURE(clink_kinematics_sweep(m, &o, &k, err, sizeof err) == CLINK_ERR_RANGE);
    clink_model_destroy(&m);
    m = test_model_xml("<mechanism name='d'><gravity g='0 -9.81'/><bodies>"
                       "<body name='a' mass='1' inertia='0.1' x='0.5'/>"
                       "<body name='b' mass='1' inertia='0.1' x='1.5'/></bodies><joints>"
                       "<revolute name='j1' body1='ground' point1='0 0' body2='a' point2='-0.5 0'/>"
                       "<revolute name='j2' body1='a' point1='0.5 0' body2='b' point2='-0.5 0'/>"
                       "</joints><drivers><driver name='m' type='angle' joint='j1'>"
                       "<linear initial='0' rate='1'/></driver></drivers></mechanism>",
                       "double");
    ENSURE(clink_kinematics_sweep(m, NULL, &k, err, sizeof err) == CLINK_ERR_MODEL);
    ENSURE(strstr(err, "keeps 1 degree(s) of freedom") != NULL);
    clink_model_destroy(&m);
}

TEST(kinematics_of_the_slider_crank_keeps_the_slider_on_its_closed_form_path)
{
    char err[512];
    clink_kinematics *k = NULL;
    clink_model *m = clink_model_load_xml(CLINK_SOURCE_DIR "/models/slider_crank.xml", NULL, 0);
    clink_kinematics_options o = clink_default_kinematics_options();
    o.steps = 72;
    ENSURE(clink_kinematics_sweep(m, &o, &k, err, sizeof err) == CLINK_OK);
    ENSURE(clink_kinematics_rows(k) == 73);
    int cx = -1;
    for (int c = 0; c < clink_kinematics_columns(k); c++)
        if (strcmp(clink_kinematics_column_name(k, c), "slider.x") == 0)
            cx = c;
    ENSURE(cx > 0);
    for (int r = 0; r < clink_kinematics_rows(k) && cx > 0; r++) {
        const double *row = clink_kinematics_row(k, r);
        double th = row[0],
               s = 0.05 * cos(th) + sqrt(0.12 * 0.12 - 0.05 * 0.05 * sin(th) * sin(th));
        ENSURE(row[1] == 1.0);
        ENSURE_NEAR(row[cx], s, 1e-12);
    }
    clink_kinematics_destroy(&k);
    clink_model_destroy(&m);
}

TEST(a_large_mechanism_gets_the_same_equilibrium_and_modes_from_sparse_solves_as_from_the_svd)
{
    /* the 81-body N-four-bar: 242 rows, above ANALYSIS_SVD_MAX; the projections and the
       differences against the dense SVD and the analytic Jacobian */
    clink_model *m = clink_model_load_xml(CLINK_SOURCE_DIR "/models/n_four_bar.xml", NULL, 0);
    clink_analysis *sparse = analysis_of(m), *dense = analysis_of(m);
    clink_equilibrium_result rs, rd;
    clink_mode ms, md;
    static double qs[243], qd[243];
    ENSURE(sparse != NULL && dense != NULL);
    if (sparse == NULL || dense == NULL)
        return;
    dense->dense_always = 1;
    ENSURE(clink_analysis_equilibrium(sparse, NULL, &rs) == CLINK_OK);
    ENSURE(clink_analysis_equilibrium(dense, NULL, &rd) == CLINK_OK);
    ENSURE(clink_analysis_dof(sparse) == 1 && clink_analysis_dof(dense) == 1);
    clink_analysis_state(sparse, qs, NULL);
    clink_analysis_state(dense, qd, NULL);
    for (int c = 0; c < 243; c++)
        ENSURE_NEAR(qs[c], qd[c], 1e-9);
    ENSURE(rs.stable == 1 && rd.stable == 1);
    ENSURE(clink_analysis_modes(sparse) == CLINK_OK && clink_analysis_modes(dense) == CLINK_OK);
    ENSURE(clink_analysis_mode(sparse, 0, &ms, NULL) == CLINK_OK);
    ENSURE(clink_analysis_mode(dense, 0, &md, NULL) == CLINK_OK);
    ENSURE_REL(ms.frequency, md.frequency, 1e-7);
    clink_analysis_destroy(&sparse);
    clink_analysis_destroy(&dense);
    clink_model_destroy(&m);
}

TEST(a_rod_resting_on_the_floor_through_its_contact_carries_half_its_weight_there)
{
    /* a uniform rod of 1 m and 1 kg pinned at (0, 0.05); a circle of radius 0.0501 at its tip
       starts 0.1 mm into a frictionless floor: the contact's force law holds the tip, and the
       moments about the pin give F = m g / 2 */
    clink_model *m = test_model_xml(
        "<mechanism name='rest'><gravity g='0 -9.81'/><materials><material name='steel' "
        "E='207e9' nu='0.3' density='7800'/></materials><bodies><body name='rod' mass='1' "
        "inertia='0.0833333333333333' x='0.5' y='0.05' material='steel'/></bodies><joints>"
        "<revolute name='pin' body1='ground' point1='0 0.05' body2='rod' point2='-0.5 0'/>"
        "</joints><contacts><pair name='tip'><circle body='rod' center='0.5 0' "
        "radius='0.0501'/><line body='ground' point='0 0' normal='0 1' material='steel'/>"
        "<law name='gonthier-exact' e='0.8'/></pair></contacts></mechanism>",
        "rest");
    clink_analysis *a = analysis_of(m);
    clink_equilibrium_result r;
    double f[3], q[3];
    ENSURE(clink_analysis_equilibrium(a, NULL, &r) == CLINK_OK);
    ENSURE(clink_analysis_contact_force(a, 1, f) == CLINK_OK);
    clink_analysis_state(a, q, NULL);
    /* the force at the tip, 0.5 m from the centre along the rod: fy, and its moment */
    ENSURE_REL(f[1], 0.5 * 9.81, 1e-6);
    ENSURE_NEAR(f[0], 0.0, 1e-9);
    ENSURE_REL(f[2], 0.5 * cos(q[2]) * f[1], 1e-3);
    ENSURE(r.stable == 1);
    /* the tip (radius 0.0501 under a pin 0.05 high) lifts the rod by 0.2 mrad less the
       contact's compliance */
    ENSURE(q[2] > 0.0 && q[2] < 2e-4);
    clink_analysis_destroy(&a);
    clink_model_destroy(&m);
}
