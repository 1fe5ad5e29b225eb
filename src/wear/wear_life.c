/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wear_life.c: the life simulation of a mechanism whose clearance joints wear
 * (clink_wear_life, include/clink/wear.h, docs/wear.md; the "update every k-th cycle" scheme
 * of the wear literature, Flores 2009, Mukras et al. 2010).
 *
 * Update u: the model with the bores and journals worn so far (clink_model_set_worn_bore,
 * clink_model_set_worn_pin) runs `warmup` cycles of period T, then `observe` cycles sampled
 * `samples` times a cycle (clink_wear_observe): the grids' depth per cycle w = grid / observe.
 * The factor
 *   f = min(cycles left, max(1, floor(fraction c / max w)))
 * (c the smallest radial clearance, max w over every joint, surface and cell) extrapolates:
 * the life grids take f w, f cycles are done; the worn bore and the worn pin become the
 * low-pass of their life grids at the knots (clink_wear_smooth) as periodic cubic splines.
 * So one update adds at most fraction c to any point, unless f = 1 already adds more (then
 * it says so).
 * The life grid reaching the <wear> wall thickness stops the run with an error.
 * The guides of translational clearance joints with wear take part alike (wear_life_guide.c):
 * their depth per cycle bounds f through their clearance, their low-passed grids are fed
 * back as worn guides (clink_model_set_worn_guide); their rows go to wear_guide_updates.csv
 * and wear_profile.csv, their life grids to the journal after the joints' (" guides G ...").
 *
 * Journal (dir/wear.journal): a first line naming the model, the cycles and the scheme;
 * then one line per update, written whole and flushed: u, cycles done, f, and per joint the
 * volumes, the peak force, the work and the two life grids. A resume reads every complete
 * line, checks the first against the options, and continues after the last update.
 */
#define _POSIX_C_SOURCE 200809L

#include "clink/wear.h"
#include "clink/xml.h"
#include "wear/wear_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define TWO_PI_ 6.283185307179586

void clink_wear_options_init(clink_wear_options *o)
{
    memset(o, 0, sizeof *o);
    o->cycles = 1000;
    o->warmup = 1;
    o->observe = 2;
    o->samples = 2000;
    o->knots = 36;
    o->fraction = 0.02;
    o->period = 0.0;
}

/* the life state: per joint its life grids (bore, journal), its knots and tallies */
typedef struct life_joint {
    int joint, n;
    double clearance, wall;
    double *life[2], *cycle[2];
    double knots[CLINK_WEAR_MAX_KNOTS];
    double vol[2], fpeak, work;
    double pin_scale; /* the share of the journal's wear its fed-back pin takes (1: all) */
} life_joint;

typedef struct life {
    const char *path, *dir;
    const clink_wear_options *o;
    clink_model *model;
    clink_wear *w;
    life_joint *j;
    wear_life_guide *g; /* the translational joints' guides (wear_life_guide.c) */
    int nj, ng, update;
    long done;
    double period;
    FILE *journal;
    char *err;
    size_t size;
} life;

static int life_fail(life *L, const char *fmt, const char *a, const char *b)
{
    snprintf(L->err, L->size, fmt, a, b);
    return -1;
}

/* the period of the model's constant-rate angle driver: 2 pi / |rate| */
static double driver_period(const clink_model *m)
{
    int n = clink_model_count(m, CLINK_ENTITY_DRIVER);
    for (int i = 0; i < n; i++) {
        clink_driver_def d;
        if (clink_model_driver(m, i, &d) != CLINK_OK)
            continue;
        if (d.function.type == CLINK_FUNCTION_LINEAR && d.function.c[1] != 0.0 &&
            d.target != CLINK_DRIVE_JOINT_DISPLACEMENT &&
            (d.target != CLINK_DRIVE_BODY_COORDINATE || d.coordinate == 2))
            return TWO_PI_ / fabs(d.function.c[1]);
    }
    return NAN;
}

