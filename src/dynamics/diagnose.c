/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * diagnose.c: which constraint rows lose rank, and the messages that name them.
 *
 * Gram-Schmidt on the rows of Phi_q, in order: row r minus its projections on
 * the orthonormal basis of the rows before it leaves a remainder of norm
 * |J_r| sin(theta_r), theta_r the angle between row r and their span. A
 * remainder at most 1e-9 of |J_r| is a dependent row (redundant constraints, or
 * a singular position where the rows lose rank); the independent row with the
 * smallest sin(theta_r) is the one closest to dependence, named when a
 * factorisation finds the matrix singular without an exactly dependent row (a
 * toggle or dead-centre position) or when the Newton projection of the
 * positions fails near one.
 */
#include "dynamics/dyn_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* rows within this sine of the span of the rows before them: a singular position */
#define DYN_NEAR_SINGULAR_SINE 1e-3

/* "joint 3 'B' equation 1" or "driver 0 'motor'": the owner of constraint row r */
static void row_name(const dyn_system *s, int r, char *buf, size_t size)
{
    int owner = kin_row_owner(s->m, r);
    if (owner >= 0)
        snprintf(buf, size, "joint %d '%s' equation %d", owner, s->m->d.joints[owner].name,
                 r - s->m->joint_row[owner]);
    else
        snprintf(buf, size, "driver %d '%s'", -1 - owner, s->m->d.drivers[-1 - owner].name);
}

/* appends the name of row r to list (", " between names) when it fits */
static void list_row(const dyn_system *s, int r, int ndep, char *list, size_t list_size,
                     size_t *used)
{
    char one[200];
    size_t len = 0;
    if (ndep && list_size > 2) {
        snprintf(one, sizeof one, ", ");
        len = 2;
    }
    row_name(s, r, one + len, sizeof one - len);
    if (*used + strlen(one) + 1 < list_size) {
        strcat(list, one);
        *used += strlen(one);
    }
}

/*
 * Gram-Schmidt on the rows of Phi_q in s->jac: lists in list the rows that depend
 * on the rows before them (within 1e-9 of their span, relative) and returns how
 * many; *weak and *sine receive the independent row closest to the span of the
 * rows before it and the sine of its angle to that span (-1 and 1 if none, or if
 * the rows do not fit in memory).
 */
static int row_dependence(const dyn_system *s, char *list, size_t list_size, int *weak,
                          double *sine)
{
    int nq = s->nq, nc = s->nc;
    double *basis = calloc((size_t) nc * (size_t) nq + 1, sizeof(double));
    size_t used = 0;
    int ndep = 0;
    *weak = -1;
    *sine = 1.0;
    if (list_size > 0)
        list[0] = '\0';
    if (!basis)
        return 0;
    for (int r = 0; r < nc; r++) {
        double *row = basis + (size_t) r * nq;
        for (int slot = 0; slot < 6; slot++) {
            int body = slot < 3 ? s->row_a[r] : s->row_b[r];
            if (body > 0)
                row[3 * (body - 1) + slot % 3] =
                    slot < 3 ? s->jac[r].ja[slot % 3] : s->jac[r].jb[slot % 3];
        }
        double norm0 = 0.0;
        for (int c = 0; c < nq; c++)
            norm0 += row[c] * row[c];
        norm0 = sqrt(norm0);
        for (int k = 0; k < r; k++) {
            const double *bk = basis + (size_t) k * nq;
            double dot = 0.0;
            for (int c = 0; c < nq; c++)
                dot += bk[c] * row[c];
            for (int c = 0; c < nq; c++)
                row[c] -= dot * bk[c];
        }
        double norm = 0.0;
        for (int c = 0; c < nq; c++)
            norm += row[c] * row[c];
        norm = sqrt(norm);
        if (norm <= 1e-9 * (norm0 > 0.0 ? norm0 : 1.0)) {
            for (int c = 0; c < nq; c++)
                row[c] = 0.0;
            list_row(s, r, ndep, list, list_size, &used);
            ndep++;
        } else {
            if (r > 0 && norm0 > 0.0 && norm / norm0 < *sine) {
                *sine = norm / norm0;
                *weak = r;
            }
            for (int c = 0; c < nq; c++)
                row[c] /= norm;
        }
    }
    free(basis);
    return ndep;
}

/*
 * Names the constraint rows that depend on earlier ones: structurally redundant
 * constraints, or a singular position (a toggle or dead-centre position, where
 * the rows are independent elsewhere but lose rank here)
 */
void dyn_explain_singular(dyn_system *s, double t)
{
    char list[320], weak_name[200];
    int weak;
    double sine;
    int ndep = row_dependence(s, list, sizeof list, &weak, &sine);
    double ratio = s->ops->pivot_ratio(s);
    if (ndep > 0) {
        dyn_set_msg(s,
                    "redundant or singular constraints at t = %.9g s: %s depends on the "
                    "constraints before it",
                    t, list);
    } else if (weak >= 0) {
        row_name(s, weak, weak_name, sizeof weak_name);
        dyn_set_msg(s,
                    "singular position at t = %.9g s (a toggle or dead-centre position: the "
                    "constraints lose rank here): %s is within an angle of %.2g rad of the "
                    "constraints before it (reciprocal pivot ratio %.3g)",
                    t, weak_name, asin(fmin(sine, 1.0)), ratio);
    } else {
        dyn_set_msg(s, "singular saddle-point matrix at t = %.9g s (reciprocal pivot ratio %.3g)",
                    t, ratio);
    }
}

/*
 * The message of a Newton projection that did not converge (s->jac holds Phi_q at
 * the last iterate): near a singular position the rows of Phi_q are close to
 * dependent, Newton converges slowly or not at all, and the message says so.
 */
void dyn_assembly_failed(dyn_system *s, double t, double worst, int it)
{
    char list[320], weak_name[200];
    int weak;
    double sine;
    int ndep = row_dependence(s, list, sizeof list, &weak, &sine);
    if (ndep > 0)
        dyn_set_msg(s,
                    "positions could not be assembled at t = %.9g s: max |Phi| = %.3g after %d "
                    "Newton iterations at a singular position: %s depends on the constraints "
                    "before it",
                    t, worst, it, list);
    else if (weak >= 0 && sine < DYN_NEAR_SINGULAR_SINE) {
        row_name(s, weak, weak_name, sizeof weak_name);
        dyn_set_msg(s,
                    "positions could not be assembled at t = %.9g s: max |Phi| = %.3g after %d "
                    "Newton iterations at a singular position (a toggle or dead-centre "
                    "position: the constraints lose rank here): %s is within an angle of %.2g "
                    "rad of the constraints before it",
                    t, worst, it, weak_name, asin(sine));
    } else
        dyn_set_msg(s,
                    "positions could not be assembled at t = %.9g s: max |Phi| = %.3g after %d "
                    "Newton iterations",
                    t, worst, it);
}

int dyn_dependent_rows(dyn_system *s, double t, const double *q, char *list, size_t size)
{
    int weak;
    double sine;
    if (size > 0)
        list[0] = '\0';
    if (s->nc == 0)
        return 0;
    dyn_kin_eval(s, t, q, NULL, NULL, s->jac, NULL, NULL);
    s->have_fact = 0; /* s->jac no longer matches the factorisation's state */
    return row_dependence(s, list, size, &weak, &sine);
}
