/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * element_revolute_clearance.c: the revolute joint with radial clearance, a journal
 * (circle of radius R_j on journal_body) inside a bearing (bore of radius R_b > R_j on
 * bearing_body): one contact, the bore as shape A (Flores and Ambrosio 2004).
 *
 * Internal contact: with e = c_journal - c_bearing, delta = |e| - (R_b - R_j)
 * (src/kinematics/contact_geometry.h); the eccentricity e is in clink_contact_info.
 * Stiffness from materials: the internal-contact Hertz form with R1 = R_j and
 * R2 = -R_b, K = 4 / (3 (s1 + s2)) sqrt(R_j R_b / (R_b - R_j))
 * (clink_contact_stiffness_journal_bearing); the radii of curvature params.R1, R2 (read
 * by the elastoplastic laws) default to R_j and -R_b (concave).
 *
 * A lubricated joint (clink_lubrication_def: viscosity > 0) has five outputs: the
 * eccentricity ratio eps = |e| / c and the minimum film thickness h_min = c - |e| (m,
 * negative when the journal is into the bore) from the poses; and from the forces at the
 * output's state (element_forces) the film force on the journal, F_x and F_y in the world
 * frame (N), and the dry contact's share of the joint's force, |F_dry| / (|F_dry| +
 * |F_film|) in [0, 1] (0 when both vanish). Its film force is its extra force (below; applied by
 * src/contacts/contacts_extra.c).
 */
#include "contact/lubrication.h"
#include "elements/element.h"
#include "kinematics/contact_profile.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void rev_bodies(const element_def *u, int *a, int *b)
{
    *a = u->revolute_clearance.journal_body;
    *b = u->revolute_clearance.bearing_body;
}

/* the film's parameters (a lubricated joint only): mu, L > 0, a known theory, transition
   in (0, 1) */
static clink_status lub_check(const clink_lubrication_def *l, const char *name, char *msg,
                              size_t size)
{
    if (l->viscosity == 0.0)
        return CLINK_OK;
    if (!(l->viscosity > 0.0) || !isfinite(l->viscosity))
        return snprintf(msg, size, "clearance joint '%s': viscosity %g Pa s is out of range; > 0",
                        name, l->viscosity),
               CLINK_ERR_RANGE;
    if (!(l->length > 0.0) || !isfinite(l->length))
        return snprintf(msg, size, "clearance joint '%s': bearing length %g m is out of range; > 0",
                        name, l->length),
               CLINK_ERR_RANGE;
    if (l->theory != CLINK_LUBRICATION_SHORT && l->theory != CLINK_LUBRICATION_LONG)
        return snprintf(msg, size, "clearance joint '%s': unknown lubrication theory %d", name,
                        l->theory),
               CLINK_ERR_RANGE;
    if (l->film != CLINK_LUBRICATION_FILM_GUMBEL && l->film != CLINK_LUBRICATION_FILM_PI)
        return snprintf(msg, size, "clearance joint '%s': unknown lubrication film %d", name,
                        l->film),
               CLINK_ERR_RANGE;
    if (l->jacobian != CLINK_LUBRICATION_JACOBIAN_DIFFERENCES &&
        l->jacobian != CLINK_LUBRICATION_JACOBIAN_ANALYTIC)
        return snprintf(msg, size, "clearance joint '%s': unknown lubrication jacobian %d", name,
                        l->jacobian),
               CLINK_ERR_RANGE;
    if (!(l->transition > 0.0 && l->transition < 1.0))
        return snprintf(msg, size,
                        "clearance joint '%s': transition %g is out of range; 0 < transition < 1",
                        name, l->transition),
               CLINK_ERR_RANGE;
    return CLINK_OK;
}

/* Archard wear (clink_wear_def, docs/wear.md): coefficient >= 0 and, with wear, a length,
   a grid, a modulus and a wall that make sense; the worn depth >= 0 and short of the wall */
