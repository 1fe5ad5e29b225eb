/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The contact-law catalogue as data (internal to the library).
 *
 * Most laws of Feng (2026), Alves et al. (2015) and Poursina and Nikravesh (2020) share one shape,
 *
 *     F = K delta^n + chi delta^m delta_dot,
 *
 * and differ only in n, m, the rule that fixes chi at contact onset, whether the
 * force may pull and how the contact separates. Each law is one const row
 * `struct clink_law`; the generic code of law_*.c reads the row. A law that needs
 * code of its own sets the hooks it needs (onset, force, end_compression,
 * separation, release, check, stored, kinks); a NULL hook means "use the generic behaviour",
 * and a hook may call the generic functions contact_law_default_*() below.
 *
 * Adding laws defined in a file of their own (for example the elastoplastic
 * laws in src/contact/elastoplastic.c):
 *   1. define `const struct clink_law clink_law_ma_liu = { ... };` in that file
 *      (include this header; rule CLINK_RULE_HOOK, hooks set);
 *   2. add `X(clink_law_ma_liu)` to CLINK_LAW_EXTERNAL_ROWS below.
 * That is the only edit needed: law_catalogue.c declares every symbol of the list and
 * appends it to the catalogue, after its own rows, in list order.
 */
#ifndef CLINK_CONTACT_LAW_TABLE_H
#define CLINK_CONTACT_LAW_TABLE_H

#include "clink/contact.h"

#include <math.h>
#include <stddef.h>

/* rows defined outside law_catalogue.c: X(symbol), in catalogue order */
#define CLINK_LAW_EXTERNAL_ROWS(X)                                                                 \
    X(clink_law_ma_liu)                                                                            \
    X(clink_law_wang_liu) X(clink_law_wang_liu_flores) CLINK_LAW_CYLINDER_ROWS(X)

/* the conformal cylinder laws of src/contact/cylinder.c, in catalogue order */
/* clang-format off */
#define CLINK_LAW_CYLINDER_ROWS(X)                                                                 \
    X(clink_law_johnson_cylinder) X(clink_law_radzimovsky) X(clink_law_goldsmith)                  \
    X(clink_law_esdu_78035) X(clink_law_dubowsky_freudenstein) X(clink_law_lankarani_flores)       \
    X(clink_law_pereira) X(clink_law_liu_zhang_wang) X(clink_law_bai_zhao)
/* clang-format on */

/* the contact geometry a row applies to (clink_law_geometry); 0 for the rows that do not say */
typedef enum clink_law_geometry_kind {
    CLINK_LAW_GEOMETRY_POINT = 0,        /* any pair (Hertz's sphere form and its relatives) */
    CLINK_LAW_GEOMETRY_CYL_INTERNAL = 1, /* a journal in a bearing */
    CLINK_LAW_GEOMETRY_CYL_EXTERNAL = 2, /* two convex cylinders */
    CLINK_LAW_GEOMETRY_CYL_BOTH = 3      /* either */
} clink_law_geometry_kind;

/* how chi (the coefficient of delta^m delta_dot, stored in state->chi) is fixed at onset */
typedef enum clink_law_rule {
    CLINK_RULE_NONE = 0, /* no damping: chi = 0 (Hertz) */
    CLINK_RULE_CHI,      /* chi given (empirical laws) */
    CLINK_RULE_CHI_MASS, /* chi given, multiplied by m_eff (Lee-Herrmann) */
    CLINK_RULE_K_OVER_V, /* chi = factor(e) K / max(v_impact, v_ref) (Hunt-Crossley family) */
    CLINK_RULE_TSUJI,    /* chi = alpha sqrt(K m_eff), alpha given or Feng (2026), Eq. 14 (p = n) */
    CLINK_RULE_LINEAR_XI, /* chi = c given, or 2 xi(e) sqrt(K m_eff) (linear spring + dashpot) */
    CLINK_RULE_C,         /* chi = c given (linear damper) */
    CLINK_RULE_POURSINA,  /* chi = c_opt of Poursina and Nikravesh (2020), Eq. 49 */
    CLINK_RULE_JANKOWSKI, /* chi = 2 xi_J(e) sqrt(K m_eff), damping in compression only */
    CLINK_RULE_VISCOSITY, /* chi given, or from eta1, eta2, E1, nu1 (Kuwabara-Kono) */
    CLINK_RULE_HOOK       /* the row's onset hook fixes everything */
} clink_law_rule;

/* the damping exponent m */
typedef enum clink_law_m_rule {
    CLINK_M_FIXED = 0, /* m as in the row */
    CLINK_M_EQUALS_N,  /* m = n (Hunt-Crossley family) */
    CLINK_M_TSUJI      /* m = (n - 1) / 2 (power-law Tsuji) */
} clink_law_m_rule;

/* how a contact separates: the zero of clink_law_separation() */
typedef enum clink_law_sep {
    CLINK_SEP_DELTA = 0, /* at zero penetration */
    CLINK_SEP_FORCE,     /* when the (unclamped) force returns to zero */
    CLINK_SEP_OPTION     /* params.zero_force: 1 at zero force, else at zero penetration */
} clink_law_sep;

struct clink_law {
    /* what the law is (clink_law_info) */
    const char *name;
    const char *aliases; /* comma-separated, "" if none */
    const char *title;
    const char *formula;
    const char *damping;
    const char *reference;
    const char *required;
    const char *optional;
    const char *separation_rule;

