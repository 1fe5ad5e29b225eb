/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `clink modes MODEL.xml [--at equilibrium|start|t=T] [-o DIR] [--json]`: the linearised
 * modes of a mechanism about its equilibrium, its assembled start, or the state of a run at
 * time T (src/analysis/analysis_modes.c, docs/analysis.md): eigenvalues, natural and damped
 * frequencies (Hz), damping ratios and mode shapes in body coordinates. A zero eigenvalue (a
 * direction without stiffness) is reported with the direction named, as a warning.
 */
#include "cli.h"
#include "cli_analysis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MODES_OUT = 1, MODES_JSON, MODES_SET, MODES_AT, MODES_FILM };
enum { AT_EQUILIBRIUM = 0, AT_START, AT_TIME };

static const cli_option modes_options[] = {
    {MODES_AT, "at", 0, "WHERE",
     "equilibrium (default), start (the assembled state\nat t = 0), or t=T (the state of a run "
     "at T s)"},
    {MODES_OUT, "output", 'o', "DIR",
     "write DIR/modes.csv, DIR/modes.json and a film\nof each oscillating mode in DIR/mode-K/"},
    {MODES_FILM, "film-amplitude", 0, "F",
     "the films' largest displacement as a fraction of\nthe model's size, 0 < F <= 0.5 (default "
     "0.05)"},
    {MODES_JSON, "json", 0, NULL, "print the result as one JSON object on stdout"},
    {MODES_SET, "set", 0, "PATH=VALUE", "override an attribute of the model, as clink run --set"},
    {0, NULL, 0, NULL, NULL},
};

static void modes_usage(FILE *out)
{
    fprintf(out, "usage: clink modes MODEL.xml [--at equilibrium|start|t=T] [-o DIR] [--json]\n"
                 "                   [--film-amplitude F] [--set PATH=VALUE ...]\n\n"
                 "Linearises MODEL.xml on its constraint manifold (a null-space basis of\n"
                 "the constraint Jacobian by SVD) about its static equilibrium, its start\n"
                 "or the state of a run at time T, and prints the eigenvalues of the\n"
                 "reduced first-order form (LAPACK dgeev): natural and damped frequencies\n"
                 "in Hz, damping ratios and the body coordinates each mode moves most.\n"
                 "With -o DIR, each oscillating mode K also gets a film DIR/mode-K/ (two\n"
                 "periods of pose + A sin(2 pi f t) shape, a run that clink animate and\n"
                 "clink view draw; clink animate DIR --mode K).\n\n");
    cli_print_options(out, modes_options);
    fprintf(out, "\nExit status: 0 modes computed (a zero eigenvalue is a warning naming the\n"
                 "direction without stiffness); 1 the computation failed; 2 input\n"
                 "rejected, or no equilibrium to linearise about (see clink equilibrium);\n"
                 "3 the output could not be written.\n");
}

typedef struct modes_args {
    cli_analysis_args base;
    int at;
    double t, film;
} modes_args;

static int modes_apply(void *ctx, int id, const char *spelled, const char *value)
{
    modes_args *a = ctx;
    const char *why;
    switch (id) {
    case MODES_OUT:
        a->base.dir = value;
        return CLI_EXIT_OK;
    case MODES_JSON:
        a->base.json = 1;
        return CLI_EXIT_OK;
    case MODES_SET:
        return cli_analysis_set(&a->base, spelled, value);
    case MODES_FILM:
        if (cli_read_double(value, &a->film, &why) != 0)
            return cli_usage_error("modes: %s: '%s': %s", spelled, value, why);
        if (!(a->film > 0.0 && a->film <= 0.5))
            return cli_usage_error("modes: %s: '%s' is not in (0, 0.5]", spelled, value);
        return CLI_EXIT_OK;
    case MODES_AT:
        if (strcmp(value, "equilibrium") == 0)
            a->at = AT_EQUILIBRIUM;
        else if (strcmp(value, "start") == 0)
            a->at = AT_START;
        else if (strncmp(value, "t=", 2) == 0) {
            if (cli_read_double(value + 2, &a->t, &why) != 0)
                return cli_usage_error("modes: %s: '%s': %s", spelled, value + 2, why);
            if (!(a->t > 0.0))
                return cli_usage_error("modes: %s: t=%s: the time must be > 0 (use start for "
                                       "t = 0)",
                                       spelled, value + 2);
            a->at = AT_TIME;
        } else
            return cli_usage_error("modes: %s: '%s': expected equilibrium, start or t=T", spelled,
                                   value);
        return CLI_EXIT_OK;
    default:
        return cli_analysis_operand(&a->base, value);
    }
}

