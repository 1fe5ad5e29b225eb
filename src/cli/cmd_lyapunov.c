/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `clink lyapunov MODEL.xml --every T --settle T [--t-end T] [--d0 D] [--coordinates LIST]
 * [--set PATH=VALUE ...] [-o DIR]`: the largest Lyapunov exponent of a model's response by
 * clink_lyapunov (src/sim/sim_lyapunov.c: two trajectories with renormalisation through the
 * impacts, Benettin et al. 1980). Prints the exponent and its stated error; with -o writes
 * DIR/lyapunov.csv, the convergence curve (t, the running estimate). docs/nonlinear.md.
 */
#include "cli.h"

#include "clink/xml.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

enum { LY_EVERY = 1, LY_SETTLE, LY_TEND, LY_D0, LY_COORDS, LY_SET, LY_OUT };
enum { LY_SETS_MAX = 64 };

static const cli_option ly_options[] = {
    {LY_EVERY, "every", 0, "T", "renormalisation interval, s (a forcing period)"},
    {LY_SETTLE, "settle", 0, "T", "the transient left out, s"},
    {LY_TEND, "t-end", 0, "T", "the end, s (default: the model's t_end)"},
    {LY_D0, "d0", 0, "D", "the perturbation's size (default 1e-8)"},
    {LY_COORDS, "coordinates", 0, "LIST",
     "the coordinates perturbed and measured, of every body, among\n"
     "x,y,phi,vx,vy,omega (default: all)"},
    {LY_SET, "set", 0, "PATH=VALUE", "override a value of the model (repeatable)"},
    {LY_OUT, "output", 'o', "DIR", "write DIR/lyapunov.csv, the convergence curve"},
    {0, NULL, 0, NULL, NULL},
};

static void ly_usage(FILE *out)
{
    fprintf(out, "usage: clink lyapunov MODEL.xml --every T --settle T [--t-end T] [--d0 D]\n"
                 "                       [--coordinates LIST] [--set PATH=VALUE ...] [-o DIR]\n\n"
                 "The largest Lyapunov exponent of the model's response (1/s): a reference and a\n"
                 "perturbed simulation side by side through every impact, the perturbed one set\n"
                 "back to d0 from the reference every interval (Benettin et al. 1980); the\n"
                 "error is the standard error of 10 batch means of the intervals' rates.\n\n");
    cli_print_options(out, ly_options);
    fprintf(out, "\nExit status: 0 computed; 1 a simulation failed; 2 bad input; 3 the curve\n"
                 "could not be written.\n");
}

typedef struct ly_args {
    const char *model, *out;
    const char *sets[LY_SETS_MAX];
    int nsets;
    clink_lyapunov_options o;
} ly_args;

/* "y,vy" into the bit mask of clink_lyapunov_options.coordinates; -1 if a word is unknown */
static long ly_mask(const char *list)
{
    static const char *const w[6] = {"x", "y", "phi", "vx", "vy", "omega"};
    long m = 0;
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        int k = 0;
        while (k < 6 && !(strlen(w[k]) == n && strncmp(p, w[k], n) == 0))
            k++;
        if (k == 6)
            return -1;
        m |= 1L << k;
        p += n + (p[n] == ',');
    }
    return m;
}

static int ly_apply(void *ctx, int id, const char *spelled, const char *value)
{
    ly_args *a = ctx;
    long m;
    switch (id) {
    case LY_EVERY:
        return cli_parse_double(spelled, value, &a->o.every);
    case LY_SETTLE:
        return cli_parse_double(spelled, value, &a->o.settle);
    case LY_TEND:
        return cli_parse_double(spelled, value, &a->o.t_end);
    case LY_D0:
        return cli_parse_double(spelled, value, &a->o.d0);
    case LY_COORDS:
        m = ly_mask(value);
        if (m < 0)
            return cli_usage_error("lyapunov: %s: '%s': words among x,y,phi,vx,vy,omega", spelled,
                                   value);
        a->o.coordinates = (unsigned) m;
        return CLI_EXIT_OK;
    case LY_SET:
        if (a->nsets == LY_SETS_MAX)
            return cli_usage_error("lyapunov: at most %d --set", LY_SETS_MAX);
        a->sets[a->nsets++] = value;
        return CLI_EXIT_OK;
    case LY_OUT:
        a->out = value;
        return CLI_EXIT_OK;
    default:
        break;
    }
    if (a->model != NULL)
        return cli_usage_error("lyapunov: one model only (got '%s' and '%s')", a->model, value);
    a->model = value;
    return CLI_EXIT_OK;
}

/* the convergence curve, one line per interval */
static void ly_curve(void *data, double t, double lambda)
{
    if (data)
        fprintf(data, "%.17g,%.17g\n", t, lambda);
}

/* the exponent computed and printed, the curve into f (may be NULL); exit status */
static int ly_compute(ly_args *a, FILE *f)
{
    char err[1024];
    clink_model *m = NULL;
    if (clink_xml_load_with(a->model, a->sets, a->nsets, NULL, &m, NULL, err, sizeof err) !=
        CLINK_OK) {
        fprintf(stderr, "clink: lyapunov: %s\n", err);
        return CLI_EXIT_USAGE;
    }
    if (!(a->o.t_end > 0.0))
        a->o.t_end = clink_model_settings(m).t_end;
    clink_lyapunov_result r;
    clink_status st = clink_lyapunov(m, NULL, &a->o, ly_curve, f, &r, err, sizeof err);
    clink_model_destroy(&m);
    if (st != CLINK_OK) {
        fprintf(stderr, "clink: lyapunov: %s\n", err);
        return st == CLINK_ERR_ARG ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
    }
    printf("largest Lyapunov exponent %.6g 1/s, error %.2g 1/s (%ld intervals of %g s from "
           "%g s)\n",
           r.lambda, r.error, r.intervals, a->o.every, a->o.settle);
    return CLI_EXIT_OK;
}

int cmd_lyapunov(int argc, char **argv)
{
    ly_args a;
    memset(&a, 0, sizeof a);
    a.o = clink_default_lyapunov_options();
    int rc = cli_parse_options(argc, argv, ly_options, ly_apply, &a);
    if (rc == CLI_HELP) {
        ly_usage(stdout);
        return CLI_EXIT_OK;
    }
    if (rc != CLI_EXIT_OK)
        return rc;
    if (a.model == NULL) {
        ly_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    FILE *f = NULL;
    char path[4200];
    if (a.out) {
        snprintf(path, sizeof path, "%s/lyapunov.csv", a.out);
        if ((mkdir(a.out, 0777) != 0 && errno != EEXIST) || !(f = fopen(path, "w"))) {
            fprintf(stderr, "clink: lyapunov: %s: cannot create: %s\n", path, strerror(errno));
            return CLI_EXIT_IO;
        }
        fprintf(f, "t [s],lambda [1/s]\n");
    }
    rc = ly_compute(&a, f);
    if (f && (ferror(f) | (fclose(f) != 0)) && rc == CLI_EXIT_OK) {
        fprintf(stderr, "clink: lyapunov: %s: cannot write: %s\n", path, strerror(errno));
        rc = CLI_EXIT_IO;
    }
    return rc;
}