static clink_status wear_check(const clink_wear_def *w, const char *name, char *msg, size_t size)
{
    if (!(w->kd >= 0.0) || !isfinite(w->kd))
        return snprintf(msg, size,
                        "clearance joint '%s': wear coefficient k/H = %g m^2/N is out "
                        "of range; >= 0",
                        name, w->kd),
               CLINK_ERR_RANGE;
    if (w->nknots != 0 && (w->nknots < 8 || w->nknots > CLINK_WEAR_MAX_KNOTS))
        return snprintf(msg, size, "clearance joint '%s': %d wear profile knots; 8 .. %d", name,
                        w->nknots, CLINK_WEAR_MAX_KNOTS),
               CLINK_ERR_RANGE;
    if (!(w->wall > 0.0))
        return snprintf(msg, size, "clearance joint '%s': wall thickness %g m is out of range; > 0",
                        name, w->wall),
               CLINK_ERR_RANGE;
    if (w->pin_nknots != 0 && (w->pin_nknots < 8 || w->pin_nknots > CLINK_WEAR_MAX_KNOTS))
        return snprintf(msg, size, "clearance joint '%s': %d worn pin knots; 8 .. %d", name,
                        w->pin_nknots, CLINK_WEAR_MAX_KNOTS),
               CLINK_ERR_RANGE;
    for (int i = 0; i < w->pin_nknots; i++)
        if (!(w->pin_depth[i] >= 0.0) || !(w->pin_depth[i] < w->wall))
            return snprintf(msg, size,
                            "clearance joint '%s': worn pin depth %g m at knot %d is out of "
                            "range; 0 <= depth < wall thickness %g m",
                            name, w->pin_depth[i], i, w->wall),
                   CLINK_ERR_RANGE;
    for (int i = 0; i < w->nknots; i++)
        if (!(w->depth[i] >= 0.0) || !(w->depth[i] < w->wall))
            return snprintf(msg, size,
                            "clearance joint '%s': worn depth %g m at knot %d is out of range; "
                            "0 <= depth < wall thickness %g m",
                            name, w->depth[i], i, w->wall),
                   CLINK_ERR_RANGE;
    if (w->kd == 0.0)
        return CLINK_OK;
    if (!(w->length > 0.0) || !isfinite(w->length))
        return snprintf(msg, size,
                        "clearance joint '%s': wear length %g m is out of range; > 0 (the "
                        "bearing's axial length)",
                        name, w->length),
               CLINK_ERR_RANGE;
    if (w->grid < 16 || w->grid > 100000)
        return snprintf(msg, size, "clearance joint '%s': wear grid of %d cells; 16 .. 100000",
                        name, w->grid),
               CLINK_ERR_RANGE;
    if (w->pressure != CLINK_WEAR_HERTZ && w->pressure != CLINK_WEAR_WINKLER)
        return snprintf(msg, size, "clearance joint '%s': unknown wear pressure %d", name,
                        w->pressure),
               CLINK_ERR_RANGE;
    if (w->pressure == CLINK_WEAR_WINKLER && !(w->layer > 0.0 && isfinite(w->layer)))
        return snprintf(msg, size,
                        "clearance joint '%s': wear layer %g m is out of range; > 0 (the elastic "
                        "foundation's thickness)",
                        name, w->layer),
               CLINK_ERR_RANGE;
    if (!isnan(w->modulus) && !(w->modulus > 0.0 && isfinite(w->modulus)))
        return snprintf(msg, size, "clearance joint '%s': wear modulus %g Pa is out of range; > 0",
                        name, w->modulus),
               CLINK_ERR_RANGE;
    return CLINK_OK;
}

/* a given worn pin (wear.pin_depth) in a bore whose smallest radius of curvature is rho: a
   convex pin, its radius of curvature everywhere below rho (one point of contact) */
