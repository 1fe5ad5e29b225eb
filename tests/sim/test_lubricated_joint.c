/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The lubricated revolute clearance joint (src/elements/element_revolute_clearance.c, applied by
 * src/contacts/contacts_extra.c, <lubrication> of src/xml/xml_joints.c): the steady-load case
 * against Ocvirk's load capacity and attitude angle (clink_short_bearing_load, _attitude), the
 * energy balance with the film's power booked, and the trend of Flores, Ambrosio, Claro and
 * Lankarani (2009) in the slider-crank of models/: the lubricated journal stays inside its
 * clearance and the slider's peak acceleration is far below the dry joint's.
 */
#include "ensure.h"
#include "test_models.h"

#include "clink/lubrication.h"
#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/*
 * A shaft of 1 kg under gravity (W = 9.81 N), spun at 100 rad/s by a driver of its angle,
 * in a ground bearing: R = 10 mm, c = 0.1 mm, L = 10 mm, mu = 0.132 Pa s (the closed form
 * puts it near eps = 0.5). It starts concentric and at rest (translation). BDF: the
 * film's Jacobian is used (analytic, the default).
 */
static const char steady_xml[] =
    "<mechanism name=\"steady\">"
    "<settings t_end=\"0.5\" output_step=\"1e-3\" method=\"bdf\" rtol=\"1e-9\" atol=\"1e-12\"/>"
    "<gravity g=\"0 -9.81\"/>"
    "<materials><material name=\"steel\" E=\"207e9\" nu=\"0.3\"/></materials>"
    "<bodies><body name=\"shaft\" mass=\"1\" inertia=\"1e-4\" omega=\"100\"/></bodies>"
    "<joints><revolute_clearance name=\"brg\" journal=\"shaft\" bearing=\"ground\" "
    "journal_radius=\"0.01\" clearance=\"1e-4\" journal_material=\"steel\" "
    "bearing_material=\"steel\"><law name=\"lankarani-nikravesh\" e=\"0.9\"/>"
    "<lubrication viscosity=\"0.132\" length=\"0.01\"/></revolute_clearance></joints>"
    "<drivers><driver name=\"spin\" type=\"coordinate\" body=\"shaft\" coordinate=\"phi\">"
    "<linear initial=\"0\" rate=\"100\"/></driver></drivers></mechanism>";

/* a simulation of m run to 0.5 s in advances of 1 ms (NULL when it does not start) */
static clink_sim *settle(const clink_model *m)
{
    clink_sim *s = test_sim_start(m);
    ENSURE(s != NULL);
    for (int i = 1; s && i <= 500; i++)
        ENSURE(clink_sim_advance(s, 1e-3 * i) == CLINK_OK);
    return s;
}

/* the root of W(eps) = load in (0, 1) by bisection (W rises monotonically), W the short
   (clink_short_bearing_load) or long (clink_long_bearing_load) bearing's load capacity */
typedef double (*bearing_load_fn)(double mu, double omega, double R, double L, double c,
                                  double eps);
