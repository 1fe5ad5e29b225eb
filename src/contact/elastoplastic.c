/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The Ma-Liu elastoplastic contact law and its closed forms (Wang, Liu and Liu,
 * Wang, Liu and Liu (2022), Eqs. 1-9), under the readings of docs/elastoplastic.md.
 *
 * Loading (Eq. 1), with E* and R the effective modulus and radius:
 *   delta < delta_y:            F = 4/3 E* sqrt(R) delta^1.5                     (Hertz)
 *   delta_y <= delta < delta_p: F = delta (c1 + c2 ln(delta/delta_y)) + c3
 *   delta >= delta_p:           F = F_p + k1 (delta - delta_p)
 * with p_y = 1.61 Y, delta_y = pi^2 R p_y^2 / (4 E*^2), delta_p = xi^2 delta_y / 2,
 * L = ln(xi^2 / 2), c1 = pi R (p_y (1 + L) - 2 psi Y) / L, c2 = pi R (2 psi Y - p_y) / L,
 * F_y = pi^3 R^2 p_y^3 / (6 E*^2), c3 = F_y - c1 delta_y, k1 = 2 pi R psi Y,
 * F_p = delta_p (c1 + c2 L) + c3 (Eq. 2). Force and slope are continuous at delta_y.
 *
 * Loading work (Eq. 6, with the term c3 (delta - delta_y) the print omits):
 *   U = 8/15 E* sqrt(R) delta_y^2.5 + (c1/2 - c2/4)(d^2 - delta_y^2)
 *       + c2/2 d^2 ln(d/delta_y) + c3 (d - delta_y) [+ F_p x + k1 x^2 / 2, x = delta - delta_p]
 *
 * Unloading (Eqs. 3-5) from delta_max with F_max = F(delta_max):
 *   F = 4/3 E* sqrt(R_e) (delta - delta_r)^1.5,
 *   R_e = R H(delta_max) / F_max       (delta_max < delta_p; Eq. 4 read with the force at
 *                                      delta_max, H the Hertz force),
 *   R_e = R H(delta_p) / F(delta_p)    (delta_max >= delta_p; Eq. 5 with F_ep = F(delta_p)),
 *   delta_r from F(delta_max) = F_max: delta_max - delta_r = (3 F_max / (4 E* sqrt(R_e)))^(2/3).
 * Where the elastoplastic loading curve still lies above the Hertz curve
 * (delta_y < delta_max <= delta_c) that construction would give delta_r < 0 and a
 * restitution above 1; there the contact unloads along its own loading curve
 * (no dissipation), see docs/elastoplastic.md.
 *
 * Unloading work and restitution (Eqs. 7-8): W = 8/15 E* sqrt(R_e) (delta_max - delta_r)^2.5
 * = 2/5 F_max (delta_max - delta_r); e = sqrt(W / U).
 * Linearised stiffness (Eq. 9): Kp = (F(delta_p) - F(delta_y)) / (delta_p - delta_y).
 */
#include "clink/elastoplastic.h"
#include "contact/law_table.h"
#include "contact/material.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MALIU_PI 3.14159265358979323846

/* one line into msg, if there is room */
static clink_status maliu_fail(char *msg, size_t msg_size, const char *line)
{
    if (msg != NULL && msg_size > 0)
        snprintf(msg, msg_size, "%s", line);
    return CLINK_ERR_RANGE;
}

/* the Hertz force 4/3 E* sqrt(R) delta^1.5 */
static double maliu_hertz(const clink_maliu *ml, double delta)
{
    return delta > 0.0 ? ml->K_hertz * delta * sqrt(delta) : 0.0;
}

/* loading force minus Hertz force on the elastoplastic branch */
static double maliu_excess(const clink_maliu *ml, double delta)
{
    return clink_maliu_load_force(ml, delta) - maliu_hertz(ml, delta);
}

/* the elastic part of the constants: E*, R, p_y, delta_y, K_hertz (what wang-liu-flores needs
   per force evaluation, without the logs of the rest) */
static void maliu_elastic_constants(const clink_contact_params *params, clink_maliu *ml)
{
    ml->E = 1.0 / ((1.0 - params->nu1 * params->nu1) / params->E1 +
                   (1.0 - params->nu2 * params->nu2) / params->E2);
    ml->R = 1.0 / (1.0 / params->R1 + 1.0 / params->R2);
    ml->p_y = 1.61 * params->Y;
    ml->delta_y = MALIU_PI * MALIU_PI * ml->R * ml->p_y * ml->p_y / (4.0 * ml->E * ml->E);
    ml->K_hertz = 4.0 / 3.0 * ml->E * sqrt(ml->R);
}

