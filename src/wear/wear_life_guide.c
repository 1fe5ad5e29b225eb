/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wear_life_guide.c: the guides of translational clearance joints in the life simulation
 * (clink_wear_life, wear_life.c; docs/wear.md, "Life simulation of a guide").
 *
 * Per guide the life grids of its lower and upper surfaces (the depth per cell over the
 * guide's length, wear_guide.c) take f times the depth per observed cycle, as the bores'
 * do; the depth per cycle enters the update factor f through the guide's clearance c:
 * f <= fraction c / max w. The worn guide fed back is the low-pass of each life grid
 * (wear_guide_smooth: a Hann window of half-width one knot spacing, not periodic, its
 * weights renormalised where it passes an end of the guide) sampled at `knots` abscissae
 * equally spaced over guide_length, through clink_model_set_worn_guide. A low-passed groove
 * whose radius of curvature falls below the clearance is refused by that call, and the life
 * run stops with its reason (no fallback: the profile cannot carry it).
 * The journal's guide part of an update line: " guides G", then per guide its joint, the
 * volumes of the lower and upper surfaces and of the slider's corners, the volume off the
 * grid, the peak force, the wear work, the cells and the two life grids (17 digits).
 */
#include "wear/wear_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int wear_life_guide_init(wear_life_guide *g, const clink_model *m, const clink_wear *w, int i,
                         char *err, size_t size)
{
    clink_translational_clearance_def d;
    memset(g, 0, sizeof *g);
    g->index = i;
    g->joint = clink_wear_guide_joint(w, i);
    if (clink_model_translational_clearance(m, g->joint, &d) != CLINK_OK)
        return snprintf(err, size, "translational clearance joint %d cannot be read", g->joint), -1;
    g->clearance = d.clearance;
    g->guide_body = d.guide_body;
    g->slider_body = d.slider_body;
    memcpy(g->gp, d.guide_point, sizeof g->gp);
    memcpy(g->sp, d.slider_point, sizeof g->sp);
    double l = hypot(d.axis[0], d.axis[1]);
    g->axis[0] = d.axis[0] / l, g->axis[1] = d.axis[1] / l;
    g->wall = d.wear.wall;
    g->length = d.guide_length;
    g->n = clink_wear_guide_grid(w, i, CLINK_WEAR_LOWER, NULL);
    for (int s = 0; s < 2; s++)
        if (!(g->life[s] = calloc((size_t) g->n, sizeof(double))) ||
            !(g->cycle[s] = calloc((size_t) g->n, sizeof(double))))
            return snprintf(err, size, "out of memory"), -1;
    return 0;
}

void wear_life_guide_free(wear_life_guide *g)
{
    for (int s = 0; s < 2; s++) {
        free(g->life[s]);
        free(g->cycle[s]);
        g->life[s] = g->cycle[s] = NULL;
    }
}

/* the deepest cell of surface s's life grid (s 2: of both) */
double wear_life_guide_top(const wear_life_guide *g, int s)
{
    double top = 0.0;
    for (int k = 0; k < g->n; k++)
        for (int side = 0; side < 2; side++)
            if (s == 2 || s == side)
                top = fmax(top, g->life[side][k]);
    return top;
}

int wear_life_guide_apply(wear_life_guide *g, clink_model *m, int nknots, const char *path,
                          long done, char *err, size_t size)
{
    double top = wear_life_guide_top(g, 2);
    if (!(top < g->wall))
        return snprintf(err, size,
                        "%s: translational clearance joint %d: its guide is worn through: depth %g "
                        "m reaches the wall thickness %g m after %ld cycles",
                        path, g->joint, top, g->wall, done),
               -1;
    if (top == 0.0)
        return clink_model_set_worn_guide(m, g->joint, 0, NULL, NULL, err, size) == CLINK_OK ? 0
                                                                                             : -1;
    for (int s = 0; s < 2; s++)
        if (wear_guide_smooth(g->life[s], g->n, nknots, g->knots[s]) != 0)
            return snprintf(err, size,
                            "%s: translational clearance joint %d: its grid of %d cells is "
                            "coarser than the %d knots",
                            path, g->joint, g->n, nknots),
                   -1;
    char why[768];
    if (clink_model_set_worn_guide(m, g->joint, nknots, g->knots[0], g->knots[1], why,
                                   sizeof why) == CLINK_OK)
        return 0;
    return snprintf(err, size,
                    "%s: after %ld cycles the low-passed guide cannot be fed back: %s; give "
                    "fewer --knots (a wider low-pass)",
                    path, done, why),
           -1;
}

double wear_life_guide_rate(wear_life_guide *g, const clink_wear *w, int observe, double fraction,
                            double *fmax_out)
{
    double rate = 0.0;
    for (int s = 0; s < 2; s++) {
        clink_wear_guide_grid(w, g->index, s, g->cycle[s]);
        for (int k = 0; k < g->n; k++) {
            g->cycle[s][k] /= observe;
            rate = fmax(rate, g->cycle[s][k]);
            if (g->cycle[s][k] > 0.0)
                *fmax_out = fmin(*fmax_out, fraction * g->clearance / g->cycle[s][k]);
        }
    }
    g->rate = rate;
    return rate;
}

