/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * contacts_lubrication.c: the oil film of a lubricated revolute clearance joint in the
 * right-hand side (docs/contact-mechanics.md, "Lubricated clearance joints"), after Flores,
 * Ambrosio, Claro and Lankarani (2006, 2009) and Flores and Lankarani (2012).
 *
 * With A the bearing (bore centre c_A) and B the journal (centre c_B), e = c_B - c_A, its
 * rate e', the clearance c and the journal radius R:
 *   eps = |e| / c,   eps' = (e . e') / (|e| c),   gamma' = (e x e') / |e|^2,
 *   Omega = omega_A + omega_B - 2 gamma',
 * and the short- or long-bearing force (src/contact/lubrication.c) F_r along n = e / |e|,
 * F_t along t = n turned by +90 degrees, acts on B at c_B and its opposite on A at c_A. The
 * film holds eps at the transition ratio eps_t beyond it: the force is continuous everywhere
 * and finite as eps -> 1; the joint's dry law acts, as in a dry joint, once |e| > c
 * (contacts_forces.c). At |e| = 0 the limit along e' is taken (lubrication_centre: a
 * pure squeeze); the film is not differentiable there (its gamma' terms are homogeneous of
 * degree 1 in e), and its analytic Jacobian takes -k I in e' and the wedge term's linear
 * part in e. The power the film takes from the bodies, P = -F . e' (W), is booked with
 * the contact's damping (the energy audit's contact dissipation).
 *
 * Jacobian, by the joint's setting (clink_lubrication_jacobian): central differences over
 * the six coordinates and six velocities of the two bodies, extrapolated (Richardson, steps
 * h and h / 2, h = 1e-6 max(|x|, 1e-2)), or the analytic one (the default):
 * dF/d(eps, eps', Omega) of the bearing formula by the chain rule (film_slopes) through
 *   d eps / de = n / c (0 beyond eps_t),  d eps' / de = (t . e') t / (|e| c),
 *   d eps' / de' = n / c,  d gamma' / de = J^T e' / |e|^2 - 2 gamma' n / |e|,
 *   d gamma' / de' = t / |e|,  dn / de = t t^T / |e|,  dt / de = -n t^T / |e|,
 * and the centres' kinematics c = r + rho, c' = v + omega J rho (rho the centre's arm,
 * J the turn by +90 degrees; d rho / d phi = J rho, d c' / d phi = -omega rho). The force
 * has a kink at eps = eps_t (its eps-derivative drops to 0): the analytic Jacobian takes
 * the side the state is on, as differences across the kink would mix both.
 */
#include "clink/lubrication.h"
#include "contact/lubrication.h"
#include "contacts/contacts_internal.h"

#include <math.h>
#include <stdio.h>

void contacts_lub_setup(contacts_contact *c, const model_element *e)
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
    c->lub.theory = d->lubrication.theory;
    c->lub.jacobian = d->lubrication.jacobian;
}

/* a circle's centre (body coordinates s) on body (ground: 0) at (q, v): position, velocity,
   the body's angular velocity and the centre's arm rho from the body's reference point */
static void centre_of(const double *q, const double *v, int body, const double s[2], double x[2],
                      double xd[2], double *omega, double rho[2])
{
    if (body <= 0) {
        x[0] = s[0];
        x[1] = s[1];
        xd[0] = xd[1] = *omega = rho[0] = rho[1] = 0.0;
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
    rho[0] = x[0] - qb[0]; /* (the arm the generalised force has always been formed with) */
    rho[1] = x[1] - qb[1];
}

/* the film at one state: centres, arms, rates, e, e' and the force f on the journal */
typedef struct film_state {
    double ca[2], cb[2], ra[2], rb[2], va[2], vb[2], wa, wb;
    double e[2], ed[2], d;
    double f[2];
} film_state;

/* the derivatives of f: by e, by e' (fe[i][j] = d f_i / d x_j) and by omega_A = omega_B */
typedef struct film_slope {
    double fe[2][2], fed[2][2], fw[2];
} film_slope;

/* d f / d(e, e', omega) from the bearing's dF / d(eps, eps', Omega) (the file comment) */
static void film_slopes(const contacts_lub *l, const film_state *s, const lubrication_force *F,
                        int held, film_slope *o)
{
    double d = s->d, n[2] = {s->e[0] / d, s->e[1] / d}, t[2] = {-n[1], n[0]};
    double tv = t[0] * s->ed[0] + t[1] * s->ed[1], gd = tv / d;
    double deps[2], depsd_e[2], dgam_e[2];
    for (int j = 0; j < 2; j++) {
        deps[j] = held ? 0.0 : n[j] / l->c;
        depsd_e[j] = tv * t[j] / (d * l->c);
    }
    dgam_e[0] = s->ed[1] / (d * d) - 2.0 * gd * n[0] / d;
    dgam_e[1] = -s->ed[0] / (d * d) - 2.0 * gd * n[1] / d;
    double dFe[2][2], dFed[2][2];
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            dFe[i][j] =
                F->dF[i][0] * deps[j] + F->dF[i][1] * depsd_e[j] - 2.0 * F->dF[i][2] * dgam_e[j];
            dFed[i][j] = F->dF[i][1] * n[j] / l->c - 2.0 * F->dF[i][2] * t[j] / d;
        }
    for (int i = 0; i < 2; i++) {
        for (int j = 0; j < 2; j++) {
            /* f = F_r n + F_t t with dn/de = t t^T / d, dt/de = -n t^T / d */
            o->fe[i][j] =
                n[i] * dFe[0][j] + t[i] * dFe[1][j] + (F->F[0] * t[i] - F->F[1] * n[i]) * t[j] / d;
            o->fed[i][j] = n[i] * dFed[0][j] + t[i] * dFed[1][j];
        }
        o->fw[i] = n[i] * F->dF[0][2] + t[i] * F->dF[1][2];
    }
}