/* every constant but delta_c from checked (or trusted) params: a few logs and roots */
static void maliu_constants(clink_maliu *ml, const clink_contact_params *p)
{
    double L;

    maliu_elastic_constants(p, ml);
    ml->Y = p->Y;
    ml->psi = p->psi;
    ml->xi = p->xi;
    ml->delta_p = p->xi * p->xi * ml->delta_y / 2.0;
    L = log(p->xi * p->xi / 2.0);
    ml->c1 = (ml->p_y * (1.0 + L) - 2.0 * p->psi * p->Y) / L * MALIU_PI * ml->R;
    ml->c2 = (2.0 * p->psi * p->Y - ml->p_y) / L * MALIU_PI * ml->R;
    ml->F_y = MALIU_PI * MALIU_PI * MALIU_PI * ml->R * ml->R * ml->p_y * ml->p_y * ml->p_y /
              (6.0 * ml->E * ml->E);
    ml->c3 = ml->F_y - ml->c1 * ml->delta_y;
    ml->k1 = 2.0 * MALIU_PI * ml->R * p->psi * p->Y;
    ml->F_p = ml->delta_p * (ml->c1 + ml->c2 * L) + ml->c3;
    ml->Kp = (ml->F_p - ml->F_y) / (ml->delta_p - ml->delta_y);
    ml->delta_c = NAN;
}

/* every parameter given, the moduli, Poisson ratios and radii in range; else one line */
static clink_status maliu_check_materials(const clink_contact_params *p, char *line, size_t size)
{
    const char *keys[] = {"E1", "E2", "nu1", "nu2", "R1", "R2", "Y", "psi", "xi"};
    const double vals[] = {p->E1, p->E2, p->nu1, p->nu2, p->R1, p->R2, p->Y, p->psi, p->xi};
    int i;

    for (i = 0; i < 9; i++) {
        if (isnan(vals[i])) {
            snprintf(line, size,
                     "ma-liu: %s is not given (the law needs E1, E2, nu1, nu2, R1, R2, Y, "
                     "psi, xi)",
                     keys[i]);
            return CLINK_ERR_RANGE;
        }
    }
    if (!contact_modulus_ok(p->E1) || !contact_modulus_ok(p->E2)) {
        snprintf(line, size,
                 "ma-liu: E1 = %g Pa, E2 = %g Pa: Young's moduli must be given, finite and > 0",
                 p->E1, p->E2);
        return CLINK_ERR_RANGE;
    }
    if (!contact_poisson_ok(p->nu1) || !contact_poisson_ok(p->nu2)) {
        snprintf(line, size,
                 "ma-liu: nu1 = %g, nu2 = %g: Poisson ratios must be given and "
                 "obey " CONTACT_POISSON_RULE,
                 p->nu1, p->nu2);
        return CLINK_ERR_RANGE;
    }
    if (isnan(p->R1) || isnan(p->R2) || p->R1 == 0.0 || p->R2 == 0.0) {
        snprintf(line, size,
                 "ma-liu: R1 = %g m, R2 = %g m: radii must be given and non-zero "
                 "(inf: plane, negative: concave)",
                 p->R1, p->R2);
        return CLINK_ERR_RANGE;
    }
    double inv_R = 1.0 / p->R1 + 1.0 / p->R2;
    if (!(inv_R > 0.0) || !isfinite(inv_R)) {
        snprintf(line, size,
                 "ma-liu: R1 = %g m, R2 = %g m make no contact: 1/R1 + 1/R2 = %g 1/m must be > 0 "
                 "(a concave radius must exceed the convex one in magnitude)",
                 p->R1, p->R2, inv_R);
        return CLINK_ERR_RANGE;
    }
    return CLINK_OK;
}

