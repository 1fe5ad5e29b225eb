/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `clink run MODEL.xml [-o DIR] [--set PATH=VALUE ...] [--t-end T] [--output-step H]
 * [--max-steps N] [--min-step H] [--wall-limit S] [--quiet] [--no-timing]`: loads the
 * model with its overrides by path (exit 2 on any error in the file, an override or
 * an unrunnable model, nothing written),
 * integrates it to t_end and samples it at t = 0, H, 2H, ... and t_end, with the
 * rows --rows asks for in between (every contact event and rows through each
 * impact by default), into DIR/timeseries.csv, DIR/impacts.csv and
 * DIR/summary.json, or DIR/results.h5 and DIR/summary.json with --format hdf5
 * (clink/output.h, docs/outputs.md: the previous results in DIR are removed
 * first, the new ones appear under their names only at the end).
 *
 * If the solver fails, the rows so far are kept, summary.json says "failed",
 * when and why, and the exit status is 1. SIGINT and SIGTERM set a flag that is
 * read between output rows: the run stops there, keeps its rows, says
 * "interrupted" and exits 128 + the signal. A step cannot be interrupted (a KLU
 * factorisation of a long chain's BDF Newton matrix takes seconds): when the run has not
 * reached its next row RUN_SIGNAL_GRACE seconds after the signal, or a second signal
 * comes, it ends at once (exit 128 + the signal) with its files left as NAME.incomplete,
 * as kill -9 leaves them. An I/O failure removes the run's
 * files and exits 3 with the file's name and the system's reason. Progress goes
 * to stderr only when stderr is a terminal and the run lasts more than a second.
 */
#define _POSIX_C_SOURCE 200809L

#include "cli.h"
#include "cli_lab.h"
#include "cli_progress.h"

#include "clink/model.h"
#include "clink/output.h"
#include "clink/sim.h"
#include "clink/xml.h"
#include "fmt_double.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* the signal that asked the run to stop (0: none); the one state a handler may set */
static volatile sig_atomic_t run_stop_signal;

/* s: how long after SIGINT or SIGTERM the run may take to reach its next row */
#define RUN_SIGNAL_GRACE 1

/* the run did not reach a row in time (or a second signal came): ends the process at once,
   only with what a handler may call (write, _exit) */
static void run_stop_now(int sig)
{
    static const char msg[] =
        "clink: run: stopped at once: the step in progress (a long factorisation?) did not "
        "end within 1 s of the signal; the rows so far are left in NAME.incomplete files, "
        "without summary.json (the next run into the directory removes them)\n";
    ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void) w;
    _exit(CLI_EXIT_SIGNAL_BASE + sig);
}

static void run_on_alarm(int sig)
{
    (void) sig;
    run_stop_now(run_stop_signal != 0 ? run_stop_signal : SIGTERM);
}

static void run_on_signal(int sig)
{
    if (run_stop_signal != 0)
        run_stop_now(sig);
    run_stop_signal = sig;
    alarm(RUN_SIGNAL_GRACE);
}

/* the options of `clink run`: one row each (cli.h, "Options"); run_apply reads them */
enum {
    RUN_OUTPUT = 1,
    RUN_T_END,
    RUN_OUTPUT_STEP,
    RUN_MAX_STEPS,
    RUN_MIN_STEP,
    RUN_WALL_LIMIT,
    RUN_QUIET,
    RUN_NO_TIMING,
    RUN_JSON,
    RUN_SET,
    RUN_ROWS,
    RUN_DENSE,
    RUN_FORMAT,
    RUN_STRICT,
    RUN_ALLOW_BAD_START
};

/* overrides by path one run takes (--set) */
enum { RUN_MAX_SETS = 32 };

static const cli_option run_options[] = {
    {RUN_OUTPUT, "output", 'o', "DIR",
     "output directory (created if missing; default out/NAME,\nwith --set out/NAME@OVERRIDES)"},
    {RUN_SET, "set", 0, "PATH=VALUE",
     "override an attribute of the model, "
     "repeatable:\nrevolute_clearance[rod_slider].clearance=2e-4\n"
     "(docs/xml-reference.md, \"Overrides by path\")"},
    {RUN_T_END, "t-end", 0, "T", "end time, s (overrides <settings t_end>)"},
    {RUN_OUTPUT_STEP, "output-step", 0, "H",
     "spacing of output rows, s (overrides <settings\noutput_step>)"},
    {RUN_MAX_STEPS, "max-steps", 0, "N", "integrator steps allowed in the run, 1 .. 1e15"},
    {RUN_MIN_STEP, "min-step", 0, "H", "smallest step accepted, s, 0 <= H < T (0: automatic)"},
    {RUN_WALL_LIMIT, "wall-limit", 0, "S", "wall-clock seconds allowed, >= 0 (0: no limit)"},
    {RUN_QUIET, "quiet", 'q', NULL,
     "no summary line on stdout, no warnings or progress\non stderr"},
    {RUN_STRICT, "strict", 0, NULL,
     "refuse (exit 2) a start the assembly had to move\nor a contact that starts penetrated or "
     "fast\n(clink check --strict; otherwise warnings)"},
    {RUN_ALLOW_BAD_START, "allow-bad-start", 0, NULL,
     "run an implausible start (a contact pressed beyond\nits size at t = 0) instead of "
     "refusing it (exit 2)"},
    {RUN_NO_TIMING, "no-timing", 0, NULL,
     "write \"wall_time\": null, so that summary.json too is\nidentical between two runs"},
    {RUN_ROWS, "rows", 0, "MODE",
     "auto (default): events up to 2000 columns, else\ngrid (told on stderr); events: the "
     "grid, every\ncontact event and rows through each impact; steps:\nthe grid, events and "
     "every integrator step; grid: the\noutput times alone (overrides <output rows>; column\n"
     "row.kind)"},
    {RUN_DENSE, "dense", 0, "N",
     "interpolated rows per integrator step in an impact,\n0 .. 1000 (default 1; overrides "
     "<output dense>)"},
    {RUN_FORMAT, "format", 0, "FMT",
     "the files' format, one of \"Formats\" below (overrides\n<output format>; "
     "docs/outputs.md)"},
    {RUN_JSON, "json", 0, NULL,
     "the result as one JSON object on stdout instead of\nthe summary line (docs/cli.md)"},
    {0, NULL, 0, NULL, NULL},
};

