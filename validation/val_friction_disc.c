/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The disc with backspin on a rough floor (Routh 1905) with each law of the friction
 * catalogue. A uniform disc (m = 1 kg, R = 0.1 m, J = m R^2 / 2) is launched along the
 * floor at v0 = 1 m/s with the backspin omega0 (counter-clockwise); the contact point
 * slips at s = v + omega R. During sliding the friction passes through the contact
 * point, so the angular momentum about it is conserved whatever the law:
 *   v_final = (v0 - omega0 J / (m R)) / (1 + J / (m R^2)) = (2 v0 - omega0 R) / 3,
 * forward when omega0 R < 2 v0, back towards the start when omega0 R > 2 v0 (Routh's two
 * cases; the disc then rolls without slipping, which every law sustains on a level floor:
 * no tangential force is needed). While it slides, s' = -3 g mu_eff(s) (the friction
 * F = -mu(s) m g decelerates the centre by mu g and spins the disc up by 2 mu g / R), so
 * the slip reaches s_end at
 *   t(s_end) = integral from s_end to s0 of ds / (3 g mu(s))
 * (Coulomb: (s0 - s_end) / (3 mu g); the Stribeck curve by Simpson's rule with 2000
 * panels here; for LuGre, whose bristle damping sigma1 z' adds friction while the slip
 * decelerates through the Stribeck region, the slip's own two-state equation with a rigid
 * normal force integrated by Runge-Kutta here). Checked for both cases and every law: the
 * rolling velocity at 1.5 s within 1e-4 m/s (the dead-band law leaves a slip below
 * v0 = 1e-4 m/s unresolved: 2e-4), and the time the slip falls to s_end = 5e-3 m/s within
 * 1e-5 s (the slip falls linearly between the samples 1e-4 s apart).
 */
#include "friction_models.h"
#include "vjson.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const double G = 9.81, R = 0.1, V0 = 1.0, MU = 0.3, MU_S = 0.45, VS = 0.05, S_END = 5e-3;

static clink_model *disc(double omega0, const char *friction)
{
    static char xml[2048];
    double d = G / 1e7; /* static penetration m g / K */
    snprintf(xml, sizeof xml,
             "<mechanism name=\"disc\">\n"
             "  <settings t_end=\"1.5\" output_step=\"1e-3\" method=\"bdf\" rtol=\"1e-9\" "
             "atol=\"1e-12\" drift=\"projection\"/>\n"
             "  <gravity g=\"0 %.17g\"/>\n"
             "  <bodies><body name=\"disc\" mass=\"1\" inertia=\"%.17g\" x=\"0\" y=\"%.17g\" "
             "vx=\"%g\" omega=\"%.17g\"/></bodies>\n"
             "  <contacts><pair name=\"floor\">\n"
             "    <circle body=\"disc\" center=\"0 0\" radius=\"%g\"/>\n"
             "    <line body=\"ground\" point=\"0 0\" normal=\"0 1\"/>\n"
             "    <law name=\"kelvin-voigt\" K=\"1e7\" c=\"2000\" zero_force=\"1\"/>\n"
             "    %s\n"
             "  </pair></contacts>\n"
             "</mechanism>\n",
             -G, 0.5 * R * R, R - d, V0, omega0, R, friction);
    clink_model *model = NULL;
    char err[512];
    if (clink_xml_load_memory(xml, strlen(xml), "disc.xml", &model, NULL, err, sizeof err) !=
        CLINK_OK)
        fprintf(stderr, "%s\n", err);
    return model;
}

/* the Stribeck curve of the laws stribeck and lugre here */
static double mu_of(double s)
{
    return MU + (MU_S - MU) * exp(-(s / VS) * (s / VS));
}

/* integral from S_END to s0 of ds / (3 g mu(s)), Simpson's rule (stribeck = 0: Coulomb) */
static double t_reach(double s0, int stribeck)
{
    if (!stribeck)
        return (s0 - S_END) / (3 * MU * G);
    int n = 2000;
    double h = (s0 - S_END) / n, sum = 0.0;
    for (int i = 0; i <= n; i++) {
        double w = i == 0 || i == n ? 1.0 : i % 2 ? 4.0 : 2.0;
        sum += w / (3 * G * mu_of(S_END + i * h));
    }
    return sum * h / 3.0;
}

/* LuGre's slip s (rigid normal force m g): s' = -3 g (sigma0 z + sigma1 z'),
   z' = s - sigma0 |s| z / mu(s), from s0, z = 0, by the classical Runge-Kutta method with
   h = 1e-7 s (the bristle decay sigma0 s / mu is at most 1e6 / s); the time s reaches
   S_END, interpolated linearly in the last step */
static void lugre_rates(double s, double z, double *sd, double *zd)
{
    const double s0 = 1e5, s1 = 300.0;
    *zd = s - s0 * fabs(s) * z / mu_of(s);
    *sd = -3 * G * (s0 * z + s1 * *zd);
}

