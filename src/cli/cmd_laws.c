/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `clink laws [--json]`: the contact-law catalogue, each law with its force
 * formula, damping (calibration) rule, parameters and their units, separation
 * rule, whether it can pull, and its reference. Reads clink_law_get_info() only.
 */
#include "cli.h"
#include "cli_lab.h"

#include "clink/contact.h"
#include "clink/friction.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* the unit of every key of clink_contact_params */
static const char *const param_units[][2] = {
    {"K", "N/m^n"},
    {"n", "-"},
    {"e", "- (0 < e <= 1)"},
    {"chi", "N s/m^(m+1) (Lee-Herrmann: 1/(m s); cylinder laws: s/m)"},
    {"c", "N s/m"},
    {"alpha", "-"},
    {"v_ref", "m/s (default 1e-3)"},
    {"E1", "Pa"},
    {"E2", "Pa"},
    {"nu1", "-"},
    {"nu2", "-"},
    {"R1", "m (inf: plane, negative: concave)"},
    {"R2", "m (inf: plane, negative: concave)"},
    {"eta1", "Pa s"},
    {"eta2", "Pa s"},
    {"Y", "Pa"},
    {"psi", "-"},
    {"xi", "-"},
    {"zero_force", "0 or 1"},
    {"L", "m (axial length of a cylinder contact)"},
};

/* what `clink laws` was asked (--json, --n, --friction) */
typedef struct laws_args {
    int json;
    double n; /* NaN: each law's default exponent */
    int friction;
} laws_args;

/* the restitution range of the law's rule (0), or -1 when the law has none or it cannot be
   measured (why says which) */
static int laws_range(const clink_law *law, const laws_args *a, clink_law_restitution_range *r,
                      const char **why)
{
    clink_contact_params p;
    clink_law_info info;

    if (!clink_law_has_restitution_rule(law)) {
        clink_law_get_info(law, &info);
        if (strcmp(clink_law_geometry(law), "point") != 0)
            *why = "set from e by Lankarani and Nikravesh's rule on F_el (1 + chi delta_dot): "
                   "the restitution it reaches depends on e alone (0.9 gives 0.913), whatever "
                   "the geometry; `clink calibrate` finds chi (s/m) for an exact e";
        else if (cli_lab_list_has(info.required, "e") || cli_lab_list_has(info.optional, "e"))
            *why = "set from e together with the plastic loading and the impact velocity: "
                   "`clink impact` with the materials and velocity shows what it gives";
        else if (strncmp(info.damping, "none", 4) == 0)
            *why = "not set from e (no damping, or the materials set it)";
        else
            *why = "not set from e: the damping coefficient is given; `clink calibrate` finds "
                   "it for a target e";
        return -1;
    }
    clink_contact_params_init(&p);
    p.n = a->n;
    if (clink_law_restitution_range_find(law, &p, 0, r) != CLINK_OK) {
        *why = "could not be measured at this exponent";
        return -1;
    }
    return 0;
}

static void print_range_json(FILE *out, const clink_law *law, const laws_args *a)
{
    clink_law_restitution_range r;
    const char *why = NULL;

    fputs(",\n     \"restitution_range\": ", out);
    if (laws_range(law, a, &r, &why) != 0) {
        fputs("null, \"restitution_range_note\": ", out);
        cli_json_string(out, why);
        return;
    }
    fprintf(out, "{\"n\": ");
    cli_json_number(out, r.n);
    fprintf(out, ", \"tolerance\": ");
    cli_json_number(out, r.tolerance);
    fprintf(out, ", \"e_min\": ");
    cli_json_number(out, r.e_min);
    fprintf(out, ", \"intervals\": [");
    for (int k = 0; k < r.count; k++) {
        fprintf(out, "%s[", k ? ", " : "");
        cli_json_number(out, r.lo[k]);
        fputs(", ", out);
        cli_json_number(out, r.hi[k]);
        fputs("]", out);
    }
    fprintf(out, "], \"worst_e\": ");
    cli_json_number(out, r.worst_e);
    fprintf(out, ", \"worst_error\": ");
    cli_json_number(out, r.worst_error);
    fputs("}", out);
}

static void print_range_text(FILE *out, const clink_law *law, const laws_args *a)
{
    clink_law_restitution_range r;
    const char *why = NULL;
    char range[160];

    if (laws_range(law, a, &r, &why) != 0) {
        fprintf(out, "  restitution %s\n", why);
        return;
    }
    clink_law_restitution_range_format(&r, range, sizeof range);
    fprintf(out,
            "  restitution the rule reaches %s within %g (n = %g; worst: asked %.2f, gives "
            "%.3f)\n",
            range, r.tolerance, r.n, r.worst_e, r.worst_e + r.worst_error);
}

