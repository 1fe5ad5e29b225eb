/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim_check.c: physical sanity checks of a running simulation
 * (include/clink/sim.h, "physical sanity checks").
 *
 * At each output (the end of clink_sim_advance) and for each new impact record:
 *   - energy: |balance| against the energy scale E of the run, the largest value
 *     seen at the outputs of kinetic + contact stored + |spring| + |gravity minus
 *     its initial value| + |work of drivers| + |work of loads| + dissipated. A
 *     residual above SIMCHK_ENERGY_WARN E is a warning, above SIMCHK_ENERGY_BAD E
 *     implausible: energy the books cannot account for. Residuals below the
 *     rounding of the terms (1e3 DBL_EPSILON times their magnitudes) are ignored;
 *   - restitution: an impact record with restitution above 1 + SIMCHK_RESTITUTION_TOL
 *     whose law dissipated energy in it, in a passive model (no driver, actuator,
 *     point force or torque) with this one contact (restitution_is_suspect): a
 *     warning, implausible between free bodies whose contact normal passes through
 *     their centres (circles, lines, bores: rotation cannot feed the normal motion);
 *   - penetration: the largest penetration of an impact, or the penetration at
 *     an output, against the contact's size (contacts_size: its shapes', or its element's
 *     for a point on a line; a one-sided stop's is the model's, start_size): above
 *     SIMCHK_PENETRATION_WARN of it a warning, above the size itself implausible.
 * Below the complete output (clink_sim_set_outputs) the energy is not checked, and below
 * CLINK_OUTPUT_CONTACTS neither is the penetration at the output (that of each impact is),
 * nor that of a contact left out by clink_sim_set_output_contacts.
 * Each level is reported once (per contact for penetration). The findings do
 * not stop the run: the host decides (the command marks the run warned or failed).
 *
 * At creation (sim_check_start): the coordinates the assembly moved beyond the start's
 * thresholds, a contact that starts penetrated, a clearance joint (a journal, or a corner
 * of a translational joint's slider) approaching its wall (docs/development.md, "The
 * start's thresholds"). In a stall (sim_check_stall_loads, for the diagnosis of
 * sim_advance.c): the load whose time scale, sqrt(m/k), m/c or sqrt(2 L m/|F|), is
 * shorter than SIMCHK_LOAD_STEPS steps (docs/development.md, "Loads in a stall").
 */
#include "sim/sim_internal.h"
#include "model/model_internal.h"
#include "fmt_double.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define SIMCHK_ENERGY_WARN      1e-2
#define SIMCHK_ENERGY_BAD       0.5
#define SIMCHK_RESTITUTION_TOL  1e-3
#define SIMCHK_PENETRATION_WARN 0.25
#define SIMCHK_PENETRATION_BAD  1.0
#define SIMCHK_PEN_LEVEL        0x3  /* pen_level: the penetration level reported (0-2) */
#define SIMCHK_FILM_REPORTED    0x80 /* pen_level: a backward long-bearing film reported */
/* the start (sim_check_start): moves of the assembly beyond these are findings */
#define SIMCHK_MOVE_SIZE   1e-3 /* of the model's size (positions) */
#define SIMCHK_MOVE_CLEAR  0.1  /* of the smallest radial clearance (positions) */
#define SIMCHK_MOVE_ANGLE  1e-3 /* rad */
#define SIMCHK_MOVE_SPEED  1e-3 /* of the largest initial speed (given velocities) */
#define SIMCHK_START_PEN   1e-6 /* of a contact's size: penetrated at the start */
#define SIMCHK_START_SPEED 0.1  /* m/s: a clearance joint's approach speed at the start */
/* a stall (sim_check_stall_loads): a load whose time scale is below this many steps */
#define SIMCHK_LOAD_STEPS 100
#define SIMCHK_LOAD_SPAN  1e-3 /* ... and below this fraction of t_end */

static const char *severity_word(clink_finding_severity s)
{
    return s == CLINK_FINDING_IMPLAUSIBLE ? "implausible" : "warning";
}