static clink_status worn_pin_check(const clink_clearance_joint_def *d, double rho, const char *name,
                                   char *msg, size_t size)
{
    clink_profile_def p;
    if (d->wear.pin_nknots == 0)
        return CLINK_OK;
    for (int i = 0; i < d->wear.pin_nknots; i++)
        if (!(d->wear.pin_depth[i] < d->journal_radius))
            return snprintf(msg, size,
                            "clearance joint '%s': worn pin depth %g m at knot %d reaches the "
                            "journal radius %g m",
                            name, d->wear.pin_depth[i], i, d->journal_radius),
                   CLINK_ERR_RANGE;
    kinematics_worn_pin_profile(&p, d->journal_radius, d->wear.pin_nknots, d->wear.pin_depth);
    double rp = kinematics_worn_pin_max_radius(&p);
    if (!(rp < rho))
        return snprintf(msg, size,
                        "clearance joint '%s': the worn pin's largest radius of curvature %g m "
                        "reaches the bore's smallest %g m (the pin would rest on two points, or "
                        "it is not convex); use fewer knots or smaller updates",
                        name, rp, rho),
               CLINK_ERR_RANGE;
    return CLINK_OK;
}

/* a given worn bore (wear.depth): a surface the journal touches at one point */
static clink_status worn_check(const clink_clearance_joint_def *d, const char *name, char *msg,
                               size_t size)
{
    clink_profile_def p;
    if (d->wear.nknots == 0)
        return worn_pin_check(d, d->bearing_radius, name, msg, size);
    kinematics_worn_bore_profile(&p, d->bearing_radius, d->wear.nknots, d->wear.depth);
    double rho = kinematics_worn_bore_min_radius(&p);
    if (!(rho > d->journal_radius))
        return snprintf(msg, size,
                        "clearance joint '%s': the worn bore's smallest radius of curvature %g "
                        "m is below the journal radius %g m (the journal would bridge the "
                        "groove)",
                        name, rho, d->journal_radius),
               CLINK_ERR_RANGE;
    return worn_pin_check(d, rho, name, msg, size);
}

static clink_status rev_check(element_def *u, const char *name, char *msg, size_t size)
{
    const clink_clearance_joint_def *d = &u->revolute_clearance;
    if (!element_finite2(d->journal_point) || !element_finite2(d->bearing_point) ||
        !isfinite(d->journal_radius) || !isfinite(d->bearing_radius))
        return snprintf(msg, size, "clearance joint '%s': non-finite point or radius", name),
               CLINK_ERR_RANGE;
    if (!(d->journal_radius > 0.0))
        return snprintf(msg, size, "clearance joint '%s': journal radius %g m is out of range; > 0",
                        name, d->journal_radius),
               CLINK_ERR_RANGE;
    if (!(d->bearing_radius - d->journal_radius > 0.0))
        return snprintf(msg, size,
                        "clearance joint '%s': clearance %g m (bearing radius %g m - journal "
                        "radius %g m) is out of range; clearance > 0",
                        name, d->bearing_radius - d->journal_radius, d->bearing_radius,
                        d->journal_radius),
               CLINK_ERR_RANGE;
    clink_status st = lub_check(&d->lubrication, name, msg, size);
    if (st == CLINK_OK)
        st = wear_check(&d->wear, name, msg, size);
    return st != CLINK_OK ? st : worn_check(d, name, msg, size);
}

static element_stiffness rev_radii(const element_def *u, double R[4])
{
    R[0] = u->revolute_clearance.journal_radius;
    R[1] = -u->revolute_clearance.bearing_radius;
    R[2] = u->revolute_clearance.journal_radius;
    R[3] = u->revolute_clearance.bearing_radius;
    return ELEMENT_STIFFNESS_INTERNAL;
}

static int rev_ncontacts(const element_def *u)
{
    (void) u;
    return 1;
}

