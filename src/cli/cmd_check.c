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

static void check_usage(FILE *out)
{
    fprintf(out, "usage: clink check MODEL.xml\n\n"
                 "Reads MODEL.xml, checks it against the clink schema and for meaning\n"
                 "(ranges, names, geometry), assembles it at t = 0 as clink run does\n"
                 "(loops that close, independent constraints, the solver's setup) and\n"
                 "prints a summary. Exit status 0 if the model is valid and runnable, 2 with\n"
                 "\"FILE:LINE: what is wrong\" or \"FILE: what is wrong\" on stderr otherwise.\n");
}

int cmd_check(int argc, char **argv)
{
    clink_xml_summary s;
    clink_model *model = NULL;
    clink_sim *sim = NULL;
    clink_status st;
    double dq = 0, dv = 0;
    char err[1024];
    const char *path = NULL;
    int i;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            check_usage(stdout);
            return CLI_EXIT_OK;
        }
        if (argv[i][0] == '-' && argv[i][1] != '\0')
            return cli_usage_error("check: unknown option '%s' (see clink check --help)", argv[i]);
        if (path != NULL)
            return cli_usage_error("check: one model file only (got '%s' and '%s')", path, argv[i]);
        path = argv[i];
    }
    if (path == NULL) {
        check_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (cli_check_input_file("check", path) != 0)
        return CLI_EXIT_USAGE;
    if (clink_xml_check(path, &s, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        return CLI_EXIT_USAGE;
    }
    /* what `run` does before its first step */
    if (clink_xml_load(path, &model, &s, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        return CLI_EXIT_USAGE;
    }
    st = clink_sim_create(model, NULL, &sim, err, sizeof err);
    if (st != CLINK_OK) {
        fprintf(stderr, "%s: %s\n", path, err);
        clink_model_destroy(&model);
        return st == CLINK_ERR_NOMEM || st == CLINK_ERR_INTERNAL ? CLI_EXIT_FAIL : CLI_EXIT_USAGE;
    }
    clink_sim_assembly(sim, &dq, &dv);
    char redundant[256];
    int nredundant = clink_sim_redundant_constraints(sim, redundant, sizeof redundant);
    clink_sim_destroy(&sim);
    clink_model_destroy(&model);
    printf("%s: valid\n", path);
    printf("  mechanism          %s\n", s.name);
    printf("  bodies             %d (plus the ground)\n", s.bodies);
    printf("  joints             %d ideal, %d with clearance\n", s.joints, s.clearance_joints);
    printf("  drivers            %d\n", s.drivers);
    printf("  loads              %d%s\n", s.loads, s.has_gravity ? " (and gravity)" : "");
    printf("  contact pairs      %d\n", s.contacts);
    printf("  contact laws       %s\n", s.laws[0] != '\0' ? s.laws : "none");
    printf("  constraints        %d equations\n", s.constraints);
    if (nredundant > 0)
        printf("  degrees of freedom %d (3 x %d - %d + %d redundant)\n", s.dof + nredundant,
               s.bodies, s.constraints, nredundant);
    else
        printf("  degrees of freedom %d (3 x %d - %d)\n", s.dof, s.bodies, s.constraints);
    printf("  assembly at t = 0  corrections %.3g (positions), %.3g (velocities)\n", dq, dv);
    if (nredundant > 0)
        printf("  redundant          %d equations depend on the others: %s\n"
               "                     (handled: the reactions are the minimum-norm set)\n",
               nredundant, redundant);
    return CLI_EXIT_OK;
}
