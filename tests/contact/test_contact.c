/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of the contact-law module (src/contact/): every formula is written
 * again here, independently of the library, from the papers' equations (Alves et al. (2015)
 * Table 1, Poursina and Nikravesh (2020), Eqs. 13-19, 46-49, 55, Feng (2026), Eqs. 13-17, 32-35),
 * and the restitution claims are checked by integrating single impacts with a classical fixed-step
 * Runge-Kutta scheme written in this file.
 */
#include "clink/contact.h"
#include "clink/feng.h"

#include "ensure.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define PI 3.14159265358979323846

/* the names of issue 3, each with its aliases */
static const char *const law_names[][3] = {
    {"hertz", NULL, NULL},
    {"kelvin-voigt", NULL, NULL},
    {"anagnostopoulos", NULL, NULL},
    {"ristow", "schafer", NULL},
    {"lee-herrmann", NULL, NULL},
    {"hunt-crossley", "marhefka-orin", NULL},
    {"herbert-mcwhannell", NULL, NULL},
    {"lee-wang", NULL, NULL},
    {"lankarani-nikravesh", NULL, NULL},
    {"gonthier", "zhang-sharf", NULL},
    {"gonthier-exact", NULL, NULL},
    {"zhiying-qishao", NULL, NULL},
    {"flores", "ye", NULL},
    {"hu-guo", NULL, NULL},
    {"gharib-hurmuzlu", NULL, NULL},
    {"kuwabara-kono", "brilliantov", NULL},
    {"tsuji", NULL, NULL},
    {"power-law-tsuji", NULL, NULL},
    {"jankowski", NULL, NULL},
    {"schwager-poschel", "bordbar-hyppanen", NULL},
    {"hertz-linear-damper", NULL, NULL},
    {"poursina-nikravesh", NULL, NULL},
};
enum { LAW_NAME_COUNT = sizeof(law_names) / sizeof(law_names[0]) };

static const clink_law *law(const char *name)
{
    const clink_law *l = clink_law_find(name);

    if (l == NULL)
        fprintf(stderr, "law '%s' not found\n", name);
    return l;
}

/* params with the given K, e (NaN: not set) */
static clink_contact_params params_k_e(double K, double e)
{
    clink_contact_params p;

    clink_contact_params_init(&p);
    if (!isnan(K))
        clink_contact_params_set(&p, "K", K);
    if (!isnan(e))
        clink_contact_params_set(&p, "e", e);
    return p;
}

/* onset then force at (delta, delta_dot) */
static double force_after_onset(const clink_law *l, const clink_contact_params *p, double v,
                                double m, double delta, double delta_dot)
{
    clink_contact_state s;

    clink_contact_state_init(&s);
    if (clink_law_onset(l, p, v, m, &s) != CLINK_OK)
        return NAN;
    return clink_law_force(l, p, &s, delta, delta_dot);
}

/* ---- a fixed-step RK4 impact integrator, independent of the laboratory ------- */

typedef struct impact_result {
    double e_out;     /* -delta_dot at separation / v0 */
    double delta_max; /* largest penetration */
    double delta_sep; /* penetration at separation */
    double duration;  /* time from onset to separation */
    int separated;
} impact_result;

static void impact_rhs(const clink_law *l, const clink_contact_params *p,
                       const clink_contact_state *s, double m, const double y[2], double dy[2])
{
    dy[0] = y[1];
    dy[1] = -clink_law_force(l, p, s, y[0], y[1]) / m;
}

static impact_result integrate_impact(const clink_law *l, const clink_contact_params *p, double m,
                                      double v0, double h, long max_steps)
{
    impact_result r = {NAN, 0, 0, 0, 0};
    clink_contact_state s;
    double y[2] = {0, v0};
    long i;

    clink_contact_state_init(&s);
    if (clink_law_onset(l, p, v0, m, &s) != CLINK_OK)
        return r;
    for (i = 0; i < max_steps; i++) {
        double k1[2], k2[2], k3[2], k4[2], yt[2], yn[2], g0, g1;
        int j;

        impact_rhs(l, p, &s, m, y, k1);
        for (j = 0; j < 2; j++)
            yt[j] = y[j] + 0.5 * h * k1[j];
        impact_rhs(l, p, &s, m, yt, k2);
        for (j = 0; j < 2; j++)
            yt[j] = y[j] + 0.5 * h * k2[j];
        impact_rhs(l, p, &s, m, yt, k3);
        for (j = 0; j < 2; j++)
            yt[j] = y[j] + h * k3[j];
        impact_rhs(l, p, &s, m, yt, k4);
        for (j = 0; j < 2; j++)
            yn[j] = y[j] + h / 6 * (k1[j] + 2 * k2[j] + 2 * k3[j] + k4[j]);
        if (s.phase == CLINK_CONTACT_COMPRESSION && yn[1] <= 0)
            clink_law_end_compression(l, p, yn[0], &s);
        if (yn[0] > r.delta_max)
            r.delta_max = yn[0];
        g0 = clink_law_separation(l, p, &s, y[0], y[1]);
        g1 = clink_law_separation(l, p, &s, yn[0], yn[1]);
        if (s.phase == CLINK_CONTACT_RESTITUTION && g0 > 0 && g1 <= 0) {
            /* linear interpolation of the crossing */
            double w = g0 / (g0 - g1);
            r.e_out = -(y[1] + w * (yn[1] - y[1])) / v0;
            r.delta_sep = y[0] + w * (yn[0] - y[0]);
            r.duration = (i + w) * h;
            r.separated = 1;
            clink_law_release(l, p, r.delta_sep, &s);
            return r;
        }
        y[0] = yn[0];
        y[1] = yn[1];
    }
    return r;
}

/* a step of 1/40000 of the undamped contact duration (Feng Eq. 34) */
static double impact_step(double K, double n, double m, double v0)
{
    clink_feng_forms f;

    if (clink_feng_evaluate(n, K, m, v0, 0, &f) != CLINK_OK)
        return NAN;
    return f.duration_undamped / 40000;
}

/* ---- the catalogue ------------------------------------------------------------ */