static void rev_expand(const element_def *u, element_contact *out)
{
    const clink_clearance_joint_def *d = &u->revolute_clearance;
    out->body_a = d->bearing_body;
    out->body_b = d->journal_body;
    out->sa.type = CLINK_SHAPE_BORE;
    memcpy(out->sa.a, d->bearing_point, sizeof out->sa.a);
    out->sa.radius = d->bearing_radius;
    if (d->wear.nknots > 0) /* the worn bore: radius + depth on the knots (docs/wear.md) */
        kinematics_worn_bore_profile(&out->sa.profile, d->bearing_radius, d->wear.nknots,
                                     d->wear.depth);
    out->sb.type = CLINK_SHAPE_CIRCLE;
    memcpy(out->sb.a, d->journal_point, sizeof out->sb.a);
    out->sb.radius = d->journal_radius;
    if (d->wear.pin_nknots > 0) /* the worn pin: radius - depth on its knots (docs/wear.md) */
        kinematics_worn_pin_profile(&out->sb.profile, d->journal_radius, d->wear.pin_nknots,
                                    d->wear.pin_depth);
}

static const char *const rev_output_names[] = {"eccentricity_ratio", "film_min", "film_Fx",
                                               "film_Fy", "dry_share"};
static const char *const rev_output_units[] = {"-", "m", "N", "N", "-"};

/* a lubricated joint's outputs (the file comment); a dry joint has none */
static int rev_output_count(const element_def *u)
{
    return u->revolute_clearance.lubrication.viscosity > 0.0 ? 5 : 0;
}

/* the outputs from the forces: film force (world frame) and the dry share */
static void rev_force_outputs(const element_def *u, const element_forces *f, double *values)
{
    (void) u;
    double dry = hypot(f->dry[0], f->dry[1]), film = hypot(f->film[0], f->film[1]);
    values[2] = f->film[0];
    values[3] = f->film[1];
    values[4] = dry + film > 0.0 ? dry / (dry + film) : 0.0;
}

/* the centre of the circle at body coordinates s on the body at pose q, m */
static void rev_centre(const double q[3], const double s[2], double out[2])
{
    double cs = cos(q[2]), sn = sin(q[2]);
    out[0] = q[0] + cs * s[0] - sn * s[1];
    out[1] = q[1] + sn * s[0] + cs * s[1];
}

static void rev_outputs(const element_def *u, const double qa[3], const double qb[3],
                        double *values)
{
    const clink_clearance_joint_def *d = &u->revolute_clearance;
    double cj[2], cb[2], c = d->bearing_radius - d->journal_radius;
    rev_centre(qa, d->journal_point, cj);
    rev_centre(qb, d->bearing_point, cb);
    double e = hypot(cj[0] - cb[0], cj[1] - cb[1]);
    values[0] = e / c;
    values[1] = c - e;
}

/* the ideal revolute joint at positions q (start="ideal", src/system/system_ideal.c): between
   the bearing's point s_b + A_b^T e and the journal's point s_j, e = c_j - c_b the
   eccentricity at q, or s_b itself when centred (the journal centred) */
static void rev_ideal_joint(const element_def *u, const double *q, int centred, clink_joint_def *j)
{
    const clink_clearance_joint_def *d = &u->revolute_clearance;
    const double *qb = d->bearing_body > 0 ? q + 3 * (d->bearing_body - 1) : NULL;
    double cj[2], cb[2], phi = qb ? qb[2] : 0.0;
    element_world_point(q, d->journal_body, d->journal_point, cj);
    element_world_point(q, d->bearing_body, d->bearing_point, cb);
    double e[2] = {centred ? 0.0 : cj[0] - cb[0], centred ? 0.0 : cj[1] - cb[1]};
    j->type = CLINK_JOINT_REVOLUTE;
    j->body_a = d->bearing_body;
    j->body_b = d->journal_body;
    /* s_b + A_b^T e */
    j->point_a[0] = d->bearing_point[0] + cos(phi) * e[0] + sin(phi) * e[1];
    j->point_a[1] = d->bearing_point[1] - sin(phi) * e[0] + cos(phi) * e[1];
    memcpy(j->point_b, d->journal_point, sizeof j->point_b);
}

/* centring the journal moves it by up to the radial clearance */
static void rev_centring(const element_def *u, double *move, double *tilt)
{
    *move = u->revolute_clearance.bearing_radius - u->revolute_clearance.journal_radius;
    *tilt = 0.0;
}

