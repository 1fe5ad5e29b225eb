/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * clink command-line entry point: dispatches to the subcommands of the table
 * below. The table is the only place a subcommand is registered. SIGXFSZ is ignored
 * here, for every command (the library installs no signal handler): a write past the
 * file size limit (ulimit -f) then fails with EFBIG, which the command reports naming
 * its file and exits 3 (docs/cli.md, "Exit status"), instead of the process dying of the
 * signal (status 153) with its temporary files left behind.
 */
#define _POSIX_C_SOURCE 200809L /* SIGXFSZ, sigaction */

#include "cli.h"

#include "clink/clink.h"
#include "suggest.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

/* the subcommands, in the order `clink --help` lists them */
static const cli_command commands[] = {
    {"check", "check a mechanism file and summarise it", cmd_check},
    {"run", "simulate a mechanism file: time series, impact log, summary", cmd_run},
    {"plot", "draw PNG figures of a run's output directory (matplotlib)", cmd_plot},
    {"animate", "film a run's mechanism: MP4 and GIF (matplotlib, ffmpeg)", cmd_animate},
    {"view", "an interactive page of a run or a sweep (one HTML file)", cmd_view},
    {"laws", "list the contact laws (formula, parameters, separation, tension)", cmd_laws},
    {"impact", "one central impact of a contact law, integrated to separation", cmd_impact},
    {"calibrate", "damping of a contact law for a target restitution", cmd_calibrate},
    {"sweep", "run a parameter study: every case of a sweep file, one table", cmd_sweep},
    {"fmu", "export a mechanism file as an FMI 2.0 co-simulation FMU", cmd_fmu},
    {"equilibrium", "static equilibrium: pose, reactions, residual, stability", cmd_equilibrium},
    {"modes", "linearised modes: frequencies, damping ratios, mode shapes", cmd_modes},
    {"kinematics", "sweep a driven mechanism: positions, velocities, dead points", cmd_kinematics},
    {"wear", "joint wear over a machine's life: Archard, worn bore fed back", cmd_wear},
    {"spectrum", "amplitude spectrum of a run's column over a settled window", cmd_spectrum},
    {"bifurcation", "bifurcation diagram of a sweep's Poincare samples", cmd_bifurcation},
    {"lyapunov", "largest Lyapunov exponent of a model's response", cmd_lyapunov},
    {NULL, NULL, NULL},
};

static void print_help(FILE *out)
{
    size_t i;

    fprintf(out, "usage: clink [-h | --help | -V | --version] COMMAND [ARGS...]\n\n"
                 "Planar multibody dynamics with contact-impact (SI units).\n\n"
                 "Commands:\n");
    for (i = 0; commands[i].name != NULL; i++)
        fprintf(out, "  %-12s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n`clink COMMAND --help` (or `clink help COMMAND`, or `man clink-COMMAND`)\n"
                 "describes a command.\n\n"
                 "Exit status: 0 success, 1 computation failed, 2 input rejected, 3 I/O\n"
                 "failed, 130/143 run interrupted by SIGINT/SIGTERM (docs/cli.md).\n");
}

/* a result printed to a full disk or a closed pipe is a failure too: exit 3 with the cause */
static int finish_stdout(int status)
{
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "clink: standard output: cannot write: %s\n",
                strerror(errno != 0 ? errno : EIO));
        return status == CLI_EXIT_OK ? CLI_EXIT_IO : status;
    }
    return status;
}

/* writes past the file size limit fail with EFBIG, reported as every write failure is */
static void ignore_file_size_signal(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_IGN;
    if (sigemptyset(&sa.sa_mask) != 0 || sigaction(SIGXFSZ, &sa, NULL) != 0)
        fprintf(stderr, "clink: warning: cannot ignore SIGXFSZ: %s\n", strerror(errno));
}

int main(int argc, char **argv)
{
    suggest near;
    size_t i;

    ignore_file_size_signal();
    if (argc < 2) {
        print_help(stderr);
        return CLI_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        print_help(stdout);
        return finish_stdout(CLI_EXIT_OK);
    }
    if (strcmp(argv[1], "help") == 0)
        return finish_stdout(cli_help(argc - 1, argv + 1, commands, print_help));
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        /* the command's version; the library's too when a different one is linked */
        if (strcmp(cli_version(), clink_version()) == 0)
            printf("clink %s\n", cli_version());
        else
            printf("clink %s (library %s)\n", cli_version(), clink_version());
        return finish_stdout(CLI_EXIT_OK);
    }
    for (i = 0; commands[i].name != NULL; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return finish_stdout(commands[i].run(argc - 1, argv + 1));

    suggest_init(&near, argv[1]);
    for (i = 0; commands[i].name != NULL; i++)
        suggest_offer(&near, commands[i].name);
    fprintf(stderr, "clink: unknown command '%s'", argv[1]);
    if (suggest_best(&near) != NULL)
        fprintf(stderr, " (did you mean '%s'?)", suggest_best(&near));
    fprintf(stderr, "; commands:");
    for (i = 0; commands[i].name != NULL; i++)
        fprintf(stderr, " %s", commands[i].name);
    fprintf(stderr, " (see clink --help)\n");
    return CLI_EXIT_USAGE;
}
