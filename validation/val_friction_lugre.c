/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * LuGre presliding (Canudas de Wit, Olsson, Astrom and Lischinsky 1995) with the paper's
 * parameter set: sigma0 = 1e5 N/m, sigma1 = sqrt(1e5) N s/m, sigma2 = 0.4 N s/m,
 * F_C = 1 N, F_S = 1.5 N, v_s = 1e-3 m/s. A block of 1 kg under gravity 1 m/s^2 (normal
 * force F_n = 1 N, so clink's per-unit-normal-force parameters are the paper's numbers:
 * mu = 1, mu_s = 1.5, sigma0 = 1e5 1/m, sigma1 = 316.23 s/m) is moved along the floor by
 * a driver, x(t) = A sin(w t), A = 20 um, w = 0.2 pi rad/s (at most 12.6 um/s, far below
 * v_s), over one period: first loading, a reversal at x = A, a second at x = -A.
 *
 * Reference, not computed by clink: the closed form of the bristle state under a
 * monotonic displacement at g = F_n mu(v) ~ F_S (the slip is below 1.3 % of v_s, where
 * mu(v) differs from mu_s by less than 2e-4 relative):
 *   z(x) = (g / sigma0)(1 - exp(-sigma0 x / g))                       (loading from 0),
 *   z(x) = -g / sigma0 + (z_r + g / sigma0) exp(sigma0 (x - x_r) / g)   (after x_r = A),
 *   z(x) = g / sigma0 - (g / sigma0 - z_r) exp(-sigma0 (x - x_r) / g)   (after x_r = -A),
 * and F = F_n (sigma0 z + sigma1 z') + sigma2 v with z' = v dz/dx: the friction force on the
 * block along x is -F. Checked at 40 points of the period within 2e-3 N (0.13 % of F_S),
 * and the loop's extreme forces and the force at each x = 0 crossing (the loop's width).
 */
#include "friction_models.h"
#include "vjson.h"

#include <math.h>
#include <stdio.h>

static const double A = 20e-6, W = 0.2 * FR_PI, FS = 1.5, S0 = 1e5, S2 = 0.4;
static double s1(void)
{
    return sqrt(1e5);
}

/* the closed-form friction force on the block along x at t (see the file comment) */
static double closed_form(double t)
{
    double g = FS, x = A * sin(W * t), v = A * W * cos(W * t), T = 2 * FR_PI / W;
    double zr1 = (g / S0) * (1 - exp(-S0 * A / g));
    double zr2 = -g / S0 + (zr1 + g / S0) * exp(S0 * (-A - A) / g);
    double z, dzdx;
    if (t <= T / 4) {
        z = (g / S0) * (1 - exp(-S0 * x / g));
        dzdx = exp(-S0 * x / g);
    } else if (t <= 3 * T / 4) {
        z = -g / S0 + (zr1 + g / S0) * exp(S0 * (x - A) / g);
        dzdx = (S0 / g) * (zr1 + g / S0) * exp(S0 * (x - A) / g);
    } else {
        z = g / S0 - (g / S0 - zr2) * exp(-S0 * (x + A) / g);
        dzdx = (S0 / g) * (g / S0 - zr2) * exp(-S0 * (x + A) / g);
    }
    return -(1.0 * (S0 * z + s1() * dzdx * v) + S2 * v);
}

/* the friction force on the block along x at the current output */
static double measured(const clink_sim *sim)
{
    clink_contact_info ci;
    if (clink_sim_contact(sim, 0, &ci) != CLINK_OK)
        return NAN;
    return ci.ft * -ci.normal[1]; /* the tangent is (-n_y, n_x) */
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    char fr[256], drive[256], q[160];
    snprintf(fr, sizeof fr,
             "<friction type=\"lugre\" mu=\"1\" mu_s=\"1.5\" v_s=\"1e-3\" sigma0=\"1e5\" "
             "sigma1=\"%.17g\" sigma2=\"0.4\"/>",
             s1());
    snprintf(drive, sizeof drive, "<harmonic offset=\"0\" amplitude=\"%g\" frequency=\"%.17g\"/>",
             A, W);
    clink_model *model = friction_block_model(0.0, 1.0, 1.0, fr, 1e-9, drive);
    clink_sim *sim = NULL;
    char err[512];
    if (!model || clink_sim_create(model, NULL, &sim, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", model ? err : "no model");
        return 1;
    }
    vjson *vj = vjson_open(outdir, "friction_lugre",
                           "LuGre presliding hysteresis (Canudas de Wit et al. 1995 parameters) "
                           "against the closed form of the bristle state");
    if (!vj)
        return 1;
    double T = 2 * FR_PI / W, worst = 0.0, f_hi = -1e300, f_lo = 1e300;
    int failed = 0;
    for (int i = 1; i <= 40; i++) {
        double t = i * T / 40;
        if (clink_sim_advance(sim, t) != CLINK_OK) {
            fprintf(stderr, "%s\n", clink_sim_error(sim));
            failed = 1;
            break;
        }
        double f = measured(sim), ref = closed_form(t);
        worst = fmax(worst, fabs(f - ref));
        f_hi = fmax(f_hi, f);
        f_lo = fmin(f_lo, f);
        if (i == 10 || i == 20 || i == 30 || i == 40) {
            snprintf(q, sizeof q, "friction force at t = %g T (x = %.3g um)", i / 40.0,
                     1e6 * A * sin(W * t));
            vjson_row(vj, q, f, ref, 2e-3, "N");
        }
    }
    vjson_row(vj, "largest deviation from the closed form over 40 points", worst, 0.0, 2e-3, "N");
    vjson_info(vj, "largest friction force on the loop", f_hi, "N");
    vjson_info(vj, "smallest friction force on the loop", f_lo, "N");
    snprintf(q, sizeof q, "presliding displacement scale F_S / sigma0");
    vjson_info(vj, q, FS / S0, "m");
    vjson_check(vj, "the run completed", failed ? 0 : 1, "no failure", !failed, "-");
    clink_sim_destroy(&sim);
    clink_model_destroy(&model);
    return vjson_close(vj);
}
