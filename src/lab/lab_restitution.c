/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a contact law's own damping rule reaches (include/clink/contact.h, "what
 * a law's own damping rule reaches"): the restitution the impact laboratory
 * computes for a requested e with the damping the rule sets from that e, and
 * the intervals of requested e in (0, 1] where it is within a tolerance of the
 * request: a grid of 50 requests refined at each end by bisection. Declared with
 * the laws in contact.h, computed here: the laboratory runs the impacts, and the
 * contact code depends on nothing of the laboratory.
 */
#include "clink/lab.h"

#include "contact/law_table.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { RANGE_GRID = 50 };                      /* e = 0.02, 0.04, ..., 1 */
static const double RANGE_REFINE_WIDTH = 1e-3; /* the ends of an interval, to this width */
static const double RANGE_MASS = 1.0;          /* kg, the laboratory's impact */
static const double RANGE_VELOCITY = 1.0;      /* m/s */
static const double RANGE_K_DEFAULT = 1e9;     /* N/m^n when neither K nor materials are given */

/* the parameters of the laboratory's impact: params with e, the rule's coefficients cleared */
static void range_params(const clink_contact_params *given, double e, clink_contact_params *p)
{
    if (given != NULL)
        *p = *given;
    else
        clink_contact_params_init(p);
    p->chi = NAN;
    p->c = NAN;
    p->alpha = NAN;
    p->e = e;
    if (isnan(p->K) && isnan(p->E1) && isnan(p->E2))
        p->K = RANGE_K_DEFAULT;
}

/* e_out of one impact with the rule's damping for e */
static clink_status range_impact(clink_lab *lab, const clink_law *law,
                                 const clink_contact_params *given, double e, double *e_out)
{
    clink_contact_params p;
    clink_lab_options opt;
    clink_lab_result r;
    clink_status st;

    range_params(given, e, &p);
    clink_lab_options_init(&opt);
    st = clink_lab_impact(lab, law, &p, RANGE_MASS, RANGE_VELOCITY, &opt, &r);
    if (st == CLINK_OK && !isfinite(r.e_out))
        st = CLINK_ERR_NONFINITE;
    if (st == CLINK_OK)
        *e_out = r.e_out;
    return st;
}

clink_status clink_law_achieved_restitution(const clink_law *law,
                                            const clink_contact_params *params, double e,
                                            double *e_achieved)
{
    clink_lab *lab = NULL;
    clink_status st;

    if (law == NULL || e_achieved == NULL || !(e > 0 && e <= 1))
        return CLINK_ERR_ARG;
    if (!clink_law_has_restitution_rule(law))
        return CLINK_ERR_ARG;
    st = clink_lab_create(&lab);
    if (st != CLINK_OK)
        return st;
    st = range_impact(lab, law, params, e, e_achieved);
    clink_lab_destroy(&lab);
    return st;
}

/* the search's state: the laboratory, the law, the criterion and the count of impacts */
typedef struct range_search {
    clink_lab *lab;
    const clink_law *law;
    const clink_contact_params *params;
    double tol;
    int impacts;
} range_search;

/* *meets: 1 if the rule reaches e, else 0; *error (optional) e_achieved - e */
static clink_status range_meets(range_search *s, double e, int *meets, double *error)
{
    double out = NAN;
    clink_status st = range_impact(s->lab, s->law, s->params, e, &out);

    s->impacts++;
    if (st != CLINK_OK)
        return st;
    if (error != NULL)
        *error = out - e;
    *meets = fabs(out - e) <= s->tol;
    return CLINK_OK;
}

/* the end between a request that meets the criterion (in) and one that does not (out) */
static clink_status range_refine(range_search *s, double in, double out, double *end)
{
    while (fabs(out - in) > RANGE_REFINE_WIDTH) {
        double mid = 0.5 * (in + out);
        int m = 0;
        clink_status st = range_meets(s, mid, &m, NULL);
        if (st != CLINK_OK)
            return st;
        if (m)
            in = mid;
        else
            out = mid;
    }
    *end = in;
    return CLINK_OK;
}

/* the grid: which requests meet the criterion, and the worst error */
static clink_status range_grid(range_search *s, int meets[RANGE_GRID],
                               clink_law_restitution_range *r)
{
    for (int i = 0; i < RANGE_GRID; i++) {
        double e = (double) (i + 1) / RANGE_GRID, err = 0;
        clink_status st = range_meets(s, e, &meets[i], &err);
        if (st != CLINK_OK)
            return st;
        if (i == 0 || fabs(err) > fabs(r->worst_error)) {
            r->worst_e = e;
            r->worst_error = err;
        }
    }
    return CLINK_OK;
}

