/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What `clink equilibrium`, `clink modes` and `clink kinematics` share (cli_analysis.c): the
 * model file with its --set overrides, the output directory and its files (written as
 * NAME.incomplete and renamed when complete), the exit status of an analysis status.
 */
#ifndef CLINK_CLI_ANALYSIS_H
#define CLINK_CLI_ANALYSIS_H

#include "cli.h"
#include "clink/analysis.h"
#include "clink/xml.h"

#include <stdio.h>

enum { CLI_ANALYSIS_MAX_SETS = 32 };

typedef struct cli_analysis_args {
    const char *command; /* "equilibrium", ... */
    const char *path, *dir;
    int json;
    const char *sets[CLI_ANALYSIS_MAX_SETS];
    int n_sets;
    clink_xml_applied applied[CLI_ANALYSIS_MAX_SETS];
} cli_analysis_args;

/* an operand (the model) or --set for the command: CLI_EXIT_OK or the usage error's status */
int cli_analysis_operand(cli_analysis_args *a, const char *value);
int cli_analysis_set(cli_analysis_args *a, const char *spelled, const char *value);

/* the model of a->path: CLI_EXIT_OK, or CLI_EXIT_USAGE with the message printed */
int cli_analysis_load(cli_analysis_args *a, clink_model **model);

/* the command line against the command's table (ctx holds *a, which the parse fills) and
   its model operand: CLI_EXIT_OK to go on; CLI_HELP with the usage printed on stdout (exit
   0); or the usage error's status (the usage on stderr when the model is missing) */
int cli_analysis_parse(int argc, char **argv, const cli_option *table, cli_apply_fn apply,
                       void *ctx, const cli_analysis_args *a, void (*usage)(FILE *out));

/* the model of a->path and its analysis handle: CLI_EXIT_OK, or the exit status with the
   message printed and nothing left to free */
int cli_analysis_open(cli_analysis_args *a, clink_model **model, clink_analysis **an);

/* the exit status of a failed analysis: 2 for a model that has no answer (no equilibrium,
   singular, a free degree of freedom, a bad range), 1 for a computation that failed */
int cli_analysis_exit(clink_status st);

/* an output file DIR/name opened as DIR/name.incomplete (DIR created): CLI_EXIT_OK, or
   CLI_EXIT_IO with the message printed */
typedef struct cli_out_file {
    FILE *f;
    char tmp[4200], final[4200];
} cli_out_file;
int cli_out_open(const char *command, const char *dir, const char *name, cli_out_file *o);
/* closes and renames it: CLI_EXIT_OK, or CLI_EXIT_IO (the temporary removed) */
int cli_out_close(const char *command, cli_out_file *o);

/* "body.x" style names: the body's name or "bodyN" */
const char *cli_body_label(const clink_model *m, int body, char *buf, size_t size);

/* the films of the oscillating modes (cli_modefilm.c): DIR/mode-K/timeseries.csv and
   summary.json, a synthetic run of PERIODS periods with the largest displacement FRACTION of the
   model's size; CLI_EXIT_OK or the exit status with the message printed */
int cli_modes_film(const char *dir, const char *path, const clink_model *m,
                   const clink_analysis *an, double fraction, int periods);

#endif