    /* the data the generic code reads */
    double n;     /* default stiffness exponent */
    int n_free;   /* nonzero: params.n may replace n */
    double n_max; /* largest n accepted when n_free (INFINITY: no limit) */
    clink_law_m_rule m_rule;
    double m; /* damping exponent for CLINK_M_FIXED */
    clink_law_rule rule;
    double (*factor)(double e); /* CLINK_RULE_K_OVER_V: chi v / K as a function of e */
    int can_pull;               /* nonzero: the force is not clamped at zero */
    clink_law_sep sep;
    int compression_only; /* nonzero: damping only while delta_dot > 0 (Jankowski) */

    /* hooks for laws with code of their own (NULL: generic) */
    clink_status (*check)(const struct clink_law *law, const clink_contact_params *params,
                          char *msg, size_t msg_size);
    clink_status (*onset)(const struct clink_law *law, const clink_contact_params *params,
                          double v_impact, double m_eff, clink_contact_state *state);
    double (*force)(const struct clink_law *law, const clink_contact_params *params,
                    const clink_contact_state *state, double delta, double delta_dot);
    void (*end_compression)(const struct clink_law *law, const clink_contact_params *params,
                            double delta, clink_contact_state *state);
    double (*separation)(const struct clink_law *law, const clink_contact_params *params,
                         const clink_contact_state *state, double delta, double delta_dot);
    void (*release)(const struct clink_law *law, const clink_contact_params *params, double delta,
                    clink_contact_state *state);
    /* integral_0^delta F(s, 0) ds, J (NULL: K delta^(n+1) / (n+1) of the state's K and n) */
    double (*stored)(const struct clink_law *law, const clink_contact_params *params,
                     const clink_contact_state *state, double delta);
    /* penetrations (m) where the loading force F(delta, 0) has a jump in its slope or value,
       ascending, at most CONTACT_LAW_MAX_KINKS written to delta; returns how many (0 when the
       params do not define them). NULL: a smooth law, no kinks. The laboratory ends its steps
       there (an explicit pair's error estimate does not see a kink). */
    int (*kinks)(const struct clink_law *law, const clink_contact_params *params, double *delta);

    clink_law_geometry_kind geometry; /* the geometry the law applies to */
};

/* the most kinks a law reports (the size of the array its kinks hook fills) */
#define CONTACT_LAW_MAX_KINKS 2

/* the generic behaviour, for hooks that add to it */
clink_status contact_law_default_check(const struct clink_law *law,
                                       const clink_contact_params *params, char *msg,
                                       size_t msg_size);
clink_status contact_law_default_onset(const struct clink_law *law,
                                       const clink_contact_params *params, double v_impact,
                                       double m_eff, clink_contact_state *state);
/* the force before clamping at zero (what zero-force separation watches) */
double contact_law_default_raw_force(const struct clink_law *law,
                                     const clink_contact_params *params,
                                     const clink_contact_state *state, double delta,
                                     double delta_dot);
double contact_law_default_force(const struct clink_law *law, const clink_contact_params *params,
                                 const clink_contact_state *state, double delta, double delta_dot);
void contact_law_default_end_compression(const struct clink_law *law,
                                         const clink_contact_params *params, double delta,
                                         clink_contact_state *state);
double contact_law_default_separation(const struct clink_law *law,
                                      const clink_contact_params *params,
                                      const clink_contact_state *state, double delta,
                                      double delta_dot);
void contact_law_default_release(const struct clink_law *law, const clink_contact_params *params,
                                 double delta, clink_contact_state *state);

/*
 * The constants of a law with its params, derived once per contact (contact_law_prepare)
 * instead of at every onset: the stiffness K, the exponents n and m, v_ref and what the
 * damping rule derives from e, alpha or the viscosities. Only for a generic law (no onset
 * or force hook) whose params pass its check; for any other, generic is 0 and the cached
 * functions below call the law's own.
 */
typedef struct contact_law_cache {
    int generic;  /* 1: the fields below hold */
    double K;     /* N/m^n */
    double n, m;  /* stiffness and damping exponents */
    double v_ref; /* m/s */
    double pre;   /* the rule's factor: factor(e) K (K over v), alpha (Tsuji), 2 xi (linear xi,
                     Jankowski) */
    double chi;   /* the rules whose coefficient depends on neither v_impact nor m_eff */
} contact_law_cache;

void contact_law_prepare(const struct clink_law *law, const clink_contact_params *params,
                         contact_law_cache *lc);

/* clink_law_onset with the cached constants: the same state, bit for bit */
clink_status contact_law_onset_cached(const struct clink_law *law,
                                      const clink_contact_params *params,
                                      const contact_law_cache *lc, double v_impact, double m_eff,
                                      clink_contact_state *state);

/*
 * clink_law_force(delta, delta_dot) and, into *f0, clink_law_force(delta, 0), bit for bit
 * those of the two calls, with each power of delta computed once.
 */
double contact_law_force_pair(const struct clink_law *law, const clink_contact_params *params,
                              const clink_contact_state *state, double delta, double delta_dot,
                              double *f0);

/*
 * Appends one line "KEY: problem; valid range" to msg (lines separated by '\n'),
 * for check hooks. Always returns CLINK_ERR_RANGE.
 */
clink_status contact_law_complain(char *msg, size_t msg_size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* pi (C11 <math.h> has no M_PI) */
#define CONTACT_PI 3.14159265358979323846

/* 1 if the params field is given (not NaN) */
#define CONTACT_GIVEN(x) (!isnan(x))

#endif /* CLINK_CONTACT_LAW_TABLE_H */
