/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * system_state.c: the mechanism's state as the integrator sees it (system.h):
 * creation, the reduction and the initial state.
 *
 * The integrator's state leaves out the coordinates that cannot change
 * (system_reduction): the angle of every body that cannot turn (system_turning:
 * no initial spin, no joint, driver or load on it, and only frictionless contacts
 * of circles or bores centred at its centre of mass, whose forces pass through
 * it), and its x (or y) when it rests along that axis, gravity has no component
 * along it and each of its contacts is with a body of the same kind at the same x
 * (or y) or with a ground line parallel to the axis (system_keep_axis), so that
 * every force on it is exactly perpendicular to the axis. These coordinates and
 * their rates stay at their initial values exactly, so the integrator's vector
 * operations, norms and interpolations run over the rest (system_full,
 * system_reduce). A chain's beads on the x axis carry 2 components each instead
 * of 6; every result is the same bit for bit (the left-out components had zero
 * error and zero history, and the error norm skips such components).
 */
#include "system/system.h"

#include "model/model_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the left-out coordinates of a full state: their initial values, rates zero */
static void system_full_fixed(const mechsys *s, double *buf)
{
    int nq = s->nq;
    const double *held = s->win ? s->win->hq : s->q0; /* the window's held coordinates */
    for (int k = 0; k < nq - s->nr; k++) {
        buf[s->fixed[k]] = held[s->fixed[k]];
        buf[nq + s->fixed[k]] = 0.0;
    }
    if (s->win) /* the integrals of the contacts outside the window */
        system_window_tail_held(s, buf);
}

/* the components the integrator carries, into a full state */
static void system_full_moving(const mechsys *s, const double *yr, double *buf)
{
    int nq = s->nq, nr = s->nr;
    for (int i = 0; i < nr; i++) {
        buf[s->red[i]] = yr[i];
        buf[nq + s->red[i]] = yr[nr + i];
    }
    if (s->win)
        system_window_tail_full(s, yr, buf);
    else
        memcpy(buf + 2 * nq, yr + 2 * nr, (size_t) (s->N - 2 * nq) * sizeof(double));
}

/* nonzero when the integrator's state is the full one (nothing left out) */
static int system_whole(const mechsys *s)
{
    return s->nr == s->nq && (!s->win || s->win->nwk == s->win->nwork);
}

const double *system_full(const mechsys *s, const double *yr, double *buf)
{
    if (system_whole(s))
        return yr;
    system_full_fixed(s, buf);
    system_full_moving(s, yr, buf);
    return buf;
}

const double *system_full_x(mechsys *s, const double *yr)
{
    if (system_whole(s))
        return yr;
    if (!s->yx_fixed) {
        system_full_fixed(s, s->yx);
        s->yx_fixed = 1;
    }
    system_full_moving(s, yr, s->yx);
    return s->yx;
}

void system_reduce(const mechsys *s, const double *yf, double *yr)
{
    if (yf == yr)
        return;
    if (system_whole(s)) {
        memcpy(yr, yf, (size_t) s->N * sizeof(double));
        return;
    }
    int nq = s->nq, nr = s->nr;
    for (int i = 0; i < nr; i++) {
        yr[i] = yf[s->red[i]];
        yr[nr + i] = yf[nq + s->red[i]];
    }
    if (s->win)
        system_window_tail_reduce(s, yf, yr);
    else
        memcpy(yr + 2 * nr, yf + 2 * nq, (size_t) (s->N - 2 * nq) * sizeof(double));
}

/*
 * turns[b] (nb entries, zero on entry) set for every body b (>= 1) that can turn: it spins
 * at t = 0, a joint, a driver or an applied load acts on it, or one of its contacts can
 * exert a moment about its centre of mass (contacts_turning). A body that cannot turn keeps its
 * angle and a zero rate exactly, so both are left out of the integrator's state (a chain's
 * beads: 4 of 6 components each remain). One pass over each list: linear in the model.
 */
static void system_turning(const mechsys *s, unsigned char *turns)
{
    const model_data *d = &s->m->d;
    int nb = d->nbodies;
/* a body index as an element holds it (an unused one may be anything): marked if a body */
#define SYSTEM_TURNS(b)                                                                            \
    do {                                                                                           \
        int b_ = (b);                                                                              \
        if (b_ >= 1 && b_ < nb)                                                                    \
            turns[b_] = 1;                                                                         \
    } while (0)
    for (int b = 1; b < nb; b++)
        turns[b] = d->bodies[b].def.omega != 0.0;
    for (int j = 0; j < d->njoints; j++) {
        SYSTEM_TURNS(d->joints[j].def.body_a);
        SYSTEM_TURNS(d->joints[j].def.body_b);
    }
    for (int k = 0; k < d->ndrivers; k++)
        if (d->drivers[k].def.target == CLINK_DRIVE_BODY_COORDINATE)
            SYSTEM_TURNS(d->drivers[k].def.body);
    for (int k = 0; k < d->nforces; k++) {
        SYSTEM_TURNS(d->forces[k].def.body_a);
        SYSTEM_TURNS(d->forces[k].def.body_b);
    }
#undef SYSTEM_TURNS
    for (int b = 1; b < nb; b++) /* an input's force or torque on it (few inputs) */
        if (!turns[b] && model_inputs_move(d, b))
            turns[b] = 1;
    contacts_turning(s->sc, turns);
}

