/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim_inputs.c: what the host of a simulation sets between advances (include/clink/sim.h,
 * "inputs and user forces"): the model's inputs (clink_input_def) and a user force by
 * callback, handed to the dynamics as its host (dyn_host, src/dynamics/dynamics.h).
 *
 * An input i holds u_i(t) = value_i + slope_i (t - t_set_i). The force kinds add, per body
 * (fx, fy, torque): a force u d (d global) at a body point with arm A s: (u d, (A s) x u d);
 * a torque u; a joint torque +u on body_b and -u on body_a; a joint force u e along the
 * translational joint's axis e = A_a axis_a: u e on body_b at its point p, -u e on body_a
 * at the same point (arm p - r_a). Their power u d . v_point (u w, u (w_b - w_a), u e .
 * (v_p,b - v_p,a)) goes to the loads' work. A load-scale input multiplies its load's value;
 * a driver input replaces the driver's function from t_set on: the value kind by u + slope
 * (t - t_set), the rate kind by f(t_set) + u (t - t_set) + slope (t - t_set)^2 / 2.
 *
 * A change is a discontinuity: the next advance re-initialises the integrator at the output
 * time t_set with the output state (projected onto the constraints after a driver input),
 * the contacts' state restored to what it was at that output (the steps the integrator had
 * taken beyond it may have moved their running maxima), so that the run continues as one
 * that stopped at t_set. The Jacobian of the input forces is taken by central differences
 * (they are cheap), the user force's by its companion or central differences.
 */
#include "sim/sim_inputs.h"
#include "dynamics/constraints.h"
#include "model/model_internal.h"
#include "sim/sim_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the forces ---------------------------------------------------------- */

static double input_at(const sim_inputs *in, int i, double t)
{
    return in->value[i] + in->slope[i] * (t - in->t_set[i]);
}

/* adds force (fx, fy) at arm to body b of g; returns its power with the point's velocity */
static double add_force(double *g, const double *v, int b, const double arm[2], double fx,
                        double fy)
{
    if (b <= 0)
        return 0.0;
    double *gi = g + 3 * (b - 1);
    const double *vb = v + 3 * (b - 1);
    gi[0] += fx;
    gi[1] += fy;
    gi[2] += arm[0] * fy - arm[1] * fx;
    return fx * (vb[0] - vb[2] * arm[1]) + fy * (vb[1] + vb[2] * arm[0]);
}

/* a joint force u across translational joint j (header comment) */
static double joint_force(const clink_joint_def *jd, const double *q, const double *v, double u,
                          double *g)
{
    kin_pose a, b;
    double arma[2], armb[2], ra[2], rb[2], e[2];
    kin_pose_of(q, v, jd->body_a, &a);
    kin_pose_of(q, v, jd->body_b, &b);
    kin_point(&b, jd->point_b, armb, rb);
    kin_rot(a.phi, jd->axis_a, e);
    double en = hypot(e[0], e[1]);
    arma[0] = rb[0] - a.x;
    arma[1] = rb[1] - a.y;
    (void) ra;
    double fx = u * e[0] / en, fy = u * e[1] / en;
    return add_force(g, v, jd->body_b, armb, fx, fy) + add_force(g, v, jd->body_a, arma, -fx, -fy);
}

/* the input forces at (t, q, v) added to g, their power to *power */
static void input_forces(const clink_sim *s, double t, const double *q, const double *v, double *g,
                         double *power)
{
    const model_data *d = &s->m->d;
    const sim_inputs *in = &s->inp;
    for (int i = 0; i < in->n; i++) {
        const clink_input_def *def = &d->inputs[i].def;
        double u = input_at(in, i, t);
        switch (def->kind) {
        case CLINK_INPUT_FORCE: {
            kin_pose p;
            double arm[2], r[2];
            kin_pose_of(q, v, def->target, &p);
            kin_point(&p, def->point, arm, r);
            *power +=
                add_force(g, v, def->target, arm, u * def->direction[0], u * def->direction[1]);
            break;
        }
        case CLINK_INPUT_TORQUE:
            g[3 * (def->target - 1) + 2] += u;
            *power += u * v[3 * (def->target - 1) + 2];
            break;
        case CLINK_INPUT_JOINT_TORQUE: {
            const clink_joint_def *jd = &d->joints[def->target].def;
            double wa = jd->body_a > 0 ? v[3 * (jd->body_a - 1) + 2] : 0.0;
            double wb = jd->body_b > 0 ? v[3 * (jd->body_b - 1) + 2] : 0.0;
            if (jd->body_b > 0)
                g[3 * (jd->body_b - 1) + 2] += u;
            if (jd->body_a > 0)
                g[3 * (jd->body_a - 1) + 2] -= u;
            *power += u * (wb - wa);
            break;
        }
        case CLINK_INPUT_JOINT_FORCE:
            *power += joint_force(&d->joints[def->target].def, q, v, u, g);
            break;
        default:
            break;
        }
    }
}