/* the formats of the library's table (clink_output_format_name of 0, 1, ... up to the
   first without a name), ", "-separated, into buf */
static void run_format_names(char *buf, size_t size)
{
    const char *name;
    size_t n = 0;

    buf[0] = '\0';
    for (int k = 0; (name = clink_output_format_name((clink_output_format) k)) != NULL; k++)
        if (n < size)
            n += (size_t) snprintf(buf + n, size - n, "%s%s", k > 0 ? ", " : "", name);
}

static void run_usage(FILE *out)
{
    char formats[256];

    fprintf(out,
            "usage: clink run MODEL.xml [OPTIONS]\n\n"
            "Integrates MODEL.xml and writes DIR/timeseries.csv, DIR/impacts.csv and\n"
            "DIR/summary.json (default DIR: out/NAME, NAME the mechanism's name), or\n"
            "DIR/results.h5 and DIR/summary.json with --format hdf5 (docs/outputs.md).\n"
            "The previous results in DIR are removed first; files of an unfinished run\n"
            "end in \".incomplete\". On a terminal, stderr shows the progress (simulated time,\n"
            "elapsed time, an estimate of the time left).\n\n"
            "Options (--opt VALUE or --opt=VALUE):\n");
    cli_print_options(out, run_options);
    run_format_names(formats, sizeof formats);
    fprintf(out, "\nFormats (--format): %s; the default: %s.\n", formats,
            clink_output_format_name(clink_default_output_options().format));
    fprintf(out, "\nExit status: 0 ok; 1 the solver failed (rows up to the failure kept, summary\n"
                 "\"failed\"); 2 input rejected (file, option, unrunnable model, an output\n"
                 "directory that is a file; nothing written); 3 I/O failed (no result left);\n"
                 "130 SIGINT, 143 SIGTERM (rows so far kept, summary \"interrupted\").\n");
}

