/*
 * `clink animate DIR [-o OUTDIR] [options]`: an MP4 and a GIF of the mechanism
 * of a run's output directory, drawn frame by frame by scripts/animate_run.py
 * with matplotlib and encoded by ffmpeg: every body from its shapes and joint
 * points (read from the run's model into a temporary scene file by
 * cli_scene_write), clearance joints with the clearance magnified, contact
 * forces as scaled arrows, the simulated time in the corner; frames evenly
 * spaced in simulated time, optionally denser through impacts. With --frame T
 * --png FILE it draws one frame instead. Options are checked here (exit 2)
 * before anything runs; the script and the interpreter are found as for
 * `clink plot` ($CLINK_ANIMATE_SCRIPT, $CLINK_PYTHON).
 */
#define _POSIX_C_SOURCE 200809L

#include "cli.h"
#include "cli_script.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void animate_usage(FILE *out)
{
    fprintf(
        out,
        "usage: clink animate DIR [-o OUTDIR] [--fps F] [--duration S] [--frames N]\n"
        "                     [--size WxH] [--clearance-scale K] [--slow-impacts F]\n"
        "                     [--format mp4,gif] [--model MODEL.xml] [--frame T --png FILE]\n\n"
        "Writes OUTDIR/animation.mp4 and OUTDIR/animation.gif (default OUTDIR: DIR), a\n"
        "film of the run in DIR (written by clink run): every body drawn from its contact\n"
        "shapes and joint points, bearings and journals of clearance joints with the\n"
        "clearance magnified, contact forces as arrows (scale bar, largest labelled),\n"
        "the simulated time in the corner. Frames are evenly spaced in simulated time.\n\n"
        "  -o OUTDIR            where the films go (created if missing)\n"
        "  --fps F              frames per second of film (default 25)\n"
        "  --duration S         seconds of film (default 10; at most one frame per row)\n"
        "  --frames N           number of frames (overrides --duration)\n"
        "  --size WxH           pixels, even, >= 32 (default 800x450; the GIF at most 480\n"
        "                       wide)\n"
        "  --clearance-scale K  draw clearances K times wider (default: a round factor\n"
        "                       making the largest about 3%% of the view; printed on the film)\n"
        "  --slow-impacts F     F times more frames through every impact of impacts.csv\n"
        "  --format LIST        mp4, gif or both (default mp4,gif)\n"
        "  --model FILE         the run's model, when the path recorded in summary.json\n"
        "                       (\"source\") no longer leads to it\n"
        "  --frame T --png FILE only the frame at simulated time T, as a PNG (and\n"
        "                       FILE.json: pixel transform and body colours)\n"
        "Environment: CLINK_PYTHON (interpreter), CLINK_ANIMATE_SCRIPT (script).\n\n"
        "Exit status: 0 written; 1 the run failed or was interrupted (filmed up to there\n"
        "and marked), or matplotlib, NumPy, ffmpeg are missing or ffmpeg failed; 2 DIR is\n"
        "not a finished run, its model cannot be read, or a bad option; 3 a file could\n"
        "not be written.\n");
}

typedef struct animate_args {
    const char *dir, *out, *model, *fps, *duration, *frames, *size, *clearance, *slow, *format,
        *frame, *png;
} animate_args;

/* the option's slot in a, or NULL */
static const char **animate_slot(animate_args *a, const char *opt)
{
    static const struct {
        const char *name;
        size_t offset;
    } opts[] = {
        {"-o", offsetof(animate_args, out)},
        {"--model", offsetof(animate_args, model)},
        {"--fps", offsetof(animate_args, fps)},
        {"--duration", offsetof(animate_args, duration)},
        {"--frames", offsetof(animate_args, frames)},
        {"--size", offsetof(animate_args, size)},
        {"--clearance-scale", offsetof(animate_args, clearance)},
        {"--slow-impacts", offsetof(animate_args, slow)},
        {"--format", offsetof(animate_args, format)},
        {"--frame", offsetof(animate_args, frame)},
        {"--png", offsetof(animate_args, png)},
    };
    size_t i;

    for (i = 0; i < sizeof opts / sizeof opts[0]; i++)
        if (strcmp(opt, opts[i].name) == 0)
            return (const char **) (void *) ((char *) a + opts[i].offset);
    return NULL;
}