/* each body's contacts: those of body b (>= 1) are at[first[b] .. first[b + 1]) */
typedef struct system_incidence {
    int *first, *at;
} system_incidence;

static int system_incidence_create(const mechsys *s, int nb, system_incidence *inc)
{
    inc->first = calloc((size_t) nb + 1, sizeof(int));
    inc->at = calloc((size_t) (2 * s->ncon > 0 ? 2 * s->ncon : 1), sizeof(int));
    if (!inc->first || !inc->at)
        return -1;
    for (int k = 0; k < s->ncon; k++) {
        int ba, bb;
        contacts_bodies(s->sc, k, &ba, &bb);
        inc->first[ba + 1] += ba > 0;
        inc->first[bb + 1] += bb > 0 && bb != ba;
    }
    for (int b = 0; b < nb; b++)
        inc->first[b + 1] += inc->first[b];
    int *fill = calloc((size_t) nb, sizeof(int));
    if (!fill)
        return -1;
    for (int k = 0; k < s->ncon; k++) {
        int ba, bb;
        contacts_bodies(s->sc, k, &ba, &bb);
        if (ba > 0)
            inc->at[inc->first[ba] + fill[ba]++] = k;
        if (bb > 0 && bb != ba)
            inc->at[inc->first[bb] + fill[bb]++] = k;
    }
    free(fill);
    return 0;
}

static void system_incidence_free(system_incidence *inc)
{
    free(inc->first);
    free(inc->at);
}

/* contact k's rule along axis: its bodies that may not keep the axis removed from keep;
   each removed body's contacts pushed on the stack (room for all of them: 2 ncon) */
static void system_keep_rule(const mechsys *s, int k, int axis, const double *q0,
                             unsigned char *keep, const system_incidence *inc, int *stack, int *top)
{
    int ba, bb;
    int ok = contacts_keeps_axis(s->sc, k, axis, q0, &ba, &bb);
    int *kb[2] = {&ba, &bb};
    for (int i = 0; i < 2; i++) {
        int self = *kb[i], other = *kb[1 - i];
        if (self <= 0 || !keep[3 * (self - 1) + axis])
            continue;
        if (!ok || (other > 0 && !keep[3 * (other - 1) + axis])) {
            keep[3 * (self - 1) + axis] = 0;
            for (int j = inc->first[self]; j < inc->first[self + 1]; j++)
                stack[(*top)++] = inc->at[j];
        }
    }
}

/*
 * Marks in keep[3 (b - 1) + axis] (0 or 1 on entry for every body) which bodies keep
 * their coordinate along axis (0 x, 1 y) for ever: those entering with 1 (no spin, no
 * load, at rest along the axis, no gravity along it) whose every contact keeps the
 * axis (contacts_keeps_axis: a normal perpendicular to it while both bodies keep it) with a
 * body that keeps it too (or the ground). The set is the largest fixed point: bodies are
 * removed until no contact links a kept body to a moving one along the axis. Every
 * contact is tried once, then only the contacts of a body just removed (a worklist: each
 * body is removed at most once, so linear in the model, whatever the contacts' order;
 * the largest fixed point does not depend on the order of removals). -1 when out of memory.
 */
static int system_keep_axis(mechsys *s, int axis, const double *q0, unsigned char *keep,
                            const system_incidence *inc)
{
    int top = 0;
    int *stack = malloc((size_t) (2 * s->ncon + s->ncon + 1) * sizeof(int));
    if (!stack)
        return -1;
    for (int k = s->ncon - 1; k >= 0; k--)
        stack[top++] = k;
    while (top > 0) {
        int k = stack[--top];
        system_keep_rule(s, k, axis, q0, keep, inc, stack, &top);
    }
    free(stack);
    return 0;
}

/*
 * The map between the integrator's coordinates and the model's (red, fixed, nr, Nr): the
 * angle of a body that cannot turn (system_turning), and its x or y when it can move only
 * perpendicular to that axis (system_keep_axis), are left out of the integrator's state.
 */