/* yield strength against E*, xi and psi in their ranges (ml->E set); else one line */
static clink_status maliu_check_strength(const clink_maliu *ml, const clink_contact_params *p,
                                         char *line, size_t size)
{
    if (!(contact_yield_ok(p->Y) && p->Y < ml->E)) {
        snprintf(line, size,
                 "ma-liu: yield strength Y = %g Pa must be given and in (0, E*) with E* = %g Pa",
                 p->Y, ml->E);
        return CLINK_ERR_RANGE;
    }
    if (!(isfinite(p->xi) && p->xi > sqrt(2.0))) {
        snprintf(line, size,
                 "ma-liu: xi = %g must be given and > sqrt(2) = 1.414 (delta_p > delta_y; "
                 "13 to 20 in Wang, Liu and Liu (2022))",
                 p->xi);
        return CLINK_ERR_RANGE;
    }
    if (!(isfinite(p->psi) && p->psi > 1.61 / 2.0)) {
        snprintf(line, size,
                 "ma-liu: psi = %g must be given and > 0.805 (= p_y / 2Y; 2.6 to 3.0 in Wang, Liu "
                 "and Liu (2022))",
                 p->psi);
        return CLINK_ERR_RANGE;
    }
    return CLINK_OK;
}

/* the loading curve admits the unloading construction (constants set); else one line */
static clink_status maliu_check_branches(const clink_maliu *ml, const clink_contact_params *p,
                                         char *line, size_t size)
{
    /* the unloading construction needs the loading curve below Hertz at delta_p */
    if (!(ml->F_p < maliu_hertz(ml, ml->delta_p))) {
        snprintf(line, size,
                 "ma-liu: psi = %g, xi = %g: the loading force at delta_p (%g N) is not below "
                 "the Hertz force (%g N); lower psi or xi",
                 p->psi, p->xi, ml->F_p, maliu_hertz(ml, ml->delta_p));
        return CLINK_ERR_RANGE;
    }
    /* and a plastic slope small enough that delta_r stays >= 0 for every delta_max */
    if (!(ml->k1 * ml->delta_p <= 1.5 * maliu_hertz(ml, ml->delta_p))) {
        snprintf(line, size,
                 "ma-liu: psi = %g, xi = %g: plastic stiffness k1 = %g N/m exceeds "
                 "1.5 H(delta_p)/delta_p = %g N/m (negative residual indentation); lower psi",
                 p->psi, p->xi, ml->k1, 1.5 * maliu_hertz(ml, ml->delta_p) / ml->delta_p);
        return CLINK_ERR_RANGE;
    }

    return CLINK_OK;
}

/* delta_c, where the elastoplastic loading force crosses Hertz again (constants set) */
static void maliu_find_delta_c(clink_maliu *ml)
{
    double g2_ep, g2_h, lo, hi;
    int i;

    /*
     * delta_c: F - H has zero value and slope at delta_y and a second derivative
     * c2/delta - E* sqrt(R/delta) that changes sign at most once, so F - H either
     * falls from delta_y on (delta_c = delta_y) or rises, then falls through zero
     * once before delta_p (checked above): bisection on that sign change.
     */
    g2_ep = ml->c2 / ml->delta_y;
    g2_h = ml->E * sqrt(ml->R / ml->delta_y);
    if (g2_ep <= g2_h) {
        ml->delta_c = ml->delta_y;
    } else {
        lo = ml->delta_y * (1.0 + 1e-6);
        hi = ml->delta_p;
        /* lo must sit where F > H: step out until it does (F - H ~ (g2_ep - g2_h) x^2/2) */
        while (!(maliu_excess(ml, lo) > 0.0) && lo < hi)
            lo = ml->delta_y + 2.0 * (lo - ml->delta_y);
        for (i = 0; i < 200 && hi - lo > 1e-15 * hi; i++) {
            double mid = 0.5 * (lo + hi);
            if (maliu_excess(ml, mid) > 0.0)
                lo = mid;
            else
                hi = mid;
        }
        ml->delta_c = hi;
    }
}

clink_status clink_maliu_init(clink_maliu *ml, const clink_contact_params *p, char *msg,
                              size_t msg_size)
{
    char line[256];

    if (maliu_check_materials(p, line, sizeof line) != CLINK_OK)
        return maliu_fail(msg, msg_size, line);
    ml->E = 1.0 / ((1.0 - p->nu1 * p->nu1) / p->E1 + (1.0 - p->nu2 * p->nu2) / p->E2);
    ml->R = 1.0 / (1.0 / p->R1 + 1.0 / p->R2);
    if (maliu_check_strength(ml, p, line, sizeof line) != CLINK_OK)
        return maliu_fail(msg, msg_size, line);
    maliu_constants(ml, p);
    if (maliu_check_branches(ml, p, line, sizeof line) != CLINK_OK)
        return maliu_fail(msg, msg_size, line);
    maliu_find_delta_c(ml);
    return CLINK_OK;
}

