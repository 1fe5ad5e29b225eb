/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Validation: kinematic analysis (clink kinematics, src/analysis/analysis_kinematics.c)
 * against the closed forms of the four-bar linkage of models/four_bar.xml (ground d = 0.4 m,
 * crank a = 0.1 m, coupler b = 0.4 m, rocker c = 0.3 m; a Grashof crank-rocker).
 *
 * Crank driven over one turn (361 values): the rocker angle th4 against Freudenstein's
 * equation (Freudenstein 1955) K1 cos th4 - K2 cos th2 + K3 = cos(th2 - th4), K1 = d / a,
 * K2 = d / c, K3 = (a^2 - b^2 + c^2 + d^2) / (2 a c), solved as the quadratic in tan(th4 / 2)
 * on the branch of the model's assembly; the rocker's velocity coefficient from its implicit
 * derivative dth4/dth2 = (K2 sin th2 + sin(th2 - th4)) / (K1 sin th4 + sin(th2 - th4)); the
 * coupler point B against B = O4 + c (cos th4, sin th4); the transmission angle at B against
 * the law of cosines in the triangle A B O4, cos mu = (b^2 + c^2 - |A O4|^2) / (2 b c),
 * |A O4|^2 = a^2 + d^2 - 2 a d cos th2.
 *
 * Rocker driven from 70.25 to 150.25 degrees: the crank-rocker's rocker only reaches
 * [90, 131.81] degrees, its limits where crank and coupler are collinear (|O2 B| = b + a or
 * b - a: cos th4 = ((b +- a)^2 - d^2 - c^2) / (2 d c)). Every value inside must assemble,
 * every value outside must fail, and a dead point must be flagged within one step of each
 * limit.
 */
#include "clink/analysis.h"
#include "vjson.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const double PI = 3.14159265358979323846;
static const double A = 0.1, B = 0.4, C = 0.3, D = 0.4;

static void rod(clink_model_builder *b, const char *name, double L, double x, double y, double phi)
{
    clink_body_def bd = clink_default_body_def();
    bd.name = name;
    bd.mass = 2.0 * L;
    bd.inertia = bd.mass * L * L / 12;
    bd.x = x;
    bd.y = y;
    bd.phi = phi;
    clink_model_builder_add_body(b, &bd, NULL);
}

static int pin(clink_model_builder *b, const char *name, int ba, double ax, int bb, double bx)
{
    clink_joint_def jd = clink_default_joint_def();
    int id = -1;
    jd.name = name;
    jd.body_a = ba;
    jd.body_b = bb;
    jd.point_a[0] = ax;
    jd.point_b[0] = bx;
    clink_model_builder_add_joint(b, &jd, &id);
    return id;
}

/* the four-bar of models/four_bar.xml at its start, driven at joint `driven` ("O2", "O4") */
static clink_model *four_bar(const char *driven)
{
    clink_model_builder *b = clink_model_builder_create();
    rod(b, "crank", A, 0.0, 0.05, PI / 2);
    rod(b, "coupler", B, 0.174452083820543, 0.197808335282173, 0.510990747297);
    rod(b, "rocker", C, 0.374452083820543, 0.147808335282173, 1.74195016464);
    int o2 = pin(b, "O2", 0, 0.0, 1, -A / 2);
    pin(b, "A", 1, A / 2, 2, -B / 2);
    pin(b, "B", 2, B / 2, 3, C / 2);
    clink_joint_def jd = clink_default_joint_def();
    jd.name = "O4";
    jd.body_a = 0;
    jd.body_b = 3;
    jd.point_a[0] = D;
    jd.point_b[0] = -C / 2;
    int o4 = -1;
    clink_model_builder_add_joint(b, &jd, &o4);
    clink_driver_def dd = clink_default_driver_def();
    dd.name = "motor";
    dd.target = CLINK_DRIVE_JOINT_ANGLE;
    dd.joint = strcmp(driven, "O2") == 0 ? o2 : o4;
    dd.function.type = CLINK_FUNCTION_LINEAR;
    dd.function.c[0] = strcmp(driven, "O2") == 0 ? PI / 2 : 1.74195016464;
    dd.function.c[1] = 1.0;
    clink_model_builder_add_driver(b, &dd, NULL);
    clink_model *m = NULL;
    if (clink_model_builder_finalize(b, &m) != CLINK_OK)
        fprintf(stderr, "%s\n", clink_model_builder_error(b));
    clink_model_builder_destroy(&b);
    return m;
}

static int column(const clink_kinematics *k, const char *name)
{
    for (int c = 0; c < clink_kinematics_columns(k); c++)
        if (strcmp(clink_kinematics_column_name(k, c), name) == 0)
            return c;
    fprintf(stderr, "no column %s\n", name);
    return 0;
}

/* th4 by Freudenstein's equation, the root nearest to `near` */
static double freudenstein(double th2, double near)
{
    double K1 = D / A, K2 = D / C, K3 = (A * A - B * B + C * C + D * D) / (2 * A * C);
    double qa = cos(th2) - K1 - K2 * cos(th2) + K3, qb = -2 * sin(th2);
    double qc = K1 - (K2 + 1) * cos(th2) + K3, disc = sqrt(qb * qb - 4 * qa * qc), best = NAN;
    for (int s = -1; s <= 1; s += 2) {
        double th4 = 2 * atan((-qb + s * disc) / (2 * qa));
        th4 = near + remainder(th4 - near, 2 * PI);
        if (isnan(best) || fabs(th4 - near) < fabs(best - near))
            best = th4;
    }
    return best;
}

