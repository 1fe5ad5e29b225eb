/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The Python side of `clink plot` and `clink animate`: where their viewer
 * package is (viz, in the Python package clink: python/clink/viz), which
 * interpreter runs it, how its exit status maps to clink's, and scene.json,
 * the bodies' shapes and joint points in body coordinates (read from the run's
 * model through the public model queries) and the beams as chains of their
 * nodes, that the viewer draws the mechanism and chooses the crank-angle axis
 * from.
 */
#define _POSIX_C_SOURCE 200809L

#include "cli_script.h"

#include "cli.h"
#include "clink/model.h"
#include "clink/xml.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int cli_script_is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* dir/viz/plot.py is a file: dir holds the viewer package */
static int viewer_in(const char *dir)
{
    char path[4096];
    int w = snprintf(path, sizeof path, "%s/viz/plot.py", dir);

    return w > 0 && (size_t) w < sizeof path && cli_script_is_file(path);
}

/*
 * the package folder named by the record file (its one line: the site directory,
 * absolute or relative to the file's folder) into buf when it holds the viewer; 0 or -1
 */
static int viewer_recorded(const char *record_dir, char *buf, size_t size)
{
    char path[4096], line[4096];
    size_t n;
    FILE *f;
    int w = snprintf(path, sizeof path, "%s/python-site", record_dir);

    if (w <= 0 || (size_t) w >= sizeof path || (f = fopen(path, "r")) == NULL)
        return -1;
    if (fgets(line, sizeof line, f) == NULL) {
        fclose(f);
        return -1;
    }
    fclose(f);
    n = strcspn(line, "\r\n");
    line[n] = '\0';
    if (n == 0)
        return -1;
    if (line[0] == '/')
        w = snprintf(buf, size, "%s/clink", line);
    else
        w = snprintf(buf, size, "%s/%s/clink", record_dir, line);
    return w > 0 && (size_t) w < size && viewer_in(buf) ? 0 : -1;
}

const char *cli_viewer_dir(char *buf, size_t size)
{
    const char *env = getenv("CLINK_VIEWER_PATH");
    char exe[2048], dir[4096];
    ssize_t n;
    int w;

    if (env != NULL && env[0] != '\0')
        return env;
    n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        char *slash;
        exe[n] = '\0';
        slash = strrchr(exe, '/');
        if (slash != NULL) {
            *slash = '\0';
            w = snprintf(dir, sizeof dir, "%s/../share/clink", exe);
            if (w > 0 && (size_t) w < sizeof dir && viewer_recorded(dir, buf, size) == 0)
                return buf;
        }
    }
    w = snprintf(buf, size, "%s/python/clink", CLINK_DATADIR_BUILD);
    if (w > 0 && (size_t) w < size && viewer_in(buf))
        return buf;
    if (viewer_recorded(CLINK_DATADIR_INSTALL, buf, size) == 0)
        return buf;
    return NULL;
}

int cli_script_check_run(const char *command, const char *dir)
{
    static const char *const series[] = {"timeseries.csv", "results.h5"};
    struct stat st;
    char path[4096];
    size_t k;

    if (stat(dir, &st) != 0)
        return cli_usage_error("%s: %s: %s (run `clink run MODEL.xml -o %s` first)", command, dir,
                               strerror(errno), dir);
    if (!S_ISDIR(st.st_mode))
        return cli_usage_error("%s: %s: %s", command, dir, strerror(ENOTDIR));
    for (k = 0; k < sizeof series / sizeof series[0]; k++) {
        snprintf(path, sizeof path, "%s/%s", dir, series[k]);
        if (cli_script_is_file(path))
            return CLI_EXIT_OK;
    }
    /* a killed run leaves its files as NAME.incomplete */
    for (k = 0; k < sizeof series / sizeof series[0]; k++) {
        snprintf(path, sizeof path, "%s/%s.incomplete", dir, series[k]);
        if (cli_script_is_file(path))
            return cli_usage_error("%s: %s: the run did not finish (killed, or still "
                                   "running): only .incomplete files",
                                   command, dir);
    }
    return cli_usage_error("%s: %s holds no run: neither timeseries.csv nor results.h5 "
                           "(run `clink run MODEL.xml -o %s` first)",
                           command, dir, dir);
}

