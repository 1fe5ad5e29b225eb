/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The contact-law catalogue as data: one const row struct clink_law per law
 * (law_table.h), the table of all rows in catalogue order, and the lookup by name
 * or alias. The rows carry what the generic code of law_check.c, law_onset.c,
 * law_cache.c and law_force.c reads: the exponents n and m, the rule fixing chi at
 * onset, whether the force may pull and how the contact separates.
 *
 * The Hunt-Crossley family's rows carry their calibration factor f(e) = chi v / K
 * (Alves et al. 2015, Table 1; Poursina and Nikravesh 2020, Eqs. 13-19):
 *   hunt-crossley 3(1-e)/2, herbert-mcwhannell 6(1-e)/((2e-1)^2+3),
 *   lee-wang 3(1-e)/4, lankarani-nikravesh 3(1-e^2)/4, gonthier (1-e^2)/e,
 *   gonthier-exact d(e)/e (Poursina and Nikravesh 2020, Eqs. 18-19), zhiying-qishao
 *   3(1-e^2) exp(2(1-e))/4, flores 8(1-e)/(5e), hu-guo 3(1-e)/(2e),
 *   gharib-hurmuzlu 1/e.
 * Rows defined in files of their own (elastoplastic.c) are listed in
 * CLINK_LAW_EXTERNAL_ROWS of law_table.h and appended after these, in list order.
 */
#include "contact/law_private.h"

#include <math.h>
#include <string.h>

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

/* ---- what a law is -------------------------------------------------------------- */

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
    info->m = contact_law_m_of(law, law->n);
}

const char *clink_law_name(const clink_law *law)
{
    return law != NULL ? law->name : NULL;
}

const char *clink_law_geometry(const clink_law *law)
{
    if (law == NULL)
        return NULL;
    switch (law->geometry) {
    case CLINK_LAW_GEOMETRY_CYL_INTERNAL:
        return "cylinder-internal";
    case CLINK_LAW_GEOMETRY_CYL_EXTERNAL:
        return "cylinder-external";
    case CLINK_LAW_GEOMETRY_CYL_BOTH:
        return "cylinder";
    case CLINK_LAW_GEOMETRY_POINT:
        break;
    }
    return "point";
}
