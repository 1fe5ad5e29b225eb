/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * contacts_extra.c: an element's extra force in the right-hand side: a force between the
 * centres of its contact's two shapes that its element class computes from their relative
 * motion (element_class.extra_force: the oil film of a lubricated revolute clearance joint,
 * src/elements/element_revolute_clearance.c; docs/contact-mechanics.md, "Lubricated
 * clearance joints"). f acts on B at c_B and its opposite on A at c_A; the power it takes
 * from the bodies, P = -f . e' (W), is booked with the contact's damping (the energy
 * audit's contact dissipation).
 *
 * Jacobian, by the element's setting (element_class.extra_by_differences): central
 * differences over the six coordinates and six velocities of the two bodies, extrapolated
 * (Richardson, steps h and h / 2, h = 1e-6 max(|x|, 1e-2)), or the analytic one from the
 * element's slopes d f / d(e, e', omega) through the centres' kinematics c = r + rho,
 * c' = v + omega J rho (rho the centre's arm, J the turn by +90 degrees; d rho / d phi =
 * J rho, d c' / d phi = -omega rho).
 */
#include "contacts/contacts_internal.h"

#include <math.h>
#include <stdio.h>

void contacts_extra_setup(contacts_contact *c, const model_element *e)
{
    const element_class *ec = element_class_of(e->kind);
    memset(&c->extra, 0, sizeof c->extra);
    if (!ec->extra_on || !ec->extra_on(&e->def))
        return;
    c->extra.on = 1;
    c->extra.ec = ec;
    c->extra.d = &e->def;
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

/* the extra force at one state: centres, arms, rates, e, e' and the force f on B */
typedef struct film_state {
    double ca[2], cb[2], ra[2], rb[2], va[2], vb[2], wa, wb;
    element_centres x;
    double f[2];
} film_state;

/* the centres of contact c's shapes at (q, v) into *s: positions, velocities, arms, and
   their relative motion */
static void film_centres(const contacts_contact *c, const double *q, const double *v, film_state *s)
{
    centre_of(q, v, c->body_a, c->sa.a, s->ca, s->va, &s->wa, s->ra);
    centre_of(q, v, c->body_b, c->sb.a, s->cb, s->vb, &s->wb, s->rb);
    for (int j = 0; j < 2; j++) {
        s->x.e[j] = s->cb[j] - s->ca[j];
        s->x.ed[j] = s->vb[j] - s->va[j];
    }
    s->x.wa = s->wa;
    s->x.wb = s->wb;
}

/* the extra force at (q, v) into *s, and its slopes into *o when o is not NULL; 0 or -1 */
static int film_eval(const contacts_contact *c, const double *q, const double *v, film_state *s,
                     element_extra *o)
{
    element_extra out;
    film_centres(c, q, v, s);
    if (o == NULL)
        o = &out;
    if (c->extra.ec->extra_force(c->extra.d, &s->x, o != &out, o) != 0)
        return -1;
    s->f[0] = o->f[0];
    s->f[1] = o->f[1];
    return 0;
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
    *power = -(s.f[0] * s.x.ed[0] + s.f[1] * s.x.ed[1]);
    point_force(c->body_b, s.rb, s.f, QB);
    point_force(c->body_a, s.ra, fa, QA);
    return 0;
}

int contacts_extra_forces(contact_set *sc, contacts_contact *c, double t, const double *q,
                          const double *v, double *g)
{
    double QA[3], QB[3];
    c->extra.power = 0.0;
    if (!c->extra.on)
        return 0;
    if (film_generalised(c, q, v, QA, QB, &c->extra.power) != 0) {
        snprintf(sc->msg, sizeof sc->msg, "contact %d (%s): non-finite %s force at t = %.9g s",
                 (int) (c - sc->c), c->extra.ec->word, c->extra.ec->extra_name, t);
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

int contacts_extra_force(const contact_set *sc, int k, const double *q, const double *v,
                         double f[2])
{
    film_state s;
    f[0] = f[1] = 0.0;
    if (k < 0 || k >= sc->n || !sc->c[k].extra.on)
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
                                 const element_extra *o, int side, int k, int rate, dyn_gjac *J)
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

int contacts_extra_jacobian(contact_set *sc, const contacts_contact *c, const double *q,
                            const double *v, dyn_gjac *J)
{
    if (!c->extra.on)
        return 0;
    if (c->extra.ec->extra_by_differences(c->extra.d))
        return film_jacobian_differences(sc, c, q, v, J);
    film_state s;
    element_extra o;
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

int contacts_extra_invalid(const contact_set *sc, int k, const double *q, const double *v,
                           double *value)
{
    film_state s;
    *value = 0.0;
    if (k < 0 || k >= sc->n || !sc->c[k].extra.on || !sc->c[k].extra.ec->extra_invalid)
        return 0;
    const contacts_contact *c = &sc->c[k];
    film_centres(c, q, v, &s);
    return c->extra.ec->extra_invalid(c->extra.d, &s.x, value);
}