/* ---- the oil film of a lubricated joint: its extra force (element_class.extra_force) ----
 *
 * After Flores, Ambrosio, Claro and Lankarani (2006, 2009) and Flores and Lankarani (2012);
 * docs/contact-mechanics.md, "Lubricated clearance joints". The contact set applies it to the
 * two bodies and differentiates it through their kinematics (src/contacts/contacts_extra.c);
 * here is what the film is, from the centres' relative motion. With A the bearing (bore
 * centre c_A) and B the journal (centre c_B), e = c_B - c_A, its rate e', the clearance c and
 * the journal radius R:
 *   eps = |e| / c,   eps' = (e . e') / (|e| c),   gamma' = (e x e') / |e|^2,
 *   Omega = omega_A + omega_B - 2 gamma',
 * and the short- or long-bearing force (src/contact/lubrication.c) F_r along n = e / |e|,
 * F_t along t = n turned by +90 degrees, acts on B at c_B and its opposite on A at c_A. The
 * film holds eps at the transition ratio eps_t beyond it: the force is continuous everywhere
 * and finite as eps -> 1; the joint's dry law acts, as in a dry joint, once |e| > c. At
 * |e| = 0 the limit along e' is taken (lubrication_centre: a pure squeeze); the film is not
 * differentiable there (its gamma' terms are homogeneous of degree 1 in e), and its slopes
 * take -k I in e' and the wedge term's linear part in e.
 *
 * Slopes (the analytic Jacobian, the joint's default, clink_lubrication_jacobian):
 * dF/d(eps, eps', Omega) of the bearing formula by the chain rule through
 *   d eps / de = n / c (0 beyond eps_t),  d eps' / de = (t . e') t / (|e| c),
 *   d eps' / de' = n / c,  d gamma' / de = J^T e' / |e|^2 - 2 gamma' n / |e|,
 *   d gamma' / de' = t / |e|,  dn / de = t t^T / |e|,  dt / de = -n t^T / |e|.
 * The force has a kink at eps = eps_t (its eps-derivative drops to 0): the slopes take the
 * side the state is on.
 */

/* the film's constants of joint d */
typedef struct film_par {
    double mu, L, R, c, trans;
    int theory;
} film_par;

static film_par film_par_of(const clink_clearance_joint_def *d)
{
    film_par l;
    l.mu = d->lubrication.viscosity;
    l.L = d->lubrication.length;
    l.R = d->journal_radius;
    l.c = d->bearing_radius - d->journal_radius;
    l.trans = d->lubrication.transition;
    l.theory = d->lubrication.theory == CLINK_LUBRICATION_SHORT &&
                       d->lubrication.film == CLINK_LUBRICATION_FILM_PI
                   ? LUBRICATION_SHORT_PI
                   : d->lubrication.theory;
    return l;
}

/* d f / d(e, e', omega) from the bearing's dF / d(eps, eps', Omega) (the file comment) */
static void film_slopes(const film_par *l, const element_centres *s, double d,
                        const lubrication_force *F, int held, element_extra *o)
{
    double n[2] = {s->e[0] / d, s->e[1] / d}, t[2] = {-n[1], n[0]};
    double tv = t[0] * s->ed[0] + t[1] * s->ed[1], gd = tv / d;
    double deps[2], depsd_e[2], dgam_e[2];
    for (int j = 0; j < 2; j++) {
        deps[j] = held ? 0.0 : n[j] / l->c;
        depsd_e[j] = tv * t[j] / (d * l->c);
    }
    dgam_e[0] = s->ed[1] / (d * d) - 2.0 * gd * n[0] / d;
    dgam_e[1] = -s->ed[0] / (d * d) - 2.0 * gd * n[1] / d;
    double dFe[2][2], dFed[2][2];
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            dFe[i][j] =
                F->dF[i][0] * deps[j] + F->dF[i][1] * depsd_e[j] - 2.0 * F->dF[i][2] * dgam_e[j];
            dFed[i][j] = F->dF[i][1] * n[j] / l->c - 2.0 * F->dF[i][2] * t[j] / d;
        }
    for (int i = 0; i < 2; i++) {
        for (int j = 0; j < 2; j++) {
            /* f = F_r n + F_t t with dn/de = t t^T / d, dt/de = -n t^T / d */
            o->fe[i][j] =
                n[i] * dFe[0][j] + t[i] * dFe[1][j] + (F->F[0] * t[i] - F->F[1] * n[i]) * t[j] / d;
            o->fed[i][j] = n[i] * dFed[0][j] + t[i] * dFed[1][j];
        }
        o->fw[i] = n[i] * F->dF[0][2] + t[i] * F->dF[1][2];
    }
}

