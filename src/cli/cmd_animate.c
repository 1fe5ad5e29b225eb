/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `clink animate DIR [-o OUTDIR] [options]`: an MP4 and a GIF of the mechanism
 * of a run's output directory, drawn frame by frame by the Python module
 * viz.animate (python/clink/viz/animate.py) with matplotlib and encoded by ffmpeg: every body from
 * its shapes and joint points (read from the run's model into a temporary scene file by
 * cli_scene_write), clearance joints with the clearance magnified, contact
 * forces as scaled arrows, the simulated time in the corner; frames evenly
 * spaced in simulated time, optionally denser through impacts. With --frame T
 * --png FILE it draws one frame instead. Options are checked here (exit 2)
 * before anything runs; the viewer and the interpreter are found as for
 * `clink plot` ($CLINK_VIEWER_PATH, $CLINK_PYTHON).
 */
#define _POSIX_C_SOURCE 200809L

#include "cli.h"
#include "cli_script.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum {
    ANIM_OUTPUT = 1,
    ANIM_FPS,
    ANIM_DURATION,
    ANIM_FRAMES,
    ANIM_SIZE,
    ANIM_CLEARANCE,
    ANIM_SLOW,
    ANIM_FORMAT,
    ANIM_MODEL,
    ANIM_FRAME,
    ANIM_PNG,
    ANIM_MODE,
    ANIM_COUNT_
};

/* the options of `clink animate` (cli.h, "Options"); the ids index animate_args.value */
static const cli_option animate_options[] = {
    {ANIM_OUTPUT, "output", 'o', "OUTDIR", "directory of the films (default DIR)"},
    {ANIM_FPS, "fps", 0, "F", "frames per second of film (default 25)"},
    {ANIM_DURATION, "duration", 0, "S", "seconds of film (default 10; at most one\nframe per row)"},
    {ANIM_FRAMES, "frames", 0, "N", "number of frames, 1 .. 1e6 (overrides --duration)"},
    {ANIM_SIZE, "size", 0, "WxH",
     "pixels, even, 32 .. 7680 x 4320 (default 800x450;\n"
     "the GIF at most 480 wide)"},
    {ANIM_CLEARANCE, "clearance-scale", 0, "K",
     "draw clearances K times wider (default: a round\n"
     "factor making the largest about 3% of the view;\n"
     "printed on the film)"},
    {ANIM_SLOW, "slow-impacts", 0, "F", "F >= 1 times more frames through every impact"},
    {ANIM_FORMAT, "format", 0, "LIST", "mp4, gif or mp4,gif (default mp4,gif)"},
    {ANIM_MODEL, "model", 0, "FILE",
     "the run's model, when the path recorded in\n"
     "summary.json (\"source\") no longer leads to it"},
    {ANIM_FRAME, "frame", 0, "T", "only the frame at simulated time T (with --png)"},
    {ANIM_PNG, "png", 0, "FILE",
     "where that frame goes, with FILE.json (pixel\n"
     "transform, body colours)"},
    {ANIM_MODE, "mode", 0, "K",
     "DIR is the output of clink modes -o DIR: film\nmode K (its run DIR/mode-K)"},
    {0, NULL, 0, NULL, NULL},
};

static void animate_usage(FILE *out)
{
    fprintf(out, "usage: clink animate DIR [-o OUTDIR] [--fps F] [--duration S] [--frames N]\n"
                 "                     [--size WxH] [--clearance-scale K] [--slow-impacts F]\n"
                 "                     [--format mp4,gif] [--model MODEL.xml]\n"
                 "                     [--frame T --png FILE] [--mode K]\n\n"
                 "Writes OUTDIR/animation.mp4 and OUTDIR/animation.gif, a film of the run in DIR\n"
                 "(written by clink run): every body drawn from its contact shapes and joint\n"
                 "points, bearings and journals of clearance joints with the clearance\n"
                 "magnified, contact forces as arrows (scale bar, largest labelled), the\n"
                 "simulated time in the corner. Frames are evenly spaced in simulated time.\n"
                 "Environment: CLINK_PYTHON (interpreter), CLINK_VIEWER_PATH (the folder\n"
                 "holding the viewer package viz).\n\n");
    cli_print_options(out, animate_options);
    fprintf(out, "\nExit status: 0 written; 1 the run failed or was interrupted (filmed up to\n"
                 "there and marked), or matplotlib, NumPy, ffmpeg are missing or ffmpeg failed;\n"
                 "2 DIR is not a finished run, its model cannot be read, OUTDIR is a file, or a\n"
                 "bad option; 3 a file could not be written.\n");
}