/* the film at (q, v) into *s, and its slopes into *o when o is not NULL; 0 or -1 */
static int film_eval(const contacts_contact *c, const double *q, const double *v, film_state *s,
                     film_slope *o)
{
    const contacts_lub *l = &c->lub;
    centre_of(q, v, c->body_a, c->sa.a, s->ca, s->va, &s->wa, s->ra);
    centre_of(q, v, c->body_b, c->sb.a, s->cb, s->vb, &s->wb, s->rb);
    for (int j = 0; j < 2; j++) {
        s->e[j] = s->cb[j] - s->ca[j];
        s->ed[j] = s->vb[j] - s->va[j];
    }
    s->d = hypot(s->e[0], s->e[1]);
    if (o != NULL)
        memset(o, 0, sizeof *o);
    if (s->d == 0.0) {
        /* concentric: the limit along e', a pure squeeze */
        lubrication_centre(l->theory, l->mu, l->R, l->L, l->c, s->ed, s->f);
        if (o != NULL) {
            /* d f / de' = -k I; d f / de: the wedge term's linear part, dF_t/d eps Omega J / c
               (the rest of the film is not differentiable at the centre) */
            double one[2] = {1.0, 0.0}, k[2];
            lubrication_force F0;
            lubrication_centre(l->theory, l->mu, l->R, l->L, l->c, one, k);
            o->fed[0][0] = o->fed[1][1] = k[0];
            if (lubrication_film(l->theory, l->mu, l->R, l->L, l->c, 0.0, 0.0, s->wa + s->wb,
                                 &F0) != 0)
                return -1;
            o->fe[0][1] = -F0.dF[1][0] / l->c;
            o->fe[1][0] = F0.dF[1][0] / l->c;
        }
        return isfinite(s->f[0]) && isfinite(s->f[1]) ? 0 : -1;
    }
    double d = s->d, n[2] = {s->e[0] / d, s->e[1] / d}, t[2] = {-s->e[1] / d, s->e[0] / d};
    double eps = d / l->c;
    double eps_dot = (n[0] * s->ed[0] + n[1] * s->ed[1]) / l->c;
    double gamma_dot = (s->e[0] * s->ed[1] - s->e[1] * s->ed[0]) / (d * d);
    double Omega = s->wa + s->wb - 2.0 * gamma_dot;
    int held = eps > l->trans;
    if (held)
        eps = l->trans;
    lubrication_force F;
    if (lubrication_film(l->theory, l->mu, l->R, l->L, l->c, eps, eps_dot, Omega, &F) != 0)
        return -1;
    s->f[0] = F.F[0] * n[0] + F.F[1] * t[0];
    s->f[1] = F.F[0] * n[1] + F.F[1] * t[1];
    if (o != NULL)
        film_slopes(l, s, &F, held, o);
    return isfinite(s->f[0]) && isfinite(s->f[1]) ? 0 : -1;
}

/* the generalised force (f, rho x f) of f at the end of the arm rho on body, into Q */
static void point_force(int body, const double rho[2], const double f[2], double Q[3])
{
    Q[0] = Q[1] = Q[2] = 0.0;
    if (body <= 0)
        return;
    Q[0] = f[0];
    Q[1] = f[1];
    Q[2] = rho[0] * f[1] - rho[1] * f[0];
}

/* the film's generalised forces on A and B at (q, v); 0 or -1 */
static int film_generalised(const contacts_contact *c, const double *q, const double *v,
                            double QA[3], double QB[3], double *power)
{
    film_state s;
    if (film_eval(c, q, v, &s, NULL) != 0)
        return -1;
    double fa[2] = {-s.f[0], -s.f[1]};
    *power = -(s.f[0] * s.ed[0] + s.f[1] * s.ed[1]);
    point_force(c->body_b, s.rb, s.f, QB);
    point_force(c->body_a, s.ra, fa, QA);
    return 0;
}