double clink_maliu_load_force(const clink_maliu *ml, double delta)
{
    if (!(delta > 0.0))
        return 0.0;
    if (delta < ml->delta_y)
        return maliu_hertz(ml, delta);
    if (delta < ml->delta_p)
        return delta * (ml->c1 + ml->c2 * log(delta / ml->delta_y)) + ml->c3;
    return ml->F_p + ml->k1 * (delta - ml->delta_p);
}

double clink_maliu_load_work(const clink_maliu *ml, double delta)
{
    double dy = ml->delta_y, d, u, x;

    if (!(delta > 0.0))
        return 0.0;
    if (delta < dy)
        return 0.4 * maliu_hertz(ml, delta) * delta; /* 8/15 E* sqrt(R) delta^2.5 */
    u = 0.4 * ml->F_y * dy;
    d = delta < ml->delta_p ? delta : ml->delta_p;
    u += (0.5 * ml->c1 - 0.25 * ml->c2) * (d * d - dy * dy) + 0.5 * ml->c2 * d * d * log(d / dy) +
         ml->c3 * (d - dy);
    if (delta > ml->delta_p) {
        x = delta - ml->delta_p;
        u += ml->F_p * x + 0.5 * ml->k1 * x * x;
    }
    return u;
}

clink_status clink_maliu_delta_max(const clink_maliu *ml, double energy, double *delta_max)
{
    double u_y, u_p, lo, hi, d;
    int i;

    if (!(isfinite(energy) && energy >= 0.0))
        return CLINK_ERR_RANGE;
    u_y = clink_maliu_load_work(ml, ml->delta_y);
    u_p = clink_maliu_load_work(ml, ml->delta_p);
    if (energy <= u_y) {
        /* elastic: 8/15 E* sqrt(R) d^2.5 = energy */
        *delta_max = pow(energy / (0.4 * ml->K_hertz), 0.4);
        return CLINK_OK;
    }
    if (energy >= u_p) {
        /* plastic: F_p x + k1 x^2 / 2 = energy - u_p, in the cancellation-free form */
        double r = energy - u_p;
        *delta_max = ml->delta_p + 2.0 * r / (ml->F_p + sqrt(ml->F_p * ml->F_p + 2.0 * ml->k1 * r));
        return CLINK_OK;
    }
    /* elastoplastic: Newton on U(d) = energy (U' = F > 0, U convex), kept in a bracket */
    lo = ml->delta_y;
    hi = ml->delta_p;
    d = 0.5 * (lo + hi);
    for (i = 0; i < 200; i++) {
        double g = clink_maliu_load_work(ml, d) - energy;
        double next;
        if (g > 0.0)
            hi = d;
        else
            lo = d;
        next = d - g / clink_maliu_load_force(ml, d);
        if (fabs(next - d) <= 4e-16 * d || hi - lo <= 4e-16 * hi) {
            d = next > lo && next < hi ? next : d;
            break;
        }
        d = next > lo && next < hi ? next : 0.5 * (lo + hi);
    }
    *delta_max = d;
    return CLINK_OK;
}

void clink_maliu_unload_from(const clink_maliu *ml, double delta_max, clink_maliu_unload *u)
{
    double a;

    u->delta_max = delta_max > 0.0 ? delta_max : 0.0;
    u->F_max = clink_maliu_load_force(ml, u->delta_max);
    if (u->delta_max <= ml->delta_c) {
        /* elastic (or not yet below Hertz): back along the loading curve */
        u->R_e = ml->R;
        u->delta_r = 0.0;
        u->plastic = 0;
        return;
    }
    if (u->delta_max < ml->delta_p)
        u->R_e = ml->R * maliu_hertz(ml, u->delta_max) / u->F_max; /* Eq. 4 */
    else
        u->R_e = ml->R * maliu_hertz(ml, ml->delta_p) / ml->F_p; /* Eq. 5 */
    /* force continuity at delta_max */
    a = cbrt(3.0 * u->F_max / (4.0 * ml->E * sqrt(u->R_e)));
    a *= a;
    u->delta_r = u->delta_max - a;
    if (u->delta_r < 0.0) /* rounding only: init() rules out negative residuals */
        u->delta_r = 0.0;
    u->plastic = 1;
}