/* the film at s into o->f, and its slopes when slopes; 0 or -1 */
static int rev_film(const element_def *u, const element_centres *s, int slopes, element_extra *o)
{
    film_par par = film_par_of(&u->revolute_clearance);
    const film_par *l = &par;
    double d = hypot(s->e[0], s->e[1]);
    if (slopes)
        memset(o, 0, sizeof *o);
    if (d == 0.0) {
        /* concentric: the limit along e', a pure squeeze */
        lubrication_centre(l->theory, l->mu, l->R, l->L, l->c, s->ed, o->f);
        if (slopes) {
            /* d f / de' = -k I; d f / de: the wedge term's linear part, dF_t/d eps Omega J / c
               (the rest of the film is not differentiable at the centre) */
            double one[2] = {1.0, 0.0}, k[2];
            lubrication_force F0;
            lubrication_centre(l->theory, l->mu, l->R, l->L, l->c, one, k);
            o->fed[0][0] = o->fed[1][1] = k[0];
            if (lubrication_film(l->theory, l->mu, l->R, l->L, l->c, 0.0, 0.0, s->wa + s->wb,
                                 &F0) != 0)
                return -1;
            o->fe[0][1] = -F0.dF[1][0] / l->c;
            o->fe[1][0] = F0.dF[1][0] / l->c;
        }
        return isfinite(o->f[0]) && isfinite(o->f[1]) ? 0 : -1;
    }
    double n[2] = {s->e[0] / d, s->e[1] / d}, t[2] = {-s->e[1] / d, s->e[0] / d};
    double eps = d / l->c;
    double eps_dot = (n[0] * s->ed[0] + n[1] * s->ed[1]) / l->c;
    double gamma_dot = (s->e[0] * s->ed[1] - s->e[1] * s->ed[0]) / (d * d);
    double Omega = s->wa + s->wb - 2.0 * gamma_dot;
    int held = eps > l->trans;
    if (held)
        eps = l->trans;
    lubrication_force F;
    if (lubrication_film(l->theory, l->mu, l->R, l->L, l->c, eps, eps_dot, Omega, &F) != 0)
        return -1;
    o->f[0] = F.F[0] * n[0] + F.F[1] * t[0];
    o->f[1] = F.F[0] * n[1] + F.F[1] * t[1];
    if (slopes)
        film_slopes(l, s, d, &F, held, o);
    return isfinite(o->f[0]) && isfinite(o->f[1]) ? 0 : -1;
}

static int rev_film_on(const element_def *u)
{
    return u->revolute_clearance.lubrication.viscosity > 0.0;
}

static int rev_film_by_differences(const element_def *u)
{
    return u->revolute_clearance.lubrication.jacobian != CLINK_LUBRICATION_JACOBIAN_ANALYTIC;
}

#define FILM_PI_EPS_MIN 1e-6

/* a pi-film turning backwards (Omega < 0): it loads the sub-ambient half and pulls the
   journal outwards (docs/contact-laws.md); Omega into *value; 1 for the long bearing, 2 for
   the short bearing's fixed pi-film (film="pi"), 0 when valid */