static void add_finding(clink_sim *s, clink_finding_kind kind, clink_finding_severity sev, double t,
                        int contact, double value, double relative, double limit, const char *fmt,
                        ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 9, 10)))
#endif
    ;

static void add_finding(clink_sim *s, clink_finding_kind kind, clink_finding_severity sev, double t,
                        int contact, double value, double relative, double limit, const char *fmt,
                        ...)
{
    s->chk.nfound++;
    if (sev == CLINK_FINDING_IMPLAUSIBLE)
        s->chk.nimplausible++;
    if (s->chk.nfindings >= SIM_MAX_FINDINGS)
        return;
    clink_sim_finding *f = &s->chk.findings[s->chk.nfindings++];
    memset(f, 0, sizeof *f);
    f->kind = kind;
    f->severity = sev;
    f->t = t;
    f->contact = contact;
    f->value = value;
    f->relative = relative;
    f->limit = limit;
    char text[240], when[OUTPUT_DOUBLE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    output_format_double(t, when);
    snprintf(f->message, sizeof f->message, "%s at t = %s s: %.190s", severity_word(sev), when,
             text);
}

/* the largest energy the system has held, and the residual against it */
static void check_energy(clink_sim *s)
{
    const clink_energy *e = &s->out.energy;
    if (s->t == 0.0)
        s->chk.gravity0 = e->gravity;
    double scale = e->kinetic + e->contact_stored + fabs(e->spring) +
                   fabs(e->gravity - s->chk.gravity0) + fabs(e->work_drivers) +
                   fabs(e->work_loads) + fabs(e->contact_damping) + fabs(e->contact_friction);
    if (scale > s->chk.energy_scale)
        s->chk.energy_scale = scale;
    double terms = scale + fabs(e->gravity) + fabs(s->out.e0);
    double r = fabs(e->balance);
    if (!(s->chk.energy_scale > 0.0) || !(r > 1e3 * DBL_EPSILON * terms))
        return;
    double rel = r / s->chk.energy_scale;
    int level = rel > SIMCHK_ENERGY_BAD ? 2 : rel > SIMCHK_ENERGY_WARN ? 1 : 0;
    if (level <= s->chk.energy_level)
        return;
    s->chk.energy_level = level;
    double limit = level == 2 ? SIMCHK_ENERGY_BAD : SIMCHK_ENERGY_WARN;
    add_finding(s, CLINK_FINDING_ENERGY,
                level == 2 ? CLINK_FINDING_IMPLAUSIBLE : CLINK_FINDING_WARNING, s->t, -1,
                e->balance, rel, limit,
                "energy balance residual %.3g J, %.3g of the system's energy %.3g J (bound %g): "
                "tighten rtol/atol or lower the contact stiffness",
                e->balance, rel, s->chk.energy_scale, limit);
}

/* nothing in the model can feed energy into the bodies */
static int model_is_passive(const clink_model *m)
{
    if (m->d.ndrivers > 0 || m->d.ninputs > 0) /* the host's inputs can feed it too */
        return 0;
    for (int k = 0; k < m->d.nforces; k++) {
        const clink_force_def *f = &m->d.forces[k].def;
        if (f->type != CLINK_FORCE_SPRING_DAMPER &&
            f->type != CLINK_FORCE_ROTATIONAL_SPRING_DAMPER && f->type != CLINK_FORCE_BEAM)
            return 0;
        if (f->actuator != 0.0)
            return 0;
    }
    return 1;
}

/* a long-bearing film turning backwards (Omega < 0): its pi-film loads the sub-ambient half
   (docs/contact-laws.md); reported once per contact (SIMCHK_FILM_REPORTED in pen_level) */
static void check_film(clink_sim *s, int k)
{
    double Omega;
    if (s->chk.pen_level[k] & SIMCHK_FILM_REPORTED)
        return;
    int why = contacts_extra_invalid(s->sys->sc, k, s->out.y, s->out.y + s->sys->nq, &Omega);
    if (!why)
        return;
    s->chk.pen_level[k] |= SIMCHK_FILM_REPORTED;
    if (why == 2) { /* the short bearing's fixed pi-film (film="pi") */
        add_finding(s, CLINK_FINDING_VALIDITY, CLINK_FINDING_WARNING, s->t, k, Omega, Omega, 0.0,
                    "contact '%s': its fixed pi-film (film=\"pi\") turns backwards (Omega = "
                    "%.3g rad/s < 0), where the pi-film loads the sub-ambient half and its "
                    "radial force pulls the journal outwards: film=\"gumbel\" follows the "
                    "pressure",
                    contacts_name(s->sys->sc, k), Omega);
        return;
    }
    add_finding(s, CLINK_FINDING_VALIDITY, CLINK_FINDING_WARNING, s->t, k, Omega, Omega, 0.0,
                "contact '%s': its long-bearing film turns backwards (Omega = %.3g rad/s < 0), "
                "where the long bearing's pi-film loads the sub-ambient half and its radial "
                "force points outwards: use theory=\"short\" for this joint",
                contacts_name(s->sys->sc, k), Omega);
}

static double start_size(const clink_model *m);

/* the size a penetration of contact k is judged against: its shapes' or its element's
   (contacts_size), else (a one-sided stop) the model's (start_size) */
static double check_size(const clink_sim *s, int k)
{
    double L = contacts_size(s->sys->sc, k);
    return L > 0.0 ? L : start_size(s->m);
}

static void check_penetration(clink_sim *s, int k, double t, double delta)
{
    if (!(delta > 0.0))
        return; /* apart (or NaN): below any bound, whatever the size */
    double L = check_size(s, k);
    if (!(L > 0.0) || !(delta > SIMCHK_PENETRATION_WARN * L))
        return;
    double rel = delta / L;
    int level = rel > SIMCHK_PENETRATION_BAD ? 2 : 1;
    if (level <= (s->chk.pen_level[k] & SIMCHK_PEN_LEVEL))
        return;
    s->chk.pen_level[k] = (unsigned char) ((s->chk.pen_level[k] & ~SIMCHK_PEN_LEVEL) | level);
    double limit = level == 2 ? SIMCHK_PENETRATION_BAD : SIMCHK_PENETRATION_WARN;
    add_finding(s, CLINK_FINDING_PENETRATION,
                level == 2 ? CLINK_FINDING_IMPLAUSIBLE : CLINK_FINDING_WARNING, t, k, delta, rel,
                limit,
                "contact '%s' penetrates %.3g m, %.3g of its size %.3g m (bound %g): the "
                "contact law is too soft for the load, or the shapes pass through each other",
                contacts_name(s->sys->sc, k), delta, rel, L, limit);
}

/* a beam's node is a piece of a continuum: its elements' strain energy feeds its rebounds */
static int model_has_beams(const clink_model *m)
{
    for (int k = 0; k < m->d.nforces; k++)
        if (m->d.forces[k].def.type == CLINK_FORCE_BEAM)
            return 1;
    return 0;
}

/*
 * An impact whose restitution above 1 is a finding: the law dissipated energy in it
 * (more than 1e-6 of the approach energy) and the contact is alone in a passive model,
 * so that nothing else could have fed it. In a chain a bead is pushed from behind, and
 * in a driven mechanism the motor feeds the contact: there a restitution above 1 is
 * physics, and only the energy balance can tell. So it is on a beam's node, which the
 * bending waves of its elements push back (docs/flexible.md).
 */
static int restitution_is_suspect(const clink_sim *s, const clink_impact_record *r)
{
    double approach = 0.5 * r->m_eff * r->v_impact * r->v_impact;
    return r->restitution > 1.0 + SIMCHK_RESTITUTION_TOL && s->sys->ncon == 1 &&
           model_is_passive(s->m) && !model_has_beams(s->m) && !s->inp.uf &&
           r->dissipated > 1e-6 * approach;
}

static void check_impacts(clink_sim *s)
{
    int n = contacts_impact_count(s->sys->sc);
    for (; s->chk.impacts_checked < n; s->chk.impacts_checked++) {
        clink_impact_record r;
        if (contacts_impact(s->sys->sc, s->chk.impacts_checked, &r) != CLINK_OK)
            continue;
        check_penetration(s, r.contact, r.t_onset, r.delta_max);
        if (!restitution_is_suspect(s, &r))
            continue;
        /* free bodies whose normal passes through their centres: rotation cannot feed the
           normal motion either, and a restitution above 1 is energy from nowhere */
        char onset[OUTPUT_DOUBLE_MAX];
        output_format_double(r.t_onset, onset);
        clink_finding_severity sev = s->m->d.njoints == 0 && contacts_central(s->sys->sc, r.contact)
                                         ? CLINK_FINDING_IMPLAUSIBLE
                                         : CLINK_FINDING_WARNING;
        add_finding(s, CLINK_FINDING_RESTITUTION, sev, r.t_onset, r.contact, r.restitution,
                    r.restitution, 1.0 + SIMCHK_RESTITUTION_TOL,
                    "impact of contact '%s' (onset t = %s s) restitutes %.4g although its "
                    "law dissipated %.3g J and nothing else could feed it: the contact stiffness "
                    "is too high for the tolerances",
                    contacts_name(s->sys->sc, r.contact), onset, r.restitution, r.dissipated);
    }
}

/* the constraint equations that depend on the others at t = 0 (read once, at creation) */
static void check_redundancy(clink_sim *s)
{
    if (s->t != 0.0 || s->sys->nc == 0 || s->chk.redundant[0] != '\0' || s->chk.nredundant != 0)
        return;
    dyn_factor_stats fs;
    dyn_factor_counts(s->sys->dyn, &fs);
    if (fs.deficient == 0)
        return; /* independent rows: no factorisation needed the rank-revealing one */
    const double *y = s->out.y;
    s->chk.nredundant =
        dyn_dependent_rows(s->sys->dyn, 0.0, y, s->chk.redundant, sizeof s->chk.redundant);
}

int clink_sim_redundant_constraints(const clink_sim *s, char *names, size_t size)
{
    if (names && size > 0)
        snprintf(names, size, "%s", s ? s->chk.redundant : "");
    return s ? s->chk.nredundant : -1;
}

/* what the output computed decides what is checked (clink_sim_set_outputs): the energy at
   CLINK_OUTPUT_ALL, the penetrations at the output from CLINK_OUTPUT_CONTACTS up (of the
   contacts it computed), the impact records always */
void sim_check_output(clink_sim *s)
{
    check_redundancy(s);
    if (s->lv.done >= CLINK_OUTPUT_ALL)
        check_energy(s);
    if (!s->sys->ncon)
        return;
    check_impacts(s);
    if (s->lv.done < CLINK_OUTPUT_CONTACTS)
        return;
    int nw = s->sys->win && s->win.info_window && !s->lv.partial ? s->sys->win->ncw : -1;
    for (int j = 0; j < nw; j++) { /* the window's contacts: the others have not moved */
        int k = s->sys->win->con[j];
        check_penetration(s, k, s->t, s->out.info[k].delta);
        check_film(s, k);
    }
    for (int k = 0; nw < 0 && k < s->sys->ncon; k++)
        if (!s->lv.partial || s->lv.has[k]) {
            check_penetration(s, k, s->t, s->out.info[k].delta);
            check_film(s, k);
        }
}

/* ---- the findings through the API ----------------------------------------- */

int clink_sim_finding_count(const clink_sim *s)
{
    return s ? (int) (s->chk.nfound < 2147483647L ? s->chk.nfound : 2147483647L) : 0;
}

clink_status clink_sim_finding_get(const clink_sim *s, int i, clink_sim_finding *finding)
{
    if (!s || !finding || i < 0 || i >= s->chk.nfindings)
        return CLINK_ERR_ARG;
    *finding = s->chk.findings[i];
    return CLINK_OK;
}

/* ---- the start (sim_check_start) ------------------------------------------- */

/* the model's size: the diagonal of the box of the bodies' initial centres and the ground's
   joint points (1 m when that box is a point) */
static double start_size(const clink_model *m)
{
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
#define START_BOX(px, py)                                                                          \
    do {                                                                                           \
        double p_[2] = {(px), (py)};                                                               \
        for (int i_ = 0; i_ < 2; i_++)                                                             \
            if (isfinite(p_[i_])) {                                                                \
                lo[i_] = fmin(lo[i_], p_[i_]);                                                     \
                hi[i_] = fmax(hi[i_], p_[i_]);                                                     \
            }                                                                                      \
    } while (0)
    for (int b = 1; b < m->d.nbodies; b++)
        START_BOX(m->d.bodies[b].def.x, m->d.bodies[b].def.y);
    for (int j = 0; j < m->d.njoints; j++) {
        const clink_joint_def *jd = &m->d.joints[j].def;
        if (jd->body_a == 0)
            START_BOX(jd->point_a[0], jd->point_a[1]);
        if (jd->body_b == 0)
            START_BOX(jd->point_b[0], jd->point_b[1]);
    }
#undef START_BOX
    double L = hypot(hi[0] - lo[0], hi[1] - lo[1]);
    return isfinite(L) && L > 0.0 ? L : 1.0;
}

/* appends sep (when buf is not empty) and the formatted text to buf when it fits */
static void start_append(char *buf, size_t size, const char *sep, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static void start_append(char *buf, size_t size, const char *sep, const char *fmt, ...)
{
    size_t n = strlen(buf);
    char one[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(one, sizeof one, fmt, ap);
    va_end(ap);
    if (n + strlen(sep) + strlen(one) < size)
        snprintf(buf + n, size - n, "%s%s", n ? sep : "", one);
}

/* the largest clearance of the model's clearance joints (radial, or a translational one's
   gap on each side), and the largest tilt a translational one allows (rad): how far
   start="ideal_centred" may move a body to centre its joints */
static void start_centring(const clink_model *m, double *c_max, double *tilt_max)
{
    *c_max = 0.0;
    *tilt_max = 0.0;
    for (int e = 0; e < m->d.nelems; e++) {
        const element_class *ec = element_class_of(m->d.elems[e].kind);
        double move, tilt;
        if (!ec->centring)
            continue;
        ec->centring(&m->d.elems[e].def, &move, &tilt);
        *c_max = fmax(*c_max, move);
        *tilt_max = fmax(*tilt_max, tilt);
    }
}

/* the coordinates the assembly moved beyond the thresholds (y: the projected state), listed
   in moved; the largest move relative to its threshold (0 if none). With
   start="ideal_centred" a move within the largest clearance (a slider's tilt within the
   largest its guide allows) is the centring's, not a finding. */
static double start_moves(const clink_sim *s, const double *y, char *moved, size_t size)
{
    const clink_model *m = s->m;
    int nq = s->sys->nq;
    double L = start_size(m), c_min = INFINITY, V = 0.0, worst = 0.0;
    static const char *const names[6] = {"x", "y", "phi", "vx", "vy", "omega"};
    static const char *const units[6] = {"m", "m", "rad", "m/s", "m/s", "rad/s"};
    for (int k = 0; k < s->sys->ncon; k++)
        if (contacts_clearance(s->sys->sc, k) > 0.0)
            c_min = fmin(c_min, contacts_clearance(s->sys->sc, k));
    for (int b = 1; b < m->d.nbodies; b++) {
        const clink_body_def *d = &m->d.bodies[b].def;
        V = fmax(V, fmax(fmax(fabs(d->vx), fabs(d->vy)), L * fabs(d->omega)));
    }
    double tol[6] = {fmin(SIMCHK_MOVE_SIZE * L, SIMCHK_MOVE_CLEAR * c_min),
                     0.0,
                     SIMCHK_MOVE_ANGLE,
                     SIMCHK_MOVE_SPEED * V,
                     0.0,
                     SIMCHK_MOVE_SPEED * V / L};
    if (s->set.start == CLINK_START_IDEAL_CENTRED) {
        double c_max, tilt_max;
        start_centring(m, &c_max, &tilt_max);
        tol[0] = fmax(tol[0], c_max);
        tol[2] = fmax(tol[2], tilt_max);
    }
    tol[1] = tol[0];
    tol[4] = tol[3];
    moved[0] = '\0';
    for (int b = 1; b < m->d.nbodies; b++) {
        const clink_body_def *d = &m->d.bodies[b].def;
        double given[6] = {d->x, d->y, d->phi, d->vx, d->vy, d->omega};
        char one[160] = "";
        for (int i = 0; i < 6; i++) {
            double now = y[(i < 3 ? 0 : nq) + 3 * (b - 1) + i % 3];
            double move = fabs(now - given[i]);
            /* a velocity given as zero is one left to the assembly to compute */
            if ((i >= 3 && given[i] == 0.0) || !(move > tol[i]))
                continue;
            worst = fmax(worst, move / tol[i]);
            start_append(one, sizeof one, ", ", "%s %.3g %s", names[i], move, units[i]);
        }
        if (one[0] != '\0')
            start_append(moved, size, "; ", "'%s' %s", m->d.bodies[b].name, one);
    }
    return worst;
}

/* the speed of a centred journal relative to its bearing (contact k): with no eccentricity
   every direction approaches the wall and the contact's normal rate says nothing, so the
   eccentricity a short time h later, over h (its rate; the state moved along v) */
static double start_centred_speed(const clink_sim *s, int k, const double *y)
{
    const double h = 1e-9; /* s: e(h) = h v_rel + O(h^2) */
    int nq = s->sys->nq;
    clink_contact_info later;
    double *q = malloc(sizeof(double) * (size_t) (nq > 0 ? nq : 1)), speed = 0.0;
    if (!q)
        return 0.0;
    for (int i = 0; i < nq; i++)
        q[i] = y[i] + h * y[nq + i];
    if (contacts_info(s->sys->sc, k, q, y + nq, &later) == CLINK_OK)
        speed = hypot(later.eccentricity[0], later.eccentricity[1]) / h;
    free(q);
    return speed;
}

/* the start check's words for contact k approaching its wall (its element class's), NULL if
   its element has none */
static const char *start_approach(const clink_model *m, int k)
{
    return element_class_of(m->d.elems[m->d.contacts[k].element].kind)->approach;
}

/* contact k at the start: penetrated, or a clearance joint's journal (or a corner of a
   translational clearance joint's slider) approaching its wall faster than
   SIMCHK_START_SPEED */
static void start_contact(clink_sim *s, int k, const double *y)
{
    clink_contact_info info;
    contact_set *sc = s->sys->sc;
    double L = check_size(s, k);
    if (contacts_info(sc, k, y, y + s->sys->nq, &info) != CLINK_OK)
        return;
    if (contacts_clearance(sc, k) > 0.0 &&
        !(hypot(info.eccentricity[0], info.eccentricity[1]) > 1e-9 * contacts_clearance(sc, k)))
        info.delta_dot = start_centred_speed(s, k, y);
    if (L > 0.0 && info.delta > SIMCHK_START_PEN * L)
        add_finding(s, CLINK_FINDING_START, CLINK_FINDING_WARNING, 0.0, k, info.delta,
                    info.delta / L, SIMCHK_START_PEN,
                    "contact '%s' starts penetrated by %.3g m (%.3g of its size %.3g m): its "
                    "first force is a jump; start its shapes apart or touching",
                    contacts_name(sc, k), info.delta, info.delta / L, L);
    else if (start_approach(s->m, k) != NULL && info.delta_dot > SIMCHK_START_SPEED)
        add_finding(s, CLINK_FINDING_START, CLINK_FINDING_WARNING, 0.0, k, info.delta_dot,
                    info.delta_dot / SIMCHK_START_SPEED, 1.0,
                    "clearance joint '%s' starts with its %s at %.3g m/s (above %g m/s): an "
                    "impact of the start; give consistent velocities or "
                    "start=\"ideal\"",
                    contacts_name(sc, k), start_approach(s->m, k), info.delta_dot,
                    SIMCHK_START_SPEED);
}

void sim_check_start(clink_sim *s, const double *y)
{
    char moved[200];
    double worst = start_moves(s, y, moved, sizeof moved);
    s->chk.nstart = 0;
    if (worst > 0.0) {
        add_finding(s, CLINK_FINDING_ASSEMBLY, CLINK_FINDING_WARNING, 0.0, -1, s->sys->dq0, worst,
                    1.0, "the assembly moved the initial conditions (by body): %s", moved);
        s->chk.nstart++;
    }
    long before = s->chk.nfound;
    for (int k = 0; k < s->sys->ncon; k++)
        start_contact(s, k, y);
    s->chk.nstart += (int) (s->chk.nfound - before);
}

/* ---- the loads in a stall (sim_check_stall_loads) -------------------------- */

/* a candidate cause: the shortest time scale of a load so far and its description */
typedef struct load_blame {
    double tau; /* s */
    char text[300];
} load_blame;

/* the mass (rot 0) or moment of inertia (rot 1) of body b; the ground's is infinite */
static double load_inertia(const clink_model *m, int b, int rot)
{
    if (b <= 0)
        return INFINITY;
    return rot ? m->d.bodies[b].def.inertia : m->d.bodies[b].def.mass;
}

/* the reduced mass or inertia of two bodies, 1 / (1 / m_a + 1 / m_b) */
static double load_reduced(const clink_model *m, int a, int b, int rot)
{
    return 1.0 / (1.0 / load_inertia(m, a, rot) + 1.0 / load_inertia(m, b, rot));
}

/* keeps the description when tau is the shortest time scale so far */
static void load_keep(load_blame *best, double tau, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void load_keep(load_blame *best, double tau, const char *fmt, ...)
{
    if (!(tau < best->tau))
        return;
    best->tau = tau;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(best->text, sizeof best->text, fmt, ap);
    va_end(ap);
}

/* a value F acting on inertia m over the distance (or angle) L: the time it takes to move
   it that far from rest, sqrt(2 L m / |F|) */
static double load_magnitude_time(double F, double m, double L)
{
    return fabs(F) > 0.0 ? sqrt(2.0 * L * m / fabs(F)) : INFINITY;
}

/* the spring and damper of load k (rot: rotational) on its reduced inertia mu: the time
   scales sqrt(mu / k) and mu / c */
static void load_spring(load_blame *best, const char *name, const clink_force_def *f, double mu,
                        int rot)
{
    const char *ku = rot ? "N m/rad" : "N/m", *cu = rot ? "N m s/rad" : "N s/m";
    const char *mu_u = rot ? "kg m^2" : "kg";
    if (f->k > 0.0)
        load_keep(best, sqrt(mu / f->k),
                  "load '%s': its stiffness %.3g %s on %.3g %s has the time scale sqrt(m/k) = "
                  "%.3g s",
                  name, f->k, ku, mu, mu_u, sqrt(mu / f->k));
    if (f->c > 0.0)
        load_keep(best, mu / f->c,
                  "load '%s': its damping %.3g %s on %.3g %s has the time scale m/c = %.3g s", name,
                  f->c, cu, mu, mu_u, mu / f->c);
}

/* load k's value (force, torque, actuator) at t times its scale function and its
   load-scale input */
static double load_value(const clink_sim *s, int k, double t, double value)
{
    const clink_force_def *f = &s->m->d.forces[k].def;
    double sc = 1.0;
    clink_function_eval(&f->scale, t, &sc, NULL, NULL);
    int i = s->inp.load_input ? s->inp.load_input[k] : -1;
    if (i >= 0)
        sc *= s->inp.value[i] + s->inp.slope[i] * (t - s->inp.t_set[i]);
    return sc * value;
}

/* the model's loads: stiffness and damping, and the magnitude of their values */
static void load_model(const clink_sim *s, double t, double L, load_blame *best)
{
    const clink_model *m = s->m;
    for (int k = 0; k < m->d.nforces; k++) {
        const clink_force_def *f = &m->d.forces[k].def;
        const char *name = m->d.forces[k].name;
        int rot = f->type == CLINK_FORCE_TORQUE || f->type == CLINK_FORCE_ROTATIONAL_SPRING_DAMPER;
        int two =
            f->type == CLINK_FORCE_SPRING_DAMPER || f->type == CLINK_FORCE_ROTATIONAL_SPRING_DAMPER;
        double mu =
            two ? load_reduced(m, f->body_a, f->body_b, rot) : load_inertia(m, f->body_a, rot);
        double value = f->type == CLINK_FORCE_POINT    ? hypot(f->fx, f->fy)
                       : f->type == CLINK_FORCE_TORQUE ? f->torque
                                                       : f->actuator;
        if (two)
            load_spring(best, name, f, mu, rot);
        value = load_value(s, k, t, value);
        double tau = load_magnitude_time(value, mu, rot ? 1.0 : L);
        load_keep(best, tau, "load '%s': its value %.3g %s on %.3g %s moves it %s in %.3g s", name,
                  fabs(value), rot ? "N m" : "N", mu, rot ? "kg m^2" : "kg",
                  rot ? "a radian" : "across the model", tau);
    }
}

/* the host's force inputs and user force (the user force as last evaluated) */
static void load_host(const clink_sim *s, double t, double L, load_blame *best)
{
    const clink_model *m = s->m;
    for (int i = 0; i < s->inp.n; i++) {
        const clink_input_def *d = &m->d.inputs[i].def;
        double u = s->inp.value[i] + s->inp.slope[i] * (t - s->inp.t_set[i]), mu;
        int rot = d->kind == CLINK_INPUT_TORQUE || d->kind == CLINK_INPUT_JOINT_TORQUE;
        if (d->kind == CLINK_INPUT_FORCE || d->kind == CLINK_INPUT_TORQUE)
            mu = load_inertia(m, d->target, rot);
        else if (d->kind == CLINK_INPUT_JOINT_TORQUE || d->kind == CLINK_INPUT_JOINT_FORCE)
            mu = load_reduced(m, m->d.joints[d->target].def.body_a,
                              m->d.joints[d->target].def.body_b, rot);
        else
            continue;
        double tau = load_magnitude_time(u, mu, rot ? 1.0 : L);
        load_keep(best, tau, "input '%s': its value %.3g %s moves %.3g %s %s in %.3g s",
                  m->d.inputs[i].name, fabs(u), rot ? "N m" : "N", mu, rot ? "kg m^2" : "kg",
                  rot ? "a radian" : "across the model", tau);
    }
    if (!s->inp.uf || !s->inp.f)
        return;
    for (int b = 1; b < m->d.nbodies; b++) {
        const double *f = s->inp.f + 3 * (b - 1);
        double tf = load_magnitude_time(hypot(f[0], f[1]), load_inertia(m, b, 0), L);
        double tt = load_magnitude_time(f[2], load_inertia(m, b, 1), 1.0);
        load_keep(best, fmin(tf, tt),
                  "user force '%s': %.3g N and %.3g N m on body '%s' move it %s in %.3g s",
                  s->inp.uname, hypot(f[0], f[1]), fabs(f[2]), m->d.bodies[b].name,
                  tf <= tt ? "across the model" : "a radian", fmin(tf, tt));
    }
}

int sim_check_stall_loads(const clink_sim *s, double t, double h, char *buf, size_t size)
{
    load_blame best = {INFINITY, ""};
    double L = start_size(s->m);
    load_model(s, t, L, &best);
    load_host(s, t, L, &best);
    if (!(h > 0.0) || !(best.tau < SIMCHK_LOAD_STEPS * h) ||
        (isfinite(s->set.t_end) && !(best.tau < SIMCHK_LOAD_SPAN * s->set.t_end)))
        return 0;
    snprintf(buf, size,
             "%s, within %d steps of %.3g s: a load too stiff or too large for the bodies it "
             "acts on (a typing error?) forces steps this short",
             best.text, SIMCHK_LOAD_STEPS, h);
    return 1;
}