double clink_maliu_unload_force(const clink_maliu *ml, const clink_maliu_unload *u, double delta)
{
    double x;

    if (!u->plastic)
        return clink_maliu_load_force(ml, delta);
    x = delta - u->delta_r;
    if (!(x > 0.0))
        return 0.0;
    return 4.0 / 3.0 * ml->E * sqrt(u->R_e) * x * sqrt(x);
}

double clink_maliu_unload_work(const clink_maliu *ml, const clink_maliu_unload *u)
{
    double x;

    if (!u->plastic)
        return clink_maliu_load_work(ml, u->delta_max);
    x = u->delta_max - u->delta_r;
    return 8.0 / 15.0 * ml->E * sqrt(u->R_e) * x * x * sqrt(x);
}

clink_status clink_maliu_impact_solve(const clink_maliu *ml, double m, double v0,
                                      clink_maliu_impact *out)
{
    clink_maliu_unload u;
    clink_status st;

    if (!(isfinite(m) && m > 0.0) || !(isfinite(v0) && v0 >= 0.0))
        return CLINK_ERR_RANGE;
    out->energy = 0.5 * m * v0 * v0;
    st = clink_maliu_delta_max(ml, out->energy, &out->delta_max);
    if (st != CLINK_OK)
        return st;
    clink_maliu_unload_from(ml, out->delta_max, &u);
    out->F_max = u.F_max;
    out->delta_r = u.delta_r;
    out->R_e = u.R_e;
    out->work_unload = clink_maliu_unload_work(ml, &u);
    if (out->work_unload > out->energy)
        out->work_unload = out->energy; /* rounding in the elastic branch */
    out->restitution = out->energy > 0.0 ? sqrt(out->work_unload / out->energy) : 1.0;
    out->dissipated = out->energy - out->work_unload;
    out->phase = out->delta_max < ml->delta_y ? 0 : (out->delta_max < ml->delta_p ? 1 : 2);
    return CLINK_OK;
}

/* ---- the catalogue rows: ma-liu, wang-liu, wang-liu-flores ----------------- */

/*
 * History rule of ma-liu (state->hist_*): the unloading curve of the largest
 * penetration ever reached by the pair is kept. A new compression of the pair
 * reloads along that curve (elastically, no dissipation) up to hist_delta_max
 * and continues on the virgin loading curve beyond it; at the end of every
 * compression that passed hist_delta_max the curve is rebuilt from the new
 * maximum (Eqs. 3-5). Below hist_delta_r the force is zero (the residual dent).
 */
static double maliu_history_force(const clink_contact_params *params,
                                  const clink_contact_state *state, double delta)
{
    clink_maliu ml;
    double x, E;

    if (!(delta > 0.0))
        return 0.0;
    if (state->hist_plastic && delta <= state->hist_delta_max) {
        x = delta - state->hist_delta_r;
        if (!(x > 0.0))
            return 0.0;
        E = 1.0 / ((1.0 - params->nu1 * params->nu1) / params->E1 +
                   (1.0 - params->nu2 * params->nu2) / params->E2);
        return 4.0 / 3.0 * E * sqrt(state->hist_R) * x * sqrt(x);
    }
    maliu_constants(&ml, params);
    return clink_maliu_load_force(&ml, delta);
}

/* the Ma-Liu check under the name of the law that uses it ("wang-liu: Y = ...") */
static clink_status maliu_check_as(const struct clink_law *law, const clink_contact_params *params,
                                   char *msg, size_t msg_size)
{
    clink_maliu ml;
    clink_status st;
    char inner[256];
    const char *rest = inner;

    inner[0] = '\0';
    st = clink_maliu_init(&ml, params, inner, sizeof inner);
    if (st != CLINK_OK && msg != NULL && msg_size > 0) {
        if (strncmp(inner, "ma-liu: ", 8) == 0)
            rest = inner + 8;
        snprintf(msg, msg_size, "%s: %s", law->name, rest);
    }
    return st;
}

static clink_status maliu_check(const struct clink_law *law, const clink_contact_params *params,
                                char *msg, size_t msg_size)
{
    return maliu_check_as(law, params, msg, msg_size);
}