/* the life state of the model's worn joints; 0 or -1 */
static int life_init(life *L)
{
    L->nj = clink_wear_count(L->w);
    if (!(L->j = calloc((size_t) L->nj, sizeof *L->j)))
        return life_fail(L, "%s%sout of memory", "", "");
    for (int i = 0; i < L->nj; i++) {
        life_joint *j = &L->j[i];
        clink_clearance_joint_def d;
        j->joint = clink_wear_joint(L->w, i);
        clink_model_clearance_joint(L->model, j->joint, &d);
        j->clearance = d.bearing_radius - d.journal_radius;
        j->wall = d.wear.wall;
        j->n = clink_wear_grid(L->w, i, CLINK_WEAR_BORE, NULL);
        for (int s = 0; s < 2; s++)
            if (!(j->life[s] = calloc((size_t) j->n, sizeof(double))) ||
                !(j->cycle[s] = calloc((size_t) j->n, sizeof(double))))
                return life_fail(L, "%s%sout of memory", "", "");
    }
    L->ng = clink_wear_guide_count(L->w);
    if (L->ng > 0 && !(L->g = calloc((size_t) L->ng, sizeof *L->g)))
        return life_fail(L, "%s%sout of memory", "", "");
    for (int i = 0; i < L->ng; i++)
        if (wear_life_guide_init(&L->g[i], L->model, L->w, i, L->err, L->size) != 0)
            return -1;
    return 0;
}

static void life_free(life *L)
{
    for (int i = 0; L->j && i < L->nj; i++)
        for (int s = 0; s < 2; s++) {
            free(L->j[i].life[s]);
            free(L->j[i].cycle[s]);
        }
    free(L->j);
    for (int i = 0; L->g && i < L->ng; i++)
        wear_life_guide_free(&L->g[i]);
    free(L->g);
    clink_wear_destroy(&L->w);
    clink_model_destroy(&L->model);
    if (L->journal)
        fclose(L->journal);
}

/* the worn pin of joint j's journal life grid into the model (after its bore): its knots
   times the largest scale in [0, 1] the pin admits (1 unless its flattened arc would be
   flatter than the bore's most curved, two points of contact: then the largest admissible
   scale by bisection, a function of the life grids alone, so a resumed run makes the same
   pins); the scale into j->pin_scale; 0 or -1 */
static int life_apply_pin(life *L, life_joint *j)
{
    double top = 0.0, knots[CLINK_WEAR_MAX_KNOTS], scaled[CLINK_WEAR_MAX_KNOTS];
    char why[512];
    for (int k = 0; k < j->n; k++)
        top = fmax(top, j->life[1][k]);
    j->pin_scale = 1.0;
    if (top == 0.0)
        return 0;
    if (!(top < j->wall))
        return snprintf(L->err, L->size,
                        "%s: clearance joint %d: its journal is worn through: depth %g m reaches "
                        "the wall thickness %g m after %ld cycles",
                        L->path, j->joint, top, j->wall, L->done),
               -1;
    clink_wear_smooth(j->life[1], j->n, L->o->knots, knots);
    if (clink_model_set_worn_pin(L->model, j->joint, L->o->knots, knots, why, sizeof why) ==
        CLINK_OK)
        return 0;
    double lo = 0.0, hi = 1.0;
    for (int it = 0; it < 30; it++) {
        double mid = 0.5 * (lo + hi);
        for (int k = 0; k < L->o->knots; k++)
            scaled[k] = mid * knots[k];
        if (clink_model_set_worn_pin(L->model, j->joint, L->o->knots, scaled, why, sizeof why) ==
            CLINK_OK)
            lo = mid;
        else
            hi = mid;
    }
    for (int k = 0; k < L->o->knots; k++)
        scaled[k] = lo * knots[k];
    j->pin_scale = lo;
    if (clink_model_set_worn_pin(L->model, j->joint, L->o->knots, scaled, L->err, L->size) !=
        CLINK_OK)
        return -1;
    return 0;
}

