/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim.c: the CVODE driver (include/clink/sim.h): creation of a simulation
 * (CVODE set-up) and the getters.
 *
 * First-order system y = (q, v, W_d, W_l, D.., R..), N = 2 nq + 2 + nwork:
 *   q' = v,  v' = qdd(t, q, v) from the saddle-point system (dynamics.h),
 *   W_d' = lambda . nu (power of the drivers), W_l' = power of the
 *   non-conservative applied loads, and the damping and friction losses of
 *   the contacts that can have them (sim_contact.c),
 * so the energy balance T + V - W_d - W_l + U + D + R = const checks the
 * integration. The works are part of the error test (same tolerances, J): taken
 * out of it, a fully driven mechanism (no degree of freedom, so nothing else to
 * control after projection) takes steps far too long for the works to mean
 * anything.
 *
 * CVODE's state leaves out the coordinates that cannot change (sim_reduction):
 * the angle of every body that cannot turn (sim_body_may_turn: no initial spin, no
 * joint, driver or load on it, and only frictionless contacts of circles or bores
 * centred at its centre of mass, whose forces pass through it), and its x (or y)
 * when it rests along that axis, gravity has no component along it and each of its
 * contacts is with a body of the same kind at the same x (or y) or with a ground line
 * parallel to the axis (sim_keep_axis), so that every force on it is exactly
 * perpendicular to the axis. These coordinates and their rates stay at their initial
 * values exactly, so CVODE's vector operations, norms and interpolations run over
 * the rest (sim_full, sim_reduce). A chain's beads on the x axis carry 2 components
 * each instead of 6; every result is the same bit for bit (the left-out components
 * had zero error and zero history, and the norm skips such components).
 *
 * Error test (sim_ewt, sim_wrms_moving): a coordinate's weight is relative to its
 * displacement since t = 0, not to its distance from the origin, and the norm is
 * the root mean square over the components that carry an error, so that bodies at
 * rest neither loosen nor tighten the test and a chain's accuracy does not depend
 * on its length.
 *
 * Methods (SUNDIALS 6.4): Adams-Moulton with the fixed-point nonlinear solver;
 * BDF with Newton and a sparse direct solver (SUNLinSol_KLU) on the Jacobian
 * df/dy, whose pattern is [0 I; dqdd/dq dqdd/dv] plus the diagonal of the
 * energy rows. The lower blocks (generally dense within a closed loop) are
 * analytic (dyn_jacobian: one evaluation of the accelerations and one saddle
 * solve per column with the factorisation at (t, q)); the upper identity is
 * exact; the energy rows and columns are left zero (the works feed nothing
 * back). The earlier forward differences of the right-hand side, one per
 * column, remain for comparison (sim_use_fd_jacobian, sim_jac.h).
 *
 * Drift: projection through CVodeSetProjFn (BDF only; SUNDIALS 6.4 returns
 * CV_ILL_INPUT for Adams), the correction minimal in the metric of M
 * (dyn_project), the error estimate projected too; or Baumgarte in the
 * right-hand side. The right-hand side returns 1 (recoverable) for a singular
 * saddle point or a non-finite value, so CVODE retries with a smaller step, and
 * -1 (fatal) when the contacts report a non-finite force at a finite state or
 * memory runs out; the failing component's status is kept on the handle.
 *
 * Contact (sim_contact.c): contact forces enter through dyn_set_external();
 * two root functions per contact, located by clink itself (sim_roots.c: CVODE 6.4's
 * search, evaluating only the functions that changed sign). Stepping, roots, dense
 * output: sim_advance.c.
 */
#include "sim/sim_auto.h"
#include "sim/sim_internal.h"
#include "sim/sim_jac.h"

#include <cvode/cvode.h>
#include <cvode/cvode_proj.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_sparse.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sim_msg(clink_sim *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->msg, sizeof s->msg, fmt, ap);
    va_end(ap);
}

/* what the current output left out (clink_sim_error when nothing failed), "" if nothing */
static const char *sim_level_note(const clink_sim *s)
{
    clink_output_level done = s->out_done;
    if (done == CLINK_OUTPUT_STATE)
        return "the current output was computed at CLINK_OUTPUT_STATE (clink_sim_set_outputs): "
               "no contact information, accelerations, reactions, driver forces, energies or "
               "constraint violation";
    if (done == CLINK_OUTPUT_CONTACTS && s->out_partial)
        return "the current output was computed at CLINK_OUTPUT_CONTACTS (clink_sim_set_outputs) "
               "for the contacts listed by clink_sim_set_output_contacts only: no other "
               "contact, no accelerations, reactions, driver forces, energies or constraint "
               "violation";
    if (done == CLINK_OUTPUT_CONTACTS)
        return "the current output was computed at CLINK_OUTPUT_CONTACTS (clink_sim_set_outputs): "
               "no accelerations, reactions, driver forces, energies or constraint violation";
    if (s->out_partial)
        return "the current output computed the information of the contacts listed by "
               "clink_sim_set_output_contacts only";
    return "";
}

const char *clink_sim_error(const clink_sim *sim)
{
    if (!sim)
        return "no simulation";
    return sim->msg[0] ? sim->msg : sim_level_note(sim);
}

/* ---- CVODE callbacks ------------------------------------------------------ */

/* a callback's failure: the component's status and message, kept for clink_sim_advance */
static int sim_callback_failed(clink_sim *s, clink_status st, const char *msg)
{
    s->fail = st;
    snprintf(s->cb_msg, sizeof s->cb_msg, "%s", msg);
    return st == CLINK_ERR_NOMEM ? -1 : 1;
}

/* ---- the state CVODE sees ------------------------------------------------- */