int contacts_lub_forces(contact_set *sc, contacts_contact *c, double t, const double *q,
                        const double *v, double *g)
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

int contacts_lub_film(const contact_set *sc, int k, const double *q, const double *v, double f[2])
{
    film_state s;
    f[0] = f[1] = 0.0;
    if (k < 0 || k >= sc->n || !sc->c[k].lub.on)
        return 0;
    if (film_eval(&sc->c[k], q, v, &s, NULL) != 0)
        return -1;
    f[0] = s.f[0];
    f[1] = s.f[1];
    return 1;
}

/* column col (of q, or of v if rate) of the film's generalised forces, added to out */
static int film_column(contact_set *sc, const contacts_contact *c, dyn_gjac *J, int col, int rate)
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
    contacts_richardson_column(c, J, rate, col, h, (const double(*)[3]) A, (const double(*)[3]) B);
    return 0;
}

/* the Jacobian by differences (the file comment) */
static int film_jacobian_differences(contact_set *sc, const contacts_contact *c, const double *q,
                                     const double *v, dyn_gjac *J)
{
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

/* the column of coordinate k (0 x, 1 y, 2 phi; of v if rate) of the body on side B (1) or
   A (0): the film's generalised forces on both bodies differentiated, added to out */
static void film_analytic_column(const contacts_contact *c, const film_state *s,
                                 const film_slope *o, int side, int k, int rate, dyn_gjac *J)
{
    double sg = side ? 1.0 : -1.0, de[2] = {0, 0}, ded[2] = {0, 0}, dw = 0.0;
    const double *rho = side ? s->rb : s->ra;
    double w = side ? s->wb : s->wa, u[2] = {k == 0, k == 1};
    if (k == 2) {
        u[0] = -rho[1]; /* J rho */
        u[1] = rho[0];
    }
    if (rate) {
        ded[0] = sg * u[0];
        ded[1] = sg * u[1];
        dw = k == 2;
    } else {
        de[0] = sg * u[0];
        de[1] = sg * u[1];
        if (k == 2) {
            ded[0] = -sg * w * rho[0];
            ded[1] = -sg * w * rho[1];
        }
    }
    double df[2];
    for (int i = 0; i < 2; i++)
        df[i] = o->fe[i][0] * de[0] + o->fe[i][1] * de[1] + o->fed[i][0] * ded[0] +
                o->fed[i][1] * ded[1] + o->fw[i] * dw;
    int col = 3 * ((side ? c->body_b : c->body_a) - 1) + k;
    for (int b = 0; b < 2; b++) {
        int body = b ? c->body_b : c->body_a;
        if (body <= 0)
            continue;
        const double *r = b ? s->rb : s->ra;
        double sb = b ? 1.0 : -1.0, m = r[0] * df[1] - r[1] * df[0];
        if (!rate && k == 2 && b == side) /* the arm turns with its body: J rho x f */
            m += -r[1] * s->f[1] - r[0] * s->f[0];
        double *o_col = dyn_gjac_at(J, rate, col, body);
        o_col[0] += sb * df[0];
        o_col[1] += sb * df[1];
        o_col[2] += sb * m;
    }
}

int contacts_lub_jacobian(contact_set *sc, const contacts_contact *c, const double *q,
                          const double *v, dyn_gjac *J)
{
    if (!c->lub.on)
        return 0;
    if (c->lub.jacobian != CLINK_LUBRICATION_JACOBIAN_ANALYTIC)
        return film_jacobian_differences(sc, c, q, v, J);
    film_state s;
    film_slope o;
    if (film_eval(c, q, v, &s, &o) != 0)
        return -1;
    for (int side = 0; side < 2; side++) {
        if ((side ? c->body_b : c->body_a) <= 0)
            continue;
        for (int k = 0; k < 3; k++) {
            film_analytic_column(c, &s, &o, side, k, 0, J);
            film_analytic_column(c, &s, &o, side, k, 1, J);
        }
    }
    return 0;
}

int contacts_lub_backward(const contact_set *sc, int k, const double *q, const double *v,
                          double *Omega)
{
    film_state s;
    *Omega = 0.0;
    if (k < 0 || k >= sc->n || !sc->c[k].lub.on || sc->c[k].lub.theory != CLINK_LUBRICATION_LONG)
        return 0;
    if (film_eval(&sc->c[k], q, v, &s, NULL) != 0 || !(s.d > 0.0))
        return 0;
    double gamma_dot = (s.e[0] * s.ed[1] - s.e[1] * s.ed[0]) / (s.d * s.d);
    *Omega = s.wa + s.wb - 2.0 * gamma_dot;
    return *Omega < 0.0;
}
