/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The contact-law catalogue and its generic evaluation.
 *
 * Every row is F = K delta^n + chi delta^m delta_dot (Alves et al. 2015, Eq. 1), with chi
 * fixed at contact onset by the row's rule from the restitution e, the stiffness
 * K, the impact velocity v(-) and the effective mass (Alves et al. 2015, Table 1, read as
 * in the readings in docs/contact-laws.md; Poursina and Nikravesh (2020), Eqs. 13-19 and 49; Feng
 * (2026), Eq. 14):
 *
 *   Hunt-Crossley family  chi = f(e) K / v,  m = n:
 *     hunt-crossley 3(1-e)/2, herbert-mcwhannell 6(1-e)/((2e-1)^2+3),
 *     lee-wang 3(1-e)/4, lankarani-nikravesh 3(1-e^2)/4, gonthier (1-e^2)/e,
 *     gonthier-exact d(e)/e (Poursina and Nikravesh 2020, Eqs. 18-19), zhiying-qishao
 *     3(1-e^2) exp(2(1-e))/4, flores 8(1-e)/(5e), hu-guo 3(1-e)/(2e),
 *     gharib-hurmuzlu 1/e;
 *   Tsuji family          chi = alpha sqrt(K m_eff), m = (n-1)/2, alpha of Feng (2026), Eq. 14;
 *   linear dashpot        chi = c or 2 xi(e) sqrt(K m_eff), n = 1, m = 0;
 *   Jankowski             chi = 2 xi_J sqrt(K m_eff), m = 1/4, only while delta_dot > 0,
 *                         xi_J = 9 sqrt(5)/2 (1-e^2) / (e (e (9 pi - 16) + 16));
 *   Kuwabara-Kono         chi = K (3 eta2 - eta1)^2 / (3 (3 eta2 + 2 eta1))
 *                         (1 - nu)(1 - 2 nu) / (E nu^2), m = 1/2;
 *   Poursina-Nikravesh    chi = c_opt (Eq. 49), m = 0, separation at zero force.
 *
 * Laws whose chi ~ 1/v use v = max(v_impact, v_ref) (v_ref default 1e-3 m/s), so
 * a resting contact (v_impact = 0) gets a large but finite damping, never NaN.
 */
#include "contact/law_table.h"
#include "contact/material.h"

#include "clink/feng.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- the parameter descriptor ---------------------------------------------- */

#define PARAM_(f, unit)                                                                            \
    {                                                                                              \
#f, offsetof(clink_contact_params, f), unit                                                \
    }
static const clink_contact_param params_table[] = {
    PARAM_(K, "N/m^n"), PARAM_(n, "-"),       PARAM_(e, "-"),          PARAM_(chi, "N s/m^(m+1)"),
    PARAM_(c, "N s/m"), PARAM_(alpha, "-"),   PARAM_(v_ref, "m/s"),    PARAM_(E1, "Pa"),
    PARAM_(E2, "Pa"),   PARAM_(nu1, "-"),     PARAM_(nu2, "-"),        PARAM_(R1, "m"),
    PARAM_(R2, "m"),    PARAM_(eta1, "Pa s"), PARAM_(eta2, "Pa s"),    PARAM_(Y, "Pa"),
    PARAM_(psi, "-"),   PARAM_(xi, "-"),      PARAM_(zero_force, "-"),
};
#undef PARAM_
enum { PARAMS_COUNT = sizeof params_table / sizeof params_table[0] };

size_t clink_contact_param_count(void)
{
    return PARAMS_COUNT;
}

const clink_contact_param *clink_contact_param_at(size_t i)
{
    return i < PARAMS_COUNT ? &params_table[i] : NULL;
}

const clink_contact_param *clink_contact_param_find(const char *key)
{
    for (size_t i = 0; key != NULL && i < PARAMS_COUNT; i++)
        if (strcmp(params_table[i].key, key) == 0)
            return &params_table[i];
    return NULL;
}

/* ---- calibration factors chi v / K of the Hunt-Crossley family --------------- */

static double f_hunt_crossley(double e)
{
    return 1.5 * (1 - e);
}
static double f_herbert_mcwhannell(double e)
{
    return 6 * (1 - e) / ((2 * e - 1) * (2 * e - 1) + 3);
}
static double f_lee_wang(double e)
{
    return 0.75 * (1 - e);
}
static double f_lankarani_nikravesh(double e)
{
    return 0.75 * (1 - e * e);
}
static double f_gonthier(double e)
{
    return (1 - e * e) / e;
}
static double f_gonthier_exact(double e)
{
    return clink_contact_gonthier_d(e) / e;
}
static double f_zhiying_qishao(double e)
{
    return 0.75 * (1 - e * e) * exp(2 * (1 - e));
}
static double f_flores(double e)
{
    return 8 * (1 - e) / (5 * e);
}
static double f_hu_guo(double e)
{
    return 3 * (1 - e) / (2 * e);
}
static double f_gharib_hurmuzlu(double e)
{
    return 1 / e;
}

/* Jankowski's damping ratio (Alves et al. 2015, Table 1, the factor after "2") */
static double jankowski_xi(double e)
{
    return 4.5 * sqrt(5.0) * (1 - e * e) / (e * (e * (9 * CONTACT_PI - 16) + 16));
}

/* ---- the rows ---------------------------------------------------------------- */

#define HC_REQUIRED    "K (or E1, E2, nu1, nu2, R1, R2), e"
#define HC_OPTIONAL    "n, v_ref"
#define SEP_DELTA_TEXT "zero penetration"
#define SEP_FORCE_TEXT "zero force (residual penetration kept)"

#define HC_ROW(sym, nm, al, ti, fac, damp, ref)                                                    \
    static const struct clink_law sym = {                                                          \
        .name = nm,                                                                                \
        .aliases = al,                                                                             \
        .title = ti,                                                                               \
        .formula = "F = max(0, K delta^n + chi delta^n delta_dot), n = 3/2 unless given",          \
        .damping = damp,                                                                           \
        .reference = ref,                                                                          \
        .required = HC_REQUIRED,                                                                   \
        .optional = HC_OPTIONAL,                                                                   \
        .separation_rule = SEP_DELTA_TEXT,                                                         \
        .n = 1.5,                                                                                  \
        .n_free = 1,                                                                               \
        .n_max = INFINITY,                                                                         \
        .m_rule = CLINK_M_EQUALS_N,                                                                \
        .rule = CLINK_RULE_K_OVER_V,                                                               \
        .factor = fac,                                                                             \
        .sep = CLINK_SEP_DELTA,                                                                    \
    }

