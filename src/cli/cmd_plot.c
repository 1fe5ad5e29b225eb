/*
 * `clink plot DIR [-o OUTDIR] [--against auto|angle|time] [--format LIST]
 * [--model FILE]`: figures of a run's output directory (coordinates,
 * velocities, accelerations, joint reactions, energies; contact forces and
 * journal orbits when present) in PNG, SVG or PDF, drawn by
 * scripts/plot_run.py with matplotlib against the crank angle when the model
 * has a rotational driver, else against time. The run's model (the "source"
 * of summary.json, or --model) is read into a temporary scene file
 * (cli_scene_write) that tells the script the driver and the clearances. The
 * script and the interpreter are found by cli_script_find ($CLINK_PLOT_SCRIPT
 * first) and cli_script_python ($CLINK_PYTHON first).
 *
 * The script checks the run before drawing: a damaged directory (summary.json
 * missing, ".incomplete" files of a killed run, truncated rows) is reported in
 * its words with exit 2 and no figure; a failed or interrupted run is drawn up
 * to where it stopped with marked figures and exit 1. Exit 3: a figure could
 * not be written.
 */
#define _POSIX_C_SOURCE 200809L

#include "cli.h"
#include "cli_script.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void plot_usage(FILE *out)
{
    fprintf(out, "usage: clink plot DIR [-o OUTDIR] [--against auto|angle|time]\n"
                 "                  [--format png[,svg,pdf]] [--model MODEL.xml]\n\n"
                 "Draws figures of the run in DIR (written by clink run) into OUTDIR\n"
                 "(default DIR) with matplotlib: coordinates, velocities, accelerations,\n"
                 "joint reactions, energies; contact forces (a space-time map and the five\n"
                 "largest when there are more than 8 contacts) and journal orbits inside the\n"
                 "clearance circle when present.\n\n"
                 "  -o OUTDIR         where the figures go (created if missing)\n"
                 "  --against X       abscissa: auto (the default: crank angle in degrees when\n"
                 "                    the model has a rotational driver, else time), angle, time\n"
                 "  --format LIST     comma-separated formats among png, svg, pdf (default png)\n"
                 "  --model FILE      the run's model, when the path recorded in summary.json\n"
                 "                    (\"source\") no longer leads to it\n"
                 "Environment: CLINK_PYTHON (interpreter), CLINK_PLOT_SCRIPT (script).\n\n"
                 "Exit status: 0 figures drawn; 1 the run failed or was interrupted (figures\n"
                 "drawn up to there and marked), or matplotlib is missing; 2 DIR is not a\n"
                 "finished run (missing, killed, truncated) or a bad option; 3 a figure could\n"
                 "not be written.\n");
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
    if (!cli_script_is_file(csv)) {
        snprintf(csv, sizeof csv, "%s/timeseries.csv.incomplete", dir);
        if (cli_script_is_file(csv))
            return cli_usage_error("plot: %s: the run did not finish (killed, or still "
                                   "running): only .incomplete files",
                                   dir);
        return cli_usage_error("plot: %s/timeseries.csv does not exist (run `clink run "
                               "MODEL.xml -o %s` first)",
                               dir, dir);
    }
    return CLI_EXIT_OK;
}