const char *cli_script_python(void)
{
    const char *python = getenv("CLINK_PYTHON");

    if (python == NULL || python[0] == '\0')
        python = cli_script_is_file("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
    return python;
}

/* dir first on $PYTHONPATH; 0, or -1 with errno */
static int viewer_path(const char *dir)
{
    const char *old = getenv("PYTHONPATH");
    char path[8192];
    int w;

    if (old != NULL && old[0] != '\0')
        w = snprintf(path, sizeof path, "%s:%s", dir, old);
    else
        w = snprintf(path, sizeof path, "%s", dir);
    if (w < 0 || (size_t) w >= sizeof path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return setenv("PYTHONPATH", path, 1);
}

int cli_script_run(const char *command, const char *dir, char *const *argv)
{
    int status;
    pid_t pid;

    if (viewer_path(dir) != 0) {
        fprintf(stderr, "clink: %s: cannot set PYTHONPATH: %s\n", command, strerror(errno));
        return CLI_EXIT_FAIL;
    }
    fflush(stdout);
    pid = fork();
    if (pid < 0) {
        fprintf(stderr, "clink: %s: cannot start %s: %s\n", command, argv[0], strerror(errno));
        return CLI_EXIT_FAIL;
    }
    if (pid == 0) {
        execvp(argv[0], argv);
        fprintf(stderr, "clink: %s: cannot run %s: %s\n", command, argv[0], strerror(errno));
        _exit(127);
    }
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "clink: %s: %s\n", command, strerror(errno));
            return CLI_EXIT_FAIL;
        }
    }
    if (WIFEXITED(status)) {
        switch (WEXITSTATUS(status)) {
        case 0:
            return CLI_EXIT_OK;
        case 1:
        case 4:
        case 127: /* the child said it could not run the interpreter */
            return CLI_EXIT_FAIL;
        case 2:
            return CLI_EXIT_USAGE;
        case 3:
            return CLI_EXIT_IO;
        default:
            fprintf(stderr, "clink: %s: %s -m %s exited with status %d\n", command, argv[0],
                    argv[2], WEXITSTATUS(status));
            return CLI_EXIT_FAIL;
        }
    }
    fprintf(stderr, "clink: %s: %s -m %s was killed by signal %d\n", command, argv[0], argv[2],
            WTERMSIG(status));
    return CLI_EXIT_FAIL;
}

/* ---- the model's path from summary.json ------------------------------------ */

/* reads the JSON string starting at *p (after the opening quote) into out; 0 or -1 */
static int scene_json_string(const char *p, char *out, size_t size)
{
    size_t n = 0;

    while (*p != '\0' && *p != '"') {
        char c = *p++;
        if (c == '\\') {
            c = *p++;
            switch (c) {
            case 'n':
                c = '\n';
                break;
            case 't':
                c = '\t';
                break;
            case '"':
            case '\\':
            case '/':
                break;
            default:
                return -1; /* \u escapes and the rest: not a path clink wrote */
            }
        }
        if (n + 1 >= size)
            return -1;
        out[n++] = c;
    }
    if (*p != '"')
        return -1;
    out[n] = '\0';
    return 0;
}

