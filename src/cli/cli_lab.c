/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Option parsing shared by `clink impact` and `clink calibrate` (see cli_lab.h).
 * Every parameter given must be one the law reads (its required or optional
 * keys, clink_law_info), damping factors must not be negative, and calibrate
 * refuses what it would overwrite (--restitution, --damping and, for a law with a
 * rule from e, the damping parameters), so no option is accepted and then ignored.
 */
#include "cli_lab.h"

#include "cli.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void cli_lab_list_laws(FILE *out)
{
    size_t i;

    for (i = 0; i < clink_law_count(); i++)
        fprintf(out, "%s%s", i ? ", " : "", clink_law_name(clink_law_at(i)));
}

int cli_lab_exit_for(clink_status st)
{
    switch (st) {
    case CLINK_ERR_ARG:
    case CLINK_ERR_RANGE:
    case CLINK_ERR_NOT_FOUND:
    case CLINK_ERR_NONFINITE:
    case CLINK_ERR_PARSE:
        return CLI_EXIT_USAGE;
    default:
        return CLI_EXIT_FAIL;
    }
}

void cli_lab_json_number(FILE *out, const char *key, double v, int comma)
{
    if (isfinite(v))
        fprintf(out, "  \"%s\": %.17g%s\n", key, v, comma ? "," : "");
    else
        fprintf(out, "  \"%s\": null%s\n", key, comma ? "," : "");
}

enum { CLI_LAB_MAX_KEYS = 64 };

/* the parameter keys given on the command line, in order */
typedef struct cli_lab_keys {
    const char *key[CLI_LAB_MAX_KEYS];
    const char *option[CLI_LAB_MAX_KEYS]; /* as typed: "--k" or "--param" */
    int n;
} cli_lab_keys;

static void cli_lab_note(cli_lab_keys *k, const char *key, const char *option)
{
    int i;
    for (i = 0; i < k->n; i++)
        if (strcmp(k->key[i], key) == 0)
            return;
    if (k->n < CLI_LAB_MAX_KEYS) {
        k->key[k->n] = key;
        k->option[k->n] = option;
        k->n++;
    }
}

/* nonzero if the identifier `key` appears in the law's list text ("materials": E, nu, R) */
int cli_lab_list_has(const char *list, const char *key)
{
    static const char *const materials[] = {"E1", "E2", "nu1", "nu2", "R1", "R2"};
    const char *p = list;
    size_t klen = strlen(key), i;

    while (p != NULL && *p != '\0') {
        const char *start;
        while (*p != '\0' && !(isalnum((unsigned char) *p) || *p == '_'))
            p++;
        start = p;
        while (*p != '\0' && (isalnum((unsigned char) *p) || *p == '_'))
            p++;
        if ((size_t) (p - start) == klen && strncmp(start, key, klen) == 0)
            return 1;
        if (p - start == 9 && strncmp(start, "materials", 9) == 0)
            for (i = 0; i < sizeof materials / sizeof materials[0]; i++)
                if (strcmp(materials[i], key) == 0)
                    return 1;
    }
    return 0;
}

/* the options of `clink impact` and `clink calibrate` (cli.h, "Options") */
enum {
    LAB_LAW = 1,
    LAB_TARGET,
    LAB_MASS,
    LAB_VELOCITY,
    LAB_K,
    LAB_N,
    LAB_RESTITUTION,
    LAB_PARAM,
    LAB_DAMPING,
    LAB_LOOP,
    LAB_ANALYTIC,
    LAB_JSON,
    LAB_RTOL,
    LAB_METHOD
};

#define CLI_LAB_ROW_LAW                                                                            \
    {                                                                                              \
        LAB_LAW, "law", 0, "NAME", "contact law (`clink laws` lists them)"                         \
    }