static clink_status maliu_onset(const struct clink_law *law, const clink_contact_params *params,
                                double v_impact, double m_eff, clink_contact_state *state)
{
    clink_maliu ml;
    clink_status st;

    (void) law;
    if ((st = clink_maliu_init(&ml, params, NULL, 0)) != CLINK_OK)
        return st;
    state->phase = CLINK_CONTACT_COMPRESSION;
    state->v_impact = v_impact;
    state->m_eff = m_eff;
    state->chi = 0.0;
    state->c = 0.0;
    state->K = ml.K_hertz;
    state->n = 1.5;
    state->m = NAN;
    state->delta_max = 0.0;
    state->F_max = 0.0;
    return CLINK_OK;
}

static double maliu_force(const struct clink_law *law, const clink_contact_params *params,
                          const clink_contact_state *state, double delta, double delta_dot)
{
    (void) law;
    (void) delta_dot;
    if (state->phase == CLINK_CONTACT_OPEN)
        return 0.0;
    return maliu_history_force(params, state, delta);
}

/* integral of maliu_history_force from 0 to delta: the stored curve up to hist_delta_max,
   the virgin loading curve beyond */
static double maliu_stored(const struct clink_law *law, const clink_contact_params *params,
                           const clink_contact_state *state, double delta)
{
    clink_maliu ml;
    clink_maliu_unload u;

    (void) law;
    maliu_constants(&ml, params);
    if (!state->hist_plastic)
        return clink_maliu_load_work(&ml, delta);
    u.delta_max = state->hist_delta_max;
    u.F_max = state->hist_F_max;
    u.R_e = state->hist_R;
    u.delta_r = state->hist_delta_r;
    u.plastic = 1;
    if (delta <= state->hist_delta_max) {
        u.delta_max = delta > u.delta_r ? delta : u.delta_r;
        return clink_maliu_unload_work(&ml, &u);
    }
    return clink_maliu_unload_work(&ml, &u) + clink_maliu_load_work(&ml, delta) -
           clink_maliu_load_work(&ml, state->hist_delta_max);
}

static void maliu_end_compression(const struct clink_law *law, const clink_contact_params *params,
                                  double delta, clink_contact_state *state)
{
    clink_maliu ml;
    clink_maliu_unload u;

    (void) law;
    state->delta_max = delta;
    state->F_max = maliu_history_force(params, state, delta);
    if (delta > state->hist_delta_max && clink_maliu_init(&ml, params, NULL, 0) == CLINK_OK) {
        clink_maliu_unload_from(&ml, delta, &u);
        state->hist_delta_max = u.delta_max;
        state->hist_F_max = u.F_max;
        state->hist_delta_r = u.delta_r;
        state->hist_R = u.R_e;
        state->hist_plastic = u.plastic;
    }
    state->phase = CLINK_CONTACT_RESTITUTION;
}

static double maliu_separation(const struct clink_law *law, const clink_contact_params *params,
                               const clink_contact_state *state, double delta, double delta_dot)
{
    (void) law;
    (void) params;
    (void) delta_dot;
    return delta - (state->hist_plastic ? state->hist_delta_r : 0.0);
}

static void maliu_release(const struct clink_law *law, const clink_contact_params *params,
                          double delta, clink_contact_state *state)
{
    (void) law;
    (void) params;
    state->delta_sep = delta > 0.0 ? delta : 0.0;
    state->phase = delta > 0.0 ? CLINK_CONTACT_RELEASED : CLINK_CONTACT_OPEN;
}

/* the kinks of the Ma-Liu loading curve: the ends of its elastoplastic phase, delta_y and delta_p
 */
static int maliu_kinks(const struct clink_law *law, const clink_contact_params *params,
                       double *delta)
{
    clink_maliu ml;

    (void) law;
    if (clink_maliu_init(&ml, params, NULL, 0) != CLINK_OK)
        return 0;
    delta[0] = ml.delta_y;
    delta[1] = ml.delta_p;
    return 2;
}

