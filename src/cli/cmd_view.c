/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `clink view DIR [-o FILE.html] [--model FILE] [--max-values N]`: one self-contained
 * HTML page to look inside a run (the mechanism on a time slider, linked plots with a
 * cursor, the impact log that jumps to an impact, the summary; the space-time map of a
 * chain's forces) or a sweep (the table, sortable and filterable, and a scatter plot),
 * written by the Python module viz.view (python/clink/viz/view.py, view.js, view.css).
 * For a run, the model (the "source" of summary.json, or --model) is read into a
 * temporary scene file (cli_scene_write) that tells the page what the bodies look like;
 * without it the page has the plots and the tables but no mechanism. A sweep directory
 * (one holding sweep.csv) needs no model. The page needs only a browser.
 */
#define _POSIX_C_SOURCE 200809L

#include "cli.h"
#include "cli_script.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { VIEW_OUTPUT = 1, VIEW_MODEL, VIEW_MAX_VALUES };

/* the options of `clink view` (cli.h, "Options") */
static const cli_option view_options[] = {
    {VIEW_OUTPUT, "output", 'o', "FILE",
     "the page to write (default DIR/view.html, or\nDIR/sweep.html for a sweep)"},
    {VIEW_MODEL, "model", 0, "FILE",
     "the run's model, when the path recorded in\n"
     "summary.json (\"source\") no longer leads to it"},
    {VIEW_MAX_VALUES, "max-values", 0, "N",
     "numbers kept in the page (default 3e6): above,\n"
     "rows are thinned and columns not drawn left out"},
    {0, NULL, 0, NULL, NULL},
};

static void view_usage(FILE *out)
{
    fprintf(out, "usage: clink view DIR [-o FILE.html] [--model MODEL.xml] [--max-values N]\n\n"
                 "Writes one self-contained HTML page (no server, nothing fetched) to look\n"
                 "inside the run in DIR (written by clink run, CSV or HDF5): the mechanism on\n"
                 "a time slider with play and speed, plots of any column with a cursor, zoom\n"
                 "and pan, the journal orbit, the energies, the impact log (a click jumps to\n"
                 "the impact and plays through it slowed), the summary; with many contacts\n"
                 "along a chain, the space-time map of their normal force. For a sweep\n"
                 "directory (clink sweep): the table, sortable and filterable, and a\n"
                 "scatter plot of two columns coloured by a third. For the output of\n"
                 "clink modes -o DIR: each mode's film page and a page choosing among them.\n"
                 "Environment: CLINK_PYTHON (interpreter), CLINK_VIEWER_PATH (the folder\n"
                 "holding the viewer package viz).\n\n");
    cli_print_options(out, view_options);
    fprintf(out, "\nExit status: 0 the page written; 1 the viewer could not be run; 2 DIR is\n"
                 "not a finished run or a sweep, the model cannot be read when given, or a\n"
                 "bad option; 3 the page could not be written.\n");
}

typedef struct view_args {
    const char *dir, *out, *model, *max_values;
} view_args;

static int view_apply(void *ctx, int id, const char *spelled, const char *value)
{
    view_args *a = ctx;
    char *end;
    double n;

    switch (id) {
    case VIEW_OUTPUT:
        if (value[0] == '\0')
            return cli_usage_error("view: %s: the file name is empty", spelled);
        a->out = value;
        return CLI_EXIT_OK;
    case VIEW_MODEL:
        if (cli_check_input_file("view", value) != 0)
            return CLI_EXIT_USAGE;
        a->model = value;
        return CLI_EXIT_OK;
    case VIEW_MAX_VALUES:
        errno = 0;
        n = strtod(value, &end);
        if (end == value || *end != '\0' || errno != 0 || !(n >= 1000 && n <= 1e9))
            return cli_usage_error("view: %s: '%s' is not a number in [1000, 1e9]", spelled, value);
        a->max_values = value;
        return CLI_EXIT_OK;
    default:
        break;
    }
    if (a->dir != NULL)
        return cli_usage_error("view: one directory only (got '%s' and '%s')", a->dir, value);
    a->dir = value;
    return CLI_EXIT_OK;
}

static int view_spawn(const view_args *a, const char *viewer, const char *scene)
{
    const char *args[16];
    int n = 0;

    args[n++] = cli_script_python();
    args[n++] = "-m";
    args[n++] = "viz.view";
    args[n++] = a->dir;
    if (a->out != NULL) {
        args[n++] = "-o";
        args[n++] = a->out;
    }
    if (scene != NULL) {
        args[n++] = "--scene";
        args[n++] = scene;
    }
    if (a->max_values != NULL) {
        args[n++] = "--max-values";
        args[n++] = a->max_values;
    }
    args[n] = NULL;
    return cli_script_run("view", viewer, (char *const *) args);
}

/* the page of one run: its scene from the model, then the viewer */
static int view_run(const view_args *a, const char *viewer)
{
    char scene[4096];
    int rc = cli_script_check_run("view", a->dir);
    if (rc != CLI_EXIT_OK)
        return rc;
    if (cli_scene_temp(scene, sizeof scene) != 0) {
        fprintf(stderr, "clink: view: %s: cannot create: %s\n", scene, strerror(errno));
        return CLI_EXIT_IO;
    }
    /* without its model the page has no mechanism (it says so); a --model must load */
    rc = cli_scene_write("view", a->dir, a->model, scene, a->model == NULL);
    if (rc == CLI_EXIT_IO || (rc != CLI_EXIT_OK && a->model != NULL)) {
        unlink(scene);
        return rc;
    }
    rc = view_spawn(a, viewer, rc == CLI_EXIT_OK ? scene : NULL);
    if (unlink(scene) != 0 && rc == CLI_EXIT_OK) {
        fprintf(stderr, "clink: view: %s: cannot remove: %s\n", scene, strerror(errno));
        rc = CLI_EXIT_IO;
    }
    return rc;
}

/* the output of clink modes -o DIR: each film's page DIR/mode-K/view.html, then the page
   choosing among the modes (viz.modespage) */
static int view_modes(const view_args *a, const char *viewer)
{
    char sub[4200], json[4400];
    int rc = CLI_EXIT_OK;
    for (int k = 1; rc == CLI_EXIT_OK; k++) {
        view_args m = *a;
        snprintf(sub, sizeof sub, "%s/mode-%d", a->dir, k);
        snprintf(json, sizeof json, "%s/summary.json", sub);
        if (!cli_script_is_file(json)) {
            /* a mode without a film (overdamped, zero) leaves a gap: look a little further */
            int more = 0;
            for (int g = k + 1; g < k + 64 && !more; g++) {
                snprintf(json, sizeof json, "%s/mode-%d/summary.json", a->dir, g);
                more = cli_script_is_file(json);
            }
            if (!more)
                break;
            continue;
        }
        m.dir = sub;
        m.out = NULL;
        rc = view_run(&m, viewer);
    }
    if (rc != CLI_EXIT_OK)
        return rc;
    const char *args[8];
    int n = 0;
    args[n++] = cli_script_python();
    args[n++] = "-m";
    args[n++] = "viz.modespage";
    args[n++] = a->dir;
    if (a->out != NULL) {
        args[n++] = "-o";
        args[n++] = a->out;
    }
    args[n] = NULL;
    return cli_script_run("view", viewer, (char *const *) args);
}

/* dir holds a sweep's table */
static int view_is_sweep(const char *dir)
{
    char path[4096];

    snprintf(path, sizeof path, "%s/sweep.csv", dir);
    return cli_script_is_file(path);
}

int cmd_view(int argc, char **argv)
{
    view_args a = {NULL, NULL, NULL, NULL};
    const char *viewer;
    char vbuf[4096], modes[4200];
    int rc;

    rc = cli_parse_options(argc, argv, view_options, view_apply, &a);
    if (rc == CLI_HELP) {
        view_usage(stdout);
        return CLI_EXIT_OK;
    }
    if (rc != CLI_EXIT_OK)
        return rc;
    if (a.dir == NULL) {
        view_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (a.out != NULL && cli_check_output_path("view", "-o", a.out, 0) != CLI_EXIT_OK)
        return CLI_EXIT_USAGE;
    viewer = cli_viewer_dir(vbuf, sizeof vbuf);
    if (viewer == NULL) {
        fprintf(stderr, "clink: view: the viewer (the Python package clink's viz) not found "
                        "(set CLINK_VIEWER_PATH)\n");
        return CLI_EXIT_FAIL;
    }
    if (view_is_sweep(a.dir))
        return view_spawn(&a, viewer, NULL);
    snprintf(modes, sizeof modes, "%s/modes.json", a.dir);
    if (cli_script_is_file(modes))
        return view_modes(&a, viewer);
    rc = view_run(&a, viewer);
    return rc;
}