/* mkdir -p; 0, or -1 with errno and the component that failed in failed_at */
static int make_dirs(const char *path, char *failed_at, size_t size)
{
    char buf[4096];
    size_t i, len = strlen(path);
    struct stat st;

    snprintf(failed_at, size, "%s", path);
    if (len >= sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(buf, path, len + 1);
    for (i = 1; i <= len; i++) {
        if (buf[i] == '/' || buf[i] == '\0') {
            char saved = buf[i];
            buf[i] = '\0';
            if (mkdir(buf, 0777) != 0) {
                int e = errno;
                /* EEXIST is fine for a directory only */
                if (e != EEXIST || stat(buf, &st) != 0 || !S_ISDIR(st.st_mode)) {
                    snprintf(failed_at, size, "%s", buf);
                    errno = e == EEXIST ? ENOTDIR : e;
                    return -1;
                }
            }
            buf[i] = saved;
        }
    }
    return 0;
}

/* what `run` reads from its command line */
typedef struct run_args {
    const char *path, *dir;
    double t_end, step;                     /* -1: the model's */
    double max_steps, min_step, wall_limit; /* -1: the model's */
    int rows, dense, format;                /* -1: the model's <output> */
    int quiet, timing, json;
    int strict;                     /* --strict: the start's findings refuse the run */
    int allow_bad_start;            /* --allow-bad-start: an implausible start runs */
    const char *sets[RUN_MAX_SETS]; /* --set PATH=VALUE, in order */
    int n_sets;
} run_args;

/* --rows, --dense, --format (cli_apply_fn's result) */
static int run_output_option(run_args *a, int id, const char *o, const char *v)
{
    static const char *const rows[] = {"events", "steps", "grid", "auto"};
    clink_output_format f;
    char formats[256];
    double d = 0;
    int k;

    if (id == RUN_DENSE) {
        if (cli_parse_double(o, v, &d))
            return CLI_EXIT_USAGE;
        if (!(d >= 0 && d <= 1000 && d == floor(d)))
            return cli_usage_error("run: %s = %s: an integer 0 .. 1000", o, v);
        a->dense = (int) d;
        return CLI_EXIT_OK;
    }
    for (k = 0; id == RUN_ROWS && k < 4; k++)
        if (strcmp(v, rows[k]) == 0) {
            a->rows = k;
            return CLI_EXIT_OK;
        }
    if (id == RUN_FORMAT && clink_output_format_from_name(v, &f) == 0) {
        a->format = (int) f;
        return CLI_EXIT_OK;
    }
    run_format_names(formats, sizeof formats);
    return cli_usage_error("run: %s '%s': one of %s", o, v,
                           id == RUN_ROWS ? "events, steps, grid, auto" : formats);
}

/* one option or operand of `clink run` (cli_apply_fn) */
static int run_apply(void *ctx, int id, const char *o, const char *v)
{
    run_args *a = ctx;
    const char *why;

    switch (id) {
    case CLI_OPERAND:
        if (a->path != NULL)
            return cli_usage_error("run: one model file only (got '%s' and '%s')", a->path, v);
        a->path = v;
        return CLI_EXIT_OK;
    case RUN_OUTPUT:
        if (v[0] == '\0')
            return cli_usage_error("run: %s: the directory name is empty", o);
        a->dir = v;
        return CLI_EXIT_OK;
    case RUN_T_END:
        if (cli_parse_double(o, v, &a->t_end))
            return CLI_EXIT_USAGE;
        if (!(a->t_end > 0))
            return cli_usage_error("run: --t-end = %g s must be > 0", a->t_end);
        return CLI_EXIT_OK;
    case RUN_OUTPUT_STEP:
        if (cli_parse_double(o, v, &a->step))
            return CLI_EXIT_USAGE;
        if (!(a->step > 0))
            return cli_usage_error("run: --output-step = %g s must be > 0", a->step);
        return CLI_EXIT_OK;
    case RUN_MAX_STEPS:
        if (cli_read_count(v, 1e15, &a->max_steps, &why) != 0)
            return cli_usage_error("run: --max-steps: '%s' %s (1 .. 1e15 steps)", v, why);
        return CLI_EXIT_OK;
    case RUN_MIN_STEP:
        if (cli_parse_double(o, v, &a->min_step))
            return CLI_EXIT_USAGE;
        if (!(a->min_step >= 0))
            return cli_usage_error("run: --min-step = %g s must be >= 0", a->min_step);
        return CLI_EXIT_OK;
    case RUN_WALL_LIMIT:
        if (cli_parse_double(o, v, &a->wall_limit))
            return CLI_EXIT_USAGE;
        if (!(a->wall_limit >= 0))
            return cli_usage_error("run: --wall-limit = %g s must be >= 0 (0: none)",
                                   a->wall_limit);
        return CLI_EXIT_OK;
    case RUN_QUIET:
        a->quiet = 1;
        return CLI_EXIT_OK;
    case RUN_STRICT:
        a->strict = 1;
        return CLI_EXIT_OK;
    case RUN_ALLOW_BAD_START:
        a->allow_bad_start = 1;
        return CLI_EXIT_OK;
    case RUN_NO_TIMING:
        a->timing = 0;
        return CLI_EXIT_OK;
    case RUN_JSON:
        a->json = 1;
        return CLI_EXIT_OK;
    case RUN_ROWS:
    case RUN_DENSE:
    case RUN_FORMAT:
        return run_output_option(a, id, o, v);
    case RUN_SET:
        if (a->n_sets == RUN_MAX_SETS)
            return cli_usage_error("run: %s: more than %d overrides", o, RUN_MAX_SETS);
        a->sets[a->n_sets++] = v;
        return CLI_EXIT_OK;
    default:
        return cli_usage_error("run: %s: not handled", o); /* a row without its case */
    }
}

/* 0 to go on; else -1 - EXIT: the command ends with EXIT (help printed, or an error) */
static int run_parse(int argc, char **argv, run_args *a)
{
    int rc;

    memset(a, 0, sizeof *a);
    a->t_end = a->step = a->max_steps = a->min_step = a->wall_limit = -1;
    a->rows = a->dense = a->format = -1;
    a->timing = 1;
    rc = cli_parse_options(argc, argv, run_options, run_apply, a);
    if (rc == CLI_HELP) {
        run_usage(stdout);
        return -1 - CLI_EXIT_OK;
    }
    if (rc != CLI_EXIT_OK)
        return -1 - rc;
    if (a->path == NULL) {
        run_usage(stderr);
        return -1 - CLI_EXIT_USAGE;
    }
    return 0;
}

/* the run's settings: the model's, with the command line's overrides checked */
static int run_settings(const clink_model *model, const run_args *a, clink_settings_def *set)
{
    *set = clink_model_settings(model);
    if (a->t_end > 0)
        set->t_end = a->t_end;
    if (a->step > 0)
        set->output_step = a->step;
    if (a->max_steps > 0)
        set->max_steps = a->max_steps;
    if (a->min_step >= 0)
        set->min_step = a->min_step;
    if (a->wall_limit >= 0)
        set->wall_limit = a->wall_limit;
    if (set->output_step > set->t_end)
        return cli_usage_error("run: output step %g s is larger than the end time %g s",
                               set->output_step, set->t_end);
    if (set->t_end / set->output_step > 1e8)
        return cli_usage_error("run: %g s / %g s gives more than 1e8 output rows", set->t_end,
                               set->output_step);
    if (a->min_step >= 0 && !(set->min_step < set->t_end))
        return cli_usage_error("run: --min-step = %g s must be smaller than the end time %g s",
                               set->min_step, set->t_end);
    return CLI_EXIT_OK;
}

/* figures of `clink plot` and films of `clink animate` in a run directory: an earlier run's
   must not stay (remove_old_figures) */
static const char *const run_figures[] = {
    "coordinates.png",    "velocities.png",     "accelerations.png", "reactions.png",
    "energies.png",       "contact_forces.png", "journal_orbit.png", "coordinates.svg",
    "velocities.svg",     "accelerations.svg",  "reactions.svg",     "energies.svg",
    "contact_forces.svg", "journal_orbit.svg",  "coordinates.pdf",   "velocities.pdf",
    "accelerations.pdf",  "reactions.pdf",      "energies.pdf",      "contact_forces.pdf",
    "journal_orbit.pdf",  "beams.png",          "beams.svg",         "beams.pdf",
    "animation.mp4",      "animation.gif"};

/* the files the recorder removes or writes in the output directory, of every format
   (src/output/output.c, remove_previous; the writers' tables of src/output/output_writers.c) */
static const char *const run_results[] = {"summary.json", "timeseries.csv", "impacts.csv",
                                          "results.h5"};

/* 1 (refused, said) when a file the run would remove or replace in DIR (its results, their
   NAME.incomplete, the old figures) is the model itself, however spelled (device and inode):
   `clink run DIR/summary.json -o DIR` would destroy its own model */
static int run_output_is_input(const char *dir, const char *model)
{
    struct stat sm, so;
    char path[4200];
    size_t nr = sizeof run_results / sizeof run_results[0];
    size_t nf = sizeof run_figures / sizeof run_figures[0];

    if (stat(model, &sm) != 0)
        return 0;
    for (size_t i = 0; i < 2 * nr + nf; i++) {
        const char *name = i < 2 * nr ? run_results[i / 2] : run_figures[i - 2 * nr];
        snprintf(path, sizeof path, "%s/%s%s", dir, name, i < 2 * nr && i % 2 ? ".incomplete" : "");
        if (stat(path, &so) == 0 && so.st_dev == sm.st_dev && so.st_ino == sm.st_ino) {
            fprintf(stderr,
                    "clink: run: %s is the model %s: refused (the run would replace it); give "
                    "another output directory with -o\n",
                    path, model);
            return 1;
        }
    }
    return 0;
}

static int remove_old_figures(const char *dir)
{
    char path[4200];
    size_t i;

    for (i = 0; i < sizeof run_figures / sizeof run_figures[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, run_figures[i]);
        if (remove(path) != 0 && errno != ENOENT) {
            fprintf(stderr, "clink: run: %s: cannot remove the previous run's figure: %s\n", path,
                    strerror(errno));
            return -1;
        }
    }
    return 0;
}

static int run_install_handlers(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = run_on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    struct sigaction al = sa;
    al.sa_handler = run_on_alarm;
    if (sigaction(SIGINT, &sa, NULL) != 0 || sigaction(SIGTERM, &sa, NULL) != 0 ||
        sigaction(SIGALRM, &al, NULL) != 0) {
        fprintf(stderr, "clink: run: cannot install the signal handlers: %s\n", strerror(errno));
        return -1;
    }
    return 0;
}

enum { RUN_MAX_LAW_WARNINGS = 8 };

/* one run: its arguments, what it creates and how it ended */
typedef struct run_ctx {
    run_args a;
    clink_model *model;
    clink_sim *sim;
    clink_recorder *rec;
    clink_xml_summary sum;
    clink_settings_def set;
    const char *dir;
    char dirbuf[512];
    clink_xml_applied applied[RUN_MAX_SETS]; /* what each --set did */
    double t0;                               /* wall clock before the simulation is created */
    int failed;                              /* the simulation or a state query failed */
    int implausible; /* failed: by an implausible finding (the run itself went on) */
    int io_failed;   /* a write failed: no result is kept */
    char why[1200];  /* the reason of a failure or an interruption */
    cli_progress progress;
    int start_findings;    /* findings at t = 0, printed before the integration */
    int law_warning_count; /* restitutions the laws' rules do not reach (run_law_warnings) */
    char law_warnings[RUN_MAX_LAW_WARNINGS][700];
} run_ctx;

/*
 * The contacts whose law is asked for a restitution its own damping rule does not
 * reach (clink_model_law_warnings), kept for stderr and summary.json.
 */
static void run_law_warnings(run_ctx *c)
{
    char text[RUN_MAX_LAW_WARNINGS * 700];
    int n = clink_model_law_warnings(c->model, text, sizeof text);
    const char *line = text;

    for (int i = 0; i < n && c->law_warning_count < RUN_MAX_LAW_WARNINGS; i++) {
        const char *end = strchr(line, '\n');
        size_t len = end != NULL ? (size_t) (end - line) : strlen(line);

        if (len >= sizeof c->law_warnings[0])
            len = sizeof c->law_warnings[0] - 1;
        memcpy(c->law_warnings[c->law_warning_count], line, len);
        c->law_warnings[c->law_warning_count++][len] = '\0';
        if (end == NULL)
            break;
        line = end + 1;
    }
}

/* the findings at t = 0 (the only ones at creation: the assembly's moves, contacts that
   start penetrated or fast) on stderr before the integration (unless --quiet); an
   implausible one refuses the run (exit 2, nothing written) unless --allow-bad-start */
static int run_start_findings(run_ctx *c)
{
    int n = clink_sim_finding_count(c->sim), implausible = -1;
    for (int i = 0; i < n; i++) {
        clink_sim_finding f;
        if (clink_sim_finding_get(c->sim, i, &f) != CLINK_OK)
            continue;
        if (f.severity == CLINK_FINDING_IMPLAUSIBLE && implausible < 0)
            implausible = i;
        if (!c->a.quiet || (f.severity == CLINK_FINDING_IMPLAUSIBLE && !c->a.allow_bad_start))
            fprintf(stderr, "clink: run: %s\n", f.message);
    }
    c->start_findings = n;
    if (implausible < 0 || c->a.allow_bad_start)
        return CLI_EXIT_OK;
    clink_sim_finding f;
    if (clink_sim_finding_get(c->sim, implausible, &f) == CLINK_OK)
        fprintf(stderr,
                "%s: an implausible start: %s (refused before the run; --allow-bad-start runs "
                "it anyway)\n",
                c->a.path, f.message);
    return CLI_EXIT_USAGE;
}

/* the reader's unit hints ("FILE:LINE: ...") on stderr (unless --quiet); --strict refuses them */
static int run_reader_warnings(const run_ctx *c)
{
    int n = clink_model_warning_count(c->model);

    if (n > 0 && c->a.strict) {
        fprintf(stderr, "%s (refused: --strict)\n", clink_model_warning(c->model, 0));
        return CLI_EXIT_USAGE;
    }
    for (int i = 0; i < n && !c->a.quiet; i++)
        fprintf(stderr, "clink: run: warning: %s\n", clink_model_warning(c->model, i));
    return CLI_EXIT_OK;
}

/* the model and its simulation: any error in the file stops here, before anything is written */
static int run_load(run_ctx *c)
{
    char err[1024];
    clink_status st;
    int rc;

    if (cli_check_input_file("run", c->a.path) != 0)
        return CLI_EXIT_USAGE;
    if (clink_xml_load_with(c->a.path, c->a.sets, c->a.n_sets, c->applied, &c->model, &c->sum, err,
                            sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        return CLI_EXIT_USAGE;
    }
    rc = run_reader_warnings(c);
    if (rc != CLI_EXIT_OK)
        return rc;
    rc = run_settings(c->model, &c->a, &c->set);
    if (rc != CLI_EXIT_OK)
        return rc;
    c->t0 = cli_progress_now();
    st = clink_sim_create(c->model, &c->set, &c->sim, err, sizeof err);
    if (st != CLINK_OK) {
        char where[1400];
        cli_where_settings(c->a.path, err, where, sizeof where);
        fprintf(stderr, "%s\n", where);
        return st == CLINK_ERR_ASSEMBLY || st == CLINK_ERR_SINGULAR || st == CLINK_ERR_ARG ||
                       st == CLINK_ERR_RANGE || st == CLINK_ERR_MODEL || st == CLINK_ERR_NONFINITE
                   ? CLI_EXIT_USAGE
                   : CLI_EXIT_FAIL;
    }
    if (c->a.strict && clink_sim_finding_count(c->sim) > 0) {
        /* at creation the only findings are the start's (sim.h, CLINK_FINDING_ASSEMBLY) */
        clink_sim_finding f;
        if (clink_sim_finding_get(c->sim, 0, &f) == CLINK_OK)
            fprintf(stderr, "%s: %s (refused: --strict)\n", c->a.path, f.message);
        return CLI_EXIT_USAGE;
    }
    rc = run_start_findings(c);
    if (rc != CLI_EXIT_OK)
        return rc;
    /* printed with the result (run_finish), so that a run opens with its result */
    run_law_warnings(c);
    return CLI_EXIT_OK;
}

/*
 * The default output directory of a run with overrides: out/NAME@S, S the overrides'
 * paths and effective values "PATH=VALUE" joined by ',' in command-line order, each
 * byte other than [A-Za-z0-9._=,[]+-] written '_' (the blank of a vector value); an S
 * longer than 120 bytes is cut to 100 and followed by '~' and the 8 hex digits of the
 * FNV-1a hash of the whole S. Runs with different effective overrides thus never share
 * a directory (up to the hash); the same overrides written differently (2e-4, 0.0002)
 * give the same one.
 */
static void run_default_dir(run_ctx *c)
{
    char s[4096];
    size_t n = 0, i;
    uint32_t h = 2166136261u;
    int k;

    s[0] = '\0';
    for (k = 0; k < c->a.n_sets && n < sizeof s - 1; k++) {
        int w = snprintf(s + n, sizeof s - n, "%s%s=%s", k > 0 ? "," : "", c->applied[k].path,
                         c->applied[k].value);
        n = w < 0 ? n : n + (size_t) w < sizeof s ? n + (size_t) w : sizeof s - 1;
    }
    for (i = 0; i < n; i++) {
        char ch = s[i];
        h = (h ^ (uint8_t) ch) * 16777619u;
        if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
              strchr("._=,[]+-", ch) != NULL))
            s[i] = '_';
    }
    if (n > 120)
        snprintf(s + 100, sizeof s - 100, "~%08x", (unsigned) h);
    snprintf(c->dirbuf, sizeof c->dirbuf, "out/%.63s@%.128s", c->sum.name, s);
}