/* the worn bores and pins of the life grids into the model; 0 or -1 */
static int life_apply(life *L)
{
    for (int i = 0; i < L->nj; i++) {
        life_joint *j = &L->j[i];
        double top = 0.0;
        for (int k = 0; k < j->n; k++)
            top = fmax(top, j->life[0][k]);
        if (!(top < j->wall)) {
            snprintf(L->err, L->size,
                     "%s: clearance joint %d is worn through: depth %g m reaches the wall "
                     "thickness %g m after %ld cycles",
                     L->path, j->joint, top, j->wall, L->done);
            return -1;
        }
        clink_wear_smooth(j->life[0], j->n, L->o->knots, j->knots);
        /* the pin round while the bore is remade (the bore's check takes the pin in) */
        if (clink_model_set_worn_pin(L->model, j->joint, 0, NULL, L->err, L->size) != CLINK_OK)
            return -1;
        if (top > 0.0 && clink_model_set_worn_bore(L->model, j->joint, L->o->knots, j->knots,
                                                   L->err, L->size) != CLINK_OK)
            return -1;
        if (life_apply_pin(L, j) != 0)
            return -1;
    }
    for (int i = 0; i < L->ng; i++)
        if (wear_life_guide_apply(&L->g[i], L->model, L->o->knots, L->path, L->done, L->err,
                                  L->size) != 0)
            return -1;
    return 0;
}

/* writes the orbit sample of the journal centre in the bearing's frame: the centres from the
   bodies' states (the contact's eccentricity is rebuilt from its normal and penetration,
   which a worn bore's normal, missing the centre, and depth would not give) */
static void orbit_row(FILE *f, const life *L, const clink_sim *sim, int i, double t)
{
    double qa[3], qb[3];
    clink_clearance_joint_def d;
    if (!f)
        return;
    clink_model_clearance_joint(L->model, L->j[i].joint, &d);
    if (clink_sim_body_state(sim, d.bearing_body, qa, NULL) != CLINK_OK ||
        clink_sim_body_state(sim, d.journal_body, qb, NULL) != CLINK_OK)
        return;
    double ca = cos(qa[2]), sa = sin(qa[2]), cb = cos(qb[2]), sb = sin(qb[2]);
    double ex = qb[0] + cb * d.journal_point[0] - sb * d.journal_point[1] -
                (qa[0] + ca * d.bearing_point[0] - sa * d.bearing_point[1]);
    double ey = qb[1] + sb * d.journal_point[0] + cb * d.journal_point[1] -
                (qa[1] + sa * d.bearing_point[0] + ca * d.bearing_point[1]);
    fprintf(f, "%d,%d,%.9g,%.9g,%.9g\n", L->update, L->j[i].joint, t, ca * ex + sa * ey,
            -sa * ex + ca * ey);
}

/* advances sim to t; 0 or -1 with the simulation's message */
static int life_advance(life *L, clink_sim *sim, double t)
{
    if (clink_sim_advance(sim, t) == CLINK_OK)
        return 0;
    snprintf(L->err, L->size, "%s: update %d: %s", L->path, L->update, clink_sim_error(sim));
    return -1;
}

