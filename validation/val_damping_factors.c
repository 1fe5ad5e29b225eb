/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Damping factors of the Hunt-Crossley family against the restitution e (Alves et al. (2015)
 * Sect. 3, Fig. 2): chi / (K / v) = chi v / K for every law whose chi is fixed from
 * e, K and the impact velocity v, computed by clink_law_onset() with K = 1 N/m^1.5,
 * v = 1 m/s, m_eff = 1 kg (the paper's "ratio between contact stiffness and initial
 * impact velocity equal to unity").
 *
 * Checks the paper's qualitative statements about Fig. 2:
 *   1. all laws but Gharib-Hurmuzlu respond alike for e > 0.7 (their spread is
 *      smaller than Gharib-Hurmuzlu's distance from them);
 *   2. Lee-Wang dissipates the least (smallest factor) for every e;
 *   3. Gonthier/Zhang-Sharf, Zhiying-Qishao and Flores are alike for e > 0.5;
 *   4. at low e Gonthier, Flores and Gharib-Hurmuzlu are close and far above the
 *      others, and their factors grow without bound as e -> 0;
 * plus the ordering at e = 0.5 and where Gharib-Hurmuzlu stops being the largest.
 * Each factor is also compared with its Table 1 formula written out here.
 *
 * Writes OUTDIR/damping_factors.json (rows) and OUTDIR/damping_factors_curves.json
 * (the curves, for validation/plots/damping_factors.py).
 */
#include "clink/contact.h"

#include "vjson.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const laws[] = {
    "hunt-crossley", "herbert-mcwhannell", "lee-wang",       "lankarani-nikravesh",
    "gonthier",      "gonthier-exact",     "zhiying-qishao", "flores",
    "hu-guo",        "gharib-hurmuzlu",
};
enum { NLAW = sizeof(laws) / sizeof(laws[0]) };
enum { I_HC, I_HM, I_LW, I_LN, I_GO, I_GX, I_ZQ, I_FL, I_HG, I_GH };

/*
 * d of Poursina and Nikravesh (2020), Eq. 19, (1 + d/e) / (1 - d) = exp(d (1 + 1/e)),
 * the root in (0, 1), solved here independently of the library (whose
 * clink_contact_gonthier_d bisects on a sign test), by Newton's method on
 * f(d) = log(1 + d/e) - log(1 - d) - d (1 + 1/e) = sum_k>=2 d^k (1 - (-1/e)^k) / k:
 *  - e >= 0.8 (d/e < 0.35): on f / d^2, the power series with the trivial double
 *    root d = 0 divided out (f itself loses all digits to cancellation there),
 *    from the root of its first two terms;
 *  - e < 0.8: on f in s = -log(1 - d) (d reaches 1 - 1e-90 at e = 0.005), from
 *    the right, where f is convex in s, so that the iterates decrease to the root.
 */
static double eq19_d(double e)
{
    if (e >= 1.0)
        return 0.0;
    if (e >= 0.8) {
        double d = -0.5 * (1 - 1 / (e * e)) / ((1 + 1 / (e * e * e)) / 3);
        for (int it = 0; it < 100; it++) {
            double h = 0, hp = 0, dk = 1, sg = 1 / (e * e); /* (-1/e)^k for k = 2 */
            for (int k = 2; k < 120; k++) {
                double c = (1 - sg) / k;
                h += c * dk;
                if (k > 2)
                    hp += (k - 2) * c * dk / d;
                dk *= d;
                sg *= -1 / e;
            }
            double step = h / hp;
            d -= step;
            if (fabs(step) <= 1e-17 * d)
                break;
        }
        return d;
    }
    double x = 1 + 1 / e + 1; /* s, above the root */
    for (int it = 0; it < 200; it++) {
        double d = -expm1(-x);
        double f = log1p(d / e) + x - d * (1 + 1 / e);
        double fp = exp(-x) / (e + d) + 1 - exp(-x) * (1 + 1 / e);
        double step = f / fp;
        x -= step;
        if (fabs(step) <= 1e-16 * x)
            break;
    }
    return -expm1(-x);
}

/* chi v / K of Alves et al. (2015), Table 1 (gonthier-exact: d/e of Poursina and Nikravesh (2020),
 * Eq. 18, d of Eq. 19 solved above) */
static double table1(int i, double e)
{
    switch (i) {
    case I_HC:
        return 1.5 * (1 - e);
    case I_HM:
        return 6 * (1 - e) / ((2 * e - 1) * (2 * e - 1) + 3);
    case I_LW:
        return 0.75 * (1 - e);
    case I_LN:
        return 0.75 * (1 - e * e);
    case I_GO:
        return (1 - e * e) / e;
    case I_GX:
        return eq19_d(e) / e;
    case I_ZQ:
        return 0.75 * (1 - e * e) * exp(2 * (1 - e));
    case I_FL:
        return 1.6 * (1 - e) / e;
    case I_HG:
        return 1.5 * (1 - e) / e;
    case I_GH:
        return 1 / e;
    default:
        return NAN;
    }
}

/* chi v / K from the library at K = 1, v = 1, m = 1 */
static double factor(int i, double e)
{
    clink_contact_params p;
    clink_contact_state s;

    clink_contact_params_init(&p);
    clink_contact_params_set(&p, "K", 1);
    clink_contact_params_set(&p, "e", e);
    clink_contact_state_init(&s);
    if (clink_law_onset(clink_law_find(laws[i]), &p, 1.0, 1.0, &s) != CLINK_OK)
        return NAN;
    return s.chi;
}

static int in_group(int i, const int *group, int n)
{
    int k;

    for (k = 0; k < n; k++)
        if (group[k] == i)
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    enum { NE = 199 };
    static double f[NLAW][NE];
    double es[NE];
    vjson *v =
        vjson_open(outdir, "damping_factors",
                   "Damping factor chi/(K/v) vs e, Alves et al. (2015), Fig. 2 and its claims");
    char path[1024], q[160];
    FILE *out;
    int i, k;
    int ok1 = 1, ok2 = 1, ok3 = 1;
    double worst1 = INFINITY, worst3 = 0, max_dev = 0;

    if (v == NULL)
        return 1;
    for (k = 0; k < NE; k++) {
        es[k] = 0.005 * (k + 1); /* 0.005 ... 0.995 */
        for (i = 0; i < NLAW; i++) {
            f[i][k] = factor(i, es[k]);
            if (!(fabs(f[i][k] - table1(i, es[k])) <= 1e-12 * fabs(table1(i, es[k]))))
                max_dev = INFINITY;
        }
    }
    for (i = 0; i < NLAW; i++)
        for (k = 0; k < NE; k += 33) {
            snprintf(q, sizeof q, "chi v/K %s e=%.3f (library vs Table 1 formula)", laws[i], es[k]);
            vjson_row_rel(v, q, f[i][k], table1(i, es[k]), 1e-12, "-");
        }
    vjson_check(v, "every factor of the grid equals its formula to 1e-12", max_dev, "0",
                max_dev == 0, "-");

    /* 1. e > 0.7: all but Gharib-Hurmuzlu alike */
    for (k = 0; k < NE; k++) {
        double lo = INFINITY, hi = -INFINITY;
        if (es[k] < 0.7)
            continue;
        for (i = 0; i < NLAW; i++) {
            if (i == I_GH)
                continue;
            lo = fmin(lo, f[i][k]);
            hi = fmax(hi, f[i][k]);
        }
        if (!(f[I_GH][k] - hi > hi - lo))
            ok1 = 0;
        worst1 = fmin(worst1, (f[I_GH][k] - hi) / (hi - lo));
    }
    vjson_check(v, "e>=0.7: (GH - max others) / (spread of others), smallest", worst1, "> 1", ok1,
                "-");

    /* 2. Lee-Wang the least dissipative for every e */
    for (k = 0; k < NE; k++)
        for (i = 0; i < NLAW; i++)
            if (i != I_LW && !(f[I_LW][k] < f[i][k]))
                ok2 = 0;
    vjson_check(v, "Lee-Wang has the smallest factor for every e in (0, 1)", f[I_LW][99],
                "smallest", ok2, "-");

    /* 3. e >= 0.5: Gonthier, Zhiying-Qishao, Flores alike (within 4/3, their e -> 1 ratio) */
    {
        int group[] = {I_GO, I_ZQ, I_FL};
        for (k = 0; k < NE; k++) {
            double lo = INFINITY, hi = -INFINITY;
            if (es[k] < 0.5)
                continue;
            for (i = 0; i < 3; i++) {
                lo = fmin(lo, f[group[i]][k]);
                hi = fmax(hi, f[group[i]][k]);
            }
            worst3 = fmax(worst3, hi / lo);
            if (!(hi / lo <= 4.0 / 3.0))
                ok3 = 0;
        }
        vjson_check(v, "e>=0.5: max/min of Gonthier, Zhiying-Qishao, Flores", worst3, "<= 4/3", ok3,
                    "-");
    }

    /* 4. low e: Gonthier, Flores, Gharib-Hurmuzlu close, above the rest, unbounded */
    {
        int group[] = {I_GO, I_FL, I_GH};
        int k01 = 19; /* e = 0.1 */
        double gmin = INFINITY, gmax = 0, omax = 0;

        for (i = 0; i < NLAW; i++) {
            if (in_group(i, group, 3)) {
                gmin = fmin(gmin, f[i][k01]);
                gmax = fmax(gmax, f[i][k01]);
            } else if (i != I_GX && i != I_HG) {
                omax = fmax(omax, f[i][k01]);
            }
        }
        vjson_check(v, "e=0.1: max/min of Gonthier, Flores, Gharib-Hurmuzlu", gmax / gmin, "< 1.5",
                    gmax / gmin < 1.5, "-");
        vjson_check(v, "e=0.1: min of that group / max of HC, HM, LW, LN, ZQ", gmin / omax, "> 2",
                    gmin / omax > 2, "-");
        for (i = 0; i < 3; i++) {
            double r = factor(group[i], 0.001) / factor(group[i], 0.1);
            snprintf(q, sizeof q, "%s: chi(e=0.001)/chi(e=0.1) (grows as 1/e)", laws[group[i]]);
            vjson_check(v, q, r, "> 50", r > 50, "-");
        }
        {
            double r = factor(I_HC, 0.001) / factor(I_HC, 0.1);
            vjson_check(v, "hunt-crossley: chi(e=0.001)/chi(e=0.1) (bounded)", r, "< 1.2", r < 1.2,
                        "-");
        }
    }

    /* ordering at e = 0.5 and the e below which Flores exceeds Gharib-Hurmuzlu */
    {
        int k05 = 99, order_ok, lw_min = 1, gh_max = 1;
        for (i = 0; i < NLAW; i++) {
            if (i != I_LW && f[i][k05] <= f[I_LW][k05])
                lw_min = 0;
            if (i != I_GH && f[i][k05] >= f[I_GH][k05])
                gh_max = 0;
        }
        order_ok = f[I_LW][k05] < f[I_LN][k05] && f[I_LN][k05] < f[I_HC][k05] &&
                   f[I_HC][k05] < f[I_HM][k05] && f[I_HM][k05] < f[I_GO][k05] &&
                   f[I_GO][k05] < f[I_GH][k05];
        vjson_check(v, "e=0.5: LW < LN < HC < HM < Gonthier < GH", f[I_GH][k05], "ordered",
                    order_ok, "-");
        vjson_check(v, "e=0.5: Lee-Wang smallest, Gharib-Hurmuzlu largest", f[I_GH][k05],
                    "extremes", lw_min && gh_max, "-");
        for (i = 0; i < NLAW; i++) {
            snprintf(q, sizeof q, "chi v/K at e=0.5: %s", laws[i]);
            vjson_info(v, q, f[i][k05], "-");
        }
    }
    {
        /* Flores 1.6 (1 - e)/e > 1/e below e = 0.375: bisection on the library's factors */
        double lo = 0.05, hi = 0.95;
        for (k = 0; k < 60; k++) {
            double mid = 0.5 * (lo + hi);
            if (factor(I_FL, mid) > factor(I_GH, mid))
                lo = mid;
            else
                hi = mid;
        }
        vjson_row(v, "e below which Flores exceeds Gharib-Hurmuzlu (1.6(1-e) = 1)", lo, 0.375,
                  1e-12, "-");
    }

    /* the curves for the figure */
    snprintf(path, sizeof path, "%s/damping_factors_curves.json", outdir);
    out = fopen(path, "w");
    if (out == NULL) {
        fprintf(stderr, "cannot write %s\n", path);
        return 1;
    }
    fprintf(out, "{\"e\": [");
    for (k = 0; k < NE; k++)
        fprintf(out, "%s%.6g", k ? ", " : "", es[k]);
    fprintf(out, "],\n \"factors\": {");
    for (i = 0; i < NLAW; i++) {
        fprintf(out, "%s\n  \"%s\": [", i ? "," : "", laws[i]);
        for (k = 0; k < NE; k++)
            fprintf(out, "%s%.10g", k ? ", " : "", f[i][k]);
        fprintf(out, "]");
    }
    fprintf(out, "}}\n");
    if (fclose(out) != 0)
        return 1;
    return vjson_close(v);
}
