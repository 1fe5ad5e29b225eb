/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `clink check MODEL.xml`: reads and checks a mechanism file (schema, ranges,
 * names, geometry), then builds the model and sets up its simulation at t = 0
 * exactly as `clink run` does (assembly of the initial positions and velocities
 * onto the constraints, so loops that cannot close; the rank of the
 * constraints, so redundant ones, which it names: they are handled; the
 * integrator's setup with the model's settings, so values the solver cannot
 * take), without integrating, and prints a one-screen summary. "valid"
 * therefore means that `clink run` starts. Errors go to stderr as
 * "FILE:LINE: what is wrong" or "FILE: what is wrong" with exit status 2.
 */
#include "cli.h"

#include "clink/sim.h"
#include "clink/xml.h"

#include <string.h>

enum {
    CHECK_JSON = 1,
    CHECK_SET,
    CHECK_STRICT,
    CHECK_ALLOW_BAD_START,
    CHECK_MAX_SETS = 32,
    CHECK_MAX_WARNINGS = 16
};

/* the options of `clink check` (cli.h, "Options") */
static const cli_option check_options[] = {
    {CHECK_JSON, "json", 0, NULL,
     "print the result as one JSON object on stdout\n(docs/cli.md), also when the model is "
     "refused"},
    {CHECK_SET, "set", 0, "PATH=VALUE",
     "override an attribute of the model, repeatable, as\nclink run --set does"},
    {CHECK_STRICT, "strict", 0, NULL,
     "refuse (exit 2) a start the assembly had to move\nor a contact that starts penetrated or "
     "fast\n(otherwise warnings)"},
    {CHECK_ALLOW_BAD_START, "allow-bad-start", 0, NULL,
     "report an implausible start (a contact pressed\nbeyond its size at t = 0) as a warning "
     "instead of\nrefusing the model (exit 2)"},
    {0, NULL, 0, NULL, NULL},
};

static void check_usage(FILE *out)
{
    fprintf(out, "usage: clink check MODEL.xml [--json] [--strict] [--allow-bad-start]\n"
                 "                   [--set PATH=VALUE ...]\n\n"
                 "Reads MODEL.xml, checks it against the clink schema and for meaning\n"
                 "(ranges, names, geometry), assembles it at t = 0 as clink run does\n"
                 "(loops that close, independent constraints, the solver's setup) and\n"
                 "prints a summary.\n\n");
    cli_print_options(out, check_options);
    fprintf(out, "\nExit status 0 if the model is valid and runnable, 2 with \"FILE:LINE: what\n"
                 "is wrong\" or \"FILE: what is wrong\" on stderr otherwise (an implausible\n"
                 "start too, unless --allow-bad-start).\n");
}

typedef struct check_args {
    const char *path;
    int json;
    int strict;
    int allow_bad_start;              /* --allow-bad-start: an implausible start only warns */
    const char *sets[CHECK_MAX_SETS]; /* --set PATH=VALUE, in order */
    int n_sets;
    clink_xml_applied applied[CHECK_MAX_SETS]; /* what each did */
} check_args;

static int check_apply(void *ctx, int id, const char *spelled, const char *value)
{
    check_args *a = ctx;

    if (id == CHECK_STRICT) {
        a->strict = 1;
        return CLI_EXIT_OK;
    }
    if (id == CHECK_JSON) {
        a->json = 1;
        return CLI_EXIT_OK;
    }
    if (id == CHECK_ALLOW_BAD_START) {
        a->allow_bad_start = 1;
        return CLI_EXIT_OK;
    }
    if (id == CHECK_SET) {
        if (a->n_sets == CHECK_MAX_SETS)
            return cli_usage_error("check: %s: more than %d overrides", spelled, CHECK_MAX_SETS);
        a->sets[a->n_sets++] = value;
        return CLI_EXIT_OK;
    }
    if (a->path != NULL)
        return cli_usage_error("check: one model file only (got '%s' and '%s')", a->path, value);
    a->path = value;
    return CLI_EXIT_OK;
}

/* what set-up at t = 0 found */
typedef struct check_found {
    double dq, dv;   /* assembly corrections of positions and velocities */
    int redundant;   /* constraint equations that depend on the others */
    char which[256]; /* their names (clink_sim_redundant_constraints) */
    int n_warnings;  /* the reader's unit hints, then the start's findings (assembly moves,
                        contacts at the start) */
    char warnings[CHECK_MAX_WARNINGS][512];
    int implausible; /* the first implausible one (index into warnings), -1 if none */
    int kinds[CLINK_ELEMENT_KIND_COUNT_]; /* contact elements of each kind */
    int nelements, ncontacts;             /* contact elements, and the contacts they make */
} check_found;

/* the contact elements of every kind, and their contacts */
static void check_count_elements(const clink_model *m, check_found *f)
{
    f->nelements = clink_model_element_count(m);
    f->ncontacts = clink_model_contact_count(m);
    for (int e = 0; e < f->nelements; e++) {
        int kind = clink_model_element_kind(m, e);
        if (kind >= 0 && kind < CLINK_ELEMENT_KIND_COUNT_)
            f->kinds[kind]++;
    }
}