/* the user force: called, checked (finite, nothing on a held coordinate), added */
static int user_force(clink_sim *s, double t, const double *q, const double *v, double *g,
                      double *power)
{
    sim_inputs *in = &s->inp;
    int nq = s->sys->nq;
    char m[256];
    memset(in->f, 0, (size_t) nq * sizeof(double));
    int rc = in->uf(in->udata, t, nq, q, v, in->f);
    if (rc != 0) {
        snprintf(m, sizeof m, "user force '%s' failed (returned %d) at t = %.9g s", in->uname, rc,
                 t);
        system_failed(s->sys, CLINK_ERR_SOLVER, m);
        s->sys->fatal = 1;
        return 1;
    }
    for (int c = 0; c < nq; c++)
        if (!isfinite(in->f[c])) {
            snprintf(m, sizeof m,
                     "user force '%s' returned a non-finite force (body %d, component %d) at "
                     "t = %.9g s",
                     in->uname, c / 3 + 1, c % 3, t);
            system_failed(s->sys, CLINK_ERR_NONFINITE, m);
            s->sys->fatal = 1;
            return 1;
        }
    for (int j = 0; j < nq - s->sys->nr; j++) {
        int c = s->sys->fixed[j];
        if (in->f[c] != 0.0) {
            snprintf(m, sizeof m,
                     "user force '%s' acts on %s of body %d at t = %.9g s, a coordinate this "
                     "model holds fixed (nothing else can move it: docs/api.md)",
                     in->uname,
                     c % 3 == 2 ? "the angle"
                     : c % 3    ? "y"
                                : "x",
                     c / 3 + 1, t);
            system_failed(s->sys, CLINK_ERR_MODEL, m);
            s->sys->fatal = 1;
            return 1;
        }
    }
    for (int c = 0; c < nq; c++) {
        g[c] += in->f[c];
        *power += in->f[c] * v[c];
    }
    return 0;
}

/* dyn_host.forces: the inputs' forces, then the user force */
static int host_forces(void *data, double t, const double *q, const double *v, double *g,
                       double *power)
{
    clink_sim *s = data;
    if (s->inp.nforce_inputs)
        input_forces(s, t, q, v, g, power);
    return s->inp.uf ? user_force(s, t, q, v, g, power) : 0;
}

/* dyn_host.load_scale */
static double host_load_scale(void *data, int load, double t)
{
    const clink_sim *s = data;
    int i = s->inp.load_input[load];
    return i < 0 ? 1.0 : input_at(&s->inp, i, t);
}

/* ---- their Jacobian -------------------------------------------------------- */

/* the host's forces of one part (0 the inputs', 1 the user's) at (t, q, v) into g (zeroed) */
static int part_forces(clink_sim *s, int part, double t, const double *q, const double *v,
                       double *g)
{
    double power = 0.0;
    memset(g, 0, (size_t) s->sys->nq * sizeof(double));
    if (part == 0) {
        input_forces(s, t, q, v, g, &power);
        return 0;
    }
    return user_force(s, t, q, v, g, &power);
}

/* central differences of one part (h = 6e-6 max(|x|, 1e-2)) over q (and v when with_v),
   added to gq and gv */
static int part_jacobian_fd(clink_sim *s, int part, int with_v, double t, const double *q,
                            const double *v, double *gq, double *gv)
{
    sim_inputs *in = &s->inp;
    int nq = s->sys->nq;
    double *gp = in->xq + nq, *gm = in->xv + nq;
    for (int side = 0; side < 1 + with_v; side++) {
        double *x = side == 0 ? in->xq : in->xv, *out = side == 0 ? gq : gv;
        memcpy(x, side == 0 ? q : v, (size_t) nq * sizeof(double));
        for (int c = 0; c < nq; c++) {
            double xc = x[c], h = 6e-6 * fmax(fabs(xc), 1e-2);
            x[c] = xc + h;
            int rc =
                side == 0 ? part_forces(s, part, t, x, v, gp) : part_forces(s, part, t, q, x, gp);
            x[c] = xc - h;
            if (rc == 0)
                rc = side == 0 ? part_forces(s, part, t, x, v, gm)
                               : part_forces(s, part, t, q, x, gm);
            x[c] = xc;
            if (rc != 0)
                return rc;
            for (int i = 0; i < nq; i++)
                out[(size_t) c * nq + i] += (gp[i] - gm[i]) / (2.0 * h);
        }
    }
    return 0;
}