/* the "source" of run_dir/summary.json into out; 0, or -1 with the reason in why */
static int scene_source(const char *run_dir, char *out, size_t size, const char **why)
{
    char path[4096], text[65536];
    size_t n;
    const char *p;
    FILE *f;

    snprintf(path, sizeof path, "%s/summary.json", run_dir);
    f = fopen(path, "r");
    if (f == NULL) {
        *why = strerror(errno);
        return -1;
    }
    n = fread(text, 1, sizeof text - 1, f);
    if (ferror(f)) {
        *why = strerror(errno != 0 ? errno : EIO);
        fclose(f);
        return -1;
    }
    fclose(f);
    text[n] = '\0';
    p = strstr(text, "\"source\"");
    if (p == NULL) {
        *why = "no \"source\" in it";
        return -1;
    }
    p += strlen("\"source\"");
    while (*p == ' ' || *p == ':' || *p == '\n' || *p == '\t')
        p++;
    if (*p != '"' || scene_json_string(p + 1, out, size) != 0 || out[0] == '\0') {
        *why = "its \"source\" is not the path of a model file";
        return -1;
    }
    return 0;
}

/* ---- scene.json ------------------------------------------------------------- */

int cli_scene_temp(char *path, size_t size)
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

/* an entity's name as the CSV headers spell it: its own, or KIND + index */
static void scene_name(FILE *f, const clink_model *m, clink_entity kind, int id)
{
    static const char *const word[CLINK_ENTITY_COUNT_] = {
        "body", "joint",    "driver", "force", "pair", "clearance", "translational_clearance",
        "stop", "gear_pair"};
    const char *n = clink_model_name(m, kind, id);
    char buf[CLINK_NAME_MAX + 16];

    if (kind == CLINK_ENTITY_BODY && id == 0)
        snprintf(buf, sizeof buf, "ground");
    else if (n != NULL && n[0] != '\0')
        snprintf(buf, sizeof buf, "%s", n);
    else
        snprintf(buf, sizeof buf, "%s%d", word[kind], id);
    cli_json_string(f, buf);
}

static void scene_vec(FILE *f, const char *key, const double v[2])
{
    fprintf(f, "\"%s\": [%.17g, %.17g]", key, v[0], v[1]);
}

static void scene_shape(FILE *f, const char *key, const clink_shape_def *s)
{
    const char *type = clink_shape_type_name(s->type);

    fprintf(f, "\"%s\": {\"type\": \"%s\", ", key, type ? type : "unknown");
    if (s->type == CLINK_SHAPE_POLYGON) {
        fputs("\"vertices\": [", f);
        for (int i = 0; i < s->nvertices; i++)
            fprintf(f, "%s[%.17g, %.17g]", i ? ", " : "", s->vertices[i][0], s->vertices[i][1]);
        fputs("], ", f);
    }
    /* an arc or a profile: its outline sampled (the arc open, the profile closed) */
    double xy[180][2];
    int n = clink_shape_outline(s, s->type == CLINK_SHAPE_ARC ? 33 : 180, xy);
    if (n > 0) {
        fputs("\"vertices\": [", f);
        for (int i = 0; i < n; i++)
            fprintf(f, "%s[%.17g, %.17g]", i ? ", " : "", xy[i][0], xy[i][1]);
        fputs("], ", f);
    }
    scene_vec(f, "a", s->a);
    fputs(", ", f);
    scene_vec(f, "b", s->b);
    fputs(", ", f);
    scene_vec(f, "normal", s->normal);
    fprintf(f, ", \"radius\": %.17g}", isfinite(s->radius) ? s->radius : 0.0);
}

static void scene_bodies(FILE *f, const clink_model *m)
{
    int i, n = clink_model_count(m, CLINK_ENTITY_BODY);
    clink_body_def b;

    fputs("  \"bodies\": [", f);
    for (i = 0; i < n; i++) {
        fputs(i > 0 ? ",\n    {\"name\": " : "\n    {\"name\": ", f);
        scene_name(f, m, CLINK_ENTITY_BODY, i);
        if (i > 0 && clink_model_body(m, i, &b) == CLINK_OK)
            fprintf(f, ", \"mass\": %.17g, \"x\": %.17g, \"y\": %.17g, \"phi\": %.17g", b.mass, b.x,
                    b.y, b.phi);
        fputc('}', f);
    }
    fputs("\n  ],\n", f);
}

