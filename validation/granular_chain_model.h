/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * granular_chain_model.h: the horizontal granular chain of Wang, Liu and Liu (2022), Sect. 5.2
 * (Table 8; the rig of Daraio and co-workers) built through the public API;
 * shared by val_granular_chain.c and bench_granular_chain.c, and the source of
 * models/granular_chain*.xml (validation/make_granular_chain.py writes the same
 * mechanism as XML, and val_granular_chain.c checks that both give the same
 * run).
 *
 * n beads of stainless steel 316 (radius 2.38 mm, E 193 GPa, nu 0.3, yield
 * strength 900 MPa as Table 8; density 8000 kg/m^3, the steel of the rig of
 * Daraio et al. (2006), so a mass of 4/3 pi R^3 rho = 0.45176 g, which Table 8
 * prints rounded as 0.45 g) touching in a row on the x axis, bead n
 * against a fixed wall (the base, a line on the ground at x = 0) and bead 1
 * struck by a striker bead (the same bead) arriving at v_striker from +x,
 * GRANULAR_GAP (10 um) away at t = 0. No gravity: the track carries the
 * weight, and gravity acts across the chain. The beads are free bodies (no
 * joint keeps them on the axis: the central impacts keep them there).
 * Bodies: 1..n the beads "b01".. (numbered from the striker side, as the
 * sensor beads of Table 8), n + 1 the striker. Contacts: k = 0 striker-bead 1,
 * k = 1..n-1 bead k - bead k+1, k = n bead n - wall. The moment of inertia is
 * a sphere's, 2/5 m R^2 (the beads do not spin in central impacts).
 */
#ifndef CLINK_GRANULAR_CHAIN_MODEL_H
#define CLINK_GRANULAR_CHAIN_MODEL_H

#include "clink/sim.h"

#include <math.h>
#include <stdio.h>

#define GRANULAR_R   2.38e-3 /* bead radius, m */
#define GRANULAR_RHO 8000.0  /* density of stainless steel 316, kg/m^3 */
/* bead mass, kg: 4/3 pi R^3 rho = 4.5176e-4 (Table 8 prints 0.45 g) */
#define GRANULAR_MASS                                                                              \
    (4.0 / 3.0 * 3.14159265358979323846 * GRANULAR_R * GRANULAR_R * GRANULAR_R * GRANULAR_RHO)
#define GRANULAR_E     193e9 /* Young's modulus, Pa */
#define GRANULAR_NU    0.3   /* Poisson's ratio */
#define GRANULAR_YIELD 900e6 /* yield strength, Pa */
#define GRANULAR_GAP   10e-6 /* striker to bead 1 at t = 0, m */
#define GRANULAR_V     1.77  /* striker speed of Wang, Liu and Liu (2022), m/s */

/* the contact law of every contact of the chain */
typedef struct granular_law {
    const char *name; /* "hertz", "wang-liu-flores", "ma-liu", ... */
    double e;         /* restitution (dashpots), NaN: not given */
    double v_ref;     /* reference velocity of the damping, m/s, NaN: not given */
    double psi, xi;   /* Ma-Liu plasticity parameters, NaN: not given */
} granular_law;

/* Hertz elastic chain: K from the materials (4.8775e9 N/m^1.5 bead to bead) */
static inline granular_law granular_hertz(void)
{
    granular_law l = {"hertz", NAN, NAN, NAN, NAN};
    return l;
}

/*
 * Wang, Liu and Liu (2022), Sect. 5.2: psi = 2.84, xi = 13; the dashpot with e = 0.65 and the
 * damping of the first contact (struck at 1.77 m/s) for every contact; Ma-Liu
 * with the same plasticity parameters.
 */
static inline granular_law granular_dashpot(void)
{
    granular_law l = {"wang-liu-flores", 0.65, GRANULAR_V, 2.84, 13.0};
    return l;
}

static inline granular_law granular_ma_liu(void)
{
    granular_law l = {"ma-liu", NAN, NAN, 2.84, 13.0};
    return l;
}