/* "pair 1, revolute_clearance 0, ..." into buf (json: "\"pair\": 1, ...") */
static void check_kinds_text(const check_found *f, int json, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int k = 0; k < CLINK_ELEMENT_KIND_COUNT_ && n < size; k++) {
        int w = snprintf(buf + n, size - n, json ? "%s\"%s\": %d" : "%s%s %d", k ? ", " : "",
                         clink_model_element_kind_name((clink_element_kind) k), f->kinds[k]);
        n = w < 0 ? size : n + (size_t) w;
    }
}

/* --json of a refused model: the message stderr carries, and the exit status */
static void check_print_json_refused(const char *path, const char *err, int status)
{
    printf("{\n  \"clink\": \"%s\",\n  \"command\": \"check\",\n  \"exit_status\": %d,\n"
           "  \"file\": ",
           cli_version(), status);
    cli_json_string(stdout, path);
    printf(",\n  \"valid\": false,\n  \"error\": ");
    cli_json_string(stdout, err);
    printf("\n}\n");
}

/* --json of a valid model: the figures of the text summary */
static void check_print_json(const char *path, const clink_xml_summary *s, const check_found *f)
{
    const char *p = s->laws;

    printf("{\n  \"clink\": \"%s\",\n  \"command\": \"check\",\n  \"exit_status\": 0,\n"
           "  \"file\": ",
           cli_version());
    cli_json_string(stdout, path);
    printf(",\n  \"valid\": true,\n  \"mechanism\": ");
    cli_json_string(stdout, s->name);
    printf(",\n  \"bodies\": %d,\n  \"joints\": %d,\n  \"clearance_joints\": %d,\n"
           "  \"drivers\": %d,\n  \"loads\": %d,\n  \"gravity\": %s,\n  \"contacts\": %d,\n"
           "  \"laws\": [",
           s->bodies, s->joints, s->clearance_joints, s->drivers, s->loads,
           s->has_gravity ? "true" : "false", s->contacts);
    /* s->laws is "a, b": one string each */
    while (*p != '\0') {
        const char *end = strchr(p, ',');
        size_t n = end != NULL ? (size_t) (end - p) : strlen(p);
        char name[256];

        while (n > 0 && *p == ' ') {
            p++;
            n--;
        }
        snprintf(name, sizeof name, "%.*s", (int) n, p);
        cli_json_string(stdout, name);
        if (end == NULL)
            break;
        fputs(", ", stdout);
        p = end + 1;
    }
    printf("],\n  \"constraints\": %d,\n  \"redundant_constraints\": %d,\n  \"redundant\": ",
           s->constraints, f->redundant);
    cli_json_string(stdout, f->which);
    printf(",\n  \"dof\": %d,\n  \"assembly_correction_position\": ", s->dof + f->redundant);
    cli_json_number(stdout, f->dq);
    printf(",\n  \"assembly_correction_velocity\": ");
    cli_json_number(stdout, f->dv);
    char kinds[400];
    check_kinds_text(f, 1, kinds, sizeof kinds);
    printf(",\n  \"elements\": {%s},\n  \"element_contacts\": %d", kinds, f->ncontacts);
    printf(",\n  \"warnings\": [");
    for (int i = 0; i < f->n_warnings; i++) {
        fputs(i ? ", " : "", stdout);
        cli_json_string(stdout, f->warnings[i]);
    }
    printf("]\n}\n");
}

static void check_print_text(const char *path, const clink_xml_summary *s, const check_found *f)
{
    printf("%s: valid\n", path);
    printf("  mechanism          %s\n", s->name);
    printf("  bodies             %d (plus the ground)\n", s->bodies);
    printf("  joints             %d ideal, %d with clearance\n", s->joints, s->clearance_joints);
    printf("  drivers            %d\n", s->drivers);
    printf("  loads              %d%s\n", s->loads, s->has_gravity ? " (and gravity)" : "");
    char kinds[400];
    check_kinds_text(f, 0, kinds, sizeof kinds);
    printf("  contact pairs      %d\n", s->contacts);
    printf("  contact elements   %d (%s; %d contacts)\n", f->nelements, kinds, f->ncontacts);
    printf("  contact laws       %s\n", s->laws[0] != '\0' ? s->laws : "none");
    printf("  constraints        %d equations\n", s->constraints);
    if (f->redundant > 0)
        printf("  degrees of freedom %d (3 x %d - %d + %d redundant)\n", s->dof + f->redundant,
               s->bodies, s->constraints, f->redundant);
    else
        printf("  degrees of freedom %d (3 x %d - %d)\n", s->dof, s->bodies, s->constraints);
    printf("  assembly at t = 0  corrections %.3g (positions), %.3g (velocities)\n", f->dq, f->dv);
    if (f->redundant > 0)
        printf("  redundant          %d equations depend on the others: %s\n"
               "                     (handled: the reactions are the minimum-norm set)\n",
               f->redundant, f->which);
}

