/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * joint_friction_solve.c: the friction of ideal joints in the saddle solve
 * (src/joints/joint_friction.c has the laws; docs/friction.md, "Joint friction").
 *
 * The friction of a joint depends on its reaction, which the same saddle solve gives:
 * an implicit dependence, resolved by fixed-point iteration inside one evaluation of the
 * accelerations. After the solve without joint friction (dyn_accelerations), the normal
 * forces F_n,j of the multipliers give the friction forces Q_f(F_n); the system is
 * solved again with g + Q_f at the same factorisation (only the right-hand side
 * changes), the normal forces are read anew, and so on until every joint's normal force
 * of the new multipliers differs from the one its friction was computed with by at most
 * DYN_JF_TOL max(|F_n|, DYN_JF_FLOOR) (1e-12 relative, 1e-9 N at least). The
 * accelerations are then those of friction and reaction in agreement, a function of the
 * state alone (not of the previous evaluation). The iteration contracts when the
 * friction's share of the reaction it changes is below 1 (mu r times the lever of the
 * mechanism: a small number for pins of ordinary proportions); DYN_JF_MAXIT iterations
 * without agreement are an error. The friction power is added to the power of the loads
 * (booked in W_l, the energy balance's work of the applied loads).
 *
 * A joint whose law is dynamic (lugre, dahl) has one bristle state z, a component of the
 * integrated state (the system's friction states, after the contacts' energy block:
 * system_state.c). The host loads the states before an evaluation
 * (dyn_joint_friction_load); the friction reads z, and the evaluation leaves
 * z' = v - sigma0 |v| z / mu(v) (v the joint's slip: it does not depend on the reaction)
 * and d z' / d z = -sigma0 |v| / mu(v) for the integrator (dyn_joint_friction_rates,
 * dyn_joint_friction_decay). The force -F_n (sigma0 z + sigma1 z') - sigma2 v is linear
 * in F_n at a given state, and the same fixed point resolves its dependence on the
 * reaction. A joint always touches: z starts at 0 and is never frozen nor reset.
 */
#include "dynamics/dyn_internal.h"
#include "joints/joint_friction.h"

#include <stdlib.h>
#include <string.h>

#define DYN_JF_TOL   1e-12
#define DYN_JF_FLOOR 1e-9 /* N */
#define DYN_JF_MAXIT 50

int dyn_joint_friction_count(const dyn_system *s)
{
    int n = 0;
    for (int j = 0; j < s->m->d.njoints; j++)
        n += joint_friction_on(&s->m->d.joints[j].def);
    return n;
}

int dyn_joint_friction_setup(dyn_system *s)
{
    int nj = s->m->d.njoints, nz = 0;
    s->jf_zidx = malloc((size_t) (nj > 0 ? nj : 1) * sizeof(int));
    if (!s->jf_zidx)
        return -1;
    for (int j = 0; j < nj; j++)
        s->jf_zidx[j] = joint_friction_states(&s->m->d.joints[j].def) > 0 ? nz++ : -1;
    s->jf_nz = nz;
    s->jf_z = calloc((size_t) (3 * nz > 0 ? 3 * nz : 1), sizeof(double));
    return s->jf_z ? 0 : -1;
}

int dyn_joint_friction_states(const dyn_system *s)
{
    return s->jf_nz;
}

int dyn_joint_friction_state_of(const dyn_system *s, int j)
{
    return s->jf_zidx && j >= 0 && j < s->m->d.njoints ? s->jf_zidx[j] : -1;
}

void dyn_joint_friction_load(dyn_system *s, const double *z)
{
    if (s->jf_nz > 0)
        memcpy(s->jf_z, z, (size_t) s->jf_nz * sizeof(double));
}

void dyn_joint_friction_rates(const dyn_system *s, double *zdot)
{
    if (s->jf_nz > 0)
        memcpy(zdot, s->jf_z + s->jf_nz, (size_t) s->jf_nz * sizeof(double));
}

void dyn_joint_friction_decay(const dyn_system *s, double *diag)
{
    if (s->jf_nz > 0)
        memcpy(diag, s->jf_z + 2 * s->jf_nz, (size_t) s->jf_nz * sizeof(double));
}

/* joint j when it has friction: its multipliers (from s->rhs) into lam, its bodies' poses
   into a and b, its first constraint row into *r0 and its equations into *neq; else NULL */
static const clink_joint_def *friction_joint(dyn_system *s, const double *q, const double *v, int j,
                                             double *lam, kin_pose *a, kin_pose *b, int *r0,
                                             int *neq)
{
    const clink_joint_def *d = &s->m->d.joints[j].def;
    if (!joint_friction_on(d))
        return NULL;
    *r0 = s->m->joint_row[j];
    *neq = joint_class_of(d->type)->neq;
    for (int r = 0; r < *neq; r++)
        lam[r] = -s->rhs[s->nq + *r0 + r];
    kin_pose_of(q, v, d->body_a, a);
    kin_pose_of(q, v, d->body_b, b);
    return d;
}

/* the friction of every joint with the multipliers of s->rhs added to g (nq), the normal
   forces used into fn (njoints), the states' rates and decays into s->jf_z, the power
   returned */
static double add_all(dyn_system *s, const double *q, const double *v, double *g, double *fn)
{
    double power = 0.0, lam[JOINT_MAX_EQUATIONS];
    int nz = s->jf_nz;
    for (int j = 0; j < s->m->d.njoints; j++) {
        kin_pose a, b;
        int r0, neq;
        const clink_joint_def *d = friction_joint(s, q, v, j, lam, &a, &b, &r0, &neq);
        if (!d)
            continue;
        double *ga = d->body_a > 0 ? g + 3 * (d->body_a - 1) : NULL;
        double *gb = d->body_b > 0 ? g + 3 * (d->body_b - 1) : NULL;
        int iz = s->jf_zidx[j];
        if (iz < 0) {
            power +=
                joint_friction_add(d, &a, &b, s->jac + r0, lam, neq, 0.0, NULL, ga, gb, &fn[j]);
            continue;
        }
        double *z = s->jf_z;
        power += joint_friction_add(d, &a, &b, s->jac + r0, lam, neq, z[iz], &z[nz + iz], ga, gb,
                                    &fn[j]);
        z[2 * nz + iz] = clink_friction_state_decay(&d->friction, joint_friction_slip(d, &a, &b));
    }
    return power;
}

/* 1 when the multipliers of s->rhs give every joint the normal force in fn */
static int agrees(dyn_system *s, const double *q, const double *v, const double *fn)
{
    double lam[JOINT_MAX_EQUATIONS];
    for (int j = 0; j < s->m->d.njoints; j++) {
        kin_pose a, b;
        int r0, neq;
        const clink_joint_def *d = friction_joint(s, q, v, j, lam, &a, &b, &r0, &neq);
        if (!d)
            continue;
        double f = joint_friction_normal(d, &a, &b, s->jac + r0, lam, neq);
        if (!(fabs(f - fn[j]) <= DYN_JF_TOL * fmax(fabs(f), DYN_JF_FLOOR)))
            return 0;
    }
    return 1;
}

clink_status dyn_joint_friction(dyn_system *s, double t, const double *q, const double *v,
                                const double *base)
{
    int n = s->n, nj = s->m->d.njoints;
    if (!s->jf_g) {
        s->jf_g = malloc((size_t) n * sizeof(double));
        s->jf_fn = malloc((size_t) (nj > 0 ? nj : 1) * sizeof(double));
        if (!s->jf_g || !s->jf_fn) {
            dyn_set_msg(s, "joint friction: out of memory");
            return CLINK_ERR_NOMEM;
        }
    }
    for (int it = 0; it < DYN_JF_MAXIT; it++) {
        memcpy(s->jf_g, base, (size_t) n * sizeof(double));
        double power = add_all(s, q, v, s->jf_g, s->jf_fn);
        memcpy(s->rhs, s->jf_g, (size_t) n * sizeof(double));
        if (s->rd_on)
            dyn_rank_keep_rhs(s);
        clink_status st = dyn_solve(s);
        if (st != CLINK_OK)
            return st;
        if (s->rd_on && !dyn_rank_consistent(s, t))
            return CLINK_ERR_SINGULAR;
        if (agrees(s, q, v, s->jf_fn)) {
            s->power_loads += power;
            s->jf_iterations += it + 1;
            return CLINK_OK;
        }
    }
    dyn_set_msg(s,
                "joint friction at t = %.9g s: the joints' reactions and their friction did not "
                "agree after %d iterations (friction coefficient times pin radius or slider "
                "lever too large for the mechanism?)",
                t, DYN_JF_MAXIT);
    return CLINK_ERR_SOLVER;
}