void wear_life_guide_add(wear_life_guide *g, const clink_wear *w, long f, int observe)
{
    for (int s = 0; s < 2; s++) {
        for (int k = 0; k < g->n; k++)
            g->life[s][k] += (double) f * g->cycle[s][k];
        g->vol[s] += (double) f * clink_wear_guide_volume(w, g->index, s) / observe;
    }
    double slider = 0.0;
    for (int c = 0; c < 4; c++)
        slider += clink_wear_guide_volume(w, g->index, CLINK_WEAR_CORNER1 + c);
    g->slider += (double) f * slider / observe;
    g->off += (double) f * clink_wear_guide_tally(w, g->index, 3) / observe;
    g->work += (double) f * clink_wear_guide_tally(w, g->index, 1) / observe;
    g->fpeak = clink_wear_guide_tally(w, g->index, 2);
}

void wear_life_guide_journal(FILE *f, const wear_life_guide *g)
{
    fprintf(f, " %d %.17g %.17g %.17g %.17g %.17g %.17g %d", g->joint, g->vol[0], g->vol[1],
            g->slider, g->off, g->fpeak, g->work, g->n);
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < g->n; k++)
            fprintf(f, " %.17g", g->life[s][k]);
}

int wear_life_guide_parse(wear_life_guide *g, char **p)
{
    char *q = *p, *e;
    double v[6];
    int id = (int) strtol(q, &e, 10);
    if (e == q || id != g->joint)
        return -1;
    for (int k = 0; k < 6; k++) {
        q = e;
        v[k] = strtod(q, &e);
        if (e == q)
            return -1;
    }
    q = e;
    int n = (int) strtol(q, &e, 10);
    if (e == q || n != g->n)
        return -1;
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < n; k++) {
            q = e;
            g->life[s][k] = strtod(q, &e);
            if (e == q)
                return -1;
        }
    g->vol[0] = v[0], g->vol[1] = v[1], g->slider = v[2], g->off = v[3];
    g->fpeak = v[4], g->work = v[5];
    *p = e;
    return 0;
}

void wear_life_guide_profile_rows(FILE *p, const wear_life_guide *g, int update, long done)
{
    for (int s = 0; s < 2; s++) {
        fprintf(p, "%d,%ld,%d,%s,%d", update, done, g->joint, s ? "guide_upper" : "guide_lower",
                g->n);
        for (int k = 0; k < g->n; k++)
            fprintf(p, ",%.9g", g->life[s][k]);
        fputc('\n', p);
    }
}

void wear_life_guide_update_row(FILE *u, const wear_life_guide *g, int update, long done,
                                long factor)
{
    fprintf(u, "%d,%ld,%ld,%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", update, done, factor,
            g->joint, g->vol[0], g->vol[1], g->slider, g->off, wear_life_guide_top(g, 0),
            wear_life_guide_top(g, 1), g->rate, g->fpeak, g->rate * (double) factor);
}

void wear_life_guide_summary(FILE *f, const wear_life_guide *g, int first)
{
    fprintf(f,
            "%s\n    {\"joint\": %d, \"volume_lower\": %.17g, \"volume_upper\": %.17g, "
            "\"volume_slider\": %.17g, \"volume_off_grid\": %.17g, \"depth_max_lower\": %.17g, "
            "\"depth_max_upper\": %.17g, \"wear_work\": %.17g}",
            first ? "" : ",", g->joint, g->vol[0], g->vol[1], g->slider, g->off,
            wear_life_guide_top(g, 0), wear_life_guide_top(g, 1), g->work);
}

/* the world position of the point p of the body at q (the ground: q 0) */
static void guide_world_point(const double q[3], const double p[2], double out[2])
{
    double c = cos(q[2]), s = sin(q[2]);
    out[0] = q[0] + c * p[0] - s * p[1];
    out[1] = q[1] + s * p[0] + c * p[1];
}

void wear_life_guide_orbit_row(FILE *f, const wear_life_guide *g, const clink_sim *sim, int update)
{
    double qg[3] = {0.0, 0.0, 0.0}, qs[3] = {0.0, 0.0, 0.0}, a[2], b[2];
    if (!f ||
        (g->guide_body > 0 && clink_sim_body_state(sim, g->guide_body, qg, NULL) != CLINK_OK) ||
        (g->slider_body > 0 && clink_sim_body_state(sim, g->slider_body, qs, NULL) != CLINK_OK))
        return;
    guide_world_point(qg, g->gp, a);
    guide_world_point(qs, g->sp, b);
    /* into the guide's frame, then along and across its axis */
    double c = cos(qg[2]), s = sin(qg[2]), dx = b[0] - a[0], dy = b[1] - a[1];
    double lx = c * dx + s * dy, ly = -s * dx + c * dy;
    fprintf(f, "%d,%d,%.9g,%.9g,%.9g,%.9g\n", update, g->joint, clink_sim_time(sim),
            lx * g->axis[0] + ly * g->axis[1], -lx * g->axis[1] + ly * g->axis[0], qs[2] - qg[2]);
}
