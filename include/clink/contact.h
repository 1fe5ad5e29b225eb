/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * clink contact laws: normal force of a contact as a function of penetration,
 * penetration rate and the contact's own state. Usable on its own, without the
 * multibody kernel.
 *
 * Table of contents:
 *   - parameters          clink_contact_params, clink_contact_params_init(), _set(),
 *                         the descriptor clink_contact_param_count(), _at(), _find()
 *   - per-contact state   clink_contact_state, clink_contact_phase
 *   - the law catalogue   clink_law, clink_law_count(), clink_law_at(), clink_law_find()
 *   - evaluation          clink_law_onset(), clink_law_force(), clink_law_end_compression(),
 *                         clink_law_separation(), clink_law_release()
 *
 * Sign conventions: delta > 0 is penetration (m); delta_dot > 0 means the bodies
 * approach (m/s); a positive force pushes the bodies apart (N). The impact
 * velocity v_impact is delta_dot at onset, so it is positive.
 *
 * Ownership: clink_law pointers refer to static storage and are never freed;
 * parameter and state structs belong to the caller.
 */
#ifndef CLINK_CONTACT_H
#define CLINK_CONTACT_H

#include "clink/clink.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- parameters ----------------------------------------------------------- */

/*
 * Everything any law may read. Fields a law does not use are ignored; a field
 * that is NaN is "not given" (clink_contact_params_init() sets every field to
 * NaN). Each law documents which fields it needs (clink_law_info).
 */
typedef struct clink_contact_params {
    double K;     /* stiffness, N/m^n */
    double n;     /* stiffness exponent (3/2 for Hertz; p of the power-law Tsuji law), - */
    double e;     /* target coefficient of restitution, in (0, 1] */
    double chi;   /* hysteresis damping factor given directly (empirical laws), N s/m^(m+1) */
    double c;     /* linear damping coefficient given directly, N s/m */
    double alpha; /* dimensionless damping of Tsuji-type laws; NaN: from e */
    double v_ref; /* reference velocity, m/s: laws with chi ~ 1/v use max(v_impact, v_ref) */

    /* materials and geometry (stiffness from Hertz theory, Ma-Liu plasticity) */
    double E1, E2;     /* Young's moduli, Pa */
    double nu1, nu2;   /* Poisson ratios, - */
    double R1, R2;     /* radii of curvature, m (INFINITY: plane; negative: concave) */
    double eta1, eta2; /* bulk and shear viscosities (Kuwabara-Kono/Brilliantov), Pa s */
    double Y;          /* yield strength of the softer body (Ma-Liu), Pa */
    double psi, xi;    /* Ma-Liu plasticity parameters, - */

    /* options */
    double zero_force; /* Kelvin-Voigt, Anagnostopoulos: 1 separates at zero force, 0 (default)
                          at zero penetration with tension */

    /* conformal cylinder laws (docs/contact-laws.md, "Cylinder laws") */
    double L; /* axial length of the contact (the shorter of journal and bearing), m */
} clink_contact_params;

/* Sets every field to NaN ("not given"). */
CLINK_API void clink_contact_params_init(clink_contact_params *params);

/*
 * Sets one field by its name in the struct ("K", "n", "e", "chi", "c", "alpha",
 * "v_ref", "E1", ...). Returns CLINK_ERR_NOT_FOUND for an unknown key and
 * CLINK_ERR_NONFINITE for a NaN or infinite value (except +INFINITY for R1, R2).
 * Ranges are checked by clink_law_check(), which knows what each law needs.
 */
CLINK_API clink_status clink_contact_params_set(clink_contact_params *params, const char *key,
                                                double value);

/*
 * The parameter descriptor: one row per field of clink_contact_params, in struct
 * order (static storage): its key, its offset in the struct and its unit ("-"
 * for numbers without one). Readers of parameters by name (the XML reader, the
 * command line) go through it, so a field added to the struct and to this
 * table (src/contact/law_descriptor.c) is settable everywhere.
 */
typedef struct clink_contact_param {
    const char *key;  /* the field's name, "K", "nu1", ... */
    size_t offset;    /* offsetof(clink_contact_params, field) */
    const char *unit; /* "N/m^n", "Pa", "-", ... */
} clink_contact_param;