static void print_json(FILE *out, const laws_args *a)
{
    size_t i;

    fputs("{\n  \"units\": {", out);
    for (i = 0; i < sizeof(param_units) / sizeof(param_units[0]); i++) {
        fputs(i ? ", " : "", out);
        cli_json_string(out, param_units[i][0]);
        fputs(": ", out);
        cli_json_string(out, param_units[i][1]);
    }
    fputs("},\n  \"laws\": [\n", out);
    for (i = 0; i < clink_law_count(); i++) {
        clink_law_info info;

        clink_law_get_info(clink_law_at(i), &info);
        fputs("    {\"name\": ", out);
        cli_json_string(out, info.name);
        fputs(", \"aliases\": [", out);
        {
            const char *p = info.aliases;
            int first = 1;

            while (p != NULL && *p != '\0') {
                const char *end = strchr(p, ',');
                size_t n = end ? (size_t) (end - p) : strlen(p);
                char buf[128];

                while (n > 0 && *p == ' ') {
                    p++;
                    n--;
                }
                if (n >= sizeof(buf))
                    n = sizeof(buf) - 1;
                memcpy(buf, p, n);
                buf[n] = '\0';
                fputs(first ? "" : ", ", out);
                cli_json_string(out, buf);
                first = 0;
                if (end == NULL)
                    break;
                p = end + 1;
            }
        }
        fputs("],\n     \"geometry\": ", out);
        cli_json_string(out, clink_law_geometry(clink_law_at(i)));
        fputs(",\n     \"title\": ", out);
        cli_json_string(out, info.title);
        fputs(",\n     \"formula\": ", out);
        cli_json_string(out, info.formula);
        fputs(",\n     \"damping\": ", out);
        cli_json_string(out, info.damping);
        fputs(",\n     \"required\": ", out);
        cli_json_string(out, info.required);
        fputs(", \"optional\": ", out);
        cli_json_string(out, info.optional);
        fputs(",\n     \"separation\": ", out);
        cli_json_string(out, info.separation);
        fprintf(out, ", \"can_pull\": %s, \"n\": ", info.can_pull ? "true" : "false");
        cli_json_number(out, info.n_default);
        fputs(", \"m\": ", out);
        cli_json_number(out, info.m);
        print_range_json(out, clink_law_at(i), a);
        fputs(",\n     \"reference\": ", out);
        cli_json_string(out, info.reference);
        fprintf(out, "}%s\n", i + 1 < clink_law_count() ? "," : "");
    }
    fputs("  ]\n}\n", out);
}

static void print_text(FILE *out, const laws_args *a)
{
    size_t i;

    fprintf(out,
            "%zu contact laws (F > 0 pushes apart; delta penetration, m; delta_dot its "
            "rate, m/s; v the impact velocity, m/s)\n",
            clink_law_count());
    for (i = 0; i < clink_law_count(); i++) {
        clink_law_info info;

        clink_law_get_info(clink_law_at(i), &info);
        fprintf(out, "\n%s", info.name);
        if (info.aliases[0] != '\0')
            fprintf(out, " [%s]", info.aliases);
        fprintf(out, ": %s\n", info.title);
        fprintf(out, "  geometry    %s\n", clink_law_geometry(clink_law_at(i)));
        fprintf(out, "  force       %s\n", info.formula);
        fprintf(out, "  damping     %s\n", info.damping);
        fprintf(out, "  needs       %s\n", info.required);
        if (info.optional[0] != '\0')
            fprintf(out, "  optional    %s\n", info.optional);
        fprintf(out, "  separation  %s\n", info.separation);
        fprintf(out, "  tension     %s\n", info.can_pull ? "yes (can pull)" : "no (F >= 0)");
        print_range_text(out, clink_law_at(i), a);
        fprintf(out, "  reference   %s\n", info.reference);
    }
    fprintf(out, "\nunits of the parameters:");
    for (i = 0; i < sizeof(param_units) / sizeof(param_units[0]); i++)
        fprintf(out, "%s %s %s", i ? "," : "", param_units[i][0], param_units[i][1]);
    fprintf(out, "\n");
}

/* ---- `clink laws --friction`: the friction-law catalogue (clink_friction_law_at) ---- */

