/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Kinematic analysis of a driven mechanism (docs/analysis.md): one driver swept over its
 * values u with the others held to their functions at t = 0, no dynamics. At each u:
 *   positions    Phi(q, u) = 0 by Newton (dyn_project) from the previous pose moved by the
 *                first-order predictor dq = (dq/du) du (Nikravesh 1988, ch. 6);
 *   velocities   Phi_q v = nu, the driver at rate u' (default 1 unit/s: the velocities are
 *                then the velocity coefficients dq/du);
 *   accelerations Phi_q a = gamma (u'' = 0), from the saddle-point solve: with no degree of
 *                freedom left the constraints determine them, and its multiplier of the swept
 *                driver is the driving force or torque the motion needs (inverse dynamics at
 *                that rate, gravity and loads included);
 *   rank         sigma_min / sigma_max of Phi_q (dgesvd): a dead point is where it vanishes;
 *                flagged at the rows where it has a local minimum below KIN_DEAD (0.02) times
 *                its largest value over the sweep, and
 *                at an assembled row next to a value where assembly fails;
 *   transmission at a revolute joint J between a coupler C (two joints, J and L) and an output
 *                body O (two joints: J and K to the ground, O not the swept driver's), the
 *                angle between J->L and J->K (four-bar: the coupler-rocker angle), or, when K
 *                is translational, between J->L and the normal to K's axis, folded to [0, 90]
 *                (slider-crank: 90 degrees at the dead centres, where the rod lies along the
 *                axis);
 *   points       every joint's point on its body_b in the global frame (coupler curves).
 * Values where assembly fails are rows with assembled 0 and NaN elsewhere.
 */
#include "analysis/analysis_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { KIN_NAME = 96, KIN_MAX_TRANSMISSION = 8, KIN_FIXED = 5 };
#define KIN_DEAD 0.02
static const double PI = 3.14159265358979323846;

struct clink_kinematics {
    int rows, cols;
    char *names; /* cols x KIN_NAME */
    double *data;
};

/* a transmission angle: joint J, coupler's other point (body, point), output's other joint */
typedef struct kin_tr {
    int joint, coupler, output, other_c, other_o;
} kin_tr;

/* the sweep's working state */
typedef struct kin_sweep {
    const clink_model *m;
    dyn_system *dyn;
    clink_function *drv;
    int nq, nc, nb, nj, d;
    double *q, *v, *qdd, *lam, *qprev, *vprev, *phiq, *s;
    kin_row *rows;
    int *ba, *bb;
    kin_tr tr[KIN_MAX_TRANSMISSION];
    int ntr;
} kin_sweep;

clink_kinematics_options clink_default_kinematics_options(void)
{
    clink_kinematics_options o = {0, 0, 0.0, 0.0, 360, 1.0, 30};
    return o;
}

static void kin_err(char *err, size_t n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void kin_err(char *err, size_t n, const char *fmt, ...)
{
    va_list ap;
    if (err == NULL || n == 0)
        return;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
}

/* the joints of body b other than `not` (count), the last found in *other */
static int kin_joints_of(const clink_model *m, int b, int not, int *other)
{
    int n = 0;
    for (int j = 0; j < m->d.njoints; j++) {
        const clink_joint_def *jd = &m->d.joints[j].def;
        if ((jd->body_a == b || jd->body_b == b) && j != not ) {
            n++;
            *other = j;
        }
    }
    return n;
}

/* the body on the far side of joint j from b */
static int kin_partner(const clink_model *m, int j, int b)
{
    const clink_joint_def *jd = &m->d.joints[j].def;
    return jd->body_a == b ? jd->body_b : jd->body_a;
}

/* whether the swept driver moves body b directly */
static int kin_driven(const clink_model *m, int d, int b, int joint)
{
    const clink_driver_def *dd = &m->d.drivers[d].def;
    if (dd->target == CLINK_DRIVE_BODY_COORDINATE)
        return dd->body == b;
    return dd->joint == joint;
}

/* the transmission angles the mechanism has (see the file's comment) */
static void kin_find_transmission(kin_sweep *k)
{
    const clink_model *m = k->m;
    for (int j = 0; j < k->nj && k->ntr < KIN_MAX_TRANSMISSION; j++) {
        const clink_joint_def *jd = &m->d.joints[j].def;
        if (jd->type != CLINK_JOINT_REVOLUTE || jd->body_a == 0 || jd->body_b == 0)
            continue;
        for (int side = 0; side < 2; side++) {
            int c = side ? jd->body_b : jd->body_a, o = side ? jd->body_a : jd->body_b;
            int lc = -1, ko = -1;
            if (kin_joints_of(m, c, j, &lc) != 1 || kin_joints_of(m, o, j, &ko) != 1)
                continue;
            if (m->d.joints[lc].def.type != CLINK_JOINT_REVOLUTE || kin_partner(m, ko, o) != 0 ||
                kin_driven(m, k->d, o, ko))
                continue;
            if (m->d.joints[ko].def.type != CLINK_JOINT_REVOLUTE &&
                m->d.joints[ko].def.type != CLINK_JOINT_TRANSLATIONAL)
                continue;
            kin_tr t = {j, c, o, lc, ko};
            k->tr[k->ntr++] = t;
            break;
        }
    }
}

/* the global position of joint j's point on body b */
static void kin_joint_point(const kin_sweep *k, int j, int b, double r[2])
{
    const clink_joint_def *jd = &k->m->d.joints[j].def;
    kin_pose p;
    double arm[2];
    kin_pose_of(k->q, k->v, b, &p);
    kin_point(&p, jd->body_b == b ? jd->point_b : jd->point_a, arm, r);
}

/* transmission angle t in degrees at the current pose */
static double kin_transmission(const kin_sweep *k, const kin_tr *t)
{
    double pj[2], pl[2], pk[2], u[2], w[2];
    kin_joint_point(k, t->joint, t->coupler, pj);
    kin_joint_point(k, t->other_c, t->coupler, pl);
    u[0] = pl[0] - pj[0];
    u[1] = pl[1] - pj[1];
    const clink_joint_def *kd = &k->m->d.joints[t->other_o].def;
    if (kd->type == CLINK_JOINT_TRANSLATIONAL) {
        /* the axis is fixed to the ground side (body_a is the ground, or body_b is) */
        w[0] = -kd->axis_a[1];
        w[1] = kd->axis_a[0];
        double c = fabs(u[0] * w[0] + u[1] * w[1]) / (hypot(u[0], u[1]) * hypot(w[0], w[1]));
        return acos(fmin(1.0, c)) * 180.0 / PI;
    }
    kin_joint_point(k, t->other_o, t->output, pk);
    w[0] = pk[0] - pj[0];
    w[1] = pk[1] - pj[1];
    double c = (u[0] * w[0] + u[1] * w[1]) / (hypot(u[0], u[1]) * hypot(w[0], w[1]));
    return acos(fmax(-1.0, fmin(1.0, c))) * 180.0 / PI;
}

/* sigma_min / sigma_max of Phi_q at q (NaN when the SVD fails) */
static double kin_rank_ratio(kin_sweep *k)
{
    int nc = k->nc, nq = k->nq, ns = nc < nq ? nc : nq;
    memset(k->phiq, 0, sizeof *k->phiq * (size_t) nc * nq);
    kin_eval_with(k->m, k->drv, 0.0, k->q, k->v, NULL, k->rows, NULL, NULL);
    for (int r = 0; r < nc; r++)
        for (int c = 0; c < 3; c++) {
            if (k->ba[r] > 0)
                k->phiq[r + (size_t) nc * (3 * (k->ba[r] - 1) + c)] += k->rows[r].ja[c];
            if (k->bb[r] > 0)
                k->phiq[r + (size_t) nc * (3 * (k->bb[r] - 1) + c)] += k->rows[r].jb[c];
        }
    if (ns == 0 || analysis_svd(nc, nq, k->phiq, k->s, NULL, NULL) != 0 || !(k->s[0] > 0.0))
        return NAN;
    return k->s[ns - 1] / k->s[0];
}

static void kin_free(kin_sweep *k)
{
    dyn_destroy(&k->dyn);
    free(k->drv);
    free(k->q);
    free(k->rows);
    free(k->ba);
}

static int kin_alloc(kin_sweep *k)
{
    size_t nq = (size_t) k->nq + 1, nc = (size_t) k->nc + 1;
    k->dyn = dyn_create(k->m);
    k->drv = calloc((size_t) k->m->d.ndrivers + 1, sizeof *k->drv);
    k->q = calloc(6 * nq + 2 * nc + nc * nq, sizeof *k->q);
    k->rows = calloc(nc, sizeof *k->rows);
    k->ba = calloc(2 * nc, sizeof *k->ba);
    if (!k->dyn || !k->drv || !k->q || !k->rows || !k->ba)
        return -1;
    k->v = k->q + nq;
    k->qdd = k->v + nq;
    k->qprev = k->qdd + nq;
    k->vprev = k->qprev + nq;
    k->s = k->vprev + nq;
    k->lam = k->s + nq + nc;
    k->phiq = k->lam + nc;
    k->bb = k->ba + nc;
    kin_row_bodies(k->m, k->ba, k->bb);
    for (int d = 0; d < k->m->d.ndrivers; d++)
        k->drv[d] = k->m->d.drivers[d].def.function;
    return 0;
}

/* the default range: the driver's values over [0, t_end], an angle's to one turn */
static int kin_range(const clink_model *m, clink_kinematics_options *o, char *err, size_t n)
{
    const clink_driver_def *dd = &m->d.drivers[o->driver].def;
    double t_end = m->d.settings.t_end, v0, v1, r, a;
    if (o->range_given)
        return 0;
    clink_function_eval(&dd->function, 0.0, &v0, &r, &a);
    clink_function_eval(&dd->function, t_end, &v1, &r, &a);
    int angle = dd->target == CLINK_DRIVE_JOINT_ANGLE ||
                (dd->target == CLINK_DRIVE_BODY_COORDINATE && dd->coordinate == 2);
    if (angle && fabs(v1 - v0) > 2.0 * PI)
        v1 = v0 + (v1 > v0 ? 2.0 * PI : -2.0 * PI);
    if (!(v1 != v0) || !isfinite(v0) || !isfinite(v1)) {
        kin_err(err, n,
                "kinematics: driver '%s' takes one value over the run (%.9g): give the range "
                "to sweep (from, to)",
                m->d.drivers[o->driver].name, v0);
        return -1;
    }
    o->from = v0;
    o->to = v1;
    return 0;
}

/* the table's columns and their names */
static int kin_table(kin_sweep *k, clink_kinematics *t, int rows)
{
    static const char *fixed[KIN_FIXED] = {"driver", "assembled", "sigma_ratio", "dead_point",
                                           "driver_force"};
    static const char *body_cols[9] = {"x", "y", "phi", "vx", "vy", "omega", "ax", "ay", "alpha"};
    t->rows = rows;
    t->cols = KIN_FIXED + k->ntr + 9 * (k->nb - 1) + 2 * k->nj;
    t->names = calloc((size_t) t->cols, KIN_NAME);
    t->data = calloc((size_t) t->cols * (size_t) rows + 1, sizeof *t->data);
    if (t->names == NULL || t->data == NULL)
        return -1;
    int c = 0;
    for (int i = 0; i < KIN_FIXED; i++)
        snprintf(t->names + KIN_NAME * c++, KIN_NAME, "%s", fixed[i]);
    for (int i = 0; i < k->ntr; i++) {
        const char *jn = k->m->d.joints[k->tr[i].joint].name;
        if (jn[0] != '\0')
            snprintf(t->names + KIN_NAME * c++, KIN_NAME, "transmission_%s_deg", jn);
        else
            snprintf(t->names + KIN_NAME * c++, KIN_NAME, "transmission_joint%d_deg",
                     k->tr[i].joint);
    }
    for (int b = 1; b < k->nb; b++)
        for (int i = 0; i < 9; i++) {
            const char *bn = k->m->d.bodies[b].name;
            if (bn[0] != '\0')
                snprintf(t->names + KIN_NAME * c++, KIN_NAME, "%s.%s", bn, body_cols[i]);
            else
                snprintf(t->names + KIN_NAME * c++, KIN_NAME, "body%d.%s", b, body_cols[i]);
        }
    for (int j = 0; j < k->nj; j++)
        for (int i = 0; i < 2; i++) {
            const char *jn = k->m->d.joints[j].name;
            if (jn[0] != '\0')
                snprintf(t->names + KIN_NAME * c++, KIN_NAME, "%s.%s", jn, i ? "py" : "px");
            else
                snprintf(t->names + KIN_NAME * c++, KIN_NAME, "joint%d.%s", j, i ? "py" : "px");
        }
    return 0;
}

/* one row at driver value u: 1 when assembled */
static int kin_row_at(kin_sweep *k, const clink_kinematics_options *o, double u, double du,
                      int have_prev, double *row)
{
    int nq = k->nq, c = 0;
    k->drv[k->d].type = CLINK_FUNCTION_LINEAR;
    k->drv[k->d].c[0] = u;
    k->drv[k->d].c[1] = o->rate;
    /* predictor: the previous pose moved along its velocity coefficients */
    for (int i = 0; i < nq; i++)
        k->q[i] = k->qprev[i] + (have_prev ? k->vprev[i] / o->rate * du : 0.0);
    memset(k->v, 0, sizeof *k->v * (size_t) nq);
    row[c++] = u;
    if (dyn_project(k->dyn, 0.0, k->q, k->v, 1e-12, o->max_newton, NULL, NULL) != CLINK_OK ||
        dyn_accelerations(k->dyn, 0.0, k->q, k->v, k->qdd, k->lam) != CLINK_OK) {
        row[c++] = 0.0;
        return 0;
    }
    row[c++] = 1.0;
    row[c++] = kin_rank_ratio(k);
    row[c++] = 0.0;
    row[c++] = k->lam[k->m->driver_row[k->d]];
    for (int i = 0; i < k->ntr; i++)
        row[c++] = kin_transmission(k, &k->tr[i]);
    for (int b = 1; b < k->nb; b++) {
        for (int i = 0; i < 3; i++)
            row[c + i] = k->q[3 * (b - 1) + i];
        for (int i = 0; i < 3; i++)
            row[c + 3 + i] = k->v[3 * (b - 1) + i];
        for (int i = 0; i < 3; i++)
            row[c + 6 + i] = k->qdd[3 * (b - 1) + i];
        c += 9;
    }
    for (int j = 0; j < k->nj; j++) {
        kin_joint_point(k, j, k->m->d.joints[j].def.body_b, row + c);
        c += 2;
    }
    memcpy(k->qprev, k->q, sizeof *k->q * (size_t) nq);
    memcpy(k->vprev, k->v, sizeof *k->v * (size_t) nq);
    return 1;
}

/* dead points: local minima of sigma_ratio below KIN_DEAD times its largest value over the
   sweep (the ratio depends on the units' mix), assembled rows beside failed ones */
static void kin_dead_points(clink_kinematics *t)
{
    int C = t->cols;
    double top = 0.0;
    for (int r = 0; r < t->rows; r++)
        if (t->data[(size_t) C * r + 1] == 1.0 && isfinite(t->data[(size_t) C * r + 2]))
            top = fmax(top, t->data[(size_t) C * r + 2]);
    for (int r = 0; r < t->rows; r++) {
        double *row = t->data + (size_t) C * r;
        if (row[1] != 1.0)
            continue;
        double s = row[2];
        double sp = r > 0 && t->data[(size_t) C * (r - 1) + 1] == 1.0
                        ? t->data[(size_t) C * (r - 1) + 2]
                        : INFINITY;
        double sn = r + 1 < t->rows && t->data[(size_t) C * (r + 1) + 1] == 1.0
                        ? t->data[(size_t) C * (r + 1) + 2]
                        : INFINITY;
        int beside_failure = (r > 0 && t->data[(size_t) C * (r - 1) + 1] == 0.0) ||
                             (r + 1 < t->rows && t->data[(size_t) C * (r + 1) + 1] == 0.0);
        if ((s < KIN_DEAD * top && s <= sp && s <= sn) || beside_failure)
            row[3] = 1.0;
    }
}

/* the checks before the sweep: driver, options, no free degree of freedom */
static clink_status kin_check(kin_sweep *k, clink_kinematics_options *o, char *err, size_t n)
{
    if (k->m->d.ndrivers == 0) {
        kin_err(err, n, "kinematics: the mechanism has no driver: a kinematic sweep moves one");
        return CLINK_ERR_MODEL;
    }
    if (o->driver < 0 || o->driver >= k->m->d.ndrivers || o->steps < 1 || o->steps > 10000000 ||
        !(o->rate != 0.0) || !isfinite(o->rate) || !isfinite(o->from) || !isfinite(o->to) ||
        o->max_newton < 1) {
        kin_err(err, n,
                "kinematics: options out of range: driver %d of %d, steps %d (1 .. 10^7), rate "
                "%g (not 0), from %g, to %g, max_newton %d (>= 1)",
                o->driver, k->m->d.ndrivers, o->steps, o->rate, o->from, o->to, o->max_newton);
        return CLINK_ERR_RANGE;
    }
    if (kin_range(k->m, o, err, n) != 0)
        return CLINK_ERR_RANGE;
    for (int b = 1; b < k->nb; b++) {
        const clink_body_def *bd = &k->m->d.bodies[b].def;
        k->qprev[3 * (b - 1)] = bd->x;
        k->qprev[3 * (b - 1) + 1] = bd->y;
        k->qprev[3 * (b - 1) + 2] = bd->phi;
    }
    memcpy(k->q, k->qprev, sizeof *k->q * (size_t) k->nq);
    int ns = k->nc < k->nq ? k->nc : k->nq, rank = 0;
    if (k->nc > 0)
        kin_rank_ratio(k);
    for (int i = 0; i < ns; i++)
        rank += k->s[i] > ANALYSIS_RANK_TOL * k->s[0];
    if (rank < k->nq) {
        kin_err(err, n,
                "kinematics: the mechanism with its drivers keeps %d degree(s) of freedom at "
                "its initial pose (%d coordinates, %d constraint rows of rank %d): a kinematic "
                "sweep needs every coordinate driven or constrained",
                k->nq - rank, k->nq, k->nc, rank);
        return CLINK_ERR_MODEL;
    }
    return CLINK_OK;
}

clink_status clink_kinematics_sweep(const clink_model *m, const clink_kinematics_options *opt,
                                    clink_kinematics **out, char *err, size_t n)
{
    clink_kinematics_options o = opt != NULL ? *opt : clink_default_kinematics_options();
    kin_sweep k;
    dyn_host host;
    if (m == NULL || out == NULL)
        return CLINK_ERR_ARG;
    *out = NULL;
    memset(&k, 0, sizeof k);
    k.m = m;
    k.nq = m->ncoords;
    k.nc = m->nconstraints;
    k.nb = m->d.nbodies;
    k.nj = m->d.njoints;
    k.d = o.driver;
    clink_kinematics *t = calloc(1, sizeof *t);
    if (t == NULL || kin_alloc(&k) != 0) {
        kin_free(&k);
        free(t);
        kin_err(err, n, "kinematics: out of memory");
        return CLINK_ERR_NOMEM;
    }
    memset(&host, 0, sizeof host);
    host.drivers = k.drv;
    dyn_set_host(k.dyn, &host);
    clink_status st = kin_check(&k, &o, err, n);
    if (st == CLINK_OK) {
        kin_find_transmission(&k);
        if (kin_table(&k, t, o.steps + 1) != 0)
            st = CLINK_ERR_NOMEM;
    }
    for (int r = 0; st == CLINK_OK && r <= o.steps; r++) {
        double u = o.from + (o.to - o.from) * r / o.steps, du = (o.to - o.from) / o.steps;
        double *row = t->data + (size_t) t->cols * r;
        for (int c = 0; c < t->cols; c++)
            row[c] = NAN;
        kin_row_at(&k, &o, u, du, r > 0 && t->data[(size_t) t->cols * (r - 1) + 1] == 1.0, row);
    }
    kin_free(&k);
    if (st != CLINK_OK) {
        clink_kinematics_destroy(&t);
        return st;
    }
    kin_dead_points(t);
    *out = t;
    return CLINK_OK;
}

void clink_kinematics_destroy(clink_kinematics **pk)
{
    if (pk == NULL || *pk == NULL)
        return;
    free((*pk)->names);
    free((*pk)->data);
    free(*pk);
    *pk = NULL;
}

int clink_kinematics_rows(const clink_kinematics *k)
{
    return k != NULL ? k->rows : 0;
}

int clink_kinematics_columns(const clink_kinematics *k)
{
    return k != NULL ? k->cols : 0;
}

const char *clink_kinematics_column_name(const clink_kinematics *k, int c)
{
    return k != NULL && c >= 0 && c < k->cols ? k->names + (size_t) KIN_NAME * c : NULL;
}

const double *clink_kinematics_row(const clink_kinematics *k, int r)
{
    return k != NULL && r >= 0 && r < k->rows ? k->data + (size_t) k->cols * r : NULL;
}
