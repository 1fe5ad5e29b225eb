/*
 * `clink run MODEL.xml [-o DIR] [--t-end T] [--output-step H] [--max-steps N]
 * [--min-step H] [--wall-limit S] [--quiet] [--no-timing] [--rows MODE] [--dense N]
 * [--format FMT]`: loads the model (exit 2 on any error in the file or an
 * unrunnable model, nothing written), integrates it to t_end and samples it at
 * t = 0, H, 2H, ... and t_end, with the rows MODE asks for in between, into
 * DIR/timeseries.csv, DIR/impacts.csv and DIR/summary.json, or DIR/results.h5 and
 * DIR/summary.json (clink/output.h: the previous results in DIR are removed
 * first, the new ones appear under their names only at the end).
 *
 * If the solver fails, the rows so far are kept, summary.json says "failed",
 * when and why, and the exit status is 1. SIGINT and SIGTERM set a flag that is
 * read between output rows: the run stops there, keeps its rows, says
 * "interrupted" and exits 128 + the signal. An I/O failure removes the run's
 * files and exits 3 with the file's name and the system's reason. Progress goes
 * to stderr only when stderr is a terminal and the run lasts more than a second.
 */
#define _POSIX_C_SOURCE 200809L

#include "cli.h"

#include "clink/output.h"
#include "clink/sim.h"
#include "clink/xml.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* the signal that asked the run to stop (0: none); the one state a handler may set */
static volatile sig_atomic_t run_stop_signal;

static void run_on_signal(int sig)
{
    run_stop_signal = sig;
}

static void run_usage(FILE *out)
{
    fprintf(out,
            "usage: clink run MODEL.xml [-o DIR] [--t-end T] [--output-step H]\n"
            "                 [--max-steps N] [--min-step H] [--wall-limit S] [--quiet]\n"
            "                 [--no-timing] [--rows MODE] [--dense N] [--format FMT]\n\n"
            "Integrates MODEL.xml and writes DIR/timeseries.csv, DIR/impacts.csv and\n"
            "DIR/summary.json (default DIR: out/NAME, NAME the mechanism's name), or\n"
            "DIR/results.h5 and DIR/summary.json with --format hdf5. The previous results\n"
            "in DIR are removed first; files of an unfinished run end in \".incomplete\".\n"
            "Files and columns: docs/outputs.md.\n\n"
            "  -o DIR            output directory (created if missing)\n"
            "  --t-end T         end time, s (overrides <settings t_end>)\n"
            "  --output-step H   spacing of output rows, s (overrides <settings output_step>)\n"
            "  --max-steps N     integrator steps allowed in the run, 1 .. 1e15\n"
            "  --min-step H      smallest step accepted, s, 0 <= H < T (0: automatic guard)\n"
            "  --wall-limit S    wall-clock seconds allowed, >= 0 (0: no limit)\n"
            "  --rows MODE       events (default): the grid, every contact event and rows\n"
            "                    through each impact; steps: the grid, events and every\n"
            "                    integrator step; grid: the output times alone\n"
            "                    (overrides <output rows>; the column row.kind says which)\n"
            "  --dense N         interpolated rows per integrator step in an impact,\n"
            "                    0 .. 1000 (default 1; overrides <output dense>)\n"
            "  --format FMT      csv (default) or hdf5 (overrides <output format>)\n"
            "  --quiet           no summary line on stdout, no progress on stderr\n"
            "  --no-timing       write \"wall_time\": null, so that summary.json too is\n"
            "                    identical between two runs\n\n"
            "Exit status: 0 ok; 1 the solver failed (rows up to the failure kept, summary\n"
            "\"failed\"); 2 input rejected (file, option or unrunnable model; nothing\n"
            "written); 3 I/O failed (no result left); 130 SIGINT, 143 SIGTERM (rows so far\n"
            "kept, summary \"interrupted\").\n");
}