/* one simulation of the current model: warmup, then the observed cycles; 0 or -1 */
static int life_observe(life *L)
{
    const clink_wear_options *o = L->o;
    clink_sim *sim = NULL;
    char path[4096], gpath[4096];
    if (clink_sim_create(L->model, NULL, &sim, L->err, L->size) != CLINK_OK)
        return -1;
    clink_sim_set_outputs(sim, CLINK_OUTPUT_CONTACTS);
    snprintf(path, sizeof path, "%s/orbit_%05d.csv", L->dir, L->update);
    FILE *orb = L->nj > 0 ? fopen(path, "w") : NULL;
    if (orb)
        fprintf(orb, "update,joint,t [s],ex [m],ey [m]\n");
    snprintf(gpath, sizeof gpath, "%s/guide_orbit_%05d.csv", L->dir, L->update);
    FILE *gorb = L->ng > 0 ? fopen(gpath, "w") : NULL;
    if (gorb)
        fprintf(gorb, "update,joint,t [s],x [m],y [m],angle [rad]\n");
    double dt = L->period / o->samples, t0 = o->warmup * L->period;
    int rc = 0;
    for (long k = 1; rc == 0 && k <= (long) o->warmup * o->samples; k++)
        rc = life_advance(L, sim, k * dt);
    clink_wear_reset(L->w);
    for (long k = 0; rc == 0 && k <= (long) o->observe * o->samples; k++) {
        if (k > 0)
            rc = life_advance(L, sim, t0 + k * dt);
        if (rc == 0 && clink_wear_observe(L->w, sim) != CLINK_OK)
            rc = life_fail(L, "%s: %sthe contacts could not be observed", L->path, "");
        for (int i = 0; rc == 0 && i < L->nj && k % 10 == 0; i++)
            orbit_row(orb, L, sim, i, clink_sim_time(sim));
        for (int i = 0; rc == 0 && i < L->ng && k % 10 == 0; i++)
            wear_life_guide_orbit_row(gorb, &L->g[i], sim, L->update);
    }
    if (orb && fclose(orb) != 0 && rc == 0)
        rc = life_fail(L, "%s: %s", path, strerror(errno));
    if (gorb && fclose(gorb) != 0 && rc == 0)
        rc = life_fail(L, "%s: %s", gpath, strerror(errno));
    clink_sim_destroy(&sim);
    return rc;
}

/* the factor of this update from the observed depth per cycle (file comment) */
static long life_factor(life *L, double *rate)
{
    double f = INFINITY;
    *rate = 0.0;
    for (int i = 0; i < L->nj; i++) {
        life_joint *j = &L->j[i];
        for (int s = 0; s < 2; s++) {
            clink_wear_grid(L->w, i, s, j->cycle[s]);
            for (int k = 0; k < j->n; k++) {
                j->cycle[s][k] /= L->o->observe;
                *rate = fmax(*rate, j->cycle[s][k]);
                if (j->cycle[s][k] > 0.0)
                    f = fmin(f, L->o->fraction * j->clearance / j->cycle[s][k]);
            }
        }
    }
    for (int i = 0; i < L->ng; i++) /* the guides' rates into g->rate, not into *rate */
        wear_life_guide_rate(&L->g[i], L->w, L->o->observe, L->o->fraction, &f);
    long left = L->o->cycles - L->done;
    if (!(f < (double) left))
        return left;
    return f < 1.0 ? 1 : (long) floor(f);
}

/* one journal line of the state after an update; 0 or -1 */
static int journal_write(life *L, long factor)
{
    FILE *f = L->journal;
    fprintf(f, "update %d %ld %ld %d", L->update, L->done, factor, L->nj);
    for (int i = 0; i < L->nj; i++) {
        life_joint *j = &L->j[i];
        fprintf(f, " %d %.17g %.17g %.17g %.17g %d", j->joint, j->vol[0], j->vol[1], j->fpeak,
                j->work, j->n);
        for (int s = 0; s < 2; s++)
            for (int k = 0; k < j->n; k++)
                fprintf(f, " %.17g", j->life[s][k]);
    }
    if (L->ng > 0)
        fprintf(f, " guides %d", L->ng);
    for (int i = 0; i < L->ng; i++)
        wear_life_guide_journal(f, &L->g[i]);
    fputc('\n', f);
    if (fflush(f) != 0 || ferror(f))
        return life_fail(L, "%s/wear.journal: %s", L->dir, strerror(errno));
    return 0;
}