static const struct clink_law law_hertz = {
    .name = "hertz",
    .aliases = "",
    .title = "Hertz (1881)",
    .formula = "F = K delta^n, n = 3/2 unless given",
    .damping = "none (elastic)",
    .reference = "Hertz (1881); Alves et al. (2015), Eq. 2",
    .required = "K (or E1, E2, nu1, nu2, R1, R2)",
    .optional = "n",
    .separation_rule = SEP_DELTA_TEXT,
    .n = 1.5,
    .n_free = 1,
    .n_max = INFINITY,
    .m_rule = CLINK_M_FIXED,
    .m = NAN,
    .rule = CLINK_RULE_NONE,
    .sep = CLINK_SEP_DELTA,
};

static const struct clink_law law_kelvin_voigt = {
    .name = "kelvin-voigt",
    .aliases = "",
    .title = "Kelvin-Voigt linear spring-dashpot",
    .formula = "F = K delta + c delta_dot (may pull when zero_force = 0)",
    .damping = "c given (N s/m), or c = 2 xi sqrt(K m_eff), xi = -ln e / sqrt(pi^2 + ln^2 e)",
    .reference =
        "Alves et al. (2015), Sect. 2 (Kelvin-Voigt); Poursina and Nikravesh (2020), Eqs. 54-56",
    .required = "K, c (or e)",
    .optional = "zero_force",
    .separation_rule = "zero penetration with tension (zero_force = 0, default), or zero force "
                       "(zero_force = 1)",
    .n = 1,
    .n_max = 1,
    .m_rule = CLINK_M_FIXED,
    .m = 0,
    .rule = CLINK_RULE_LINEAR_XI,
    .can_pull = 1,
    .sep = CLINK_SEP_OPTION,
};

static const struct clink_law law_anagnostopoulos = {
    .name = "anagnostopoulos",
    .aliases = "",
    .title = "Anagnostopoulos (1988)",
    .formula = "F = K delta + chi delta_dot (linear spring, plain linear damper; may pull)",
    .damping = "chi = 2 xi sqrt(K m_eff), xi = -ln e / sqrt(pi^2 + ln^2 e) (N s/m)",
    .reference = "Anagnostopoulos (1988); Alves et al. (2015), Table 1 (read as a plain linear "
                 "damper, the readings in docs/contact-laws.md)",
    .required = "K, e (or c)",
    .optional = "zero_force",
    .separation_rule = "zero penetration with tension (exact e), or zero force (zero_force = 1)",
    .n = 1,
    .n_max = 1,
    .m_rule = CLINK_M_FIXED,
    .m = 0,
    .rule = CLINK_RULE_LINEAR_XI,
    .can_pull = 1,
    .sep = CLINK_SEP_OPTION,
};

static const struct clink_law law_ristow = {
    .name = "ristow",
    .aliases = "schafer",
    .title = "Ristow (1992); Schafer, Dippel and Wolf (1996)",
    .formula = "F = max(0, K delta^(3/2) + chi delta delta_dot)",
    .damping = "chi given (empirical), N s/m^2",
    .reference = "Ristow (1992); Schafer, Dippel and Wolf (1996); Alves et al. (2015), Table 1",
    .required = "K (or materials), chi",
    .optional = "",
    .separation_rule = SEP_DELTA_TEXT,
    .n = 1.5,
    .n_max = 1.5,
    .m_rule = CLINK_M_FIXED,
    .m = 1,
    .rule = CLINK_RULE_CHI,
    .sep = CLINK_SEP_DELTA,
};

static const struct clink_law law_lee_herrmann = {
    .name = "lee-herrmann",
    .aliases = "",
    .title = "Lee and Herrmann (1993)",
    .formula = "F = max(0, K delta^(3/2) + m_eff chi delta delta_dot)",
    .damping = "chi given (empirical), 1/(m s); multiplied by m_eff at onset",
    .reference = "Lee and Herrmann (1993); Alves et al. (2015), Table 1",
    .required = "K (or materials), chi",
    .optional = "",
    .separation_rule = SEP_DELTA_TEXT,
    .n = 1.5,
    .n_max = 1.5,
    .m_rule = CLINK_M_FIXED,
    .m = 1,
    .rule = CLINK_RULE_CHI_MASS,
    .sep = CLINK_SEP_DELTA,
};

HC_ROW(law_hunt_crossley, "hunt-crossley", "marhefka-orin",
       "Hunt and Crossley (1975); Marhefka and Orin (1999)", f_hunt_crossley,
       "chi = 3 (1 - e) / 2 K / v",
       "Hunt and Crossley (1975); Marhefka and Orin (1999); Alves et al. (2015), Table 1; "
       "Poursina and Nikravesh (2020), Eq. 13");
HC_ROW(law_herbert_mcwhannell, "herbert-mcwhannell", "", "Herbert and McWhannell (1977)",
       f_herbert_mcwhannell, "chi = 6 (1 - e) / ((2 e - 1)^2 + 3) K / v",
       "Herbert and McWhannell (1977); Alves et al. (2015), Table 1");
HC_ROW(law_lee_wang, "lee-wang", "", "Lee and Wang (1983)", f_lee_wang, "chi = 3 (1 - e) / 4 K / v",
       "Lee and Wang (1983); Alves et al. (2015), Table 1");
HC_ROW(law_lankarani_nikravesh, "lankarani-nikravesh", "", "Lankarani and Nikravesh (1990)",
       f_lankarani_nikravesh, "chi = 3 (1 - e^2) / 4 K / v",
       "Lankarani and Nikravesh (1990); Alves et al. (2015), Table 1; Poursina and Nikravesh "
       "(2020), Eq. 14");