static double now_seconds(void)
{
    struct timespec ts;

    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return 0.0;
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
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

/* the option's value; -1 after printing the error when it is missing */
static int run_value(int argc, char **argv, int *i, const char **value)
{
    if (*i + 1 >= argc) {
        cli_usage_error("run: %s needs a value", argv[*i]);
        return -1;
    }
    *value = argv[++*i];
    return 0;
}

/* what `run` reads from its command line */
typedef struct run_args {
    const char *path, *dir;
    double t_end, step;                     /* -1: the model's */
    double max_steps, min_step, wall_limit; /* -1: the model's */
    int rows, dense, format;                /* -1: the model's <output> */
    int quiet, timing;
} run_args;

/* --rows, --dense, --format: 0, or -1 after printing the error */
static int run_output_option(const char *o, const char *v, run_args *a)
{
    static const char *const rows[] = {"events", "steps", "grid"};
    static const char *const formats[] = {"csv", "hdf5"};
    double d = 0;
    int k;

    if (strcmp(o, "--dense") == 0) {
        if (cli_parse_double(o, v, &d))
            return -1;
        if (!(d >= 0 && d <= 1000 && d == floor(d))) {
            cli_usage_error("run: --dense = %s: an integer 0 .. 1000", v);
            return -1;
        }
        a->dense = (int) d;
        return 0;
    }
    for (k = 0; strcmp(o, "--rows") == 0 && k < 3; k++)
        if (strcmp(v, rows[k]) == 0) {
            a->rows = k;
            return 0;
        }
    for (k = 0; strcmp(o, "--format") == 0 && k < 2; k++)
        if (strcmp(v, formats[k]) == 0) {
            a->format = k;
            return 0;
        }
    cli_usage_error("run: %s '%s': one of %s", o, v,
                    strcmp(o, "--rows") == 0 ? "events, steps, grid" : "csv, hdf5");
    return -1;
}

/* 0 to go on; else -1 - EXIT: the command ends with EXIT (help printed, or an error) */
static int run_parse(int argc, char **argv, run_args *a)
{
    const char *v, *why;
    int i;

    memset(a, 0, sizeof *a);
    a->t_end = a->step = a->max_steps = a->min_step = a->wall_limit = -1;
    a->rows = a->dense = a->format = -1;
    a->timing = 1;
    for (i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (strcmp(o, "--help") == 0 || strcmp(o, "-h") == 0) {
            run_usage(stdout);
            return -1 - CLI_EXIT_OK;
        } else if (strcmp(o, "-o") == 0 || strcmp(o, "--output") == 0) {
            if (run_value(argc, argv, &i, &a->dir))
                return -1 - CLI_EXIT_USAGE;
            if (a->dir[0] == '\0')
                return -1 - cli_usage_error("run: %s: the directory name is empty", o);
        } else if (strcmp(o, "--t-end") == 0) {
            if (run_value(argc, argv, &i, &v) || cli_parse_double(o, v, &a->t_end))
                return -1 - CLI_EXIT_USAGE;
            if (!(a->t_end > 0))
                return -1 - cli_usage_error("run: --t-end = %g s must be > 0", a->t_end);
        } else if (strcmp(o, "--output-step") == 0) {
            if (run_value(argc, argv, &i, &v) || cli_parse_double(o, v, &a->step))
                return -1 - CLI_EXIT_USAGE;
            if (!(a->step > 0))
                return -1 - cli_usage_error("run: --output-step = %g s must be > 0", a->step);
        } else if (strcmp(o, "--max-steps") == 0) {
            if (run_value(argc, argv, &i, &v))
                return -1 - CLI_EXIT_USAGE;
            if (cli_read_count(v, 1e15, &a->max_steps, &why) != 0)
                return -1 - cli_usage_error("run: --max-steps: '%s' %s (1 .. 1e15 steps)", v, why);
        } else if (strcmp(o, "--min-step") == 0) {
            if (run_value(argc, argv, &i, &v) || cli_parse_double(o, v, &a->min_step))
                return -1 - CLI_EXIT_USAGE;
            if (!(a->min_step >= 0))
                return -1 - cli_usage_error("run: --min-step = %g s must be >= 0", a->min_step);
        } else if (strcmp(o, "--wall-limit") == 0) {
            if (run_value(argc, argv, &i, &v) || cli_parse_double(o, v, &a->wall_limit))
                return -1 - CLI_EXIT_USAGE;
            if (!(a->wall_limit >= 0))
                return -1 - cli_usage_error("run: --wall-limit = %g s must be >= 0 (0: none)",
                                            a->wall_limit);
        } else if (strcmp(o, "--rows") == 0 || strcmp(o, "--format") == 0 ||
                   strcmp(o, "--dense") == 0) {
            if (run_value(argc, argv, &i, &v) || run_output_option(o, v, a) != 0)
                return -1 - CLI_EXIT_USAGE;
        } else if (strcmp(o, "--quiet") == 0 || strcmp(o, "-q") == 0) {
            a->quiet = 1;
        } else if (strcmp(o, "--no-timing") == 0) {
            a->timing = 0;
        } else if (o[0] == '-' && o[1] != '\0') {
            return -1 - cli_usage_error("run: unknown option '%s' (see clink run --help)", o);
        } else if (a->path != NULL) {
            return -1 - cli_usage_error("run: one model file only (got '%s' and '%s')", a->path, o);
        } else {
            a->path = o;
        }
    }
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

/* figures `clink plot` draws into a run directory: an earlier run's must not stay */
static int remove_old_figures(const char *dir)
{
    static const char *const figures[] = {
        "coordinates.png", "velocities.png",     "accelerations.png", "reactions.png",
        "energies.png",    "contact_forces.png", "journal_orbit.png"};
    char path[4200];
    size_t i;

    for (i = 0; i < sizeof figures / sizeof figures[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, figures[i]);
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
    if (sigaction(SIGINT, &sa, NULL) != 0 || sigaction(SIGTERM, &sa, NULL) != 0) {
        fprintf(stderr, "clink: run: cannot install the signal handlers: %s\n", strerror(errno));
        return -1;
    }
    return 0;
}

/* one run: its arguments, what it creates and how it ended */
typedef struct run_ctx {
    run_args a;
    clink_model *model;
    clink_sim *sim;
    clink_recorder *rec;
    clink_xml_summary sum;
    clink_settings_def set;
    const char *dir;
    char dirbuf[256];
    double t0;      /* wall clock before the simulation is created */
    int failed;     /* the simulation or a state query failed */
    int io_failed;  /* a write failed: no result is kept */
    char why[1200]; /* the reason of a failure or an interruption */
} run_ctx;

/* the model and its simulation: any error in the file stops here, before anything is written */
static int run_load(run_ctx *c)
{
    char err[1024];
    clink_status st;
    int rc;

    if (cli_check_input_file("run", c->a.path) != 0)
        return CLI_EXIT_USAGE;
    if (clink_xml_load(c->a.path, &c->model, &c->sum, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        return CLI_EXIT_USAGE;
    }
    rc = run_settings(c->model, &c->a, &c->set);
    if (rc != CLI_EXIT_OK)
        return rc;
    c->t0 = now_seconds();
    st = clink_sim_create(c->model, &c->set, &c->sim, err, sizeof err);
    if (st != CLINK_OK) {
        fprintf(stderr, "%s: %s\n", c->a.path, err);
        return st == CLINK_ERR_ASSEMBLY || st == CLINK_ERR_SINGULAR || st == CLINK_ERR_ARG ||
                       st == CLINK_ERR_RANGE || st == CLINK_ERR_MODEL || st == CLINK_ERR_NONFINITE
                   ? CLI_EXIT_USAGE
                   : CLI_EXIT_FAIL;
    }
    return CLI_EXIT_OK;
}

/* the signal handlers, the output directory and the recorder in it */
static int run_open_output(run_ctx *c)
{
    char err[1024], where[4096];
    clink_output_options opt;
    clink_status st;

    c->dir = c->a.dir;
    if (c->dir == NULL) {
        snprintf(c->dirbuf, sizeof c->dirbuf, "out/%s", c->sum.name);
        c->dir = c->dirbuf;
    }
    if (run_install_handlers() != 0)
        return CLI_EXIT_FAIL;
    if (make_dirs(c->dir, where, sizeof where) != 0) {
        fprintf(stderr, "clink: run: cannot create directory '%s': %s\n", where, strerror(errno));
        return CLI_EXIT_IO;
    }
    opt = clink_default_output_options();
    opt.reactions = c->sum.out_reactions;
    opt.energies = c->sum.out_energies;
    opt.rows = (clink_output_rows) (c->a.rows >= 0 ? c->a.rows : c->sum.out_rows);
    opt.dense = c->a.dense >= 0 ? c->a.dense : c->sum.out_dense;
    opt.format = (clink_output_format) (c->a.format >= 0 ? c->a.format : c->sum.out_format);
    st = clink_recorder_create(c->model, c->dir, &opt, &c->rec, err, sizeof err);
    if (st != CLINK_OK || remove_old_figures(c->dir) != 0) {
        if (c->rec == NULL)
            fprintf(stderr, "clink: run: %s\n", err);
        return st == CLINK_ERR_IO || st == CLINK_OK ? CLI_EXIT_IO : CLI_EXIT_USAGE;
    }
    if (opt.format == CLINK_FORMAT_CSV && !c->a.quiet &&
        clink_recorder_columns(c->rec) > CLINK_CSV_COLUMNS_SUGGEST_HDF5)
        fprintf(stderr,
                "clink: run: warning: %d columns of text in timeseries.csv; --format hdf5 "
                "writes them smaller and faster (docs/outputs.md)\n",
                clink_recorder_columns(c->rec));
    return CLI_EXIT_OK;
}

/* shows the progress on a terminal once the run has taken a second, every quarter second */
static void run_progress(const run_ctx *c, double t, double *last_progress, int *shown)
{
    double w;

    if (c->a.quiet || !isatty(STDERR_FILENO))
        return;
    w = now_seconds();
    if (w - c->t0 > 1.0 && w - *last_progress > 0.25) {
        fprintf(stderr, "\rclink run: t = %.6g s of %.6g s (%3.0f%%)", t, c->set.t_end,
                100.0 * t / c->set.t_end);
        *last_progress = w;
        *shown = 1;
    }
}

/* samples t = 0, then k H for k = 1..n, then t_end if it is not on the grid; sets failed,
   io_failed and why */
static void run_integrate(run_ctx *c)
{
    double last_progress = 0;
    int progress_shown = 0;
    clink_status st;
    long n, k;

    c->why[0] = '\0';
    st = clink_recorder_sample(c->rec, c->sim);
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
        run_progress(c, t, &last_progress, &progress_shown);
    }
    if (progress_shown)
        fprintf(stderr, "\r%60s\r", "");
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
    int n = clink_sim_finding_count(c->sim);
    int kept = n < RUN_MAX_FINDINGS ? n : RUN_MAX_FINDINGS;
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
            snprintf(c->why, sizeof c->why, "implausible result: %s", f.message);
        }
    }
    return kept;
}

/* writes summary.json, puts the files in place and says how the run ended */
static int run_finish(run_ctx *c)
{
    char finding_lines[RUN_MAX_FINDINGS][256];
    const char *finding_ptrs[RUN_MAX_FINDINGS];
    clink_run_info info;
    int exit_code;

    memset(&info, 0, sizeof info);
    info.warning_count = run_findings(c, finding_lines, finding_ptrs);
    info.warnings = info.warning_count > 0 ? finding_ptrs : NULL;
    info.model_name = c->sum.name;
    info.source = c->a.path;
    info.failed = c->failed;
    info.t_end = c->set.t_end;
    info.wall_time = c->a.timing ? now_seconds() - c->t0 : -1.0;
    info.settings = &c->set;
    exit_code = c->failed ? CLI_EXIT_FAIL : CLI_EXIT_OK;
    if (run_stop_signal != 0 && !c->failed && clink_sim_time(c->sim) < c->set.t_end) {
        info.interrupted = 1;
        snprintf(c->why, sizeof c->why, "interrupted by %s at t = %.17g s",
                 run_stop_signal == SIGINT ? "SIGINT" : "SIGTERM", clink_sim_time(c->sim));
        exit_code = CLI_EXIT_SIGNAL_BASE + run_stop_signal;
    }
    info.message = c->failed || info.interrupted ? c->why : NULL;
    if (clink_recorder_finish(c->rec, c->sim, &info) != CLINK_OK) {
        fprintf(stderr, "clink: run: %s (no results kept in %s)\n", clink_recorder_error(c->rec),
                c->dir);
        exit_code = CLI_EXIT_IO;
    } else if (c->failed) {
        fprintf(stderr, "clink: run: %s failed at t = %.17g s: %s (results so far in %s)\n",
                c->sum.name, clink_sim_time(c->sim), c->why, c->dir);
    } else if (info.interrupted) {
        fprintf(stderr, "clink: run: %s %s (results so far in %s)\n", c->sum.name, c->why, c->dir);
    } else if (!c->a.quiet) {
        for (int i = 0; i < info.warning_count; i++)
            fprintf(stderr, "clink: run: warning: %s\n", info.warnings[i]);
        clink_sim_stats stats;
        clink_sim_stats_get(c->sim, &stats);
        printf("%s: ok, t = %g s, %ld steps, %ld right-hand sides; results in %s\n", c->sum.name,
               clink_sim_time(c->sim), stats.steps, stats.rhs_evals, c->dir);
    }
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
