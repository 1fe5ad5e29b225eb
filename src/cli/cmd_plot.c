/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `clink plot DIR [-o OUTDIR] [--against auto|angle|time] [--format LIST]
 * [--model FILE]`: figures of a run's output directory (coordinates,
 * velocities, accelerations, joint reactions, energies; contact forces and
 * journal orbits when present) in PNG, SVG or PDF, drawn by
 * the Python module viz.plot (python/clink/viz/plot.py) with matplotlib
 * against the crank angle when the model has a rotational driver, else
 * against time. The run's model (the "source" of summary.json, or --model) is
 * read into a temporary scene file (cli_scene_write) that tells the viewer the
 * driver and the clearances. The viewer and the interpreter are found by
 * cli_viewer_dir ($CLINK_VIEWER_PATH first) and cli_script_python
 * ($CLINK_PYTHON first).
 *
 * The viewer checks the run before drawing: a damaged directory (summary.json
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

enum { PLOT_OUTPUT = 1, PLOT_AGAINST, PLOT_FORMAT, PLOT_MODEL };

/* the options of `clink plot` (cli.h, "Options") */
static const cli_option plot_options[] = {
    {PLOT_OUTPUT, "output", 'o', "OUTDIR", "directory of the figures (default DIR)"},
    {PLOT_AGAINST, "against", 0, "X",
     "abscissa: auto (the default: the crank angle in degrees\n"
     "when the model has a rotational driver, else time),\n"
     "angle, time"},
    {PLOT_FORMAT, "format", 0, "LIST",
     "formats among png, svg, pdf, comma-separated\n(default png)"},
    {PLOT_MODEL, "model", 0, "FILE",
     "the run's model, when the path recorded in\n"
     "summary.json (\"source\") no longer leads to it"},
    {0, NULL, 0, NULL, NULL},
};

static void plot_usage(FILE *out)
{
    fprintf(out, "usage: clink plot DIR [-o OUTDIR] [--against auto|angle|time]\n"
                 "                  [--format png[,svg,pdf]] [--model MODEL.xml]\n\n"
                 "Draws figures of the run in DIR (written by clink run) into OUTDIR\n"
                 "with matplotlib: coordinates, velocities, accelerations, joint reactions,\n"
                 "energies; contact forces (a space-time map and the five largest when there\n"
                 "are more than 8 contacts) and journal orbits inside the clearance circle\n"
                 "when present. For the output of clink kinematics -o DIR: positions,\n"
                 "velocities, accelerations and transmission angles against the driver,\n"
                 "coupler curves, with dead points and assembly failures marked.\n"
                 "Environment: CLINK_PYTHON (interpreter), CLINK_VIEWER_PATH (the folder\n"
                 "holding the viewer package viz).\n\n");
    cli_print_options(out, plot_options);
    fprintf(out, "\nExit status: 0 figures drawn; 1 the run failed or was interrupted (figures\n"
                 "drawn up to there and marked), or matplotlib is missing; 2 DIR is not a\n"
                 "finished run (missing, killed, truncated), OUTDIR is a file, the model\n"
                 "cannot be read when needed, or a bad option; 3 a figure could not be\n"
                 "written.\n");
}

typedef struct plot_args {
    const char *dir, *out, *against, *format, *model;
} plot_args;

static int plot_apply(void *ctx, int id, const char *spelled, const char *value)
{
    plot_args *a = ctx;

    switch (id) {
    case PLOT_OUTPUT:
        if (value[0] == '\0')
            return cli_usage_error("plot: %s: the directory name is empty", spelled);
        a->out = value;
        return CLI_EXIT_OK;
    case PLOT_AGAINST:
        if (strcmp(value, "auto") != 0 && strcmp(value, "angle") != 0 && strcmp(value, "time") != 0)
            return cli_usage_error("plot: %s: '%s' is not auto, angle or time", spelled, value);
        a->against = value;
        return CLI_EXIT_OK;
    case PLOT_FORMAT:
        a->format = value; /* the viewer checks the list */
        return CLI_EXIT_OK;
    case PLOT_MODEL:
        if (cli_check_input_file("plot", value) != 0)
            return CLI_EXIT_USAGE;
        a->model = value;
        return CLI_EXIT_OK;
    default:
        break;
    }
    if (a->dir != NULL)
        return cli_usage_error("plot: one run directory only (got '%s' and '%s')", a->dir, value);
    a->dir = value;
    return CLI_EXIT_OK;
}

/* the figures of a kinematic sweep (DIR/kinematics.csv of clink kinematics -o DIR) */
static int plot_kinematics(const plot_args *a, const char *viewer)
{
    const char *args[12];
    int n = 0;

    if (a->against != NULL || a->model != NULL)
        return cli_usage_error("plot: %s holds a kinematic sweep: --against and --model do not "
                               "apply (its figures are against the driver)",
                               a->dir);
    args[n++] = cli_script_python();
    args[n++] = "-m";
    args[n++] = "viz.kinplot";
    args[n++] = a->dir;
    if (a->out != NULL) {
        args[n++] = "--out";
        args[n++] = a->out;
    }
    if (a->format != NULL) {
        args[n++] = "--format";
        args[n++] = a->format;
    }
    args[n] = NULL;
    return cli_script_run("plot", viewer, (char *const *) args);
}

/* runs the viewer on the run with the scene file (NULL: none) */
static int plot_spawn(const plot_args *a, const char *viewer, const char *scene)
{
    const char *args[16];
    int n = 0;

    args[n++] = cli_script_python();
    args[n++] = "-m";
    args[n++] = "viz.plot";
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
    return cli_script_run("plot", viewer, (char *const *) args);
}

int cmd_plot(int argc, char **argv)
{
    plot_args a = {NULL, NULL, NULL, NULL, NULL};
    const char *viewer;
    char vbuf[4096], scene[4096], kin[4200];
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
    snprintf(kin, sizeof kin, "%s/kinematics.csv", a.dir);
    if (!cli_script_is_file(kin)) {
        rc = cli_script_check_run("plot", a.dir);
        if (rc != CLI_EXIT_OK)
            return rc;
    }
    viewer = cli_viewer_dir(vbuf, sizeof vbuf);
    if (viewer == NULL) {
        fprintf(stderr, "clink: plot: the viewer (the Python package clink's viz) not found "
                        "(set CLINK_VIEWER_PATH)\n");
        return CLI_EXIT_FAIL;
    }
    if (cli_script_is_file(kin))
        return plot_kinematics(&a, viewer);
    if (cli_scene_temp(scene, sizeof scene) != 0) {
        fprintf(stderr, "clink: plot: %s: cannot create: %s\n", scene, strerror(errno));
        return CLI_EXIT_IO;
    }
    /* without its model the run is still drawn, against time (the viewer says so); a model
       given by --model, or a crank angle asked for, must load */
    rc = cli_scene_write("plot", a.dir, a.model, scene, a.model == NULL && a.against == NULL);
    if (rc == CLI_EXIT_IO || (rc != CLI_EXIT_OK && (a.model != NULL || a.against != NULL))) {
        unlink(scene);
        return rc;
    }
    rc = plot_spawn(&a, viewer, rc == CLI_EXIT_OK ? scene : NULL);
    if (unlink(scene) != 0 && rc == CLI_EXIT_OK) {
        fprintf(stderr, "clink: plot: %s: cannot remove: %s\n", scene, strerror(errno));
        rc = CLI_EXIT_IO;
    }
    return rc;
}