HC_ROW(law_gonthier, "gonthier", "zhang-sharf",
       "Gonthier et al. (2004); Zhang and Sharf (2009), approximate form", f_gonthier,
       "chi = (1 - e^2) / e K / v (the approximation of Alves et al. (2015), Table 1)",
       "Gonthier et al. (2004); Zhang and Sharf (2004); Zhang and Sharf (2009); Alves et al. "
       "(2015), Table 1");
HC_ROW(law_gonthier_exact, "gonthier-exact", "",
       "Gonthier et al. (2004); Zhang and Sharf (2009), exact form", f_gonthier_exact,
       "chi = d K / (e v), d in [0, 1) solving (1 + d/e) / (1 - d) = exp(d (1 + 1/e)): "
       "restitution exactly e",
       "Poursina and Nikravesh (2020), Eqs. 18-19 (exact solution of the Hunt-Crossley impact)");
HC_ROW(law_zhiying_qishao, "zhiying-qishao", "", "Zhiying and Qishao (2006)", f_zhiying_qishao,
       "chi = 3 (1 - e^2) exp(2 (1 - e)) / 4 K / v",
       "Zhiying and Qishao (2006); Alves et al. (2015), Table 1");
HC_ROW(law_flores, "flores", "ye", "Flores et al. (2011); Ye et al. (2009)", f_flores,
       "chi = 8 (1 - e) / (5 e) K / v",
       "Flores et al. (2011); Ye et al. (2009); Alves et al. (2015), Table 1; Poursina and "
       "Nikravesh (2020), Eq. 16");
HC_ROW(law_hu_guo, "hu-guo", "", "Hu and Guo (2015)", f_hu_guo, "chi = 3 (1 - e) / (2 e) K / v",
       "Hu and Guo (2015); Poursina and Nikravesh (2020), Eq. 15");
HC_ROW(law_gharib_hurmuzlu, "gharib-hurmuzlu", "", "Gharib and Hurmuzlu (2012)", f_gharib_hurmuzlu,
       "chi = K / (e v), as printed in Alves et al. (2015), Table 1 (does not vanish at e = 1)",
       "Gharib and Hurmuzlu (2012); Alves et al. (2015), Table 1");

static const struct clink_law law_kuwabara_kono = {
    .name = "kuwabara-kono",
    .aliases = "brilliantov",
    .title = "Kuwabara and Kono (1987); Brilliantov et al. (1996)",
    .formula = "F = max(0, K delta^(3/2) + chi delta^(1/2) delta_dot)",
    .damping = "chi given (N s/m^1.5), or chi = K (3 eta2 - eta1)^2 / (3 (3 eta2 + 2 eta1)) "
               "(1 - nu1)(1 - 2 nu1) / (E1 nu1^2) from the viscosities",
    .reference =
        "Kuwabara and Kono (1987); Brilliantov et al. (1996); Alves et al. (2015), Table 1",
    .required = "K (or materials), chi (or eta1, eta2, E1, nu1)",
    .optional = "",
    .separation_rule = SEP_DELTA_TEXT,
    .n = 1.5,
    .n_max = 1.5,
    .m_rule = CLINK_M_FIXED,
    .m = 0.5,
    .rule = CLINK_RULE_VISCOSITY,
    .sep = CLINK_SEP_DELTA,
};

static const struct clink_law law_tsuji = {
    .name = "tsuji",
    .aliases = "",
    .title = "Tsuji, Tanaka and Ishida (1992)",
    .formula = "F = K delta^(3/2) + chi delta^(1/4) delta_dot (may pull near the end)",
    .damping = "chi = alpha sqrt(K m_eff), alpha given or alpha = sqrt(5) (-ln e) / sqrt(pi^2 + "
               "ln^2 e) (Feng 2026, Eq. 14, p = 3/2): restitution exactly e",
    .reference = "Tsuji, Tanaka and Ishida (1992); Alves et al. (2015), Table 1 (damping "
                 "exponent 1/4); Feng (2026), Eq. 14",
    .required = "K (or materials), e (or alpha)",
    .optional = "alpha",
    .separation_rule = SEP_DELTA_TEXT,
    .n = 1.5,
    .n_max = 1.5,
    .m_rule = CLINK_M_TSUJI,
    .rule = CLINK_RULE_TSUJI,
    .can_pull = 1,
    .sep = CLINK_SEP_DELTA,
};

static const struct clink_law law_power_law_tsuji = {
    .name = "power-law-tsuji",
    .aliases = "",
    .title = "Power-law Tsuji oscillator (Feng 2026)",
    .formula = "F = K delta^p + chi delta^((p-1)/2) delta_dot, p = n (may pull near the end)",
    .damping = "chi = alpha sqrt(K m_eff), alpha given or alpha = sqrt(2 (p + 1)) (-ln e) / "
               "sqrt(pi^2 + ln^2 e) (Feng 2026, Eq. 14): restitution exactly e for every v",
    .reference = "Feng (2026), Eqs. 1 and 14",
    .required = "K, e (or alpha)",
    .optional = "n (= p >= 1, default 3/2), alpha",
    .separation_rule = SEP_DELTA_TEXT,
    .n = 1.5,
    .n_free = 1,
    .n_max = INFINITY,
    .m_rule = CLINK_M_TSUJI,
    .rule = CLINK_RULE_TSUJI,
    .can_pull = 1,
    .sep = CLINK_SEP_DELTA,
};

static const struct clink_law law_jankowski = {
    .name = "jankowski",
    .aliases = "",
    .title = "Jankowski (2006)",
    .formula = "F = K delta^(3/2) + c(t) delta_dot while delta_dot > 0, F = K delta^(3/2) "
               "after; c(t) = 2 xi sqrt(K delta^(1/2) m_eff)",
    .damping = "xi = 9 sqrt(5) / 2 (1 - e^2) / (e (e (9 pi - 16) + 16))",
    .reference = "Jankowski (2006); Alves et al. (2015), Table 1 (original form, the readings in "
                 "docs/contact-laws.md)",
    .required = "K (or materials), e",
    .optional = "",
    .separation_rule = SEP_DELTA_TEXT,
    .n = 1.5,
    .n_max = 1.5,
    .m_rule = CLINK_M_FIXED,
    .m = 0.25,
    .rule = CLINK_RULE_JANKOWSKI,
    .sep = CLINK_SEP_DELTA,
    .compression_only = 1,
};