static int rev_film_invalid(const element_def *u, const element_centres *s, double *value)
{
    element_extra o;
    const clink_lubrication_def *lub = &u->revolute_clearance.lubrication;
    int why = lub->theory == CLINK_LUBRICATION_LONG ? 1
              : lub->theory == CLINK_LUBRICATION_SHORT && lub->film == CLINK_LUBRICATION_FILM_PI
                  ? 2
                  : 0;
    *value = 0.0;
    if (!why)
        return 0;
    double d = hypot(s->e[0], s->e[1]);
    if (rev_film(u, s, 0, &o) != 0 || !(d > 0.0))
        return 0;
    double gamma_dot = (s->e[0] * s->ed[1] - s->e[1] * s->ed[0]) / (d * d);
    *value = s->wa + s->wb - 2.0 * gamma_dot;
    /* the pi-film of film="pi" near the centre (eps below FILM_PI_EPS_MIN): the line of
       centres, hence gamma' and Omega, is not defined at the centre (a concentric start
       has |e| of rounding size, gamma' of 1e6 rad/s), and the pull eps^2 Omega vanishes */
    if (why == 2 && d < FILM_PI_EPS_MIN * (u->revolute_clearance.bearing_radius -
                                           u->revolute_clearance.journal_radius))
        return 0;
    return *value < 0.0 ? why : 0;
}

/* the definition's fields: <revolute_clearance name journal journal_point bearing
   bearing_point journal_radius bearing_radius clearance journal_material bearing_material>
   (two of the three dimensions: rev_file) and its child <lubrication viscosity length theory
   transition jacobian> */
static const char *const rev_theories[] = {"short", "long", NULL};
static const char *const rev_jacobians[] = {"analytic", "differences", NULL};
static const char *const rev_films[] = {"gumbel", "pi", NULL};
#define REV_AT_(m) offsetof(clink_clearance_joint_def, m)
static const element_field rev_fields[] = {
    {.attr = "journal", .type = ELEMENT_FIELD_BODY, .offset = REV_AT_(journal_body), .dflt = {1}},
    {.attr = "journal_point",
     .type = ELEMENT_FIELD_POINT,
     .offset = REV_AT_(journal_point),
     .unit = "m"},
    {.attr = "bearing", .type = ELEMENT_FIELD_BODY, .offset = REV_AT_(bearing_body), .dflt = {0}},
    {.attr = "bearing_point",
     .type = ELEMENT_FIELD_POINT,
     .offset = REV_AT_(bearing_point),
     .unit = "m"},
    {.attr = "journal_radius",
     .type = ELEMENT_FIELD_NUMBER,
     .offset = REV_AT_(journal_radius),
     .unit = "m"},
    {.attr = "bearing_radius",
     .type = ELEMENT_FIELD_NUMBER,
     .offset = REV_AT_(bearing_radius),
     .unit = "m"},
    {.attr = "clearance", .type = ELEMENT_FIELD_FILE_NUMBER, .unit = "m", .slot = 0},
    {.attr = "journal_material", .type = ELEMENT_FIELD_MATERIAL, .slot = 0, .of = 0},
    {.attr = "bearing_material", .type = ELEMENT_FIELD_MATERIAL, .slot = 1, .of = 2},
    /* the oil film (viscosity 0: dry), each value checked with the line of <lubrication> */
    {.attr = "viscosity",
     .type = ELEMENT_FIELD_NUMBER,
     .offset = REV_AT_(lubrication.viscosity),
     .unit = "Pa s",
     .flags = ELEMENT_REQUIRED,
     .child = "lubrication",
     .lo = 0,
     .hi = INFINITY,
     .hint = "give viscosity > 0"},
    {.attr = "length",
     .type = ELEMENT_FIELD_NUMBER,
     .offset = REV_AT_(lubrication.length),
     .unit = "m",
     .flags = ELEMENT_REQUIRED,
     .child = "lubrication",
     .lo = 0,
     .hi = INFINITY,
     .hint = "give length > 0 (the bearing's axial length)"},
    {.attr = "theory",
     .type = ELEMENT_FIELD_WORDS,
     .offset = REV_AT_(lubrication.theory),
     .child = "lubrication",
     .words = rev_theories},
    {.attr = "transition",
     .type = ELEMENT_FIELD_NUMBER,
     .offset = REV_AT_(lubrication.transition),
     .unit = "",
     .dflt = {0.95},
     .child = "lubrication",
     .lo = 0,
     .hi = 1,
     .hint = "0 < transition < 1 (an eccentricity ratio)"},
    {.attr = "jacobian",
     .type = ELEMENT_FIELD_WORDS,
     .offset = REV_AT_(lubrication.jacobian),
     .child = "lubrication",
     .words = rev_jacobians},
    {.attr = "film",
     .type = ELEMENT_FIELD_WORDS,
     .offset = REV_AT_(lubrication.film),
     .child = "lubrication",
     .words = rev_films},
    /* Archard wear (docs/wear.md), read whole by src/xml/xml_wear.c */
    {.type = ELEMENT_FIELD_WEAR, .offset = REV_AT_(wear), .child = "wear"},
};
enum { REV_JOURNAL_RADIUS = 4, REV_BEARING_RADIUS = 5, REV_CLEARANCE = 6, REV_FILM = 14 };