static clink_status system_reduction(mechsys *s)
{
    int nq = s->nq, nb = s->m->d.nbodies;
    s->red = calloc((size_t) (nq > 0 ? nq : 1), sizeof(int));
    s->fixed = calloc((size_t) (nq > 0 ? nq : 1), sizeof(int));
    unsigned char *keep = calloc((size_t) (nq > 0 ? nq : 1), 1);
    unsigned char *turns = calloc((size_t) nb, 1);
    double *q0 = calloc((size_t) (nq > 0 ? nq : 1), sizeof(double));
    system_incidence inc = {NULL, NULL};
    if (!s->red || !s->fixed || !keep || !q0 || !turns ||
        system_incidence_create(s, nb, &inc) != 0) {
        free(keep);
        free(turns);
        free(q0);
        system_incidence_free(&inc);
        return CLINK_ERR_NOMEM;
    }
    system_turning(s, turns);
    for (int b = 1; b < nb; b++) {
        const clink_body_def *d = &s->m->d.bodies[b].def;
        double *qb = q0 + 3 * (b - 1);
        qb[0] = d->x;
        qb[1] = d->y;
        qb[2] = d->phi;
        unsigned char *kb = keep + 3 * (b - 1);
        kb[2] = !turns[b];
        kb[0] = kb[2] && d->vx == 0.0 && s->m->d.gravity[0] == 0.0;
        kb[1] = kb[2] && d->vy == 0.0 && s->m->d.gravity[1] == 0.0;
    }
    free(turns);
    int lost = system_keep_axis(s, 0, q0, keep, &inc) | system_keep_axis(s, 1, q0, keep, &inc);
    system_incidence_free(&inc);
    if (lost) {
        free(keep);
        free(q0);
        return CLINK_ERR_NOMEM;
    }
    int nr = 0, nf = 0;
    for (int i = 0; i < nq; i++) {
        if (keep[i])
            s->fixed[nf++] = i;
        else
            s->red[nr++] = i;
    }
    free(keep);
    free(q0);
    s->nr = nr;
    s->Nr = s->N - 2 * (nq - nr);
    return CLINK_OK;
}

/* the arrays of the root functions: each contact's bodies, each coordinate's place */
static clink_status system_roots_create(mechsys *s)
{
    int third = 0;
    for (int k = 0; k < s->ncon; k++)
        third += contacts_third_body(s->sc, k) > 0;
    s->ncouple = s->ncon + 2 * third;
    size_t n = (size_t) (2 * s->ncouple > 0 ? 2 * s->ncouple : 1);
    s->rt_body = calloc(n, sizeof(int));
    s->rt_inv = calloc((size_t) (s->nq > 0 ? s->nq : 1), sizeof(int));
    s->rt_y = calloc((size_t) s->N, sizeof(double));
    if (!s->rt_body || !s->rt_inv || !s->rt_y)
        return CLINK_ERR_NOMEM;
    for (int k = 0, x = s->ncon; k < s->ncon; k++) {
        int *ab = &s->rt_body[2 * k], c = contacts_third_body(s->sc, k);
        contacts_bodies(s->sc, k, &ab[0], &ab[1]);
        if (c > 0) { /* a beam segment's second node couples with both */
            int pairs[4] = {c, ab[0], c, ab[1]};
            memcpy(&s->rt_body[2 * x], pairs, sizeof pairs);
            x += 2;
        }
    }
    for (int i = 0; i < s->nq; i++)
        s->rt_inv[i] = -1;
    for (int i = 0; i < s->nr; i++)
        s->rt_inv[s->nr == s->nq ? i : s->red[i]] = i;
    return CLINK_OK;
}

/* the contacts, the dynamics and the work arrays */
static clink_status system_allocate(mechsys *s)
{
    char cerr[128];
    s->sc = contacts_create(s->m, s->set.settle_speed, cerr, sizeof cerr);
    if (!s->sc) {
        snprintf(s->msg, sizeof s->msg, "%s", cerr);
        return CLINK_ERR_NOMEM;
    }
    contacts_set_bookkeeping(s->sc, s->set.contact_bookkeeping);
    s->ncon = contacts_count(s->sc);
    s->nq = s->m->ncoords;
    s->nc = s->m->nconstraints;
    s->dyn = dyn_create(s->m);
    if (s->dyn && s->ncon > 0)
        dyn_set_trig(s->dyn, contacts_trig(s->sc)); /* one sincos per body and state */
    /* the joints' friction states follow the contacts' energy block */
    s->njz = s->dyn ? dyn_joint_friction_states(s->dyn) : 0;
    s->jz0 = 2 + contacts_nwork(s->sc);
    s->N = 2 * s->nq + 2 + contacts_nwork(s->sc) + s->njz + system_audit_components(s);
    for (int k = 0; k < s->ncon; k++)
        s->nfz += contacts_friction_state_index(s->sc, k) >= 0;
    s->nfz += s->njz;
    size_t nq1 = (size_t) (s->nq > 0 ? s->nq : 1);
    s->lambda = calloc((size_t) (s->nc > 0 ? s->nc : 1), sizeof(double));
    s->pq = calloc(nq1, sizeof(double));
    s->pv = calloc(nq1, sizeof(double));
    s->ptol = calloc(2 * nq1, sizeof(double));
    s->q0 = calloc(nq1, sizeof(double));
    s->yx = calloc((size_t) s->N, sizeof(double));
    s->acc = calloc(nq1, sizeof(double));
    if (!s->dyn || !s->lambda || !s->pq || !s->pv || !s->ptol || !s->q0 || !s->yx || !s->acc ||
        system_reduction(s) != CLINK_OK || system_roots_create(s) != CLINK_OK) {
        snprintf(s->msg, sizeof s->msg, "clink_sim_create: out of memory");
        return CLINK_ERR_NOMEM;
    }
    /* joint friction depends on the reactions through a fixed point the analytic Jacobian
       does not differentiate: forward differences of the right-hand side instead */
    if (dyn_joint_friction_count(s->dyn) > 0)
        s->jac_fd = 1;
    if (s->set.drift == CLINK_DRIFT_BAUMGARTE)
        dyn_set_baumgarte(s->dyn, s->set.baumgarte_alpha, s->set.baumgarte_beta);
    return CLINK_OK;
}