const struct clink_law clink_law_ma_liu = {
    .name = "ma-liu",
    .aliases = "maliu",
    .title = "Ma and Liu (2015) elastoplastic spheres, as in Wang, Liu and Liu",
    .formula = "loading: 4/3 E* sqrt(R) d^1.5 (d < d_y); d (c1 + c2 ln(d/d_y)) + c3 "
               "(d_y <= d < d_p); F_p + k1 (d - d_p); unloading: 4/3 E* sqrt(R_e) (d - d_r)^1.5",
    .damping =
        "none: plastic loading dissipates; restitution sqrt(W/U) (Stronge 2000), Wang, Liu and "
        "Liu (2022) "
        "Eq. 8; reloads along the last unloading curve up to the largest past d",
    .reference = "Ma and Liu (2015); as used by Wang, Liu and Liu (2022), Eqs. 1-8 (readings: "
                 "docs/elastoplastic.md)",
    .required = "E1, E2, nu1, nu2, R1, R2, Y, psi, xi",
    .optional = "",
    .separation_rule = "at the residual indentation d_r (RELEASED, history kept)",
    .n = 1.5,
    .n_free = 0,
    .n_max = 1.5,
    .m_rule = CLINK_M_FIXED,
    .m = NAN,
    .rule = CLINK_RULE_HOOK,
    .factor = NULL,
    .can_pull = 0,
    .sep = CLINK_SEP_DELTA,
    .compression_only = 0,
    .check = maliu_check,
    .onset = maliu_onset,
    .force = maliu_force,
    .end_compression = maliu_end_compression,
    .separation = maliu_separation,
    .release = maliu_release,
    .stored = maliu_stored,
    .kinks = maliu_kinks,
};

/* wang-liu and wang-liu-flores: the check adds e (optional) and v_ref (optional) */
static clink_status wangliu_check(const struct clink_law *law, const clink_contact_params *params,
                                  char *msg, size_t msg_size)
{
    clink_status st;
    char line[200];

    if ((st = maliu_check_as(law, params, msg, msg_size)) != CLINK_OK)
        return st;
    if (!isnan(params->e) && !(params->e > 0.0 && params->e <= 1.0)) {
        snprintf(line, sizeof line,
                 "%s: e = %g: restitution must be in (0, 1] (or not given: Ma-Liu's)", law->name,
                 params->e);
        return maliu_fail(msg, msg_size, line);
    }
    if (!isnan(params->v_ref) && !(isfinite(params->v_ref) && params->v_ref > 0.0)) {
        snprintf(line, sizeof line, "%s: v_ref = %g m/s: reference velocity must be finite and > 0",
                 law->name, params->v_ref);
        return maliu_fail(msg, msg_size, line);
    }
    return CLINK_OK;
}

/*
 * Onset: v = max(v_impact, v_ref) (v_ref default CLINK_CONTACT_V_REF_DEFAULT), e
 * given or the Ma-Liu restitution of an impact of m_eff at v, chi of Eq. 17.
 */
static clink_status wangliu_onset(const struct clink_law *law, const clink_contact_params *params,
                                  double v_impact, double m_eff, clink_contact_state *state)
{
    clink_maliu ml;
    clink_maliu_impact imp;
    clink_status st;
    double v_ref = isnan(params->v_ref) ? CLINK_CONTACT_V_REF_DEFAULT : params->v_ref;
    double v = v_impact > v_ref ? v_impact : v_ref;
    double e = params->e;

    (void) law;
    if ((st = clink_maliu_init(&ml, params, NULL, 0)) != CLINK_OK)
        return st;
    if (isnan(e)) {
        if ((st = clink_maliu_impact_solve(&ml, m_eff, v, &imp)) != CLINK_OK)
            return st;
        e = imp.restitution;
    }
    if (!(e > 0.0 && e <= 1.0))
        return CLINK_ERR_RANGE;
    state->phase = CLINK_CONTACT_COMPRESSION;
    state->v_impact = v_impact;
    state->m_eff = m_eff;
    state->K = ml.Kp;
    state->n = 1.0;
    state->m = 1.0;
    state->chi = 3.0 * ml.Kp * (1.0 - e) / (2.0 * e * v); /* Eq. 17 */
    state->c = 0.0;
    state->delta_max = 0.0;
    state->F_max = 0.0;
    return CLINK_OK;
}