TEST(every_law_of_issue_3_is_found_by_its_name_and_by_each_alias)
{
    int i, j;

    for (i = 0; i < LAW_NAME_COUNT; i++) {
        const clink_law *l = clink_law_find(law_names[i][0]);

        ENSURE(l != NULL);
        if (l == NULL)
            continue;
        ENSURE_STR_EQ(clink_law_name(l), law_names[i][0]);
        for (j = 1; j < 3 && law_names[i][j] != NULL; j++)
            ENSURE(clink_law_find(law_names[i][j]) == l);
    }
    ENSURE(clink_law_count() >= (size_t) LAW_NAME_COUNT);
    ENSURE(clink_law_find("no-such-law") == NULL);
    ENSURE(clink_law_find("") == NULL);
    ENSURE(clink_law_find(NULL) == NULL);
    ENSURE(clink_law_find("Hertz") == NULL); /* case-sensitive */
    ENSURE(clink_law_find("hunt") == NULL);  /* no prefix matching */
}

TEST(every_law_in_the_catalogue_has_complete_information)
{
    size_t i;

    for (i = 0; i < clink_law_count(); i++) {
        clink_law_info info;

        clink_law_get_info(clink_law_at(i), &info);
        ENSURE(info.name != NULL && info.name[0] != '\0');
        ENSURE(info.aliases != NULL);
        ENSURE(info.title != NULL && info.title[0] != '\0');
        ENSURE(info.formula != NULL && info.formula[0] != '\0');
        ENSURE(info.damping != NULL && info.damping[0] != '\0');
        ENSURE(info.reference != NULL && info.reference[0] != '\0');
        ENSURE(info.required != NULL && info.optional != NULL);
        ENSURE(info.separation != NULL && info.separation[0] != '\0');
        ENSURE(info.n_default >= 1);
        ENSURE(clink_law_find(info.name) == clink_law_at(i));
    }
    ENSURE(clink_law_at(clink_law_count()) == NULL);
}

/* ---- parameters ----------------------------------------------------------------- */

TEST(params_set_rejects_unknown_keys_and_non_finite_values)
{
    clink_contact_params p;

    clink_contact_params_init(&p);
    ENSURE(isnan(p.K) && isnan(p.e) && isnan(p.chi) && isnan(p.zero_force));
    ENSURE(clink_contact_params_set(&p, "K", 1e9) == CLINK_OK);
    ENSURE(p.K == 1e9);
    ENSURE(clink_contact_params_set(&p, "stiffness", 1) == CLINK_ERR_NOT_FOUND);
    ENSURE(clink_contact_params_set(&p, "k", 1) == CLINK_ERR_NOT_FOUND);
    ENSURE(clink_contact_params_set(&p, "e", NAN) == CLINK_ERR_NONFINITE);
    ENSURE(clink_contact_params_set(&p, "K", INFINITY) == CLINK_ERR_NONFINITE);
    ENSURE(clink_contact_params_set(&p, "R1", -INFINITY) == CLINK_ERR_NONFINITE);
    ENSURE(clink_contact_params_set(&p, "R2", INFINITY) == CLINK_OK);
    ENSURE(p.K == 1e9);
    ENSURE(clink_contact_params_key_count() >= 19);
    ENSURE(clink_contact_params_key(clink_contact_params_key_count()) == NULL);
    {
        size_t i;
        for (i = 0; i < clink_contact_params_key_count(); i++)
            ENSURE(clink_contact_params_set(&p, clink_contact_params_key(i), 0.25) == CLINK_OK);
    }
}

/*
 * A parameter set that law l accepts, found without knowing the law: K and e,
 * then one group at a time (a damping coefficient chi, a linear c, materials
 * and radii, the Ma-Liu plasticity parameters) until clink_law_check() passes.
 * Every law of the catalogue, including one added later, gets one this way;
 * a law that accepts none of them fails the tests that use it.
 */
static clink_contact_params required_params_of(const clink_law *l)
{
    static const char *const keys[][6] = {
        {"chi", NULL},
        {"c", NULL},
        {"E1", "E2", "nu1", "nu2", NULL},
        {"R1", "R2", NULL},
        {"Y", "psi", "xi", NULL},
        {"L", NULL},  /* the cylinder laws: two convex cylinders of length L */
        {"R2", NULL}, /* then a journal in a bearing (clearance 0.12 mm) */
    };
    static const double values[][6] = {
        {1e3},  {50},      {193e9, 193e9, 0.3, 0.3}, {0.00238, 0.00238}, {900e6, 2.84, 13.0},
        {0.02}, {-0.0025},
    };
    clink_contact_params p = params_k_e(1e9, 0.7);
    size_t g, k;

    for (g = 0; g < sizeof keys / sizeof keys[0]; g++) {
        if (clink_law_check(l, &p, NULL, 0) == CLINK_OK)
            return p;
        for (k = 0; keys[g][k] != NULL; k++)
            clink_contact_params_set(&p, keys[g][k], values[g][k]);
    }
    return p;
}

TEST(every_law_passes_check_with_its_required_params_and_fails_without_them)
{
    size_t i;

    for (i = 0; i < clink_law_count(); i++) {
        const clink_law *l = clink_law_at(i);
        clink_contact_params p = required_params_of(l), none;
        char msg[512];

        msg[0] = 'x';
        ENSURE(clink_law_check(l, &p, msg, sizeof(msg)) == CLINK_OK);
        ENSURE(msg[0] == '\0');
        clink_contact_params_init(&none);
        ENSURE(clink_law_check(l, &none, msg, sizeof(msg)) != CLINK_OK);
        /* the message names the first required key (for the K delta^n laws, first) */
        {
            clink_law_info info;
            char key[16];
            size_t k = 0;
            clink_law_get_info(l, &info);
            while (k + 1 < sizeof key && info.required[k] && info.required[k] != ',' &&
                   info.required[k] != ' ')
                key[k] = info.required[k], k++;
            key[k] = '\0';
            ENSURE(k > 0 && strstr(msg, key) != NULL);
            if (strcmp(key, "K") == 0)
                ENSURE(strstr(msg, "K:") == msg);
        }
        /* the stiffness alone is not enough for a law with damping */
        if (strcmp(clink_law_name(l), "hertz") != 0) {
            clink_contact_params_set(&none, "K", 1e9);
            ENSURE(clink_law_check(l, &none, msg, sizeof(msg)) != CLINK_OK);
            ENSURE(strchr(msg, ':') != NULL);
            ENSURE(strchr(msg, '\n') == NULL); /* one problem, one line */
        }
    }
}

