/*
 * `clink plot DIR [-o OUTDIR]`: PNG figures of a run's output directory
 * (coordinates, velocities, accelerations, joint reactions, energies; contact
 * forces and journal orbits when present), drawn by scripts/plot_run.py with
 * matplotlib. The script is looked up, in order: $CLINK_PLOT_SCRIPT; the
 * installed copy next to the executable (BIN/../share/clink/scripts/); the
 * source tree this binary was built from; the configured install prefix. The
 * interpreter is $CLINK_PYTHON, else Debian's /usr/bin/python3, else python3
 * on the PATH.
 *
 * The script checks the run before drawing: a damaged directory (summary.json
 * missing, ".incomplete" files of a killed run, truncated rows) is reported in
 * its words with exit 2 and no figure; a failed or interrupted run is drawn up
 * to where it stopped with marked figures and exit 1. Exit 3: a figure could
 * not be written.
 */
#define _POSIX_C_SOURCE 200809L

#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

enum { PLOT_OUTPUT = 1 };

/* the options of `clink plot` (cli.h, "Options") */
static const cli_option plot_options[] = {
    {PLOT_OUTPUT, "output", 'o', "OUTDIR", "directory of the figures (default DIR)"},
    {0, NULL, 0, NULL, NULL},
};

static void plot_usage(FILE *out)
{
    fprintf(out, "usage: clink plot DIR [-o OUTDIR]\n\n"
                 "Draws PNG figures of the run in DIR (written by clink run) into OUTDIR\n"
                 "with matplotlib: coordinates, velocities, accelerations, joint reactions,\n"
                 "energies; contact forces and journal orbits when present.\n"
                 "Environment: CLINK_PYTHON (interpreter), CLINK_PLOT_SCRIPT (script).\n\n");
    cli_print_options(out, plot_options);
    fprintf(out, "\nExit status: 0 figures drawn; 1 the run failed or was interrupted (figures\n"
                 "drawn up to there and marked), or matplotlib is missing; 2 DIR is not a\n"
                 "finished run (missing, killed, truncated) or OUTDIR is a file; 3 a figure\n"
                 "could not be written.\n");
}

typedef struct plot_args {
    const char *dir, *out;
} plot_args;

static int plot_apply(void *ctx, int id, const char *spelled, const char *value)
{
    plot_args *a = ctx;

    if (id == PLOT_OUTPUT) {
        if (value[0] == '\0')
            return cli_usage_error("plot: %s: the directory name is empty", spelled);
        a->out = value;
        return CLI_EXIT_OK;
    }
    if (a->dir != NULL)
        return cli_usage_error("plot: one run directory only (got '%s' and '%s')", a->dir, value);
    a->dir = value;
    return CLI_EXIT_OK;
}

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* the plotting script, or NULL */
static const char *find_script(char *buf, size_t size)
{
    const char *env = getenv("CLINK_PLOT_SCRIPT");
    char exe[2048];
    ssize_t n;

    if (env != NULL && env[0] != '\0')
        return env;
    n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        char *slash;
        exe[n] = '\0';
        slash = strrchr(exe, '/');
        if (slash != NULL) {
            *slash = '\0';
            int w = snprintf(buf, size, "%s/../share/clink/scripts/plot_run.py", exe);
            if (w > 0 && (size_t) w < size && is_file(buf))
                return buf;
        }
    }
    snprintf(buf, size, "%s/scripts/plot_run.py", CLINK_DATADIR_BUILD);
    if (is_file(buf))
        return buf;
    snprintf(buf, size, "%s/scripts/plot_run.py", CLINK_DATADIR_INSTALL);
    if (is_file(buf))
        return buf;
    return NULL;
}