const struct clink_law clink_law_wang_liu = {
    .name = "wang-liu",
    .aliases = "elastoplastic-dashpot",
    .title = "Wang, Liu and Liu elastoplastic dashpot",
    .formula = "Kp d [1 + 3 (1 - e)/(2 e) d_dot / v], Kp = (F(d_p) - F(d_y))/(d_p - d_y)",
    .damping = "chi = 3 Kp (1 - e)/(2 e v), v = max(v_impact, v_ref); e given, or the Ma-Liu "
               "restitution of m_eff at v",
    .reference = "Wang, Liu and Liu (2022), elastoplastic dashpot, Eqs. 9, 17, 18",
    .required = "E1, E2, nu1, nu2, R1, R2, Y, psi, xi",
    .optional = "e, v_ref",
    .separation_rule = "zero penetration",
    .n = 1.0,
    .n_free = 0,
    .n_max = 1.0,
    .m_rule = CLINK_M_FIXED,
    .m = 1.0,
    .rule = CLINK_RULE_HOOK,
    .factor = NULL,
    .can_pull = 0,
    .sep = CLINK_SEP_DELTA,
    .compression_only = 0,
    .check = wangliu_check,
    .onset = wangliu_onset,
    .force = NULL,
    .end_compression = NULL,
    .separation = NULL,
    .release = NULL,
};

/*
 * wang-liu-flores (Wang, Liu and Liu 2022, Sect. 5.2): the Flores et al. law with the Hertz
 * stiffness while d < d_y, the elastoplastic dashpot from d_y on, both with the
 * same e and v. chi of the Flores part is 8 K_H (1 - e)/(5 e v) = 16 K_H chi / (15 Kp)
 * in terms of the stored chi, so a damping set by the laboratory scales both.
 */
static double wlf_force(const struct clink_law *law, const clink_contact_params *params,
                        const clink_contact_state *state, double delta, double delta_dot)
{
    clink_maliu ml;
    double F, s;

    (void) law;
    if (state->phase == CLINK_CONTACT_OPEN || !(delta > 0.0))
        return 0.0;
    maliu_elastic_constants(params, &ml);
    if (delta < ml.delta_y) {
        s = delta * sqrt(delta);
        F = ml.K_hertz * s + 16.0 * ml.K_hertz / (15.0 * state->K) * state->chi * s * delta_dot;
    } else {
        F = state->K * delta + state->chi * delta * delta_dot;
    }
    return F > 0.0 ? F : 0.0;
}

/* 2/5 K_H d^2.5 below delta_y, plus Kp (d^2 - delta_y^2) / 2 beyond */
static double wlf_stored(const struct clink_law *law, const clink_contact_params *params,
                         const clink_contact_state *state, double delta)
{
    clink_maliu ml;
    double d;

    (void) law;
    maliu_elastic_constants(params, &ml);
    d = delta < ml.delta_y ? delta : ml.delta_y;
    return 0.4 * ml.K_hertz * d * d * sqrt(d) +
           (delta > ml.delta_y ? 0.5 * state->K * (delta * delta - d * d) : 0.0);
}

/* the kink of wang-liu-flores: the end of its Hertz branch, delta_y of the Ma-Liu curve */
static int wlf_kinks(const struct clink_law *law, const clink_contact_params *params, double *delta)
{
    clink_maliu ml;

    (void) law;
    if (clink_maliu_init(&ml, params, NULL, 0) != CLINK_OK)
        return 0;
    delta[0] = ml.delta_y;
    return 1;
}

const struct clink_law clink_law_wang_liu_flores = {
    .name = "wang-liu-flores",
    .aliases = "",
    .title = "Flores et al. while elastic, Wang-Liu elastoplastic dashpot beyond d_y",
    .formula = "d < d_y: K_H d^1.5 [1 + 8 (1 - e)/(5 e) d_dot / v]; d >= d_y: "
               "Kp d [1 + 3 (1 - e)/(2 e) d_dot / v] (force jumps at d_y)",
    .damping = "as wang-liu: v = max(v_impact, v_ref), e given or from Ma-Liu",
    .reference = "Wang, Liu and Liu (2022), Sect. 5.2 (granular chain), Eqs. 9, 18; Flores et al. "
                 "(2011)",
    .required = "E1, E2, nu1, nu2, R1, R2, Y, psi, xi",
    .optional = "e, v_ref",
    .separation_rule = "zero penetration",
    .n = 1.0,
    .n_free = 0,
    .n_max = 1.0,
    .m_rule = CLINK_M_FIXED,
    .m = 1.0,
    .rule = CLINK_RULE_HOOK,
    .factor = NULL,
    .can_pull = 0,
    .sep = CLINK_SEP_DELTA,
    .compression_only = 0,
    .check = wangliu_check,
    .onset = wangliu_onset,
    .force = wlf_force,
    .end_compression = NULL,
    .separation = NULL,
    .release = NULL,
    .stored = wlf_stored,
    .kinks = wlf_kinks,
};