/* dyn_host.jacobian: the inputs' forces (they depend on q alone) and the user force's */
static int host_jacobian(void *data, double t, const double *q, const double *v, double *gq,
                         double *gv)
{
    clink_sim *s = data;
    sim_inputs *in = &s->inp;
    int nq = s->sys->nq;
    if (in->nforce_inputs && part_jacobian_fd(s, 0, 0, t, q, v, gq, gv) != 0)
        return 1;
    if (!in->uf)
        return 0;
    if (!in->ujac)
        return part_jacobian_fd(s, 1, 1, t, q, v, gq, gv);
    size_t nn = (size_t) nq * (size_t) nq;
    memset(in->fq, 0, nn * sizeof(double));
    memset(in->fv, 0, nn * sizeof(double));
    int rc = in->ujac(in->udata, t, nq, q, v, in->fq, in->fv);
    if (rc != 0) {
        char m[192];
        snprintf(m, sizeof m, "user force '%s': its Jacobian failed (returned %d) at t = %.9g s",
                 in->uname, rc, t);
        system_failed(s->sys, CLINK_ERR_SOLVER, m);
        s->sys->fatal = 1;
        return 1;
    }
    for (size_t k = 0; k < nn; k++) {
        gq[k] += in->fq[k];
        gv[k] += in->fv[k];
    }
    return 0;
}

/* the host as the dynamics see it: its hooks only where something is there to add */
static void host_install(clink_sim *s)
{
    sim_inputs *in = &s->inp;
    int scaled = 0;
    for (int k = 0; k < s->m->d.nforces; k++)
        scaled = scaled || in->load_input[k] >= 0;
    dyn_host h = {.data = s, .drivers = in->drivers};
    if (in->nforce_inputs || in->uf) {
        h.forces = host_forces;
        h.jacobian = host_jacobian;
    }
    if (scaled)
        h.load_scale = host_load_scale;
    dyn_set_host(s->sys->dyn, &h);
}

/* ---- lifecycle ------------------------------------------------------------- */

/* the arrays of the inputs and the force scratch */
static clink_status inputs_allocate(clink_sim *s)
{
    sim_inputs *in = &s->inp;
    const model_data *d = &s->m->d;
    size_t n1 = (size_t) (in->n > 0 ? in->n : 1), nq = (size_t) (s->sys->nq > 0 ? s->sys->nq : 1);
    in->value = calloc(n1, sizeof(double));
    in->slope = calloc(n1, sizeof(double));
    in->t_set = calloc(n1, sizeof(double));
    in->load_input = malloc((size_t) (d->nforces > 0 ? d->nforces : 1) * sizeof(int));
    in->f = calloc(nq, sizeof(double));
    in->xq = calloc(2 * nq, sizeof(double));
    in->xv = calloc(2 * nq, sizeof(double));
    size_t cs = s->sys->sc ? contacts_state_size(s->sys->sc) : 0;
    in->contacts = cs ? malloc(cs) : NULL;
    if (!in->value || !in->slope || !in->t_set || !in->load_input || !in->f || !in->xq || !in->xv ||
        (cs && !in->contacts)) {
        sim_msg(s, "clink_sim_create: out of memory");
        return CLINK_ERR_NOMEM;
    }
    return CLINK_OK;
}