/* the signal handlers, the output directory and the recorder in it */
static int run_open_output(run_ctx *c)
{
    char err[1024], where[4096];
    clink_output_options opt;
    clink_status st;

    c->dir = c->a.dir;
    if (c->dir == NULL) {
        if (c->a.n_sets > 0)
            run_default_dir(c);
        else
            snprintf(c->dirbuf, sizeof c->dirbuf, "out/%s", c->sum.name);
        c->dir = c->dirbuf;
    }
    if (cli_check_output_path("run", "output directory", c->dir, 1) != CLI_EXIT_OK ||
        run_output_is_input(c->dir, c->a.path))
        return CLI_EXIT_USAGE;
    if (run_install_handlers() != 0)
        return CLI_EXIT_FAIL;
    if (make_dirs(c->dir, where, sizeof where) != 0) {
        int e = errno;
        struct stat sb;
        char target[1024];
        ssize_t len = readlink(where, target, sizeof target - 1);
        /* a symbolic link whose target does not exist: ENOTDIR or EEXIST would mislead */
        if (len >= 0 && stat(where, &sb) != 0) {
            target[len] = '\0';
            fprintf(stderr,
                    "clink: run: cannot create directory '%s': it is a symbolic link to '%s', "
                    "which does not exist\n",
                    where, target);
        } else {
            fprintf(stderr, "clink: run: cannot create directory '%s': %s\n", where, strerror(e));
        }
        return CLI_EXIT_IO;
    }
    opt = clink_default_output_options();
    opt.reactions = c->sum.out_reactions;
    opt.energies = c->sum.out_energies;
    opt.rows = (clink_output_rows) (c->a.rows >= 0 ? c->a.rows : c->sum.out_rows);
    opt.dense = c->a.dense >= 0 ? c->a.dense : c->sum.out_dense;
    opt.format = (clink_output_format) (c->a.format >= 0 ? c->a.format : c->sum.out_format);
    opt.sections = c->sum.sections; /* <output><poincare> (docs/nonlinear.md) */
    opt.nsections = c->sum.nsections;
    st = clink_recorder_create(c->model, c->dir, &opt, &c->rec, err, sizeof err);
    if (st != CLINK_OK || remove_old_figures(c->dir) != 0) {
        if (c->rec == NULL)
            fprintf(stderr, "clink: run: %s\n", err);
        return st == CLINK_ERR_IO || st == CLINK_OK ? CLI_EXIT_IO : CLI_EXIT_USAGE;
    }
    if (opt.rows == CLINK_ROWS_AUTO && !c->a.quiet &&
        clink_recorder_rows(c->rec) != CLINK_ROWS_EVENTS)
        fprintf(stderr,
                "clink: run: note: %d columns: the time series holds the grid rows alone, not "
                "a full row at every contact event (--rows events to have them; "
                "docs/outputs.md)\n",
                clink_recorder_columns(c->rec));
    if (opt.format == CLINK_FORMAT_CSV && !c->a.quiet &&
        clink_recorder_columns(c->rec) > CLINK_CSV_COLUMNS_SUGGEST_HDF5)
        fprintf(stderr,
                "clink: run: warning: %d columns of text in timeseries.csv; --format hdf5 "
                "writes them smaller and faster (docs/outputs.md)\n",
                clink_recorder_columns(c->rec));
    return CLI_EXIT_OK;
}