#define CLI_LAB_ROWS_IMPACT                                                                        \
    {LAB_MASS, "mass", 0, "M", "effective mass, kg (> 0)"},                                        \
        {LAB_VELOCITY, "velocity", 0, "V", "approach speed, m/s (> 0)"},                           \
        {LAB_K, "k", 0, "K", "stiffness, N/m^n (> 0)"},                                            \
    {                                                                                              \
        LAB_N, "n", 0, "N", "exponent (>= 1)"                                                      \
    }
#define CLI_LAB_ROW_PARAM                                                                          \
    {                                                                                              \
        LAB_PARAM, "param", 0, "KEY=VALUE",                                                        \
            "a parameter the law reads (chi, c, v_ref, E1, ...),\n"                                \
            "repeatable; `clink laws` lists them, others are refused"                              \
    }
#define CLI_LAB_ROWS_SOLVER                                                                        \
    {LAB_JSON, "json", 0, NULL, "one JSON object instead of the table"},                           \
        {LAB_RTOL, "rtol", 0, "R", "relative tolerance, 1e-14 .. 1e-3"},                           \
    {                                                                                              \
        LAB_METHOD, "method", 0, "METHOD",                                                         \
            "rk8 (Dormand-Prince 8(5,3), series start; default),\n"                                \
            "adams or bdf (CVODE)"                                                                 \
    }

static const cli_option impact_options[] = {
    CLI_LAB_ROW_LAW,
    CLI_LAB_ROWS_IMPACT,
    {LAB_RESTITUTION, "restitution", 0, "E", "target restitution, in (0, 1]"},
    CLI_LAB_ROW_PARAM,
    {LAB_DAMPING, "damping", 0, "X", "replace the damping coefficient of the law's rule"},
    {LAB_LOOP, "loop", 0, "FILE.csv", "write t, delta, delta_dot, F (SI units, in the header)"},
    {LAB_ANALYTIC, "analytic", 0, NULL,
     "power-law-tsuji, tsuji: Feng's closed forms beside\nthe run"},
    CLI_LAB_ROWS_SOLVER,
    {0, NULL, 0, NULL, NULL},
};

/* --restitution and --damping are read only to be refused (help NULL: not listed) */
static const cli_option calibrate_options[] = {
    CLI_LAB_ROW_LAW,
    {LAB_TARGET, "target", 0, "E", "restitution to reach, in (0, 1]"},
    CLI_LAB_ROWS_IMPACT,
    CLI_LAB_ROW_PARAM,
    CLI_LAB_ROWS_SOLVER,
    {LAB_RESTITUTION, "restitution", 0, "E", NULL},
    {LAB_DAMPING, "damping", 0, "X", NULL},
    {0, NULL, 0, NULL, NULL},
};

const cli_option *cli_lab_options(int calibrate)
{
    return calibrate ? calibrate_options : impact_options;
}

/* what the parser's apply function works on */
typedef struct cli_lab_parse_state {
    cli_lab_args *a;
    int calibrate;
    cli_lab_keys given;
    char keys[CLI_LAB_MAX_KEYS][64];
} cli_lab_parse_state;

/* --param KEY=VALUE: sets the parameter, notes the key */
static int cli_lab_param(cli_lab_parse_state *ps, const char *v)
{
    cli_lab_keys *given = &ps->given;
    char *key = ps->keys[given->n < CLI_LAB_MAX_KEYS ? given->n : CLI_LAB_MAX_KEYS - 1];
    const char *why = NULL;
    double x;
    clink_status st;

    if (cli_read_key_value(v, key, sizeof ps->keys[0], &x, 1, &why) != 0)
        return cli_usage_error("--param: '%s' %s", v, why);
    st = clink_contact_params_set(&ps->a->params, key, x);
    if (st == CLINK_ERR_NOT_FOUND)
        return cli_usage_error("--param: unknown parameter '%s'", key);
    if (st != CLINK_OK)
        return cli_usage_error("--param: %s = %s: %s", key, strchr(v, '=') + 1,
                               clink_status_string(st));
    if ((strcmp(key, "chi") == 0 || strcmp(key, "c") == 0 || strcmp(key, "alpha") == 0) &&
        !(x >= 0))
        return cli_usage_error("--param: %s = %g: a damping parameter must be >= 0", key, x);
    cli_lab_note(given, key, "--param");
    return CLI_EXIT_OK;
}