static const struct clink_law law_schwager_poschel = {
    .name = "schwager-poschel",
    .aliases = "bordbar-hyppanen",
    .title = "Bordbar and Hyppanen (2007); Schwager and Poschel (1998)",
    .formula = "F = max(0, K delta^(3/2) + chi delta^0.65 delta_dot)",
    .damping = "chi given (empirical), N s/m^1.65",
    .reference = "Bordbar and Hyppanen (2007); Schwager and Poschel (1998); Alves et al. (2015), "
                 "Table 1",
    .required = "K (or materials), chi",
    .optional = "",
    .separation_rule = SEP_DELTA_TEXT,
    .n = 1.5,
    .n_max = 1.5,
    .m_rule = CLINK_M_FIXED,
    .m = 0.65,
    .rule = CLINK_RULE_CHI,
    .sep = CLINK_SEP_DELTA,
};

static const struct clink_law law_hertz_linear_damper = {
    .name = "hertz-linear-damper",
    .aliases = "",
    .title = "Hertz spring with a linear damper",
    .formula = "F = K delta^n + c delta_dot until it returns to zero",
    .damping = "c given (N s/m)",
    .reference = "Poursina and Nikravesh (2020), Eq. 8",
    .required = "K (or materials), c",
    .optional = "n",
    .separation_rule = SEP_FORCE_TEXT,
    .n = 1.5,
    .n_free = 1,
    .n_max = INFINITY,
    .m_rule = CLINK_M_FIXED,
    .m = 0,
    .rule = CLINK_RULE_C,
    .sep = CLINK_SEP_FORCE,
};

static const struct clink_law law_poursina_nikravesh = {
    .name = "poursina-nikravesh",
    .aliases = "",
    .title = "Poursina and Nikravesh (2020), optimal linear damping",
    .formula = "F = K delta^n + c_opt delta_dot until it returns to zero",
    .damping = "c_opt = alpha(n) (e^beta(n) - 1) (K v^(n-1) m_eff^n)^(1/(n+1)), alpha, beta of "
               "Eqs. 46-47",
    .reference = "Poursina and Nikravesh (2020), Eqs. 46-51",
    .required = "K (or materials), e",
    .optional = "n (1 <= n <= 2, the range of the fit)",
    .separation_rule = SEP_FORCE_TEXT,
    .n = 1.5,
    .n_free = 1,
    .n_max = 2,
    .m_rule = CLINK_M_FIXED,
    .m = 0,
    .rule = CLINK_RULE_POURSINA,
    .sep = CLINK_SEP_FORCE,
};

#define CONTACT_DECLARE_ROW_(sym) extern const struct clink_law sym;
CLINK_LAW_EXTERNAL_ROWS(CONTACT_DECLARE_ROW_)
#undef CONTACT_DECLARE_ROW_

#define CONTACT_ROW_REF_(sym) &sym,
static const struct clink_law *const catalogue[] = {&law_hertz,
                                                    &law_kelvin_voigt,
                                                    &law_anagnostopoulos,
                                                    &law_ristow,
                                                    &law_lee_herrmann,
                                                    &law_hunt_crossley,
                                                    &law_herbert_mcwhannell,
                                                    &law_lee_wang,
                                                    &law_lankarani_nikravesh,
                                                    &law_gonthier,
                                                    &law_gonthier_exact,
                                                    &law_zhiying_qishao,
                                                    &law_flores,
                                                    &law_hu_guo,
                                                    &law_gharib_hurmuzlu,
                                                    &law_kuwabara_kono,
                                                    &law_tsuji,
                                                    &law_power_law_tsuji,
                                                    &law_jankowski,
                                                    &law_schwager_poschel,
                                                    &law_hertz_linear_damper,
                                                    &law_poursina_nikravesh,
                                                    CLINK_LAW_EXTERNAL_ROWS(CONTACT_ROW_REF_)};
#undef CONTACT_ROW_REF_

enum { CATALOGUE_COUNT = sizeof(catalogue) / sizeof(catalogue[0]) };

/* ---- catalogue access ------------------------------------------------------------ */

size_t clink_law_count(void)
{
    return CATALOGUE_COUNT;
}

const clink_law *clink_law_at(size_t i)
{
    return i < CATALOGUE_COUNT ? catalogue[i] : NULL;
}

/* 1 if name is one of the comma-separated entries of list */
static int in_list(const char *list, const char *name)
{
    size_t len = strlen(name);
    const char *p = list;

    while (*p != '\0') {
        const char *end = strchr(p, ',');
        size_t n = end != NULL ? (size_t) (end - p) : strlen(p);

        while (n > 0 && *p == ' ') {
            p++;
            n--;
        }
        if (n == len && strncmp(p, name, len) == 0)
            return 1;
        if (end == NULL)
            break;
        p = end + 1;
    }
    return 0;
}

const clink_law *clink_law_find(const char *name)
{
    size_t i;

    if (name == NULL || *name == '\0')
        return NULL;
    for (i = 0; i < CATALOGUE_COUNT; i++)
        if (strcmp(catalogue[i]->name, name) == 0)
            return catalogue[i];
    for (i = 0; i < CATALOGUE_COUNT; i++)
        if (in_list(catalogue[i]->aliases, name))
            return catalogue[i];
    return NULL;
}

static double law_m_of(const struct clink_law *law, double n)
{
    switch (law->m_rule) {
    case CLINK_M_EQUALS_N:
        return n;
    case CLINK_M_TSUJI:
        return (n - 1) / 2;
    case CLINK_M_FIXED:
        break;
    }
    return law->m;
}

void clink_law_get_info(const clink_law *law, clink_law_info *info)
{
    if (law == NULL || info == NULL)
        return;
    info->name = law->name;
    info->aliases = law->aliases;
    info->title = law->title;
    info->formula = law->formula;
    info->damping = law->damping;
    info->reference = law->reference;
    info->required = law->required;
    info->optional = law->optional;
    info->separation = law->separation_rule;
    info->can_pull = law->can_pull;
    info->n_default = law->n;
    info->m = law_m_of(law, law->n);
}

const char *clink_law_name(const clink_law *law)
{
    return law != NULL ? law->name : NULL;
}

/* ---- checking -------------------------------------------------------------------- */

