/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A pendulum with LuGre friction (Canudas de Wit, Olsson, Astrom and Lischinsky 1995) in
 * its revolute joint (docs/friction.md, "Joint friction"; the joint's bristle state z is
 * a component of the integrated state): held below the breakaway torque, and released
 * above it. A body of 1 kg, J = 1/12 kg m^2, pinned at l = 0.5 m above its centre to the
 * ground by a revolute joint on a pin of radius r = 0.02 m, released at rest with z = 0.
 *
 * Held (presliding): preload P = 2 N, mu = 0.3, mu_s = 0.4, v_s = 0.1 m/s (far above the
 * presliding slip speeds, so that mu(v) = mu_s to 1e-6), sigma0 = 1e5 1/m, sigma1 =
 * 16000 s/m (the bristle mode over-damped, about 3 times critical: the slip grows
 * monotonically), released at theta0 = 0.01156 rad where gravity's moment is 0.6 of the
 * breakaway torque r mu_s (m g + P). The pendulum turns by a slip x = r (theta0 - theta)
 * on the pin and stops. Closed form (clink not involved): under a monotonic slip from
 * z = 0 at mu(v) = mu_s the bristle state is z(x) = (mu_s / sigma0) (1 - exp(-sigma0 x /
 * mu_s)), and at rest the bristle torque holds gravity's moment with the normal force
 * |R| + P = m g + P: r (m g + P) sigma0 z(x) = m g l sin(theta0 - x / r), solved for x by
 * bisection; z_ss = m g l sin theta / (r sigma0 (m g + P)) is the steady deflection
 * (the brief's F / sigma0, scaled by the pin radius and the load). Checks: the final
 * angle within 1e-10 rad of the closed form (the deflection is 1.8e-4 rad), the slip
 * monotonic (the closed form's premise), the angular speed at 5 s below 1e-9 rad/s (held).
 *
 * Released (sliding, sticking): preload P = 1 N, mu = 0.3, mu_s = 0.4, v_s = 1e-3 m/s,
 * sigma0 = 1e5 1/m, sigma1 = 316 s/m, sigma2 = 0.05 N s/m, theta0 = 0.5 rad (gravity's
 * moment 63 times the breakaway torque): against an independent SciPy reference of the
 * same equations (validation/ref_friction_pendulum_lugre.py: one angle and z, the pin's
 * reaction from Newton's law, the implicit dependence of friction on reaction solved by
 * Brent's method, Radau at rtol 1e-11). Checks: the 18 reversals of the swing (times
 * within 1e-6 s, angles within 1e-7 rad; seen: 4e-8 s, 7e-9 rad), the angle at 20 s
 * (stuck, ringing in the bristle spring) within 2e-8 rad (seen: 6e-9 rad, 7e-10 rad at
 * rtol 1e-11: clink's integration error), and inside the sticking zone m g l |sin theta|
 * <= r mu_s (m g + P); the energy balance T + V - W_l (the friction's work booked with the
 * loads, the bristle's stored energy 1/2 F_n sigma0 z^2 included in it) within 1e-7 of
 * m g l (1 - cos theta0) in both runs (seen: 4e-11 held, 1.2e-8 released).
 */
#include "vjson.h"

#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define NT 18

static const double M = 1.0, L = 0.5, G = 9.81, R_PIN = 0.02, MU_S = 0.4, SIGMA0 = 1e5;

/* the held case's data */
static const double HELD_TH0 = 0.01156, HELD_P = 2.0;

static clink_model *pendulum(double th0, double preload, const char *law, double t_end)
{
    static char xml[2048];
    snprintf(xml, sizeof xml,
             "<mechanism name=\"friction_pendulum_lugre\">\n"
             "  <settings t_end=\"%g\" output_step=\"1e-3\" method=\"bdf\" rtol=\"1e-10\" "
             "atol=\"1e-14\" drift=\"projection\"/>\n"
             "  <gravity g=\"0 %.17g\"/>\n"
             "  <bodies><body name=\"bob\" mass=\"1\" inertia=\"%.17g\" x=\"%.17g\" y=\"%.17g\" "
             "phi=\"%.17g\"/></bodies>\n"
             "  <joints><revolute name=\"pin\" body1=\"ground\" body2=\"bob\" point1=\"0 0\" "
             "point2=\"0 %.17g\" friction_radius=\"%g\" friction_preload=\"%g\">\n"
             "    <friction type=\"lugre\" %s/>\n"
             "  </revolute></joints>\n"
             "</mechanism>\n",
             t_end, -G, 1.0 / 12.0, L * sin(th0), -L * cos(th0), th0, L, R_PIN, preload, law);
    clink_model *model = NULL;
    char err[512];
    if (clink_xml_load_memory(xml, strlen(xml), "pendulum.xml", &model, NULL, err, sizeof err) !=
        CLINK_OK)
        fprintf(stderr, "%s\n", err);
    return model;
}

static clink_sim *start(clink_model *model)
{
    clink_sim *sim = NULL;
    char err[512];
    if (!model || clink_sim_create(model, NULL, &sim, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", model ? err : "no model");
        return NULL;
    }
    return sim;
}

/* the closed form of the held case: the slip x (m) at rest, by bisection */
static double held_slip(double th0)
{
    double fn = M * G + HELD_P, lo = 0.0, hi = MU_S / SIGMA0 * 10.0;
    for (int it = 0; it < 200; it++) {
        double x = 0.5 * (lo + hi);
        double z = MU_S / SIGMA0 * (1.0 - exp(-SIGMA0 * x / MU_S));
        double f = R_PIN * fn * SIGMA0 * z - M * G * L * sin(th0 - x / R_PIN);
        if (f > 0.0)
            hi = x;
        else
            lo = x;
    }
    return 0.5 * (lo + hi);
}

/* the balance T + V - W_l now, relative to its start e0 and the scale */
static double balance(const clink_sim *sim)
{
    clink_energy e;
    clink_sim_energy(sim, &e);
    return e.kinetic + e.gravity - e.work_loads;
}

static int held(vjson *vj)
{
    clink_model *model = pendulum(HELD_TH0, HELD_P,
                                  "mu=\"0.3\" mu_s=\"0.4\" v_s=\"0.1\" sigma0=\"1e5\" "
                                  "sigma1=\"16000\"",
                                  5.0);
    clink_sim *sim = start(model);
    if (!sim) {
        clink_model_destroy(&model);
        return 1;
    }
    double q[3], v[3], th_prev = HELD_TH0, rise = 0.0, worst = 0.0, e0 = NAN;
    double scale = M * G * L * (1.0 - cos(HELD_TH0));
    int failed = 0;
    for (int i = 1; i <= 5000 && !failed; i++) {
        failed = clink_sim_advance(sim, i * 1e-3) != CLINK_OK;
        clink_sim_body_state(sim, 1, q, v);
        rise = fmax(rise, q[2] - th_prev); /* the slip lowers theta monotonically */
        th_prev = q[2];
        double b = balance(sim);
        if (isnan(e0))
            e0 = b;
        worst = fmax(worst, fabs(b - e0) / scale);
    }
    if (failed)
        fprintf(stderr, "%s\n", clink_sim_error(sim));
    double x = held_slip(HELD_TH0), th = HELD_TH0 - x / R_PIN;
    double zss = M * G * L * sin(th) / (R_PIN * SIGMA0 * (M * G + HELD_P));
    vjson_row(vj,
              "held at 0.6 of the breakaway torque: angle at rest (closed form of the "
              "presliding slip)",
              q[2], th, 1e-10, "rad");
    vjson_info(vj, "held: the deflection theta0 - theta (closed form)", HELD_TH0 - th, "rad");
    vjson_info(vj, "held: the steady bristle deflection z_ss = m g l sin th / (r sigma0 F_n)", zss,
               "m");
    vjson_check(vj, "held: the slip monotonic (largest rise of theta between samples)", rise,
                "<= 1e-13 rad", rise <= 1e-13, "rad");
    vjson_check(vj, "held: angular speed at 5 s", fabs(v[2]), "<= 1e-9 rad/s", fabs(v[2]) <= 1e-9,
                "rad/s");
    vjson_row(vj, "held: energy balance T + V - W_l / (m g l (1 - cos th0))", worst, 0.0, 1e-7,
              "-");
    clink_sim_destroy(&sim);
    clink_model_destroy(&model);
    return failed;
}

/* a sign change of omega between (t0, w0) and (t1, w1) at least 0.3 s after the last one:
   the reversal's time and angle (omega linear between the samples) kept in turns */
static void reversal(double t0, double th0, double w0, double t1, double w1, double *last,
                     double *times, double *turns, int *nt)
{
    if (!(w0 * w1 < 0.0) || t1 - *last < 0.3 || *nt >= NT)
        return;
    double tau = (t1 - t0) * w0 / (w0 - w1);
    times[*nt] = t0 + tau;
    turns[*nt] = th0 + 0.5 * w0 * tau;
    (*nt)++;
    *last = t1;
}

static int released(vjson *vj, const vref *ref)
{
    const double th0 = 0.5, p = 1.0, h = 1e-4;
    clink_model *model = pendulum(th0, p,
                                  "mu=\"0.3\" mu_s=\"0.4\" v_s=\"1e-3\" sigma0=\"1e5\" "
                                  "sigma1=\"316\" sigma2=\"0.05\"",
                                  20.0);
    clink_sim *sim = start(model);
    if (!sim) {
        clink_model_destroy(&model);
        return 1;
    }
    double times[NT], turns[NT], q[3], v[3], last = 0.0, t0 = 0.0, th_0 = th0, w0 = 0.0;
    double worst = 0.0, e0 = NAN, scale = M * G * L * (1.0 - cos(th0));
    int nt = 0, failed = 0;
    for (int i = 1; i <= 200000 && !failed; i++) {
        failed = clink_sim_advance(sim, i * h) != CLINK_OK;
        clink_sim_body_state(sim, 1, q, v);
        reversal(t0, th_0, w0, i * h, v[2], &last, times, turns, &nt);
        t0 = i * h;
        th_0 = q[2];
        w0 = v[2];
        double b = balance(sim);
        if (isnan(e0))
            e0 = b;
        worst = fmax(worst, fabs(b - e0) / scale);
    }
    if (failed)
        fprintf(stderr, "%s\n", clink_sim_error(sim));
    for (int k = 0; k < nt; k++) {
        char key[32], what[96];
        snprintf(key, sizeof key, "time_%d", k + 1);
        snprintf(what, sizeof what, "released: time of reversal %d", k + 1);
        vjson_row(vj, what, times[k], vref_get(ref, key), 1e-6, "s");
        snprintf(key, sizeof key, "turn_%d", k + 1);
        snprintf(what, sizeof what, "released: angle at reversal %d", k + 1);
        vjson_row(vj, what, turns[k], vref_get(ref, key), 1e-7, "rad");
    }
    vjson_check(vj, "released: reversals of the swing found", nt, "as the reference's (18)",
                nt == NT && vref_get(ref, "n_turns") == NT, "-");
    vjson_row(vj, "released: angle at 20 s (stuck)", q[2], vref_get(ref, "theta_end"), 2e-8, "rad");
    double hold = asin(R_PIN * MU_S * (M * G + p) / (M * G * L));
    vjson_check(vj, "released: stuck inside m g l |sin th| <= r mu_s (m g + P)", q[2],
                "|theta| <= 0.0176 rad", fabs(q[2]) <= hold, "rad");
    vjson_row(vj, "released: energy balance T + V - W_l / (m g l (1 - cos th0))", worst, 0.0, 1e-7,
              "-");
    clink_sim_destroy(&sim);
    clink_model_destroy(&model);
    return failed;
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    if (vref_run(outdir, "ref_friction_pendulum_lugre.py", "") != 0)
        return 1;
    vref *ref = vref_load(outdir, "friction_pendulum_lugre_ref.csv");
    if (!ref)
        return 1;
    vjson *vj = vjson_open(outdir, "friction_pendulum_lugre",
                           "Pendulum with LuGre revolute joint friction: presliding against its "
                           "closed form, sliding and sticking against a SciPy reference");
    if (!vj)
        return 1;
    int failed = held(vj);
    failed |= released(vj, ref);
    vjson_check(vj, "every run completed", failed ? 0 : 1, "no failure", !failed, "-");
    vref_free(ref);
    return vjson_close(vj);
}
