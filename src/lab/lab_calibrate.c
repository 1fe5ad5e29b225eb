/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Calibration of a law's damping coefficient to a target restitution
 * (clink_lab_calibrate): Brent's method (lab_brent.c) on e_out(damping) - e_target,
 * each value one impact of the laboratory, over a bracket [0, x] grown by factors
 * of 4 from the law's own coefficient (Poursina and Nikravesh's Eq. 23 solved as a
 * root instead of a minimisation); rtol is tightened where the integration error
 * of e_out keeps the root from the target.
 */
#include "lab/lab_private.h"

#include <math.h>
#include <string.h>

typedef struct lab_cal_ctx {
    clink_lab *lab;
    const clink_law *law;
    const clink_contact_params *params;
    double m, v, target;
    clink_lab_options opt;
    clink_lab_result last;
    int runs;
} lab_cal_ctx;

static clink_status lab_cal_eval(lab_cal_ctx *c, double x, double *f)
{
    clink_status st;

    c->opt.damping = x;
    c->runs++;
    st = clink_lab_impact(c->lab, c->law, c->params, c->m, c->v, &c->opt, &c->last);
    if (st != CLINK_OK)
        return st;
    *f = c->last.e_out - c->target;
    return CLINK_OK;
}

/* the upper end's scale: the law's own coefficient, or one from the elastic force */
static double lab_cal_scale(const clink_lab *lab, const clink_lab_calibration *cal,
                            const clink_law_info *info, double v_impact)
{
    double x_scale;

    if (cal->damping_law > 0.0 && isfinite(cal->damping_law)) {
        x_scale = cal->damping_law;
    } else {
        double d = lab->dscale, F = lab_force(lab, d, 0.0);
        double mexp = isfinite(info->m) ? info->m : 0.0;
        x_scale = 0.1 * F / (cal->damping_is_c ? v_impact : pow(d, mexp) * v_impact);
        if (!(x_scale > 0.0) || !isfinite(x_scale))
            x_scale = 1.0;
    }
    return x_scale;
}

/*
 * The bracket [a, b] with f(a) > 0 >= f(b), from f(a) > 0 and a first b: b grows
 * by 4 while f(b) > 0 and halves towards a where the contact does not separate.
 */
static clink_status lab_cal_bracket(lab_cal_ctx *c, double *a, double *fa, double *b, double *fb)
{
    clink_status st;
    int i;

    for (i = 0;; i++) {
        st = lab_cal_eval(c, *b, fb);
        if (st != CLINK_OK && st != CLINK_ERR_NO_CONVERGENCE)
            return st;
        if (st == CLINK_ERR_NO_CONVERGENCE) {
            *b = 0.5 * (*a + *b); /* overdamped: no separation; come back */
            if (i > 80)
                return lab_fail(c->lab, CLINK_ERR_NO_CONVERGENCE, "no bracket for the damping");
            continue;
        }
        if (*fb <= 0.0)
            break;
        *a = *b;
        *fa = *fb;
        *b *= 4.0;
        if (i > 80)
            return lab_fail(c->lab, CLINK_ERR_NO_CONVERGENCE,
                            "%s: no damping up to %g reaches e = %g", clink_law_name(c->law), *b,
                            c->target);
    }
    return CLINK_OK;
}

/* Brent's method on [a, b] with f(a) > 0 >= f(b); *b is left at the root */
static clink_status lab_cal_brent(lab_cal_ctx *c, double a, double fa, double *pb, double fb)
{
    lab_brent z = {a, *pb, a, fa, fb, fa, *pb - a, *pb - a};

    for (int i = 0; i < 200; i++) {
        lab_brent_bracket(&z, (z.fb > 0.0 && z.fc > 0.0) || (z.fb < 0.0 && z.fc < 0.0));
        double tol = 2.0 * 1e-16 * fabs(z.b) + 1e-300;
        double m = 0.5 * (z.c - z.b);
        if (fabs(z.fb) <= 1e-11 || fabs(m) <= tol)
            break;
        lab_brent_advance(&z, tol, m);
        clink_status st = lab_cal_eval(c, z.b, &z.fb);
        if (st != CLINK_OK)
            return st;
    }
    *pb = z.b;
    return CLINK_OK;
}

/*
 * The calibration's result at the damping b, found: tightens rtol and starts again
 * where the integration error of e_out is what keeps it from the target.
 */