clink_status contact_law_complain(char *msg, size_t msg_size, const char *fmt, ...)
{
    va_list ap;
    size_t used;

    if (msg == NULL || msg_size == 0)
        return CLINK_ERR_RANGE;
    used = 0;
    while (used < msg_size && msg[used] != '\0')
        used++;
    if (used >= msg_size - 1)
        return CLINK_ERR_RANGE;
    if (used > 0) {
        msg[used++] = '\n';
        msg[used] = '\0';
    }
    va_start(ap, fmt);
    vsnprintf(msg + used, msg_size - used, fmt, ap);
    va_end(ap);
    return CLINK_ERR_RANGE;
}

/* the exponent n the law uses with these params (NaN if params.n is invalid) */
static double law_n_of(const struct clink_law *law, const clink_contact_params *params)
{
    if (law->n_free && CONTACT_GIVEN(params->n))
        return params->n;
    return law->n;
}

static int e_ok(double e)
{
    return e > 0 && e <= 1;
}

static void need_e(const struct clink_law *law, const clink_contact_params *params, int *bad,
                   char *msg, size_t msg_size, const char *alternative)
{
    if (!CONTACT_GIVEN(params->e)) {
        contact_law_complain(msg, msg_size,
                             "e: missing; law '%s' needs the restitution e in (0, 1]%s", law->name,
                             alternative);
        *bad = 1;
    } else if (!e_ok(params->e)) {
        contact_law_complain(msg, msg_size, "e: %g is out of range; 0 < e <= 1", params->e);
        *bad = 1;
    }
}

static void need_nonneg(const struct clink_law *law, const char *key, double value,
                        const char *unit, int *bad, char *msg, size_t msg_size,
                        const char *alternative)
{
    if (!CONTACT_GIVEN(value)) {
        contact_law_complain(msg, msg_size, "%s: missing; law '%s' needs %s >= 0 (%s)%s", key,
                             law->name, key, unit, alternative);
        *bad = 1;
    } else if (!(value >= 0) || !isfinite(value)) {
        contact_law_complain(msg, msg_size, "%s: %g is out of range; %s >= 0 (%s)", key, value, key,
                             unit);
        *bad = 1;
    }
}

/* K (given or from materials) and the exponent n; 1 if anything is wrong, with the complaint */
static int check_stiffness(const struct clink_law *law, const clink_contact_params *params,
                           char *msg, size_t msg_size)
{
    int bad = 0;
    double K, n;
    char kmsg[256];

    /* stiffness */
    kmsg[0] = '\0';
    if (clink_contact_params_stiffness(params, &K, kmsg, sizeof(kmsg)) != CLINK_OK) {
        contact_law_complain(msg, msg_size, "%s", kmsg);
        bad = 1;
    }

    /* stiffness exponent */
    if (CONTACT_GIVEN(params->n)) {
        if (!law->n_free) {
            if (params->n != law->n) {
                contact_law_complain(
                    msg, msg_size, "n: %g is out of range; law '%s' has the fixed exponent n = %g",
                    params->n, law->name, law->n);
                bad = 1;
            }
        } else if (!(params->n >= 1) || !(params->n <= law->n_max) || !isfinite(params->n)) {
            if (isinf(law->n_max))
                contact_law_complain(msg, msg_size, "n: %g is out of range; n >= 1", params->n);
            else
                contact_law_complain(msg, msg_size, "n: %g is out of range; 1 <= n <= %g",
                                     params->n, law->n_max);
            bad = 1;
        }
    }
    n = law_n_of(law, params);
    if (!CONTACT_GIVEN(params->K) && n != 1.5 && CONTACT_GIVEN(params->E1)) {
        contact_law_complain(
            msg, msg_size, "K: Hertz stiffness from materials needs n = 3/2 (n is %g); give K", n);
        bad = 1;
    }

    return bad;
}

/* the viscosities eta1, eta2 with E1 and nu1 from which the viscosity rule derives chi */
static int check_viscosities(const clink_contact_params *params, char *msg, size_t msg_size)
{
    int bad = 0;

    if (!(params->eta1 >= 0) || !isfinite(params->eta1)) {
        contact_law_complain(msg, msg_size, "eta1: %g is out of range; eta1 >= 0 (Pa s)",
                             params->eta1);
        bad = 1;
    }
    if (!(params->eta2 >= 0) || !isfinite(params->eta2) ||
        !(3 * params->eta2 + 2 * params->eta1 > 0)) {
        contact_law_complain(msg, msg_size,
                             "eta2: %g is out of range; eta2 >= 0 (Pa s), 3 eta2 + 2 eta1 > 0",
                             params->eta2);
        bad = 1;
    }
    if (!contact_modulus_ok(params->E1)) {
        contact_law_complain(msg, msg_size, "E1: %g is out of range; E1 > 0 (Pa)", params->E1);
        bad = 1;
    }
    /* the rule for nu, and nu1 > 0: the damping divides by nu1^2 */
    if (!(contact_poisson_ok(params->nu1) && params->nu1 > 0)) {
        contact_law_complain(msg, msg_size, "nu1: %g is out of range; 0 < nu1 < 0.5", params->nu1);
        bad = 1;
    }
    return bad;
}