/* reads one update line into the state; 1 read, 0 not a complete line */
static int journal_read_line(life *L, char *line)
{
    char *p = line, *q;
    int u, nj;
    long done, factor;
    if (sscanf(p, "update %d %ld %ld %d", &u, &done, &factor, &nj) != 4 || nj != L->nj)
        return 0;
    for (int w = 0; w < 5; w++)
        p = strchr(p + 1, ' ');
    for (int i = 0; i < L->nj && p; i++) {
        life_joint *j = &L->j[i];
        double v[4];
        int id = (int) strtol(p, &q, 10), n;
        for (int k = 0; k < 4; k++)
            v[k] = strtod(q, &q);
        n = (int) strtol(q, &q, 10);
        if (id != j->joint || n != j->n)
            return 0;
        for (int s = 0; s < 2; s++)
            for (int k = 0; k < n; k++) {
                char *e;
                j->life[s][k] = strtod(q, &e);
                if (e == q)
                    return 0;
                q = e;
            }
        j->vol[0] = v[0], j->vol[1] = v[1], j->fpeak = v[2], j->work = v[3];
        p = q;
    }
    if (L->ng > 0) {
        int ng = 0, used = 0;
        if (!p || sscanf(p, " guides %d%n", &ng, &used) != 1 || ng != L->ng)
            return 0;
        p += used;
        for (int i = 0; i < L->ng; i++)
            if (wear_life_guide_parse(&L->g[i], &p) != 0)
                return 0;
    }
    L->update = u + 1;
    L->done = done;
    return 1;
}

/* the journal's first line for these options */
static void journal_tag(const life *L, char *buf, size_t size)
{
    snprintf(buf, size,
             "clink-wear 1 cycles %ld warmup %d observe %d samples %d knots %d "
             "fraction %.17g period %.17g\n",
             L->o->cycles, L->o->warmup, L->o->observe, L->o->samples, L->o->knots, L->o->fraction,
             L->period);
}

/* keeps the header and the rows of updates before `update` of the CSV file dir/name (a
   resumed run rewrites the rows of the updates it runs again); 0 or -1 */
static int csv_keep_before(life *L, const char *name, int update)
{
    char path[4096], tmp[4200], *line = NULL;
    size_t cap = 0;
    snprintf(path, sizeof path, "%s/%s", L->dir, name);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *in = fopen(path, "r"), *out = in ? fopen(tmp, "w") : NULL;
    if (!in)
        return 0;
    int first = 1, rc = 0;
    while (out && getline(&line, &cap, in) > 0) {
        if (first || atoi(line) < update)
            fputs(line, out);
        first = 0;
    }
    free(line);
    fclose(in);
    if (!out || fclose(out) != 0 || rename(tmp, path) != 0)
        rc = life_fail(L, "%s: %s", path, strerror(errno));
    return rc;
}

/* opens the journal: a new one, or the resumed state of an old one; 0 or -1 */
static int journal_open(life *L)
{
    char path[4096], tag[512];
    snprintf(path, sizeof path, "%s/wear.journal", L->dir);
    journal_tag(L, tag, sizeof tag);
    if (L->o->resume) {
        FILE *f = fopen(path, "r");
        if (!f)
            return life_fail(L, "%s: cannot resume: %s", path, strerror(errno));
        size_t cap = 0;
        char *line = NULL;
        int ok = getline(&line, &cap, f) > 0 && strcmp(line, tag) == 0;
        off_t end = ftello(f); /* the end of the last update read whole */
        while (ok && getline(&line, &cap, f) > 0)
            if (strchr(line, '\n') && journal_read_line(L, line))
                end = ftello(f);
        free(line);
        fclose(f);
        if (!ok)
            return life_fail(L,
                             "%s: cannot resume: its first line is not that of these "
                             "options (%s)",
                             path, "cycles, scheme or period differ");
        /* a line cut by a killed run, or after the last update read, is dropped: the
           updates appended next continue the journal of a run that was not cut */
        if (end >= 0 && truncate(path, end) != 0)
            return life_fail(L, "%s: cannot resume: %s", path, strerror(errno));
        if (csv_keep_before(L, "wear_updates.csv", L->update) != 0 ||
            csv_keep_before(L, "wear_profile.csv", L->update) != 0 ||
            csv_keep_before(L, "wear_guide_updates.csv", L->update) != 0)
            return -1;
    }
    L->journal = fopen(path, L->o->resume ? "a" : "w");
    if (!L->journal)
        return life_fail(L, "%s: %s", path, strerror(errno));
    if (!L->o->resume && fputs(tag, L->journal) < 0)
        return life_fail(L, "%s: %s", path, strerror(errno));
    return 0;
}