TEST(check_names_each_out_of_range_parameter_on_its_own_line)
{
    clink_contact_params p = params_k_e(-1, 1.5);
    char msg[512];

    ENSURE(clink_law_check(law("hunt-crossley"), &p, msg, sizeof(msg)) == CLINK_ERR_RANGE);
    ENSURE(strncmp(msg, "K: -1 is out of range; K > 0", 28) == 0);
    ENSURE(strstr(msg, "\ne: 1.5 is out of range; 0 < e <= 1") != NULL);

    p = params_k_e(1e9, 0.5);
    clink_contact_params_set(&p, "n", 0.5);
    ENSURE(clink_law_check(law("power-law-tsuji"), &p, msg, sizeof(msg)) == CLINK_ERR_RANGE);
    ENSURE(strstr(msg, "n: 0.5 is out of range; n >= 1") == msg);
    clink_contact_params_set(&p, "n", 2.5);
    ENSURE(clink_law_check(law("poursina-nikravesh"), &p, msg, sizeof(msg)) == CLINK_ERR_RANGE);
    ENSURE(strstr(msg, "1 <= n <= 2") != NULL);
    ENSURE(clink_law_check(law("tsuji"), &p, msg, sizeof(msg)) == CLINK_ERR_RANGE);
    ENSURE(strstr(msg, "fixed exponent n = 1.5") != NULL);

    p = params_k_e(1e9, 0.5);
    clink_contact_params_set(&p, "v_ref", 0);
    ENSURE(clink_law_check(law("flores"), &p, msg, sizeof(msg)) == CLINK_ERR_RANGE);
    ENSURE(strstr(msg, "v_ref: 0 is out of range; v_ref > 0 (m/s)") == msg);
    p = params_k_e(1e9, NAN);
    clink_contact_params_set(&p, "chi", -2);
    ENSURE(clink_law_check(law("ristow"), &p, msg, sizeof(msg)) == CLINK_ERR_RANGE);
    ENSURE(strstr(msg, "chi: -2 is out of range; chi >= 0") == msg);
    /* a tiny buffer is never overrun and stays terminated */
    p = params_k_e(-1, 7);
    {
        char tiny[8];
        ENSURE(clink_law_check(law("flores"), &p, tiny, sizeof(tiny)) == CLINK_ERR_RANGE);
        ENSURE(strlen(tiny) < sizeof(tiny));
    }
    ENSURE(clink_law_check(law("flores"), &p, NULL, 0) == CLINK_ERR_RANGE);
}

/* ---- forces against Table 1, written again here ------------------------------------ */

TEST(hertz_force_is_k_delta_to_the_three_halves_and_zero_when_open)
{
    const clink_law *l = law("hertz");
    clink_contact_params p = params_k_e(2.46e10, NAN);
    clink_contact_state s;
    double d;

    for (d = 1e-7; d < 1e-3; d *= 3.7)
        ENSURE_REL(force_after_onset(l, &p, 0.5, 0.54, d, -0.3), 2.46e10 * pow(d, 1.5), 1e-14);
    ENSURE(force_after_onset(l, &p, 0.5, 0.54, -1e-6, 0.1) == 0);
    clink_contact_state_init(&s);
    ENSURE(clink_law_force(l, &p, &s, 1e-5, 0) == 0); /* OPEN */
    clink_contact_params_set(&p, "n", 1.2);
    ENSURE_REL(force_after_onset(l, &p, 0.5, 0.54, 1e-4, 0), 2.46e10 * pow(1e-4, 1.2), 1e-14);
}

/* chi v / K of Alves et al. (2015), Table 1 and Poursina and Nikravesh (2020), Eqs. 13-16 */
static double table1_factor(const char *name, double e)
{
    if (strcmp(name, "hunt-crossley") == 0)
        return 3 * (1 - e) / 2;
    if (strcmp(name, "herbert-mcwhannell") == 0)
        return 6 * (1 - e) / ((2 * e - 1) * (2 * e - 1) + 3);
    if (strcmp(name, "lee-wang") == 0)
        return 3 * (1 - e) / 4;
    if (strcmp(name, "lankarani-nikravesh") == 0)
        return 3 * (1 - e * e) / 4;
    if (strcmp(name, "gonthier") == 0)
        return (1 - e * e) / e;
    if (strcmp(name, "zhiying-qishao") == 0)
        return 3 * (1 - e * e) * exp(2 * (1 - e)) / 4;
    if (strcmp(name, "flores") == 0)
        return 8 * (1 - e) / (5 * e);
    if (strcmp(name, "hu-guo") == 0)
        return 3 * (1 - e) / (2 * e);
    if (strcmp(name, "gharib-hurmuzlu") == 0)
        return 1 / e;
    return NAN;
}

TEST(hunt_crossley_family_forces_follow_table_1_damping_factors)
{
    static const char *const names[] = {
        "hunt-crossley",  "herbert-mcwhannell", "lee-wang", "lankarani-nikravesh",
        "gonthier",       "zhiying-qishao",     "flores",   "hu-guo",
        "gharib-hurmuzlu"};
    static const double es[] = {0.1, 0.5, 0.757, 0.974, 1.0};
    const double K = 2.41e10, m = 0.54, v = 0.5;
    size_t i, j;

    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        for (j = 0; j < sizeof(es) / sizeof(es[0]); j++) {
            clink_contact_params p = params_k_e(K, es[j]);
            double chi = table1_factor(names[i], es[j]) * K / v;
            double d = 3e-5, dd = -0.21;
            double expect = K * pow(d, 1.5) + chi * pow(d, 1.5) * dd;

            if (expect < 0)
                expect = 0;
            ENSURE_REL(force_after_onset(law(names[i]), &p, v, m, d, dd), expect, 1e-13);
            ENSURE_REL(force_after_onset(law(names[i]), &p, v, m, d, 0.4),
                       K * pow(d, 1.5) + chi * pow(d, 1.5) * 0.4, 1e-13);
        }
    }
}