/* what the law's damping rule needs (chi, c, e, alpha or the viscosities) */
static int check_damping(const struct clink_law *law, const clink_contact_params *params, char *msg,
                         size_t msg_size)
{
    int bad = 0;

    switch (law->rule) {
    case CLINK_RULE_NONE:
    case CLINK_RULE_HOOK:
        break;
    case CLINK_RULE_CHI:
        need_nonneg(law, "chi", params->chi, "N s/m^(m+1)", &bad, msg, msg_size, "");
        break;
    case CLINK_RULE_CHI_MASS:
        need_nonneg(law, "chi", params->chi, "1/(m s)", &bad, msg, msg_size, "");
        break;
    case CLINK_RULE_K_OVER_V:
    case CLINK_RULE_JANKOWSKI:
    case CLINK_RULE_POURSINA:
        need_e(law, params, &bad, msg, msg_size, "");
        break;
    case CLINK_RULE_TSUJI:
        if (CONTACT_GIVEN(params->alpha)) {
            if (!(params->alpha >= 0) || !isfinite(params->alpha)) {
                contact_law_complain(msg, msg_size, "alpha: %g is out of range; alpha >= 0",
                                     params->alpha);
                bad = 1;
            }
        } else {
            need_e(law, params, &bad, msg, msg_size, " (or alpha >= 0)");
        }
        break;
    case CLINK_RULE_LINEAR_XI:
        if (CONTACT_GIVEN(params->c))
            need_nonneg(law, "c", params->c, "N s/m", &bad, msg, msg_size, "");
        else
            need_e(law, params, &bad, msg, msg_size, " (or the damping c >= 0, N s/m)");
        break;
    case CLINK_RULE_C:
        need_nonneg(law, "c", params->c, "N s/m", &bad, msg, msg_size, "");
        break;
    case CLINK_RULE_VISCOSITY:
        if (CONTACT_GIVEN(params->chi)) {
            need_nonneg(law, "chi", params->chi, "N s/m^1.5", &bad, msg, msg_size, "");
        } else if (!CONTACT_GIVEN(params->eta1) && !CONTACT_GIVEN(params->eta2)) {
            contact_law_complain(msg, msg_size,
                                 "chi: missing; law '%s' needs chi >= 0 (N s/m^1.5) or the "
                                 "viscosities eta1, eta2 (Pa s) with E1 (Pa) and nu1",
                                 law->name);
            bad = 1;
        } else {
            bad |= check_viscosities(params, msg, msg_size);
        }
        break;
    }

    return bad;
}

/* the options every law accepts: v_ref and zero_force */
static int check_options(const clink_contact_params *params, char *msg, size_t msg_size)
{
    int bad = 0;

    if (CONTACT_GIVEN(params->v_ref) && !(params->v_ref > 0 && isfinite(params->v_ref))) {
        contact_law_complain(msg, msg_size, "v_ref: %g is out of range; v_ref > 0 (m/s)",
                             params->v_ref);
        bad = 1;
    }
    if (CONTACT_GIVEN(params->zero_force) && params->zero_force != 0 && params->zero_force != 1) {
        contact_law_complain(msg, msg_size, "zero_force: %g is out of range; 0 or 1",
                             params->zero_force);
        bad = 1;
    }
    return bad;
}

clink_status contact_law_default_check(const struct clink_law *law,
                                       const clink_contact_params *params, char *msg,
                                       size_t msg_size)
{
    int bad = check_stiffness(law, params, msg, msg_size);

    bad |= check_damping(law, params, msg, msg_size);
    bad |= check_options(params, msg, msg_size);
    return bad ? CLINK_ERR_RANGE : CLINK_OK;
}

clink_status clink_law_check(const clink_law *law, const clink_contact_params *params, char *msg,
                             size_t msg_size)
{
    if (msg != NULL && msg_size > 0)
        msg[0] = '\0';
    if (law == NULL || params == NULL) {
        if (msg != NULL && msg_size > 0)
            snprintf(msg, msg_size, "law or params is NULL");
        return CLINK_ERR_ARG;
    }
    if (law->check != NULL)
        return law->check(law, params, msg, msg_size);
    return contact_law_default_check(law, params, msg, msg_size);
}

/* ---- onset ----------------------------------------------------------------------- */

/* the damping coefficient the law's rule fixes at onset (K, n checked; v = max(v_impact, v_ref)) */
static double onset_damping(const struct clink_law *law, const clink_contact_params *params,
                            double K, double n, double v_impact, double m_eff, double v)
{
    double chi = 0;

    switch (law->rule) {
    case CLINK_RULE_NONE:
    case CLINK_RULE_HOOK:
        chi = 0;
        break;
    case CLINK_RULE_CHI:
        chi = params->chi;
        break;
    case CLINK_RULE_CHI_MASS:
        chi = params->chi * m_eff;
        break;
    case CLINK_RULE_K_OVER_V:
        chi = law->factor(params->e) * K / v;
        break;
    case CLINK_RULE_TSUJI: {
        double alpha =
            CONTACT_GIVEN(params->alpha) ? params->alpha : clink_feng_alpha(params->e, n);
        chi = alpha * sqrt(K * m_eff);
        break;
    }
    case CLINK_RULE_LINEAR_XI:
        if (CONTACT_GIVEN(params->c))
            chi = params->c;
        else
            chi = 2 * clink_contact_damping_ratio(params->e) * sqrt(K * m_eff);
        break;
    case CLINK_RULE_C:
        chi = params->c;
        break;
    case CLINK_RULE_POURSINA:
        chi = clink_contact_poursina_c_opt(params->e, n, K, v_impact, m_eff);
        break;
    case CLINK_RULE_JANKOWSKI:
        chi = 2 * jankowski_xi(params->e) * sqrt(K * m_eff);
        break;
    case CLINK_RULE_VISCOSITY:
        if (CONTACT_GIVEN(params->chi)) {
            chi = params->chi;
        } else {
            double e1 = params->eta1, e2 = params->eta2, nu = params->nu1;
            chi = K / 3 * (3 * e2 - e1) * (3 * e2 - e1) / (3 * e2 + 2 * e1) * (1 - nu) *
                  (1 - 2 * nu) / (params->E1 * nu * nu);
        }
        break;
    }
    return chi;
}

clink_status contact_law_default_onset(const struct clink_law *law,
                                       const clink_contact_params *params, double v_impact,
                                       double m_eff, clink_contact_state *state)
{
    double K, n, m, chi, v_ref, v;
    clink_status st;

    if (!isfinite(v_impact) || !isfinite(m_eff))
        return CLINK_ERR_NONFINITE;
    if (v_impact < 0 || !(m_eff > 0))
        return CLINK_ERR_RANGE;
    st = clink_law_check(law, params, NULL, 0);
    if (st != CLINK_OK)
        return st;
    st = clink_contact_params_stiffness(params, &K, NULL, 0);
    if (st != CLINK_OK)
        return st;
    n = law_n_of(law, params);
    m = law_m_of(law, n);
    v_ref = CONTACT_GIVEN(params->v_ref) ? params->v_ref : CLINK_CONTACT_V_REF_DEFAULT;
    v = v_impact > v_ref ? v_impact : v_ref;

    chi = onset_damping(law, params, K, n, v_impact, m_eff, v);
    if (!isfinite(chi))
        return CLINK_ERR_NONFINITE;

    state->phase = CLINK_CONTACT_COMPRESSION;
    state->v_impact = v_impact;
    state->m_eff = m_eff;
    /* a damping exponent m = 0 is a plain linear damper: its coefficient is c */
    state->chi = m == 0 ? 0 : chi;
    state->c = m == 0 ? chi : 0;
    state->delta_max = 0;
    state->F_max = 0;
    state->delta_sep = 0;
    state->K = K;
    state->n = n;
    state->m = m;
    return CLINK_OK;
}