/* opens dir/name for the update's rows: anew (with its header) at the first update, else
   appended; NULL with err */
static FILE *rows_open(life *L, const char *name, const char *header)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", L->dir, name);
    FILE *f = fopen(path, L->update == 0 ? "w" : "a");
    if (!f)
        life_fail(L, "%s: %s", path, strerror(errno));
    else if (L->update == 0)
        fputs(header, f);
    return f;
}

/* closes f of dir/name; rc, or -1 with err when rc was 0 and the close failed */
static int rows_close(life *L, FILE *f, const char *name, int rc)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", L->dir, name);
    if (f && fclose(f) != 0 && rc == 0)
        rc = life_fail(L, "%s: %s", path, strerror(errno));
    return rc;
}

/* the header of wear_profile.csv: the cells' positions of the surfaces the model has */
static const char *profile_header(const life *L)
{
    if (L->ng == 0)
        return "update,cycles,joint,surface,cells,depth [m] at cell centres 2 pi (i + 1/2) / "
               "cells of the body frame...\n";
    return "update,cycles,joint,surface,cells,depth [m] at cell centres: surfaces bore and "
           "journal at the angle 2 pi (i + 1/2) / cells of the body frame (rad); guide_lower and "
           "guide_upper at x = guide_length ((i + 1/2) / cells - 1/2) along the guide's axis "
           "from guide_point (m)...\n";
}

/* the revolute joints' rows of wear_updates.csv and wear_profile.csv */
static void joint_rows(const life *L, FILE *u, FILE *p, long factor, double rate)
{
    for (int i = 0; i < L->nj; i++) {
        const life_joint *j = &L->j[i];
        double top = 0.0;
        for (int k = 0; k < j->n; k++)
            top = fmax(top, j->life[0][k]);
        fprintf(u, "%d,%ld,%ld,%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", L->update, L->done, factor,
                j->joint, j->vol[0], j->vol[1], top, rate, j->fpeak, rate * factor);
        for (int s = 0; s < 2; s++) {
            fprintf(p, "%d,%ld,%d,%s,%d", L->update, L->done, j->joint, s ? "journal" : "bore",
                    j->n);
            for (int k = 0; k < j->n; k++)
                fprintf(p, ",%.9g", j->life[s][k]);
            fputc('\n', p);
        }
    }
}

/* the update's rows: wear_updates.csv (revolute joints), wear_guide_updates.csv (guides) and
   wear_profile.csv (both), appended; 0 or -1 */
static int life_rows(life *L, long factor, double rate)
{
    static const char *gname = "wear_guide_updates.csv";
    FILE *u = NULL, *g = NULL, *p = rows_open(L, "wear_profile.csv", profile_header(L));
    int rc = p ? 0 : -1;
    if (rc == 0 && L->nj > 0 &&
        !(u = rows_open(L, "wear_updates.csv",
                        "update,cycles,factor,joint,volume_bore [m^3],volume_journal [m^3],"
                        "depth_max_bore [m],depth_per_cycle_max [m],peak_force [N],"
                        "added_max [m]\n")))
        rc = -1;
    if (rc == 0 && L->ng > 0 &&
        !(g = rows_open(L, gname,
                        "update,cycles,factor,joint,volume_lower [m^3],volume_upper [m^3],"
                        "volume_slider [m^3],volume_off_grid [m^3],depth_max_lower [m],"
                        "depth_max_upper [m],depth_per_cycle_max [m],peak_force [N],"
                        "added_max [m]\n")))
        rc = -1;
    if (rc == 0 && u)
        joint_rows(L, u, p, factor, rate);
    for (int i = 0; rc == 0 && i < L->ng; i++) {
        wear_life_guide_update_row(g, &L->g[i], L->update, L->done, factor);
        wear_life_guide_profile_rows(p, &L->g[i], L->update, L->done);
    }
    rc = rows_close(L, u, "wear_updates.csv", rc);
    rc = rows_close(L, g, gname, rc);
    return rows_close(L, p, "wear_profile.csv", rc);
}

