/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Validation: equilibrium and linearised modes (src/analysis) against closed forms derived
 * by hand in minimal coordinates.
 *
 * 1. Compound pendulum: a body of mass m and inertia J about its centre, pinned at distance
 *    d from its centre: omega^2 = m g d / (J + m d^2).
 * 2. Double pendulum of two uniform rods (m1, L1; m2, L2), hanging: with the absolute angles
 *    from the vertical, T = 1/2 th'^T M th', V = 1/2 th^T K th to second order,
 *      M = [m1 L1^2/3 + m2 L1^2, m2 L1 L2/2; m2 L1 L2/2, m2 L2^2/3],
 *      K = diag((m1/2 + m2) g L1, m2 g L2/2),
 *    and det(K - w^2 M) = 0 is a quadratic in w^2 solved here.
 * 3. Slider-crank (crank r, rod l, slider on the axis through the pivot) held by a spring
 *    (k, free length l0, from the ground point (d, 0) to the slider) against a torque T on the
 *    crank, under gravity. With the crank angle th: s = r cos th + sqrt(l^2 - r^2 sin^2 th),
 *    V = (m1 + m2) g (r/2) sin th + k (d - s - l0)^2 / 2 - T th, so
 *      V'(th) = (m1 + m2) g (r/2) cos th - k (d - s - l0) s'(th) - T = 0
 *    (bisection), K_th = V''(th) (central difference of V', h = 1e-5), the generalised mass
 *    M_th = m1 (r/2)^2 + J1 + m2 |v_rod|^2 + J2 beta'^2 + m3 s'^2 with the rod angle
 *    sin beta = -r sin th / l, and the frequency sqrt(K_th / M_th) / (2 pi).
 */
#include "clink/analysis.h"
#include "clink/sim.h"
#include "vjson.h"

#include <math.h>
#include <stdio.h>

static const double PI = 3.14159265358979323846;

static clink_model *finish(clink_model_builder *b)
{
    clink_model *m = NULL;
    if (clink_model_builder_finalize(b, &m) != CLINK_OK)
        fprintf(stderr, "%s\n", clink_model_builder_error(b));
    clink_model_builder_destroy(&b);
    return m;
}

static int add_rod(clink_model_builder *b, const char *name, double m, double J, double x, double y,
                   double phi)
{
    clink_body_def bd = clink_default_body_def();
    int id = -1;
    bd.name = name;
    bd.mass = m;
    bd.inertia = J;
    bd.x = x;
    bd.y = y;
    bd.phi = phi;
    clink_model_builder_add_body(b, &bd, &id);
    return id;
}

static void pin(clink_model_builder *b, int ba, double ax, double ay, int bb, double bx, double by)
{
    clink_joint_def jd = clink_default_joint_def();
    jd.body_a = ba;
    jd.body_b = bb;
    jd.point_a[0] = ax;
    jd.point_a[1] = ay;
    jd.point_b[0] = bx;
    jd.point_b[1] = by;
    clink_model_builder_add_joint(b, &jd, NULL);
}

/* the modes about the equilibrium of m: the frequencies (Hz) of the first n modes; m is
   destroyed */
static int modes_of(clink_model *m, int n, double *f, double *q, clink_equilibrium_result *r)
{
    clink_analysis *a = NULL;
    char err[512];
    if (m == NULL || clink_analysis_create(m, NULL, &a, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", m == NULL ? "no model" : err);
        clink_model_destroy(&m);
        return -1;
    }
    int ok = clink_analysis_equilibrium(a, NULL, r) == CLINK_OK &&
             clink_analysis_modes(a) == CLINK_OK && clink_analysis_mode_count(a) >= n;
    if (!ok)
        fprintf(stderr, "%s\n", clink_analysis_error(a));
    for (int i = 0; ok && i < n; i++) {
        clink_mode md;
        clink_analysis_mode(a, i, &md, NULL);
        f[i] = md.frequency;
    }
    if (ok && q != NULL)
        clink_analysis_state(a, q, NULL);
    clink_analysis_destroy(&a);
    clink_model_destroy(&m);
    return ok ? 0 : -1;
}

static void compound_pendulum(vjson *v)
{
    double m = 2.0, J = 0.05, d = 0.4, g = 9.81, f[1] = {NAN};
    clink_equilibrium_result r;
    clink_model_builder *b = clink_model_builder_create();
    /* released at 50 degrees from the vertical; pivot at body point (0, d) */
    int id = add_rod(b, "bob", m, J, d * sin(0.87), -d * cos(0.87), 0.87);
    pin(b, 0, 0.0, 0.0, id, 0.0, d);
    clink_model_builder_set_gravity(b, 0.0, -g);
    modes_of(finish(b), 1, f, NULL, &r);
    double ref = sqrt(m * g * d / (J + m * d * d)) / (2.0 * PI);
    vjson_row_rel(v, "compound pendulum frequency", f[0], ref, 1e-10, "Hz");
}

static void double_pendulum(vjson *v)
{
    double m1 = 1.0, L1 = 1.0, m2 = 0.6, L2 = 0.7, g = 9.81, f[2] = {NAN, NAN};
    clink_equilibrium_result r;
    clink_model_builder *b = clink_model_builder_create();
    /* rods along their body x axes, released at 20 and -35 degrees from hanging */
    double a1 = -PI / 2 + 0.35, a2 = -PI / 2 - 0.6;
    int r1 = add_rod(b, "rod1", m1, m1 * L1 * L1 / 12, 0.5 * L1 * cos(a1), 0.5 * L1 * sin(a1), a1);
    int r2 = add_rod(b, "rod2", m2, m2 * L2 * L2 / 12, L1 * cos(a1) + 0.5 * L2 * cos(a2),
                     L1 * sin(a1) + 0.5 * L2 * sin(a2), a2);
    pin(b, 0, 0.0, 0.0, r1, -0.5 * L1, 0.0);
    pin(b, r1, 0.5 * L1, 0.0, r2, -0.5 * L2, 0.0);
    clink_model_builder_set_gravity(b, 0.0, -g);
    modes_of(finish(b), 2, f, NULL, &r);
    /* det(K - w2 M) = 0: a w2^2 + b w2 + c = 0 */
    double M11 = m1 * L1 * L1 / 3 + m2 * L1 * L1, M12 = m2 * L1 * L2 / 2, M22 = m2 * L2 * L2 / 3;
    double K11 = (m1 / 2 + m2) * g * L1, K22 = m2 * g * L2 / 2;
    double qa = M11 * M22 - M12 * M12, qb = -(K11 * M22 + K22 * M11), qc = K11 * K22;
    double disc = sqrt(qb * qb - 4 * qa * qc);
    double w1 = sqrt((-qb - disc) / (2 * qa)), w2 = sqrt((-qb + disc) / (2 * qa));
    vjson_row_rel(v, "double pendulum first frequency", f[0], w1 / (2 * PI), 1e-9, "Hz");
    vjson_row_rel(v, "double pendulum second frequency", f[1], w2 / (2 * PI), 1e-9, "Hz");
    vjson_check(v, "double pendulum equilibrium residual", r.residual, "<= tolerance",
                r.residual <= r.tolerance, "N");
}

/* ---- slider-crank with a spring, by hand ---- */

typedef struct sc {
    double r, l, m1, m2, m3, J1, J2, g, k, d, l0, T;
} sc;

static double sc_s(const sc *p, double t)
{
    return p->r * cos(t) + sqrt(p->l * p->l - p->r * p->r * sin(t) * sin(t));
}

static double sc_ds(const sc *p, double t)
{
    double root = sqrt(p->l * p->l - p->r * p->r * sin(t) * sin(t));
    return -p->r * sin(t) - p->r * p->r * sin(t) * cos(t) / root;
}

static double sc_dV(const sc *p, double t)
{
    return (p->m1 + p->m2) * p->g * 0.5 * p->r * cos(t) -
           p->k * (p->d - sc_s(p, t) - p->l0) * sc_ds(p, t) - p->T;
}

static double sc_mass(const sc *p, double t)
{
    double ds = sc_ds(p, t), sb = -p->r * sin(t) / p->l, cb = sqrt(1 - sb * sb);
    double db = -p->r * cos(t) / (p->l * cb);
    double vx = 0.5 * (-p->r * sin(t) + ds), vy = 0.5 * p->r * cos(t);
    return p->m1 * 0.25 * p->r * p->r + p->J1 + p->m2 * (vx * vx + vy * vy) + p->J2 * db * db +
           p->m3 * ds * ds;
}

static clink_model *sc_model(const sc *p, double t)
{
    clink_model_builder *b = clink_model_builder_create();
    double s = sc_s(p, t), beta = asin(-p->r * sin(t) / p->l);
    int c = add_rod(b, "crank", p->m1, p->J1, 0.5 * p->r * cos(t), 0.5 * p->r * sin(t), t);
    int rod = add_rod(b, "rod", p->m2, p->J2, 0.5 * (p->r * cos(t) + s), 0.5 * p->r * sin(t), beta);
    int sl = add_rod(b, "slider", p->m3, 1e-4, s, 0.0, 0.0);
    pin(b, 0, 0.0, 0.0, c, -0.5 * p->r, 0.0);
    pin(b, c, 0.5 * p->r, 0.0, rod, -0.5 * p->l, 0.0);
    pin(b, rod, 0.5 * p->l, 0.0, sl, 0.0, 0.0);
    clink_joint_def jd = clink_default_joint_def();
    jd.type = CLINK_JOINT_TRANSLATIONAL;
    jd.body_a = 0;
    jd.body_b = sl;
    clink_model_builder_add_joint(b, &jd, NULL);
    clink_force_def fd = clink_default_force_def();
    fd.type = CLINK_FORCE_SPRING_DAMPER;
    fd.body_a = 0;
    fd.point_a[0] = p->d;
    fd.body_b = sl;
    fd.k = p->k;
    fd.free_length = p->l0;
    clink_model_builder_add_force(b, &fd, NULL);
    fd = clink_default_force_def();
    fd.type = CLINK_FORCE_TORQUE;
    fd.body_a = c;
    fd.torque = p->T;
    clink_model_builder_add_force(b, &fd, NULL);
    clink_model_builder_set_gravity(b, 0.0, -p->g);
    return finish(b);
}

static void slider_crank_spring(vjson *v)
{
    sc p = {0.1, 0.3, 1.0, 1.5, 0.5, 0.0, 0.0, 9.81, 500.0, 0.6, 0.1, 2.0};
    p.J1 = p.m1 * p.r * p.r / 12;
    p.J2 = p.m2 * p.l * p.l / 12;
    /* the root of V' in [0, 30] degrees by bisection */
    double lo = 0.0, hi = 30.0 * PI / 180.0;
    for (int i = 0; i < 200; i++) {
        double mid = 0.5 * (lo + hi);
        if ((sc_dV(&p, mid) > 0) == (sc_dV(&p, lo) > 0))
            lo = mid;
        else
            hi = mid;
    }
    double th = 0.5 * (lo + hi), h = 1e-5;
    double K = (sc_dV(&p, th + h) - sc_dV(&p, th - h)) / (2 * h), M = sc_mass(&p, th);
    double q[9] = {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN}, f[1] = {NAN};
    clink_equilibrium_result r;
    modes_of(sc_model(&p, 30.0 * PI / 180.0), 1, f, q, &r);
    vjson_row(v, "slider-crank spring: equilibrium crank angle", q[2], th, 1e-11, "rad");
    vjson_row(v, "slider-crank spring: equilibrium slider position", q[6], sc_s(&p, th), 1e-12,
              "m");
    vjson_row_rel(v, "slider-crank spring: frequency sqrt(K/M)/(2 pi)", f[0],
                  sqrt(K / M) / (2 * PI), 1e-8, "Hz");
    vjson_check(v, "slider-crank spring: stable", r.stable, "reduced stiffness positive definite",
                r.stable == 1, "-");
    vjson_info(v, "slider-crank spring: K_theta by hand", K, "N m/rad");
    vjson_info(v, "slider-crank spring: M_theta by hand", M, "kg m^2");
    vjson_info(v, "slider-crank spring: Newton iterations", r.iterations, "-");
}

int main(int argc, char **argv)
{
    const char *out = argc > 1 ? argv[1] : ".";
    vjson *v = vjson_open(out, "analysis_closed_forms",
                          "Equilibrium and modes against closed forms (pendulums, slider-crank "
                          "with a spring)");
    compound_pendulum(v);
    double_pendulum(v);
    slider_crank_spring(v);
    return vjson_close(v);
}