clink_status clink_law_onset(const clink_law *law, const clink_contact_params *params,
                             double v_impact, double m_eff, clink_contact_state *state)
{
    if (law == NULL || params == NULL || state == NULL)
        return CLINK_ERR_ARG;
    if (law->onset != NULL)
        return law->onset(law, params, v_impact, m_eff, state);
    return contact_law_default_onset(law, params, v_impact, m_eff, state);
}

/* ---- constants derived once (contact_law_cache) ------------------------------------ */

void contact_law_prepare(const struct clink_law *law, const clink_contact_params *params,
                         contact_law_cache *lc)
{
    double K;

    memset(lc, 0, sizeof *lc);
    if (law == NULL || params == NULL || law->onset != NULL || law->force != NULL ||
        clink_law_check(law, params, NULL, 0) != CLINK_OK ||
        clink_contact_params_stiffness(params, &K, NULL, 0) != CLINK_OK)
        return;
    lc->K = K;
    lc->n = law_n_of(law, params);
    lc->m = law_m_of(law, lc->n);
    lc->v_ref = CONTACT_GIVEN(params->v_ref) ? params->v_ref : CLINK_CONTACT_V_REF_DEFAULT;
    /* the factors of onset_damping's expressions, grouped as C evaluates them there */
    switch (law->rule) {
    case CLINK_RULE_K_OVER_V:
        lc->pre = law->factor(params->e) * K;
        break;
    case CLINK_RULE_TSUJI:
        lc->pre = CONTACT_GIVEN(params->alpha) ? params->alpha : clink_feng_alpha(params->e, lc->n);
        break;
    case CLINK_RULE_LINEAR_XI:
        if (!CONTACT_GIVEN(params->c))
            lc->pre = 2 * clink_contact_damping_ratio(params->e);
        break;
    case CLINK_RULE_JANKOWSKI:
        lc->pre = 2 * jankowski_xi(params->e);
        break;
    case CLINK_RULE_NONE:
    case CLINK_RULE_HOOK:
    case CLINK_RULE_CHI:
    case CLINK_RULE_CHI_MASS:
    case CLINK_RULE_C:
    case CLINK_RULE_POURSINA:
    case CLINK_RULE_VISCOSITY:
        break;
    }
    /* the rules that read neither v_impact nor m_eff */
    lc->chi = onset_damping(law, params, K, lc->n, 0.0, 1.0, lc->v_ref);
    lc->generic = 1;
}

/* onset_damping from the cached constants (the same operations on the same values) */
static double cached_damping(const struct clink_law *law, const clink_contact_params *params,
                             const contact_law_cache *lc, double v_impact, double m_eff, double v)
{
    switch (law->rule) {
    case CLINK_RULE_CHI_MASS:
        return params->chi * m_eff;
    case CLINK_RULE_K_OVER_V:
        return lc->pre / v;
    case CLINK_RULE_TSUJI:
    case CLINK_RULE_JANKOWSKI:
        return lc->pre * sqrt(lc->K * m_eff);
    case CLINK_RULE_LINEAR_XI:
        return CONTACT_GIVEN(params->c) ? params->c : lc->pre * sqrt(lc->K * m_eff);
    case CLINK_RULE_POURSINA:
        return clink_contact_poursina_c_opt(params->e, lc->n, lc->K, v_impact, m_eff);
    case CLINK_RULE_NONE:
    case CLINK_RULE_HOOK:
    case CLINK_RULE_CHI:
    case CLINK_RULE_C:
    case CLINK_RULE_VISCOSITY:
        break;
    }
    return lc->chi;
}

clink_status contact_law_onset_cached(const struct clink_law *law,
                                      const clink_contact_params *params,
                                      const contact_law_cache *lc, double v_impact, double m_eff,
                                      clink_contact_state *state)
{
    double chi, v;

    if (lc == NULL || !lc->generic)
        return clink_law_onset(law, params, v_impact, m_eff, state);
    if (state == NULL)
        return CLINK_ERR_ARG;
    /* contact_law_default_onset's checks in its order (the params passed theirs once) */
    if (!isfinite(v_impact) || !isfinite(m_eff))
        return CLINK_ERR_NONFINITE;
    if (v_impact < 0 || !(m_eff > 0))
        return CLINK_ERR_RANGE;
    v = v_impact > lc->v_ref ? v_impact : lc->v_ref;
    chi = cached_damping(law, params, lc, v_impact, m_eff, v);
    if (!isfinite(chi))
        return CLINK_ERR_NONFINITE;
    state->phase = CLINK_CONTACT_COMPRESSION;
    state->v_impact = v_impact;
    state->m_eff = m_eff;
    state->chi = lc->m == 0 ? 0 : chi;
    state->c = lc->m == 0 ? chi : 0;
    state->delta_max = 0;
    state->F_max = 0;
    state->delta_sep = 0;
    state->K = lc->K;
    state->n = lc->n;
    state->m = lc->m;
    return CLINK_OK;
}

/* ---- force and separation ---------------------------------------------------------- */

double contact_law_default_raw_force(const struct clink_law *law,
                                     const clink_contact_params *params,
                                     const clink_contact_state *state, double delta,
                                     double delta_dot)
{
    double dpos = delta > 0 ? delta : 0;
    double spring, damper;

    (void) params;
    /* a linear spring that may pull continues through delta = 0 so that the root
       delta = 0 is located on a smooth function; power laws stop at zero */
    if (state->n == 1 && law->can_pull)
        spring = state->K * delta;
    else
        spring = state->K * pow(dpos, state->n);
    if (law->compression_only && !(delta_dot > 0))
        damper = 0;
    else if (state->m == 0)
        damper = state->c * delta_dot;
    else if (state->chi == 0)
        damper = 0;
    else
        damper = state->chi * pow(dpos, state->m) * delta_dot;
    return spring + damper;
}