/* the life grids and tallies of joints and guides advanced by f cycles of the observed */
static void life_extrapolate(life *L, long f)
{
    for (int i = 0; i < L->nj; i++) {
        life_joint *j = &L->j[i];
        for (int s = 0; s < 2; s++) {
            for (int k = 0; k < j->n; k++)
                j->life[s][k] += (double) f * j->cycle[s][k];
            j->vol[s] += (double) f * clink_wear_volume(L->w, i, s) / L->o->observe;
        }
        j->work += (double) f * clink_wear_work(L->w, i) / L->o->observe;
        j->fpeak = clink_wear_peak_force(L->w, i);
    }
    for (int i = 0; i < L->ng; i++)
        wear_life_guide_add(&L->g[i], L->w, f, L->o->observe);
}

/* -1 with err when f cycles wear a surface by more than its clearance */
static int life_overrun(life *L, long f)
{
    const char *tail = "the wear coefficient is too large for updates of whole cycles";
    for (int i = 0; i < L->nj; i++) {
        const life_joint *j = &L->j[i];
        double top = 0.0;
        for (int s = 0; s < 2; s++)
            for (int k = 0; k < j->n; k++)
                top = fmax(top, j->cycle[s][k]);
        if (top * (double) f > j->clearance)
            return snprintf(L->err, L->size,
                            "%s: clearance joint %d: one update of %ld cycles wears %g m, more "
                            "than the radial clearance %g m: %s",
                            L->path, j->joint, f, top * (double) f, j->clearance, tail),
                   -1;
    }
    for (int i = 0; i < L->ng; i++) {
        const wear_life_guide *g = &L->g[i];
        if (g->rate * (double) f > g->clearance)
            return snprintf(L->err, L->size,
                            "%s: translational clearance joint %d: one update of %ld cycles wears "
                            "its guide by %g m, more than the clearance %g m: %s",
                            L->path, g->joint, f, g->rate * (double) f, g->clearance, tail),
                   -1;
    }
    return 0;
}

/* the progress line: the largest share of a clearance added and the deepest point */
static void life_progress(const life *L, long f, double rate)
{
    double share = 0.0, top = 0.0;
    for (int i = 0; i < L->nj; i++) {
        share = fmax(share, rate * (double) f / L->j[i].clearance);
        for (int k = 0; k < L->j[i].n; k++)
            top = fmax(top, L->j[i].life[0][k]);
    }
    for (int i = 0; i < L->ng; i++) {
        share = fmax(share, L->g[i].rate * (double) f / L->g[i].clearance);
        top = fmax(top, wear_life_guide_top(&L->g[i], 2));
    }
    fprintf(stderr,
            "\rwear: %ld / %ld cycles (%3.0f%%), update %d, factor %ld (adds %.3g of the "
            "clearance), deepest %.3g m  ",
            L->done, L->o->cycles, 100.0 * L->done / L->o->cycles, L->update, f, share, top);
    fflush(stderr);
}

/* one update: observe, extrapolate, journal, rows; 0 or -1 */
static int life_update(life *L)
{
    if (life_apply(L) != 0 || life_observe(L) != 0)
        return -1;
    double rate;
    long f = life_factor(L, &rate);
    life_extrapolate(L, f);
    if (life_overrun(L, f) != 0)
        return -1;
    L->done += f;
    if (journal_write(L, f) != 0 || life_rows(L, f, rate) != 0)
        return -1;
    if (!L->o->quiet)
        life_progress(L, f, rate);
    L->update++;
    return 0;
}

