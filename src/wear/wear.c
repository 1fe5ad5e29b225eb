/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wear.c: Archard wear accumulated on the grids of the revolute clearance joints with a
 * <wear> (include/clink/wear.h, docs/wear.md; Archard 1953, Flores 2009).
 *
 * Each surface's depth grows at h' = k_D p v (k_D = k / H, m^2/N; p the contact pressure,
 * Pa; v the sliding speed, m/s). The pressure is Hertz's for two cylinders in line contact
 * (internal: R* = R_j R_b / (R_b - R_j)): the elliptic strip p(x) = p0 sqrt(1 - x^2 / a^2),
 * a = sqrt(4 F R* / (pi L E*)), p0 = 2 F / (pi a L). A surface point at arc distance x from
 * the contact point wears at k_D p(x) v; the strip is laid on a grid of n cells over the
 * body angle of that surface (the bearing's frame for the bore, the journal's for the
 * journal), each cell taking the strip's exact integral over it,
 *   dh_i = k_D v dt (F / L) (2 / pi) (G(u2) - G(u1)) / (R dtheta),
 *   G(u) = (u sqrt(1 - u^2) + asin u) / 2,   u = x / a clamped to [-1, 1],
 * so that the worn volume L R dtheta sum dh_i = k_D F v dt holds to rounding whatever the
 * grid (Archard's V = k_D F s). With <wear pressure="winkler"> the pressure is instead the
 * elastic (Winkler) foundation's of a layer of thickness b (Johnson 1985): p = (E* / b)
 * times the overlap of the undeformed surfaces, (a^2 - x^2) / (2 R*), so p(x) = p0 (1 -
 * x^2 / a^2) with F = (2 / 3) L (E* / b) a^3 / R*, a = (3 F R* b / (2 L E*))^(1/3),
 * p0 = 3 F / (4 a L); each cell takes (Q(u2) - Q(u1)) / (4 / 3), Q(u) = u - u^3 / 3. In time the
 * rates of two successive observations are combined by the trapezoid (each state's strip laid with
 * half the interval's weight).
 */
#include "clink/wear.h"
#include "wear/wear_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TWO_PI_ 6.283185307179586

/* the wear rate of a joint at one observed state */
typedef struct wear_sample {
    double rate;    /* k_D v F / L, m^2/s (0: no contact or no sliding) */
    double ang[2];  /* the contact's angle on the bore and on the journal, rad */
    double half[2]; /* the strip's half-width as an angle on each, rad */
    double fn;      /* normal force, N */
    double fv;      /* F v, W */
    double v;       /* sliding speed in contact, m/s */
} wear_sample;

typedef struct wear_joint {
    int joint, contact, bearing, journal;
    int winkler;  /* the pressure: 0 Hertz's ellipse, 1 the elastic foundation's parabola */
    double layer; /* the foundation's layer thickness b, m */
    double Rb, Rj, Rs, Es, L, kd;
    double sb[2], sj[2]; /* bearing and journal points, body frames */
    int n;
    double *grid[2]; /* bore, journal */
    double *dwell;   /* time in contact per bore cell, s */
    double *load;    /* the normal force's time integral per bore cell, N s */
    double work, sliding, fmax;
    wear_sample prev;
} wear_joint;

struct clink_wear {
    wear_joint *j;
    int nj;
    wear_guide **g; /* the translational clearance joints' guides (wear_guide.c) */
    int ng;
    int have_prev;
    double t_prev;
};

/* E* of a joint: its <wear> modulus or its materials; NaN when neither */
static double wear_modulus(const clink_clearance_joint_def *d)
{
    if (!isnan(d->wear.modulus))
        return d->wear.modulus;
    const clink_contact_params *p = &d->params;
    if (!(p->E1 > 0.0) || !(p->E2 > 0.0) || !isfinite(p->nu1) || !isfinite(p->nu2))
        return NAN;
    return 1.0 / ((1.0 - p->nu1 * p->nu1) / p->E1 + (1.0 - p->nu2 * p->nu2) / p->E2);
}

/* joint j's constants from its definition; 0, or -1 with err */
static int wear_joint_init(const clink_model *m, int e, int contact, wear_joint *w, char *err,
                           size_t size)
{
    clink_clearance_joint_def d;
    int id = clink_model_element_index(m, e);
    if (clink_model_clearance_joint(m, id, &d) != CLINK_OK)
        return snprintf(err, size, "clearance joint %d cannot be read", id), -1;
    memset(w, 0, sizeof *w);
    w->joint = id;
    w->contact = contact;
    w->bearing = d.bearing_body;
    w->journal = d.journal_body;
    w->Rb = d.bearing_radius;
    w->Rj = d.journal_radius;
    w->Rs = w->Rj * w->Rb / (w->Rb - w->Rj);
    w->Es = wear_modulus(&d);
    w->L = d.wear.length;
    w->kd = d.wear.kd;
    w->winkler = d.wear.pressure == CLINK_WEAR_WINKLER;
    w->layer = d.wear.layer;
    memcpy(w->sb, d.bearing_point, sizeof w->sb);
    memcpy(w->sj, d.journal_point, sizeof w->sj);
    w->n = d.wear.grid;
    if (!(w->Es > 0.0))
        return snprintf(err, size,
                        "clearance joint '%s': <wear> needs the modulus E* of its pressure "
                        "strip: give <wear modulus> or the materials of journal and bearing",
                        clink_model_element_name(m, e)),
               -1;
    for (int s = 0; s < 2; s++)
        if (!(w->grid[s] = calloc((size_t) w->n, sizeof(double))))
            return snprintf(err, size, "out of memory"), -1;
    if (!(w->dwell = calloc((size_t) w->n, sizeof(double))) ||
        !(w->load = calloc((size_t) w->n, sizeof(double))))
        return snprintf(err, size, "out of memory"), -1;
    return 0;
}

/* the guides of the translational clearance joints with wear (kd > 0), each at its first
   contact; 0, or -1 with err */
static int wear_create_guides(const clink_model *m, clink_wear *w, char *err, size_t size)
{
    int nc = clink_model_contact_count(m), last = -1;
    if (!(w->g = calloc((size_t) (nc > 0 ? nc : 1), sizeof *w->g)))
        return snprintf(err, size, "out of memory"), -1;
    for (int k = 0; k < nc; k++) {
        int e = clink_model_contact_element(m, k);
        clink_translational_clearance_def d;
        if (e == last || !clink_model_element_has_guide(m, e) ||
            clink_model_translational_clearance(m, clink_model_element_index(m, e), &d) !=
                CLINK_OK ||
            !(d.wear.kd > 0.0))
            continue;
        last = e;
        if (!(w->g[w->ng] = wear_guide_create(m, e, k, err, size)))
            return -1;
        w->ng++;
    }
    return 0;
}

clink_status clink_wear_create(const clink_model *m, clink_wear **out, char *err, size_t size)
{
    char dummy[8];
    if (!err)
        err = dummy, size = sizeof dummy;
    if (!m || !out)
        return CLINK_ERR_ARG;
    *out = NULL;
    clink_wear *w = calloc(1, sizeof *w);
    int nc = clink_model_contact_count(m);
    if (!w || !(w->j = calloc((size_t) (nc > 0 ? nc : 1), sizeof *w->j))) {
        free(w);
        return snprintf(err, size, "out of memory"), CLINK_ERR_NOMEM;
    }
    if (wear_create_guides(m, w, err, size) != 0) {
        clink_wear_destroy(&w);
        return CLINK_ERR_NOMEM;
    }
    for (int k = 0; k < nc; k++) {
        int e = clink_model_contact_element(m, k);
        clink_clearance_joint_def d;
        /* a revolute clearance joint's contact (the one that reports an eccentricity) */
        if (!clink_model_contact_has_eccentricity(m, k) ||
            clink_model_clearance_joint(m, clink_model_element_index(m, e), &d) != CLINK_OK ||
            !(d.wear.kd > 0.0))
            continue;
        if (wear_joint_init(m, e, k, &w->j[w->nj++], err, size) != 0) {
            clink_wear_destroy(&w);
            return CLINK_ERR_MODEL;
        }
    }
    if (w->nj == 0 && w->ng == 0) {
        clink_wear_destroy(&w);
        return snprintf(err, size, "no clearance joint has <wear> with kd > 0"), CLINK_ERR_MODEL;
    }
    *out = w;
    return CLINK_OK;
}

void clink_wear_destroy(clink_wear **w)
{
    if (!w || !*w)
        return;
    for (int i = 0; i < (*w)->nj; i++) {
        for (int s = 0; s < 2; s++)
            free((*w)->j[i].grid[s]);
        free((*w)->j[i].dwell);
        free((*w)->j[i].load);
    }
    free((*w)->j);
    for (int i = 0; i < (*w)->ng; i++)
        wear_guide_destroy((*w)->g[i]);
    free((*w)->g);
    free(*w);
    *w = NULL;
}

int clink_wear_count(const clink_wear *w)
{
    return w ? w->nj : 0;
}

int clink_wear_joint(const clink_wear *w, int i)
{
    return w && i >= 0 && i < w->nj ? w->j[i].joint : -1;
}

int clink_wear_contact(const clink_wear *w, int i)
{
    return w && i >= 0 && i < w->nj ? w->j[i].contact : -1;
}

void clink_wear_reset(clink_wear *w)
{
    if (!w)
        return;
    for (int i = 0; i < w->nj; i++) {
        wear_joint *j = &w->j[i];
        for (int s = 0; s < 2; s++)
            memset(j->grid[s], 0, (size_t) j->n * sizeof(double));
        memset(j->dwell, 0, (size_t) j->n * sizeof(double));
        memset(j->load, 0, (size_t) j->n * sizeof(double));
        j->work = j->sliding = j->fmax = 0.0;
    }
    for (int i = 0; i < w->ng; i++)
        wear_guide_reset(w->g[i]);
    w->have_prev = 0;
}

/* the velocity of the material point p of a body at q, v */
static void point_velocity(const double q[3], const double v[3], const double p[2], double out[2])
{
    out[0] = v[0] - v[2] * (p[1] - q[1]);
    out[1] = v[1] + v[2] * (p[0] - q[0]);
}

/* the angle of world point p about body point s of the body at q, in the body's frame */
static double body_angle(const double q[3], const double s[2], const double p[2])
{
    double c = cos(q[2]), sn = sin(q[2]);
    double o[2] = {q[0] + c * s[0] - sn * s[1], q[1] + sn * s[0] + c * s[1]};
    return atan2(p[1] - o[1], p[0] - o[0]) - q[2];
}

/* joint j's wear rate at sim's current state */
static clink_status wear_sample_of(const wear_joint *j, const clink_sim *sim, wear_sample *out)
{
    clink_contact_info c;
    double qa[3], va[3], qb[3], vb[3], wa[2], wb[2];
    memset(out, 0, sizeof *out);
    clink_status st = clink_sim_contact(sim, j->contact, &c);
    if (st != CLINK_OK)
        return st;
    if (!(c.fn > 0.0))
        return CLINK_OK;
    out->fn = c.fn;
    clink_sim_body_state(sim, j->bearing, qa, va);
    clink_sim_body_state(sim, j->journal, qb, vb);
    point_velocity(qa, va, c.point_a, wa);
    point_velocity(qb, vb, c.point_b, wb);
    double t[2] = {-c.normal[1], c.normal[0]};
    double v = fabs(t[0] * (wb[0] - wa[0]) + t[1] * (wb[1] - wa[1]));
    double a = wear_half_width(j->winkler, c.fn, j->Rs, j->L, j->Es, j->layer);
    out->rate = j->kd * v * c.fn / j->L;
    out->ang[0] = body_angle(qa, j->sb, c.point_a);
    out->ang[1] = body_angle(qb, j->sj, c.point_b);
    out->half[0] = fmin(a / j->Rb, 0.5 * TWO_PI_);
    out->half[1] = fmin(a / j->Rj, 0.5 * TWO_PI_);
    out->fv = c.fn * v;
    out->v = v;
    return CLINK_OK;
}

/* the strip's primitive, u clamped to [-1, 1]: Hertz's ellipse sqrt(1 - u^2), G(u) = (u
   sqrt(1 - u^2) + asin u) / 2 (its whole integral pi / 2), or the foundation's parabola
   1 - u^2, u - u^3 / 3 (its whole integral 4 / 3) */
static double strip_primitive(int winkler, double u)
{
    u = fmax(-1.0, fmin(1.0, u));
    if (winkler)
        return u - u * u * u / 3.0;
    return 0.5 * (u * sqrt(1.0 - u * u) + asin(u));
}

double wear_half_width(int winkler, double F, double Rs, double L, double Es, double b)
{
    if (winkler) /* the foundation: F = (2 / 3) L (E* / b) a^3 / R* */
        return cbrt(1.5 * F * Rs * b / (L * Es));
    return sqrt(4.0 * F * Rs / (3.141592653589793 * L * Es));
}

double wear_pressure(int winkler, double F, double Rs, double L, double Es, double b, double x)
{
    double a = wear_half_width(winkler, F, Rs, L, Es, b), u = x / a;
    if (!(fabs(u) < 1.0))
        return 0.0;
    if (winkler) /* p = (E* / b) (a^2 - x^2) / (2 R*) = p0 (1 - u^2), p0 = 3 F / (4 a L) */
        return Es / b * (a * a - x * x) / (2.0 * Rs);
    return 2.0 * F / (3.141592653589793 * a * L) * sqrt(1.0 - u * u);
}

/* lays q (m^2: rate times time) as the strip about angle c of half-width h on the grid g of
   n cells of radius R */
static void strip_lay(double *g, int n, int winkler, double R, double c, double h, double q)
{
    double d = TWO_PI_ / n;
    c = fmod(c, TWO_PI_);
    if (c < 0.0)
        c += TWO_PI_;
    long lo = (long) floor((c - h) / d), hi = (long) floor((c + h) / d);
    for (long i = lo; i <= hi; i++) {
        double u1 = (i * d - c) / h, u2 = ((i + 1) * d - c) / h;
        double share = (strip_primitive(winkler, u2) - strip_primitive(winkler, u1)) /
                       (winkler ? 4.0 / 3.0 : 0.5 * 3.141592653589793);
        long k = ((i % n) + n) % n;
        g[k] += q * share / (R * d);
    }
}

/* adds the weight wt (s) of sample s to joint j's grids and tallies */
static void wear_add(wear_joint *j, const wear_sample *s, double wt)
{
    if (s->fn > 0.0) { /* the dwell: the contact's time in the bore cell of its point */
        double c = fmod(s->ang[0], TWO_PI_);
        long k = (long) floor((c < 0.0 ? c + TWO_PI_ : c) / (TWO_PI_ / j->n));
        k = k < 0 ? 0 : k >= j->n ? j->n - 1 : k;
        j->dwell[k] += wt;
        j->load[k] += s->fn * wt;
    }
    if (!(s->rate > 0.0))
        return;
    double R[2] = {j->Rb, j->Rj};
    for (int k = 0; k < 2; k++)
        strip_lay(j->grid[k], j->n, j->winkler, R[k], s->ang[k], s->half[k], s->rate * wt);
    j->work += s->fv * wt;
    j->sliding += s->v * wt;
}

clink_status clink_wear_observe(clink_wear *w, const clink_sim *sim)
{
    if (!w || !sim)
        return CLINK_ERR_ARG;
    double t = clink_sim_time(sim);
    if (w->have_prev && !(t >= w->t_prev))
        return CLINK_ERR_ARG;
    for (int i = 0; i < w->nj; i++) {
        wear_joint *j = &w->j[i];
        wear_sample s;
        clink_status st = wear_sample_of(j, sim, &s);
        if (st != CLINK_OK)
            return st;
        if (w->have_prev) {
            double dt = t - w->t_prev;
            wear_add(j, &j->prev, 0.5 * dt);
            wear_add(j, &s, 0.5 * dt);
        }
        j->fmax = fmax(j->fmax, s.fn);
        j->prev = s;
    }
    for (int i = 0; i < w->ng; i++) {
        clink_status st = wear_guide_observe(w->g[i], sim, w->have_prev, t - w->t_prev);
        if (st != CLINK_OK)
            return st;
    }
    w->have_prev = 1;
    w->t_prev = t;
    return CLINK_OK;
}

int clink_wear_grid(const clink_wear *w, int i, int s, double *depth)
{
    if (!w || i < 0 || i >= w->nj || (s != CLINK_WEAR_BORE && s != CLINK_WEAR_JOURNAL))
        return 0;
    if (depth)
        memcpy(depth, w->j[i].grid[s], (size_t) w->j[i].n * sizeof(double));
    return w->j[i].n;
}

double clink_wear_volume(const clink_wear *w, int i, int s)
{
    if (!w || i < 0 || i >= w->nj || (s != CLINK_WEAR_BORE && s != CLINK_WEAR_JOURNAL))
        return NAN;
    const wear_joint *j = &w->j[i];
    double sum = 0.0, R = s == CLINK_WEAR_BORE ? j->Rb : j->Rj;
    for (int k = 0; k < j->n; k++)
        sum += j->grid[s][k];
    return sum * R * (TWO_PI_ / j->n) * j->L;
}

double clink_wear_work(const clink_wear *w, int i)
{
    return w && i >= 0 && i < w->nj ? w->j[i].work : NAN;
}

double clink_wear_sliding(const clink_wear *w, int i)
{
    return w && i >= 0 && i < w->nj ? w->j[i].sliding : NAN;
}

double clink_wear_peak_force(const clink_wear *w, int i)
{
    return w && i >= 0 && i < w->nj ? w->j[i].fmax : NAN;
}

clink_status clink_wear_smooth(const double *g, int n, int nknots, double *knots)
{
    if (!g || !knots || nknots < 8 || n < nknots)
        return CLINK_ERR_ARG;
    /* Hann window of half-width one knot spacing: w(x) = (1 + cos(pi x / D)) / 2, |x| < D,
       normalised over the cells it covers */
    double d = TWO_PI_ / n, D = TWO_PI_ / nknots;
    int m = (int) ceil(D / d);
    for (int j = 0; j < nknots; j++) {
        double c = TWO_PI_ * j / nknots, sum = 0.0, wsum = 0.0;
        long i0 = (long) floor(c / d);
        for (long i = i0 - m - 1; i <= i0 + m + 1; i++) {
            double x = (i + 0.5) * d - c;
            if (fabs(x) >= D)
                continue;
            double wt = 0.5 * (1.0 + cos(3.141592653589793 * x / D));
            sum += wt * g[((i % n) + n) % n];
            wsum += wt;
        }
        knots[j] = wsum > 0.0 ? sum / wsum : 0.0;
    }
    return CLINK_OK;
}

int clink_wear_dwell(const clink_wear *w, int i, double *seconds, double *impulse)
{
    if (!w || i < 0 || i >= w->nj)
        return 0;
    if (seconds)
        memcpy(seconds, w->j[i].dwell, (size_t) w->j[i].n * sizeof(double));
    if (impulse)
        memcpy(impulse, w->j[i].load, (size_t) w->j[i].n * sizeof(double));
    return w->j[i].n;
}

int clink_wear_guide_count(const clink_wear *w)
{
    return w ? w->ng : 0;
}

int clink_wear_guide_joint(const clink_wear *w, int i)
{
    return w && i >= 0 && i < w->ng ? wear_guide_joint(w->g[i]) : -1;
}

int clink_wear_guide_grid(const clink_wear *w, int i, int side, double *depth)
{
    return w && i >= 0 && i < w->ng ? wear_guide_grid(w->g[i], side, depth) : 0;
}

double clink_wear_guide_volume(const clink_wear *w, int i, int part)
{
    return w && i >= 0 && i < w->ng ? wear_guide_volume(w->g[i], part) : NAN;
}

double clink_wear_guide_tally(const clink_wear *w, int i, int which)
{
    return w && i >= 0 && i < w->ng && which >= 0 && which <= 3 ? wear_guide_tally(w->g[i], which)
                                                                : NAN;
}
