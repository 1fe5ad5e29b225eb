/*
 * `clink check MODEL.xml`: reads and checks a mechanism file (schema, ranges,
 * names, geometry) without running it, and prints a one-screen summary. Errors
 * go to stderr as "FILE:LINE: what is wrong" with exit status 2.
 */
#include "cli.h"

#include "clink/xml.h"

#include <string.h>

static void check_usage(FILE *out)
{
    fprintf(out, "usage: clink check MODEL.xml\n\n"
                 "Reads MODEL.xml, checks it against the clink schema and for meaning\n"
                 "(ranges, names, geometry) and prints a summary. Exit status 0 if the file\n"
                 "is valid, 2 with \"FILE:LINE: what is wrong\" on stderr otherwise.\n");
}

int cmd_check(int argc, char **argv)
{
    clink_xml_summary s;
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
    if (clink_xml_check(path, &s, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        return CLI_EXIT_USAGE;
    }
    printf("%s: valid\n", path);
    printf("  mechanism          %s\n", s.name);
    printf("  bodies             %d (plus the ground)\n", s.bodies);
    printf("  joints             %d ideal, %d with clearance\n", s.joints, s.clearance_joints);
    printf("  drivers            %d\n", s.drivers);
    printf("  loads              %d%s\n", s.loads, s.has_gravity ? " (and gravity)" : "");
    printf("  contact pairs      %d\n", s.contacts);
    printf("  contact laws       %s\n", s.laws[0] != '\0' ? s.laws : "none");
    printf("  constraints        %d equations\n", s.constraints);
    printf("  degrees of freedom %d (3 x %d - %d)\n", s.dof, s.bodies, s.constraints);
    return CLI_EXIT_OK;
}