static const char *modes_where(const modes_args *a)
{
    return a->at == AT_EQUILIBRIUM ? "equilibrium" : a->at == AT_START ? "start" : "run";
}

static void modes_json(FILE *out, const modes_args *a, const clink_model *m,
                       const clink_analysis *an, double *shape)
{
    int n = clink_analysis_mode_count(an), nq = clink_analysis_coordinate_count(an);
    char desc[512];
    fprintf(out,
            "{\n  \"clink\": \"%s\",\n  \"command\": \"modes\",\n  \"at\": \"%s\",\n"
            "  \"time\": ",
            cli_version(), modes_where(a));
    cli_json_number(out, clink_analysis_time(an));
    fprintf(out, ",\n  \"dof\": %d,\n  \"null_space\": \"SVD of Phi_q\",\n  \"modes\": [",
            clink_analysis_dof(an));
    for (int i = 0; i < n; i++) {
        clink_mode md;
        clink_analysis_mode(an, i, &md, shape);
        clink_analysis_describe(an, shape, desc, sizeof desc);
        fprintf(out, "%s\n    {\"re\": ", i ? "," : "");
        cli_json_number(out, md.re);
        fprintf(out, ", \"im\": ");
        cli_json_number(out, md.im);
        fprintf(out, ", \"frequency_hz\": ");
        cli_json_number(out, md.frequency);
        fprintf(out, ", \"damped_frequency_hz\": ");
        cli_json_number(out, md.damped_frequency);
        fprintf(out, ", \"damping_ratio\": ");
        cli_json_number(out, md.damping_ratio);
        fprintf(out, ", \"zero\": %s, \"unstable\": %s, \"moves\": ", md.zero ? "true" : "false",
                md.unstable ? "true" : "false");
        cli_json_string(out, desc);
        fprintf(out, ", \"shape\": [");
        for (int c = 0; c < nq; c++) {
            fputs(c ? ", " : "", out);
            cli_json_number(out, shape[c]);
        }
        fputs("]}", out);
    }
    (void) m;
    fprintf(out, "\n  ]\n}\n");
}

static void modes_csv(FILE *out, const clink_model *m, const clink_analysis *an, double *shape)
{
    static const char *axis[3] = {"x", "y", "phi"};
    int n = clink_analysis_mode_count(an), nq = clink_analysis_coordinate_count(an);
    char label[96];
    fprintf(out, "mode,re,im,frequency_hz,damped_frequency_hz,damping_ratio,zero,unstable");
    for (int c = 0; c < nq; c++)
        fprintf(out, ",%s.%s", cli_body_label(m, c / 3 + 1, label, sizeof label), axis[c % 3]);
    fputc('\n', out);
    for (int i = 0; i < n; i++) {
        clink_mode md;
        clink_analysis_mode(an, i, &md, shape);
        fprintf(out, "%d,%.17g,%.17g,%.17g,%.17g,%.17g,%d,%d", i + 1, md.re, md.im, md.frequency,
                md.damped_frequency, md.damping_ratio, md.zero, md.unstable);
        for (int c = 0; c < nq; c++)
            fprintf(out, ",%.17g", shape[c]);
        fputc('\n', out);
    }
}