clink_status sim_inputs_create(clink_sim *s)
{
    sim_inputs *in = &s->inp;
    const model_data *d = &s->m->d;
    in->n = d->ninputs;
    in->t_contacts = NAN;
    clink_status st = inputs_allocate(s);
    if (st != CLINK_OK)
        return st;
    for (int k = 0; k < d->nforces; k++)
        in->load_input[k] = -1;
    int drivers = 0;
    for (int i = 0; i < in->n; i++) {
        const clink_input_def *def = &d->inputs[i].def;
        in->value[i] = def->initial;
        in->t_set[i] = 0.0;
        if (def->kind == CLINK_INPUT_LOAD_SCALE)
            in->load_input[def->target] = i;
        else if (def->kind == CLINK_INPUT_DRIVER_VALUE || def->kind == CLINK_INPUT_DRIVER_RATE) {
            drivers = 1;
            in->t_set[i] = NAN; /* the driver follows its own function until set */
        } else
            in->nforce_inputs++;
    }
    if (drivers) {
        in->drivers = malloc((size_t) d->ndrivers * sizeof(clink_function));
        if (!in->drivers) {
            sim_msg(s, "clink_sim_create: out of memory");
            return CLINK_ERR_NOMEM;
        }
        for (int k = 0; k < d->ndrivers; k++)
            in->drivers[k] = d->drivers[k].def.function; /* tables shared with the model */
    }
    host_install(s);
    return CLINK_OK;
}

void sim_inputs_destroy(clink_sim *s)
{
    sim_inputs *in = &s->inp;
    free(in->value);
    free(in->slope);
    free(in->t_set);
    free(in->load_input);
    free(in->drivers);
    free(in->contacts);
    free(in->f);
    free(in->fq);
    free(in->fv);
    free(in->xq);
    free(in->xv);
    memset(in, 0, sizeof *in);
}

void sim_inputs_output(clink_sim *s)
{
    sim_inputs *in = &s->inp;
    if (in->contacts && (in->n > 0 || in->uf)) {
        contacts_state_save(s->sys->sc, in->contacts);
        in->t_contacts = s->t;
    }
}

clink_status sim_inputs_restart(clink_sim *s)
{
    sim_inputs *in = &s->inp;
    double *y = s->yh;
    memcpy(y, s->out.y, (size_t) s->sys->N * sizeof(double));
    if (in->project && s->sys->nc > 0) {
        clink_status st = system_audit_project(s->sys, s->t, y);
        if (st != CLINK_OK) {
            sim_msg(s, "restart after a driver input at t = %.9g s: %s", s->t,
                    dyn_error(s->sys->dyn));
            return st;
        }
    }
    if (in->contacts && in->t_contacts == s->t)
        contacts_state_restore(s->sys->sc, in->contacts);
    system_reduce(s->sys, y, s->loop.yroot);
    int rc = s->in->ops->reinit(s->in, s->t, s->loop.yroot);
    if (rc != 0) {
        char flag[64];
        sim_msg(s, "%s: the restart after an input change at t = %.9g s failed with %d (%s)",
                s->in->ops->name, s->t, rc, s->in->ops->code_name(rc, flag, sizeof flag));
        return CLINK_ERR_SOLVER;
    }
    if (s->sys->ncon && s->in->ops->events_changed)
        s->in->ops->events_changed(s->in);
    s->loop.root_pending = 0; /* beyond t: the new integration finds it again */
    s->loop.at_reinit = 1;
    s->loop.at_tstop = 0;
    s->loop.recheck = 0;
    in->changed = in->project = 0;
    in->restarts++;
    if (s->sec)
        sim_section_restart(s, s->t);
    return CLINK_OK;
}

/* ---- the host's calls ------------------------------------------------------ */

/* driver input i's new function from t0 (header comment) */
static void driver_function(clink_sim *s, int i, double t0)
{
    const clink_input_def *def = &s->m->d.inputs[i].def;
    clink_function *f = &s->inp.drivers[def->target];
    double u = s->inp.value[i], sl = s->inp.slope[i];
    if (def->kind == CLINK_INPUT_DRIVER_VALUE) {
        *f = (clink_function){.type = CLINK_FUNCTION_LINEAR, .n = 2, .c = {u - sl * t0, sl}};
        return;
    }
    double f0 = 0.0;
    clink_function_eval(f, t0, &f0, NULL, NULL);
    /* f0 + u (t - t0) + sl (t - t0)^2 / 2 as a polynomial in t */
    *f = (clink_function){.type = CLINK_FUNCTION_POLYNOMIAL,
                          .n = 3,
                          .c = {f0 - u * t0 + 0.5 * sl * t0 * t0, u - sl * t0, 0.5 * sl}};
}