CLINK_API size_t clink_contact_param_count(void);
/* row i (NULL when i >= clink_contact_param_count()) */
CLINK_API const clink_contact_param *clink_contact_param_at(size_t i);
/* the row of key, NULL if none */
CLINK_API const clink_contact_param *clink_contact_param_find(const char *key);

/* The keys clink_contact_params_set() accepts, in struct order (static storage). */
CLINK_API size_t clink_contact_params_key_count(void);
CLINK_API const char *clink_contact_params_key(size_t i);

/* Default reference velocity, m/s, for laws with chi ~ 1/v_impact when v_ref is not given. */
#define CLINK_CONTACT_V_REF_DEFAULT 1e-3

/* ---- per-contact state ---------------------------------------------------- */

typedef enum clink_contact_phase {
    CLINK_CONTACT_OPEN = 0,        /* no contact */
    CLINK_CONTACT_COMPRESSION = 1, /* delta_dot > 0 since onset */
    CLINK_CONTACT_RESTITUTION = 2, /* after the end of compression, until separation */
    CLINK_CONTACT_RELEASED = 3     /* separated at zero force with delta > 0 left */
} clink_contact_phase;

/*
 * The state of one contact, owned by whoever integrates it (the laboratory or a
 * simulation). The fields under "history" survive from one impact to the next
 * of the same pair (elastoplastic laws); clink_contact_state_init() zeroes all.
 */
typedef struct clink_contact_state {
    clink_contact_phase phase;
    double v_impact;  /* delta_dot at onset of the current or last impact, m/s */
    double m_eff;     /* effective mass at onset, kg */
    double chi;       /* damping factor of chi delta^m delta_dot fixed at onset, N s/m^(m+1);
                         0 for laws with m = 0 */
    double c;         /* linear damping coefficient of c delta_dot fixed at onset (laws with
                         m = 0: Kelvin-Voigt, Anagnostopoulos, Hertz + damper), N s/m */
    double delta_max; /* largest penetration of the current or last impact, m */
    double F_max;     /* largest force of the current or last impact, N */
    double delta_sep; /* penetration at separation (residual), m */

    /* history (elastoplastic laws) */
    double hist_delta_max; /* largest penetration ever reached by this pair, m */
    double hist_F_max;     /* force at hist_delta_max, N */
    double hist_delta_r;   /* residual indentation after unloading from hist_delta_max, m */
    double hist_R;         /* unloading radius of curvature, m */
    int hist_plastic;      /* nonzero once the pair has yielded */

    /* law constants fixed at onset (so that force evaluation is cheap) */
    double K; /* stiffness, N/m^n (given, or from materials and geometry) */
    double n; /* stiffness exponent, - */
    double m; /* damping exponent: the damping force is chi delta^m delta_dot, - */
} clink_contact_state;

CLINK_API void clink_contact_state_init(clink_contact_state *state);

/* ---- the law catalogue ---------------------------------------------------- */

/* An entry of the catalogue (static storage). */
typedef struct clink_law clink_law;

/* Number of laws; clink_law_at(i) for i < count gives each, in catalogue order. */
CLINK_API size_t clink_law_count(void);
CLINK_API const clink_law *clink_law_at(size_t i);

/* The law with this name or alias (kebab-case, case-sensitive), or NULL. */
CLINK_API const clink_law *clink_law_find(const char *name);

/* What a law is, for `clink laws` and the documentation (static strings). */
typedef struct clink_law_info {
    const char *name;       /* canonical name, e.g. "hunt-crossley" */
    const char *aliases;    /* comma-separated, "" if none */
    const char *title;      /* e.g. "Hunt and Crossley (1975)" */
    const char *formula;    /* plain-text force law */
    const char *damping;    /* how the damping is set (calibration rule) */
    const char *reference;  /* bibliographic reference and the equation of the source paper */
    const char *required;   /* comma-separated keys of clink_contact_params needed */
    const char *optional;   /* comma-separated keys that may be given */
    const char *separation; /* "zero penetration", "zero force", ... */
    int can_pull;           /* nonzero if the force may become tensile */
    double n_default;       /* stiffness exponent unless given */
    double m;               /* damping exponent (delta^m), NaN when not of that shape */
} clink_law_info;