/* the left-out coordinates of a full state: their initial values, rates zero */
static void sim_full_fixed(const clink_sim *s, double *buf)
{
    int nq = s->nq;
    for (int k = 0; k < nq - s->nr; k++) {
        buf[s->fixed[k]] = s->q0[s->fixed[k]];
        buf[nq + s->fixed[k]] = 0.0;
    }
}

/* the components CVODE carries, into a full state */
static void sim_full_moving(const clink_sim *s, const double *yr, double *buf)
{
    int nq = s->nq, nr = s->nr;
    for (int i = 0; i < nr; i++) {
        buf[s->red[i]] = yr[i];
        buf[nq + s->red[i]] = yr[nr + i];
    }
    memcpy(buf + 2 * nq, yr + 2 * nr, (size_t) (s->N - 2 * nq) * sizeof(double));
}

const double *sim_full(const clink_sim *s, const double *yr, double *buf)
{
    if (s->nr == s->nq)
        return yr;
    sim_full_fixed(s, buf);
    sim_full_moving(s, yr, buf);
    return buf;
}

const double *sim_full_x(clink_sim *s, const double *yr)
{
    if (s->nr == s->nq)
        return yr;
    if (!s->yx_fixed) {
        sim_full_fixed(s, s->yx);
        s->yx_fixed = 1;
    }
    sim_full_moving(s, yr, s->yx);
    return s->yx;
}

void sim_reduce(const clink_sim *s, const double *yf, double *yr)
{
    if (yf == yr)
        return;
    if (s->nr == s->nq) {
        memcpy(yr, yf, (size_t) s->N * sizeof(double));
        return;
    }
    int nq = s->nq, nr = s->nr;
    for (int i = 0; i < nr; i++) {
        yr[i] = yf[s->red[i]];
        yr[nr + i] = yf[nq + s->red[i]];
    }
    memcpy(yr + 2 * nr, yf + 2 * nq, (size_t) (s->N - 2 * nq) * sizeof(double));
}

/*
 * Whether body b (>= 1) can turn: it spins at t = 0, a joint, a driver or an applied
 * load acts on it, or one of its contacts can exert a moment about its centre of mass
 * (simc_may_turn). A body that cannot turn keeps its angle and a zero rate exactly, so
 * both are left out of CVODE's state (a chain's beads: 4 of 6 components each remain).
 */
static int sim_body_may_turn(const clink_sim *s, int b)
{
    const model_data *d = &s->m->d;
    if (d->bodies[b].def.omega != 0.0)
        return 1;
    for (int j = 0; j < d->njoints; j++)
        if (d->joints[j].def.body_a == b || d->joints[j].def.body_b == b)
            return 1;
    for (int k = 0; k < d->ndrivers; k++)
        if (d->drivers[k].def.target == CLINK_DRIVE_BODY_COORDINATE && d->drivers[k].def.body == b)
            return 1;
    for (int k = 0; k < d->nforces; k++)
        if (d->forces[k].def.body_a == b || d->forces[k].def.body_b == b)
            return 1;
    return simc_may_turn(s->sc, b);
}

/*
 * Marks in keep[3 (b - 1) + axis] (0 or 1 on entry for every body) which bodies keep
 * their coordinate along axis (0 x, 1 y) for ever: those entering with 1 (no spin, no
 * load, at rest along the axis, no gravity along it) whose every contact keeps the
 * axis (simc_keeps_axis: a normal perpendicular to it while both bodies keep it) with a
 * body that keeps it too (or the ground). The set is the largest fixed point: bodies are
 * removed until no contact links a kept body to a moving one along the axis.
 */
static void sim_keep_axis(clink_sim *s, int axis, const double *q0, unsigned char *keep)
{
    for (int changed = 1; changed;) {
        changed = 0;
        for (int k = 0; k < s->ncon; k++) {
            int ba, bb;
            int ok = simc_keeps_axis(s->sc, k, axis, q0, &ba, &bb);
            int *kb[2] = {&ba, &bb};
            for (int i = 0; i < 2; i++) {
                int self = *kb[i], other = *kb[1 - i];
                if (self <= 0 || !keep[3 * (self - 1) + axis])
                    continue;
                if (!ok || (other > 0 && !keep[3 * (other - 1) + axis])) {
                    keep[3 * (self - 1) + axis] = 0;
                    changed = 1;
                }
            }
        }
    }
}

/*
 * The map between CVODE's coordinates and the model's (red, fixed, nr, Nr): the angle of
 * a body that cannot turn (sim_body_may_turn), and its x or y when it can move only
 * perpendicular to that axis (sim_keep_axis), are left out of CVODE's state.
 */