static void friction_json(FILE *out)
{
    fputs("{\n  \"units\": {", out);
    for (size_t i = 0; i < clink_friction_param_count(); i++) {
        const clink_friction_param *d = clink_friction_param_at(i);
        fputs(i ? ", " : "", out);
        cli_json_string(out, d->key);
        fputs(": ", out);
        cli_json_string(out, d->unit);
    }
    fputs("},\n  \"friction_laws\": [\n", out);
    for (size_t i = 0; i < clink_friction_law_count(); i++) {
        const clink_friction_law_info *f = clink_friction_law_at(i);
        const char *keys[] = {"name",     "aliases",  "title", "formula",  "required",
                              "optional", "sticking", "reset", "reference"};
        const char *vals[] = {f->name,     f->aliases,  f->title, f->formula,  f->required,
                              f->optional, f->sticking, f->reset, f->reference};
        fputs("    {", out);
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
            fputs(k ? ", " : "", out);
            cli_json_string(out, keys[k]);
            fputs(": ", out);
            cli_json_string(out, vals[k]);
        }
        fprintf(out, ", \"states\": %d}%s\n", f->states,
                i + 1 < clink_friction_law_count() ? "," : "");
    }
    fputs("  ]\n}\n", out);
}

static void friction_text(FILE *out)
{
    fprintf(out, "%zu friction laws (v slip of B on A, m/s; F_n normal force, N; F_t on B)\n",
            clink_friction_law_count());
    for (size_t i = 0; i < clink_friction_law_count(); i++) {
        const clink_friction_law_info *f = clink_friction_law_at(i);
        fprintf(out, "\n%s", f->name);
        if (f->aliases[0] != '\0')
            fprintf(out, " [%s]", f->aliases);
        fprintf(out, ": %s\n  force       %s\n", f->title, f->formula);
        if (f->required[0] != '\0')
            fprintf(out, "  needs       %s\n", f->required);
        if (f->optional[0] != '\0')
            fprintf(out, "  optional    %s\n", f->optional);
        fprintf(out, "  sticking    %s\n", f->sticking);
        if (f->states > 0)
            fprintf(out, "  states      %d; %s\n", f->states, f->reset);
        if (f->reference[0] != '\0')
            fprintf(out, "  reference   %s\n", f->reference);
    }
    fprintf(out, "\nunits of the parameters:");
    for (size_t i = 0; i < clink_friction_param_count(); i++)
        fprintf(out, "%s %s %s", i ? "," : "", clink_friction_param_at(i)->key,
                clink_friction_param_at(i)->unit);
    fprintf(out, "\n");
}

enum { LAWS_JSON = 1, LAWS_N, LAWS_FRICTION };

/* the options of `clink laws` (cli.h, "Options") */
static const cli_option laws_options[] = {
    {LAWS_JSON, "json", 0, NULL, "one JSON object {units, laws: [...]}"},
    {LAWS_N, "n", 0, "N",
     "the stiffness exponent of the restitution ranges, >= 1\n(laws whose n may be given; "
     "default each law's own)"},
    {LAWS_FRICTION, "friction", 0, NULL, "the friction laws instead of the contact laws"},
    {0, NULL, 0, NULL, NULL},
};

static int laws_apply(void *ctx, int id, const char *spelled, const char *value)
{
    laws_args *a = ctx;

    if (id == LAWS_JSON) {
        a->json = 1;
        return CLI_EXIT_OK;
    }
    if (id == LAWS_FRICTION) {
        a->friction = 1;
        return CLI_EXIT_OK;
    }
    if (id == LAWS_N) {
        if (cli_parse_double(spelled, value, &a->n) != 0)
            return CLI_EXIT_USAGE;
        if (!(a->n >= 1))
            return cli_usage_error("laws: --n = %g must be >= 1", a->n);
        return CLI_EXIT_OK;
    }
    return cli_usage_error("laws: takes no operand (got '%s')", value);
}

int cmd_laws(int argc, char **argv)
{
    laws_args a = {0, NAN, 0};
    int rc;

    rc = cli_parse_options(argc, argv, laws_options, laws_apply, &a);
    if (rc == CLI_HELP) {
        printf("usage: clink laws [--json] [--n N] [--friction]\n\n"
               "Lists every contact law: force formula, damping rule, parameters with\n"
               "units, separation rule, whether it can pull, the restitutions its own\n"
               "damping rule reaches (measured in the impact laboratory), reference.\n\n");
        cli_print_options(stdout, laws_options);
        return CLI_EXIT_OK;
    }
    if (rc != CLI_EXIT_OK)
        return rc;
    if (a.friction) {
        if (a.json)
            friction_json(stdout);
        else
            friction_text(stdout);
        return CLI_EXIT_OK;
    }
    if (a.json)
        print_json(stdout, &a);
    else
        print_text(stdout, &a);
    return CLI_EXIT_OK;
}