/* dir is a directory holding the finished results of a run */
static int plot_check_run(const char *dir)
{
    struct stat st;
    char csv[4096];

    if (stat(dir, &st) != 0)
        return cli_usage_error("plot: %s: %s (run `clink run MODEL.xml -o %s` first)", dir,
                               strerror(errno), dir);
    if (!S_ISDIR(st.st_mode))
        return cli_usage_error("plot: %s: %s", dir, strerror(ENOTDIR));
    snprintf(csv, sizeof csv, "%s/timeseries.csv", dir);
    if (!is_file(csv)) {
        snprintf(csv, sizeof csv, "%s/timeseries.csv.incomplete", dir);
        if (is_file(csv))
            return cli_usage_error("plot: %s: the run did not finish (killed, or still "
                                   "running): only .incomplete files",
                                   dir);
        return cli_usage_error("plot: %s/timeseries.csv does not exist (run `clink run "
                               "MODEL.xml -o %s` first)",
                               dir, dir);
    }
    return CLI_EXIT_OK;
}

/* the exit code for the script's wait status */
static int plot_exit_code(int status, const char *python, const char *script)
{
    /* the script has said what went wrong in its own words */
    if (WIFEXITED(status)) {
        switch (WEXITSTATUS(status)) {
        case 0:
            return CLI_EXIT_OK;
        case 1:
        case 4:
            return CLI_EXIT_FAIL;
        case 2:
            return CLI_EXIT_USAGE;
        case 3:
            return CLI_EXIT_IO;
        case 127:
            return CLI_EXIT_FAIL; /* the child said it could not run the interpreter */
        default:
            fprintf(stderr, "clink: plot: %s %s exited with status %d\n", python, script,
                    WEXITSTATUS(status));
            return CLI_EXIT_FAIL;
        }
    }
    fprintf(stderr, "clink: plot: %s %s was killed by signal %d\n", python, script,
            WTERMSIG(status));
    return CLI_EXIT_FAIL;
}

/* runs "python script dir [--out out]" and waits for it */
static int plot_spawn(const char *python, const char *script, const char *dir, const char *out)
{
    const char *args[6];
    int status, nargs = 0;
    pid_t pid;

    args[nargs++] = python;
    args[nargs++] = script;
    args[nargs++] = dir;
    if (out != NULL) {
        args[nargs++] = "--out";
        args[nargs++] = out;
    }
    args[nargs] = NULL;
    fflush(stdout);
    pid = fork();
    if (pid < 0) {
        fprintf(stderr, "clink: plot: cannot start %s: %s\n", python, strerror(errno));
        return CLI_EXIT_FAIL;
    }
    if (pid == 0) {
        execvp(python, (char *const *) args);
        fprintf(stderr, "clink: plot: cannot run %s: %s\n", python, strerror(errno));
        _exit(127);
    }
    if (waitpid(pid, &status, 0) < 0) {
        fprintf(stderr, "clink: plot: %s\n", strerror(errno));
        return CLI_EXIT_FAIL;
    }
    return plot_exit_code(status, python, script);
}

int cmd_plot(int argc, char **argv)
{
    plot_args a = {NULL, NULL};
    const char *script, *python;
    char sbuf[4096];
    int rc;

    rc = cli_parse_options(argc, argv, plot_options, plot_apply, &a);
    if (rc == CLI_HELP) {
        plot_usage(stdout);
        return CLI_EXIT_OK;
    }
    if (rc != CLI_EXIT_OK)
        return rc;
    if (a.dir == NULL) {
        plot_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (a.out != NULL && cli_check_output_path("plot", "-o", a.out, 1) != CLI_EXIT_OK)
        return CLI_EXIT_USAGE;
    rc = plot_check_run(a.dir);
    if (rc != CLI_EXIT_OK)
        return rc;
    script = find_script(sbuf, sizeof sbuf);
    if (script == NULL) {
        fprintf(stderr, "clink: plot: scripts/plot_run.py not found (set CLINK_PLOT_SCRIPT)\n");
        return CLI_EXIT_FAIL;
    }
    python = getenv("CLINK_PYTHON");
    if (python == NULL || python[0] == '\0')
        python = is_file("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
    return plot_spawn(python, script, a.dir, a.out);
}