static void crank_driven(vjson *v)
{
    clink_model *m = four_bar("O2");
    clink_kinematics *k = NULL;
    clink_kinematics_options o = clink_default_kinematics_options();
    char err[512];
    o.range_given = 1;
    o.from = PI / 2;
    o.to = PI / 2 + 2 * PI;
    o.steps = 360;
    if (m == NULL || clink_kinematics_sweep(m, &o, &k, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        vjson_check(v, "crank-driven sweep", NAN, "ran", 0, "-");
        return;
    }
    int cphi = column(k, "rocker.phi"), com = column(k, "rocker.omega");
    int cbx = column(k, "B.px"), cby = column(k, "B.py"), cmu = column(k, "transmission_B_deg");
    int cas = column(k, "assembled");
    double e_pos = 0.0, e_vel = 0.0, e_pt = 0.0, e_mu = 0.0, near = 1.74195016464;
    int assembled = 0;
    for (int r = 0; r < clink_kinematics_rows(k); r++) {
        const double *row = clink_kinematics_row(k, r);
        double th2 = row[0], th4 = freudenstein(th2, near);
        double K1 = D / A, K2 = D / C;
        double dth4 = (K2 * sin(th2) + sin(th2 - th4)) / (K1 * sin(th4) + sin(th2 - th4));
        double bx = D + C * cos(th4), by = C * sin(th4);
        double ao4 = A * A + D * D - 2 * A * D * cos(th2); /* |A O4|^2 */
        double mu = acos((B * B + C * C - ao4) / (2 * B * C)) * 180.0 / PI;
        near = th4;
        assembled += row[cas] == 1.0;
        e_pos = fmax(e_pos, fabs(remainder(row[cphi] - th4, 2 * PI)));
        e_vel = fmax(e_vel, fabs(row[com] - dth4));
        e_pt = fmax(e_pt, hypot(row[cbx] - bx, row[cby] - by));
        e_mu = fmax(e_mu, fabs(row[cmu] - mu));
    }
    vjson_row(v, "crank-driven: values assembled", assembled, 361, 0, "-");
    vjson_row(v, "crank-driven: max |th4 - Freudenstein|", e_pos, 0.0, 1e-10, "rad");
    vjson_row(v, "crank-driven: max |dth4/dth2 - closed form|", e_vel, 0.0, 1e-9, "-");
    vjson_row(v, "crank-driven: max |B - (O4 + c e(th4))|", e_pt, 0.0, 1e-10, "m");
    vjson_row(v, "crank-driven: max |transmission angle - law of cosines|", e_mu, 0.0, 1e-8, "deg");
    clink_kinematics_destroy(&k);
    clink_model_destroy(&m);
}

static void rocker_driven(vjson *v)
{
    clink_model *m = four_bar("O4");
    clink_kinematics *k = NULL;
    clink_kinematics_options o = clink_default_kinematics_options();
    char err[512];
    double step = 0.5 * PI / 180;
    double lo = acos(((B + A) * (B + A) - D * D - C * C) / (2 * D * C));
    double hi = acos(((B - A) * (B - A) - D * D - C * C) / (2 * D * C));
    o.range_given = 1;
    o.from = 70.25 * PI / 180;
    o.to = 150.25 * PI / 180;
    o.steps = 160;
    if (m == NULL || clink_kinematics_sweep(m, &o, &k, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        vjson_check(v, "rocker-driven sweep", NAN, "ran", 0, "-");
        return;
    }
    int wrong = 0, dead_lo = 0, dead_hi = 0, nfail = 0;
    for (int r = 0; r < clink_kinematics_rows(k); r++) {
        const double *row = clink_kinematics_row(k, r);
        int inside = row[0] > lo && row[0] < hi;
        wrong += inside != (row[1] == 1.0);
        nfail += row[1] == 0.0;
        if (row[3] == 1.0 && fabs(row[0] - lo) <= step)
            dead_lo = 1;
        if (row[3] == 1.0 && fabs(row[0] - hi) <= step)
            dead_hi = 1;
    }
    vjson_info(v, "rocker-driven: lower limit (crank and coupler extended)", lo * 180 / PI, "deg");
    vjson_info(v, "rocker-driven: upper limit (crank and coupler folded)", hi * 180 / PI, "deg");
    vjson_info(v, "rocker-driven: values where assembly fails", nfail, "-");
    vjson_row(v, "rocker-driven: values assembled iff inside the limits (mismatches)", wrong, 0, 0,
              "-");
    vjson_check(v, "rocker-driven: dead point flagged within a step of the lower limit", dead_lo,
                "flagged", dead_lo == 1, "-");
    vjson_check(v, "rocker-driven: dead point flagged within a step of the upper limit", dead_hi,
                "flagged", dead_hi == 1, "-");
    clink_kinematics_destroy(&k);
    clink_model_destroy(&m);
}

int main(int argc, char **argv)
{
    const char *out = argc > 1 ? argv[1] : ".";
    vjson *v = vjson_open(out, "analysis_kinematics",
                          "Kinematic sweep of a four-bar against Freudenstein's equation and its "
                          "limit positions");
    crank_driven(v);
    rocker_driven(v);
    return vjson_close(v);
}