/* the findings of the simulation's start (the only ones before a step) */
static void check_start_findings(const clink_sim *sim, check_found *f)
{
    int n = clink_sim_finding_count(sim);
    f->implausible = -1;
    for (int i = 0; i < n && f->n_warnings < CHECK_MAX_WARNINGS; i++) {
        clink_sim_finding fd;
        if (clink_sim_finding_get(sim, i, &fd) != CLINK_OK)
            continue;
        if (fd.severity == CLINK_FINDING_IMPLAUSIBLE && f->implausible < 0)
            f->implausible = f->n_warnings;
        snprintf(f->warnings[f->n_warnings++], sizeof f->warnings[0], "%s", fd.message);
    }
}

/* the checks of `run` before its first step; CLI_EXIT_OK with the summary and the
   assembly corrections, or the exit status with the message in err */
static int check_model(check_args *a, clink_xml_summary *s, check_found *f, char *err,
                       size_t err_size)
{
    const char *path = a->path;
    clink_model *model = NULL;
    clink_sim *sim = NULL;
    char msg[1024];
    clink_status st;

    if (clink_xml_load_with(path, a->sets, a->n_sets, a->applied, &model, s, err, err_size) !=
        CLINK_OK)
        return CLI_EXIT_USAGE;
    /* the reader's unit hints ("FILE:LINE: ...") come first */
    for (int i = 0; i < clink_model_warning_count(model) && f->n_warnings < CHECK_MAX_WARNINGS; i++)
        snprintf(f->warnings[f->n_warnings++], sizeof f->warnings[0], "warning: %s",
                 clink_model_warning(model, i));
    check_count_elements(model, f);
    st = clink_sim_create(model, NULL, &sim, msg, sizeof msg);
    if (st != CLINK_OK) {
        cli_where_settings(path, msg, err, err_size);
        clink_model_destroy(&model);
        return st == CLINK_ERR_NOMEM || st == CLINK_ERR_INTERNAL ? CLI_EXIT_FAIL : CLI_EXIT_USAGE;
    }
    clink_sim_assembly(sim, &f->dq, &f->dv);
    check_start_findings(sim, f);
    f->redundant = clink_sim_redundant_constraints(sim, f->which, sizeof f->which);
    if (f->redundant < 0)
        f->redundant = 0;
    clink_sim_destroy(&sim);
    clink_model_destroy(&model);
    return CLI_EXIT_OK;
}

int cmd_check(int argc, char **argv)
{
    check_args a;
    clink_xml_summary s;
    check_found f;
    char err[1200];
    int rc;

    memset(&a, 0, sizeof a);
    memset(&f, 0, sizeof f);
    rc = cli_parse_options(argc, argv, check_options, check_apply, &a);
    if (rc == CLI_HELP) {
        check_usage(stdout);
        return CLI_EXIT_OK;
    }
    if (rc != CLI_EXIT_OK)
        return rc;
    if (a.path == NULL) {
        check_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (cli_input_file_error("check", a.path, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        if (a.json)
            check_print_json_refused(a.path, err, CLI_EXIT_USAGE);
        return CLI_EXIT_USAGE;
    }
    rc = check_model(&a, &s, &f, err, sizeof err);
    if (rc != CLI_EXIT_OK) {
        fprintf(stderr, "%s\n", err);
        if (a.json)
            check_print_json_refused(a.path, err, rc);
        return rc;
    }
    if (f.implausible >= 0 && !a.allow_bad_start) {
        /* the findings first, then the refusal: what a run of it would start from */
        for (int i = 0; i < f.n_warnings && !a.json; i++)
            fprintf(stderr, "clink: check: %s\n", f.warnings[i]);
        snprintf(err, sizeof err,
                 "%s: an implausible start: %s (refused; --allow-bad-start checks and runs it "
                 "anyway)",
                 a.path, f.warnings[f.implausible]);
        fprintf(stderr, "%s\n", err);
        if (a.json)
            check_print_json_refused(a.path, err, CLI_EXIT_USAGE);
        return CLI_EXIT_USAGE;
    }
    if (a.strict && f.n_warnings > 0) {
        snprintf(err, sizeof err, "%s: %s (refused: --strict)", a.path, f.warnings[0]);
        fprintf(stderr, "%s\n", err);
        if (a.json)
            check_print_json_refused(a.path, err, CLI_EXIT_USAGE);
        return CLI_EXIT_USAGE;
    }
    for (int i = 0; i < f.n_warnings && !a.json; i++)
        fprintf(stderr, "clink: check: %s\n", f.warnings[i]);
    if (a.json) {
        check_print_json(a.path, &s, &f);
    } else {
        check_print_text(a.path, &s, &f);
        for (int i = 0; i < a.n_sets; i++)
            printf("  override           %s = %s (the file: %s)\n", a.applied[i].path,
                   a.applied[i].value,
                   a.applied[i].previous[0] != '\0' ? a.applied[i].previous : "not given");
    }
    return CLI_EXIT_OK;
}
