/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `clink kinematics MODEL.xml [--driver NAME] [--from A --to B] [--steps N] [--rate R]
 * [-o DIR] [--table]`: a driven mechanism swept over one driver's values without dynamics
 * (src/analysis/analysis_kinematics.c, docs/analysis.md): the positions, velocities and
 * accelerations of every body, the transmission angles, every joint's point (coupler
 * curves), the rank of the constraint Jacobian and the dead points, the driver values where
 * assembly fails; DIR/kinematics.csv (one row per value) and DIR/kinematics.json (summary).
 */
#include "cli.h"
#include "cli_analysis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { KIN_OUT = 1, KIN_SET, KIN_DRIVER, KIN_FROM, KIN_TO, KIN_STEPS, KIN_RATE, KIN_CSV };

static const cli_option kin_options[] = {
    {KIN_DRIVER, "driver", 0, "NAME", "the driver swept (default: the first)"},
    {KIN_FROM, "from", 0, "A", "first driver value, m or rad (with --to)"},
    {KIN_TO, "to", 0, "B",
     "last driver value (default: the driver's values\nover the run, an angle's to one turn)"},
    {KIN_STEPS, "steps", 0, "N", "intervals of the sweep (default 360)"},
    {KIN_RATE, "rate", 0, "R",
     "driver rate for velocities and accelerations,\nunit/s (default 1: velocity coefficients)"},
    {KIN_OUT, "output", 'o', "DIR", "write DIR/kinematics.csv and DIR/kinematics.json"},
    {KIN_CSV, "table", 0, NULL, "print the table (CSV) on stdout instead of the summary"},
    {KIN_SET, "set", 0, "PATH=VALUE", "override an attribute of the model, as clink run --set"},
    {0, NULL, 0, NULL, NULL},
};

static void kin_usage(FILE *out)
{
    fprintf(out, "usage: clink kinematics MODEL.xml [--driver NAME] [--from A --to B]\n"
                 "                        [--steps N] [--rate R] [-o DIR] [--table]\n"
                 "                        [--set PATH=VALUE ...]\n\n"
                 "Sweeps a driven mechanism over one driver's values without dynamics:\n"
                 "positions, velocities and accelerations of every body, transmission\n"
                 "angles, joint points (coupler curves), the rank of the constraint\n"
                 "Jacobian (dead points) and the values where the mechanism cannot be\n"
                 "assembled.\n\n");
    cli_print_options(out, kin_options);
    fprintf(out, "\nExit status: 0 the sweep ran (values where assembly fails are rows with\n"
                 "assembled 0, and named in the summary); 1 the computation failed; 2 input\n"
                 "rejected (no driver, a free degree of freedom, a bad range); 3 the output\n"
                 "could not be written.\n");
}

typedef struct kin_args {
    cli_analysis_args base;
    clink_kinematics_options opt;
    const char *driver;
    int have_from, have_to, csv;
} kin_args;

static int kin_apply(void *ctx, int id, const char *spelled, const char *value)
{
    kin_args *a = ctx;
    switch (id) {
    case KIN_OUT:
        a->base.dir = value;
        return CLI_EXIT_OK;
    case KIN_CSV:
        a->csv = 1;
        return CLI_EXIT_OK;
    case KIN_SET:
        return cli_analysis_set(&a->base, spelled, value);
    case KIN_DRIVER:
        a->driver = value;
        return CLI_EXIT_OK;
    case KIN_FROM:
        a->have_from = 1;
        return cli_parse_double(spelled, value, &a->opt.from) != 0 ? CLI_EXIT_USAGE : CLI_EXIT_OK;
    case KIN_TO:
        a->have_to = 1;
        return cli_parse_double(spelled, value, &a->opt.to) != 0 ? CLI_EXIT_USAGE : CLI_EXIT_OK;
    case KIN_RATE:
        if (cli_parse_double(spelled, value, &a->opt.rate) != 0)
            return CLI_EXIT_USAGE;
        if (a->opt.rate == 0.0)
            return cli_usage_error("kinematics: %s: the rate must not be 0", spelled);
        return CLI_EXIT_OK;
    case KIN_STEPS:
        if (cli_parse_int(spelled, value, &a->opt.steps) != 0)
            return CLI_EXIT_USAGE;
        if (a->opt.steps < 1 || a->opt.steps > 1000000)
            return cli_usage_error("kinematics: %s: %s: expected 1 .. 1000000", spelled, value);
        return CLI_EXIT_OK;
    default:
        return cli_analysis_operand(&a->base, value);
    }
}

static void kin_csv(FILE *out, const clink_kinematics *k)
{
    int C = clink_kinematics_columns(k);
    for (int c = 0; c < C; c++)
        fprintf(out, "%s%s", c ? "," : "", clink_kinematics_column_name(k, c));
    fputc('\n', out);
    for (int r = 0; r < clink_kinematics_rows(k); r++) {
        const double *row = clink_kinematics_row(k, r);
        for (int c = 0; c < C; c++) {
            if (c)
                fputc(',', out);
            if (isfinite(row[c]))
                fprintf(out, "%.17g", row[c]);
        }
        fputc('\n', out);
    }
}

