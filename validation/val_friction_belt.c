/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Stick-slip of a mass on a moving belt through a spring, with the friction laws
 * stribeck, lugre and stribeck-tanh, against an independent SciPy reference of the same law
 * (validation/ref_friction_belt.py: one coordinate, a rigid normal contact).
 *
 * The mechanism: a belt (a body whose x = vb t, y and angle are prescribed by drivers)
 * carrying a line; on it a block of 1 kg (a circle of radius 50 mm whose angle a driver
 * holds) pressed by gravity 1 m/s^2 through a stiff Kelvin-Voigt contact (F_n = 1 N),
 * tied to the ground by a horizontal spring k = 2 N/m free at x = 0. Laws (F_n = 1 N):
 * mu = 1, mu_s = 1.5, v_s = 1e-3 m/s, sigma2 = 0.4 N s/m; stribeck with v1 = 1e-4 m/s;
 * lugre with sigma0 = 1e5 1/m, sigma1 = sqrt(1e5) s/m (the parameter set of Canudas de
 * Wit et al. 1995); stribeck-tanh with its tanh at v1 = eps = 1e-4 m/s. Over 40 s from rest,
 * sampled every 1 ms: the period of the stick-slip cycle (the mean spacing of the maxima of x after
 * 10 s) within 0.2 % (the sampling), its amplitude (half the mean of maxima minus minima) and the
 * largest x (where the spring breaks the stick: mu_s F_n / k plus the overshoot) within 1e-4
 * relative.
 */
#include "vjson.h"

#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define NS 40000

static clink_model *belt_model(const char *friction)
{
    static char xml[4096];
    double d = 1.0 / 1e7; /* static penetration m g / K */
    snprintf(xml, sizeof xml,
             "<mechanism name=\"belt\">\n"
             "  <settings t_end=\"40\" output_step=\"1e-3\" method=\"bdf\" rtol=\"1e-9\" "
             "atol=\"1e-12\" drift=\"projection\"/>\n"
             "  <gravity g=\"0 -1\"/>\n"
             "  <bodies>\n"
             "    <body name=\"belt\" mass=\"1\" inertia=\"1\" x=\"0\" y=\"0\"/>\n"
             "    <body name=\"block\" mass=\"1\" inertia=\"0.001\" x=\"0\" y=\"%.17g\"/>\n"
             "  </bodies>\n"
             "  <drivers>\n"
             "    <driver name=\"bx\" type=\"coordinate\" body=\"belt\" coordinate=\"x\"><linear "
             "initial=\"0\" rate=\"0.1\"/></driver>\n"
             "    <driver name=\"by\" type=\"coordinate\" body=\"belt\" coordinate=\"y\"><constant "
             "value=\"0\"/></driver>\n"
             "    <driver name=\"bphi\" type=\"coordinate\" body=\"belt\" "
             "coordinate=\"phi\"><constant value=\"0\"/></driver>\n"
             "    <driver name=\"hold\" type=\"coordinate\" body=\"block\" "
             "coordinate=\"phi\"><constant value=\"0\"/></driver>\n"
             "  </drivers>\n"
             "  <loads><spring_damper name=\"spring\" body1=\"block\" body2=\"ground\" "
             "point1=\"0 0\" point2=\"-2 %.17g\" stiffness=\"2\" length=\"2\"/></loads>\n"
             "  <contacts><pair name=\"belt\">\n"
             "    <circle body=\"block\" center=\"0 0\" radius=\"0.05\"/>\n"
             "    <line body=\"belt\" point=\"0 0\" normal=\"0 1\"/>\n"
             "    <law name=\"kelvin-voigt\" K=\"1e7\" c=\"2000\" zero_force=\"1\"/>\n"
             "    %s\n"
             "  </pair></contacts>\n"
             "</mechanism>\n",
             0.05 - d, 0.05 - d, friction);
    clink_model *model = NULL;
    char err[512];
    if (clink_xml_load_memory(xml, strlen(xml), "belt.xml", &model, NULL, err, sizeof err) !=
        CLINK_OK)
        fprintf(stderr, "%s\n", err);
    return model;
}