/* the file gives two of journal_radius, bearing_radius and clearance: the third follows,
   and all three must agree */
static clink_status rev_file(element_def *u, element_file *f, char *msg, size_t size)
{
    clink_clearance_joint_def *d = &u->revolute_clearance;
    int has_j = (f->given >> REV_JOURNAL_RADIUS) & 1, has_b = (f->given >> REV_BEARING_RADIUS) & 1;
    int has_c = (f->given >> REV_CLEARANCE) & 1;
    double rj = d->journal_radius, rb = d->bearing_radius, cl = f->number[0];

    if (has_j + has_b + has_c < 2)
        return snprintf(msg, size, "give two of journal_radius, bearing_radius and clearance"),
               CLINK_ERR_MODEL;
    if (has_j + has_b + has_c == 3 && fabs((rb - rj) - cl) > 1e-9 * fabs(rb))
        return snprintf(msg, size,
                        "clearance = %g m disagrees with bearing_radius - journal_radius = %g m",
                        cl, rb - rj),
               CLINK_ERR_RANGE;
    d->journal_radius = has_j ? rj : rb - cl;
    d->bearing_radius = has_b ? rb : rj + cl;
    if (d->lubrication.theory == CLINK_LUBRICATION_LONG && ((f->given >> REV_FILM) & 1) &&
        d->lubrication.film != CLINK_LUBRICATION_FILM_PI)
        return snprintf(msg, size,
                        "<lubrication> film=\"gumbel\" with theory=\"long\": the long bearing "
                        "has the fixed pi-film alone (film=\"pi\", or leave film out)"),
               CLINK_ERR_MODEL;
    return CLINK_OK;
}

const element_class element_revolute_clearance = {
    .kind = CLINK_ELEMENT_REVOLUTE_CLEARANCE,
    .name = "revolute_clearance",
    .word = "clearance joint",
    .unnamed = "clearance",
    .entity = CLINK_ENTITY_CLEARANCE_JOINT,
    .cookie = CLINK_DEF_COOKIE + 7,
    .size = sizeof(clink_clearance_joint_def),
    .fields = rev_fields,
    .nfields = sizeof rev_fields / sizeof rev_fields[0],
    .file = rev_file,
    .bodies = rev_bodies,
    .check = rev_check,
    .radii = rev_radii,
    .k_missing = "stiffness missing; give K (N/m^n) or the materials of journal (E1, nu1) and "
                 "bearing (E2, nu2)",
    .ncontacts = rev_ncontacts,
    .expand = rev_expand,
    .noutputs = 5,
    .output_names = rev_output_names,
    .output_units = rev_output_units,
    .outputs = rev_outputs,
    .output_count = rev_output_count,
    .force_first = 2,
    .force_outputs = rev_force_outputs,
    .ideal_joint = rev_ideal_joint,
    .centring = rev_centring,
    .approach = "journal approaching the bearing",
    .eccentricity = 1,
    .extra_on = rev_film_on,
    .extra_name = "film",
    .extra_force = rev_film,
    .extra_by_differences = rev_film_by_differences,
    .extra_invalid = rev_film_invalid,
};
