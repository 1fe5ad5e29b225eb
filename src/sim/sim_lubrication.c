/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim_lubrication.c: the oil film of a lubricated revolute clearance joint in the
 * right-hand side (docs/contact-mechanics.md, "Lubricated clearance joints"), after Flores,
 * Ambrosio, Claro and Lankarani (2006, 2009) and Flores and Lankarani (2012).
 *
 * With A the bearing (bore centre c_A) and B the journal (centre c_B), e = c_B - c_A, its
 * rate e', the clearance c and the journal radius R:
 *   eps = |e| / c,   eps' = (e . e') / (|e| c),   gamma' = (e x e') / |e|^2,
 *   Omega = omega_A + omega_B - 2 gamma',
 * and the short-bearing force (clink_short_bearing_force) F_r along e / |e|, F_t along it
 * turned by +90 degrees, acts on B at c_B and its opposite on A at c_A. The film holds
 * eps at the transition ratio eps_t beyond it: the force is continuous everywhere and
 * finite as eps -> 1 (Ocvirk's radial force grows as (1 - eps^2)^(-5/2)); the joint's dry
 * law acts, as in a dry joint, once |e| > c (sim_contact_forces.c). At |e| = 0 the limit
 * of the formula, F = -pi K e' / (2 c) (pure squeeze, K = mu R L^3 / c^2), is taken.
 * The power the film takes from the bodies, P = -F . e' (W), is booked with the
 * contact's damping (the energy audit's contact dissipation).
 *
 * Jacobian: central differences over the six coordinates and six velocities of the two
 * bodies, extrapolated (Richardson, steps h and h / 2, h = 1e-6 max(|x|, 1e-2)), as the
 * contact Jacobian does for pairs without exact derivatives.
 */
#include "clink/lubrication.h"
#include "sim/sim_contact_internal.h"

#include <math.h>
#include <stdio.h>

#define LUB_PI 3.14159265358979323846

void simc_lub_setup(simc_contact *c, const model_element *e)
{
    memset(&c->lub, 0, sizeof c->lub);
    if (e->kind != CLINK_ELEMENT_REVOLUTE_CLEARANCE)
        return;
    const clink_clearance_joint_def *d = &e->def.revolute_clearance;
    if (!(d->lubrication.viscosity > 0.0))
        return;
    c->lub.on = 1;
    c->lub.mu = d->lubrication.viscosity;
    c->lub.L = d->lubrication.length;
    c->lub.R = d->journal_radius;
    c->lub.c = d->bearing_radius - d->journal_radius;
    c->lub.trans = d->lubrication.transition;
}

/* a circle's centre (body coordinates s) on body (ground: 0) at (q, v): position and velocity */
static void centre_of(const double *q, const double *v, int body, const double s[2], double x[2],
                      double xd[2], double *omega)
{
    if (body <= 0) {
        x[0] = s[0];
        x[1] = s[1];
        xd[0] = xd[1] = *omega = 0.0;
        return;
    }
    const double *qb = q + 3 * (body - 1), *vb = v + 3 * (body - 1);
    double cs = cos(qb[2]), sn = sin(qb[2]);
    double rx = cs * s[0] - sn * s[1], ry = sn * s[0] + cs * s[1];
    x[0] = qb[0] + rx;
    x[1] = qb[1] + ry;
    xd[0] = vb[0] - vb[2] * ry;
    xd[1] = vb[1] + vb[2] * rx;
    *omega = vb[2];
}

