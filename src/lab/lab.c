/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The contact-law laboratory: one two-body central impact integrated to separation,
 *
 *   m delta'' = -F(delta, delta', state),   delta(0) = 0, delta'(0) = v > 0,
 *
 * the "contact oscillator" of Feng (2026, Eq. 1), Alves et al. (Eq. 1 with the
 * two-sphere and steel-ball examples) and Poursina and Nikravesh (2020, Eqs. 8,
 * 20-23). This file assembles an impact (clink_lab_impact): the workspace, the
 * checks of the numbers, the law's onset, the length scale of the contact, the
 * damping coefficient of the law or of the options, and the choice of integrator
 * (lab_integrator, lab_private.h): by default the Dormand-Prince 8(5,3) pair
 * (lab_rk.c), on request or as the fallback of a failed run CVODE's Adams or BDF
 * through the integrator table of the mechanisms (lab_integ.c); see docs/laboratory.md.
 *
 * For delta < 0 (only inside a step that crosses a separation at zero
 * penetration) the force is continued as -F(-delta, -delta'), a C1 extension, so
 * the step that brackets the root sees a smooth right-hand side (lab_force).
 *
 * Energies: U(a, b) = integral of F(s, 0) ds over [a, b] with the restitution
 * state is the energy stored elastically (clink_law_stored_energy(), exact, for the
 * Runge-Kutta method; adaptive Gauss-Kronrod 7-15 of the law for CVODE).
 * E_diss_compression = m v^2/2 - U(0, delta_max); E_residual = U(0, delta_sep);
 * E_diss_restitution = U(0, delta_max) - m v_out^2/2 - E_residual.
 */
#include "lab/lab_private.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers -------------------------------------------------------------- */

clink_status lab_fail(clink_lab *lab, clink_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(lab->msg, sizeof lab->msg, fmt, ap);
    va_end(ap);
    return st;
}

/* ---- workspace ------------------------------------------------------------ */

clink_status clink_lab_create(clink_lab **out)
{
    clink_lab *lab;
    clink_status st;

    if (out == NULL)
        return CLINK_ERR_ARG;
    *out = NULL;
    lab = calloc(1, sizeof *lab);
    if (lab == NULL)
        return CLINK_ERR_NOMEM;
    /* the Runge-Kutta stepper's arrays (y = (delta, delta', W)) */
    st = rk8_init(&lab->rk, LAB_RK_N) == 0 ? CLINK_OK : CLINK_ERR_NOMEM;
    if (st != CLINK_OK) {
        clink_lab_destroy(&lab);
        return st;
    }
    *out = lab;
    return CLINK_OK;
}

void clink_lab_destroy(clink_lab **plab)
{
    if (plab == NULL || *plab == NULL)
        return;
    rk8_free(&(*plab)->rk);
    free(*plab);
    *plab = NULL;
}

const char *clink_lab_error(const clink_lab *lab)
{
    return lab != NULL ? lab->msg : "no laboratory workspace";
}

void clink_lab_options_init(clink_lab_options *o)
{
    if (o == NULL)
        return;
    memset(o, 0, sizeof *o);
    o->rtol = 1e-12;
    o->method = CLINK_LAB_RK8;
    o->damping = NAN;
    o->sample = NULL;
    o->sample_ctx = NULL;
    o->samples_per_step = 1;
    o->t_max_factor = 1e4;
}

/* 1 if the static force at the rung d stores at least energy2 / 2 */
static int lab_scale_holds(const clink_lab *lab, double d, double energy2)
{
    double Fd = lab_force(lab, d, 0.0);

    return isfinite(Fd) && Fd * d >= energy2;
}

/* the first rung i < 400 of d_i = 1e-12 1.5^i at which lab_scale_holds(), or -1 */
static int lab_scale_rung(const clink_lab *lab, double energy2)
{
    double rung[400], d = 1e-12, K = lab->state.K, n = lab->state.n;
    int i, i0 = 0;

    for (i = 0; i < 400; i++) {
        rung[i] = d;
        d *= 1.5;
    }
    if (K > 0.0 && n > 0.0 && isfinite(K) && isfinite(n)) {
        double guess = pow(energy2 / K, 1.0 / (n + 1.0));
        if (guess > 1e-12 && isfinite(guess))
            i0 = (int) fmin(399.0, floor(log(guess / 1e-12) / log(1.5))) - 3;
        if (i0 < 0)
            i0 = 0;
    }
    while (i0 > 0 && lab_scale_holds(lab, rung[i0], energy2))
        i0--;
    for (i = i0; i < 400; i++)
        if (lab_scale_holds(lab, rung[i], energy2))
            return i;
    return -1;
}

/* which coefficient the law uses after onset: 0 chi, 1 c, -1 none (probe of the force) */
static int lab_damping_kind(clink_lab *lab)
{
    clink_contact_state saved = lab->state;
    double d = 0.5 * lab->dscale, r = 0.5 * lab->v0;
    double F0 = lab_force(lab, d, r), F1;
    int kind = -1;
    clink_law_info info;

    /* a law with no damping term of the shape chi delta^m delta_dot and no
       coefficient set at onset (Hertz, Ma-Liu) has nothing to calibrate */
    clink_law_get_info(lab->law, &info);
    if (isnan(info.m) && saved.chi == 0.0 && saved.c == 0.0)
        return -1;
    lab->state.chi = 2.0 * fabs(saved.chi) + 1.0;
    F1 = lab_force(lab, d, r);
    lab->state = saved;
    if (F1 != F0 && isfinite(F1)) {
        kind = 0;
    } else {
        lab->state.c = 2.0 * fabs(saved.c) + 1.0;
        F1 = lab_force(lab, d, r);
        lab->state = saved;
        if (F1 != F0 && isfinite(F1))
            kind = 1;
    }
    return kind;
}

/* the checks of the impact's numbers and options, before anything is computed */
static clink_status lab_impact_check(clink_lab *lab, double m_eff, double v_impact,
                                     const clink_lab_options *o)
{
    if (!isfinite(m_eff) || !(m_eff > 0.0))
        return lab_fail(lab, CLINK_ERR_RANGE, "mass: %g is not a positive finite number (kg)",
                        m_eff);
    if (!isfinite(v_impact) || !(v_impact > 0.0))
        return lab_fail(lab, CLINK_ERR_RANGE, "velocity: %g is not a positive finite number (m/s)",
                        v_impact);
    if (!isfinite(o->rtol) || !(o->rtol >= 1e-14 && o->rtol <= 1e-3))
        return lab_fail(lab, CLINK_ERR_RANGE, "rtol: %g is outside [1e-14, 1e-3]", o->rtol);
    if (!(o->t_max_factor > 0.0) || !isfinite(o->t_max_factor))
        return lab_fail(lab, CLINK_ERR_RANGE, "t_max_factor: %g must be positive", o->t_max_factor);
    if (!isnan(o->damping) && !(isfinite(o->damping) && o->damping >= 0.0))
        return lab_fail(lab, CLINK_ERR_RANGE, "damping: %g must be finite and >= 0", o->damping);
    return CLINK_OK;
}

/* the law's damping coefficient into res, and the one of the options in its place */
static clink_status lab_impact_damping(clink_lab *lab, const clink_lab_options *o,
                                       clink_lab_result *res)
{
    int kind = lab_damping_kind(lab);

    {
        clink_law_info info;
        clink_law_get_info(lab->law, &info);
        /* a damping exponent m = 0 makes chi a plain linear damper c (N s/m) */
        res->damping_is_c = kind == 1 || (kind == 0 && info.m == 0.0);
    }
    if (kind == 0)
        res->damping_law = lab->state.chi;
    else if (kind == 1)
        res->damping_law = lab->state.c;
    else
        res->damping_law = 0.0;
    res->damping = res->damping_law;
    if (!isnan(o->damping)) {
        if (kind < 0)
            return lab_fail(lab, CLINK_ERR_ARG, "law %s has no damping coefficient to set",
                            clink_law_name(lab->law));
        if (kind == 0)
            lab->state.chi = o->damping;
        else
            lab->state.c = o->damping;
        res->damping = o->damping;
    }
    return CLINK_OK;
}

/* the integration with the method of the options, retried with BDF if it fails */
static clink_status lab_impact_solve(clink_lab *lab, const clink_lab_options *o,
                                     clink_lab_result *res)
{
    const lab_integrator *integ = o->method == CLINK_LAB_RK8   ? &lab_integrator_rk8
                                  : o->method == CLINK_LAB_BDF ? &lab_integrator_bdf
                                                               : &lab_integrator_adams;
    clink_contact_state onset = lab->state;
    clink_status st;

    st = integ->run(lab, o, res);
    if (st == CLINK_ERR_SOLVER && o->method != CLINK_LAB_BDF && o->sample == NULL) {
        /* stiff (heavily damped) impacts: retry with BDF and Newton */
        clink_lab_result keep = *res;
        lab->state = onset;
        memset(res, 0, sizeof *res);
        res->v_impact = keep.v_impact;
        res->damping = keep.damping;
        res->damping_law = keep.damping_law;
        res->damping_is_c = keep.damping_is_c;
        st = lab_integrator_bdf.run(lab, o, res);
    }
    return st;
}

clink_status clink_lab_impact(clink_lab *lab, const clink_law *law,
                              const clink_contact_params *params, double m_eff, double v_impact,
                              const clink_lab_options *options, clink_lab_result *res)
{
    clink_lab_options defaults;
    const clink_lab_options *o = options;
    char msg[256];
    clink_status st;
    double d;
    int i;

    if (lab == NULL)
        return CLINK_ERR_ARG;
    lab->msg[0] = '\0';
    if (law == NULL || params == NULL || res == NULL)
        return lab_fail(lab, CLINK_ERR_ARG, "law, parameters and result must not be NULL");
    if (o == NULL) {
        clink_lab_options_init(&defaults);
        o = &defaults;
    }
    memset(res, 0, sizeof *res);
    res->damping = NAN;
    res->damping_law = NAN;
    st = lab_impact_check(lab, m_eff, v_impact, o);
    if (st != CLINK_OK)
        return st;
    msg[0] = '\0';
    st = clink_law_check(law, params, msg, sizeof msg);
    if (st != CLINK_OK)
        return lab_fail(lab, st, "%s", msg[0] ? msg : clink_status_string(st));

    lab->law = law;
    lab->params = params;
    lab->m = m_eff;
    lab->v0 = v_impact;
    res->v_impact = v_impact;
    clink_contact_state_init(&lab->state);
    st = clink_law_onset(law, params, v_impact, m_eff, &lab->state);
    if (st != CLINK_OK)
        return lab_fail(lab, st, "contact onset of %s: %s", clink_law_name(law),
                        clink_status_string(st));

    /* length scale: where the elastic force at rest would store the impact energy
       (F d / 2 = m v^2 / 2, exact for a linear spring), the first of the ladder
       1e-12 1.5^i that does; the search starts a few rungs below the power-law
       estimate (m v^2 / K)^(1 / (n + 1)) and goes down while the rung below also
       does (F d grows with d), so that it evaluates a handful of forces, not 50 */
    i = lab_scale_rung(lab, m_eff * v_impact * v_impact);
    if (i < 0)
        return lab_fail(lab, CLINK_ERR_RANGE,
                        "law %s gives no elastic force that can stop the impact",
                        clink_law_name(law));
    for (d = 1e-12; i > 0; i--)
        d *= 1.5;
    lab->dscale = d;

    st = lab_impact_damping(lab, o, res);
    if (st != CLINK_OK)
        return st;
    return lab_impact_solve(lab, o, res);
}
