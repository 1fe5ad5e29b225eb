/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wear_guide.c: Archard wear of the translational clearance joints with a <wear> (the guide's
 * two surfaces; include/clink/wear.h, docs/wear.md; Archard 1953, the element of Flores,
 * Ambrosio, Claro and Lankarani 2008).
 *
 * The element's contacts are its slider's four corners, points, against the guide's lower and
 * upper surfaces (src/elements/element_translational_clearance.c). A corner's load is a point
 * load: it has no strip to spread over, and its worn volume k_D F v dt (Archard) is laid on
 * the guide cell under the contact point, a depth k_D F v dt / (L dx) (L the contact's axial
 * width, dx the cell's length along the guide). The grid has `grid` cells over the guide's
 * length, centred on guide_point along the axis; a contact beyond it is tallied (volume,
 * sliding) but laid on no cell. Each corner tallies its own worn volume (the slider's share:
 * Archard's law wears both bodies alike). In time the trapezoid of successive observations,
 * as for the revolute joints (wear.c). The depth is accumulated here; the life simulation
 * (wear_life_guide.c) feeds its low-pass back as the worn guide (clink_model_set_worn_guide).
 */
#include "clink/wear.h"
#include "wear/wear_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the rate of one corner contact at one observation */
typedef struct guide_sample {
    double rate; /* k_D F v, m^3/s (0: no contact or no sliding) */
    double x;    /* the contact point's abscissa along the guide from guide_point, m */
    double v;    /* sliding speed, m/s */
    double fn;   /* normal force, N */
} guide_sample;

struct wear_guide {
    int joint, contact, guide, slider, n;
    double kd, L, x0, dx;
    double gp[2], axis[2]; /* guide point and unit axis, guide frame */
    double *grid[2];       /* lower, upper surface depth per cell, m */
    double corner[4];      /* worn volume per corner, m^3 */
    double vol[2], off, work, sliding, fmax;
    guide_sample prev[8];
};

wear_guide *wear_guide_create(const clink_model *m, int e, int contact, char *err, size_t size)
{
    clink_translational_clearance_def d;
    int id = clink_model_element_index(m, e);
    wear_guide *g = calloc(1, sizeof *g);
    if (!g)
        return snprintf(err, size, "out of memory"), NULL;
    if (clink_model_translational_clearance(m, id, &d) != CLINK_OK) {
        free(g);
        return snprintf(err, size, "translational clearance joint %d cannot be read", id), NULL;
    }
    g->joint = id;
    g->contact = contact;
    g->guide = d.guide_body;
    g->slider = d.slider_body;
    g->kd = d.wear.kd;
    g->L = d.wear.length;
    g->n = d.wear.grid;
    g->dx = d.guide_length / g->n;
    g->x0 = -0.5 * d.guide_length;
    memcpy(g->gp, d.guide_point, sizeof g->gp);
    memcpy(g->axis, d.axis, sizeof g->axis);
    for (int s = 0; s < 2; s++)
        if (!(g->grid[s] = calloc((size_t) g->n, sizeof(double)))) {
            wear_guide_destroy(g);
            return snprintf(err, size, "out of memory"), NULL;
        }
    return g;
}

void wear_guide_destroy(wear_guide *g)
{
    if (!g)
        return;
    for (int s = 0; s < 2; s++)
        free(g->grid[s]);
    free(g);
}

void wear_guide_reset(wear_guide *g)
{
    for (int s = 0; s < 2; s++)
        memset(g->grid[s], 0, (size_t) g->n * sizeof(double));
    memset(g->corner, 0, sizeof g->corner);
    g->vol[0] = g->vol[1] = g->off = g->work = g->sliding = g->fmax = 0.0;
}

/* the velocity of the material point p of the body at q, v (the ground: 0) */
static void guide_point_velocity(const double q[3], const double v[3], const double p[2],
                                 double out[2])
{
    out[0] = v[0] - v[2] * (p[1] - q[1]);
    out[1] = v[1] + v[2] * (p[0] - q[0]);
}

/* contact i's rate at sim's state */
static clink_status guide_sample_of(const wear_guide *g, const clink_sim *sim, int i,
                                    guide_sample *out)
{
    clink_contact_info c;
    double qa[3] = {0.0, 0.0, 0.0}, va[3] = {0.0, 0.0, 0.0}, qb[3] = {0.0, 0.0, 0.0};
    double vb[3] = {0.0, 0.0, 0.0}, wa[2], wb[2];
    memset(out, 0, sizeof *out);
    clink_status st = clink_sim_contact(sim, g->contact + i, &c);
    if (st != CLINK_OK || !(c.fn > 0.0))
        return st;
    if (g->guide > 0)
        clink_sim_body_state(sim, g->guide, qa, va);
    if (g->slider > 0)
        clink_sim_body_state(sim, g->slider, qb, vb);
    /* the slip |t . (v_slider(p_B) - v_guide(p_A))| */
    guide_point_velocity(qa, va, c.point_a, wa);
    guide_point_velocity(qb, vb, c.point_b, wb);
    double t[2] = {-c.normal[1], c.normal[0]};
    out->v = fabs(t[0] * (wb[0] - wa[0]) + t[1] * (wb[1] - wa[1]));
    /* the contact point's abscissa along the guide, from guide_point */
    double cs = cos(qa[2]), sn = sin(qa[2]);
    double d[2] = {c.point_a[0] - qa[0], c.point_a[1] - qa[1]};
    double loc[2] = {cs * d[0] + sn * d[1] - g->gp[0], -sn * d[0] + cs * d[1] - g->gp[1]};
    out->fn = c.fn;
    out->rate = g->kd * c.fn * out->v;
    out->x = loc[0] * g->axis[0] + loc[1] * g->axis[1];
    return CLINK_OK;
}

/* adds the weight wt (s) of contact i's sample s */
static void guide_add(wear_guide *g, int i, const guide_sample *s, double wt)
{
    if (!(s->rate > 0.0))
        return;
    double dv = s->rate * wt;
    long k = (long) floor((s->x - g->x0) / g->dx);
    if (k >= 0 && k < g->n)
        g->grid[i % 2][k] += dv / (g->L * g->dx);
    else
        g->off += dv;
    g->vol[i % 2] += dv;
    g->corner[i / 2] += dv;
    g->work += s->fn * s->v * wt;
    g->sliding += s->v * wt;
}

clink_status wear_guide_observe(wear_guide *g, const clink_sim *sim, int have_prev, double dt)
{
    for (int i = 0; i < 8; i++) {
        guide_sample s;
        clink_status st = guide_sample_of(g, sim, i, &s);
        if (st != CLINK_OK)
            return st;
        if (have_prev) {
            guide_add(g, i, &g->prev[i], 0.5 * dt);
            guide_add(g, i, &s, 0.5 * dt);
        }
        g->fmax = fmax(g->fmax, s.fn);
        g->prev[i] = s;
    }
    return CLINK_OK;
}

int wear_guide_joint(const wear_guide *g)
{
    return g->joint;
}

int wear_guide_grid(const wear_guide *g, int side, double *depth)
{
    if (side != CLINK_WEAR_LOWER && side != CLINK_WEAR_UPPER)
        return 0;
    if (depth)
        memcpy(depth, g->grid[side], (size_t) g->n * sizeof(double));
    return g->n;
}

double wear_guide_volume(const wear_guide *g, int part)
{
    if (part == CLINK_WEAR_LOWER || part == CLINK_WEAR_UPPER)
        return g->vol[part];
    if (part >= CLINK_WEAR_CORNER1 && part < CLINK_WEAR_CORNER1 + 4)
        return g->corner[part - CLINK_WEAR_CORNER1];
    return NAN;
}

double wear_guide_tally(const wear_guide *g, int which)
{
    return which == 0 ? g->sliding : which == 1 ? g->work : which == 2 ? g->fmax : g->off;
}

int wear_guide_smooth(const double *g, int n, int nknots, double *knots)
{
    if (!g || !knots || nknots < 2 || n < nknots)
        return -1;
    /* Hann window w(x) = (1 + cos(pi x / D)) / 2, |x| < D, D one knot spacing, in units of
       the guide's length; normalised over the cells it covers (fewer at the ends) */
    double d = 1.0 / n, D = 1.0 / (nknots - 1);
    for (int j = 0; j < nknots; j++) {
        double c = (double) j / (nknots - 1), sum = 0.0, wsum = 0.0;
        for (int i = 0; i < n; i++) {
            double x = (i + 0.5) * d - c;
            if (fabs(x) >= D)
                continue;
            double wt = 0.5 * (1.0 + cos(3.141592653589793 * x / D));
            sum += wt * g[i];
            wsum += wt;
        }
        knots[j] = wsum > 0.0 ? sum / wsum : 0.0;
    }
    return 0;
}