static void scene_joints(FILE *f, const clink_model *m)
{
    static const char *const type[] = {"revolute", "translational", "weld", "pin_slot", "gear"};
    int i, n = clink_model_count(m, CLINK_ENTITY_JOINT);
    clink_joint_def j;

    fputs("  \"joints\": [", f);
    for (i = 0; i < n; i++) {
        if (clink_model_joint(m, i, &j) != CLINK_OK)
            continue;
        fputs(i > 0 ? ",\n    {\"name\": " : "\n    {\"name\": ", f);
        scene_name(f, m, CLINK_ENTITY_JOINT, i);
        fprintf(f, ", \"type\": \"%s\", \"body_a\": ",
                (unsigned) j.type < CLINK_JOINT_TYPE_COUNT_ ? type[j.type] : "unknown");
        scene_name(f, m, CLINK_ENTITY_BODY, j.body_a);
        fputs(", \"body_b\": ", f);
        scene_name(f, m, CLINK_ENTITY_BODY, j.body_b);
        fputs(", ", f);
        scene_vec(f, "point_a", j.point_a);
        fputs(", ", f);
        scene_vec(f, "point_b", j.point_b);
        fputs(", ", f);
        scene_vec(f, "axis_a", j.axis_a);
        fputc('}', f);
    }
    fputs("\n  ],\n", f);
}

static void scene_clearances(FILE *f, const clink_model *m)
{
    int i, n = clink_model_count(m, CLINK_ENTITY_CLEARANCE_JOINT);
    clink_clearance_joint_def c;

    fputs("  \"clearance_joints\": [", f);
    for (i = 0; i < n; i++) {
        if (clink_model_clearance_joint(m, i, &c) != CLINK_OK)
            continue;
        fputs(i > 0 ? ",\n    {\"name\": " : "\n    {\"name\": ", f);
        scene_name(f, m, CLINK_ENTITY_CLEARANCE_JOINT, i);
        fputs(", \"journal\": ", f);
        scene_name(f, m, CLINK_ENTITY_BODY, c.journal_body);
        fputs(", \"bearing\": ", f);
        scene_name(f, m, CLINK_ENTITY_BODY, c.bearing_body);
        fputs(", ", f);
        scene_vec(f, "journal_point", c.journal_point);
        fputs(", ", f);
        scene_vec(f, "bearing_point", c.bearing_point);
        fprintf(f, ", \"journal_radius\": %.17g, \"bearing_radius\": %.17g}", c.journal_radius,
                c.bearing_radius);
    }
    fputs("\n  ],\n", f);
}

/* a gear pair drawn as its two pitch circles (radius r_b / cos(pressure angle)) */
static void scene_gear_pairs(FILE *f, const clink_model *m, int comma)
{
    int n = clink_model_count(m, CLINK_ENTITY_GEAR_PAIR);
    clink_gear_pair_def g;
    for (int i = 0; i < n; i++) {
        if (clink_model_gear_pair(m, i, &g) != CLINK_OK)
            continue;
        clink_shape_def c[2];
        memset(c, 0, sizeof c);
        for (int k = 0; k < 2; k++) {
            c[k].type = CLINK_SHAPE_CIRCLE;
            memcpy(c[k].a, k ? g.center2 : g.center1, sizeof c[k].a);
            c[k].radius = (k ? g.base_radius2 : g.base_radius1) / cos(g.pressure_angle);
        }
        fputs(comma || i > 0 ? ",\n    {\"name\": " : "\n    {\"name\": ", f);
        scene_name(f, m, CLINK_ENTITY_GEAR_PAIR, i);
        fputs(", \"body_a\": ", f);
        scene_name(f, m, CLINK_ENTITY_BODY, g.body1);
        fputs(", \"body_b\": ", f);
        scene_name(f, m, CLINK_ENTITY_BODY, g.body2);
        fputs(", ", f);
        scene_shape(f, "shape_a", &c[0]);
        fputs(", ", f);
        scene_shape(f, "shape_b", &c[1]);
        fputc('}', f);
    }
}