TEST(gharib_hurmuzlu_damping_does_not_vanish_at_e_equal_one)
{
    clink_contact_params p = params_k_e(1e9, 1.0);
    clink_contact_state s;

    clink_contact_state_init(&s);
    ENSURE(clink_law_onset(law("gharib-hurmuzlu"), &p, 2.0, 1.0, &s) == CLINK_OK);
    ENSURE_REL(s.chi, 1e9 / 2.0, 1e-15);
    clink_contact_state_init(&s);
    ENSURE(clink_law_onset(law("hunt-crossley"), &p, 2.0, 1.0, &s) == CLINK_OK);
    ENSURE(s.chi == 0);
}

TEST(hunt_crossley_force_never_pulls)
{
    clink_contact_params p = params_k_e(1e9, 0.2);

    /* delta_dot far below -K/chi would make K + chi delta_dot negative */
    ENSURE(force_after_onset(law("hunt-crossley"), &p, 1.0, 1.0, 1e-4, -100) == 0);
    ENSURE(force_after_onset(law("gharib-hurmuzlu"), &p, 1.0, 1.0, 1e-4, -100) == 0);
}

TEST(linear_dashpot_laws_use_two_xi_sqrt_k_m_and_may_pull)
{
    const double K = 4e6, m = 2, e = 0.6;
    double xi = -log(e) / sqrt(PI * PI + log(e) * log(e));
    double chi = 2 * xi * sqrt(K * m);
    clink_contact_params p = params_k_e(K, e);

    ENSURE_REL(force_after_onset(law("anagnostopoulos"), &p, 1, m, 1e-3, 0.3), K * 1e-3 + chi * 0.3,
               1e-14);
    /* tension near the end of the contact */
    ENSURE_REL(force_after_onset(law("anagnostopoulos"), &p, 1, m, 1e-5, -0.5),
               K * 1e-5 - chi * 0.5, 1e-14);
    /* Kelvin-Voigt with c given */
    clink_contact_params_set(&p, "c", 123);
    ENSURE_REL(force_after_onset(law("kelvin-voigt"), &p, 1, m, 1e-5, -0.5), K * 1e-5 - 61.5,
               1e-14);
    /* separating at zero force, it does not pull */
    clink_contact_params_set(&p, "zero_force", 1);
    ENSURE(force_after_onset(law("kelvin-voigt"), &p, 1, m, 1e-5, -0.5) == 0);
}

TEST(linear_laws_keep_their_coefficient_in_c_and_the_others_in_chi)
{
    clink_contact_params p = params_k_e(1e6, 0.5);
    clink_contact_state s;

    clink_contact_state_init(&s);
    ENSURE(clink_law_onset(law("anagnostopoulos"), &p, 1, 2, &s) == CLINK_OK);
    ENSURE(s.chi == 0 && s.c > 0 && s.m == 0 && s.n == 1);
    /* a caller (the calibrating laboratory) may replace the coefficient after onset */
    s.c = 7;
    ENSURE_REL(clink_law_force(law("anagnostopoulos"), &p, &s, 1e-4, 0.5), 100 + 3.5, 1e-14);
    clink_contact_state_init(&s);
    ENSURE(clink_law_onset(law("lee-wang"), &p, 1, 2, &s) == CLINK_OK);
    ENSURE(s.c == 0 && s.chi > 0 && s.m == 1.5);
    s.chi = 2e6;
    ENSURE_REL(clink_law_force(law("lee-wang"), &p, &s, 1e-4, 0.5), (1e6 + 1e6) * 1e-6, 1e-13);
}

TEST(tsuji_and_power_law_tsuji_use_alpha_of_feng_eq_14)
{
    const double K = 1e8, m = 0.3, e = 0.5;
    double ps[] = {1, 1.5, 2, 2.5, 3};
    size_t i;

    for (i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
        double p_ = ps[i];
        double alpha = sqrt(2 * (p_ + 1)) * (-log(e)) / sqrt(PI * PI + log(e) * log(e));
        clink_contact_params p = params_k_e(K, e);
        double d = 2e-4, dd = 0.7;

        clink_contact_params_set(&p, "n", p_);
        ENSURE_REL(force_after_onset(law("power-law-tsuji"), &p, 1.3, m, d, dd),
                   K * pow(d, p_) + alpha * sqrt(K * m) * pow(d, (p_ - 1) / 2) * dd, 1e-13);
        if (p_ == 1.5) {
            clink_contact_params q = params_k_e(K, e);
            ENSURE_REL(force_after_onset(law("tsuji"), &q, 1.3, m, d, dd),
                       K * pow(d, 1.5) + alpha * sqrt(K * m) * pow(d, 0.25) * dd, 1e-13);
        }
    }
    /* alpha given replaces the calibration */
    {
        clink_contact_params p = params_k_e(K, NAN);
        clink_contact_params_set(&p, "alpha", 0.8);
        ENSURE_REL(force_after_onset(law("tsuji"), &p, 1.3, m, 1e-4, 0.2),
                   K * pow(1e-4, 1.5) + 0.8 * sqrt(K * m) * pow(1e-4, 0.25) * 0.2, 1e-13);
    }
}

TEST(jankowski_damps_in_compression_only)
{
    const double K = 1e9, m = 0.5, e = 0.6;
    double xi = 9 * sqrt(5.0) / 2 * (1 - e * e) / (e * (e * (9 * PI - 16) + 16));
    clink_contact_params p = params_k_e(K, e);
    double d = 1e-4;

    ENSURE_REL(force_after_onset(law("jankowski"), &p, 1, m, d, 0.3),
               K * pow(d, 1.5) + 2 * xi * sqrt(K * sqrt(d) * m) * 0.3, 1e-13);
    ENSURE_REL(force_after_onset(law("jankowski"), &p, 1, m, d, -0.3), K * pow(d, 1.5), 1e-14);
}

TEST(empirical_laws_take_chi_and_lee_herrmann_multiplies_it_by_the_mass)
{
    const double K = 1e9, m = 0.25, d = 1e-4, dd = 0.3;
    clink_contact_params p = params_k_e(K, NAN);

    clink_contact_params_set(&p, "chi", 500);
    ENSURE_REL(force_after_onset(law("ristow"), &p, 1, m, d, dd), K * pow(d, 1.5) + 500 * d * dd,
               1e-14);
    ENSURE_REL(force_after_onset(law("schafer"), &p, 1, m, d, dd), K * pow(d, 1.5) + 500 * d * dd,
               1e-14);
    ENSURE_REL(force_after_onset(law("lee-herrmann"), &p, 1, m, d, dd),
               K * pow(d, 1.5) + m * 500 * d * dd, 1e-14);
    ENSURE_REL(force_after_onset(law("kuwabara-kono"), &p, 1, m, d, dd),
               K * pow(d, 1.5) + 500 * sqrt(d) * dd, 1e-14);
    ENSURE_REL(force_after_onset(law("schwager-poschel"), &p, 1, m, d, dd),
               K * pow(d, 1.5) + 500 * pow(d, 0.65) * dd, 1e-14);
}