CLINK_API void clink_law_get_info(const clink_law *law, clink_law_info *info);
CLINK_API const char *clink_law_name(const clink_law *law);

/*
 * The contact geometry a law applies to (static string): "point" (the laws of
 * Hertz's sphere form, any pair), "cylinder-internal" (a journal in a bearing:
 * one radius of curvature negative), "cylinder-external" (two convex cylinders
 * with parallel axes) or "cylinder" (either of the two cylinder geometries).
 * NULL for a NULL law.
 */
CLINK_API const char *clink_law_geometry(const clink_law *law);

/* ---- evaluation ----------------------------------------------------------- */

/*
 * Checks that params carries everything the law needs, in range (K > 0,
 * n >= 1, e in (0, 1], ...). On error writes one line into msg (if not NULL)
 * naming the parameter and the valid range.
 */
CLINK_API clink_status clink_law_check(const clink_law *law, const clink_contact_params *params,
                                       char *msg, size_t msg_size);

/*
 * Contact onset: records v_impact (> 0, m/s) and m_eff (kg) in state, fixes the
 * damping (chi or c) from the law's rule, and sets the phase to COMPRESSION.
 */
CLINK_API clink_status clink_law_onset(const clink_law *law, const clink_contact_params *params,
                                       double v_impact, double m_eff, clink_contact_state *state);

/*
 * The normal force, N (positive pushes apart), at penetration delta (m) and rate
 * delta_dot (m/s) in the current phase. Pure: does not change state. Returns 0
 * in the OPEN phase. NaN when the law's arithmetic has no value (an overflowing
 * spring met by an overflowing damper of opposite sign), never replaced by 0.
 */
CLINK_API double clink_law_force(const clink_law *law, const clink_contact_params *params,
                                 const clink_contact_state *state, double delta, double delta_dot);

/* End of compression (delta_dot reached 0 at penetration delta): phase RESTITUTION. */
CLINK_API void clink_law_end_compression(const clink_law *law, const clink_contact_params *params,
                                         double delta, clink_contact_state *state);

/*
 * The separation function of the current phase, whose zero (crossed from
 * positive to non-positive) ends the contact: delta itself for laws that separate
 * at zero penetration, the force for laws that separate at zero force, delta
 * minus the residual indentation for elastoplastic laws.
 */
CLINK_API double clink_law_separation(const clink_law *law, const clink_contact_params *params,
                                      const clink_contact_state *state, double delta,
                                      double delta_dot);

/*
 * Separation: phase OPEN, or RELEASED when delta > 0 remains; records
 * delta_sep and updates the history of elastoplastic laws.
 */
CLINK_API void clink_law_release(const clink_law *law, const clink_contact_params *params,
                                 double delta, clink_contact_state *state);

/*
 * The elastic energy stored at penetration delta (m): integral_0^delta F(s, 0) ds (J), the
 * work of the rate-independent part of the force along the curve of the current state
 * (after an end of compression an elastoplastic law's unloading curve). Exact: K delta^(n+1)
 * / (n+1) for the laws of the form K delta^n + damping, the branches of Ma-Liu's loading and
 * unloading curves, Hertz and Kp delta for wang-liu-flores. 0 in the OPEN and RELEASED phases
 * and for delta <= 0.
 */
CLINK_API double clink_law_stored_energy(const clink_law *law, const clink_contact_params *params,
                                         const clink_contact_state *state, double delta);

/* ---- stiffness, mass and closed forms ---------------------------------------- */

/*
 * Hertz stiffness of two bodies with radii of curvature R1, R2 (m), Alves et al. (2015)
 * Eqs. 3-4: K = 4 / (3 (s1 + s2)) sqrt(R*), s_k = (1 - nu_k^2) / E_k (1/Pa),
 * 1/R* = 1/R1 + 1/R2. R = INFINITY is a plane; a negative radius is a concave
 * surface (the bearing of a journal: R2 = -R_bearing gives R* = R1 Rb / (Rb - R1)).
 * Writes K (N/m^1.5). CLINK_ERR_RANGE unless E > 0, -1 < nu < 0.5 and R* > 0.
 */
CLINK_API clink_status clink_contact_stiffness_hertz(double E1, double nu1, double E2, double nu2,
                                                     double R1, double R2, double *K);