static void scene_contacts(FILE *f, const clink_model *m)
{
    int i, n = clink_model_count(m, CLINK_ENTITY_CONTACT_PAIR);
    clink_contact_pair_def p;

    fputs("  \"contacts\": [", f);
    for (i = 0; i < n; i++) {
        if (clink_model_contact_pair(m, i, &p) != CLINK_OK)
            continue;
        fputs(i > 0 ? ",\n    {\"name\": " : "\n    {\"name\": ", f);
        scene_name(f, m, CLINK_ENTITY_CONTACT_PAIR, i);
        fputs(", \"body_a\": ", f);
        scene_name(f, m, CLINK_ENTITY_BODY, p.body_a);
        fputs(", \"body_b\": ", f);
        scene_name(f, m, CLINK_ENTITY_BODY, p.body_b);
        fputs(", ", f);
        scene_shape(f, "shape_a", &p.shape_a);
        fputs(", ", f);
        scene_shape(f, "shape_b", &p.shape_b);
        fputc('}', f);
    }
    scene_gear_pairs(f, m, n > 0);
    fputs("\n  ],\n", f);
}

static void scene_drivers(FILE *f, const clink_model *m)
{
    static const char *const target[] = {"body_coordinate", "joint_angle", "joint_displacement"};
    int i, n = clink_model_count(m, CLINK_ENTITY_DRIVER);
    clink_driver_def d;

    fputs("  \"drivers\": [", f);
    for (i = 0; i < n; i++) {
        if (clink_model_driver(m, i, &d) != CLINK_OK)
            continue;
        fputs(i > 0 ? ",\n    {\"name\": " : "\n    {\"name\": ", f);
        scene_name(f, m, CLINK_ENTITY_DRIVER, i);
        fprintf(f, ", \"target\": \"%s\", \"body\": ",
                (unsigned) d.target < CLINK_DRIVER_TARGET_COUNT_ ? target[d.target] : "unknown");
        if (d.target == CLINK_DRIVE_BODY_COORDINATE)
            scene_name(f, m, CLINK_ENTITY_BODY, d.body);
        else
            fputs("null", f);
        fprintf(f, ", \"coordinate\": %d, \"joint\": ", d.coordinate);
        if (d.target == CLINK_DRIVE_BODY_COORDINATE)
            fputs("null", f);
        else
            scene_name(f, m, CLINK_ENTITY_JOINT, d.joint);
        fputc('}', f);
    }
    fputs("\n  ],\n", f);
}

static void scene_forces(FILE *f, const clink_model *m)
{
    int i, n = clink_model_count(m, CLINK_ENTITY_FORCE), first = 1;
    clink_force_def d;

    fputs("  \"springs\": [", f);
    for (i = 0; i < n; i++) {
        if (clink_model_force(m, i, &d) != CLINK_OK || d.type != CLINK_FORCE_SPRING_DAMPER)
            continue;
        fputs(first ? "\n    {\"name\": " : ",\n    {\"name\": ", f);
        first = 0;
        scene_name(f, m, CLINK_ENTITY_FORCE, i);
        fputs(", \"body_a\": ", f);
        scene_name(f, m, CLINK_ENTITY_BODY, d.body_a);
        fputs(", \"body_b\": ", f);
        scene_name(f, m, CLINK_ENTITY_BODY, d.body_b);
        fputs(", ", f);
        scene_vec(f, "point_a", d.point_a);
        fputs(", ", f);
        scene_vec(f, "point_b", d.point_b);
        fputc('}', f);
    }
    fputs("\n  ],\n", f);
}

