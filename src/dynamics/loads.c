/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * loads.c: the generalised applied forces g(t, q, v) and their derivatives.
 *
 * Per body, gravity m (gx, gy, 0); a force F at a body point with arm A s adds
 * (F, (A s) x F); a spring-damper-actuator between two
 * points pulls with tension T = k (l - l0) + c ldot + actuator along the line
 * of the points; a rotational spring-damper applies tb = -k (phi_b - phi_a -
 * l0) - c (w_b - w_a) + actuator to b and -tb to a; the external hook (the
 * contact module) adds its forces last. The power of the non-conservative
 * loads (dampers, actuators, point forces, torques, the hook) is summed with
 * them (the springs and gravity are in the potential energy, energy.c).
 *
 * dyn_loads_jacobian gives d g / dq and d g / dv analytically (formulas at
 * spring_damper_jacobian) into a dyn_gjac, dense or by body blocks (dyn_gjac_at finds a
 * block by bisection in its column's partners); dyn_external_jacobian_fd the hook's part
 * by central differences when it has no companion (dense only).
 *
 * Each load's value (the point force, the torque, the actuator of a spring-damper) is
 * multiplied by its scale function of time and by the host's factor (an input); the
 * host's forces (its inputs and its user force, src/sim/sim_inputs.c) are added after the
 * contacts'.
 */
#include "dynamics/dyn_internal.h"
#include "flex/flex.h"

#include <string.h>

/* a beam element's section and its nodes' coordinates and rates (both nodes are bodies) */
static void beam_state(const clink_force_def *f, const double *q, const double *v, flex_section *s,
                       double qe[6], double ve[6])
{
    s->ea = f->ea;
    s->ga = f->ga;
    s->ei = f->ei;
    s->l = f->free_length;
    s->tau = f->c;
    int c[2] = {3 * (f->body_a - 1), 3 * (f->body_b - 1)};
    for (int n = 0; n < 2; n++)
        for (int i = 0; i < 3; i++) {
            qe[3 * n + i] = q[c[n] + i];
            ve[3 * n + i] = v[c[n] + i];
        }
}

double dyn_beam_energy(const clink_force_def *f, const double *q)
{
    flex_section s;
    double qe[6], ve[6];
    beam_state(f, q, q, &s, qe, ve);
    return flex_beam_energy(&s, qe);
}

/* a beam element's force added to g; returns the power of its damping (src/flex/) */
static double beam_load(const clink_force_def *f, const double *q, const double *v, double *g)
{
    flex_section s;
    double qe[6], ve[6], ge[6];
    beam_state(f, q, v, &s, qe, ve);
    double power = flex_beam_force(&s, qe, ve, ge, NULL, NULL);
    for (int i = 0; i < 3; i++) {
        g[3 * (f->body_a - 1) + i] += ge[i];
        g[3 * (f->body_b - 1) + i] += ge[3 + i];
    }
    return power;
}

/* a beam element's stiffness and damping (src/flex/) added to J */
static void beam_jacobian(const clink_force_def *f, const double *q, const double *v, dyn_gjac *J)
{
    flex_section s;
    double qe[6], ve[6], ge[6], kq[6][6], kv[6][6];
    beam_state(f, q, v, &s, qe, ve);
    flex_beam_force(&s, qe, ve, ge, kq, kv);
    int body[2] = {f->body_a, f->body_b};
    for (int j = 0; j < 6; j++) {
        int col = 3 * (body[j / 3] - 1) + j % 3;
        for (int i = 0; i < 6; i++) {
            dyn_gjac_at(J, 0, col, body[i / 3])[i % 3] += kq[i][j];
            dyn_gjac_at(J, 1, col, body[i / 3])[i % 3] += kv[i][j];
        }
    }
}

/* adds force F (global) at body point s (arm A s) to g */
static void add_point_force(double *g, int body, const double arm[2], double fx, double fy)
{
    if (body <= 0)
        return;
    double *gi = g + 3 * (body - 1);
    gi[0] += fx;
    gi[1] += fy;
    gi[2] += arm[0] * fy - arm[1] * fx;
}

/* velocity of a body point with arm A s */
static void point_velocity(const kin_pose *p, const double arm[2], double vel[2])
{
    vel[0] = p->vx - p->w * arm[1];
    vel[1] = p->vy + p->w * arm[0];
}

/* load k as it acts at t: its value times its scale function and the host's factor (the
   definition itself when both are exactly 1) */
static const clink_force_def *scaled_load(const dyn_system *sys, int k, double t,
                                          clink_force_def *buf)
{
    const clink_force_def *f = &sys->m->d.forces[k].def;
    double sc = 1.0;
    if (f->scale.type != CLINK_FUNCTION_CONSTANT || f->scale.c[0] != 1.0)
        clink_function_eval(&f->scale, t, &sc, NULL, NULL);
    if (sys->host.load_scale)
        sc *= sys->host.load_scale(sys->host.data, k, t);
    if (sc == 1.0)
        return f;
    *buf = *f;
    buf->fx *= sc;
    buf->fy *= sc;
    buf->torque *= sc;
    buf->actuator *= sc;
    return buf;
}

int dyn_applied_forces(dyn_system *sys, double t, const double *q, const double *v, double *g,
                       double *power_loads)
{
    const model_data *d = &sys->m->d;
    double power = 0.0;
    for (int c = 0; c < sys->nq; c++)
        g[c] = 0.0;
    for (int i = 1; i < d->nbodies; i++) {
        g[3 * (i - 1)] += d->bodies[i].def.mass * d->gravity[0];
        g[3 * (i - 1) + 1] += d->bodies[i].def.mass * d->gravity[1];
    }
    for (int k = 0; k < d->nforces; k++) {
        clink_force_def fbuf;
        const clink_force_def *f = scaled_load(sys, k, t, &fbuf);
        kin_pose a, b;
        double arma[2], armb[2], ra[2], rb[2], va[2], vb[2];
        kin_pose_of(q, v, f->body_a, &a);
        kin_pose_of(q, v, f->body_b, &b);
        kin_point(&a, f->point_a, arma, ra);
        kin_point(&b, f->point_b, armb, rb);
        point_velocity(&a, arma, va);
        point_velocity(&b, armb, vb);
        switch (f->type) {
        case CLINK_FORCE_POINT:
            add_point_force(g, f->body_a, arma, f->fx, f->fy);
            power += f->fx * va[0] + f->fy * va[1];
            break;
        case CLINK_FORCE_TORQUE:
            g[3 * (f->body_a - 1) + 2] += f->torque;
            power += f->torque * a.w;
            break;
        case CLINK_FORCE_SPRING_DAMPER: {
            double dx = rb[0] - ra[0], dy = rb[1] - ra[1], l = hypot(dx, dy);
            if (!(l > 1e-12)) {
                dyn_set_msg(sys, "spring-damper %d '%s': its points coincide at t = %.9g s", k,
                            d->forces[k].name, t);
                return 1;
            }
            double ux = dx / l, uy = dy / l;
            double ldot = ux * (vb[0] - va[0]) + uy * (vb[1] - va[1]);
            double tension = f->k * (l - f->free_length) + f->c * ldot + f->actuator;
            add_point_force(g, f->body_b, armb, -tension * ux, -tension * uy);
            add_point_force(g, f->body_a, arma, tension * ux, tension * uy);
            /* power of damper and actuator (the spring is in the potential energy) */
            power -= (f->c * ldot + f->actuator) * ldot;
            break;
        }
        case CLINK_FORCE_ROTATIONAL_SPRING_DAMPER: {
            double rel = b.phi - a.phi - f->free_length, relw = b.w - a.w;
            double tb = -f->k * rel - f->c * relw + f->actuator;
            if (f->body_b > 0)
                g[3 * (f->body_b - 1) + 2] += tb;
            if (f->body_a > 0)
                g[3 * (f->body_a - 1) + 2] -= tb;
            power += (-f->c * relw + f->actuator) * relw;
            break;
        }
        case CLINK_FORCE_BEAM:
            power += beam_load(f, q, v, g);
            break;
        default:
            break;
        }
    }
    if (sys->ext) {
        int rc = sys->ext(sys->ext_data, t, q, v, g, &power);
        if (rc != 0)
            return rc;
    }
    if (sys->host.forces) {
        int rc = sys->host.forces(sys->host.data, t, q, v, g, &power);
        if (rc != 0)
            return rc;
    }
    if (power_loads)
        *power_loads = power;
    return dyn_finite_all(g, sys->nq) ? 0 : 1;
}

/*
 * d g / dq and d g / dv of the applied forces (without the external hook), added
 * to J (dense or by body blocks, dyn_gjac_at). A spring-damper between points r_a, r_b:
 * with D = d(r_b - r_a)/d(q_a, q_b) (2 x 6), l = |r_b - r_a|, u the unit vector,
 * w the relative velocity of the points, ldot = u . w and T = k (l - l0) +
 * c ldot + actuator, the generalised force is D^T f with f = -T u, so
 *   d/dq = D^T df/dq + (the rotation of the arms: -A_b s_b . f on (phi_b, phi_b),
 *          A_a s_a . f on (phi_a, phi_a)),  df/dq = -(u dT/dq + T (I - u u^T) D / l),
 *   dT/dq = k u^T D + c (w^T (I - u u^T) D / l + u^T dw/dq),  dw/dq: w_a A_a s_a on
 *          phi_a, -w_b A_b s_b on phi_b;  d/dv = D^T (-u c u^T D).
 * A point force F at arm A s: d(arm x F)/dphi = -(A s) . F.
 */
/* the spring-damper-actuator's part of dyn_loads_jacobian (formulas above) */
static void spring_damper_jacobian(const clink_force_def *f, const kin_pose *pa, const kin_pose *pb,
                                   const double arma[2], const double armb[2], const double ra[2],
                                   const double rb[2], const double va[2], const double vb[2],
                                   int ca, int cb, dyn_gjac *J)
{
    const kin_pose a = *pa, b = *pb;
    double dx = rb[0] - ra[0], dy = rb[1] - ra[1], l = hypot(dx, dy);
    if (!(l > 1e-12))
        return; /* dyn_applied_forces has refused this state */
    double u[2] = {dx / l, dy / l}, w[2] = {vb[0] - va[0], vb[1] - va[1]};
    double ldot = u[0] * w[0] + u[1] * w[1];
    double T = f->k * (l - f->free_length) + f->c * ldot + f->actuator;
    /* D: columns 0-2 body a, 3-5 body b */
    double D[2][6] = {{-1.0, 0.0, arma[1], 1.0, 0.0, -armb[1]},
                      {0.0, -1.0, -arma[0], 0.0, 1.0, armb[0]}};
    double W[2][6] = {{0.0, 0.0, a.w * arma[0], 0.0, 0.0, -b.w * armb[0]},
                      {0.0, 0.0, a.w * arma[1], 0.0, 0.0, -b.w * armb[1]}};
    double P[2][6], uD[6], dT[6], dTv[6], df[2][6], dfv[2][6];
    for (int j = 0; j < 6; j++) {
        uD[j] = u[0] * D[0][j] + u[1] * D[1][j];
        for (int i = 0; i < 2; i++)
            P[i][j] = (D[i][j] - u[i] * uD[j]) / l; /* du/dq */
        dT[j] = f->k * uD[j] +
                f->c * (w[0] * P[0][j] + w[1] * P[1][j] + u[0] * W[0][j] + u[1] * W[1][j]);
        dTv[j] = f->c * uD[j];
    }
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 6; j++) {
            df[i][j] = -(u[i] * dT[j] + T * P[i][j]);
            dfv[i][j] = -u[i] * dTv[j];
        }
    double fv[2] = {-T * u[0], -T * u[1]};
    int cols[6] = {ca, ca + 1, ca + 2, cb, cb + 1, cb + 2};
    for (int j = 0; j < 6; j++) {
        if ((j < 3 ? ca : cb) < 0)
            continue;
        for (int i = 0; i < 6; i++) {
            if ((i < 3 ? ca : cb) < 0)
                continue;
            double hq = D[0][i] * df[0][j] + D[1][i] * df[1][j];
            double hv = D[0][i] * dfv[0][j] + D[1][i] * dfv[1][j];
            if (i == j && i == 2)
                hq += arma[0] * fv[0] + arma[1] * fv[1];
            if (i == j && i == 5)
                hq -= armb[0] * fv[0] + armb[1] * fv[1];
            int body = cols[i] / 3 + 1;
            dyn_gjac_at(J, 0, cols[j], body)[i % 3] += hq;
            dyn_gjac_at(J, 1, cols[j], body)[i % 3] += hv;
        }
    }
}

