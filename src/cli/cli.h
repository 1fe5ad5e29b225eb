/* SPDX-License-Identifier: BSD-3-Clause */
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

/*
 * The version of the command: CMake's project(VERSION), passed by the build as
 * CLINK_PROJECT_VERSION (the library's clink_version() when built without it).
 */
const char *cli_version(void);

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
int cmd_spectrum(int argc, char **argv);
int cmd_bifurcation(int argc, char **argv);
int cmd_lyapunov(int argc, char **argv);
int cmd_view(int argc, char **argv);
int cmd_animate(int argc, char **argv);
int cmd_laws(int argc, char **argv);
int cmd_impact(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_fmu(int argc, char **argv);
int cmd_equilibrium(int argc, char **argv);
int cmd_modes(int argc, char **argv);
int cmd_kinematics(int argc, char **argv);
int cmd_wear(int argc, char **argv);

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

/* The same check with the message ("clink: COMMAND: PATH: cannot read: REASON") in msg
   instead of stderr: 0, or -1 with the message. */
int cli_input_file_error(const char *command, const char *path, char *msg, size_t size);

/* the line of the first "<settings" in the file at path (0 if none or unreadable) */
long cli_settings_line(const char *path);
/* "PATH:LINE: <settings>: ..." for a message "settings: ..." of the simulation's set-up when
   the file has a <settings> element (the line of a value set by --set too), else
   "PATH: msg", into out */
void cli_where_settings(const char *path, const char *msg, char *out, size_t size);

/* "clink: " + formatted message + newline on stderr; returns CLI_EXIT_USAGE. */
int cli_usage_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/*
 * Options: one table per command (in the command's file), read by one parser
 * with the conventions of getopt_long: `--name VALUE`, `--name=VALUE`, `-x VALUE`,
 * `-xVALUE`, flags grouped (`-qh`), operands anywhere, `--` ends the options.
 * Names must be typed in full (no abbreviations: adding an option never changes
 * what an existing command line means). `-h`/`--help` is built in.
 *
 * Adding an option to a command is one row in its table and one case in its
 * apply function; `--help` lists the rows.
 */
typedef struct cli_option {
    int id;            /* the command's code for it (> 0); 0 ends the table */
    const char *name;  /* long name without "--" */
    char short_name;   /* one-letter form, or 0 */
    const char *value; /* what its value is ("DIR"), NULL for a flag */
    const char *help;  /* its text in --help ('\n' starts a continuation line); NULL: read
                          but not listed (an option kept only to be refused with a reason) */
} cli_option;

/* the id given to apply for an operand (then spelled is NULL and value the text) */
enum { CLI_OPERAND = -1 };

/* the parser's answer when --help or -h was given (the command prints its help) */
enum { CLI_HELP = -1 };

/*
 * Called for each option and operand in command-line order: id is the row's id
 * (or CLI_OPERAND), spelled the option as typed without its value ("--t-end",
 * "-o"), value its text (NULL for a flag). Returns CLI_EXIT_OK to go on, or an
 * exit status after printing the error (cli_usage_error).
 */
typedef int (*cli_apply_fn)(void *ctx, int id, const char *spelled, const char *value);

/*
 * Parses argv[1..argc-1] of the command argv[0] against its table: CLI_EXIT_OK,
 * CLI_HELP, or the exit status of the first error (an unknown option, a missing
 * value, a value given to a flag: "clink: run: unknown option '--x' (see clink
 * run --help)", exit 2; or what apply returned).
 */
int cli_parse_options(int argc, char **argv, const cli_option *table, cli_apply_fn apply,
                      void *ctx);

/* The options of a table as --help lists them ("  -o, --output DIR   text"), -h/--help last. */
void cli_print_options(FILE *out, const cli_option *table);

/*
 * The form cli_print_options() writes in: text (--help), or, between the lines
 * CLI_OPTIONS_BEGIN and CLI_OPTIONS_END, a man page's tagged paragraphs (roff)
 * or one spelling per line ("--output DIR", "-o DIR", "--quiet") for the shell
 * completion. `clink help --man` and `--completion` (cli_man.c) set it while
 * they read a command's --help, so that the pages and the completion come from
 * the tables --help lists.
 */
typedef enum { CLI_FORM_TEXT, CLI_FORM_ROFF, CLI_FORM_WORDS } cli_help_form;
#define CLI_OPTIONS_BEGIN ".\\\" clink options"
#define CLI_OPTIONS_END   ".\\\" clink options end"
void cli_set_help_form(cli_help_form form);

/* len bytes of s as roff text: '\\' and '-' escaped, a leading '.' or '\'' made text */
void cli_roff_text(FILE *out, const char *s, size_t len);

/*
 * `clink help ...` (cli_man.c): `help CMD` (CMD's --help), `help --man [CMD]`
 * (the man page clink(1) or clink-CMD(1) in roff on stdout), `help --man-pages
 * DIR` (every page into DIR), `help --completion [FILE]` (the bash completion script).
 * argv[0] is "help"; print_help prints `clink --help`.
 */
int cli_help(int argc, char **argv, const cli_command *commands, void (*print_help)(FILE *out));

/* A JSON string literal of s (quotes, backslashes and control characters escaped). */
void cli_json_string(FILE *out, const char *s);

/* A JSON number (null when not finite). */
void cli_json_number(FILE *out, double v);

/*
 * An output path (a directory to create or a file to write) that names an
 * existing file of the other kind is an input error: for want_dir nonzero,
 * PATH or one of its parents exists and is not a directory; for want_dir zero,
 * PATH is an existing directory. Prints "clink: COMMAND: OPTION PATH: ..." and
 * returns CLI_EXIT_USAGE; CLI_EXIT_OK otherwise (other problems show when the
 * output is written, as I/O failures).
 */
int cli_check_output_path(const char *command, const char *option, const char *path, int want_dir);

#endif /* CLINK_CLI_H */