/* the options taking a number */
static int cli_lab_number(cli_lab_parse_state *ps, int id, const char *opt, const char *v)
{
    cli_lab_args *a = ps->a;
    double *dst = id == LAB_MASS          ? &a->mass
                  : id == LAB_VELOCITY    ? &a->velocity
                  : id == LAB_K           ? &a->params.K
                  : id == LAB_N           ? &a->params.n
                  : id == LAB_RESTITUTION ? &a->params.e
                  : id == LAB_DAMPING     ? &a->options.damping
                  : id == LAB_RTOL        ? &a->options.rtol
                                          : &a->target;

    if (ps->calibrate && (id == LAB_RESTITUTION || id == LAB_DAMPING))
        return cli_usage_error("calibrate: %s cannot take effect: calibrate finds the "
                               "damping for --target E",
                               opt);
    if (cli_parse_double(opt, v, dst))
        return CLI_EXIT_USAGE;
    if (id == LAB_K)
        cli_lab_note(&ps->given, "K", "--k");
    else if (id == LAB_N)
        cli_lab_note(&ps->given, "n", "--n");
    else if (id == LAB_RESTITUTION)
        cli_lab_note(&ps->given, "e", "--restitution");
    return CLI_EXIT_OK;
}

/* one option or operand of impact or calibrate (cli_apply_fn) */
static int cli_lab_apply(void *ctx, int id, const char *opt, const char *v)
{
    cli_lab_parse_state *ps = ctx;
    cli_lab_args *a = ps->a;

    switch (id) {
    case CLI_OPERAND:
        return cli_usage_error("%s: takes no operand (got '%s'; options are --name VALUE)",
                               ps->calibrate ? "calibrate" : "impact", v);
    case LAB_LAW:
        a->law_name = v;
        return CLI_EXIT_OK;
    case LAB_LOOP:
        if (v[0] == '\0')
            return cli_usage_error("--loop: the file name is empty");
        a->loop_path = v;
        return CLI_EXIT_OK;
    case LAB_JSON:
        a->json = 1;
        return CLI_EXIT_OK;
    case LAB_ANALYTIC:
        a->analytic = 1;
        return CLI_EXIT_OK;
    case LAB_PARAM:
        return cli_lab_param(ps, v);
    case LAB_METHOD:
        if (strcmp(v, "rk8") == 0)
            a->options.method = CLINK_LAB_RK8;
        else if (strcmp(v, "adams") == 0)
            a->options.method = CLINK_LAB_ADAMS;
        else if (strcmp(v, "bdf") == 0)
            a->options.method = CLINK_LAB_BDF;
        else
            return cli_usage_error("--method: '%s' is not one of rk8, adams, bdf", v);
        return CLI_EXIT_OK;
    default:
        return cli_lab_number(ps, id, opt, v);
    }
}