/* the summary: range, failures and dead points, the transmission angles' extremes */
static void kin_summary(FILE *out, int json, const kin_args *a, const clink_kinematics *k)
{
    int R = clink_kinematics_rows(k), C = clink_kinematics_columns(k), nfail = 0, ndead = 0;
    if (json)
        fprintf(out, "{\n  \"clink\": \"%s\",\n  \"command\": \"kinematics\",\n  \"rows\": %d,\n",
                cli_version(), R);
    else
        fprintf(out, "%s: kinematic sweep, %d values of the driver\n", a->base.path, R);
    for (int pass = 0; pass < 2; pass++) {
        int n = 0;
        fprintf(out, json ? "  \"%s\": [" : "  %-22s", pass ? "dead_points" : "assembly_fails");
        for (int r = 0; r < R; r++) {
            const double *row = clink_kinematics_row(k, r);
            if (pass ? row[3] == 1.0 : row[1] == 0.0) {
                fprintf(out, json ? "%s%.17g" : "%s%.9g", n ? (json ? ", " : " ") : "", row[0]);
                n++;
            }
        }
        fprintf(out, json ? "],\n" : "%s\n", json ? "" : (n ? "" : "none"));
        if (pass)
            ndead = n;
        else
            nfail = n;
    }
    (void) nfail;
    (void) ndead;
    for (int c = 5; c < C; c++) {
        const char *name = clink_kinematics_column_name(k, c);
        if (strncmp(name, "transmission_", 13) != 0)
            break;
        double lo = INFINITY, hi = -INFINITY;
        for (int r = 0; r < R; r++) {
            double x = clink_kinematics_row(k, r)[c];
            if (isfinite(x)) {
                lo = fmin(lo, x);
                hi = fmax(hi, x);
            }
        }
        if (json)
            fprintf(out, "  \"%s\": [%.17g, %.17g],\n", name, lo, hi);
        else
            fprintf(out, "  %-22s %.6g .. %.6g deg\n", name, lo, hi);
    }
    if (json)
        fprintf(out, "  \"columns\": %d\n}\n", C);
}

/* a warning naming the driver values where assembly fails, as ranges of the sweep */
static void kin_warn(const kin_args *a, const clink_kinematics *k)
{
    int R = clink_kinematics_rows(k), n = 0;
    for (int r = 0; r < R; r++)
        n += clink_kinematics_row(k, r)[1] == 0.0;
    if (n == 0)
        return;
    fprintf(stderr,
            "clink: kinematics: warning: %s: the mechanism cannot be assembled at %d of %d "
            "driver values:",
            a->base.path, n, R);
    for (int r = 0; r < R; r++) {
        if (clink_kinematics_row(k, r)[1] != 0.0)
            continue;
        int e = r;
        while (e + 1 < R && clink_kinematics_row(k, e + 1)[1] == 0.0)
            e++;
        if (e > r)
            fprintf(stderr, " %.9g .. %.9g", clink_kinematics_row(k, r)[0],
                    clink_kinematics_row(k, e)[0]);
        else
            fprintf(stderr, " %.9g", clink_kinematics_row(k, r)[0]);
        r = e;
    }
    fprintf(stderr, " (unreachable; see dead_points)\n");
}

static int kin_write(kin_args *a, const clink_kinematics *k)
{
    cli_out_file o;
    int rc = cli_out_open("kinematics", a->base.dir, "kinematics.csv", &o);
    if (rc != CLI_EXIT_OK)
        return rc;
    kin_csv(o.f, k);
    if ((rc = cli_out_close("kinematics", &o)) != CLI_EXIT_OK)
        return rc;
    if ((rc = cli_out_open("kinematics", a->base.dir, "kinematics.json", &o)) != CLI_EXIT_OK)
        return rc;
    kin_summary(o.f, 1, a, k);
    return cli_out_close("kinematics", &o);
}

int cmd_kinematics(int argc, char **argv)
{
    kin_args a;
    clink_model *m = NULL;
    clink_kinematics *k = NULL;
    char err[1024];
    memset(&a, 0, sizeof a);
    a.base.command = "kinematics";
    a.opt = clink_default_kinematics_options();
    int rc = cli_analysis_parse(argc, argv, kin_options, kin_apply, &a, &a.base, kin_usage);
    if (rc != CLI_EXIT_OK)
        return rc == CLI_HELP ? CLI_EXIT_OK : rc;
    if (a.have_from != a.have_to)
        return cli_usage_error("kinematics: --from and --to go together");
    a.opt.range_given = a.have_from;
    if ((rc = cli_analysis_load(&a.base, &m)) != CLI_EXIT_OK)
        return rc;
    if (a.driver != NULL) {
        a.opt.driver = clink_model_find(m, CLINK_ENTITY_DRIVER, a.driver);
        if (a.opt.driver < 0) {
            fprintf(stderr, "%s: kinematics: --driver: no driver named '%s'\n", a.base.path,
                    a.driver);
            clink_model_destroy(&m);
            return CLI_EXIT_USAGE;
        }
    }
    clink_status st = clink_kinematics_sweep(m, &a.opt, &k, err, sizeof err);
    if (st != CLINK_OK) {
        fprintf(stderr, "%s: %s\n", a.base.path, err);
        rc = cli_analysis_exit(st);
    } else {
        kin_warn(&a, k);
        if (a.csv)
            kin_csv(stdout, k);
        else
            kin_summary(stdout, 0, &a, k);
        if (a.base.dir != NULL)
            rc = kin_write(&a, k);
    }
    clink_kinematics_destroy(&k);
    clink_model_destroy(&m);
    return rc;
}