/* the numbers and lists the options hold are sound; CLI_EXIT_OK or CLI_EXIT_USAGE */
static int animate_check(const animate_args *a)
{
    const char *positive[] = {a->fps, a->duration, a->clearance, a->slow};
    const char *names[] = {"--fps", "--duration", "--clearance-scale", "--slow-impacts"};
    double v, count;
    const char *why;
    int i, w, h, n;
    char tail;

    for (i = 0; i < 4; i++) {
        if (positive[i] == NULL)
            continue;
        if (cli_parse_double(names[i], positive[i], &v) != 0)
            return CLI_EXIT_USAGE;
        if (!(v > 0.0) || (i == 3 && v < 1.0))
            return cli_usage_error("animate: %s: '%s' must be %s", names[i], positive[i],
                                   i == 3 ? ">= 1" : "> 0");
    }
    if (a->frames != NULL && cli_read_count(a->frames, 1e6, &count, &why) != 0)
        return cli_usage_error("animate: --frames: '%s' %s (1 .. 1e6)", a->frames, why);
    if (a->size != NULL && (sscanf(a->size, "%dx%d%n%c", &w, &h, &n, &tail) != 2 || w < 32 ||
                            h < 32 || w > 7680 || h > 4320 || w % 2 != 0 || h % 2 != 0))
        return cli_usage_error("animate: --size: '%s' is not WxH with even W, H in 32 .. "
                               "7680 x 4320",
                               a->size);
    if (a->format != NULL && strcmp(a->format, "mp4") != 0 && strcmp(a->format, "gif") != 0 &&
        strcmp(a->format, "mp4,gif") != 0 && strcmp(a->format, "gif,mp4") != 0)
        return cli_usage_error("animate: --format: '%s' is not mp4, gif or mp4,gif", a->format);
    if (a->frame != NULL && cli_parse_double("--frame", a->frame, &v) != 0)
        return CLI_EXIT_USAGE;
    if ((a->frame == NULL) != (a->png == NULL))
        return cli_usage_error("animate: --frame and --png go together");
    if (a->model != NULL && cli_check_input_file("animate", a->model) != 0)
        return CLI_EXIT_USAGE;
    return CLI_EXIT_OK;
}

/* CLI_EXIT_OK, or CLI_EXIT_USAGE after the message; -1 for --help (printed) */
static int animate_parse(int argc, char **argv, animate_args *a)
{
    int i;

    memset(a, 0, sizeof *a);
    for (i = 1; i < argc; i++) {
        const char **slot = animate_slot(a, argv[i]);
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            animate_usage(stdout);
            return -1;
        } else if (slot != NULL) {
            if (i + 1 >= argc)
                return cli_usage_error("animate: %s needs a value", argv[i]);
            *slot = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_usage_error("animate: unknown option '%s' (see clink animate --help)",
                                   argv[i]);
        } else if (a->dir != NULL) {
            return cli_usage_error("animate: one run directory only");
        } else {
            a->dir = argv[i];
        }
    }
    if (a->dir == NULL) {
        animate_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    return animate_check(a);
}

/* dir is a directory with a time series */
static int animate_check_run(const char *dir)
{
    struct stat st;
    char csv[4096];

    if (stat(dir, &st) != 0)
        return cli_usage_error("animate: %s: %s (run `clink run MODEL.xml -o %s` first)", dir,
                               strerror(errno), dir);
    if (!S_ISDIR(st.st_mode))
        return cli_usage_error("animate: %s: %s", dir, strerror(ENOTDIR));
    snprintf(csv, sizeof csv, "%s/timeseries.csv", dir);
    if (!cli_script_is_file(csv))
        return cli_usage_error("animate: %s/timeseries.csv does not exist (a killed run leaves "
                               "only .incomplete files; run `clink run MODEL.xml -o %s`)",
                               dir, dir);
    return CLI_EXIT_OK;
}

static int animate_spawn(const animate_args *a, const char *script, const char *scene)
{
    const char *args[40];
    const char *pass[][2] = {{"--out", a->out},           {"--fps", a->fps},
                             {"--duration", a->duration}, {"--frames", a->frames},
                             {"--size", a->size},         {"--clearance-scale", a->clearance},
                             {"--slow-impacts", a->slow}, {"--format", a->format},
                             {"--frame", a->frame},       {"--png", a->png}};
    size_t i;
    int n = 0;

    args[n++] = cli_script_python();
    args[n++] = script;
    args[n++] = a->dir;
    args[n++] = "--scene";
    args[n++] = scene;
    for (i = 0; i < sizeof pass / sizeof pass[0]; i++) {
        if (pass[i][1] != NULL) {
            args[n++] = pass[i][0];
            args[n++] = pass[i][1];
        }
    }
    args[n] = NULL;
    return cli_script_run("animate", (char *const *) args);
}

int cmd_animate(int argc, char **argv)
{
    const char *script, *tmp = getenv("TMPDIR");
    char sbuf[4096], scene[4096];
    animate_args a;
    int rc, fd;

    rc = animate_parse(argc, argv, &a);
    if (rc != CLI_EXIT_OK)
        return rc < 0 ? CLI_EXIT_OK : rc;
    rc = animate_check_run(a.dir);
    if (rc != CLI_EXIT_OK)
        return rc;
    script = cli_script_find("animate_run.py", "CLINK_ANIMATE_SCRIPT", sbuf, sizeof sbuf);
    if (script == NULL) {
        fprintf(stderr,
                "clink: animate: scripts/animate_run.py not found (set CLINK_ANIMATE_SCRIPT)\n");
        return CLI_EXIT_FAIL;
    }
    snprintf(scene, sizeof scene, "%s/clink-scene-XXXXXX",
             tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
    fd = mkstemp(scene);
    if (fd < 0 || close(fd) != 0) {
        fprintf(stderr, "clink: animate: %s: cannot create: %s\n", scene, strerror(errno));
        if (fd >= 0)
            unlink(scene);
        return CLI_EXIT_IO;
    }
    rc = cli_scene_write("animate", a.dir, a.model, scene, 0);
    if (rc == CLI_EXIT_OK)
        rc = animate_spawn(&a, script, scene);
    if (unlink(scene) != 0 && rc == CLI_EXIT_OK) {
        fprintf(stderr, "clink: animate: %s: cannot remove: %s\n", scene, strerror(errno));
        rc = CLI_EXIT_IO;
    }
    return rc;
}
