/* SPDX-License-Identifier: BSD-3-Clause */
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

/* Exit status for a library status: 2 for input errors, 1 for computation failures. */
int cli_lab_exit_for(clink_status st);

#endif
