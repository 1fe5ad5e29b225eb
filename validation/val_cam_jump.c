/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Cam-valve train (models/cam_valve_train.xml, docs/gears-cams.md): a flat-faced follower
 * (m = 0.1 kg) pressed by a spring (k = 2000 N/m, preload F0 = 20 N) onto a cam turning at
 * a constant w, its profile generated from a rise-dwell-fall-dwell law (base 20 mm, lift
 * h = 8 mm, rise and fall 120 deg, dwell 30 deg), a stiff Kelvin-Voigt contact (K = 1e8 N/m,
 * c = 6325 N s/m, critical: 2 sqrt(K m)), no gravity. Checked against what clink does not compute:
 *
 * 1. Below the jump speed (w = 150 rad/s, cycloidal): the lift y - R_b, the velocity and
 *    the acceleration against the law's closed forms s(w t), s' w, s'' w^2 (coded here from
 *    the law's definition) over 1.5 turns, sampled every 1e-4 s. Tolerances: the lift within
 *    the contact's largest deflection N_max / K (N_max = m s''_max w^2 + k h + F0, the force
 *    the closed form needs); the velocity within 2e-3 m/s and the acceleration within 2 % of
 *    its peak: the contact rings at sqrt(K / m) = 31 600 rad/s, excited by the law's jumps
 *    of jerk j = 4 pi^2 h w^3 / beta^3, with an acceleration of about j / sqrt(K / m) (3.7
 *    m/s^2) and a velocity of j m / K (1.2e-4 m/s), damped by c.
 * 2. The jump speed, harmonic and cycloidal rises: the closed form, the smallest w at which
 *    the contact force of rigid following N = m s'' w^2 + k s + F0 first reaches zero
 *    (w_j^2 = min over the decelerating part of (k s + F0) / (-m s''), the minimum found by
 *    a dense search and golden sections here), against the simulation's: the bisection of w
 *    (11 halvings from +-10 %) between runs whose follower never leaves the cam in the
 *    first turn and runs where it does (an impact is logged). Within 1 % (the contact's
 *    compliance shifts the threshold; measured 0.14 % cycloidal, 0.28 % harmonic). The
 *    contact is critically damped: a harmonic law's steps of acceleration would otherwise
 *    ring the stiff contact and throw the follower off below the rigid jump speed.
 * 3. Above it (w = 1.15 w_j, cycloidal): the first separation, the number of impacts and
 *    each one's time and approach speed against the independent SciPy reference
 *    validation/ref_cam_jump.py (one degree of freedom, the exact penetration of a flat face
 *    on its cam, event location) over 60 ms: the impacts ended in it equal in number (3),
 *    times and durations within 1e-7 s, speeds within 1e-5 relative (measured 7.0e-9 s for
 *    the separation, sampled every 1e-6 s and interpolated, 5.4e-9 s and 2.4e-7 for the
 *    impacts: clink's rtol 1e-9). The follower starts touching the cam at zero force: the
 *    contact's first episode begins at t = 0 and is not counted as a landing.
 */
#include "vjson.h"

#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MODEL CLINK_SOURCE_DIR "/models/cam_valve_train.xml"

static const double PI = 3.141592653589793, RB = 0.02, H = 0.008, BETA = 2.0943951023931953;
static const double M = 0.1, KS = 2000.0, F0 = 20.0, KC = 1e8;

/* the rise law's s, s', s'' at phi within the rise (own code, not the library's) */
static void rise(int harmonic, double phi, double s[3])
{
    double x = phi / BETA;
    if (harmonic) {
        s[0] = 0.5 * H * (1.0 - cos(PI * x));
        s[1] = 0.5 * H * PI / BETA * sin(PI * x);
        s[2] = 0.5 * H * PI * PI / (BETA * BETA) * cos(PI * x);
    } else {
        s[0] = H * (x - sin(2.0 * PI * x) / (2.0 * PI));
        s[1] = H / BETA * (1.0 - cos(2.0 * PI * x));
        s[2] = 2.0 * PI * H / (BETA * BETA) * sin(2.0 * PI * x);
    }
}

/* the law over the turn (rise, dwell 30 deg, fall mirrored, low dwell) */
static void law(int harmonic, double phi, double s[3])
{
    phi = fmod(phi, 2.0 * PI);
    const double d = PI / 6.0;
    memset(s, 0, 3 * sizeof *s);
    if (phi < BETA) {
        rise(harmonic, phi, s);
    } else if (phi < BETA + d) {
        s[0] = H;
    } else if (phi < 2.0 * BETA + d) {
        rise(harmonic, phi - BETA - d, s);
        s[0] = H - s[0];
        s[1] = -s[1];
        s[2] = -s[2];
    }
}

/* (k s + F0) / (-m s'') on the rise's decelerating half (x in [1/2, 1]) */
static double ratio(int harmonic, double phi)
{
    double s[3];
    rise(harmonic, phi, s);
    return s[2] < 0.0 ? (KS * s[0] + F0) / (-M * s[2]) : INFINITY;
}

/* the closed-form jump speed: min of the ratio (dense search, then golden sections) */
static double jump_speed(int harmonic)
{
    double best = INFINITY, at = 0.0;
    for (int i = 0; i <= 100000; i++) {
        double phi = BETA * (0.5 + 0.5 * i / 100000.0), r = ratio(harmonic, phi);
        if (r < best)
            best = r, at = phi;
    }
    double a = fmax(0.5 * BETA, at - BETA * 1e-5), b = fmin(BETA, at + BETA * 1e-5);
    const double g = 0.6180339887498949;
    for (int i = 0; i < 80; i++) {
        double c = b - g * (b - a), d = a + g * (b - a);
        if (ratio(harmonic, c) < ratio(harmonic, d))
            b = d;
        else
            a = c;
    }
    return sqrt(fmin(best, ratio(harmonic, 0.5 * (a + b))));
}

/* the model with its law and speed replaced, and its simulation */
static clink_sim *open_sim(int harmonic, double w, clink_model **model)
{
    char err[512], *text = NULL, rate[64];
    FILE *f = fopen(MODEL, "rb");
    if (!f)
        return NULL;
    text = calloc(1, 1 << 16);
    size_t n = text ? fread(text, 1, (1 << 16) - 1, f) : 0;
    fclose(f);
    if (!text || n == 0)
        return free(text), NULL;
    if (harmonic) {
        char *p = strstr(text, "law=\"cycloidal\"");
        if (!p)
            return free(text), NULL;
        memcpy(p, "law=\"harmonic\" ", 15);
    }
    snprintf(rate, sizeof rate, "driver[motor].linear.rate=%.17g", w);
    const char *sets[1] = {rate};
    clink_status st = clink_xml_load_memory_with(text, strlen(text), MODEL, sets, 1, NULL, model,
                                                 NULL, err, sizeof err);
    free(text);
    if (st != CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        return NULL;
    }
    return vsim_create(model);
}

/* the impacts after the start (the follower starts touching the cam at zero force: the
   contact's first episode begins at t = 0), the first n into r; their number */
static int impacts_after_start(const clink_sim *sim, clink_impact_record *r, int n)
{
    int k = 0;
    for (int i = 0; i < clink_sim_impact_count(sim); i++) {
        clink_impact_record x;
        if (clink_sim_impact(sim, i, &x) != CLINK_OK || x.t_onset < 1e-6)
            continue;
        if (k < n)
            r[k] = x;
        k++;
    }
    return k;
}

static int follow(vjson *v)
{
    clink_model *model = NULL;
    const double w = 150.0;
    clink_sim *sim = open_sim(0, w, &model);
    if (!sim)
        return -1;
    double el = 0.0, ev = 0.0, ea = 0.0, fmin_ = INFINITY;
    int rc = 0;
    /* from 1 ms: the start touching at zero force settles onto the preload in 0.2 ms */
    for (double t = 1e-3; t < 1.5 * 2.0 * PI / w && rc == 0; t += 1e-4) {
        double q[3], qd[3], a[3], s[3];
        clink_contact_info ci;
        if (clink_sim_advance(sim, t) != CLINK_OK ||
            clink_sim_body_state(sim, 2, q, qd) != CLINK_OK ||
            clink_sim_body_acceleration(sim, 2, a) != CLINK_OK ||
            clink_sim_contact(sim, 0, &ci) != CLINK_OK) {
            fprintf(stderr, "%s\n", clink_sim_error(sim));
            rc = -1;
            break;
        }
        law(0, w * clink_sim_time(sim), s);
        el = fmax(el, fabs(q[1] - RB - s[0]));
        ev = fmax(ev, fabs(qd[1] - s[1] * w));
        ea = fmax(ea, fabs(a[1] - s[2] * w * w));
        fmin_ = fmin(fmin_, ci.fn);
    }
    const double apeak = 2.0 * PI * H / (BETA * BETA) * w * w;
    const double nmax = M * apeak + KS * H + F0;
    vjson_row(v, "w = 150 rad/s: lift y - R_b against s(w t), largest error", el, 0.0, nmax / KC,
              "m");
    vjson_row(v, "w = 150 rad/s: velocity against s' w, largest error", ev, 0.0, 2e-3, "m/s");
    vjson_row(v, "w = 150 rad/s: acceleration against s'' w^2, largest error", ea, 0.0,
              0.02 * apeak, "m/s^2");
    vjson_check(v, "w = 150 rad/s: the contact force stays positive (no jump)", fmin_, "> 0",
                fmin_ > 0.0, "N");
    int landings = impacts_after_start(sim, NULL, 0);
    vjson_check(v, "w = 150 rad/s: no impact after the start", landings, "0", landings == 0, "-");
    clink_sim_destroy(&sim);
    clink_model_destroy(&model);
    return rc;
}

/* 1 if the follower leaves the cam in the first turn at w, 0 if not, -1 on error */
static int jumps(int harmonic, double w)
{
    clink_model *model = NULL;
    clink_sim *sim = open_sim(harmonic, w, &model);
    if (!sim)
        return -1;
    int r = clink_sim_advance(sim, 2.0 * PI / w) == CLINK_OK ? impacts_after_start(sim, NULL, 0) > 0
                                                             : -1;
    clink_sim_destroy(&sim);
    clink_model_destroy(&model);
    return r;
}

static int jump(vjson *v, int harmonic)
{
    double wj = jump_speed(harmonic), lo = 0.9 * wj, hi = 1.1 * wj;
    if (jumps(harmonic, lo) != 0 || jumps(harmonic, hi) != 1)
        return -1;
    for (int i = 0; i < 11; i++) {
        double mid = 0.5 * (lo + hi);
        int j = jumps(harmonic, mid);
        if (j < 0)
            return -1;
        *(j ? &hi : &lo) = mid;
    }
    char q[120];
    snprintf(q, sizeof q, "%s rise: jump speed, simulated against m s'' w^2 + k s + F0 = 0",
             harmonic ? "harmonic" : "cycloidal");
    vjson_row_rel(v, q, 0.5 * (lo + hi), wj, 0.01, "rad/s");
    return 0;
}

/* the first zero of the force of rigid following N = m s'' w^2 + k s + F0 in the rise at w:
   the cam angle (a scan of 1e5 points, then 100 bisections) */
static double rigid_zero(int harmonic, double w)
{
    double s[3], a = 0.0, b = NAN;
    for (int i = 1; i <= 100000 && isnan(b); i++) {
        double phi = BETA * i / 100000.0;
        rise(harmonic, phi, s);
        if (M * s[2] * w * w + KS * s[0] + F0 <= 0.0)
            b = phi;
        else
            a = phi;
    }
    for (int i = 0; i < 100 && !isnan(b); i++) {
        double c = 0.5 * (a + b);
        rise(harmonic, c, s);
        *(M * s[2] * w * w + KS * s[0] + F0 <= 0.0 ? &b : &a) = c;
    }
    return 0.5 * (a + b);
}

/*
 * The cam's first separation of each turn (its element output first_separation): in the
 * first turn against the closed form, the first zero of the rigid following's force at
 * phi* / w, within 1e-4 s (three time constants sqrt(m / K) = 3.2e-5 s of the contact: the
 * follower leaves where the contact, compressed by N / K and unloading through its damper,
 * opens, after the rigid force's zero; measured 6.4e-5 s), and in the first two turns against
 * SciPy's first separation of each turn (its separations grouped by the turn w t / (2 pi)),
 * within 1e-7 s as the separations above. Reads the output at the end of each turn (the
 * second at the run's end, 60 ms, within it).
 */
static void first_separations(vjson *v, clink_sim *sim, const vref *ref, double w, double t_end)
{
    double turn = 2.0 * PI / w, out[1];
    for (int n = 0; n < 2; n++) {
        double t = fmin((n + 1) * turn - 1e-6, t_end);
        if (clink_sim_advance(sim, t) != CLINK_OK || clink_sim_element_outputs(sim, 0, out) != 0)
            return;
        double ref_t = NAN;
        for (int k = 1; isnan(ref_t); k++) {
            char key[32];
            snprintf(key, sizeof key, "sep.%d.t", k);
            double tk = vref_get(ref, key);
            if (isnan(tk) || tk > t)
                break;
            if (tk >= n * turn)
                ref_t = tk;
        }
        char q[120];
        snprintf(q, sizeof q, "w = 1.15 w_j: first separation of turn %d (output) against SciPy",
                 n + 1);
        vjson_row(v, q, out[0], ref_t, 1e-7, "s");
        if (n == 0)
            vjson_row(v,
                      "w = 1.15 w_j: first separation of turn 1 (output) against the rigid "
                      "following's N = 0",
                      out[0], rigid_zero(0, w) / w, 1e-4, "s");
    }
}

static int flight(vjson *v, const char *outdir)
{
    double w = 1.15 * jump_speed(0), t_end = 0.06;
    char args[200];
    snprintf(args, sizeof args, "--law cycloidal --omega %.17g --t-end %g --out cam_jump_ref.csv",
             w, t_end);
    if (vref_run(outdir, "ref_cam_jump.py", args) != 0)
        return -1;
    vref *ref = vref_load(outdir, "cam_jump_ref.csv");
    clink_model *model = NULL;
    clink_sim *sim = ref ? open_sim(0, w, &model) : NULL;
    if (!sim) {
        vref_free(ref);
        return -1;
    }
    /* the first separation: delta through 0, sampled every 1e-6 s and interpolated */
    double t0 = 0.0, d0 = NAN, tsep = NAN;
    clink_contact_info ci;
    for (double t = 1e-6; t < t_end && isnan(tsep); t += 1e-6) {
        if (clink_sim_advance(sim, t) != CLINK_OK || clink_sim_contact(sim, 0, &ci) != CLINK_OK)
            break;
        if (!isnan(d0) && d0 > 0.0 && ci.delta <= 0.0)
            tsep = t0 + (t - t0) * d0 / (d0 - ci.delta);
        t0 = t, d0 = ci.delta;
    }
    vjson_row(v, "w = 1.15 w_j: first separation against SciPy", tsep, vref_get(ref, "sep.1.t"),
              1e-7, "s");
    first_separations(v, sim, ref, w, t_end);
    int rc = clink_sim_time(sim) >= t_end || clink_sim_advance(sim, t_end) == CLINK_OK ? 0 : -1;
    clink_impact_record rec[8];
    int n = impacts_after_start(sim, rec, 8), nref = (int) vref_get(ref, "n_done");
    vjson_row(v, "w = 1.15 w_j: impacts completed in 60 ms against SciPy", n, nref, 0.0, "-");
    for (int k = 0; k < n && k < nref && k < 8 && rc == 0; k++) {
        clink_impact_record r = rec[k];
        char key[32], q[96];
        snprintf(key, sizeof key, "imp.%d.t", k + 1);
        snprintf(q, sizeof q, "w = 1.15 w_j: impact %d time against SciPy", k + 1);
        vjson_row(v, q, r.t_onset, vref_get(ref, key), 1e-7, "s");
        snprintf(key, sizeof key, "imp.%d.v", k + 1);
        snprintf(q, sizeof q, "w = 1.15 w_j: impact %d approach speed against SciPy", k + 1);
        vjson_row_rel(v, q, r.v_impact, vref_get(ref, key), 1e-5, "m/s");
        snprintf(key, sizeof key, "imp.%d.duration", k + 1);
        snprintf(q, sizeof q, "w = 1.15 w_j: impact %d duration (to separation) against SciPy",
                 k + 1);
        vjson_row(v, q, r.duration, vref_get(ref, key), 1e-7, "s");
    }
    clink_sim_destroy(&sim);
    clink_model_destroy(&model);
    vref_free(ref);
    return rc;
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    vjson *v = vjson_open(outdir, "cam_jump", "Cam-valve train: following, jump speed, flight");
    if (!v)
        return 1;
    int rc = follow(v);
    rc |= jump(v, 0);
    rc |= jump(v, 1);
    rc |= flight(v, outdir);
    vjson_info(v, "closed-form jump speed, cycloidal rise", jump_speed(0), "rad/s");
    vjson_info(v, "closed-form jump speed, harmonic rise", jump_speed(1), "rad/s");
    return vjson_close(v) != 0 || rc != 0;
}