/* the film force f on the journal (N) and the bodies' centres at (q, v); 0 or -1 (non-finite) */
static int film_force(const simc_contact *c, const double *q, const double *v, double f[2],
                      double ca[2], double cb[2], double *power)
{
    double va[2], vb[2], wa, wb;
    centre_of(q, v, c->body_a, c->sa.a, ca, va, &wa);
    centre_of(q, v, c->body_b, c->sb.a, cb, vb, &wb);
    double e[2] = {cb[0] - ca[0], cb[1] - ca[1]}, ed[2] = {vb[0] - va[0], vb[1] - va[1]};
    double d = hypot(e[0], e[1]);
    if (d == 0.0) {
        /* concentric: the limit eps -> 0 of the formula, a pure squeeze */
        double k = c->lub.mu * c->lub.R * c->lub.L * c->lub.L * c->lub.L / (c->lub.c * c->lub.c);
        f[0] = -LUB_PI * k * ed[0] / (2.0 * c->lub.c);
        f[1] = -LUB_PI * k * ed[1] / (2.0 * c->lub.c);
    } else {
        double n[2] = {e[0] / d, e[1] / d}, t[2] = {-e[1] / d, e[0] / d};
        double eps = d / c->lub.c, Fr, Ft;
        double eps_dot = (n[0] * ed[0] + n[1] * ed[1]) / c->lub.c;
        double gamma_dot = (e[0] * ed[1] - e[1] * ed[0]) / (d * d);
        double Omega = wa + wb - 2.0 * gamma_dot;
        if (eps > c->lub.trans)
            eps = c->lub.trans;
        if (clink_short_bearing_force(c->lub.mu, c->lub.R, c->lub.L, c->lub.c, eps, eps_dot, Omega,
                                      &Fr, &Ft) != CLINK_OK)
            return -1;
        f[0] = Fr * n[0] + Ft * t[0];
        f[1] = Fr * n[1] + Ft * t[1];
    }
    *power = -(f[0] * ed[0] + f[1] * ed[1]);
    return isfinite(f[0]) && isfinite(f[1]) ? 0 : -1;
}

/* the generalised force (f, (p - r) x f) of f at world point p on body at q, into Q */
static void point_force(const double *q, int body, const double p[2], const double f[2],
                        double Q[3])
{
    Q[0] = Q[1] = Q[2] = 0.0;
    if (body <= 0)
        return;
    const double *r = q + 3 * (body - 1);
    Q[0] = f[0];
    Q[1] = f[1];
    Q[2] = (p[0] - r[0]) * f[1] - (p[1] - r[1]) * f[0];
}

/* the film's generalised forces on A and B at (q, v); 0 or -1 */
static int film_generalised(const simc_contact *c, const double *q, const double *v, double QA[3],
                            double QB[3], double *power)
{
    double f[2], ca[2], cb[2];
    if (film_force(c, q, v, f, ca, cb, power) != 0)
        return -1;
    double fa[2] = {-f[0], -f[1]};
    point_force(q, c->body_b, cb, f, QB);
    point_force(q, c->body_a, ca, fa, QA);
    return 0;
}

int simc_lub_forces(simc *sc, simc_contact *c, double t, const double *q, const double *v,
                    double *g)
{
    double QA[3], QB[3];
    c->lub.power = 0.0;
    if (!c->lub.on)
        return 0;
    if (film_generalised(c, q, v, QA, QB, &c->lub.power) != 0) {
        snprintf(sc->msg, sizeof sc->msg,
                 "contact %d (lubricated clearance joint): non-finite film force at t = %.9g s",
                 (int) (c - sc->c), t);
        sc->failed = 1;
        return -1;
    }
    for (int i = 0; i < 3; i++) {
        if (c->body_a > 0)
            g[3 * (c->body_a - 1) + i] += QA[i];
        if (c->body_b > 0)
            g[3 * (c->body_b - 1) + i] += QB[i];
    }
    return 0;
}

/* column col (of q, or of v if rate) of the film's generalised forces, added to out */
static int film_column(simc *sc, const simc_contact *c, dyn_gjac *J, int col, int rate)
{
    double *x = rate ? sc->jac.xv : sc->jac.xq;
    double xc = x[col], h = 1e-6 * fmax(fabs(xc), 1e-2), p;
    const double steps[4] = {h, -h, 0.5 * h, -0.5 * h};
    double A[4][3], B[4][3];
    for (int i = 0; i < 4; i++) {
        x[col] = xc + steps[i];
        int rc = film_generalised(c, sc->jac.xq, sc->jac.xv, A[i], B[i], &p);
        x[col] = xc;
        if (rc != 0)
            return -1;
    }
    simc_richardson_column(c, J, rate, col, h, (const double(*)[3]) A, (const double(*)[3]) B);
    return 0;
}

int simc_lub_jacobian(simc *sc, const simc_contact *c, const double *q, const double *v,
                      dyn_gjac *J)
{
    if (!c->lub.on)
        return 0;
    int nq = sc->m->ncoords;
    memcpy(sc->jac.xq, q, (size_t) nq * sizeof(double));
    memcpy(sc->jac.xv, v, (size_t) nq * sizeof(double));
    for (int side = 0; side < 2; side++) {
        int body = side ? c->body_b : c->body_a;
        for (int i = 0; body > 0 && i < 3; i++)
            for (int rate = 0; rate < 2; rate++)
                if (film_column(sc, c, J, 3 * (body - 1) + i, rate) != 0)
                    return -1;
    }
    return 0;
}