static clink_status lab_cal_finish(lab_cal_ctx *c, const clink_contact_params *params, double K,
                                   double b, clink_lab_calibration *cal)
{
    clink_status st;
    double fb;

    st = lab_cal_eval(c, b, &fb);
    if (st != CLINK_OK)
        return st;
    cal->damping = b;
    cal->e_achieved = c->last.e_out;
    cal->impact = c->last;
    cal->alpha = b / sqrt(K * c->m);
    cal->iterations = c->runs;
    if (fabs(fb) > 1e-10 && c->opt.rtol >= 1e-13) {
        /* the integration error of e_out is the floor: tighten and start again */
        clink_lab_options tighter = c->opt;
        tighter.rtol = 0.1 * c->opt.rtol;
        return clink_lab_calibrate(c->lab, c->law, params, c->m, c->v, c->target, &tighter, cal);
    }
    if (fabs(fb) > 1e-9)
        return lab_fail(c->lab, CLINK_ERR_NO_CONVERGENCE,
                        "%s: calibration stopped at |e_out - e| = %.3g", clink_law_name(c->law),
                        fabs(fb));
    return CLINK_OK;
}

clink_status clink_lab_calibrate(clink_lab *lab, const clink_law *law,
                                 const clink_contact_params *params, double m_eff, double v_impact,
                                 double e_target, const clink_lab_options *options,
                                 clink_lab_calibration *cal)
{
    clink_contact_params p;
    lab_cal_ctx c;
    clink_status st;
    clink_law_info info;
    double a, b, fa, fb = NAN, K;

    if (lab == NULL)
        return CLINK_ERR_ARG;
    if (law == NULL || params == NULL || cal == NULL)
        return lab_fail(lab, CLINK_ERR_ARG, "law, parameters and result must not be NULL");
    if (!isfinite(e_target) || !(e_target > 0.0 && e_target <= 1.0))
        return lab_fail(lab, CLINK_ERR_RANGE, "target: %g is outside (0, 1]", e_target);
    memset(cal, 0, sizeof *cal);
    cal->e_target = e_target;
    p = *params;
    p.e = e_target;

    memset(&c, 0, sizeof c);
    c.lab = lab;
    c.law = law;
    c.params = &p;
    c.m = m_eff;
    c.v = v_impact;
    c.target = e_target;
    if (options != NULL)
        c.opt = *options;
    else
        clink_lab_options_init(&c.opt);
    c.opt.sample = NULL;

    /* the law's own rule */
    c.opt.damping = NAN;
    st = clink_lab_impact(lab, law, &p, m_eff, v_impact, &c.opt, &cal->impact);
    c.runs++;
    if (st != CLINK_OK)
        return st;
    cal->damping_law = cal->impact.damping_law;
    cal->e_law = cal->impact.e_out;
    cal->damping_is_c = cal->impact.damping_is_c;
    clink_law_get_info(law, &info);
    K = p.K;
    cal->alpha_law = cal->damping_law / sqrt(K * m_eff);

    /* lower end: no damping */
    st = lab_cal_eval(&c, 0.0, &fa);
    if (st == CLINK_ERR_ARG)
        return lab_fail(lab, CLINK_ERR_ARG, "law %s has no damping coefficient to calibrate",
                        clink_law_name(law));
    if (st != CLINK_OK)
        return st;
    a = 0.0;
    if (fabs(fa) <= 1e-10)
        return lab_cal_finish(&c, params, K, 0.0, cal);
    if (fa < 0.0)
        return lab_fail(lab, CLINK_ERR_NO_CONVERGENCE,
                        "%s: even without damping e_out = %.12g < target %.12g",
                        clink_law_name(law), fa + e_target, e_target);

    /* upper end: start above the law's own value so that Brent's method finds the
       root on its own, even where the law's rule is already exact */
    b = 2.0 * lab_cal_scale(lab, cal, &info, v_impact);
    st = lab_cal_bracket(&c, &a, &fa, &b, &fb);
    if (st != CLINK_OK)
        return st;
    if (fabs(fb) > 1e-10) {
        st = lab_cal_brent(&c, a, fa, &b, fb);
        if (st != CLINK_OK)
            return st;
    }
    return lab_cal_finish(&c, params, K, b, cal);
}