TEST(kuwabara_kono_chi_follows_the_viscosities_of_table_1)
{
    /* chi = K/3 (3 eta2 - eta1)^2 / (3 eta2 + 2 eta1) (1 - nu)(1 - 2 nu) / (E nu^2) */
    const double K = 5.5e9, eta1 = 2e3, eta2 = 5e3, E = 70e9, nu = 0.33;
    double chi = K / 3 * pow(3 * eta2 - eta1, 2) / (3 * eta2 + 2 * eta1) * (1 - nu) * (1 - 2 * nu) /
                 (E * nu * nu);
    clink_contact_params p = params_k_e(K, NAN);
    clink_contact_state s;

    clink_contact_params_set(&p, "eta1", eta1);
    clink_contact_params_set(&p, "eta2", eta2);
    clink_contact_params_set(&p, "E1", E);
    clink_contact_params_set(&p, "nu1", nu);
    clink_contact_state_init(&s);
    ENSURE(clink_law_onset(law("brilliantov"), &p, 0.3, 0.1, &s) == CLINK_OK);
    ENSURE_REL(s.chi, chi, 1e-14);
    ENSURE(s.m == 0.5);
}

TEST(linear_damper_laws_separate_when_the_force_returns_to_zero)
{
    const double K = 1e9, m = 0.2, v = 0.5, e = 0.6, n = 1.5;
    double alpha = 0.3331 * pow(n, 4) - 1.48 * pow(n, 3) + 3.077 * n * n - 2.306 * n + 1.794;
    double beta = 1.285 * pow(n, 0.2553) - 1.725;
    double c = alpha * (pow(e, beta) - 1) * pow(K * pow(v, n - 1) * pow(m, n), 1 / (n + 1));
    clink_contact_params p = params_k_e(K, e);
    clink_contact_state s;
    double d = 1e-6, dd = -0.3;

    clink_contact_state_init(&s);
    ENSURE(clink_law_onset(law("poursina-nikravesh"), &p, v, m, &s) == CLINK_OK);
    ENSURE_REL(s.c, c, 1e-13);
    clink_law_end_compression(law("poursina-nikravesh"), &p, 1e-5, &s);
    ENSURE(s.phase == CLINK_CONTACT_RESTITUTION && s.delta_max == 1e-5);
    /* the separation function is the unclamped force; the force is clamped */
    ENSURE_REL(clink_law_separation(law("poursina-nikravesh"), &p, &s, d, dd),
               K * pow(d, n) + c * dd, 1e-13);
    ENSURE(clink_law_force(law("poursina-nikravesh"), &p, &s, d, dd) == 0);
    clink_law_release(law("poursina-nikravesh"), &p, 3e-7, &s);
    ENSURE(s.phase == CLINK_CONTACT_RELEASED && s.delta_sep == 3e-7);
    ENSURE(clink_law_force(law("poursina-nikravesh"), &p, &s, 2e-7, -0.3) == 0);
    /* Eq. 52 (n = 3/2) and Eq. 57 (n = 1) print rounded alpha, beta */
    ENSURE_NEAR(clink_contact_poursina_alpha(1.5), 1.95, 0.005);
    ENSURE_NEAR(clink_contact_poursina_beta(1.5), -0.3, 0.005);
    ENSURE_NEAR(clink_contact_poursina_alpha(1.0), 1.4181, 1e-4);
    ENSURE_NEAR(clink_contact_poursina_beta(1.0), -0.44, 1e-3);
}

TEST(laws_separating_at_zero_penetration_use_delta_as_separation_function)
{
    clink_contact_params p = params_k_e(1e9, 0.5);
    clink_contact_state s;

    clink_contact_state_init(&s);
    ENSURE(clink_law_onset(law("flores"), &p, 1, 1, &s) == CLINK_OK);
    clink_law_end_compression(law("flores"), &p, 2e-5, &s);
    ENSURE(clink_law_separation(law("flores"), &p, &s, 1.5e-6, -0.4) == 1.5e-6);
    clink_law_release(law("flores"), &p, 1e-18, &s);
    ENSURE(s.phase == CLINK_CONTACT_OPEN && s.delta_sep == 0);
    /* Kelvin-Voigt follows the zero_force option */
    p = params_k_e(1e6, NAN);
    clink_contact_params_set(&p, "c", 10);
    clink_contact_state_init(&s);
    ENSURE(clink_law_onset(law("kelvin-voigt"), &p, 1, 1, &s) == CLINK_OK);
    ENSURE(clink_law_separation(law("kelvin-voigt"), &p, &s, 1e-6, -0.5) == 1e-6);
    clink_contact_params_set(&p, "zero_force", 1);
    ENSURE_REL(clink_law_separation(law("kelvin-voigt"), &p, &s, 1e-6, -0.5), 1 - 5, 1e-14);
}

TEST(no_law_gives_nan_or_infinity_at_zero_impact_velocity)
{
    size_t i;

    for (i = 0; i < clink_law_count(); i++) {
        const clink_law *l = clink_law_at(i);
        clink_contact_params p = required_params_of(l);
        clink_contact_state s;
        double f;

        clink_contact_state_init(&s);
        ENSURE(clink_law_onset(l, &p, 0.0, 0.1, &s) == CLINK_OK);
        ENSURE(isfinite(s.chi));
        f = clink_law_force(l, &p, &s, 1e-6, 1e-3);
        ENSURE(isfinite(f) && f >= 0);
        f = clink_law_force(l, &p, &s, 0, 0);
        ENSURE(isfinite(f));
    }
    /* the reference velocity bounds chi ~ 1/v */
    {
        clink_contact_params p = params_k_e(1e9, 0.5);
        clink_contact_state s;

        clink_contact_state_init(&s);
        clink_law_onset(law("hunt-crossley"), &p, 0.0, 1, &s);
        ENSURE_REL(s.chi, 0.75 * 1e9 / CLINK_CONTACT_V_REF_DEFAULT, 1e-15);
        clink_contact_params_set(&p, "v_ref", 0.01);
        clink_law_onset(law("hunt-crossley"), &p, 0.0, 1, &s);
        ENSURE_REL(s.chi, 0.75 * 1e9 / 0.01, 1e-15);
        clink_law_onset(law("hunt-crossley"), &p, 2.0, 1, &s);
        ENSURE_REL(s.chi, 0.75 * 1e9 / 2.0, 1e-15);
    }
}