static void modes_text(const modes_args *a, const clink_analysis *an, double *shape)
{
    int n = clink_analysis_mode_count(an);
    char desc[512];
    printf("%s: modes about the %s at t = %.9g s (%d degrees of freedom)\n", a->base.path,
           modes_where(a), clink_analysis_time(an), clink_analysis_dof(an));
    printf("  %4s %16s %16s %12s %16s  %s\n", "mode", "frequency (Hz)", "damped (Hz)", "damping",
           "eigenvalue re", "moves most");
    for (int i = 0; i < n; i++) {
        clink_mode md;
        clink_analysis_mode(an, i, &md, shape);
        clink_analysis_describe(an, shape, desc, sizeof desc);
        printf("  %4d %16.9g %16.9g %12.6g %16.9g  %s%s\n", i + 1, md.frequency,
               md.damped_frequency, md.damping_ratio, md.re, desc,
               md.zero       ? " (zero eigenvalue)"
               : md.unstable ? " (unstable)"
                             : "");
    }
}

/* the warnings of zero eigenvalues on stderr */
static void modes_warn(const modes_args *a, const clink_analysis *an, double *shape)
{
    char desc[512];
    for (int i = 0; i < clink_analysis_mode_count(an); i++) {
        clink_mode md;
        clink_analysis_mode(an, i, &md, shape);
        if (!md.zero)
            continue;
        clink_analysis_describe(an, shape, desc, sizeof desc);
        fprintf(stderr,
                "clink: modes: warning: %s: mode %d has a zero eigenvalue: no stiffness along "
                "%s\n",
                a->base.path, i + 1, desc);
    }
}

/* the state to linearise about: CLI_EXIT_OK or the exit status with the message printed */
static int modes_state(modes_args *a, clink_analysis *an)
{
    clink_status st = CLINK_OK;
    if (a->at == AT_EQUILIBRIUM) {
        clink_equilibrium_result r;
        st = clink_analysis_equilibrium(an, NULL, &r);
    } else if (a->at == AT_TIME)
        st = clink_analysis_advance(an, a->t);
    if (st != CLINK_OK) {
        fprintf(stderr, "%s: %s\n", a->base.path, clink_analysis_error(an));
        return cli_analysis_exit(st);
    }
    st = clink_analysis_modes(an);
    if (st != CLINK_OK) {
        fprintf(stderr, "%s: %s\n", a->base.path, clink_analysis_error(an));
        return cli_analysis_exit(st);
    }
    return CLI_EXIT_OK;
}

static int modes_write(modes_args *a, const clink_model *m, const clink_analysis *an, double *shape)
{
    cli_out_file o;
    int rc = cli_out_open("modes", a->base.dir, "modes.csv", &o);
    if (rc != CLI_EXIT_OK)
        return rc;
    modes_csv(o.f, m, an, shape);
    if ((rc = cli_out_close("modes", &o)) != CLI_EXIT_OK)
        return rc;
    if ((rc = cli_out_open("modes", a->base.dir, "modes.json", &o)) != CLI_EXIT_OK)
        return rc;
    modes_json(o.f, a, m, an, shape);
    if ((rc = cli_out_close("modes", &o)) != CLI_EXIT_OK)
        return rc;
    return cli_modes_film(a->base.dir, a->base.path, m, an, a->film, 2);
}

int cmd_modes(int argc, char **argv)
{
    modes_args a;
    clink_model *m = NULL;
    clink_analysis *an = NULL;
    memset(&a, 0, sizeof a);
    a.base.command = "modes";
    a.film = 0.05;
    int rc = cli_analysis_parse(argc, argv, modes_options, modes_apply, &a, &a.base, modes_usage);
    if (rc != CLI_EXIT_OK)
        return rc == CLI_HELP ? CLI_EXIT_OK : rc;
    if ((rc = cli_analysis_open(&a.base, &m, &an)) != CLI_EXIT_OK)
        return rc;
    double *shape = malloc(sizeof *shape * ((size_t) clink_analysis_coordinate_count(an) + 1));
    if (shape == NULL) {
        fprintf(stderr, "clink: modes: out of memory\n");
        rc = CLI_EXIT_FAIL;
    } else if ((rc = modes_state(&a, an)) == CLI_EXIT_OK) {
        modes_warn(&a, an, shape);
        if (a.base.json)
            modes_json(stdout, &a, m, an, shape);
        else
            modes_text(&a, an, shape);
        if (a.base.dir != NULL)
            rc = modes_write(&a, m, an, shape);
    }
    free(shape);
    clink_analysis_destroy(&an);
    clink_model_destroy(&m);
    return rc;
}