/* energies that overflow double precision (a mass or inertia near 1e308): a failure of
   the run, which goes on as after an implausible finding; 1 when found (why set) */
static int run_energy_overflow(run_ctx *c)
{
    static const char *const names[] = {"kinetic",        "gravity",         "spring",
                                        "work_drivers",   "work_loads",      "balance",
                                        "contact_stored", "contact_damping", "contact_friction"};
    clink_energy e;
    char when[OUTPUT_DOUBLE_MAX];
    if (c->failed || clink_sim_energy(c->sim, &e) != CLINK_OK)
        return 0;
    const double v[] = {e.kinetic,        e.gravity,         e.spring,
                        e.work_drivers,   e.work_loads,      e.balance,
                        e.contact_stored, e.contact_damping, e.contact_friction};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        if (!isfinite(v[i])) {
            c->failed = c->implausible = 1;
            output_format_double(clink_sim_time(c->sim), when);
            snprintf(c->why, sizeof c->why,
                     "implausible result at t = %s s: the %s energy is not finite (%g J): a "
                     "mass, inertia, stiffness or speed beyond what double precision holds",
                     when, names[i], v[i]);
            return 1;
        }
    return 0;
}

/* samples t = 0, then k H for k = 1..n, then t_end if it is not on the grid; sets failed,
   io_failed and why */