TEST(onset_rejects_negative_or_non_finite_velocity_and_mass)
{
    clink_contact_params p = params_k_e(1e9, 0.5);
    clink_contact_state s;

    clink_contact_state_init(&s);
    ENSURE(clink_law_onset(law("flores"), &p, -1, 1, &s) == CLINK_ERR_RANGE);
    ENSURE(clink_law_onset(law("flores"), &p, NAN, 1, &s) == CLINK_ERR_NONFINITE);
    ENSURE(clink_law_onset(law("flores"), &p, 1, 0, &s) == CLINK_ERR_RANGE);
    ENSURE(clink_law_onset(law("flores"), &p, 1, INFINITY, &s) == CLINK_ERR_NONFINITE);
    ENSURE(s.phase == CLINK_CONTACT_OPEN);
    p = params_k_e(1e9, NAN);
    ENSURE(clink_law_onset(law("flores"), &p, 1, 1, &s) != CLINK_OK);
    ENSURE(s.phase == CLINK_CONTACT_OPEN);
}

/* ---- closed forms ------------------------------------------------------------------ */

TEST(feng_alpha_reproduces_e_through_eq_13_and_the_limits_of_table_1)
{
    double p, e;

    for (p = 1; p <= 3.01; p += 0.25)
        for (e = 0.01; e < 1; e += 0.07) {
            double a = clink_feng_alpha(e, p);
            double ae = a / sqrt(2 * (p + 1));
            ENSURE_REL(exp(-PI * ae / sqrt(1 - ae * ae)), e, 1e-13);
            ENSURE_REL(clink_feng_restitution(a, p), e, 1e-13);
        }
    /* alpha = 2 xi_L at p = 1, sqrt(5) xi_L at p = 3/2 */
    e = 0.3;
    ENSURE_REL(clink_feng_alpha(e, 1), 2 * clink_contact_damping_ratio(e), 1e-15);
    ENSURE_REL(clink_feng_alpha(e, 1.5), sqrt(5.0) * clink_contact_damping_ratio(e), 1e-15);
    ENSURE(clink_feng_alpha(1, 2) == 0);
    ENSURE_REL(clink_feng_alpha(1e-300, 2), sqrt(6.0), 0.01);
    ENSURE(isfinite(clink_feng_alpha(4.9e-324, 2)));
    ENSURE(isnan(clink_feng_alpha(0, 2)) && isnan(clink_feng_alpha(1.1, 2)));
    ENSURE(isnan(clink_feng_alpha(0.5, 0.9)) && isnan(clink_feng_alpha(NAN, 2)));
}

TEST(feng_undamped_duration_by_quadrature_equals_eq_34_and_eq_35_holds)
{
    double p;

    for (p = 1; p <= 3.01; p += 0.5) {
        clink_feng_forms f;
        double A = pow((p + 1) / 2, 1 / (p + 1)), w0 = sqrt(2e9 / 0.3);
        double B = tgamma(1 / (p + 1)) * tgamma(0.5) / tgamma(1 / (p + 1) + 0.5);
        double tau = 2 * A / ((p + 1) * w0) * pow(0.8 / w0, -(p - 1) / (p + 1)) * B;

        ENSURE(clink_feng_evaluate(p, 2e9, 0.3, 0.8, 0, &f) == CLINK_OK);
        ENSURE_REL(f.duration_undamped, tau, 1e-13);
        ENSURE_REL(f.duration, tau, 1e-12);
        ENSURE_REL(f.dt_crit / f.duration_undamped, 2 / B, 1e-13);
        ENSURE_REL(f.dt_crit_ratio, 2 / B, 1e-14);
        ENSURE_REL(f.delta_max, clink_contact_undamped_delta_max(2e9, p, 0.3, 0.8), 1e-13);
        ENSURE(f.e == 1 && f.E_load == 0 && f.E_unload == 0);
    }
    /* p = 1: dt_crit = 2 / Omega0, duration pi / Omega0 */
    {
        clink_feng_forms f;
        ENSURE(clink_feng_evaluate(1, 100, 1, 1, 0, &f) == CLINK_OK);
        ENSURE_REL(f.dt_crit, 0.2, 1e-15);
        ENSURE_REL(f.duration, PI / 10, 1e-13);
    }
}

TEST(feng_energies_add_up_to_the_kinetic_energy_lost)
{
    double p, e;

    for (p = 1; p <= 3.01; p += 0.5)
        for (e = 0.1; e < 0.995; e += 0.1) {
            clink_feng_forms f;
            const double m = 0.7, v0 = 1.3, K = 3e7;

            ENSURE(clink_feng_evaluate(p, K, m, v0, clink_feng_alpha(e, p), &f) == CLINK_OK);
            ENSURE_REL(f.e, e, 1e-13);
            ENSURE(f.E_load > 0 && f.E_unload > 0);
            ENSURE_REL(f.E_load + f.E_unload, 0.5 * m * v0 * v0 * (1 - e * e), 1e-12);
            /* loading: kinetic energy minus what the spring holds at delta_max */
            ENSURE_REL(f.E_load, 0.5 * m * v0 * v0 - K * pow(f.delta_max, p + 1) / (p + 1), 1e-11);
        }
    {
        clink_feng_forms f;
        ENSURE(clink_feng_evaluate(1.5, 1, 1, 1, sqrt(5.0), &f) == CLINK_ERR_RANGE);
        ENSURE(clink_feng_evaluate(0.5, 1, 1, 1, 0, &f) == CLINK_ERR_RANGE);
        ENSURE(clink_feng_evaluate(1.5, 1, 1, 0, 0, &f) == CLINK_ERR_RANGE);
    }
}