/* the rotational spring-damper's part: tb = -k (phi_b - phi_a - l0) - c (w_b - w_a) +
   actuator, +tb on b, -tb on a */
static void rotational_jacobian(const clink_force_def *f, int ca, int cb, dyn_gjac *J)
{
    int idx[2] = {ca >= 0 ? ca + 2 : -1, cb >= 0 ? cb + 2 : -1};
    double sign[2] = {-1.0, 1.0};
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            if (idx[i] < 0 || idx[j] < 0)
                continue;
            int body = idx[i] / 3 + 1;
            dyn_gjac_at(J, 0, idx[j], body)[2] += -f->k * sign[i] * sign[j];
            dyn_gjac_at(J, 1, idx[j], body)[2] += -f->c * sign[i] * sign[j];
        }
}

/* d g / dq and d g / dv of the applied loads (hook excluded), added to J */
void dyn_loads_jacobian(dyn_system *sys, double t, const double *q, const double *v, dyn_gjac *J)
{
    const model_data *d = &sys->m->d;
    for (int k = 0; k < d->nforces; k++) {
        clink_force_def fbuf;
        const clink_force_def *f = scaled_load(sys, k, t, &fbuf);
        kin_pose a, b;
        double arma[2], armb[2], ra[2], rb[2], va[2], vb[2];
        kin_pose_of(q, v, f->body_a, &a);
        kin_pose_of(q, v, f->body_b, &b);
        kin_point(&a, f->point_a, arma, ra);
        kin_point(&b, f->point_b, armb, rb);
        point_velocity(&a, arma, va);
        point_velocity(&b, armb, vb);
        int ca = f->body_a > 0 ? 3 * (f->body_a - 1) : -1;
        int cb = f->body_b > 0 ? 3 * (f->body_b - 1) : -1;
        switch (f->type) {
        case CLINK_FORCE_POINT:
            if (ca >= 0)
                dyn_gjac_at(J, 0, ca + 2, f->body_a)[2] += -(arma[0] * f->fx + arma[1] * f->fy);
            break;
        case CLINK_FORCE_TORQUE:
            break;
        case CLINK_FORCE_SPRING_DAMPER:
            spring_damper_jacobian(f, &a, &b, arma, armb, ra, rb, va, vb, ca, cb, J);
            break;
        case CLINK_FORCE_ROTATIONAL_SPRING_DAMPER:
            rotational_jacobian(f, ca, cb, J);
            break;
        case CLINK_FORCE_BEAM:
            beam_jacobian(f, q, v, J);
            break;
        case CLINK_FORCE_TYPE_COUNT_:
            break;
        }
    }
}