/* dir/wear_summary.json; 0 or -1 */
static int life_summary(life *L)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/wear_summary.json", L->dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return life_fail(L, "%s: %s", path, strerror(errno));
    fprintf(f,
            "{\n  \"model\": \"%s\",\n  \"cycles\": %ld,\n  \"updates\": %d,\n  \"period\": %.17g,"
            "\n  \"fraction\": %.17g,\n  \"knots\": %d,\n  \"joints\": [",
            L->path, L->done, L->update, L->period, L->o->fraction, L->o->knots);
    for (int i = 0; i < L->nj; i++) {
        life_joint *j = &L->j[i];
        double top = 0.0;
        for (int k = 0; k < j->n; k++)
            top = fmax(top, j->life[0][k]);
        fprintf(f,
                "%s\n    {\"joint\": %d, \"volume_bore\": %.17g, \"volume_journal\": %.17g, "
                "\"depth_max_bore\": %.17g, \"wear_work\": %.17g, \"pin_scale\": %.17g}",
                i ? "," : "", j->joint, j->vol[0], j->vol[1], top, j->work, j->pin_scale);
    }
    fprintf(f, "\n  ]");
    if (L->ng > 0) {
        fprintf(f, ",\n  \"guides\": [");
        for (int i = 0; i < L->ng; i++)
            wear_life_guide_summary(f, &L->g[i], i == 0);
        fprintf(f, "\n  ]");
    }
    fprintf(f, "\n}\n");
    if (fclose(f) != 0)
        return life_fail(L, "%s: %s", path, strerror(errno));
    return 0;
}

/* the options in range; 0 or -1 */
static int life_check(life *L)
{
    const clink_wear_options *o = L->o;
    char b[64];
    snprintf(b, sizeof b, "%g", o->fraction);
    if (o->cycles < 1 || o->warmup < 0 || o->observe < 1 || o->samples < 10)
        return life_fail(L, "%s%scycles >= 1, warmup >= 0, observe >= 1, samples >= 10", "", "");
    if (!(o->fraction > 0.0 && o->fraction < 1.0))
        return life_fail(L,
                         "fraction %s is out of range; 0 < fraction < 1 (of the "
                         "clearance: one update must wear less than the clearance)%s",
                         b, "");
    if (o->knots < 8 || o->knots > CLINK_WEAR_MAX_KNOTS)
        return life_fail(L, "%s%sknots out of range; 8 .. 47", "", "");
    return 0;
}

clink_status clink_wear_life(const char *path, const char *dir, const clink_wear_options *o,
                             char *err, size_t size)
{
    life L;
    memset(&L, 0, sizeof L);
    L.path = path, L.dir = dir, L.o = o, L.err = err, L.size = size;
    if (!path || !dir || !o || !err)
        return CLINK_ERR_ARG;
    if (life_check(&L) != 0)
        return CLINK_ERR_RANGE;
    clink_status st = clink_xml_load_with(path, o->sets, o->nsets, NULL, &L.model, NULL, err, size);
    if (st != CLINK_OK)
        return st;
    L.period = o->period > 0.0 ? o->period : driver_period(L.model);
    if (!(L.period > 0.0)) {
        life_fail(&L, "%s: no constant-rate angle driver gives the cycle; give its period%s", path,
                  "");
        life_free(&L);
        return CLINK_ERR_MODEL;
    }
    if ((st = clink_wear_create(L.model, &L.w, err, size)) != CLINK_OK) {
        char m[512];
        snprintf(m, sizeof m, "%s", err);
        snprintf(err, size, "%s: %s", path, m);
        life_free(&L);
        return st;
    }
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        life_fail(&L, "%s: %s", dir, strerror(errno));
        life_free(&L);
        return CLINK_ERR_IO;
    }
    int rc = life_init(&L) != 0 || journal_open(&L) != 0 ? -1 : 0;
    while (rc == 0 && L.done < o->cycles)
        rc = life_update(&L);
    if (!o->quiet)
        fputc('\n', stderr);
    if (rc == 0)
        rc = life_apply(&L) != 0 || life_summary(&L) != 0 ? -1 : 0;
    life_free(&L);
    return rc == 0 ? CLINK_OK : CLINK_ERR_SOLVER;
}