static double lugre_reach(double s0)
{
    double s = s0, z = 0.0, t = 0.0, h = 1e-7;
    while (t < 2.0) {
        double k1s, k1z, k2s, k2z, k3s, k3z, k4s, k4z;
        lugre_rates(s, z, &k1s, &k1z);
        lugre_rates(s + 0.5 * h * k1s, z + 0.5 * h * k1z, &k2s, &k2z);
        lugre_rates(s + 0.5 * h * k2s, z + 0.5 * h * k2z, &k3s, &k3z);
        lugre_rates(s + h * k3s, z + h * k3z, &k4s, &k4z);
        double sn = s + h * (k1s + 2 * k2s + 2 * k3s + k4s) / 6;
        z += h * (k1z + 2 * k2z + 2 * k3z + k4z) / 6;
        if (sn <= S_END)
            return t + h * (s - S_END) / (s - sn);
        s = sn;
        t += h;
    }
    return NAN;
}

/* the time the slip falls to S_END (linear interpolation, 1e-4 s samples) and v at 1.5 s */
static int run(double omega0, const char *friction, double *t_end, double *v_end)
{
    clink_model *model = disc(omega0, friction);
    clink_sim *sim = NULL;
    char err[512];
    if (!model || clink_sim_create(model, NULL, &sim, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", model ? err : "no model");
        clink_model_destroy(&model);
        return -1;
    }
    double s_prev = V0 + omega0 * R, q[3], v[3];
    *t_end = NAN;
    int rc = 0;
    for (int i = 1; i <= 15000 && rc == 0; i++) {
        if (clink_sim_advance(sim, i * 1e-4) != CLINK_OK) {
            fprintf(stderr, "%s\n", clink_sim_error(sim));
            rc = -1;
            break;
        }
        clink_sim_body_state(sim, 1, q, v);
        double s = v[0] + v[2] * R;
        if (isnan(*t_end) && s <= S_END)
            *t_end = (i - 1) * 1e-4 + 1e-4 * (s_prev - S_END) / (s_prev - s);
        s_prev = s;
    }
    *v_end = v[0];
    clink_sim_destroy(&sim);
    clink_model_destroy(&model);
    return rc;
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    vjson *vj = vjson_open(outdir, "friction_disc",
                           "Disc with backspin on a rough floor (Routh): rolling velocity and "
                           "the end of sliding for every friction law");
    if (!vj)
        return 1;
    char fr[6][200];
    snprintf(fr[0], sizeof fr[0], "<friction type=\"coulomb\" mu=\"%g\"/>", MU);
    snprintf(fr[1], sizeof fr[1], "<friction type=\"coulomb-ramp\" mu=\"%g\" v1=\"1e-5\"/>", MU);
    snprintf(fr[2], sizeof fr[2], "<friction type=\"coulomb-tanh\" mu=\"%g\" v1=\"1e-5\"/>", MU);
    snprintf(fr[3], sizeof fr[3],
             "<friction type=\"stribeck\" mu=\"%g\" mu_s=\"%g\" v_s=\"%g\" v1=\"1e-5\"/>", MU, MU_S,
             VS);
    snprintf(fr[4], sizeof fr[4],
             "<friction type=\"lugre\" mu=\"%g\" mu_s=\"%g\" v_s=\"%g\" sigma0=\"1e5\" "
             "sigma1=\"300\"/>",
             MU, MU_S, VS);
    snprintf(fr[5], sizeof fr[5], "<friction type=\"dahl\" mu=\"%g\" sigma0=\"1e5\"/>", MU);
    const char *names[6] = {"coulomb", "coulomb-ramp", "coulomb-tanh", "stribeck", "lugre", "dahl"};
    const double spins[2] = {0.5 * V0 / R, 4.0 * V0 / R};
    int failed = 0;
    for (int c = 0; c < 2; c++)
        for (int l = 0; l < 6; l++) {
            double t, v;
            char q[160];
            if (run(spins[c], fr[l], &t, &v) != 0) {
                failed = 1;
                continue;
            }
            snprintf(q, sizeof q, "%s, omega0 R = %g v0: rolling velocity", names[l],
                     spins[c] * R / V0);
            vjson_row(vj, q, v, (2 * V0 - spins[c] * R) / 3, l == 0 ? 2e-4 : 1e-4, "m/s");
            snprintf(q, sizeof q, "%s, omega0 R = %g v0: time the slip falls to 5 mm/s", names[l],
                     spins[c] * R / V0);
            double ref =
                l == 4 ? lugre_reach(V0 + spins[c] * R) : t_reach(V0 + spins[c] * R, l == 3);
            vjson_row(vj, q, t, ref, 1e-5, "s");
        }
    vjson_check(vj, "every run completed", failed ? 0 : 1, "no failure", !failed, "-");
    return vjson_close(vj);
}
