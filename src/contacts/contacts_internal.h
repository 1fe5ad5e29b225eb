/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * contacts_internal.h: the contact set shared by the files of the contacts in a
 * simulation, private to src/contacts/ (the driver sees contacts.h only).
 *
 * A contact (contacts_contact) is its definition, its energy components and the state of its
 * state machine, with one sub-struct per concern: contacts_fixed (the evaluation path and the
 * law's constants, set once by contacts.c), contacts_memo (contacts_memo.c) and
 * contacts_episode (the impact in progress and the energy booked at events:
 * contacts_events.c, contacts_impulse.c, contacts_records.c). The set (struct contact_set)
 * likewise: contacts_records (contacts_records.c), contacts_impulse_work
 * (contacts_impulse.c), contacts_jac_work (contacts_jacobian.c).
 *
 * Below the structs, the functions each file lends to the others, by file. The memo's test
 * of unchanged coordinates and its notes of an evaluation are inline here: the right-hand
 * side and the root functions call them for every contact, and a call would cost more than
 * they do (0.5 % of the chain benchmark's instructions).
 */
#ifndef CLINK_CONTACTS_INTERNAL_H
#define CLINK_CONTACTS_INTERNAL_H

#include "contacts/contacts.h"
#include "contact/law_table.h"
#include "kinematics/contact_geometry.h"
#include "kinematics/contact_segment.h"
#include "kinematics/contact_shapes.h"
#include "model/model_internal.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* what never changes after contacts_create (prepare_contact): the evaluation path and the
   law's constants */
typedef struct contacts_fixed {
    /* the direct path of two circles (kinematics_contact_circles) when direct; slip: the
       friction reads v_t */
    int direct, slip;
    ptrdiff_t ia, ib; /* offsets of the bodies' coordinates in q (both bodies > 0: two) */
    int two;
    int elastic; /* a generic law without damping: F(delta, rate) = F(delta, 0) = K delta^n */
    contact_law_cache lc;
    /* each body's 1 / mass and moment of inertia (ground: unused); the third body's 1 / mass */
    double inv_mass[2], inertia[2], inv_mass_c;
    /* the factor of the law's force as a function of body A's angle (a gear mesh's stiffness
       over its cycle, contacts_kscale); NULL: 1 */
    kinematics_pair_stiffness_fn *kfac;
    /* the body carrying a profile shape (a cam) and its initial angle; 0: none */
    int turn_body;
    double turn_phi0;
} contacts_fixed;

/* the caches of an open contact (contacts_memo.c) */
typedef struct contacts_memo {
    /* an open contact at rest: the coordinates of its bodies when it was last evaluated,
       its onset root function and whether it was apart (delta <= 0) then; valid when
       rest_valid (see contacts_memo_unchanged) */
    double rest_q[6];
    double rest_g;
    int rest_apart;
    int rest_valid;
    /* an open contact that overlaps at rest_q and whose force reads no velocity (direct path,
       elastic law, no friction): the normal and the generalised forces on B then A of that
       evaluation, valid when rest_force (see contacts_memo_reuse_force) */
    double rest_n[2], rest_Q[6];
    int rest_force;
    /* the provisional force of an open contact that overlaps (see contacts_memo_force): the
       penetration, its rate and the inverse effective mass it was computed at, and the
       forces F(delta, delta_dot), F(delta, 0); valid when ok (cleared at events) */
    double key[3], fn, f0;
    int ok;
} contacts_memo;

/* the impact in progress and the energy booked at events (impact records) */
typedef struct contacts_episode {
    int in_impact;
    int lobes; /* its compression lobes so far */
    int hyst;  /* the hysteresis rule applies to it (a resting episode, or that bookkeeping) */
    double t_onset, f_max, diss0;
    double booked; /* energy dissipated at events (contacts.c, "Energy audit"), J */
    /* a cam's contact (contacts_first_separation): the first separation of each of the last
       two turns of its profile's body that had one, [1] the latest; sep_n of them */
    int sep_n, sep_turn[2];
    double sep_t[2];
} contacts_episode;

/* an element's extra force (contacts_extra.c): on when the element has one (a lubricated
   joint's oil film), its element class and definition, and its power (W, dissipated > 0)
   of the last force evaluation */
typedef struct contacts_extra {
    int on;
    const element_class *ec;
    const element_def *d;
    double power;
} contacts_extra;

typedef struct contacts_contact {
    kinematics_shape sa, sb;
    int body_a, body_b;
    /* a third body (0: none): a beam segment from body_a to body_c against a circle on body_b
       (a beam contact, contacts_segment.c), the circle and segment in seg */
    int body_c;
    kinematics_segment seg;
    const clink_law *law;
    clink_contact_params p;
    clink_friction_params fr;
    clink_contact_state st;
    int persistent;
    int piecewise;    /* impulse-momentum treatment */
    double e_pw;      /* its restitution */
    double h_release; /* m */
    double eps;       /* onset level of delta, m */
    double v_settle;  /* m/s */
    /* last force evaluation */
    double pdamp, pfric;
    /* its damping and friction integrals in the energy components of y, -1 when it has
       none (an elastic law, no friction, a piecewise contact: the rate is 0 always) */
    int wd, wf;
    /* friction state (contacts_friction.c): its component in the energy block (-1: the
       law has none), its value loaded for the evaluation (m), its rate of the last force
       evaluation, the slip and whether the contact touched then, and whether the contact
       touched at the last onset check */
    int wz;
    double fz, pz, fvt;
    int ftouch_now, ftouch;
    /* d z' / d(q, v) of the last force Jacobian (contacts_jacobian.c) over the six
       coordinates of bodies a, b (q then v: 12 slots), valid when zjac */
    double zjac_d[12];
    int zjac;
    contacts_fixed fixed;
    contacts_memo memo;
    contacts_episode impact;
    contacts_extra extra;
} contacts_contact;

/* the impact records kept and the host's callback */
typedef struct contacts_records {
    clink_impact_record *list;
    int n, cap;
    clink_impact_fn cb;
    void *cb_data;
} contacts_records;

/* the piecewise impacts' and onsets' solve through the constraints: the host's response
   function and w, z (ncoords each) */
typedef struct contacts_impulse_work {
    contacts_impulse_fn fn;
    void *data;
    double *w, *z;
    int free_only; /* onsets take the free bodies' effective mass (the window, no constraint) */
} contacts_impulse_work;

/* perturbed states (contacts_forces_jacobian), ncoords each */
typedef struct contacts_jac_work {
    double *xq, *xv;
} contacts_jac_work;

/*
 * The geometry after_step_one evaluated at a step's end for a contact in an impact, with the
 * bits of its two bodies' coordinates and velocities (body A's q and v, then body B's; ground:
 * zeros). A contact's geometry is a function of those alone (a worn surface's or a beam
 * segment's is not kept), so contacts_geometry_kept serves it again, the same bits, to the
 * probe and the row at that step's end (the output's dense state there is the step's own).
 */
typedef struct contacts_end_geometry {
    kinematics_contact geo;
    double key[12];
    int ok;
} contacts_end_geometry;

struct contact_set {
    const clink_model *m;
    int n;
    contacts_contact *c;
    contacts_end_geometry *end; /* n */
    int keep_end;               /* after_step keeps the geometry of the contacts in an impact */
    contacts_records records;
    contacts_impulse_work imp;
    contacts_jac_work jac;
    kin_trig rot; /* the bodies' cos and sin, shared with the constraints (contacts_trig) */
    char msg[512];
    long events;
    clink_contact_bookkeeping bookkeeping;
    int nwork;  /* energy components in y */
    int failed; /* a non-finite force at a finite state (contacts_forces); cleared when taken */
};

/* ---- contacts_forces.c: geometry and force --------------------------------- */

/* the pose (position, velocity) of body (ground: 0) at (q, v) */
static inline void contacts_pose_of(const double *q, const double *v, int body, kinematics_pose *p)
{
    if (body <= 0) {
        *p = (kinematics_pose){{0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}};
        return;
    }
    const double *qb = q + 3 * (body - 1), *vb = v + 3 * (body - 1);
    *p = (kinematics_pose){{qb[0], qb[1], qb[2]}, {vb[0], vb[1], vb[2]}};
}

/* contact c's geometry at (q, v); 0, or nonzero if it cannot be evaluated */
int contacts_geometry(const contacts_contact *c, const double *q, const double *v,
                      kinematics_contact *g);
/* contacts_geometry from the step's end kept (contacts_end_geometry) when the bodies' bits are
   those it was kept with, else evaluated */
int contacts_geometry_kept(const contact_set *sc, int k, const double *q, const double *v,
                           kinematics_contact *g);
/* contacts_geometry with the bodies' rotations from the set's cache (the right-hand side, roots) */
int contacts_geometry_cached(contact_set *sc, const contacts_contact *c, const double *q,
                             const double *v, kinematics_contact *g);
/* the law's normal force with the contact's state at (delta, rate) */
double contacts_normal_force(const contacts_contact *c, double delta, double rate);
/* inverse effective mass of the pair along the normal, as free bodies, 1/kg */
double contacts_free_inv_mass(const contact_set *sc, const contacts_contact *c,
                              const kinematics_contact *geo, const double *q);
/* the normal force at a configuration (a provisional onset in OPEN with delta > 0); *f0
   (optional) receives F(delta, 0) */
double contacts_contact_force(const contact_set *sc, const contacts_contact *c,
                              const kinematics_contact *geo, const double *q, double *f0);
/* integral_0^delta F(s, 0) ds of the law in the contact's state at q, J (times the factor
   of contacts_kscale) */
double contacts_stored(const contacts_contact *c, const double *q, double delta);
/* the factor s of contact c's law force at q (1 unless c->fixed.kfac), with ds / dphi_A and
   d2s / dphi_A^2 into ds[0..1] when ds is not NULL */
double contacts_kscale(const contacts_contact *c, const double *q, double ds[2]);
/* the torque on body A of a scaled contact at q in contact with penetration delta,
   -U(delta) ds / dphi_A (U the law's stored energy): the force of the potential s U; 0 for
   a contact without a factor or not in contact */
double contacts_kscale_torque(const contacts_contact *c, const double *q, double delta);

/* ---- contacts_segment.c: contacts with a third body (a beam segment) ------------ */

/* the geometry of contact c (body_c > 0) at (q, v); 0, or nonzero if it cannot be evaluated */
int contacts_segment_geometry(const contacts_contact *c, const double *q, const double *v,
                              kinematics_contact *g);
/* the force f on B of contact c (body_c > 0) added to g: f on B at its circle's centre line,
   -(1 - s) f on A and -s f on C at their centres (s = geo->share) */
void contacts_segment_apply(const contacts_contact *c, const kinematics_contact *geo,
                            const double *q, const double f[2], double *g);
/* the inverse effective mass of the three free bodies along the normal, 1/kg */
double contacts_segment_inv_mass(const contacts_contact *c, const kinematics_contact *geo,
                                 const double *q);
/* the generalised normal direction (delta_dot = -w . v) added to w */
void contacts_segment_direction(const contacts_contact *c, const kinematics_contact *geo,
                                const double *q, double *w);
/* d g / d(q, v) of contact c's force (body_c > 0) added to J; 0, or -1 for a non-finite
   slope. fn_at(c, geo, delta, rate) is the law's normal force at the contact's state */
typedef double (*contacts_segment_force_fn)(const contact_set *sc, const contacts_contact *c,
                                            const kinematics_contact *geo, const double *q,
                                            double delta, double rate);
int contacts_segment_jacobian(const contact_set *sc, const contacts_contact *c, const double *q,
                              const double *v, contacts_segment_force_fn fn_at, dyn_gjac *J);

/* ---- contacts_friction.c: friction and its states ----------------------------- */

/* the friction force of c at slip v_t and normal force fn (>= 0) with its loaded state;
 *zdot (may be NULL) receives the state's rate */
double contacts_friction_at(const contacts_contact *c, double v_t, double fn, double *zdot);
/* d F_t / d F_n of c at slip v_t, normal force fp > 0 and friction ft */
double contacts_friction_per_normal(const contacts_contact *c, double v_t, double fp, double ft);

/* ---- contacts_memo.c: the caches of open contacts ---------------------------- */

/* the bits of a double (one load) */
static inline uint64_t contacts_bits_of(const double *x)
{
    uint64_t u;
    memcpy(&u, x, sizeof u);
    return u;
}

/* ---- the geometry kept at a step's end (contacts_end_geometry) ---------------------------- */

/* the bit patterns of body's q and v against key[0..6) (ground: nothing to compare, the key's
   zeros), their differences or'ed: 0 when the same */
static inline uint64_t contacts_end_diff(int body, const double *q, const double *v,
                                         const double *key)
{
    if (body <= 0)
        return 0;
    const double *x = q + 3 * (body - 1), *y = v + 3 * (body - 1);
    return (contacts_bits_of(x) ^ contacts_bits_of(key)) |
           (contacts_bits_of(x + 1) ^ contacts_bits_of(key + 1)) |
           (contacts_bits_of(x + 2) ^ contacts_bits_of(key + 2)) |
           (contacts_bits_of(y) ^ contacts_bits_of(key + 3)) |
           (contacts_bits_of(y + 1) ^ contacts_bits_of(key + 4)) |
           (contacts_bits_of(y + 2) ^ contacts_bits_of(key + 5));
}

/* the geometry g of contact k evaluated after a step at (q, v), kept for contacts_geometry_kept
   unless it reads more than its two bodies' coordinates and velocities (a beam segment's third
   body, a worn surface); out of line: the step's loop over the contacts stays as small */
void contacts_geometry_keep(contact_set *sc, int k, const double *q, const double *v,
                            const kinematics_contact *g);

/* nonzero bits where body's coordinates at q differ from those kept in r */
static inline uint64_t contacts_body_q_diff(const double *q, int body, const double *r)
{
    if (body <= 0)
        return 0;
    const double *x = q + 3 * (body - 1);
    return (contacts_bits_of(x) ^ contacts_bits_of(r)) |
           (contacts_bits_of(x + 1) ^ contacts_bits_of(r + 1)) |
           (contacts_bits_of(x + 2) ^ contacts_bits_of(r + 2));
}

/*
 * Nonzero if the coordinates of both bodies of c are bit for bit those of its last
 * evaluation in the open phase (c->memo.rest_q): then its geometry's delta and anything
 * computed from it alone are the same, and a contact between bodies at rest (a chain's
 * beads ahead of its wave) costs 6 comparisons instead of a geometry evaluation. The
 * comparison is of the bit patterns (as memcmp's), in integers, without a call.
 */
static inline int contacts_memo_unchanged(const contacts_contact *c, const double *q)
{
    /* the common case, without the checks of the ground */
    if (c->fixed.two && c->memo.rest_valid) {
        const double *x = q + c->fixed.ia, *y = q + c->fixed.ib, *r = c->memo.rest_q;
        return ((contacts_bits_of(x) ^ contacts_bits_of(r)) |
                (contacts_bits_of(x + 1) ^ contacts_bits_of(r + 1)) |
                (contacts_bits_of(x + 2) ^ contacts_bits_of(r + 2)) |
                (contacts_bits_of(y) ^ contacts_bits_of(r + 3)) |
                (contacts_bits_of(y + 1) ^ contacts_bits_of(r + 4)) |
                (contacts_bits_of(y + 2) ^ contacts_bits_of(r + 5))) == 0;
    }
    return c->memo.rest_valid && (contacts_body_q_diff(q, c->body_a, c->memo.rest_q) |
                                  contacts_body_q_diff(q, c->body_b, c->memo.rest_q + 3)) == 0;
}

/* contacts_memo_remember's copy of the bodies' coordinates */
static inline void contacts_memo_remember_q(contacts_contact *c, const double *q)
{
    if (c->body_a > 0)
        memcpy(c->memo.rest_q, q + 3 * (c->body_a - 1), 3 * sizeof(double));
    if (c->body_b > 0)
        memcpy(c->memo.rest_q + 3, q + 3 * (c->body_b - 1), 3 * sizeof(double));
}

/* an open contact evaluated at q: its onset root function g0 (NAN: not evaluated) and
   whether it was apart; its kept forces are of another configuration */
static inline void contacts_memo_remember(contacts_contact *c, const double *q, double g0,
                                          int apart)
{
    contacts_memo_remember_q(c, q);
    c->memo.rest_g = g0;
    c->memo.rest_apart = apart;
    c->memo.rest_valid = c->body_c == 0; /* a third body's coordinates are not kept */
    c->memo.rest_force = 0;
}

/* after the forces of an open contact that overlaps were kept: its normal, if its force
   reads no velocity */
static inline void contacts_memo_keep_normal(contacts_contact *c, const double n[2])
{
    if (c->fixed.direct && c->fixed.elastic && !c->fixed.slip) {
        memcpy(c->memo.rest_n, n, sizeof c->memo.rest_n);
        c->memo.rest_force = 1;
    }
}

/* the provisional force of an open contact that overlaps, from the memo when its key is
   unchanged; kept in keep's memo when keep is not NULL */
double contacts_memo_force(const contact_set *sc, const contacts_contact *c,
                           const kinematics_contact *geo, const double *q, double *f0,
                           contacts_contact *keep);
/* adds the kept generalised forces of an open contact at rest to g; 1 if it did */
int contacts_memo_reuse_force(const contacts_contact *c, const double *q, const double *v,
                              double *g);
/* at an event of the contact: its phase and law state may change */
void contacts_memo_forget(contacts_contact *c);

/* the Richardson-extrapolated central difference of contact c's generalised forces A (body
   a) and B (body b) at the shifts h, -h, h/2, -h/2 of coordinate col, added to column col
   of out (nq rows) (contacts_jacobian.c; an element's extra force's as well, contacts_extra.c) */
void contacts_richardson_column(const contacts_contact *c, dyn_gjac *J, int rate, int col, double h,
                                const double A[4][3], const double B[4][3]);
/* at the start: nothing is kept */
void contacts_memo_reset(contacts_contact *c);

/* ---- contacts_impulse.c: the solve through the constraints ------------------- */

/* the generalised normal direction w into sc->imp.w, the response z into sc->imp.z and
   w . z = 1 / m_eff into *wz_out; 0, or -1 with the cause in sc->msg */
int contacts_impulse_response(contact_set *sc, int k, double t, const double *q,
                              const kinematics_contact *geo, double *wz_out);
/* the piecewise impact of contact k at its onset (v changed in place) */
clink_status contacts_impulse_onset(contact_set *sc, int k, double t, const double *q, double *v,
                                    const kinematics_contact *geo);

/* ---- contacts_records.c: impact records ---------------------------------------- */

/* notes contact c's separation at time t, positions q, for contacts_first_separation */
void contacts_note_separation(contacts_contact *c, double t, const double *q);

/* stores an impact record and calls the host's callback; -1 when out of memory */
int contacts_records_push(contact_set *sc, const clink_impact_record *r);
/* the record of the impact in progress at contact k, ended at t; -1 when out of memory */
int contacts_records_close(contact_set *sc, int k, double t, double v_sep, const double *work,
                           int persistent);

/* contacts_extra.c: the extra force of contact c from its element e (off when its element
   class has none for e); its force added to g (0, or -1 for a non-finite force: sc->msg);
   its Jacobian (analytic from the element's slopes, or by differences) added to J */
void contacts_extra_setup(contacts_contact *c, const model_element *e);
int contacts_extra_forces(contact_set *sc, contacts_contact *c, double t, const double *q,
                          const double *v, double *g);
int contacts_extra_jacobian(contact_set *sc, const contacts_contact *c, const double *q,
                            const double *v, dyn_gjac *J);

#endif