/* a beam's name from its element's ("rod" of "rod.e3"; "beamK" for an unnamed element) */
static void scene_beam_name(const char *element, int k, char *buf, size_t size)
{
    const char *dot = element != NULL ? strrchr(element, '.') : NULL;
    if (dot != NULL && dot[1] == 'e' && dot[2] >= '0' && dot[2] <= '9')
        snprintf(buf, size, "%.*s", (int) (dot - element), element);
    else
        snprintf(buf, size, "beam%d", k);
}

/* the beams: each chain of beam elements (CLINK_FORCE_BEAM loads, one after the other, each
   starting at the node where the one before ends) as its name and its nodes in order */
static void scene_beams(FILE *f, const clink_model *m)
{
    int n = clink_model_count(m, CLINK_ENTITY_FORCE), beams = 0, last = -1;
    char name[CLINK_NAME_MAX + 16], prev[CLINK_NAME_MAX + 16] = "";
    clink_force_def d;

    fputs("  \"beams\": [", f);
    for (int i = 0; i < n; i++) {
        if (clink_model_force(m, i, &d) != CLINK_OK || d.type != CLINK_FORCE_BEAM)
            continue;
        scene_beam_name(d.name, beams, name, sizeof name);
        if (d.body_a != last || strcmp(name, prev) != 0) {
            fputs(beams > 0 ? "]},\n    {\"name\": " : "\n    {\"name\": ", f);
            cli_json_string(f, name);
            fputs(", \"nodes\": [", f);
            scene_name(f, m, CLINK_ENTITY_BODY, d.body_a);
            snprintf(prev, sizeof prev, "%s", name);
            beams++;
        }
        fputs(", ", f);
        scene_name(f, m, CLINK_ENTITY_BODY, d.body_b);
        last = d.body_b;
    }
    fputs(beams > 0 ? "]}\n  ]\n" : "\n  ]\n", f);
}

/* writes the scene of m to path; 0, or -1 with errno */
static int scene_file(const clink_model *m, const char *source, const char *path)
{
    FILE *f = fopen(path, "w");
    int err;

    if (f == NULL)
        return -1;
    fputs("{\n  \"source\": ", f);
    cli_json_string(f, source);
    fputs(",\n", f);
    scene_bodies(f, m);
    scene_joints(f, m);
    scene_clearances(f, m);
    scene_contacts(f, m);
    scene_drivers(f, m);
    scene_forces(f, m);
    scene_beams(f, m);
    fputs("}\n", f);
    err = ferror(f) ? (errno != 0 ? errno : EIO) : 0;
    if (fclose(f) != 0 && err == 0)
        err = errno != 0 ? errno : EIO;
    if (err != 0) {
        errno = err;
        return -1;
    }
    return 0;
}

int cli_scene_write(const char *command, const char *run_dir, const char *model_path,
                    const char *scene_path, int quiet)
{
    char source[4096], err[1024];
    const char *why = NULL;
    clink_model *model = NULL;

    if (model_path == NULL) {
        if (scene_source(run_dir, source, sizeof source, &why) != 0) {
            if (!quiet)
                fprintf(stderr, "clink: %s: %s/summary.json: %s (give the model with --model)\n",
                        command, run_dir, why);
            return CLI_EXIT_USAGE;
        }
        model_path = source;
    }
    if (clink_xml_load(model_path, &model, NULL, err, sizeof err) != CLINK_OK) {
        if (!quiet)
            fprintf(stderr, "clink: %s: the run's model: %s (give it with --model)\n", command,
                    err);
        return CLI_EXIT_USAGE;
    }
    if (scene_file(model, model_path, scene_path) != 0) {
        int e = errno;
        clink_model_destroy(&model);
        fprintf(stderr, "clink: %s: %s: cannot write: %s\n", command, scene_path, strerror(e));
        return CLI_EXIT_IO;
    }
    clink_model_destroy(&model);
    return CLI_EXIT_OK;
}