static double load_root(bearing_load_fn W, double mu, double omega, double R, double L, double c,
                        double load)
{
    double lo = 0.0, hi = 1.0 - 1e-12;
    for (int i = 0; i < 200; i++) {
        double mid = 0.5 * (lo + hi);
        if (W(mu, omega, R, L, c, mid) < load)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

TEST(a_journal_under_a_steady_load_settles_at_ocvirks_eccentricity_and_attitude)
{
    clink_model *m = test_model_xml(steady_xml, "steady.xml");
    ENSURE(m != NULL);
    clink_sim *s = NULL;
    ENSURE(clink_sim_create(m, NULL, &s, NULL, 0) == CLINK_OK);
    for (int i = 1; i <= 500; i++)
        ENSURE(clink_sim_advance(s, 1e-3 * i) == CLINK_OK);
    double q[3], v[3];
    ENSURE(clink_sim_body_state(s, 1, q, v) == CLINK_OK);
    double eps = hypot(q[0], q[1]) / 1e-4;
    double root = load_root(clink_short_bearing_load, 0.132, 100.0, 0.01, 0.01, 1e-4, 9.81);
    ENSURE(root > 0.45 && root < 0.55);
    ENSURE_NEAR(eps, root, 1e-5);
    printf("eps %.9f root %.9f phi %.9f att %.9f\n", eps, root, acos(-q[1] / hypot(q[0], q[1])),
           clink_short_bearing_attitude(root));
    /* the attitude: the angle between the load (-y) and the line of centres; the journal
       moves with the rotation (counter-clockwise: towards +x) */
    double phi = acos(-q[1] / hypot(q[0], q[1]));
    ENSURE(q[0] > 0.0);
    ENSURE_NEAR(phi, clink_short_bearing_attitude(root), 1e-5);
    /* the outputs of a lubricated joint: eccentricity ratio and minimum film thickness, the
       film force (world frame) and the dry share */
    ENSURE(clink_model_element_output_count(m, 0) == 5);
    const char *unit = NULL;
    ENSURE(strcmp(clink_model_element_output_name(m, 0, 0, &unit), "eccentricity_ratio") == 0);
    ENSURE(strcmp(clink_model_element_output_name(m, 0, 1, &unit), "film_min") == 0);
    ENSURE(strcmp(unit, "m") == 0);
    ENSURE(strcmp(clink_model_element_output_name(m, 0, 2, &unit), "film_Fx") == 0);
    ENSURE(strcmp(unit, "N") == 0);
    ENSURE(strcmp(clink_model_element_output_name(m, 0, 3, &unit), "film_Fy") == 0);
    ENSURE(strcmp(unit, "N") == 0);
    ENSURE(strcmp(clink_model_element_output_name(m, 0, 4, &unit), "dry_share") == 0);
    ENSURE(strcmp(unit, "-") == 0);
    double ground[3] = {0, 0, 0}, out[5];
    ENSURE(clink_model_element_outputs(m, 0, q, ground, out) == CLINK_OK);
    ENSURE_NEAR(out[0], eps, 1e-12);
    ENSURE_NEAR(out[1], 1e-4 - hypot(q[0], q[1]), 1e-18);
    /* the energy: the film's power booked as contact damping closes the balance; BDF with
       the film's Jacobian converged without trouble */
    clink_energy en;
    ENSURE(clink_sim_energy(s, &en) == CLINK_OK);
    ENSURE(en.contact_damping > 1e-6);
    ENSURE(fabs(en.balance) < 1e-6 * en.contact_damping);
    clink_sim_stats st;
    clink_sim_stats_get(s, &st);
    ENSURE(st.jac_evals > 0);
    ENSURE(st.nonlin_fails * 20 < st.steps);
    clink_sim_destroy(&s);
    clink_model_destroy(&m);
}

/* a shipped model's peak eccentricity ratio, slider peak |a_x| on the 1e-5 s grid after
   sample `from` (of 4800), final balance */
static void slider_crank(const char *file, int from, double *eps_max, double *acc_max,
                         double *balance, double *damping)
{
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/models/%s", CLINK_SOURCE_DIR, file);
    clink_model *m = NULL;
    *eps_max = *acc_max = *balance = NAN;
    if (clink_xml_load(path, &m, NULL, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    clink_sim *s = NULL;
    if (clink_sim_create(m, NULL, &s, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        clink_model_destroy(&m);
        return;
    }
    int rod = clink_model_find(m, CLINK_ENTITY_BODY, "rod");
    int slider = clink_model_find(m, CLINK_ENTITY_BODY, "slider");
    *eps_max = *acc_max = 0.0;
    for (int i = 1; i <= 4800; i++) {
        if (clink_sim_advance(s, 1e-5 * i) != CLINK_OK) {
            *eps_max = NAN;
            break;
        }
        double qr[3], qs[3], v[3], a[3];
        clink_sim_body_state(s, rod, qr, v);
        clink_sim_body_state(s, slider, qs, v);
        double ex = qr[0] + 0.06 * cos(qr[2]) - qs[0], ey = qr[1] + 0.06 * sin(qr[2]) - qs[1];
        *eps_max = fmax(*eps_max, hypot(ex, ey) / 5e-4);
        clink_sim_body_acceleration(s, slider, a);
        if (i > from)
            *acc_max = fmax(*acc_max, fabs(a[0]));
    }
    clink_energy en;
    clink_sim_energy(s, &en);
    *balance = en.balance;
    *damping = en.contact_damping;
    clink_sim_destroy(&s);
    clink_model_destroy(&m);
}

TEST(the_lubricated_slider_crank_keeps_its_journal_inside_and_its_slider_calm)
{
    double ed, ad, bd, dd, el, al, bl, dl;
    /* the dry run's peak over the whole run: its first impacts set it, and they are the
       same whatever the integrator's settings (later ones are chaotic: after 24 ms the
       peak was 191e3 m/s^2 with CVODE's Adams up to order 12 and 57e3 with order 6,
       docs/kernel.md); the lubricated one's once its film has settled, after 24 ms */
    slider_crank("slider_crank_clearance.xml", 0, &ed, &ad, &bd, &dd);
    slider_crank("slider_crank_lubricated.xml", 2400, &el, &al, &bl, &dl);
    printf("dry: eps max %.4f, slider |a_x| max %.0f m/s^2, balance %.3g J of %.3g J\n", ed, ad, bd,
           dd);
    printf("lubricated: eps max %.4f, slider |a_x| max %.0f m/s^2, balance %.3g J of %.3g J\n", el,
           al, bl, dl);
    /* the dry journal hits the bore; the lubricated one never touches it */
    ENSURE(ed > 1.0);
    ENSURE(el < 0.95);
    /* the ideal mechanism's peak is r omega^2 (1 + r / l) = 19.4e3 m/s^2 */
    ENSURE(al < 0.2 * ad);
    ENSURE(al < 1.1 * 0.05 * 523.598775598 * 523.598775598 * (1.0 + 0.05 / 0.12));
    /* the film's dissipation is booked: the balance closes */
    ENSURE(dl > 0.0);
    ENSURE(fabs(bl) < 1e-4 * dl);
}

TEST(a_dry_clearance_joint_has_no_film_and_no_extra_outputs)
{
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/models/slider_crank_clearance.xml", CLINK_SOURCE_DIR);
    clink_model *m = NULL;
    ENSURE(clink_xml_load(path, &m, NULL, err, sizeof err) == CLINK_OK);
    clink_clearance_joint_def d;
    ENSURE(clink_model_clearance_joint(m, 0, &d) == CLINK_OK);
    ENSURE(d.lubrication.viscosity == 0.0);
    ENSURE(clink_model_element_output_count(m, 0) == 0);
    clink_model_destroy(&m);
    snprintf(path, sizeof path, "%s/models/slider_crank_lubricated.xml", CLINK_SOURCE_DIR);
    ENSURE(clink_xml_load(path, &m, NULL, err, sizeof err) == CLINK_OK);
    ENSURE(clink_model_clearance_joint(m, 0, &d) == CLINK_OK);
    ENSURE(d.lubrication.viscosity > 0.0 && d.lubrication.length > 0.0);
    ENSURE(d.lubrication.theory == CLINK_LUBRICATION_SHORT);
    ENSURE(d.lubrication.transition == 0.95);
    clink_model_destroy(&m);
}

TEST(the_builder_refuses_a_film_out_of_range)
{
    clink_model_builder *b = clink_model_builder_create();
    clink_body_def bd = clink_default_body_def();
    ENSURE(clink_model_builder_add_body(b, &bd, NULL) == CLINK_OK);
    clink_clearance_joint_def d = clink_default_clearance_joint_def();
    ENSURE(d.lubrication.viscosity == 0.0 && d.lubrication.transition == 0.95);
    d.journal_radius = 0.0095;
    d.bearing_radius = 0.01;
    d.law = "hertz";
    d.params.K = 1e10;
    d.lubrication.viscosity = -1.0;
    d.lubrication.length = 0.01;
    ENSURE(clink_model_builder_add_clearance_joint(b, &d, NULL) == CLINK_ERR_RANGE);
    ENSURE(strstr(clink_model_builder_error(b), "viscosity") != NULL);
    d.lubrication.viscosity = 0.04;
    d.lubrication.length = 0.0;
    ENSURE(clink_model_builder_add_clearance_joint(b, &d, NULL) == CLINK_ERR_RANGE);
    ENSURE(strstr(clink_model_builder_error(b), "length") != NULL);
    d.lubrication.length = 0.01;
    d.lubrication.transition = 1.0;
    ENSURE(clink_model_builder_add_clearance_joint(b, &d, NULL) == CLINK_ERR_RANGE);
    d.lubrication.transition = 0.95;
    d.lubrication.theory = 7;
    ENSURE(clink_model_builder_add_clearance_joint(b, &d, NULL) == CLINK_ERR_RANGE);
    d.lubrication.theory = CLINK_LUBRICATION_SHORT;
    ENSURE(clink_model_builder_add_clearance_joint(b, &d, NULL) == CLINK_OK);
    clink_model_builder_destroy(&b);
}

/* ---- the long bearing, the outputs from forces ------------------------------------------ */

/* the steady shaft of steady_xml with the film's theory, viscosity and Jacobian given */
static clink_model *steady_model(const char *theory, double mu, const char *jacobian)
{
    char xml[sizeof steady_xml + 256], a[160];
    const char *at = strstr(steady_xml, "<lubrication");
    const char *end = strstr(at, "/>");
    snprintf(a, sizeof a,
             "<lubrication viscosity=\"%.17g\" length=\"0.01\" theory=\"%s\" "
             "jacobian=\"%s\"",
             mu, theory, jacobian);
    snprintf(xml, sizeof xml, "%.*s%s%s", (int) (at - steady_xml), steady_xml, a, end);
    return test_model_xml(xml, "steady.xml");
}

/*
 * The long bearing under the steady load of the shaft above (mu = 0.019 Pa s puts it near
 * eps = 0.5): it settles at the root of the half-Sommerfeld load capacity, at its attitude
 * angle, with the analytic Jacobian; the film force output carries the load (0, 9.81 N) and
 * the dry share is 0.
 */
TEST(a_long_bearing_under_a_steady_load_settles_at_the_sommerfeld_eccentricity_and_attitude)
{
    clink_model *m = steady_model("long", 0.019, "analytic");
    ENSURE(m != NULL);
    clink_sim *s = settle(m);
    if (s == NULL) {
        clink_model_destroy(&m);
        return;
    }
    double q[3], v[3], out[5];
    ENSURE(clink_sim_body_state(s, 1, q, v) == CLINK_OK);
    double eps = hypot(q[0], q[1]) / 1e-4,
           root = load_root(clink_long_bearing_load, 0.019, 100, 0.01, 0.01, 1e-4, 9.81);
    double phi = acos(-q[1] / hypot(q[0], q[1]));
    printf("long: eps %.9f root %.9f phi %.9f attitude %.9f\n", eps, root, phi,
           clink_long_bearing_attitude(root));
    ENSURE(root > 0.45 && root < 0.55);
    ENSURE_NEAR(eps, root, 1e-5);
    ENSURE(q[0] > 0.0);
    ENSURE_NEAR(phi, clink_long_bearing_attitude(root), 1e-5);
    ENSURE(clink_model_element_output_count(m, 0) == 5);
    ENSURE(clink_sim_element_outputs(s, 0, out) == CLINK_OK);
    ENSURE_NEAR(out[0], eps, 1e-12);
    ENSURE_NEAR(out[2], 0.0, 1e-4 * 9.81);
    ENSURE_NEAR(out[3], 9.81, 1e-4 * 9.81);
    ENSURE(out[4] == 0.0);
    clink_energy en;
    ENSURE(clink_sim_energy(s, &en) == CLINK_OK);
    ENSURE(fabs(en.balance) < 1e-6 * en.contact_damping);
    clink_sim_destroy(&s);
    clink_model_destroy(&m);
}

/* the film force on the shaft of steady_model at its state (q, v), recomputed here from the
   bearing formulas (ground bearing, centred journal point) */
static void film_here(int is_long, double mu, const double q[3], const double v[3], double f[2])
{
    const double R = 0.01, L = 0.01, c = 1e-4;
    double d = hypot(q[0], q[1]), n[2] = {q[0] / d, q[1] / d}, Fr, Ft;
    double eps_dot = (n[0] * v[0] + n[1] * v[1]) / c;
    double Omega = v[2] - 2.0 * (q[0] * v[1] - q[1] * v[0]) / (d * d);
    if (is_long)
        clink_long_bearing_force(mu, R, L, c, fmin(d / c, 0.95), eps_dot, Omega, &Fr, &Ft);
    else
        clink_short_bearing_force(mu, R, L, c, fmin(d / c, 0.95), eps_dot, Omega, &Fr, &Ft);
    f[0] = Fr * n[0] - Ft * n[1];
    f[1] = Fr * n[1] + Ft * n[0];
}

/*
 * The film force columns are the film at the output's own state: at every output of the
 * transient (where the integrator has evaluated its right-hand side beyond the output time
 * and interpolated back) they equal the force recomputed here from that output's state;
 * without a simulation (clink_model_element_outputs) they are NaN.
 */
TEST(the_film_force_outputs_are_the_film_at_the_outputs_own_state)
{
    for (int th = 0; th < 2; th++) {
        double mu = th ? 0.01 : 0.132;
        clink_model *m = steady_model(th ? "long" : "short", mu, "differences");
        clink_sim *s = NULL;
        ENSURE(m && clink_sim_create(m, NULL, &s, NULL, 0) == CLINK_OK);
        if (s == NULL) {
            clink_model_destroy(&m);
            continue;
        }
        double worst = 0.0;
        for (int i = 1; i <= 60; i++) {
            double q[3], v[3], out[5], f[2];
            ENSURE(clink_sim_advance(s, 7.3e-4 * i) == CLINK_OK);
            ENSURE(clink_sim_body_state(s, 1, q, v) == CLINK_OK);
            ENSURE(clink_sim_element_outputs(s, 0, out) == CLINK_OK);
            film_here(th, mu, q, v, f);
            double scale = hypot(f[0], f[1]);
            ENSURE(scale > 0.0);
            worst = fmax(worst, hypot(out[2] - f[0], out[3] - f[1]) / scale);
        }
        printf("%s: largest |output - film at the output's state| %.3g of the film force\n",
               th ? "long" : "short", worst);
        ENSURE(worst < 1e-12);
        double ground[3] = {0, 0, 0}, q[3] = {1e-5, -2e-5, 0}, out[5];
        ENSURE(clink_model_element_outputs(m, 0, q, ground, out) == CLINK_OK);
        ENSURE(isfinite(out[0]) && isfinite(out[1]));
        ENSURE(isnan(out[2]) && isnan(out[3]) && isnan(out[4]));
        clink_sim_destroy(&s);
        clink_model_destroy(&m);
    }
}

/*
 * The dry share: with a thin oil (mu = 1e-4 Pa s) the shaft sinks onto the bore and the dry
 * contact carries most of its weight; the share is |F_dry| / (|F_dry| + |F_film|) with the
 * contact's own force (clink_sim_contact) and the film recomputed here.
 */
TEST(the_dry_share_is_the_dry_forces_part_of_the_joint_force)
{
    clink_model *m = steady_model("short", 1e-4, "differences");
    clink_sim *s = NULL;
    ENSURE(m && clink_sim_create(m, NULL, &s, NULL, 0) == CLINK_OK);
    if (s == NULL) {
        clink_model_destroy(&m);
        return;
    }
    double early = NAN;
    for (int i = 1; i <= 300; i++) {
        ENSURE(clink_sim_advance(s, 1e-3 * i) == CLINK_OK);
        double out[5];
        ENSURE(clink_sim_element_outputs(s, 0, out) == CLINK_OK);
        if (i == 1)
            early = out[4];
    }
    double q[3], v[3], out[5], f[2];
    clink_contact_info ci;
    ENSURE(clink_sim_body_state(s, 1, q, v) == CLINK_OK);
    ENSURE(clink_sim_element_outputs(s, 0, out) == CLINK_OK);
    ENSURE(clink_sim_contact(s, 0, &ci) == CLINK_OK);
    film_here(0, 1e-4, q, v, f);
    double dry = hypot(ci.fn, ci.ft), film = hypot(f[0], f[1]);
    printf("thin film: eps %.4f, F_n %.4g N, film %.4g N, dry share %.6f (at 1 ms %.3g)\n", out[0],
           ci.fn, film, out[4], early);
    ENSURE(out[0] > 1.0 && ci.fn > 0.0);
    ENSURE_NEAR(out[4], dry / (dry + film), 1e-12);
    ENSURE(out[4] > 0.5 && out[4] < 1.0);
    ENSURE(early == 0.0); /* not yet touching */
    clink_sim_destroy(&s);
    clink_model_destroy(&m);
}

/* the steady short bearing with the Jacobian by differences: the same root, and BDF converges */
TEST(the_steady_load_case_converges_with_the_jacobian_by_differences_too)
{
    clink_model *m = steady_model("short", 0.132, "differences");
    clink_sim *s = settle(m);
    if (s == NULL) {
        clink_model_destroy(&m);
        return;
    }
    double q[3], v[3];
    ENSURE(clink_sim_body_state(s, 1, q, v) == CLINK_OK);
    ENSURE_NEAR(hypot(q[0], q[1]) / 1e-4,
                load_root(clink_short_bearing_load, 0.132, 100.0, 0.01, 0.01, 1e-4, 9.81), 1e-5);
    clink_sim_stats st;
    clink_sim_stats_get(s, &st);
    ENSURE(st.jac_evals > 0);
    ENSURE(st.nonlin_fails * 20 < st.steps);
    clink_sim_destroy(&s);
    clink_model_destroy(&m);
}

/* the validity findings of the steady shaft (theory, spin rate) over 0.05 s */
static int validity_findings(const char *theory, const char *rate)
{
    char xml[sizeof steady_xml + 256], buf[sizeof steady_xml + 256];
    /* the spin's sense in both places: the body's omega and the driver's rate */
    const char *a = strstr(steady_xml, "omega=\"100\""), *b = strstr(steady_xml, "rate=\"100\"");
    snprintf(buf, sizeof buf, "%.*somega=\"%s\"%.*srate=\"%s\"%s", (int) (a - steady_xml),
             steady_xml, rate, (int) (b - a - 11), a + 11, rate, b + 10);
    const char *at = strstr(buf, "<lubrication"), *end = strstr(at, "/>");
    snprintf(xml, sizeof xml,
             "%.*s<lubrication viscosity=\"0.132\" length=\"0.01\" theory=\"%s\"%s",
             (int) (at - buf), buf, theory, end);
    clink_model *m = test_model_xml(xml, "steady.xml");
    clink_sim *s = NULL;
    ENSURE(m && clink_sim_create(m, NULL, &s, NULL, 0) == CLINK_OK);
    int n = 0;
    if (s != NULL) {
        ENSURE(clink_sim_advance(s, 0.05) == CLINK_OK);
        for (int i = 0; i < clink_sim_finding_count(s); i++) {
            clink_sim_finding f;
            if (clink_sim_finding_get(s, i, &f) == CLINK_OK && f.kind == CLINK_FINDING_VALIDITY) {
                ENSURE(strstr(f.message, "'brg'") != NULL);
                n++;
            }
        }
    }
    clink_sim_destroy(&s);
    clink_model_destroy(&m);
    return n;
}

/*
 * The long bearing keeps the pi-film for both senses of rotation, so a long-bearing film
 * turning backwards is outside its validity: a warning naming the joint, once; the short
 * bearing (whose film follows its pressure) and a forward long bearing give none.
 */
TEST(a_long_bearing_turning_backwards_is_named_as_outside_its_validity)
{
    ENSURE(validity_findings("long", "-100") == 1);
    ENSURE(validity_findings("long", "100") == 0);
    ENSURE(validity_findings("short", "-100") == 0);
}