static void run_integrate(run_ctx *c)
{
    clink_status st;
    long n, k;

    c->why[0] = '\0';
    cli_progress_start(&c->progress, c->a.quiet);
    st = clink_recorder_sample(c->rec, c->sim);
    run_energy_overflow(c);
    n = (long) floor(c->set.t_end / c->set.output_step * (1.0 + 1e-12));
    for (k = 1; k <= n + 1 && st == CLINK_OK && run_stop_signal == 0; k++) {
        double t = k <= n ? (double) k * c->set.output_step : c->set.t_end;
        if (t > c->set.t_end)
            t = c->set.t_end;
        if (t <= clink_sim_time(c->sim))
            continue;
        /* the grid row at t and, on the way, the rows the output options ask for */
        st = clink_recorder_advance(c->rec, c->sim, t);
        if (st != CLINK_OK && st != CLINK_ERR_IO && clink_sim_error(c->sim)[0] != '\0') {
            c->failed = 1;
            snprintf(c->why, sizeof c->why, "%s", clink_sim_error(c->sim));
            break;
        }
        run_energy_overflow(c);
        cli_progress_show(&c->progress, clink_sim_time(c->sim), c->set.t_end);
    }
    if (run_stop_signal != 0)
        alarm(0); /* the row was reached in time: the files are finished as usual */
    cli_progress_end(&c->progress);
    if (st != CLINK_OK && !c->failed) {
        if (st == CLINK_ERR_IO) {
            c->io_failed = 1;
            snprintf(c->why, sizeof c->why, "%s", clink_recorder_error(c->rec));
        } else {
            c->failed = 1;
            snprintf(c->why, sizeof c->why, "reading the state for the output failed: %s",
                     clink_status_string(st));
        }
    }
}

