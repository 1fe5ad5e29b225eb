/*
 * The clink command: a thin shell over the public API. Each subcommand lives in
 * its own file and is listed once in the table of main.c.
 *
 * Exit status of every subcommand: 0 success, 1 the computation failed (solver,
 * I/O), 2 bad input (usage, unknown name, value out of range, malformed file).
 */
#ifndef CLINK_CLI_H
#define CLINK_CLI_H

#include <stdio.h>

enum { CLI_EXIT_OK = 0, CLI_EXIT_FAIL = 1, CLI_EXIT_USAGE = 2 };

/* one subcommand: argv[0] is the subcommand's name */
typedef int (*cli_command_fn)(int argc, char **argv);

typedef struct cli_command {
    const char *name;
    const char *summary; /* one line for `clink --help` */
    cli_command_fn run;
} cli_command;

/* the subcommands (one file each: cmd_<name>.c), listed in the table of main.c */
int cmd_check(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_laws(int argc, char **argv);
int cmd_impact(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);

/*
 * Strict number parsing for options: the whole string must be a finite number.
 * On failure prints "clink: OPTION: 'TEXT' is not a finite number" to stderr and
 * returns -1; 0 on success.
 */
int cli_parse_double(const char *option, const char *text, double *out);

/* Same for a non-negative integer that fits an int. */
int cli_parse_int(const char *option, const char *text, int *out);

/* "clink: " + formatted message + newline on stderr; returns CLI_EXIT_USAGE. */
int cli_usage_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

#endif /* CLINK_CLI_H */