typedef struct animate_args {
    const char *dir;
    const char *value[ANIM_COUNT_]; /* the text of each option given, by id */
} animate_args;

/* the value of option id is sound; CLI_EXIT_OK or CLI_EXIT_USAGE after the message */
static int animate_check_value(int id, const char *spelled, const char *value)
{
    double v;
    const char *why;
    int w, h, n;
    char tail;

    switch (id) {
    case ANIM_FPS:
    case ANIM_DURATION:
    case ANIM_CLEARANCE:
    case ANIM_SLOW:
        if (cli_parse_double(spelled, value, &v) != 0)
            return CLI_EXIT_USAGE;
        if (!(v > 0.0) || (id == ANIM_SLOW && v < 1.0))
            return cli_usage_error("animate: %s: '%s' must be %s", spelled, value,
                                   id == ANIM_SLOW ? ">= 1" : "> 0");
        return CLI_EXIT_OK;
    case ANIM_FRAMES:
        if (cli_read_count(value, 1e6, &v, &why) != 0)
            return cli_usage_error("animate: %s: '%s' %s (1 .. 1e6)", spelled, value, why);
        return CLI_EXIT_OK;
    case ANIM_SIZE:
        if (sscanf(value, "%dx%d%n%c", &w, &h, &n, &tail) != 2 || w < 32 || h < 32 || w > 7680 ||
            h > 4320 || w % 2 != 0 || h % 2 != 0)
            return cli_usage_error("animate: %s: '%s' is not WxH with even W, H in 32 .. "
                                   "7680 x 4320",
                                   spelled, value);
        return CLI_EXIT_OK;
    case ANIM_FORMAT:
        if (strcmp(value, "mp4") != 0 && strcmp(value, "gif") != 0 &&
            strcmp(value, "mp4,gif") != 0 && strcmp(value, "gif,mp4") != 0)
            return cli_usage_error("animate: %s: '%s' is not mp4, gif or mp4,gif", spelled, value);
        return CLI_EXIT_OK;
    case ANIM_FRAME:
        return cli_parse_double(spelled, value, &v) == 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
    case ANIM_MODE:
        if (cli_read_count(value, 1e6, &v, &why) != 0)
            return cli_usage_error("animate: %s: '%s' %s (a mode number, 1 .. 1e6)", spelled, value,
                                   why);
        return CLI_EXIT_OK;
    case ANIM_MODEL:
        return cli_check_input_file("animate", value) == 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
    case ANIM_OUTPUT:
    case ANIM_PNG:
        if (value[0] == '\0')
            return cli_usage_error("animate: %s: the name is empty", spelled);
        return CLI_EXIT_OK;
    default:
        return CLI_EXIT_OK;
    }
}

static int animate_apply(void *ctx, int id, const char *spelled, const char *value)
{
    animate_args *a = ctx;
    int rc;

    if (id > 0 && id < ANIM_COUNT_) {
        rc = animate_check_value(id, spelled, value);
        if (rc == CLI_EXIT_OK)
            a->value[id] = value;
        return rc;
    }
    if (a->dir != NULL)
        return cli_usage_error("animate: one run directory only (got '%s' and '%s')", a->dir,
                               value);
    a->dir = value;
    return CLI_EXIT_OK;
}

