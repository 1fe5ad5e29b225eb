/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `clink equilibrium MODEL.xml [-o DIR] [--json]`: the static equilibrium of a mechanism
 * under its loads, springs, gravity and contacts (src/analysis/analysis_equilibrium.c,
 * docs/analysis.md): the pose, the joint and driver reactions, the contact forces on each
 * body, the residual and its tolerance, Newton's iterations and whether the fallback
 * (dynamic relaxation) was used. A mechanism with no equilibrium is refused with the free
 * motion named (exit 2).
 */
#include "cli.h"
#include "cli_analysis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { EQ_OUT = 1, EQ_JSON, EQ_SET, EQ_TOL, EQ_RELAX };

static const cli_option eq_options[] = {
    {EQ_OUT, "output", 'o', "DIR", "write DIR/equilibrium.json (created if missing)"},
    {EQ_JSON, "json", 0, NULL, "print the result as one JSON object on stdout"},
    {EQ_TOL, "tolerance", 0, "F",
     "residual tolerance, N or N m (default 1e-10 times\nthe largest applied force)"},
    {EQ_RELAX, "relax", 0, NULL, "dynamic relaxation before Newton (the fallback first)"},
    {EQ_SET, "set", 0, "PATH=VALUE", "override an attribute of the model, as clink run --set"},
    {0, NULL, 0, NULL, NULL},
};

static void eq_usage(FILE *out)
{
    fprintf(out, "usage: clink equilibrium MODEL.xml [-o DIR] [--json] [--tolerance F] [--relax]\n"
                 "                         [--set PATH=VALUE ...]\n\n"
                 "Finds the static equilibrium of MODEL.xml at t = 0 under its gravity,\n"
                 "loads, springs and contacts: Newton on the constrained static equations\n"
                 "with a line search, dynamic relaxation or a continuation in the loads as\n"
                 "the fallback (reported when used). Prints the pose, the joint reactions,\n"
                 "the contact forces, the residual and its tolerance, and whether the\n"
                 "equilibrium is stable.\n\n");
    cli_print_options(out, eq_options);
    fprintf(out, "\nExit status: 0 equilibrium found; 1 no convergence; 2 input rejected, or\n"
                 "no equilibrium (a free motion, a driver that moves, a singular\n"
                 "equilibrium: the message names the direction); 3 the output could not\n"
                 "be written.\n");
}

typedef struct eq_args {
    cli_analysis_args base;
    clink_equilibrium_options opt;
} eq_args;

static int eq_apply(void *ctx, int id, const char *spelled, const char *value)
{
    eq_args *a = ctx;
    switch (id) {
    case EQ_OUT:
        a->base.dir = value;
        return CLI_EXIT_OK;
    case EQ_JSON:
        a->base.json = 1;
        return CLI_EXIT_OK;
    case EQ_RELAX:
        a->opt.relax_first = 1;
        return CLI_EXIT_OK;
    case EQ_TOL:
        if (cli_parse_double(spelled, value, &a->opt.tolerance) != 0)
            return CLI_EXIT_USAGE;
        if (!(a->opt.tolerance > 0.0))
            return cli_usage_error("equilibrium: %s: %s must be > 0", spelled, value);
        return CLI_EXIT_OK;
    case EQ_SET:
        return cli_analysis_set(&a->base, spelled, value);
    default:
        return cli_analysis_operand(&a->base, value);
    }
}

