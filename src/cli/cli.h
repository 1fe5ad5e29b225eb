/*
 * The clink command: a thin shell over the public API. Each subcommand lives in
 * its own file and is listed once in the table of main.c.
 *
 * Exit status of every subcommand (docs/cli.md, "Exit status"):
 *   0    success
 *   1    the computation failed (solver, calibration); `run` keeps the rows so far
 *   2    input rejected (usage, unknown name, value out of range, malformed or
 *        unrunnable model, damaged run directory for `plot`); nothing written
 *   3    I/O failed (a file could not be created, written or renamed); no result
 *        of the command is left under a final name
 *   130  `run` stopped by SIGINT, 143 by SIGTERM (128 + the signal, as shells
 *        report it); the rows so far are kept, summary.json says "interrupted"
 */
#ifndef CLINK_CLI_H
#define CLINK_CLI_H

#include <stdio.h>

enum {
    CLI_EXIT_OK = 0,
    CLI_EXIT_FAIL = 1,
    CLI_EXIT_USAGE = 2,
    CLI_EXIT_IO = 3,
    CLI_EXIT_SIGNAL_BASE = 128
};

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
int cmd_animate(int argc, char **argv);
int cmd_laws(int argc, char **argv);
int cmd_impact(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);

/*
 * The number readers behind every numeric option, with no output (the fuzz
 * target tests/fuzz/fuzz_cli.c calls them directly). Each returns 0 and sets
 * *out, or -1 with *why (a static phrase) and *out untouched.
 *   cli_read_double: the whole text is a finite number (strtod syntax, no
 *                    leading or trailing space, no overflow to infinity).
 *   cli_read_int:    the whole text is a decimal integer in [0, INT_MAX].
 *   cli_read_count:  a finite number with an integral value in [1, max]
 *                    ("1e8" is accepted: counts are written like the XML's).
 */
int cli_read_double(const char *text, double *out, const char **why);
int cli_read_int(const char *text, int *out, const char **why);
int cli_read_count(const char *text, double max, double *out, const char **why);

/*
 * Splits "KEY=VALUE" (KEY 1 .. key_size - 1 characters, no '=' in it) and reads
 * VALUE with cli_read_double ("inf" too when allow_inf). 0, or -1 with *why.
 */
int cli_read_key_value(const char *text, char *key, size_t key_size, double *value, int allow_inf,
                       const char **why);

/*
 * Strict number parsing for options, printing the failure: "clink: OPTION:
 * 'TEXT' is not a finite number" (or what else is wrong) on stderr and -1; 0 on
 * success.
 */
int cli_parse_double(const char *option, const char *text, double *out);

/* Same for a non-negative integer that fits an int. */
int cli_parse_int(const char *option, const char *text, int *out);

/*
 * An input file that can be opened for reading and is a regular file. Else
 * prints "clink: COMMAND: PATH: cannot read: REASON" (the system's reason,
 * e.g. "Is a directory") and returns -1.
 */
int cli_check_input_file(const char *command, const char *path);

/* "clink: " + formatted message + newline on stderr; returns CLI_EXIT_USAGE. */
int cli_usage_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

#endif /* CLINK_CLI_H */