clink_status clink_law_restitution_range_find(const clink_law *law,
                                              const clink_contact_params *params, double tolerance,
                                              clink_law_restitution_range *range)
{
    range_search s = {NULL, law, params, tolerance > 0 ? tolerance : CLINK_LAW_RESTITUTION_TOL, 0};
    int meets[RANGE_GRID];
    clink_status st;

    if (law == NULL || range == NULL)
        return CLINK_ERR_ARG;
    if (!clink_law_has_restitution_rule(law))
        return CLINK_ERR_ARG;
    memset(range, 0, sizeof *range);
    range->tolerance = s.tol;
    range->e_min = 1.0 / RANGE_GRID;
    range->n = params != NULL && law->n_free && !isnan(params->n) ? params->n : law->n;
    st = clink_lab_create(&s.lab);
    if (st != CLINK_OK)
        return st;
    st = range_grid(&s, meets, range);
    for (int i = 0; i < RANGE_GRID && st == CLINK_OK; i++) {
        double lo, hi;
        int j = i;

        if (!meets[i] || (i > 0 && meets[i - 1]))
            continue; /* not the start of an interval */
        while (j + 1 < RANGE_GRID && meets[j + 1])
            j++;
        lo = (double) (i + 1) / RANGE_GRID;
        hi = (double) (j + 1) / RANGE_GRID;
        if (i > 0)
            st = range_refine(&s, lo, (double) i / RANGE_GRID, &lo);
        if (st == CLINK_OK && j + 1 < RANGE_GRID)
            st = range_refine(&s, hi, (double) (j + 2) / RANGE_GRID, &hi);
        if (st == CLINK_OK && range->count < CLINK_LAW_RESTITUTION_INTERVALS) {
            range->lo[range->count] = lo;
            range->hi[range->count] = hi;
            range->count++;
        } else if (st == CLINK_OK) {
            range->more = 1;
        }
    }
    range->impacts = s.impacts;
    clink_lab_destroy(&s.lab);
    return st;
}

int clink_law_restitution_range_has(const clink_law_restitution_range *range, double e)
{
    if (range == NULL)
        return 0;
    for (int i = 0; i < range->count; i++)
        if (e >= range->lo[i] && e <= range->hi[i])
            return 1;
    return 0;
}

void clink_law_restitution_range_format(const clink_law_restitution_range *r, char *buf,
                                        size_t size)
{
    size_t used = 0;

    if (size == 0)
        return;
    buf[0] = '\0';
    if (r->count == 0) {
        snprintf(buf, size, "no e of (0, 1]");
        return;
    }
    for (int i = 0; i < r->count && used < size; i++) {
        int n =
            snprintf(buf + used, size - used, "%s[%.3g, %.3g]",
                     i == 0 ? "e in " : (i + 1 == r->count ? " and " : ", "), r->lo[i], r->hi[i]);
        if (n < 0)
            break;
        used += (size_t) n;
    }
    if (r->more && used < size)
        snprintf(buf + used, size - used, " and more");
}

int clink_law_restitution_warning(const clink_law *law, const clink_contact_params *params,
                                  double e_out, char *buf, size_t size)
{
    clink_law_restitution_range r;
    clink_law_info info;
    char range[160];
    double e = params->e;
    int hc;

    if (!clink_law_has_restitution_rule(law) || !(e > 0 && e <= 1) || !isnan(params->chi) ||
        !isnan(params->c) || !isnan(params->alpha))
        return 0;
    if (isnan(e_out) && clink_law_achieved_restitution(law, params, e, &e_out) != CLINK_OK)
        return 0;
    if (!(fabs(e_out - e) > CLINK_LAW_RESTITUTION_TOL))
        return 0;
    if (clink_law_restitution_range_find(law, params, 0, &r) != CLINK_OK)
        return 0;
    clink_law_restitution_range_format(&r, range, sizeof range);
    clink_law_get_info(law, &info);
    /* the Hunt-Crossley family (damping delta^n delta_dot) has an exact member */
    hc = info.m == info.n_default && strcmp(info.name, "gonthier-exact") != 0;
    snprintf(buf, size,
             "%s's damping rule gives e = %.4g, not the requested %.4g (more than %g off); at "
             "n = %g it reaches %s. `clink calibrate --law %s --target %.4g --mass M --velocity "
             "V` finds the damping that gives %.4g%s",
             info.name, e_out, e, r.tolerance, r.n, range, info.name, e, e,
             hc ? "; gonthier-exact is the same force with the damping that gives e exactly" : "");
    return 1;
}