static int animate_spawn(const animate_args *a, const char *viewer, const char *scene)
{
    /* the viewer's spelling of each option, by id */
    static const char *const flag[ANIM_COUNT_] = {NULL,
                                                  "--out",
                                                  "--fps",
                                                  "--duration",
                                                  "--frames",
                                                  "--size",
                                                  "--clearance-scale",
                                                  "--slow-impacts",
                                                  "--format",
                                                  "--model",
                                                  "--frame",
                                                  "--png",
                                                  NULL};
    const char *args[2 * ANIM_COUNT_ + 8];
    int id, n = 0;

    args[n++] = cli_script_python();
    args[n++] = "-m";
    args[n++] = "viz.animate";
    args[n++] = a->dir;
    args[n++] = "--scene";
    args[n++] = scene;
    for (id = 1; id < ANIM_COUNT_; id++) {
        if (a->value[id] != NULL && flag[id] != NULL && id != ANIM_MODEL) {
            args[n++] = flag[id];
            args[n++] = a->value[id];
        }
    }
    args[n] = NULL;
    return cli_script_run("animate", viewer, (char *const *) args);
}

int cmd_animate(int argc, char **argv)
{
    animate_args a;
    const char *viewer;
    char vbuf[4096], scene[4096], mode_dir[4200];
    int rc;

    memset(&a, 0, sizeof a);
    rc = cli_parse_options(argc, argv, animate_options, animate_apply, &a);
    if (rc == CLI_HELP) {
        animate_usage(stdout);
        return CLI_EXIT_OK;
    }
    if (rc != CLI_EXIT_OK)
        return rc;
    if (a.dir == NULL) {
        animate_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if ((a.value[ANIM_FRAME] == NULL) != (a.value[ANIM_PNG] == NULL))
        return cli_usage_error("animate: --frame and --png go together");
    if (a.value[ANIM_OUTPUT] != NULL &&
        cli_check_output_path("animate", "-o", a.value[ANIM_OUTPUT], 1) != CLI_EXIT_OK)
        return CLI_EXIT_USAGE;
    if (a.value[ANIM_PNG] != NULL &&
        cli_check_output_path("animate", "--png", a.value[ANIM_PNG], 0) != CLI_EXIT_OK)
        return CLI_EXIT_USAGE;
    /* a mode's film is the synthetic run clink modes -o DIR wrote in DIR/mode-K */
    if (a.value[ANIM_MODE] != NULL) {
        snprintf(mode_dir, sizeof mode_dir, "%s/mode-%.0f", a.dir,
                 strtod(a.value[ANIM_MODE], NULL));
        if (access(mode_dir, F_OK) != 0)
            return cli_usage_error("animate: --mode %s: %s: no such film (clink modes -o %s "
                                   "films the oscillating modes only; see DIR/modes.csv)",
                                   a.value[ANIM_MODE], mode_dir, a.dir);
        a.dir = mode_dir;
    }
    rc = cli_script_check_run("animate", a.dir);
    if (rc != CLI_EXIT_OK)
        return rc;
    viewer = cli_viewer_dir(vbuf, sizeof vbuf);
    if (viewer == NULL) {
        fprintf(stderr, "clink: animate: the viewer (the Python package clink's viz) not found "
                        "(set CLINK_VIEWER_PATH)\n");
        return CLI_EXIT_FAIL;
    }
    if (cli_scene_temp(scene, sizeof scene) != 0) {
        fprintf(stderr, "clink: animate: %s: cannot create: %s\n", scene, strerror(errno));
        return CLI_EXIT_IO;
    }
    rc = cli_scene_write("animate", a.dir, a.value[ANIM_MODEL], scene, 0);
    if (rc == CLI_EXIT_OK)
        rc = animate_spawn(&a, viewer, scene);
    if (unlink(scene) != 0 && rc == CLI_EXIT_OK) {
        fprintf(stderr, "clink: animate: %s: cannot remove: %s\n", scene, strerror(errno));
        rc = CLI_EXIT_IO;
    }
    return rc;
}