/* clink_sim_set_input, the simulation held */
static clink_status set_input(clink_sim *s, int i, double value, double slope)
{
    sim_inputs *in = &s->inp;
    if (i < 0 || i >= in->n) {
        sim_msg(s, "set_input: input %d is not in 0..%d", i, in->n - 1);
        return CLINK_ERR_ARG;
    }
    if (!isfinite(value) || !isfinite(slope)) {
        sim_msg(s, "set_input: input '%s': value %g and slope %g must be finite",
                s->m->d.inputs[i].name, value, slope);
        return CLINK_ERR_ARG;
    }
    clink_input_kind kind = s->m->d.inputs[i].def.kind;
    int driver = kind == CLINK_INPUT_DRIVER_VALUE || kind == CLINK_INPUT_DRIVER_RATE;
    /* the value it has now and the same slope: nothing changes (a driver input never set has
       t_set NaN, so its first set is a change) */
    if (value == input_at(in, i, s->t) && slope == in->slope[i])
        return CLINK_OK;
    in->value[i] = value;
    in->slope[i] = slope;
    in->t_set[i] = s->t;
    if (driver) {
        driver_function(s, i, s->t);
        in->project = 1;
    }
    in->changed = 1;
    return CLINK_OK;
}

clink_status clink_sim_set_input(clink_sim *s, int index, double value, double slope)
{
    if (!s)
        return CLINK_ERR_ARG;
    clink_status st = sim_enter(s, SIM_OP_INPUT);
    if (st != CLINK_OK)
        return st;
    st = set_input(s, index, value, slope);
    sim_leave(s);
    return st;
}

int clink_sim_input_count(const clink_sim *s)
{
    return s ? s->inp.n : 0;
}

int clink_sim_input_index(const clink_sim *s, const char *name)
{
    return s ? clink_model_input_find(s->m, name) : -1;
}

clink_status clink_sim_set_input_by_name(clink_sim *s, const char *name, double value, double slope)
{
    if (!s)
        return CLINK_ERR_ARG;
    int i = clink_model_input_find(s->m, name);
    if (i < 0) {
        char list[256] = "";
        size_t len = 0;
        for (int k = 0; k < s->inp.n && len < sizeof list; k++)
            len += (size_t) snprintf(list + len, sizeof list - len, "%s'%s'", k ? ", " : "",
                                     s->m->d.inputs[k].name);
        if (sim_enter(s, SIM_OP_INPUT) != CLINK_OK)
            return CLINK_ERR_STATE;
        sim_msg(s, "set_input: no input '%s' (the model's: %s)", name ? name : "(null)",
                s->inp.n ? list : "none");
        sim_leave(s);
        return CLINK_ERR_NOT_FOUND;
    }
    return clink_sim_set_input(s, i, value, slope);
}

clink_status clink_sim_input(const clink_sim *s, int index, double *value, double *slope)
{
    if (!s || index < 0 || index >= s->inp.n)
        return CLINK_ERR_ARG;
    if (value)
        *value = input_at(&s->inp, index, s->t);
    if (slope)
        *slope = s->inp.slope[index];
    return CLINK_OK;
}

/* clink_sim_set_user_force, the simulation held */
static clink_status set_user_force(clink_sim *s, const char *name, clink_user_force_fn fn,
                                   clink_user_force_jac_fn jac, void *data)
{
    sim_inputs *in = &s->inp;
    size_t nn = (size_t) s->sys->nq * (size_t) s->sys->nq + 1;
    if (fn && jac && !in->fq) {
        in->fq = malloc(nn * sizeof(double));
        in->fv = malloc(nn * sizeof(double));
        if (!in->fq || !in->fv) {
            sim_msg(s, "set_user_force: out of memory");
            return CLINK_ERR_NOMEM;
        }
    }
    in->uf = fn;
    in->ujac = fn ? jac : NULL;
    in->udata = fn ? data : NULL;
    snprintf(in->uname, sizeof in->uname, "%s", name && name[0] ? name : "(unnamed)");
    in->changed = 1;
    host_install(s);
    return CLINK_OK;
}

clink_status clink_sim_set_user_force(clink_sim *s, const char *name, clink_user_force_fn fn,
                                      clink_user_force_jac_fn jac, void *data)
{
    if (!s)
        return CLINK_ERR_ARG;
    clink_status st = sim_enter(s, SIM_OP_INPUT);
    if (st != CLINK_OK)
        return st;
    if (s->sys->win) { /* the window's right-hand side has no user force (sim_window.c) */
        sim_msg(s, "set_user_force: not with the window of the state (settings window; it is on, "
                   "or auto chose it: set window=\"off\" for a user force)");
        st = CLINK_ERR_STATE;
    } else
        st = set_user_force(s, name, fn, jac, data);
    sim_leave(s);
    return st;
}
