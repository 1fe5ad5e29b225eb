/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Wang, Liu and Liu (2022) Sect. 5.1: the slider-crank with a revolute
 * clearance joint run with the elastoplastic dashpot (`wang-liu`, Eq. 18).
 *
 * 1. The printed numbers, from clink's Ma-Liu closed forms
 *    (include/clink/elastoplastic.h, readings of docs/elastoplastic.md): journal
 *    9.5 mm in a 10 mm bearing, both steel (207 GPa, 0.3), so E* = E / (2 (1 -
 *    nu^2)) and R = R1 R2 / (R1 + R2) with R1 = 0.0095, R2 = -0.010 (the bearing is
 *    concave): R = 0.19 m; psi 3.0, xi 13; Y the yield strength of the softer body,
 *    the bearing's 20 MPa (docs/elastoplastic.md reading 2). Printed: Kp 6.044E7
 *    N/m, delta_y 3.7576E-8 m, delta_p 3.1751E-6 m, each matched to one unit of its
 *    last printed digit (closed forms, exact to rounding). With the journal's 600
 *    MPa instead: delta_y 3.38e-5 m, Kp 1.81e9 N/m (info rows), not the text's.
 *
 * 2. delta_max 1.2923E-5 m at 0.5 m/s and the restitution 0.54: the text does
 *    not say which mass. The candidates of the mechanism (slider 0.14 kg, rod
 *    0.21 kg, crank 0.30 kg, the reduced mass of rod and slider 0.084 kg, rod +
 *    slider 0.35 kg, the rod's mass at the journal when it turns about the driven
 *    crank pin J_pin / l^2 = 0.0699 kg, the whole mechanism 0.65 kg) give a Ma-Liu
 *    delta_max of 1.61e-5 to 4.81e-5 m and e 0.519 to 0.431 (info rows): none
 *    reproduces the printed pair, nor does the dashpot's own delta_max (Eq. 16,
 *    delta_max = v sqrt(m e / Kp), 1.25e-5 to 3.81e-5 m) with any of them. Both
 *    printed numbers follow from one mass: the Ma-Liu delta_max rounds to
 *    1.2923E-5 m for m in 0.044227 to 0.044234 kg, and that mass gives e = 0.5385,
 *    the printed 0.54 (row checked to one unit, 0.01). So the two printed numbers
 *    are consistent with each other and with clink's Ma-Liu law, for a mass of
 *    0.0442 kg that is none of the benchmark's (perhaps a value of the test rig of
 *    the paper's ref. [60], which was not available). The effective masses that
 *    clink's mechanism has at its impacts (through the constraints, 0.066 to
 *    0.19 kg) are reported as information: all above 0.0442 kg.
 *
 * 3. The mechanism: models/slider_crank_clearance_wang_liu.xml, which is
 *    models/slider_crank_clearance.xml (Lankarani-Nikravesh, e 0.9, modified
 *    Coulomb friction 0.01) with the clearance joint's law replaced by wang-liu:
 *    journal 600 MPa and bearing 20 MPa yield strength (the law takes the softer),
 *    psi 3.0, xi 13, e 0.54; 0.048 s at 5000 rpm. The law's constants as the
 *    model stores them (radii from the joint, R2 concave) must give the Kp checked
 *    in 1 (to 1e-12 relative). Checked as validation/val_slider_crank_clearance.c
 *    checks the Lankarani-Nikravesh model: impacts happen, the journal centre
 *    stays within the clearance plus the largest penetration of the impacts (to
 *    1e-9 m), the energy balance residual stays below 1e-5 of J_pivot w^2 / 2.
 *    Reported: impacts, achieved restitution, largest penetration (against
 *    delta_p and the printed delta_max), effective masses at the impacts, peak
 *    force and slider acceleration, beside the same figures of
 *    models/slider_crank_clearance.xml.
 */