/* Sphere of radius R (m) on a plane (R2 = INFINITY above). */
CLINK_API clink_status clink_contact_stiffness_sphere_plane(double E1, double nu1, double E2,
                                                            double nu2, double R, double *K);
/*
 * Journal of radius R_journal (m) inside a bearing of radius R_bearing > R_journal:
 * K = 4 / (3 (s1 + s2)) sqrt(R_journal R_bearing / (R_bearing - R_journal)).
 * E1, nu1 belong to the journal, E2, nu2 to the bearing.
 */
CLINK_API clink_status clink_contact_stiffness_journal_bearing(double E1, double nu1, double E2,
                                                               double nu2, double R_journal,
                                                               double R_bearing, double *K);

/*
 * The stiffness a law uses: params->K if given, else Hertz from E1, nu1, E2,
 * nu2, R1, R2. CLINK_ERR_ARG with a message in msg when neither is complete.
 */
CLINK_API clink_status clink_contact_params_stiffness(const clink_contact_params *params, double *K,
                                                      char *msg, size_t msg_size);

/* Effective mass m1 m2 / (m1 + m2), kg; an INFINITY mass (fixed body) gives the other. */
CLINK_API double clink_contact_effective_mass(double m1, double m2);

/*
 * Undamped power-law impact m x'' + K x^n = 0 from x = 0, x' = v (m/s):
 * delta_max = ((n + 1) m v^2 / (2 K))^(1/(n + 1)) (m) and F_max = K delta_max^n (N);
 * for n = 3/2, F_max = K (5 m v^2 / (4 K))^(3/5). NaN outside K, m > 0, n >= 1, v >= 0.
 */
CLINK_API double clink_contact_undamped_delta_max(double K, double n, double m, double v);
CLINK_API double clink_contact_undamped_force_max(double K, double n, double m, double v);

/*
 * Linear damping ratio that gives restitution e for a linear spring-dashpot
 * separating at zero penetration: xi = -ln e / sqrt(pi^2 + ln^2 e), in [0, 1).
 * NaN unless 0 < e <= 1.
 */
CLINK_API double clink_contact_damping_ratio(double e);

/*
 * Exact restitution of the Kelvin-Voigt model m x'' + c x' + k x = 0 separating
 * when the force c x' + k x returns to zero (Butcher and Segalman (2000), Poursina and Nikravesh
 * (2020) Eq. 55 as corrected in the readings in docs/contact-laws.md), xi = c / (2 sqrt(k m)) >= 0:
 * e = exp(-2 xi acos(xi) / sqrt(1 - xi^2)) for xi < 1, e = exp(-2) at xi = 1,
 * e = ((xi - s) / (xi + s))^(xi / s), s = sqrt(xi^2 - 1), for xi > 1.
 */
CLINK_API double clink_contact_kv_restitution_zero_force(double xi);

/*
 * Poursina-Nikravesh optimal linear damping (Poursina and Nikravesh 2020, Eqs. 46, 47, 49):
 * alpha(n) = 0.3331 n^4 - 1.48 n^3 + 3.077 n^2 - 2.306 n + 1.794,
 * beta(n) = 1.285 n^0.2553 - 1.725,
 * c_opt = alpha (e^beta - 1) (K v^(n-1) m^n)^(1/(n+1)), N s/m, for a Hertz spring
 * K delta^n (N/m^n), impact velocity v (m/s), mass m (kg), restitution e in (0, 1].
 * Fitted for 1 <= n <= 2; NaN for invalid input.
 */
CLINK_API double clink_contact_poursina_alpha(double n);
CLINK_API double clink_contact_poursina_beta(double n);
CLINK_API double clink_contact_poursina_c_opt(double e, double n, double K, double v, double m);

/*
 * The exact Hunt-Crossley calibration (Gonthier et al. (2004), Zhang and Sharf (2009); Poursina and
 * Nikravesh (2020) Eqs. 18-19): d in [0, 1) solving (1 + d/e) / (1 - d) = exp(d (1 + 1/e)); then
 * chi = d K / (e v) gives restitution exactly e for any n and mass. NaN unless 0 < e <= 1; d = 0 at
 * e = 1.
 */
CLINK_API double clink_contact_gonthier_d(double e);

/* ---- what a law's own damping rule reaches ----------------------------------- */