double contact_law_default_force(const struct clink_law *law, const clink_contact_params *params,
                                 const clink_contact_state *state, double delta, double delta_dot)
{
    double f;

    if (state->phase == CLINK_CONTACT_OPEN || state->phase == CLINK_CONTACT_RELEASED)
        return 0;
    f = contact_law_default_raw_force(law, params, state, delta, delta_dot);
    if (law->can_pull && !(law->sep == CLINK_SEP_OPTION && params->zero_force == 1))
        return f;
    return f > 0 || isnan(f) ? f : 0; /* NaN passes: the caller must see it */
}

double clink_law_force(const clink_law *law, const clink_contact_params *params,
                       const clink_contact_state *state, double delta, double delta_dot)
{
    double f;

    if (law == NULL || params == NULL || state == NULL)
        return 0;
    if (law->force != NULL)
        f = law->force(law, params, state, delta, delta_dot);
    else
        f = contact_law_default_force(law, params, state, delta, delta_dot);
    /* a NaN is returned as it is: the simulation stops naming the contact, the law and
       the time (sim_contact.c), instead of integrating a force that is not there */
    return f;
}

/* contact_law_default_force's clamp of a raw force */
static double clamped(const struct clink_law *law, const clink_contact_params *params, double f)
{
    if (law->can_pull && !(law->sep == CLINK_SEP_OPTION && params->zero_force == 1))
        return f;
    return f > 0 || isnan(f) ? f : 0;
}

double contact_law_force_pair(const struct clink_law *law, const clink_contact_params *params,
                              const clink_contact_state *state, double delta, double delta_dot,
                              double *f0)
{
    double dpos = delta > 0 ? delta : 0;
    double spring, damper = 0, damper0 = 0;

    if (law == NULL || params == NULL || state == NULL || law->force != NULL) {
        *f0 = clink_law_force(law, params, state, delta, 0.0);
        return clink_law_force(law, params, state, delta, delta_dot);
    }
    if (state->phase == CLINK_CONTACT_OPEN || state->phase == CLINK_CONTACT_RELEASED) {
        *f0 = 0;
        return 0;
    }
    /* contact_law_default_raw_force at delta_dot and at 0 */
    if (state->n == 1 && law->can_pull)
        spring = state->K * delta;
    else
        spring = state->K * pow(dpos, state->n);
    if (state->m == 0) {
        if (!law->compression_only)
            damper0 = state->c * 0.0;
        if (!law->compression_only || delta_dot > 0)
            damper = state->c * delta_dot;
    } else if (state->chi != 0 && (!law->compression_only || delta_dot > 0)) {
        double cp = state->chi * pow(dpos, state->m);
        if (!law->compression_only)
            damper0 = cp * 0.0;
        damper = cp * delta_dot;
    }
    *f0 = clamped(law, params, spring + damper0);
    return clamped(law, params, spring + damper);
}

double clink_law_stored_energy(const clink_law *law, const clink_contact_params *params,
                               const clink_contact_state *state, double delta)
{
    double u;

    if (law == NULL || params == NULL || state == NULL || !(delta > 0) ||
        state->phase == CLINK_CONTACT_OPEN || state->phase == CLINK_CONTACT_RELEASED)
        return 0;
    if (law->stored != NULL)
        u = law->stored(law, params, state, delta);
    else
        u = state->K * pow(delta, state->n + 1) / (state->n + 1);
    return isfinite(u) ? u : 0;
}

double contact_law_default_separation(const struct clink_law *law,
                                      const clink_contact_params *params,
                                      const clink_contact_state *state, double delta,
                                      double delta_dot)
{
    int at_force =
        law->sep == CLINK_SEP_FORCE || (law->sep == CLINK_SEP_OPTION && params->zero_force == 1);

    if (!at_force || state->phase == CLINK_CONTACT_OPEN || state->phase == CLINK_CONTACT_RELEASED)
        return delta;
    return contact_law_default_raw_force(law, params, state, delta, delta_dot);
}

double clink_law_separation(const clink_law *law, const clink_contact_params *params,
                            const clink_contact_state *state, double delta, double delta_dot)
{
    if (law == NULL || params == NULL || state == NULL)
        return delta;
    if (law->separation != NULL)
        return law->separation(law, params, state, delta, delta_dot);
    return contact_law_default_separation(law, params, state, delta, delta_dot);
}

/* ---- phase changes ------------------------------------------------------------------ */

void contact_law_default_end_compression(const struct clink_law *law,
                                         const clink_contact_params *params, double delta,
                                         clink_contact_state *state)
{
    (void) law;
    (void) params;
    state->phase = CLINK_CONTACT_RESTITUTION;
    if (delta > state->delta_max)
        state->delta_max = delta;
}

void clink_law_end_compression(const clink_law *law, const clink_contact_params *params,
                               double delta, clink_contact_state *state)
{
    if (law == NULL || params == NULL || state == NULL)
        return;
    if (law->end_compression != NULL)
        law->end_compression(law, params, delta, state);
    else
        contact_law_default_end_compression(law, params, delta, state);
}

void contact_law_default_release(const struct clink_law *law, const clink_contact_params *params,
                                 double delta, clink_contact_state *state)
{
    int at_force =
        law->sep == CLINK_SEP_FORCE || (law->sep == CLINK_SEP_OPTION && params->zero_force == 1);

    /* a law separating at delta = 0 leaves nothing (a root located a hair above
       zero is zero); a zero-force separation keeps its residual penetration */
    state->delta_sep = at_force && delta > 0 ? delta : 0;
    state->phase = state->delta_sep > 0 ? CLINK_CONTACT_RELEASED : CLINK_CONTACT_OPEN;
}

void clink_law_release(const clink_law *law, const clink_contact_params *params, double delta,
                       clink_contact_state *state)
{
    if (law == NULL || params == NULL || state == NULL)
        return;
    if (law->release != NULL)
        law->release(law, params, delta, state);
    else
        contact_law_default_release(law, params, delta, state);
}