/* the simulator's physical-sanity findings, each one line for "warnings" in summary.json;
   an implausible one (energy created, restitution above 1 between free bodies, a shape
   pressed through) fails a run that otherwise finished */
enum { RUN_MAX_FINDINGS = 64 };

static int run_findings(run_ctx *c, char lines[][256], const char **ptrs)
{
    int n = clink_sim_finding_count(c->sim), k = 0;
    int kept;

    /* the restitutions the laws' rules do not reach come first */
    for (; k < c->law_warning_count && k < RUN_MAX_FINDINGS; k++)
        ptrs[k] = c->law_warnings[k];
    ptrs += k;
    lines += k;
    kept = n < RUN_MAX_FINDINGS - k ? n : RUN_MAX_FINDINGS - k;
    for (int i = 0; i < kept; i++) {
        clink_sim_finding f;
        if (clink_sim_finding_get(c->sim, i, &f) != CLINK_OK) {
            kept = i;
            break;
        }
        snprintf(lines[i], 256, "%s", f.message);
        ptrs[i] = lines[i];
        if (f.severity == CLINK_FINDING_IMPLAUSIBLE && !c->failed) {
            c->failed = 1;
            c->implausible = 1;
            /* "implausible at t = ...: what" becomes "implausible result at t = ...: what" */
            snprintf(c->why, sizeof c->why, "implausible result%s",
                     f.message + strlen("implausible"));
        }
    }
    return k + kept;
}

/*
 * --json: one object on stdout (docs/cli.md, "clink run --json"): the exit
 * status, the run's status, the output directory and, under "summary", the
 * summary.json just written, read back so that both say the same. 0, or -1
 * after printing why summary.json could not be read.
 */
static int run_print_json(const run_ctx *c, int exit_code)
{
    char path[4200];
    FILE *f;
    int ch, prev = 0;

    snprintf(path, sizeof path, "%s/summary.json", c->dir);
    f = fopen(path, "r");
    if (f == NULL) {
        fprintf(stderr, "clink: run: %s: cannot read back: %s\n", path, strerror(errno));
        return -1;
    }
    printf("{\n  \"clink\": \"%s\",\n  \"command\": \"run\",\n  \"exit_status\": %d,\n"
           "  \"status\": \"%s\",\n  \"model_file\": ",
           cli_version(), exit_code,
           exit_code == CLI_EXIT_OK     ? "ok"
           : exit_code == CLI_EXIT_FAIL ? "failed"
                                        : "interrupted");
    cli_json_string(stdout, c->a.path);
    printf(",\n  \"output_dir\": ");
    cli_json_string(stdout, c->dir);
    printf(",\n  \"summary\": ");
    /* summary.json indented one level; its final newline dropped */
    while ((ch = getc(f)) != EOF) {
        if (prev != 0)
            putchar(prev);
        if (prev == '\n')
            fputs("  ", stdout);
        prev = ch;
    }
    if (prev != 0 && prev != '\n')
        putchar(prev);
    if (ferror(f)) {
        fprintf(stderr, "clink: run: %s: cannot read back: %s\n", path, strerror(EIO));
        fclose(f); /* read-only: closing cannot lose data */
        return -1;
    }
    fclose(f); /* read-only: closing cannot lose data */
    printf("\n}\n");
    return 0;
}

/* writes summary.json, puts the files in place and says how the run ended */
/* the laws' warnings on stderr (not with --quiet) */
static void run_print_law_warnings(const run_ctx *c)
{
    if (c->a.quiet)
        return;
    for (int i = 0; i < c->law_warning_count; i++)
        fprintf(stderr, "clink: run: warning: %s\n", c->law_warnings[i]);
}
/* ", auto switched adams -> bdf at t = T s (N switches)" for a run whose method auto switched
   (docs/kernel.md, "What auto picks and why"), else "" */