double *dyn_gjac_at(dyn_gjac *J, int rate, int col, int body)
{
    double *g = rate ? J->gv : J->gq;
    if (!J->ptr)
        return g + (size_t) col * (size_t) J->nq + 3 * (body - 1);
    /* body's block in the partners of col's body (ascending) */
    int lo = J->ptr[col / 3], hi = J->ptr[col / 3 + 1];
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (J->body[mid] < body)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < J->ptr[col / 3 + 1] && J->body[lo] == body)
        return g + 9 * (size_t) lo + 3 * (col % 3);
    J->missed = 1;
    J->scratch[0] = J->scratch[1] = J->scratch[2] = 0.0;
    return J->scratch;
}

/* central differences of one hook (h = 6e-6 max(|x|, 1e-2)), added to gq and gv */
static int hook_jacobian_fd(dyn_system *s, dyn_external_fn fn, void *data, double t,
                            const double *q, const double *v, double *gq, double *gv)
{
    int nq = s->nq, rc = 0;
    double *gm = s->jx_g0, *gp = s->jx_g1, *x = s->jx_x, power = 0.0;
    for (int side = 0; side < 2; side++) {
        const double *base = side == 0 ? q : v;
        double *out = side == 0 ? gq : gv;
        memcpy(x, base, (size_t) nq * sizeof(double));
        for (int c = 0; c < nq; c++) {
            double xc = x[c], h = 6e-6 * fmax(fabs(xc), 1e-2);
            memset(gp, 0, (size_t) nq * sizeof(double));
            memset(gm, 0, (size_t) nq * sizeof(double));
            x[c] = xc + h;
            rc = side == 0 ? fn(data, t, x, v, gp, &power) : fn(data, t, q, x, gp, &power);
            x[c] = xc - h;
            if (rc == 0)
                rc = side == 0 ? fn(data, t, x, v, gm, &power) : fn(data, t, q, x, gm, &power);
            x[c] = xc;
            if (rc != 0)
                return rc;
            for (int i = 0; i < nq; i++)
                out[(size_t) c * nq + i] += (gp[i] - gm[i]) / (2.0 * h);
        }
    }
    /* leave the hook's per-evaluation state (dissipation powers) at the unperturbed state */
    memset(gp, 0, (size_t) nq * sizeof(double));
    return fn(data, t, q, v, gp, &power);
}

/* central differences of the external hook alone, added to gq and gv */
int dyn_external_jacobian_fd(dyn_system *s, double t, const double *q, const double *v, double *gq,
                             double *gv)
{
    return hook_jacobian_fd(s, s->ext, s->ext_data, t, q, v, gq, gv);
}

int dyn_host_jacobian(dyn_system *s, double t, const double *q, const double *v, double *gq,
                      double *gv)
{
    if (s->host.jacobian)
        return s->host.jacobian(s->host.data, t, q, v, gq, gv);
    return hook_jacobian_fd(s, s->host.forces, s->host.data, t, q, v, gq, gv);
}