/* the result as JSON */
static void eq_json(FILE *out, const clink_model *m, const clink_analysis *an,
                    const clink_equilibrium_result *r)
{
    int nb = clink_model_count(m, CLINK_ENTITY_BODY), nj = clink_model_count(m, CLINK_ENTITY_JOINT);
    int nd = clink_model_count(m, CLINK_ENTITY_DRIVER), nq = clink_analysis_coordinate_count(an);
    double f[3], *qs = malloc(sizeof *qs * ((size_t) nq + 1));
    char label[96];
    if (qs == NULL)
        return;
    clink_analysis_state(an, qs, NULL);
    fprintf(out, "{\n  \"clink\": \"%s\",\n  \"command\": \"equilibrium\",\n  \"time\": ",
            cli_version());
    cli_json_number(out, clink_analysis_time(an));
    fprintf(out, ",\n  \"iterations\": %d,\n  \"line_search_cuts\": %d,\n  \"fallback\": ",
            r->iterations, r->line_search_cuts);
    fprintf(out, "%s,\n  \"fallback_steps\": %d,\n  \"residual\": ",
            r->fallback == 2   ? "\"load continuation\""
            : r->fallback == 1 ? "\"dynamic relaxation\""
                               : "null",
            r->fallback_steps);
    cli_json_number(out, r->residual);
    fprintf(out, ",\n  \"tolerance\": ");
    cli_json_number(out, r->tolerance);
    fprintf(out, ",\n  \"force_scale\": ");
    cli_json_number(out, r->force_scale);
    fprintf(out, ",\n  \"constraint_violation\": ");
    cli_json_number(out, r->constraint);
    fprintf(out, ",\n  \"stable\": %s,\n  \"min_stiffness\": ", r->stable ? "true" : "false");
    cli_json_number(out, r->min_stiffness);
    fprintf(out, ",\n  \"dof\": %d,\n  \"bodies\": [", clink_analysis_dof(an));
    for (int b = 1; b < nb; b++) {
        fprintf(out, "%s\n    {\"name\": ", b > 1 ? "," : "");
        cli_json_string(out, cli_body_label(m, b, label, sizeof label));
        fprintf(out, ", \"x\": ");
        cli_json_number(out, qs[3 * (b - 1)]);
        fprintf(out, ", \"y\": ");
        cli_json_number(out, qs[3 * (b - 1) + 1]);
        fprintf(out, ", \"phi\": ");
        cli_json_number(out, qs[3 * (b - 1) + 2]);
        if (clink_analysis_contact_force(an, b, f) == CLINK_OK) {
            fprintf(out, ", \"contact_force\": [");
            for (int k = 0; k < 3; k++) {
                fputs(k ? ", " : "", out);
                cli_json_number(out, f[k]);
            }
            fputs("]", out);
        }
        fputs("}", out);
    }
    fprintf(out, "\n  ],\n  \"joint_reactions\": [");
    for (int j = 0; j < nj; j++) {
        clink_analysis_joint_reaction(an, j, f);
        fprintf(out, "%s\n    {\"name\": ", j ? "," : "");
        cli_json_string(out, clink_model_name(m, CLINK_ENTITY_JOINT, j));
        fprintf(out, ", \"fx\": ");
        cli_json_number(out, f[0]);
        fprintf(out, ", \"fy\": ");
        cli_json_number(out, f[1]);
        fprintf(out, ", \"moment\": ");
        cli_json_number(out, f[2]);
        fputs("}", out);
    }
    fprintf(out, "\n  ],\n  \"driver_forces\": [");
    for (int d = 0; d < nd; d++) {
        clink_analysis_driver_force(an, d, f);
        fprintf(out, "%s\n    {\"name\": ", d ? "," : "");
        cli_json_string(out, clink_model_name(m, CLINK_ENTITY_DRIVER, d));
        fprintf(out, ", \"force\": ");
        cli_json_number(out, f[0]);
        fputs("}", out);
    }
    fprintf(out, "\n  ]\n}\n");
    free(qs);
}