static void run_method_switches(const clink_sim *sim, char *buf, size_t n)
{
    clink_method_switch first;
    int k = clink_sim_method_switches(sim, &first, 1);
    buf[0] = '\0';
    if (k > 0)
        snprintf(buf, n, ", auto switched %s -> %s at t = %.6g s (%d switch%s)",
                 clink_method_name(first.from), clink_method_name(first.to), first.t, k,
                 k > 1 ? "es" : "");
}

static int run_finish(run_ctx *c)
{
    char finding_lines[RUN_MAX_FINDINGS][256];
    const char *finding_ptrs[RUN_MAX_FINDINGS];
    const char *set_paths[RUN_MAX_SETS], *set_values[RUN_MAX_SETS];
    char when[OUTPUT_DOUBLE_MAX];
    clink_run_info info;
    int exit_code;

    memset(&info, 0, sizeof info);
    info.warning_count = run_findings(c, finding_lines, finding_ptrs);
    info.warnings = info.warning_count > 0 ? finding_ptrs : NULL;
    info.model_name = c->sum.name;
    info.source = c->a.path;
    info.failed = c->failed;
    info.t_end = c->set.t_end;
    info.wall_time = c->a.timing ? cli_progress_now() - c->t0 : -1.0;
    info.settings = &c->set;
    for (int i = 0; i < c->a.n_sets; i++) {
        set_paths[i] = c->applied[i].path;
        set_values[i] = c->applied[i].value;
    }
    info.override_paths = set_paths;
    info.override_values = set_values;
    info.override_count = c->a.n_sets;
    exit_code = c->failed ? CLI_EXIT_FAIL : CLI_EXIT_OK;
    if (run_stop_signal != 0 && !c->failed && clink_sim_time(c->sim) < c->set.t_end) {
        info.interrupted = 1;
        output_format_double(clink_sim_time(c->sim), when);
        snprintf(c->why, sizeof c->why, "interrupted by %s at t = %s s",
                 run_stop_signal == SIGINT ? "SIGINT" : "SIGTERM", when);
        exit_code = CLI_EXIT_SIGNAL_BASE + run_stop_signal;
    }
    info.message = c->failed || info.interrupted ? c->why : NULL;
    if (clink_recorder_finish(c->rec, c->sim, &info) != CLINK_OK) {
        fprintf(stderr, "clink: run: %s (no results kept in %s)\n", clink_recorder_error(c->rec),
                c->dir);
        exit_code = CLI_EXIT_IO;
    } else if (c->failed && c->implausible) {
        /* the finding's time is in why; the run itself went on */
        run_print_law_warnings(c);
        output_format_double(clink_sim_time(c->sim), when);
        fprintf(stderr, "clink: run: %s: %s (the run went on to t = %s s; results in %s)\n",
                c->sum.name, c->why, when, c->dir);
    } else if (c->failed) {
        run_print_law_warnings(c);
        output_format_double(clink_sim_time(c->sim), when);
        fprintf(stderr, "clink: run: %s failed at t = %s s: %s (results so far in %s)\n",
                c->sum.name, when, c->why, c->dir);
    } else if (info.interrupted) {
        run_print_law_warnings(c);
        fprintf(stderr, "clink: run: %s %s (results so far in %s)\n", c->sum.name, c->why, c->dir);
    } else if (!c->a.quiet) {
        if (!c->a.json) {
            clink_sim_stats stats;
            clink_sim_stats_get(c->sim, &stats);
            char sw[160];
            run_method_switches(c->sim, sw, sizeof sw);
            printf("%s: ok, t = %g s, %ld steps, %ld right-hand sides%s; results in %s\n",
                   c->sum.name, clink_sim_time(c->sim), stats.steps, stats.rhs_evals, sw, c->dir);
            fflush(stdout);
        }
        /* the result first, then what it is to be read with (the findings at t = 0 were
           printed before the integration) */
        for (int i = 0; i < info.warning_count; i++)
            if (i < c->law_warning_count || i >= c->law_warning_count + c->start_findings)
                fprintf(stderr, "clink: run: warning: %s\n", info.warnings[i]);
    }
    if (c->a.json && exit_code != CLI_EXIT_IO && run_print_json(c, exit_code) != 0)
        exit_code = CLI_EXIT_IO;
    return exit_code;
}

int cmd_run(int argc, char **argv)
{
    run_ctx c;
    int rc;

    memset(&c, 0, sizeof c);
    rc = run_parse(argc, argv, &c.a);
    if (rc != 0)
        return -1 - rc;
    rc = run_load(&c);
    if (rc == CLI_EXIT_OK)
        rc = run_open_output(&c);
    if (rc == CLI_EXIT_OK) {
        run_integrate(&c);
        if (c.io_failed) {
            /* the files are incomplete: none of them is kept */
            fprintf(stderr, "clink: run: %s (no results kept in %s)\n", c.why, c.dir);
            rc = CLI_EXIT_IO;
        } else {
            rc = run_finish(&c);
        }
    }
    clink_recorder_destroy(&c.rec);
    clink_sim_destroy(&c.sim);
    clink_model_destroy(&c.model);
    return rc;
}