/* x of the centre of bead i (1..n; i = n + 1 the striker), m */
static inline double granular_x(int n, int i)
{
    return i <= n ? (2.0 * (n - i) + 1.0) * GRANULAR_R
                  : (2.0 * n + 1.0) * GRANULAR_R + GRANULAR_GAP;
}

/*
 * The chain of n >= 1 beads struck at v_striker (m/s), every contact with law;
 * settings s (NULL: the model's defaults). NULL with the builder's message in
 * err on failure.
 */
static inline clink_model *granular_chain_model(int n, double v_striker, const granular_law *law,
                                                const clink_settings_def *s, char *err,
                                                size_t errlen)
{
    clink_model_builder *b = clink_model_builder_create();
    clink_status st = b ? CLINK_OK : CLINK_ERR_NOMEM;
    char name[32];
    for (int i = 1; i <= n + 1 && st == CLINK_OK; i++) {
        clink_body_def bd = clink_default_body_def();
        if (i <= n)
            snprintf(name, sizeof name, "b%02d", i);
        else
            snprintf(name, sizeof name, "striker");
        bd.name = name;
        bd.mass = GRANULAR_MASS;
        bd.inertia = 0.4 * GRANULAR_MASS * GRANULAR_R * GRANULAR_R;
        bd.x = granular_x(n, i);
        bd.vx = i <= n ? 0.0 : -v_striker;
        st = clink_model_builder_add_body(b, &bd, NULL);
    }
    for (int k = 0; k <= n && st == CLINK_OK; k++) {
        clink_contact_pair_def c = clink_default_contact_pair_def();
        if (k < n)
            snprintf(name, sizeof name, "c%02d", k);
        else
            snprintf(name, sizeof name, "wall");
        c.name = name;
        /* contact k: bodies k (striker for k = 0) and k + 1; the wall against bead n */
        c.body_a = k == 0 ? n + 1 : k < n ? k : 0;
        c.body_b = k == 0 ? 1 : k < n ? k + 1 : n;
        c.shape_a.radius = GRANULAR_R;
        c.shape_b.radius = GRANULAR_R;
        if (k == n) {
            c.shape_a.type = CLINK_SHAPE_LINE;
            c.shape_a.radius = 0.0;
            c.shape_a.normal[0] = 1.0;
        }
        c.law = law->name;
        c.params.E1 = c.params.E2 = GRANULAR_E;
        c.params.nu1 = c.params.nu2 = GRANULAR_NU;
        c.params.Y = GRANULAR_YIELD;
        c.params.e = law->e;
        c.params.v_ref = law->v_ref;
        c.params.psi = law->psi;
        c.params.xi = law->xi;
        st = clink_model_builder_add_contact_pair(b, &c, NULL);
    }
    if (st == CLINK_OK) {
        clink_model_builder_set_gravity(b, 0.0, 0.0);
        if (s)
            st = clink_model_builder_set_settings(b, s);
    }
    clink_model *m = NULL;
    if (st == CLINK_OK)
        st = clink_model_builder_finalize(b, &m);
    if (st != CLINK_OK && err)
        snprintf(err, errlen, "%s", b ? clink_model_builder_error(b) : "out of memory");
    clink_model_builder_destroy(&b);
    return m;
}

/*
 * Settings of the chain runs: Adams (the chain is not stiff and BDF's dense
 * finite-difference Jacobian would cost n^2), no drift control (no
 * constraints), rtol 1e-8, atol 1e-13 (metres: 1e-7 of the 5-7 um
 * penetrations), output every 1 us.
 */
static inline clink_settings_def granular_settings(double t_end)
{
    clink_settings_def s = clink_default_settings_def();
    s.t_end = t_end;
    s.output_step = 1e-6;
    s.method = CLINK_METHOD_ADAMS;
    s.drift = CLINK_DRIFT_NONE;
    s.rtol = 1e-8;
    s.atol = 1e-13;
    return s;
}

#endif