#include "clink/elastoplastic.h"
#include "clink/sim.h"
#include "clink/xml.h"
#include "vjson.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* one unit of the last printed digit of a value printed with `digits` significant digits */
static double unit_of(double printed, int digits)
{
    return pow(10.0, floor(log10(fabs(printed))) - (digits - 1));
}

static void row_printed(vjson *v, const char *q, double computed, double printed, int digits,
                        const char *unit)
{
    vjson_row(v, q, computed, printed, unit_of(printed, digits), unit);
}

static void joint_params(clink_contact_params *p, double Y)
{
    clink_contact_params_init(p);
    p->E1 = p->E2 = 207e9;
    p->nu1 = p->nu2 = 0.3;
    p->R1 = 0.0095;  /* journal */
    p->R2 = -0.0100; /* bearing, concave */
    p->Y = Y;
    p->psi = 3.0;
    p->xi = 13.0;
}

/* the Ma-Liu delta_max of mass m at v0 (NAN on error) */
static double dmax_of(const clink_maliu *ml, double m, double v0, double *e)
{
    clink_maliu_impact imp;
    if (clink_maliu_impact_solve(ml, m, v0, &imp) != CLINK_OK)
        return NAN;
    if (e)
        *e = imp.restitution;
    return imp.delta_max;
}

/* the mass whose Ma-Liu delta_max at v0 is `target` (delta_max grows with m): bisection */
static double mass_for(const clink_maliu *ml, double v0, double target)
{
    double lo = 1e-4, hi = 10.0;
    for (int i = 0; i < 200; i++) {
        double mid = sqrt(lo * hi);
        if (dmax_of(ml, mid, v0, NULL) < target)
            lo = mid;
        else
            hi = mid;
    }
    return sqrt(lo * hi);
}

typedef struct run_result {
    int ok, impacts, free_impacts;
    double max_e, max_pen, max_bal, max_acc, max_f, dmax_impacts, e_mean, e_min, e_max;
    double meff_min, meff_max;
    long reinits, steps, events;
} run_result;