/* a temporary file for the scene (mkstemp); 0, or -1 with errno */
static int plot_temp_scene(char *path, size_t size)
{
    const char *tmp = getenv("TMPDIR");
    int fd;

    snprintf(path, size, "%s/clink-scene-XXXXXX", tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
    fd = mkstemp(path);
    if (fd < 0)
        return -1;
    if (close(fd) != 0) {
        int e = errno;
        unlink(path);
        errno = e;
        return -1;
    }
    return 0;
}

typedef struct plot_args {
    const char *dir, *out, *against, *format, *model;
} plot_args;

/* CLI_EXIT_OK, or CLI_EXIT_USAGE after the message; -1 for --help (printed) */
static int plot_parse(int argc, char **argv, plot_args *a)
{
    int i;

    memset(a, 0, sizeof *a);
    for (i = 1; i < argc; i++) {
        const char **value = NULL;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            plot_usage(stdout);
            return -1;
        } else if (strcmp(argv[i], "-o") == 0) {
            value = &a->out;
        } else if (strcmp(argv[i], "--against") == 0) {
            value = &a->against;
        } else if (strcmp(argv[i], "--format") == 0) {
            value = &a->format;
        } else if (strcmp(argv[i], "--model") == 0) {
            value = &a->model;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_usage_error("plot: unknown option '%s' (see clink plot --help)", argv[i]);
        } else if (a->dir != NULL) {
            return cli_usage_error("plot: one run directory only");
        } else {
            a->dir = argv[i];
        }
        if (value != NULL) {
            if (i + 1 >= argc)
                return cli_usage_error("plot: %s needs a value", argv[i]);
            *value = argv[++i];
        }
    }
    if (a->dir == NULL) {
        plot_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (a->against != NULL && strcmp(a->against, "auto") != 0 && strcmp(a->against, "angle") != 0 &&
        strcmp(a->against, "time") != 0)
        return cli_usage_error("plot: --against: '%s' is not auto, angle or time", a->against);
    if (a->model != NULL && cli_check_input_file("plot", a->model) != 0)
        return CLI_EXIT_USAGE;
    return CLI_EXIT_OK;
}

/* runs the script on the run with the scene file (NULL: none) */
static int plot_spawn(const plot_args *a, const char *script, const char *scene)
{
    const char *args[16];
    int n = 0;

    args[n++] = cli_script_python();
    args[n++] = script;
    args[n++] = a->dir;
    if (a->out != NULL) {
        args[n++] = "--out";
        args[n++] = a->out;
    }
    if (scene != NULL) {
        args[n++] = "--scene";
        args[n++] = scene;
    }
    if (a->against != NULL) {
        args[n++] = "--against";
        args[n++] = a->against;
    }
    if (a->format != NULL) {
        args[n++] = "--format";
        args[n++] = a->format;
    }
    args[n] = NULL;
    return cli_script_run("plot", (char *const *) args);
}

int cmd_plot(int argc, char **argv)
{
    const char *script;
    char sbuf[4096], scene[4096];
    plot_args a;
    int rc;

    rc = plot_parse(argc, argv, &a);
    if (rc != CLI_EXIT_OK)
        return rc < 0 ? CLI_EXIT_OK : rc;
    rc = plot_check_run(a.dir);
    if (rc != CLI_EXIT_OK)
        return rc;
    script = cli_script_find("plot_run.py", "CLINK_PLOT_SCRIPT", sbuf, sizeof sbuf);
    if (script == NULL) {
        fprintf(stderr, "clink: plot: scripts/plot_run.py not found (set CLINK_PLOT_SCRIPT)\n");
        return CLI_EXIT_FAIL;
    }
    if (plot_temp_scene(scene, sizeof scene) != 0) {
        fprintf(stderr, "clink: plot: %s: cannot create: %s\n", scene, strerror(errno));
        return CLI_EXIT_IO;
    }
    /* without its model the run is still drawn, against time (the script says so); a model
       given by --model, or a crank angle asked for, must load */
    rc = cli_scene_write("plot", a.dir, a.model, scene, a.model == NULL && a.against == NULL);
    if (rc == CLI_EXIT_IO || (rc != CLI_EXIT_OK && (a.model != NULL || a.against != NULL))) {
        unlink(scene);
        return rc;
    }
    rc = plot_spawn(&a, script, rc == CLI_EXIT_OK ? scene : NULL);
    if (unlink(scene) != 0 && rc == CLI_EXIT_OK) {
        fprintf(stderr, "clink: plot: %s: cannot remove: %s\n", scene, strerror(errno));
        rc = CLI_EXIT_IO;
    }
    return rc;
}
