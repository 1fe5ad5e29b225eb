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
static int cli_lab_list_has(const char *list, const char *key)
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

static int cli_lab_value(int argc, char **argv, int *i, const char **value)
{
    if (*i + 1 >= argc) {
        cli_usage_error("%s: missing value", argv[*i]);
        return -1;
    }
    *value = argv[++*i];
    return 0;
}

/* --param KEY=VALUE: sets the parameter, notes the key (stored in keys) */
static int cli_lab_param(int argc, char **argv, int *i, cli_lab_args *a, cli_lab_keys *given,
                         char (*keys)[64])
{
    char *key = keys[given->n < CLI_LAB_MAX_KEYS ? given->n : CLI_LAB_MAX_KEYS - 1];
    const char *v, *why = NULL;
    double x;
    clink_status st;

    if (cli_lab_value(argc, argv, i, &v))
        return CLI_EXIT_USAGE;
    if (cli_read_key_value(v, key, sizeof keys[0], &x, 1, &why) != 0)
        return cli_usage_error("--param: '%s' %s", v, why);
    st = clink_contact_params_set(&a->params, key, x);
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

/* an option taking a number (--mass, --velocity, --k, --n, --restitution, --damping, --rtol,
   --target); an unknown option is a usage error */
static int cli_lab_number(int argc, char **argv, int *i, int calibrate, cli_lab_args *a,
                          cli_lab_keys *given)
{
    const char *opt = argv[*i];
    const char *v, *name = opt;
    double *dst = NULL;

    if (strcmp(opt, "--mass") == 0)
        dst = &a->mass;
    else if (strcmp(opt, "--velocity") == 0)
        dst = &a->velocity;
    else if (strcmp(opt, "--k") == 0)
        dst = &a->params.K;
    else if (strcmp(opt, "--n") == 0)
        dst = &a->params.n;
    else if (strcmp(opt, "--restitution") == 0)
        dst = &a->params.e;
    else if (strcmp(opt, "--damping") == 0)
        dst = &a->options.damping;
    else if (strcmp(opt, "--rtol") == 0)
        dst = &a->options.rtol;
    else if (strcmp(opt, "--target") == 0 && calibrate)
        dst = &a->target;
    if (dst == NULL)
        return cli_usage_error("%s: unknown option '%s' (see clink %s --help)", argv[0], opt,
                               argv[0]);
    if (cli_lab_value(argc, argv, i, &v) || cli_parse_double(name, v, dst))
        return CLI_EXIT_USAGE;
    if (dst == &a->params.K)
        cli_lab_note(given, "K", opt);
    else if (dst == &a->params.n)
        cli_lab_note(given, "n", opt);
    else if (dst == &a->params.e)
        cli_lab_note(given, "e", opt);
    if (calibrate && (dst == &a->params.e || dst == &a->options.damping))
        return cli_usage_error("calibrate: %s cannot take effect: calibrate finds the "
                               "damping for --target E",
                               opt);
    return CLI_EXIT_OK;
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
        if (calibrate && (strcmp(k, "e") == 0 || (reads_e && (strcmp(k, "chi") == 0 ||
                                                             strcmp(k, "c") == 0 ||
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
    int i, rc = CLI_EXIT_OK;
    const char *v;
    cli_lab_keys given;
    char keys[CLI_LAB_MAX_KEYS][64];

    memset(&given, 0, sizeof given);
    memset(a, 0, sizeof *a);
    clink_contact_params_init(&a->params);
    clink_lab_options_init(&a->options);
    a->mass = NAN;
    a->velocity = NAN;
    a->target = NAN;
    for (i = 1; i < argc && rc == CLI_EXIT_OK; i++) {
        const char *opt = argv[i];
        if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
            a->help = 1;
            return CLI_EXIT_OK;
        } else if (strcmp(opt, "--json") == 0) {
            a->json = 1;
        } else if (strcmp(opt, "--analytic") == 0 && !calibrate) {
            a->analytic = 1;
        } else if (strcmp(opt, "--law") == 0) {
            if (cli_lab_value(argc, argv, &i, &a->law_name))
                return CLI_EXIT_USAGE;
        } else if (strcmp(opt, "--loop") == 0 && !calibrate) {
            if (cli_lab_value(argc, argv, &i, &a->loop_path))
                return CLI_EXIT_USAGE;
        } else if (strcmp(opt, "--method") == 0) {
            if (cli_lab_value(argc, argv, &i, &v))
                return CLI_EXIT_USAGE;
            if (strcmp(v, "rk8") == 0)
                a->options.method = CLINK_LAB_RK8;
            else if (strcmp(v, "adams") == 0)
                a->options.method = CLINK_LAB_ADAMS;
            else if (strcmp(v, "bdf") == 0)
                a->options.method = CLINK_LAB_BDF;
            else
                return cli_usage_error("--method: '%s' is not one of rk8, adams, bdf", v);
        } else if (strcmp(opt, "--param") == 0) {
            rc = cli_lab_param(argc, argv, &i, a, &given, keys);
        } else {
            rc = cli_lab_number(argc, argv, &i, calibrate, a, &given);
        }
    }
    if (rc == CLI_EXIT_OK)
        rc = cli_lab_resolve_law(argv[0], calibrate, a, &given);
    if (rc == CLI_EXIT_OK)
        rc = cli_lab_check_ranges(argv[0], calibrate, a);
    return rc;
}