/* the law by name, and every noted key one it reads (and one calibrate does not override) */
static int cli_lab_resolve_law(const char *command, int calibrate, cli_lab_args *a,
                               const cli_lab_keys *given)
{
    clink_law_info info;
    int i;

    if (a->law_name == NULL)
        return cli_usage_error("%s: --law NAME is required", command);
    a->law = clink_law_find(a->law_name);
    if (a->law == NULL) {
        fprintf(stderr, "clink: --law: unknown law '%s'; valid laws: ", a->law_name);
        cli_lab_list_laws(stderr);
        fputc('\n', stderr);
        return CLI_EXIT_USAGE;
    }
    clink_law_get_info(a->law, &info);
    int reads_e = cli_lab_list_has(info.required, "e") || cli_lab_list_has(info.optional, "e");
    for (i = 0; i < given->n; i++) {
        const char *k = given->key[i];
        if (!cli_lab_list_has(info.required, k) && !cli_lab_list_has(info.optional, k))
            return cli_usage_error("%s %s: the law %s does not use '%s' (it reads: %s%s%s)",
                                   command, given->option[i], clink_law_name(a->law), k,
                                   info.required, info.optional[0] != '\0' ? "; optional: " : "",
                                   info.optional);
        /* a law with a rule from e has its coefficient overwritten by the calibration; a law
           without one (an empirical chi or c) needs it: the coefficient the calibrated one
           is reported beside */
        if (calibrate &&
            (strcmp(k, "e") == 0 || (reads_e && (strcmp(k, "chi") == 0 || strcmp(k, "c") == 0 ||
                                                 strcmp(k, "alpha") == 0))))
            return cli_usage_error("calibrate: --param %s cannot take effect: calibrate finds the "
                                   "damping for --target E",
                                   k);
    }
    return CLI_EXIT_OK;
}

/* the ranges of the numbers given; calibrate's target becomes the restitution */
static int cli_lab_check_ranges(const char *command, int calibrate, cli_lab_args *a)
{
    if (isnan(a->mass))
        return cli_usage_error("%s: --mass M (kg) is required", command);
    if (!(a->mass > 0.0))
        return cli_usage_error("--mass: %g must be > 0 (kg)", a->mass);
    if (isnan(a->velocity))
        return cli_usage_error("%s: --velocity V (m/s) is required", command);
    if (!(a->velocity > 0.0))
        return cli_usage_error("--velocity: %g must be > 0 (m/s, the approach speed)", a->velocity);
    if (!isnan(a->params.K) && !(a->params.K > 0.0))
        return cli_usage_error("--k: %g must be > 0 (N/m^n)", a->params.K);
    if (!isnan(a->params.n) && !(a->params.n >= 1.0))
        return cli_usage_error("--n: %g must be >= 1", a->params.n);
    if (!isnan(a->params.e) && !(a->params.e > 0.0 && a->params.e <= 1.0))
        return cli_usage_error("--restitution: %g is outside (0, 1]", a->params.e);
    if (!(a->options.rtol >= 1e-14 && a->options.rtol <= 1e-3))
        return cli_usage_error("--rtol: %g is outside [1e-14, 1e-3]", a->options.rtol);
    if (!isnan(a->options.damping) && !(a->options.damping >= 0.0))
        return cli_usage_error("--damping: %g must be >= 0", a->options.damping);
    if (calibrate) {
        if (isnan(a->target))
            return cli_usage_error("calibrate: --target E is required");
        if (!(a->target > 0.0 && a->target <= 1.0))
            return cli_usage_error("--target: %g is outside (0, 1]", a->target);
        a->params.e = a->target;
    }
    return CLI_EXIT_OK;
}

int cli_lab_parse(int argc, char **argv, int calibrate, cli_lab_args *a)
{
    cli_lab_parse_state ps;
    int rc;

    memset(&ps, 0, sizeof ps);
    ps.a = a;
    ps.calibrate = calibrate;
    memset(a, 0, sizeof *a);
    clink_contact_params_init(&a->params);
    clink_lab_options_init(&a->options);
    a->mass = NAN;
    a->velocity = NAN;
    a->target = NAN;
    rc = cli_parse_options(argc, argv, cli_lab_options(calibrate), cli_lab_apply, &ps);
    if (rc == CLI_HELP) {
        a->help = 1;
        return CLI_EXIT_OK;
    }
    if (rc == CLI_EXIT_OK)
        rc = cli_lab_resolve_law(argv[0], calibrate, a, &ps.given);
    if (rc == CLI_EXIT_OK)
        rc = cli_lab_check_ranges(argv[0], calibrate, a);
    if (rc == CLI_EXIT_OK && a->loop_path != NULL)
        rc = cli_check_output_path(argv[0], "--loop", a->loop_path, 0);
    return rc;
}