static void eq_text(const char *path, const clink_model *m, const clink_analysis *an,
                    const clink_equilibrium_result *r, const double *q)
{
    int nb = clink_model_count(m, CLINK_ENTITY_BODY), nj = clink_model_count(m, CLINK_ENTITY_JOINT);
    int nd = clink_model_count(m, CLINK_ENTITY_DRIVER);
    char label[96];
    double f[3];
    printf("%s: equilibrium at t = %.9g s\n", path, clink_analysis_time(an));
    printf("  Newton             %d iterations, %d line-search halvings\n", r->iterations,
           r->line_search_cuts);
    if (r->fallback == 2)
        printf("  fallback           continuation in the loads, %d load steps\n",
               r->fallback_steps);
    else if (r->fallback)
        printf("  fallback           dynamic relaxation, %d steps\n", r->fallback_steps);
    else
        printf("  fallback           not used\n");
    printf("  residual           %.3g (tolerance %.3g; force scale %.4g N)\n", r->residual,
           r->tolerance, r->force_scale);
    printf("  max |Phi|          %.3g\n", r->constraint);
    printf("  stability          %s (smallest reduced stiffness %.6g)\n",
           r->stable ? "stable" : "unstable", r->min_stiffness);
    printf("  %-20s %15s %15s %15s\n", "body", "x (m)", "y (m)", "phi (deg)");
    for (int b = 1; b < nb; b++)
        printf("  %-20s %15.9f %15.9f %15.9f\n", cli_body_label(m, b, label, sizeof label),
               q[3 * (b - 1)], q[3 * (b - 1) + 1],
               q[3 * (b - 1) + 2] * (180.0 / 3.14159265358979323846));
    printf("  %-20s %15s %15s %15s\n", "joint reaction", "fx (N)", "fy (N)", "moment (N m)");
    for (int j = 0; j < nj; j++) {
        clink_analysis_joint_reaction(an, j, f);
        printf("  %-20s %15.6g %15.6g %15.6g\n", clink_model_name(m, CLINK_ENTITY_JOINT, j), f[0],
               f[1], f[2]);
    }
    for (int d = 0; d < nd; d++) {
        clink_analysis_driver_force(an, d, f);
        printf("  driver %-13s %15.6g\n", clink_model_name(m, CLINK_ENTITY_DRIVER, d), f[0]);
    }
    if (clink_model_contact_count(m) > 0) {
        printf("  %-20s %15s %15s %15s\n", "contact force", "fx (N)", "fy (N)", "moment (N m)");
        for (int b = 1; b < nb; b++)
            if (clink_analysis_contact_force(an, b, f) == CLINK_OK &&
                (f[0] != 0.0 || f[1] != 0.0 || f[2] != 0.0))
                printf("  %-20s %15.6g %15.6g %15.6g\n", cli_body_label(m, b, label, sizeof label),
                       f[0], f[1], f[2]);
    }
}

static int eq_write(eq_args *a, const clink_model *m, const clink_analysis *an,
                    const clink_equilibrium_result *r)
{
    cli_out_file o;
    int rc = cli_out_open("equilibrium", a->base.dir, "equilibrium.json", &o);
    if (rc != CLI_EXIT_OK)
        return rc;
    eq_json(o.f, m, an, r);
    return cli_out_close("equilibrium", &o);
}

int cmd_equilibrium(int argc, char **argv)
{
    eq_args a;
    clink_model *m = NULL;
    clink_analysis *an = NULL;
    clink_equilibrium_result r;
    memset(&a, 0, sizeof a);
    a.base.command = "equilibrium";
    a.opt = clink_default_equilibrium_options();
    int rc = cli_analysis_parse(argc, argv, eq_options, eq_apply, &a, &a.base, eq_usage);
    if (rc != CLI_EXIT_OK)
        return rc == CLI_HELP ? CLI_EXIT_OK : rc;
    if ((rc = cli_analysis_open(&a.base, &m, &an)) != CLI_EXIT_OK)
        return rc;
    clink_status st = clink_analysis_equilibrium(an, &a.opt, &r);
    if (st != CLINK_OK) {
        fprintf(stderr, "%s: %s\n", a.base.path, clink_analysis_error(an));
        rc = cli_analysis_exit(st);
    } else {
        int nq = clink_analysis_coordinate_count(an);
        double *q = malloc(sizeof *q * ((size_t) nq + 1));
        if (q == NULL) {
            fprintf(stderr, "clink: equilibrium: out of memory\n");
            rc = CLI_EXIT_FAIL;
        } else {
            clink_analysis_state(an, q, NULL);
            if (a.base.json)
                eq_json(stdout, m, an, &r);
            else
                eq_text(a.base.path, m, an, &r, q);
            free(q);
            if (a.base.dir != NULL)
                rc = eq_write(&a, m, an, &r);
        }
    }
    clink_analysis_destroy(&an);
    clink_model_destroy(&m);
    return rc;
}