static clink_status sim_reduction(clink_sim *s)
{
    int nq = s->nq, nb = s->m->d.nbodies;
    s->red = calloc((size_t) (nq > 0 ? nq : 1), sizeof(int));
    s->fixed = calloc((size_t) (nq > 0 ? nq : 1), sizeof(int));
    unsigned char *keep = calloc((size_t) (nq > 0 ? nq : 1), 1);
    double *q0 = calloc((size_t) (nq > 0 ? nq : 1), sizeof(double));
    if (!s->red || !s->fixed || !keep || !q0) {
        free(keep);
        free(q0);
        return CLINK_ERR_NOMEM;
    }
    for (int b = 1; b < nb; b++) {
        const clink_body_def *d = &s->m->d.bodies[b].def;
        double *qb = q0 + 3 * (b - 1);
        qb[0] = d->x;
        qb[1] = d->y;
        qb[2] = d->phi;
        unsigned char *kb = keep + 3 * (b - 1);
        kb[2] = !sim_body_may_turn(s, b);
        kb[0] = kb[2] && d->vx == 0.0 && s->m->d.gravity[0] == 0.0;
        kb[1] = kb[2] && d->vy == 0.0 && s->m->d.gravity[1] == 0.0;
    }
    sim_keep_axis(s, 0, q0, keep);
    sim_keep_axis(s, 1, q0, keep);
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

/* ---- CVODE callbacks (on CVODE's state) ----------------------------------- */

static int sim_rhs(realtype t, N_Vector y, N_Vector ydot, void *ud)
{
    clink_sim *s = ud;
    const double *yr = N_VGetArrayPointer(y);
    const double *yy = sim_full_x(s, yr);
    double *yd = N_VGetArrayPointer(ydot);
    int nq = s->nq, nr = s->nr;
    double *acc = nr == nq ? yd + nq : s->acc;
    clink_status st = dyn_accelerations(s->dyn, t, yy, yy + nq, acc, s->lambda);
    if (st != CLINK_OK) {
        if (s->ncon && simc_take_failure(s->sc)) {
            /* a non-finite contact force at a finite state: no smaller step helps */
            sim_callback_failed(s, CLINK_ERR_NONFINITE, simc_error(s->sc));
            return -1;
        }
        return sim_callback_failed(s, st, dyn_error(s->dyn));
    }
    memcpy(yd, yr + nr, (size_t) nr * sizeof(double));
    if (nr != nq)
        for (int i = 0; i < nr; i++)
            yd[nr + i] = acc[s->red[i]];
    double pd = 0.0;
    for (int k = 0; k < s->m->d.ndrivers; k++) {
        double f, fd, fdd;
        clink_function_eval(&s->m->d.drivers[k].def.function, t, &f, &fd, &fdd);
        pd += s->lambda[s->m->driver_row[k]] * fd;
    }
    yd[2 * nr] = pd;
    yd[2 * nr + 1] = dyn_last_power_loads(s->dyn);
    if (s->ncon)
        simc_dissipation_rates(s->sc, yd + 2 * nr + 2);
    sim_audit_rate(s, yy, yd);
    for (int i = 0; i < s->Nr; i++)
        if (!isfinite(yd[i])) {
            char m[128];
            snprintf(m, sizeof m, "non-finite derivative of state component %d at t = %.9g s", i,
                     (double) t);
            return sim_callback_failed(s, CLINK_ERR_NONFINITE, m);
        }
    return 0;
}

/* column pointers of the sparse Jacobian pattern (see the file comment) */
static void jac_pattern(clink_sim *s, SUNMatrix J)
{
    int nq = s->nr, N = s->Nr;
    sunindextype *cp = SUNSparseMatrix_IndexPointers(J);
    sunindextype *ri = SUNSparseMatrix_IndexValues(J);
    sunindextype p = 0;
    for (int j = 0; j < N; j++) {
        cp[j] = p;
        if (j < nq) {
            ri[p++] = j; /* diagonal (zero) */
            for (int i = nq; i < N; i++)
                ri[p++] = i;
        } else if (j < 2 * nq) {
            ri[p++] = j - nq; /* dq'/dv = I */
            for (int i = nq; i < N; i++)
                ri[p++] = i;
        } else {
            ri[p++] = j; /* work columns: diagonal only (zero) */
        }
    }
    cp[N] = p;
}

void sim_use_fd_jacobian(clink_sim *s, int on)
{
    if (s)
        s->jac_fd = on != 0;
}

/* the analytic Jacobian into the pattern (energy rows and columns zero) */
static int sim_jac_analytic(clink_sim *s, realtype t, N_Vector y, SUNMatrix J)
{
    int nf = s->nq, nq = s->nr, N = s->Nr;
    const double *yy = sim_full_x(s, N_VGetArrayPointer(y));
    clink_status st = dyn_jacobian(s->dyn, t, yy, yy + nf, s->jq, s->jv);
    s->rhs_fd++; /* one evaluation of the accelerations */
    if (st != CLINK_OK) {
        sim_msg(s, "%s", dyn_error(s->dyn));
        return st == CLINK_ERR_NOMEM ? -1 : 1;
    }
    realtype *x = SUNSparseMatrix_Data(J);
    sunindextype *cp = SUNSparseMatrix_IndexPointers(J);
    for (int j = 0; j < 2 * nq; j++) {
        sunindextype p = cp[j];
        x[p++] = j < nq ? 0.0 : 1.0;
        int c = s->red[j < nq ? j : j - nq];
        const double *col = j < nq ? s->jq + (size_t) c * nf : s->jv + (size_t) c * nf;
        for (int i = 0; i < nq; i++)
            x[p++] = col[s->red[i]];
        for (int i = 2 * nq; i < N; i++)
            x[p++] = 0.0;
    }
    for (int j = 2 * nq; j < N; j++)
        x[cp[j]] = 0.0;
    return 0;
}

static int sim_jac(realtype t, N_Vector y, N_Vector fy, SUNMatrix J, void *ud, N_Vector t1,
                   N_Vector t2, N_Vector t3)
{
    (void) t2;
    (void) t3;
    clink_sim *s = ud;
    int nq = s->nr, N = s->Nr;
    jac_pattern(s, J);
    if (!s->jac_fd)
        return sim_jac_analytic(s, t, y, J);
    realtype *x = SUNSparseMatrix_Data(J);
    sunindextype *cp = SUNSparseMatrix_IndexPointers(J);
    double *yy = N_VGetArrayPointer(y);
    const double *f0 = N_VGetArrayPointer(fy);
    double *f1 = N_VGetArrayPointer(t1);
    double rtol = s->set.rtol, atol = s->set.atol;
    for (int j = 0; j < 2 * nq; j++) {
        sunindextype p = cp[j];
        x[p++] = j < nq ? 0.0 : 1.0;
        double yj = yy[j];
        double h = sqrt(2.2e-16) * fmax(fabs(yj), fmax(atol / rtol, 1e-8));
        yy[j] = yj + h;
        h = yy[j] - yj;
        int rc = sim_rhs(t, y, t1, s);
        s->rhs_fd++;
        yy[j] = yj;
        if (rc != 0)
            return rc;
        for (int i = nq; i < N; i++)
            x[p++] = (f1[i] - f0[i]) / h;
    }
    for (int j = 2 * nq; j < N; j++)
        x[cp[j]] = 0.0;
    return 0;
}

static int sim_proj(realtype t, N_Vector ycur, N_Vector corr, realtype eps, N_Vector err, void *ud)
{
    (void) eps;
    clink_sim *s = ud;
    int nq = s->nq, nr = s->nr;
    const double *yc = N_VGetArrayPointer(ycur);
    const double *yf = sim_full_x(s, yc);
    double *c = N_VGetArrayPointer(corr);
    double *q = s->fd_f0, *v = s->fd_f1;
    memcpy(q, yf, (size_t) nq * sizeof(double));
    memcpy(v, yf + nq, (size_t) nq * sizeof(double));
    clink_status st =
        dyn_project(s->dyn, t, q, v, SIM_PROJECTION_TOL, SIM_PROJECTION_ITER, NULL, NULL);
    if (st != CLINK_OK)
        return sim_callback_failed(s, st, dyn_error(s->dyn));
    for (int i = 0; i < nr; i++) {
        int r = nr == nq ? i : s->red[i];
        c[i] = q[r] - yc[i];
        c[nr + i] = v[r] - yc[nr + i];
    }
    for (int i = 2 * nr; i < s->Nr; i++)
        c[i] = 0.0;
    if (s->nc > 0)
        c[s->Nr - 1] = sim_audit_jump(s, yf, yf + nq, q, v); /* booked with the step */
    if (err) {
        double *e = N_VGetArrayPointer(err);
        double *ef = e;
        if (nr != nq) {
            /* the error of the angles left out is 0 */
            ef = s->yx;
            s->yx_fixed = 0; /* yx holds an error now, not a state */
            memset(ef, 0, 2 * (size_t) nq * sizeof(double));
            for (int i = 0; i < nr; i++) {
                ef[s->red[i]] = e[i];
                ef[nq + s->red[i]] = e[nr + i];
            }
        }
        st = dyn_project_error(s->dyn, t, q, ef, ef + nq);
        if (st != CLINK_OK)
            return sim_callback_failed(s, st, dyn_error(s->dyn));
        if (nr != nq)
            for (int i = 0; i < nr; i++) {
                e[i] = ef[s->red[i]];
                e[nr + i] = ef[nq + s->red[i]];
            }
    }
    return 0;
}

static int sim_impulse(void *data, double t, const double *q, const double *f, double *dv)
{
    return dyn_impulse_response(data, t, q, f, dv) == CLINK_OK ? 0 : -1;
}

int sim_roots_eval(clink_sim *s, double t, const double *yy, const int *contacts, int n, double *g)
{
    if (++s->root_calls > SIM_MAX_ROOT_CALLS) {
        char msg[256];
        snprintf(msg, sizeof msg,
                 "contact events without a completed step at t = %.9g s: %d evaluations of the "
                 "contact functions since the last step (events that chatter, or a contact "
                 "function that jumps; tolerances too loose?)",
                 t, SIM_MAX_ROOT_CALLS);
        sim_callback_failed(s, CLINK_ERR_SOLVER, msg);
        return -1;
    }
    if (contacts) {
        s->rt_partial++;
        return simc_roots_some(s->sc, contacts, n, yy, yy + s->nq, g);
    }
    s->rt_full++;
    return simc_roots(s->sc, t, yy, yy + s->nq, g);
}

int sim_rhs_eval(clink_sim *s, double t, N_Vector y, N_Vector yd)
{
    return sim_rhs(t, y, yd, s);
}

/* ---- lifecycle ------------------------------------------------------------ */

void clink_sim_destroy(clink_sim **sim)
{
    if (!sim || !*sim)
        return;
    clink_sim *s = *sim;
    if (s->cvode)
        CVodeFree(&s->cvode);
    if (s->LS)
        SUNLinSolFree(s->LS);
    if (s->NLS)
        SUNNonlinSolFree(s->NLS);
    if (s->J)
        SUNMatDestroy(s->J);
    if (s->y)
        N_VDestroy(s->y);
    if (s->ycv)
        N_VDestroy(s->ycv);
    if (s->yroot)
        N_VDestroy(s->yroot);
    sim_roots_destroy(s);
    if (s->ctx)
        SUNContext_Free(&s->ctx);
    dyn_destroy(&s->dyn);
    simc_destroy(&s->sc);
    free(s->qdd);
    free(s->lambda);
    free(s->fd_f0);
    free(s->fd_f1);
    free(s->jq);
    free(s->jv);
    free(s->q0);
    free(s->red);
    free(s->fixed);
    free(s->yx);
    free(s->yh);
    free(s->acc);
    free(s->roots_found);
    free(s->info);
    free(s->pen_level);
    free(s->out_list);
    free(s->out_has);
    free(s);
    *sim = NULL;
}

/* one CVODE call checked: returns 0 or sets the message and returns CLINK_ERR_SOLVER */
#define CV_CHECK(call)                                                                             \
    do {                                                                                           \
        int cv_rc_ = (call);                                                                       \
        if (cv_rc_ < 0) {                                                                          \
            char flag_[64];                                                                        \
            sim_msg(s, "CVODE: %s failed with %d (%s)", #call, cv_rc_,                             \
                    ode_flag_name(cv_rc_, flag_, sizeof flag_));                                   \
            return cv_rc_ == CV_MEM_FAIL ? CLINK_ERR_NOMEM : CLINK_ERR_SOLVER;                     \
        }                                                                                          \
    } while (0)

/* the settings a simulation cannot run with */
static clink_status sim_check_settings(clink_sim *s)
{
    const clink_settings_def *c = &s->set;
    if (c->method == CLINK_METHOD_ADAMS && c->drift == CLINK_DRIFT_PROJECTION) {
        sim_msg(s, "settings: projection needs BDF (CVodeSetProjFn supports BDF only in "
                   "SUNDIALS 6.4); use Baumgarte with Adams");
        return CLINK_ERR_ARG;
    }
    if (!(c->rtol > 0.0) || !(c->atol > 0.0) || !(c->max_step >= 0.0) || !(c->settle_speed > 0.0) ||
        !isfinite(c->settle_speed)) {
        sim_msg(s,
                "settings: rtol %g, atol %g, settle_speed %g m/s must be > 0 and max_step %g >= 0",
                c->rtol, c->atol, c->settle_speed, c->max_step);
        return CLINK_ERR_RANGE;
    }
    if ((int) c->contact_bookkeeping < 0 || c->contact_bookkeeping > CLINK_BOOKKEEPING_HYSTERESIS) {
        sim_msg(s, "settings: contact_bookkeeping %d must be 0..1", (int) c->contact_bookkeeping);
        return CLINK_ERR_RANGE;
    }
    if (!(c->max_steps >= 1.0) || !(c->min_step >= 0.0) || !isfinite(c->min_step) ||
        !(c->wall_limit >= 0.0) || !isfinite(c->wall_limit)) {
        sim_msg(s, "settings: max_steps %g must be >= 1, min_step %g s and wall_limit %g s >= 0",
                c->max_steps, c->min_step, c->wall_limit);
        return CLINK_ERR_RANGE;
    }
    if (c->max_step > 0.0 && isfinite(c->t_end) && c->t_end / c->max_step > c->max_steps) {
        sim_msg(s,
                "settings: t_end %g s needs at least %.3g steps of max_step %g s, more than "
                "max_steps %.3g: raise max_step or max_steps",
                c->t_end, c->t_end / c->max_step, c->max_step, c->max_steps);
        return CLINK_ERR_RANGE;
    }
    return CLINK_OK;
}

/*
 * CVODE's error and convergence norm: the weighted root mean square over the
 * components that carry an error, the components of exactly zero weighted error
 * (a coordinate that has not changed so far, such as a bead ahead of the wave of
 * a chain, or the dissipation of an elastic contact) left out of the mean. Over
 * the plain WRMS of all N components the error of the few that move is divided
 * by sqrt(N / moving), so that the steps grew with the number of bodies at rest
 * (the 7000-bead chain took longer steps than the 70-bead one and missed 4 of
 * its 180 contact events); with every component moving it is the plain WRMS.
 */
static realtype sim_wrms_moving(N_Vector x, N_Vector w)
{
    const double *xd = N_VGetArrayPointer(x), *wd = N_VGetArrayPointer(w);
    sunindextype n = N_VGetLength(x);
    double sum = 0.0;
    sunindextype moving = 0;
    for (sunindextype i = 0; i < n; i++) {
        double p = xd[i] * wd[i];
        if (p != 0.0) {
            sum += p * p;
            moving++;
        }
    }
    return moving ? sqrt(sum / (double) moving) : 0.0;
}

/*
 * CVODE's error weights: 1 / (rtol |q_i - q_i(0)| + atol) for a coordinate, relative
 * to how far it has moved rather than to where the origin lies (under rtol |q_i|
 * the last bead of a 7000-bead chain, at x = 33 m, was allowed an error 100 times
 * that of the 70-bead chain's, so that the accuracy fell with N), and
 * 1 / (rtol |y_i| + atol) for velocities and energies.
 */
static int sim_ewt(N_Vector y, N_Vector ewt, void *ud)
{
    const clink_sim *s = ud;
    const double *yy = N_VGetArrayPointer(y);
    double *w = N_VGetArrayPointer(ewt);
    double rtol = s->set.rtol, atol = s->set.atol;
    for (int i = 0; i < s->nr; i++)
        w[i] = 1.0 / (rtol * fabs(yy[i] - s->q0[s->red[i]]) + atol);
    for (int i = s->nr; i < s->Nr; i++)
        w[i] = 1.0 / (rtol * fabs(yy[i]) + atol);
    sim_audit_weights(s, w);
    return 0;
}

/* the contacts, the dynamics, the vectors and work arrays */
static clink_status sim_allocate(clink_sim *s)
{
    char cerr[128];
    s->sc = simc_create(s->m, s->set.settle_speed, cerr, sizeof cerr);
    if (!s->sc) {
        sim_msg(s, "%s", cerr);
        return CLINK_ERR_NOMEM;
    }
    simc_set_bookkeeping(s->sc, s->set.contact_bookkeeping);
    s->ncon = simc_count(s->sc);
    s->nq = s->m->ncoords;
    s->nc = s->m->nconstraints;
    s->N = 2 * s->nq + 2 + simc_nwork(s->sc) + sim_audit_components(s);
    size_t nq1 = (size_t) (s->nq > 0 ? s->nq : 1), ncon1 = (size_t) (s->ncon > 0 ? s->ncon : 1);
    s->dyn = dyn_create(s->m);
    s->qdd = calloc(nq1, sizeof(double));
    s->lambda = calloc((size_t) (s->nc > 0 ? s->nc : 1), sizeof(double));
    s->fd_f0 = calloc(nq1, sizeof(double));
    s->fd_f1 = calloc(nq1, sizeof(double));
    s->q0 = calloc(nq1, sizeof(double));
    s->roots_found = calloc(2 * ncon1, sizeof(int));
    s->info = calloc(ncon1, sizeof *s->info);
    s->pen_level = calloc(ncon1, 1);
    s->yx = calloc((size_t) s->N, sizeof(double));
    s->yh = calloc((size_t) s->N, sizeof(double));
    s->acc = calloc(nq1, sizeof(double));
    if (!s->dyn || !s->qdd || !s->lambda || !s->fd_f0 || !s->fd_f1 || !s->q0 || !s->roots_found ||
        !s->info || !s->pen_level || !s->yx || !s->yh || !s->acc || sim_reduction(s) != CLINK_OK) {
        sim_msg(s, "clink_sim_create: out of memory");
        return CLINK_ERR_NOMEM;
    }
    if (s->set.drift == CLINK_DRIFT_BAUMGARTE)
        dyn_set_baumgarte(s->dyn, s->set.baumgarte_alpha, s->set.baumgarte_beta);
    if (SUNContext_Create(NULL, &s->ctx) != 0) {
        sim_msg(s, "SUNContext_Create failed");
        return CLINK_ERR_SOLVER;
    }
    s->y = N_VNew_Serial(s->N, s->ctx);
    s->ycv = N_VNew_Serial(s->Nr, s->ctx);
    s->yroot = N_VNew_Serial(s->Nr, s->ctx);
    if (!s->y || !s->ycv || !s->yroot) {
        sim_msg(s, "clink_sim_create: out of memory");
        return CLINK_ERR_NOMEM;
    }
    /* CVODE's vectors are clones of ycv */
    ode_vector_use_fast_ops(s->ycv);
    ode_vector_use_fast_ops(s->yroot);
    s->ycv->ops->nvwrmsnorm = sim_wrms_moving;
    return CLINK_OK;
}

/* initial conditions from the model, projected onto the constraints; the contacts' phases */
static clink_status sim_initial_state(clink_sim *s)
{
    int nq = s->nq;
    double *y = N_VGetArrayPointer(s->y);
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
    clink_status st = dyn_project(s->dyn, 0.0, y, y + nq, SIM_PROJECTION_TOL, 50, &s->dq0, &s->dv0);
    if (st != CLINK_OK) {
        sim_msg(s, "initial conditions: %s", dyn_error(s->dyn));
        return st != CLINK_ERR_SINGULAR && st != CLINK_ERR_NOMEM ? CLINK_ERR_ASSEMBLY : st;
    }
    memcpy(s->q0, y, (size_t) nq * sizeof(double));
    if (s->ncon) {
        simc_start(s->sc, y, y + nq);
        dyn_set_external(s->dyn, simc_forces, s->sc);
        dyn_set_external_jacobian(s->dyn, simc_forces_jacobian);
        simc_set_impulse(s->sc, sim_impulse, s->dyn);
    }
    sim_reduce(s, y, N_VGetArrayPointer(s->ycv));
    return CLINK_OK;
}

/* the nonlinear solver: fixed point (Adams) or Newton with KLU on the sparse Jacobian (BDF) */
static clink_status sim_setup_solvers(clink_sim *s)
{
    if (s->set.method == CLINK_METHOD_ADAMS) {
        s->NLS = SUNNonlinSol_FixedPoint(s->ycv, 0, s->ctx);
        if (!s->NLS) {
            sim_msg(s, "SUNNonlinSol_FixedPoint failed");
            return CLINK_ERR_NOMEM;
        }
        CV_CHECK(CVodeSetNonlinearSolver(s->cvode, s->NLS));
        return CLINK_OK;
    }
    int nq = s->nq, nr = s->nr;
    sunindextype nnz = (sunindextype) (2 * nr * (1 + s->Nr - nr) + (s->Nr - 2 * nr));
    s->J = SUNSparseMatrix(s->Nr, s->Nr, nnz, CSC_MAT, s->ctx);
    if (!s->J) {
        sim_msg(s, "SUNSparseMatrix failed");
        return CLINK_ERR_NOMEM;
    }
    jac_pattern(s, s->J);
    s->jq = malloc((size_t) nq * (size_t) nq * sizeof(double) + 1);
    s->jv = malloc((size_t) nq * (size_t) nq * sizeof(double) + 1);
    if (!s->jq || !s->jv) {
        sim_msg(s, "clink_sim_create: out of memory");
        return CLINK_ERR_NOMEM;
    }
    s->LS = SUNLinSol_KLU(s->ycv, s->J, s->ctx);
    if (!s->LS) {
        sim_msg(s, "SUNLinSol_KLU failed");
        return CLINK_ERR_NOMEM;
    }
    CV_CHECK(CVodeSetLinearSolver(s->cvode, s->LS, s->J));
    CV_CHECK(CVodeSetJacFn(s->cvode, sim_jac));
    if (s->set.drift == CLINK_DRIFT_PROJECTION) {
        CV_CHECK(CVodeSetProjFn(s->cvode, sim_proj));
        CV_CHECK(CVodeSetProjErrEst(s->cvode, SUNTRUE));
    }
    return CLINK_OK;
}

/* CVODE: method, tolerances, limits, solvers, root functions */
static clink_status sim_setup_cvode(clink_sim *s)
{
    int flag;
    const char *call;
    s->cvode = ode_create(s->ctx, s->set.method != CLINK_METHOD_ADAMS, sim_rhs, 0.0, s->ycv, s,
                          &s->cvlog, &flag, &call);
    if (!s->cvode) {
        char name[64];
        sim_msg(s, "CVODE: %s failed with %d (%s)", call, flag,
                ode_flag_name(flag, name, sizeof name));
        return flag == CV_MEM_FAIL ? CLINK_ERR_NOMEM : CLINK_ERR_SOLVER;
    }
    CV_CHECK(CVodeWFtolerances(s->cvode, sim_ewt));
    /* clink_sim_advance steps one at a time and counts the steps itself (max_steps) */
    CV_CHECK(CVodeSetMaxNumSteps(s->cvode, -1));
    if (s->set.max_step > 0.0)
        CV_CHECK(CVodeSetMaxStep(s->cvode, s->set.max_step));
    /* an explicit minimum step bounds CVODE's own steps (its first one included); steps
       shortened to land on a root or a stop time are left to the guard of sim_advance.c */
    if (s->set.min_step > 0.0)
        CV_CHECK(CVodeSetMinStep(s->cvode, s->set.min_step));
    clink_status st = sim_setup_solvers(s);
    if (st != CLINK_OK)
        return st;
    if (s->ncon) {
        /* no CVodeRootInit: clink locates the events itself (sim_roots.c) */
        st = sim_roots_create(s);
        if (st != CLINK_OK) {
            sim_msg(s, "clink_sim_create: out of memory");
            return st;
        }
        sim_roots_restart(s, s->ycv);
    }
    return CLINK_OK;
}

clink_status clink_sim_create(const clink_model *model, const clink_settings_def *settings,
                              clink_sim **sim, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    if (!sim || !model) {
        if (err && errlen)
            snprintf(err, errlen, "clink_sim_create: NULL %s", sim ? "model" : "output pointer");
        if (sim)
            *sim = NULL;
        return CLINK_ERR_ARG;
    }
    *sim = NULL;
    clink_sim *s = calloc(1, sizeof *s);
    if (!s) {
        if (err && errlen)
            snprintf(err, errlen, "clink_sim_create: out of memory");
        return CLINK_ERR_NOMEM;
    }
    s->m = model;
    s->set = settings ? *settings : model->d.settings;
    sim_auto_resolve(model, &s->set); /* CLINK_METHOD_AUTO, CLINK_DRIFT_AUTO */
    s->wall_start = -1.0;
    clink_status st = sim_check_settings(s);
    if (st == CLINK_OK)
        st = sim_allocate(s);
    if (st == CLINK_OK)
        st = sim_initial_state(s);
    if (st == CLINK_OK)
        st = sim_setup_cvode(s);
    if (st == CLINK_OK)
        st = sim_settle_output(s, 0.0); /* the state is on the constraints already */
    if (st != CLINK_OK) {
        if (err && errlen)
            snprintf(err, errlen, "%s", s->msg);
        clink_sim_destroy(&s);
        return st;
    }
    s->e0 = sim_total_energy(&s->energy);
    s->energy.balance = 0.0;
    sim_check_output(s);
    *sim = s;
    return CLINK_OK;
}

/* ---- getters -------------------------------------------------------------- */

double clink_sim_time(const clink_sim *sim)
{
    return sim ? sim->t : NAN;
}

clink_status clink_sim_body_state(const clink_sim *s, int body, double q[3], double v[3])
{
    if (!s || body < 0 || body >= s->m->d.nbodies)
        return CLINK_ERR_ARG;
    const double *y = N_VGetArrayPointer(s->y);
    for (int k = 0; k < 3; k++) {
        if (q)
            q[k] = body ? y[3 * (body - 1) + k] : 0.0;
        if (v)
            v[k] = body ? y[s->nq + 3 * (body - 1) + k] : 0.0;
    }
    return CLINK_OK;
}

/* nonzero if the current output computed what `level` asks for (clink_sim_set_outputs) */
static int sim_computed(const clink_sim *s, clink_output_level level)
{
    return s->out_done >= level;
}

clink_status clink_sim_body_acceleration(const clink_sim *s, int body, double a[3])
{
    if (!s || !a || body < 0 || body >= s->m->d.nbodies)
        return CLINK_ERR_ARG;
    if (!sim_computed(s, CLINK_OUTPUT_ALL))
        return CLINK_ERR_STATE;
    for (int k = 0; k < 3; k++)
        a[k] = body ? s->qdd[3 * (body - 1) + k] : 0.0;
    return CLINK_OK;
}

clink_status clink_sim_joint_reaction(const clink_sim *s, int joint, double force[3])
{
    if (!s || !force || joint < 0 || joint >= s->m->d.njoints)
        return CLINK_ERR_ARG;
    if (!sim_computed(s, CLINK_OUTPUT_ALL))
        return CLINK_ERR_STATE;
    const clink_joint_def *jd = &s->m->d.joints[joint].def;
    const double *y = N_VGetArrayPointer(s->y);
    kin_pose a, b;
    kin_pose_of(y, y + s->nq, jd->body_a, &a);
    kin_pose_of(y, y + s->nq, jd->body_b, &b);
    const joint_class *jc = joint_class_of(jd->type);
    kin_row jac[JOINT_MAX_EQUATIONS];
    jc->jacobian(jd, &a, &b, jac);
    double g[3] = {0.0, 0.0, 0.0};
    int r0 = s->m->joint_row[joint];
    for (int r = 0; r < jc->neq; r++)
        for (int k = 0; k < 3; k++)
            g[k] += jac[r].jb[k] * s->lambda[r0 + r];
    /* moment about point_b: T - arm x F */
    double arm[2];
    kin_rot(b.phi, jd->point_b, arm);
    force[0] = g[0];
    force[1] = g[1];
    force[2] = g[2] - (arm[0] * g[1] - arm[1] * g[0]);
    return CLINK_OK;
}

clink_status clink_sim_driver_force(const clink_sim *s, int driver, double *force)
{
    if (!s || !force || driver < 0 || driver >= s->m->d.ndrivers)
        return CLINK_ERR_ARG;
    if (!sim_computed(s, CLINK_OUTPUT_ALL))
        return CLINK_ERR_STATE;
    *force = s->lambda[s->m->driver_row[driver]];
    return CLINK_OK;
}

clink_status clink_sim_energy(const clink_sim *s, clink_energy *e)
{
    if (!s || !e)
        return CLINK_ERR_ARG;
    if (!sim_computed(s, CLINK_OUTPUT_ALL))
        return CLINK_ERR_STATE;
    *e = s->energy;
    return CLINK_OK;
}

void clink_sim_constraint_violation(const clink_sim *s, double *position, double *velocity)
{
    int ok = s && sim_computed(s, CLINK_OUTPUT_ALL);
    if (position)
        *position = ok ? s->viol_pos : NAN;
    if (velocity)
        *velocity = ok ? s->viol_vel : NAN;
}

void clink_sim_assembly(const clink_sim *s, double *dq_norm, double *dv_norm)
{
    if (dq_norm)
        *dq_norm = s ? s->dq0 : NAN;
    if (dv_norm)
        *dv_norm = s ? s->dv0 : NAN;
}

void clink_sim_stats_get(const clink_sim *s, clink_sim_stats *st)
{
    if (!st)
        return;
    memset(st, 0, sizeof *st);
    if (!s)
        return;
    sim_cvode_counters(s, st);
    const ode_counters *b = &s->banked;
    st->steps += b->steps;
    st->rhs_evals += b->rhs_evals;
    st->jac_evals += b->jac_evals;
    st->lin_setups += b->lin_setups;
    st->error_test_fails += b->error_test_fails;
    st->nonlin_iters += b->nonlin_iters;
    st->nonlin_fails += b->nonlin_fails;
    st->proj_evals += b->proj_evals;
    st->proj_fails += b->proj_fails;
    st->rhs_evals_jac = s->rhs_fd;
    st->contact_events = simc_events(s->sc);
    st->contact_reinits = s->reinits;
    st->findings = s->nfound;
    st->implausible = s->nimplausible;
    st->root_evals = s->rt_full;
    st->root_evals_partial = s->rt_partial;
    dyn_counts(s->dyn, &st->klu_factors, &st->klu_refactors);
}

/* ---- contacts ------------------------------------------------------------- */

int clink_sim_contact_count(const clink_sim *s)
{
    return s ? s->ncon : 0;
}

clink_status clink_sim_contact(const clink_sim *s, int contact, clink_contact_info *info)
{
    if (!s || !info || contact < 0 || contact >= s->ncon)
        return CLINK_ERR_ARG;
    if (!sim_computed(s, CLINK_OUTPUT_CONTACTS) || (s->out_partial && !s->out_has[contact]))
        return CLINK_ERR_STATE;
    *info = s->info[contact];
    return CLINK_OK;
}

int clink_sim_impact_count(const clink_sim *s)
{
    return s ? simc_impact_count(s->sc) : 0;
}

clink_status clink_sim_impact(const clink_sim *s, int i, clink_impact_record *record)
{
    return s ? simc_impact(s->sc, i, record) : CLINK_ERR_ARG;
}

void clink_sim_set_impact_callback(clink_sim *s, clink_impact_fn fn, void *data)
{
    if (s && s->sc)
        simc_set_callback(s->sc, fn, data);
}

/* ---- what an output computes ---------------------------------------------- */

clink_status clink_sim_set_outputs(clink_sim *s, clink_output_level level)
{
    if (!s)
        return CLINK_ERR_ARG;
    if (level != CLINK_OUTPUT_STATE && level != CLINK_OUTPUT_CONTACTS &&
        level != CLINK_OUTPUT_ALL) {
        sim_msg(s,
                "clink_sim_set_outputs: level %d is none of CLINK_OUTPUT_STATE (1), "
                "CLINK_OUTPUT_CONTACTS (2), CLINK_OUTPUT_ALL (3)",
                (int) level);
        return CLINK_ERR_ARG;
    }
    s->out_level = level;
    return CLINK_OK;
}

clink_status clink_sim_set_output_contacts(clink_sim *s, const int *contacts, int n)
{
    if (!s)
        return CLINK_ERR_ARG;
    if (!contacts) {
        s->out_some = 0;
        return CLINK_OK;
    }
    if (n < 0) {
        sim_msg(s, "clink_sim_set_output_contacts: %d contacts", n);
        return CLINK_ERR_ARG;
    }
    for (int i = 0; i < n; i++)
        if (contacts[i] < 0 || contacts[i] >= s->ncon) {
            sim_msg(s,
                    "clink_sim_set_output_contacts: contact %d (entry %d) is not one of the "
                    "%d contacts",
                    contacts[i], i, s->ncon);
            return CLINK_ERR_ARG;
        }
    size_t ncon1 = (size_t) (s->ncon > 0 ? s->ncon : 1);
    if (!s->out_list) {
        int *list = malloc(ncon1 * sizeof *list);
        unsigned char *has = calloc(ncon1, 1);
        if (!list || !has) {
            free(list);
            free(has);
            sim_msg(s, "clink_sim_set_output_contacts: out of memory");
            return CLINK_ERR_NOMEM;
        }
        s->out_list = list;
        s->out_has = has;
    }
    /* each contact once, in the order first listed (a mark per contact; the marks of the
       current output are not touched) */
    unsigned char *seen = calloc(ncon1, 1);
    if (!seen) {
        sim_msg(s, "clink_sim_set_output_contacts: out of memory");
        return CLINK_ERR_NOMEM;
    }
    int m = 0;
    for (int i = 0; i < n; i++)
        if (!seen[contacts[i]]) {
            seen[contacts[i]] = 1;
            s->out_list[m++] = contacts[i];
        }
    free(seen);
    s->out_nlist = m;
    s->out_some = 1;
    return CLINK_OK;
}

clink_output_level clink_sim_output_level(const clink_sim *s)
{
    return s ? s->out_done : (clink_output_level) 0;
}