/* 0.048 s sampled every 1e-5 s (as val_slider_crank_clearance.c) */
static void run(const clink_model *m, const char *label, run_result *r)
{
    const double T = 0.048, dt = 1e-5;
    char err[512];
    clink_sim *s = NULL;
    int slider = clink_model_find(m, CLINK_ENTITY_BODY, "slider");

    memset(r, 0, sizeof *r);
    if (slider < 0 || clink_sim_create(m, NULL, &s, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s: %s\n", label, slider < 0 ? "no body 'slider'" : err);
        return;
    }
    r->ok = 1;
    int n = (int) lround(T / dt);
    for (int i = 1; i <= n && r->ok; i++) {
        double a[3];
        clink_contact_info ci;
        clink_energy en;
        if (clink_sim_advance(s, i * dt) != CLINK_OK) {
            fprintf(stderr, "%s: %s\n", label, clink_sim_error(s));
            r->ok = 0;
            break;
        }
        if (clink_sim_body_acceleration(s, slider, a) != CLINK_OK ||
            clink_sim_contact(s, 0, &ci) != CLINK_OK || clink_sim_energy(s, &en) != CLINK_OK) {
            fprintf(stderr, "%s: state at t = %g s not available\n", label, i * dt);
            r->ok = 0;
            break;
        }
        r->max_e = fmax(r->max_e, hypot(ci.eccentricity[0], ci.eccentricity[1]));
        r->max_pen = fmax(r->max_pen, ci.delta);
        r->max_bal = fmax(r->max_bal, fabs(en.balance));
        r->max_acc = fmax(r->max_acc, fabs(a[0]));
        r->max_f = fmax(r->max_f, ci.fn);
    }
    r->impacts = clink_sim_impact_count(s);
    r->e_min = r->meff_min = INFINITY;
    for (int i = 0; i < r->impacts; i++) {
        clink_impact_record rec;
        if (clink_sim_impact(s, i, &rec) != CLINK_OK) {
            r->ok = 0;
            break;
        }
        r->dmax_impacts = fmax(r->dmax_impacts, rec.delta_max);
        r->meff_min = fmin(r->meff_min, rec.m_eff);
        r->meff_max = fmax(r->meff_max, rec.m_eff);
        if (!rec.persistent && isfinite(rec.restitution)) {
            r->free_impacts++;
            r->e_mean += rec.restitution;
            r->e_min = fmin(r->e_min, rec.restitution);
            r->e_max = fmax(r->e_max, rec.restitution);
        }
    }
    if (r->free_impacts > 0)
        r->e_mean /= r->free_impacts;
    clink_sim_stats st;
    clink_sim_stats_get(s, &st);
    r->reinits = st.contact_reinits;
    r->steps = st.steps;
    r->events = st.contact_events;
    clink_sim_destroy(&s);
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    const double v0 = 0.5, c = 0.0005, w = 523.598775598;
    const double E_scale = 0.5 * (1e-4 + 0.30 * 0.025 * 0.025) * w * w;
    const double dmax_printed = 1.2923e-5, e_printed = 0.54;
    clink_contact_params p;
    clink_maliu ml, ml_j;
    char msg[512], q[200];
    int fails = 0;
    vjson *v = vjson_open(outdir, "wang_liu_slider_crank",
                          "Wang, Liu and Liu (2022) Sect. 5.1: slider-crank with the "
                          "elastoplastic dashpot");
    if (!v)
        return 1;

    /* 1. the law's constants */
    joint_params(&p, 20e6);
    if (clink_maliu_init(&ml, &p, msg, sizeof msg) != CLINK_OK) {
        fprintf(stderr, "%s\n", msg);
        return 1;
    }
    vjson_info(v, "effective modulus E* (steel on steel)", ml.E, "Pa");
    vjson_row_rel(v, "effective radius R = R1 R2 / (R1 + R2), R2 = -10 mm", ml.R, 0.19, 1e-12, "m");
    row_printed(v, "linearised elastoplastic stiffness Kp (Eq. 9), bearing Y 20 MPa", ml.Kp,
                6.044e7, 4, "N/m");
    row_printed(v, "critical elastic deformation delta_y", ml.delta_y, 3.7576e-8, 5, "m");
    row_printed(v, "critical plastic deformation delta_p", ml.delta_p, 3.1751e-6, 5, "m");
    vjson_info(v, "delta_c (unloading elastic below it)", ml.delta_c, "m");
    joint_params(&p, 600e6);
    if (clink_maliu_init(&ml_j, &p, msg, sizeof msg) != CLINK_OK) {
        fprintf(stderr, "%s\n", msg);
        return 1;
    }
    vjson_info(v, "alternative Y = journal's 600 MPa: Kp (printed 6.044E7)", ml_j.Kp, "N/m");
    vjson_info(v, "alternative Y = journal's 600 MPa: delta_y (printed 3.7576E-8)", ml_j.delta_y,
               "m");

    /* 2. the mass of delta_max and e at 0.5 m/s */
    {
        static const struct {
            const char *name;
            double m;
        } cand[] = {
            {"slider 0.14 kg", 0.14},
            {"rod 0.21 kg", 0.21},
            {"crank 0.30 kg", 0.30},
            {"reduced mass of rod and slider 0.084 kg", 0.21 * 0.14 / (0.21 + 0.14)},
            {"rod + slider 0.35 kg", 0.35},
            {"rod about the crank pin J_pin / l^2 0.0699 kg",
             (2.5e-4 + 0.21 * 0.06 * 0.06) / 0.0144},
            {"whole mechanism 0.65 kg", 0.65},
        };
        int reproduced = 0;
        for (size_t i = 0; i < sizeof cand / sizeof cand[0]; i++) {
            double e = NAN, d = dmax_of(&ml, cand[i].m, v0, &e);
            double d16 = v0 * sqrt(cand[i].m * e_printed / ml.Kp);
            snprintf(q, sizeof q, "m = %s: Ma-Liu delta_max (printed 1.2923E-5)", cand[i].name);
            vjson_info(v, q, d, "m");
            snprintf(q, sizeof q, "m = %s: Ma-Liu restitution (printed 0.54)", cand[i].name);
            vjson_info(v, q, e, "-");
            snprintf(q, sizeof q, "m = %s: dashpot delta_max, Eq. 16 with e 0.54", cand[i].name);
            vjson_info(v, q, d16, "m");
            if (fabs(d - dmax_printed) <= unit_of(dmax_printed, 5) ||
                fabs(d16 - dmax_printed) <= unit_of(dmax_printed, 5))
                reproduced = 1;
        }
        vjson_info(v, "a candidate mass reproduces the printed delta_max (1 yes, 0 no)", reproduced,
                   "-");
        double half = 0.5 * unit_of(dmax_printed, 5);
        double m_star = mass_for(&ml, v0, dmax_printed);
        double m_lo = mass_for(&ml, v0, dmax_printed - half);
        double m_hi = mass_for(&ml, v0, dmax_printed + half);
        double e_star = NAN, e_lo = NAN, e_hi = NAN;
        double d_star = dmax_of(&ml, m_star, v0, &e_star);
        dmax_of(&ml, m_lo, v0, &e_hi); /* the restitution falls as m grows */
        dmax_of(&ml, m_hi, v0, &e_lo);
        vjson_info(v, "mass whose Ma-Liu delta_max at 0.5 m/s is the printed 1.2923E-5", m_star,
                   "kg");
        vjson_info(v, "  lower end of the band that rounds to 1.2923E-5", m_lo, "kg");
        vjson_info(v, "  upper end of the band that rounds to 1.2923E-5", m_hi, "kg");
        vjson_check(v, "  its phase (2: plastic, the text's 'full plastic deformation')",
                    d_star > ml.delta_p ? 2 : 1, "delta_max > delta_p", d_star > ml.delta_p, "-");
        row_printed(v, "Ma-Liu restitution at that mass (the printed pair is consistent)", e_star,
                    e_printed, 2, "-");
        vjson_info(v, "  restitution over the band, smallest", e_lo, "-");
        vjson_info(v, "  restitution over the band, largest", e_hi, "-");
    }

    /* 3. the mechanism with the wang-liu law in the clearance joint */
    clink_model *mods[2] = {NULL, NULL};
    const char *files[2] = {"slider_crank_clearance_wang_liu", "slider_crank_clearance"};
    for (int k = 0; k < 2; k++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/models/%s.xml", CLINK_SOURCE_DIR, files[k]);
        mods[k] = clink_model_load_xml(path, msg, sizeof msg);
        if (!mods[k]) {
            fprintf(stderr, "%s\n", msg);
            clink_model_destroy(&mods[0]);
            return 1;
        }
    }
    clink_clearance_joint_def cj;
    clink_maliu ml_m;
    if (clink_model_count(mods[0], CLINK_ENTITY_CLEARANCE_JOINT) != 1 ||
        clink_model_clearance_joint(mods[0], 0, &cj) != CLINK_OK ||
        clink_maliu_init(&ml_m, &cj.params, msg, sizeof msg) != CLINK_OK) {
        fprintf(stderr, "%s: one clearance joint with the Ma-Liu constants expected: %s\n",
                files[0], msg);
        clink_model_destroy(&mods[0]);
        clink_model_destroy(&mods[1]);
        return 1;
    }
    /* the model's own inputs are preconditions of the run, not results */
    if (strcmp(cj.law, "wang-liu") != 0 || cj.params.Y != 20e6 || cj.params.e != e_printed) {
        fprintf(stderr, "%s: law %s, Y %g Pa, e %g: expected wang-liu, 20e6 Pa, %g\n", files[0],
                cj.law, cj.params.Y, cj.params.e, e_printed);
        clink_model_destroy(&mods[0]);
        clink_model_destroy(&mods[1]);
        return 1;
    }
    vjson_info(v, "model: yield strength (softer material, bearing)", cj.params.Y, "Pa");
    vjson_info(v, "model: restitution e", cj.params.e, "-");
    vjson_row_rel(v, "model: Kp from the model's law constants", ml_m.Kp, ml.Kp, 1e-12, "N/m");
    run_result r[2];
    run(mods[0], "wang-liu", &r[0]);
    run(mods[1], "lankarani-nikravesh", &r[1]);
    const char *labs[2] = {"wang-liu", "lankarani-nikravesh (slider_crank_clearance.xml)"};
    for (int k = 0; k < 2; k++) {
        double pen = r[k].dmax_impacts;
        snprintf(q, sizeof q, "%s: runs 0.048 s", labs[k]);
        vjson_check(v, q, r[k].ok, "no solver failure", r[k].ok, "-");
        if (!r[k].ok) {
            fails++;
            continue;
        }
        snprintf(q, sizeof q, "%s: impacts in 0.048 s", labs[k]);
        vjson_check(v, q, r[k].impacts, "> 0", r[k].impacts > 0, "-");
        snprintf(q, sizeof q, "%s: max journal eccentricity", labs[k]);
        vjson_check(v, q, r[k].max_e, "<= clearance + largest penetration",
                    r[k].max_e <= c + pen + 1e-9, "m");
        snprintf(q, sizeof q, "%s: max |energy balance residual| / (J_pivot w^2 / 2)", labs[k]);
        vjson_row(v, q, r[k].max_bal / E_scale, 0.0, 1e-5, "-");
        snprintf(q, sizeof q, "%s: largest penetration at an impact's end of compression", labs[k]);
        vjson_info(v, q, r[k].dmax_impacts, "m");
        snprintf(q, sizeof q, "%s: largest penetration (samples every 1e-5 s)", labs[k]);
        vjson_info(v, q, r[k].max_pen, "m");
        if (k == 0) {
            double pm = fmax(pen, r[k].max_pen);
            vjson_info(v, "wang-liu: largest penetration / delta_p", pm / ml.delta_p, "-");
            vjson_info(v, "wang-liu: largest penetration / printed delta_max 1.2923E-5",
                       pm / dmax_printed, "-");
        }
        snprintf(q, sizeof q, "%s: achieved restitution of the free impacts, mean", labs[k]);
        vjson_info(v, q, r[k].e_mean, "-");
        snprintf(q, sizeof q, "%s: achieved restitution, smallest", labs[k]);
        vjson_info(v, q, r[k].e_min, "-");
        snprintf(q, sizeof q, "%s: achieved restitution, largest", labs[k]);
        vjson_info(v, q, r[k].e_max, "-");
        snprintf(q, sizeof q, "%s: free impacts (not ending in permanent contact)", labs[k]);
        vjson_info(v, q, r[k].free_impacts, "-");
        snprintf(q, sizeof q, "%s: effective mass at the impacts, smallest", labs[k]);
        vjson_info(v, q, r[k].meff_min, "kg");
        snprintf(q, sizeof q, "%s: effective mass at the impacts, largest", labs[k]);
        vjson_info(v, q, r[k].meff_max, "kg");
        snprintf(q, sizeof q, "%s: peak contact force (samples every 1e-5 s)", labs[k]);
        vjson_info(v, q, r[k].max_f, "N");
        snprintf(q, sizeof q, "%s: peak slider acceleration (samples every 1e-5 s)", labs[k]);
        vjson_info(v, q, r[k].max_acc, "m/s^2");
        snprintf(q, sizeof q, "%s: contact events", labs[k]);
        vjson_info(v, q, (double) r[k].events, "-");
        snprintf(q, sizeof q, "%s: CVODE re-initialisations", labs[k]);
        vjson_info(v, q, (double) r[k].reinits, "-");
        snprintf(q, sizeof q, "%s: CVODE steps", labs[k]);
        vjson_info(v, q, (double) r[k].steps, "-");
    }
    clink_model_destroy(&mods[0]);
    clink_model_destroy(&mods[1]);
    return vjson_close(v) != 0 || fails != 0;
}