/* period, amplitude and largest maximum of x sampled every 1 ms, after t = 10 s */
static void measure(const double *x, double out[3])
{
    double tmax0 = -1, tmax1 = -1, smax = 0, smin = 0, xm = -1e300;
    int nmax = 0, nmin = 0;
    for (int i = 10001; i < NS - 1; i++) {
        if (x[i] > x[i - 1] && x[i] >= x[i + 1]) {
            if (tmax0 < 0)
                tmax0 = (i + 1) * 1e-3;
            tmax1 = (i + 1) * 1e-3;
            smax += x[i];
            nmax++;
            xm = fmax(xm, x[i]);
        }
        if (x[i] < x[i - 1] && x[i] <= x[i + 1]) {
            smin += x[i];
            nmin++;
        }
    }
    out[0] = nmax > 1 ? (tmax1 - tmax0) / (nmax - 1) : NAN;
    out[1] = nmax && nmin ? 0.5 * (smax / nmax - smin / nmin) : NAN;
    out[2] = xm;
}

static int run(const char *friction, double out[3])
{
    static double x[NS];
    clink_model *model = belt_model(friction);
    clink_sim *sim = NULL;
    char err[512];
    if (!model || clink_sim_create(model, NULL, &sim, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", model ? err : "no model");
        clink_model_destroy(&model);
        return -1;
    }
    int rc = 0;
    for (int i = 0; i < NS && rc == 0; i++) {
        double q[3], v[3];
        if (clink_sim_advance(sim, (i + 1) * 1e-3) != CLINK_OK) {
            fprintf(stderr, "%s\n", clink_sim_error(sim));
            rc = -1;
            break;
        }
        clink_sim_body_state(sim, 2, q, v);
        x[i] = q[0];
    }
    clink_sim_destroy(&sim);
    clink_model_destroy(&model);
    if (rc == 0)
        measure(x, out);
    return rc;
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    char fr[256], q[160];
    const char *laws[3] = {"stribeck", "lugre", "stribeck_tanh"};
    if (vref_run(outdir, "ref_friction_belt.py", "") != 0)
        return 1;
    vref *ref = vref_load(outdir, "friction_belt_ref.csv");
    if (!ref)
        return 1;
    vjson *vj =
        vjson_open(outdir, "friction_belt",
                   "Stick-slip on a moving belt (stribeck, lugre, stribeck-tanh) against a SciPy "
                   "reference of the same law");
    if (!vj)
        return 1;
    int failed = 0;
    for (int l = 0; l < 3; l++) {
        if (l == 0)
            snprintf(fr, sizeof fr,
                     "<friction type=\"stribeck\" mu=\"1\" mu_s=\"1.5\" v_s=\"1e-3\" "
                     "sigma2=\"0.4\" v1=\"1e-4\"/>");
        else if (l == 1)
            snprintf(fr, sizeof fr,
                     "<friction type=\"lugre\" mu=\"1\" mu_s=\"1.5\" v_s=\"1e-3\" sigma2=\"0.4\" "
                     "sigma0=\"1e5\" sigma1=\"%.17g\"/>",
                     sqrt(1e5));
        else
            snprintf(fr, sizeof fr,
                     "<friction type=\"stribeck-tanh\" mu=\"1\" mu_s=\"1.5\" v_s=\"1e-3\" "
                     "sigma2=\"0.4\" v1=\"1e-4\"/>");
        double m[3];
        if (run(fr, m) != 0) {
            failed = 1;
            continue;
        }
        const char *what[3] = {"period", "amplitude", "xmax"};
        const char *units[3] = {"s", "m", "m"};
        const double tol[3] = {2e-3, 1e-4, 1e-4};
        for (int k = 0; k < 3; k++) {
            char key[64];
            snprintf(key, sizeof key, "%s_%s", laws[l], what[k]);
            snprintf(q, sizeof q, "%s: stick-slip %s", laws[l], what[k]);
            vjson_row_rel(vj, q, m[k], vref_get(ref, key), tol[k], units[k]);
        }
    }
    vjson_check(vj, "every run completed", failed ? 0 : 1, "no failure", !failed, "-");
    vref_free(ref);
    return vjson_close(vj);
}