TEST(feng_closed_forms_agree_with_an_integrated_power_law_tsuji_impact)
{
    const double K = 1e7, m = 0.2, v0 = 0.7;
    double ps[] = {1, 1.5, 2.5};
    size_t i;

    for (i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
        clink_contact_params p = params_k_e(K, 0.5);
        clink_feng_forms f;
        impact_result r;

        clink_contact_params_set(&p, "n", ps[i]);
        ENSURE(clink_feng_evaluate(ps[i], K, m, v0, clink_feng_alpha(0.5, ps[i]), &f) == CLINK_OK);
        r = integrate_impact(law("power-law-tsuji"), &p, m, v0, impact_step(K, ps[i], m, v0),
                             400000);
        ENSURE(r.separated);
        ENSURE_NEAR(r.e_out, 0.5, 1e-4);
        ENSURE_REL(r.delta_max, f.delta_max, 1e-6);
        /* the damped duration, quadrature of Eq. 24 */
        ENSURE_REL(r.duration, f.duration, 1e-5);
        ENSURE(f.duration > f.duration_undamped * 0.5 && f.duration != f.duration_undamped);
    }
}

TEST(gonthier_d_solves_eq_19_for_every_e)
{
    double e;

    for (e = 1e-3; e < 1; e *= 1.3) {
        double d = clink_contact_gonthier_d(e);
        ENSURE(d > 0 && d < 1);
        if (!(d < 1 - 1e-14))
            continue; /* 1 - d below the resolution of doubles near 1 */
        /* (1 + d/e) / (1 - d) = exp(d (1 + 1/e)) in logarithms; the rounding of d
           (1e-16) moves ln(1 - d) by 1e-16 / (1 - d) */
        ENSURE_NEAR(log1p(d / e) - log1p(-d), d * (1 + 1 / e),
                    1e-12 * d * (1 + 1 / e) + 4e-16 / (1 - d));
    }
    /* near e = 1 the series of Eq. 19 gives d = 3/2 (1/e^2 - 1) / (1 + 1/e^3) ~ 3/2 (1 - e) */
    ENSURE_REL(clink_contact_gonthier_d(1 - 1e-9), 1.5e-9, 1e-6);
    ENSURE_REL(clink_contact_gonthier_d(1 - 1e-13), 1.5e-13, 1e-3);
    ENSURE(clink_contact_gonthier_d(1) == 0);
    ENSURE(clink_contact_gonthier_d(1e-6) > 0.999);
    ENSURE(isnan(clink_contact_gonthier_d(0)));
}

TEST(gonthier_exact_gives_restitution_e_in_an_integrated_impact)
{
    double es[] = {0.2, 0.5, 0.9};
    double ns[] = {1.0, 1.5, 2.0};
    size_t i, j;

    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++) {
            clink_contact_params p = params_k_e(5e8, es[i]);
            impact_result r;

            clink_contact_params_set(&p, "n", ns[j]);
            r = integrate_impact(law("gonthier-exact"), &p, 0.1, 0.3,
                                 impact_step(5e8, ns[j], 0.1, 0.3), 400000);
            ENSURE(r.separated);
            ENSURE_NEAR(r.e_out, es[i], 2e-5);
        }
}

TEST(anagnostopoulos_reproduces_e_when_it_ends_at_zero_penetration)
{
    clink_contact_params p = params_k_e(1e6, 0.4);
    impact_result r = integrate_impact(law("anagnostopoulos"), &p, 1, 1, PI / 1000 / 40000, 400000);

    ENSURE(r.separated);
    ENSURE_NEAR(r.e_out, 0.4, 1e-6);
}

TEST(kelvin_voigt_with_zero_force_separation_matches_corrected_eq_55)
{
    double xis[] = {0.05, 0.3, 0.69, 0.9, 1.0, 1.4, 3.0};
    size_t i;

    for (i = 0; i < sizeof(xis) / sizeof(xis[0]); i++) {
        const double K = 1e4, m = 1;
        clink_contact_params p = params_k_e(K, NAN);
        impact_result r;

        clink_contact_params_set(&p, "c", 2 * xis[i] * sqrt(K * m));
        clink_contact_params_set(&p, "zero_force", 1);
        r = integrate_impact(law("kelvin-voigt"), &p, m, 1, PI / 100 / 40000, 400000);
        ENSURE(r.separated);
        ENSURE_NEAR(r.e_out, clink_contact_kv_restitution_zero_force(xis[i]), 2e-6);
        ENSURE(r.delta_sep > 0);
    }
    /* both branches meet at exp(-2) */
    ENSURE_REL(clink_contact_kv_restitution_zero_force(1 - 1e-9), exp(-2), 1e-8);
    ENSURE_REL(clink_contact_kv_restitution_zero_force(1 + 1e-9), exp(-2), 1e-8);
    ENSURE_REL(clink_contact_kv_restitution_zero_force(1 - 2e-6),
               exp(-2 * (1 - 2e-6) * (1 + 2e-6 / 3)), 1e-10);
    ENSURE(clink_contact_kv_restitution_zero_force(0) == 1);
}

TEST(hertz_undamped_peak_force_has_the_closed_form_of_alves_table_4)
{
    /* F_max = K (5 m v^2 / (4 K))^(3/5) */
    ENSURE_REL(clink_contact_undamped_force_max(2.46e10, 1.5, 0.54, 0.5),
               2.46e10 * pow(5 * 0.54 * 0.25 / (4 * 2.46e10), 0.6), 1e-14);
    {
        clink_contact_params p = params_k_e(2.46e10, NAN);
        impact_result r = integrate_impact(law("hertz"), &p, 0.54, 0.5,
                                           impact_step(2.46e10, 1.5, 0.54, 0.5), 400000);
        ENSURE(r.separated);
        ENSURE_NEAR(r.e_out, 1, 1e-6);
        ENSURE_REL(r.delta_max, clink_contact_undamped_delta_max(2.46e10, 1.5, 0.54, 0.5), 1e-6);
    }
}

/* ---- stiffness and mass ---------------------------------------------------------------- */

