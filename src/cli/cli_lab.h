/*
 * Options shared by `clink impact` and `clink calibrate`: the law, its
 * parameters, the impact (mass, velocity) and the integrator settings.
 */
#ifndef CLINK_CLI_LAB_H
#define CLINK_CLI_LAB_H

#include "cli.h"

#include "clink/contact.h"
#include "clink/lab.h"

#include <stdio.h>

typedef struct cli_lab_args {
    const char *law_name;
    const clink_law *law;
    clink_contact_params params;
    double mass, velocity, target;
    const char *loop_path;
    int json, analytic, help;
    clink_lab_options options;
} cli_lab_args;

/*
 * Parses argv (argv[0] is the subcommand). `calibrate` nonzero accepts --target
 * and requires it. Prints the one-line error itself; returns CLI_EXIT_OK or
 * CLI_EXIT_USAGE.
 */
int cli_lab_parse(int argc, char **argv, int calibrate, cli_lab_args *a);

/* Nonzero if the parameter key appears in a law's list of keys (clink_law_info's required
   or optional; "materials" stands for E1, E2, nu1, nu2, R1, R2). */
int cli_lab_list_has(const char *list, const char *key);

/* The table of options of impact (calibrate zero) or calibrate (cli.h, "Options"). */
const cli_option *cli_lab_options(int calibrate);

/* Prints a JSON number (null when not finite: a NaN never reaches the output). */
void cli_lab_json_number(FILE *out, const char *key, double v, int comma);

/*
 * The restitution range of the law's own rule as text: "e in [0.914, 1]" or
 * "e in [0.02, 0.479] and [0.967, 1]", or "no e of (0, 1]".
 */
void cli_lab_format_range(const clink_law_restitution_range *r, char *buf, size_t size);

/*
 * When params ask the law's rule for a restitution e (e given, no chi, c or alpha
 * that would replace the rule) that the rule does not reach within
 * CLINK_LAW_RESTITUTION_TOL, writes the warning into buf: what the rule gives
 * (e_out, or measured in the laboratory when e_out is NaN), the range it
 * reaches at this exponent and the `clink calibrate` command that finds the
 * damping for e. Returns 1 with the warning, 0 when there is nothing to say
 * (or nothing could be measured).
 */
int cli_lab_restitution_warning(const clink_law *law, const clink_contact_params *params,
                                double e_out, char *buf, size_t size);

/* Exit status for a library status: 2 for input errors, 1 for computation failures. */
int cli_lab_exit_for(clink_status st);

#endif