/*
 * A law with a rule from the restitution e (chi or c set from e alone at contact
 * onset: the Hunt-Crossley family, Tsuji, the linear dashpots, Jankowski,
 * Poursina-Nikravesh) does not always rebound with the e it was given:
 * Lankarani-Nikravesh asked for e = 0.8 gives 0.847. These functions measure it
 * in the impact laboratory (include/clink/lab.h): one central impact of 1 kg at
 * 1 m/s (these rules make the restitution independent of mass and velocity,
 * above v_ref), with params as given (K, n, materials; K = 1e9 N/m^n when
 * neither K nor materials are given) and e set to the request; a given chi, c
 * or alpha is ignored, so that the rule sets the damping. The criterion: the
 * rule reaches e when |e_achieved - e| <= tolerance (CLINK_LAW_RESTITUTION_TOL,
 * 0.01, unless given). The Wang-Liu dashpots, whose restitution depends on the
 * plastic loading and the impact velocity as well, are not covered: `clink
 * impact` with their materials and velocity shows what they give.
 */
#define CLINK_LAW_RESTITUTION_TOL 0.01
enum { CLINK_LAW_RESTITUTION_INTERVALS = 4 };

/* Nonzero if the law sets its damping from e (the functions below apply to it). */
CLINK_API int clink_law_has_restitution_rule(const clink_law *law);

/* The restitution the law's rule gives for the requested e in (0, 1] (the laboratory's
   e_out), in *e_achieved. CLINK_ERR_ARG for a law without a rule from e, the
   laboratory's status when the impact fails. */
CLINK_API clink_status clink_law_achieved_restitution(const clink_law *law,
                                                      const clink_contact_params *params, double e,
                                                      double *e_achieved);

/* The requested restitutions the rule reaches: intervals of e in (0, 1]. */
typedef struct clink_law_restitution_range {
    double n;         /* the stiffness exponent used */
    double tolerance; /* the criterion |e_achieved - e| <= tolerance */
    double e_min;     /* the smallest e examined (the grid starts there) */
    int count;        /* intervals found (0: the rule reaches no e of the grid) */
    double lo[CLINK_LAW_RESTITUTION_INTERVALS], hi[CLINK_LAW_RESTITUTION_INTERVALS];
    int more;           /* nonzero: more intervals than the arrays hold (the last ones dropped) */
    double worst_e;     /* the request with the largest |e_achieved - e| on the grid */
    double worst_error; /* e_achieved - e there (signed) */
    int impacts;        /* laboratory impacts computed */
} clink_law_restitution_range;

/*
 * Finds where the rule reaches the request: e_achieved on the grid e = 0.02,
 * 0.04, ..., 1, then each end of an interval of grid points that meet the
 * criterion refined by bisection to 1e-3 (an interval's end between two grid
 * points is where |e_achieved - e| crosses the tolerance). tolerance <= 0 takes
 * CLINK_LAW_RESTITUTION_TOL. Errors as clink_law_achieved_restitution().
 */
CLINK_API clink_status clink_law_restitution_range_find(const clink_law *law,
                                                        const clink_contact_params *params,
                                                        double tolerance,
                                                        clink_law_restitution_range *range);

/* Nonzero if e lies in one of the range's intervals. */
CLINK_API int clink_law_restitution_range_has(const clink_law_restitution_range *range, double e);

/* The range as text: "e in [lo, hi]" joined by commas and "and", "no e of (0, 1]" when
 * empty; truncated to size. */
CLINK_API void clink_law_restitution_range_format(const clink_law_restitution_range *range,
                                                  char *buf, size_t size);

/*
 * When params ask the law for a restitution e (and no damping parameter that would
 * replace the rule) that its own rule does not reach within CLINK_LAW_RESTITUTION_TOL,
 * writes a warning into buf: what the rule gives (e_out, or measured in the laboratory
 * when e_out is NaN), the range it reaches at this exponent and the `clink calibrate`
 * command that finds the damping for e. Returns 1 with a warning, 0 when there is
 * nothing to say (or nothing could be measured).
 */
CLINK_API int clink_law_restitution_warning(const clink_law *law,
                                            const clink_contact_params *params, double e_out,
                                            char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* CLINK_CONTACT_H */