TEST(hertz_stiffness_of_spheres_planes_and_a_journal_in_its_bearing)
{
    const double E1 = 210e9, nu1 = 0.3, E2 = 70e9, nu2 = 0.33;
    double s = (1 - nu1 * nu1) / E1 + (1 - nu2 * nu2) / E2, K, K2;

    ENSURE(clink_contact_stiffness_hertz(E1, nu1, E2, nu2, 0.02, 0.03, &K) == CLINK_OK);
    ENSURE_REL(K, 4 / (3 * s) * sqrt(0.02 * 0.03 / 0.05), 1e-14);
    ENSURE(clink_contact_stiffness_sphere_plane(E1, nu1, E2, nu2, 0.02, &K) == CLINK_OK);
    ENSURE_REL(K, 4 / (3 * s) * sqrt(0.02), 1e-14);
    ENSURE(clink_contact_stiffness_journal_bearing(E1, nu1, E2, nu2, 0.0095, 0.01, &K) == CLINK_OK);
    ENSURE_REL(K, 4 / (3 * s) * sqrt(0.0095 * 0.01 / 0.0005), 1e-14);
    ENSURE(clink_contact_stiffness_hertz(E1, nu1, E2, nu2, 0.0095, -0.01, &K2) == CLINK_OK);
    ENSURE_REL(K2, K, 1e-12);
    /* the journal larger than its bearing, zero radius, bad materials */
    ENSURE(clink_contact_stiffness_journal_bearing(E1, nu1, E2, nu2, 0.01, 0.0095, &K) ==
           CLINK_ERR_RANGE);
    ENSURE(clink_contact_stiffness_hertz(E1, nu1, E2, nu2, 0.01, -0.0095, &K) == CLINK_ERR_RANGE);
    ENSURE(clink_contact_stiffness_hertz(E1, 0.5, E2, nu2, 0.01, 0.01, &K) == CLINK_ERR_RANGE);
    ENSURE(clink_contact_stiffness_hertz(-1, nu1, E2, nu2, 0.01, 0.01, &K) == CLINK_ERR_RANGE);
    ENSURE(clink_contact_stiffness_hertz(E1, nu1, E2, nu2, 0, 0.01, &K) == CLINK_ERR_RANGE);
}

TEST(a_law_takes_its_stiffness_from_materials_when_k_is_not_given)
{
    clink_contact_params p = params_k_e(NAN, 0.8);
    clink_contact_state s;
    double K;

    clink_contact_params_set(&p, "E1", 70e9);
    clink_contact_params_set(&p, "E2", 70e9);
    clink_contact_params_set(&p, "nu1", 0.33);
    clink_contact_params_set(&p, "nu2", 0.33);
    clink_contact_params_set(&p, "R1", 0.02);
    clink_contact_params_set(&p, "R2", INFINITY);
    ENSURE(clink_contact_params_stiffness(&p, &K, NULL, 0) == CLINK_OK);
    ENSURE_REL(K, 4 / (3 * 2 * (1 - 0.33 * 0.33) / 70e9) * sqrt(0.02), 1e-14);
    clink_contact_state_init(&s);
    ENSURE(clink_law_onset(law("lankarani-nikravesh"), &p, 0.3, 0.046, &s) == CLINK_OK);
    ENSURE_REL(s.K, K, 1e-15);
    /* a material stiffness is a Hertz (n = 3/2) stiffness */
    clink_contact_params_set(&p, "n", 1.2);
    ENSURE(clink_law_check(law("lankarani-nikravesh"), &p, NULL, 0) == CLINK_ERR_RANGE);
}

TEST(effective_mass_of_a_pair_and_of_a_body_against_ground)
{
    ENSURE_REL(clink_contact_effective_mass(0.092, 0.092), 0.046, 1e-15);
    ENSURE_REL(clink_contact_effective_mass(2, 3), 1.2, 1e-15);
    ENSURE(clink_contact_effective_mass(0.54, INFINITY) == 0.54);
    ENSURE(clink_contact_effective_mass(INFINITY, 0.54) == 0.54);
    ENSURE(isnan(clink_contact_effective_mass(0, 1)));
    ENSURE(isnan(clink_contact_effective_mass(INFINITY, INFINITY)));
}

/* Simpson's rule on n intervals of s = delta w^2 (smooth for power laws) */
static double stored_by_quadrature(const clink_law *l, const clink_contact_params *p,
                                   const clink_contact_state *s, double delta, int n)
{
    double sum = 0.0;
    for (int i = 0; i <= n; i++) {
        double w = (double) i / n, c = (i == 0 || i == n) ? 1.0 : (i % 2 ? 4.0 : 2.0);
        sum += c * clink_law_force(l, p, s, delta * w * w, 0.0) * 2.0 * delta * w;
    }
    return sum / (3.0 * n);
}

TEST(stored_energy_is_the_integral_of_the_rate_free_force_for_every_law)
{
    int power_laws = 0;
    for (size_t i = 0; i < clink_law_count(); i++) {
        const clink_law *l = clink_law_at(i);
        clink_contact_params p = required_params_of(l);
        clink_contact_state s;
        clink_contact_state_init(&s);
        /* OPEN: nothing stored */
        ENSURE(clink_law_stored_energy(l, &p, &s, 1e-5) == 0.0);
        ENSURE(clink_law_onset(l, &p, 0.3, 0.046, &s) == CLINK_OK);
        double d = 1e-5, u = clink_law_stored_energy(l, &p, &s, d);
        /* the K delta^n shape at every node of the quadrature? (The elastoplastic laws load
           along other curves; their stored energy is checked against their own closed forms
           in tests/contact/test_elastoplastic.c.) */
        int power = 1;
        for (int k = 1; k <= 2000 && power; k++) {
            double x = d * (k / 2000.0) * (k / 2000.0);
            power = fabs(clink_law_force(l, &p, &s, x, 0.0) - s.K * pow(x, s.n)) <=
                    1e-12 * s.K * pow(x, s.n);
        }
        ENSURE(isfinite(u) && u > 0.0);
        power_laws += power;
        if (power) {
            ENSURE_REL(u, stored_by_quadrature(l, &p, &s, d, 2000), 1e-9);
            /* the closed form of the K delta^n shape */
            ENSURE_REL(u, s.K * pow(d, s.n + 1.0) / (s.n + 1.0), 1e-12);
        }
        ENSURE(clink_law_stored_energy(l, &p, &s, -1e-6) == 0.0);
    }
    /* every law of issue 3 loads along K delta^n */
    ENSURE(power_laws >= LAW_NAME_COUNT);
}