mechsys *system_create(const clink_model *m, const clink_settings_def *set, clink_status *st,
                       char *msg, size_t n)
{
    mechsys *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(msg, n, "clink_sim_create: out of memory");
        *st = CLINK_ERR_NOMEM;
        return NULL;
    }
    s->m = m;
    s->set = *set;
    *st = system_allocate(s);
    if (*st != CLINK_OK) {
        snprintf(msg, n, "%s", s->msg);
        system_destroy(&s);
        return NULL;
    }
    return s;
}

void system_destroy(mechsys **sys)
{
    if (!sys || !*sys)
        return;
    mechsys *s = *sys;
    system_window_destroy(s);
    system_newton_free(s);
    dyn_destroy(&s->dyn);
    contacts_destroy(&s->sc);
    free(s->lambda);
    free(s->pq);
    free(s->pv);
    free(s->ptol);
    free(s->jq);
    free(s->jv);
    free(s->pat_ptr);
    free(s->pat_rows);
    free(s->tail_ptr);
    free(s->tail_rows);
    free(s->q0);
    free(s->red);
    free(s->fixed);
    free(s->yx);
    free(s->acc);
    free(s->rt_body);
    free(s->rt_inv);
    free(s->rt_y);
    free(s);
    *sys = NULL;
}

void system_friction_load(mechsys *s, const double *y)
{
    if (!s->nfz)
        return;
    contacts_friction_load(s->sc, y + 2 * s->nq + 2);
    if (s->njz)
        dyn_joint_friction_load(s->dyn, y + 2 * s->nq + s->jz0);
}

static int system_impulse(void *data, double t, const double *q, const double *f, double *dv)
{
    return dyn_impulse_response(data, t, q, f, dv) == CLINK_OK ? 0 : -1;
}

clink_status system_initial_state(mechsys *s, double *y)
{
    int nq = s->nq;
    for (int i = 1; i < s->m->d.nbodies; i++) {
        const clink_body_def *b = &s->m->d.bodies[i].def;
        double *qi = y + 3 * (i - 1), *vi = y + nq + 3 * (i - 1);
        qi[0] = b->x;
        qi[1] = b->y;
        qi[2] = b->phi;
        vi[0] = b->vx;
        vi[1] = b->vy;
        vi[2] = b->omega;
    }
    for (int i = 2 * nq; i < s->N; i++)
        y[i] = 0.0;
    clink_status st =
        dyn_project(s->dyn, 0.0, y, y + nq, SYSTEM_PROJECTION_TOL, 50, &s->dq0, &s->dv0);
    if (st != CLINK_OK) {
        snprintf(s->msg, sizeof s->msg, "initial conditions: %s", dyn_error(s->dyn));
        return st != CLINK_ERR_SINGULAR && st != CLINK_ERR_NOMEM ? CLINK_ERR_ASSEMBLY : st;
    }
    if (s->set.start != CLINK_START_AS_GIVEN && (st = system_ideal_start(s, y)) != CLINK_OK)
        return st;
    memcpy(s->q0, y, (size_t) nq * sizeof(double));
    if (s->ncon) {
        contacts_start(s->sc, y, y + nq);
        contacts_friction_onset(s->sc, y + 2 * nq + 2); /* the states start at 0 */
        dyn_set_external(s->dyn, contacts_forces, s->sc);
        dyn_set_external_jacobian(s->dyn, contacts_forces_jacobian);
        contacts_set_impulse(s->sc, system_impulse, s->dyn);
    }
    return CLINK_OK;
}
