/*
 * `clink run MODEL.xml [-o DIR] [--t-end T] [--output-step H] [--max-steps N]
 * [--min-step H] [--wall-limit S] [--quiet] [--no-timing]`: loads the model (exit
 * 2 on any error in the file or an unrunnable model, nothing written),
 * integrates it to t_end and samples it at t = 0, H, 2H, ... and t_end into
 * DIR/timeseries.csv, DIR/impacts.csv and DIR/summary.json (clink/output.h:
 * the previous results in DIR are removed first, the new ones appear under
 * their names only at the end).
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
            "                 [--no-timing]\n\n"
            "Integrates MODEL.xml and writes DIR/timeseries.csv, DIR/impacts.csv and\n"
            "DIR/summary.json (default DIR: out/NAME, NAME the mechanism's name). The\n"
            "previous results in DIR are removed first; files of an unfinished run end\n"
            "in \".incomplete\".\n\n"
            "  -o DIR            output directory (created if missing)\n"
            "  --t-end T         end time, s (overrides <settings t_end>)\n"
            "  --output-step H   spacing of output rows, s (overrides <settings output_step>)\n"
            "  --max-steps N     integrator steps allowed in the run, 1 .. 1e15\n"
            "  --min-step H      smallest step accepted, s, 0 <= H < T (0: automatic guard)\n"
            "  --wall-limit S    wall-clock seconds allowed, >= 0 (0: no limit)\n"
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
    int quiet, timing;
} run_args;

/* 0 to go on; else -1 - EXIT: the command ends with EXIT (help printed, or an error) */
static int run_parse(int argc, char **argv, run_args *a)
{
    const char *v, *why;
    int i;

    memset(a, 0, sizeof *a);
    a->t_end = a->step = a->max_steps = a->min_step = a->wall_limit = -1;
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

int cmd_run(int argc, char **argv)
{
    run_args a;
    const char *dir;
    double t0, last_progress = 0;
    int failed = 0, progress_shown = 0, exit_code, rc, io_failed = 0;
    char err[1024], dirbuf[256], why[1200], where[4096];
    clink_model *model = NULL;
    clink_sim *sim = NULL;
    clink_recorder *rec = NULL;
    clink_xml_summary sum;
    clink_settings_def set;
    clink_output_options opt;
    clink_run_info info;
    clink_status st;
    long n, k;

    rc = run_parse(argc, argv, &a);
    if (rc != 0)
        return -1 - rc;

    /* the model: any error in the file stops here, before anything is written */
    if (cli_check_input_file("run", a.path) != 0)
        return CLI_EXIT_USAGE;
    if (clink_xml_load(a.path, &model, &sum, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        return CLI_EXIT_USAGE;
    }
    rc = run_settings(model, &a, &set);
    if (rc != CLI_EXIT_OK) {
        clink_model_destroy(&model);
        return rc;
    }
    t0 = now_seconds();
    st = clink_sim_create(model, &set, &sim, err, sizeof err);
    if (st != CLINK_OK) {
        fprintf(stderr, "%s: %s\n", a.path, err);
        clink_model_destroy(&model);
        return st == CLINK_ERR_ASSEMBLY || st == CLINK_ERR_SINGULAR || st == CLINK_ERR_ARG ||
                       st == CLINK_ERR_RANGE || st == CLINK_ERR_MODEL || st == CLINK_ERR_NONFINITE
                   ? CLI_EXIT_USAGE
                   : CLI_EXIT_FAIL;
    }

    dir = a.dir;
    if (dir == NULL) {
        snprintf(dirbuf, sizeof dirbuf, "out/%s", sum.name);
        dir = dirbuf;
    }
    if (run_install_handlers() != 0) {
        clink_sim_destroy(&sim);
        clink_model_destroy(&model);
        return CLI_EXIT_FAIL;
    }
    if (make_dirs(dir, where, sizeof where) != 0) {
        fprintf(stderr, "clink: run: cannot create directory '%s': %s\n", where, strerror(errno));
        clink_sim_destroy(&sim);
        clink_model_destroy(&model);
        return CLI_EXIT_IO;
    }
    opt = clink_default_output_options();
    opt.reactions = sum.out_reactions;
    opt.energies = sum.out_energies;
    if (clink_recorder_create(model, dir, &opt, &rec, err, sizeof err) != CLINK_OK ||
        remove_old_figures(dir) != 0) {
        if (rec == NULL)
            fprintf(stderr, "clink: run: %s\n", err);
        clink_recorder_destroy(&rec);
        clink_sim_destroy(&sim);
        clink_model_destroy(&model);
        return CLI_EXIT_IO;
    }

    /* t = 0, then k H for k = 1..n, then t_end if it is not on the grid */
    why[0] = '\0';
    st = clink_recorder_sample(rec, sim);
    n = (long) floor(set.t_end / set.output_step * (1.0 + 1e-12));
    for (k = 1; k <= n + 1 && st == CLINK_OK && run_stop_signal == 0; k++) {
        double t = k <= n ? (double) k * set.output_step : set.t_end;
        if (t > set.t_end)
            t = set.t_end;
        if (t <= clink_sim_time(sim))
            continue;
        st = clink_sim_advance(sim, t);
        if (st != CLINK_OK) {
            failed = 1;
            snprintf(why, sizeof why, "%s", clink_sim_error(sim));
            break;
        }
        st = clink_recorder_sample(rec, sim);
        if (!a.quiet && isatty(STDERR_FILENO)) {
            double w = now_seconds();
            if (w - t0 > 1.0 && w - last_progress > 0.25) {
                fprintf(stderr, "\rclink run: t = %.6g s of %.6g s (%3.0f%%)", t, set.t_end,
                        100.0 * t / set.t_end);
                last_progress = w;
                progress_shown = 1;
            }
        }
    }
    if (progress_shown)
        fprintf(stderr, "\r%60s\r", "");
    if (st != CLINK_OK && !failed) {
        if (st == CLINK_ERR_IO) {
            io_failed = 1;
            snprintf(why, sizeof why, "%s", clink_recorder_error(rec));
        } else {
            failed = 1;
            snprintf(why, sizeof why, "reading the state for the output failed: %s",
                     clink_status_string(st));
        }
    }

    if (io_failed) {
        /* the files are incomplete: none of them is kept */
        fprintf(stderr, "clink: run: %s (no results kept in %s)\n", why, dir);
        clink_recorder_destroy(&rec);
        clink_sim_destroy(&sim);
        clink_model_destroy(&model);
        return CLI_EXIT_IO;
    }
    memset(&info, 0, sizeof info);
    info.model_name = sum.name;
    info.source = a.path;
    info.failed = failed;
    info.t_end = set.t_end;
    info.wall_time = a.timing ? now_seconds() - t0 : -1.0;
    /* physical-sanity warnings of the simulation go here once the API offers them */
    info.warnings = NULL;
    info.warning_count = 0;
    info.settings = &set;
    exit_code = failed ? CLI_EXIT_FAIL : CLI_EXIT_OK;
    if (run_stop_signal != 0 && !failed && clink_sim_time(sim) < set.t_end) {
        info.interrupted = 1;
        snprintf(why, sizeof why, "interrupted by %s at t = %.17g s",
                 run_stop_signal == SIGINT ? "SIGINT" : "SIGTERM", clink_sim_time(sim));
        exit_code = CLI_EXIT_SIGNAL_BASE + run_stop_signal;
    }
    info.message = failed || info.interrupted ? why : NULL;
    if (clink_recorder_finish(rec, sim, &info, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "clink: run: %s (no results kept in %s)\n", err, dir);
        exit_code = CLI_EXIT_IO;
    } else if (failed) {
        fprintf(stderr, "clink: run: %s failed at t = %.17g s: %s (results so far in %s)\n",
                sum.name, clink_sim_time(sim), why, dir);
    } else if (info.interrupted) {
        fprintf(stderr, "clink: run: %s %s (results so far in %s)\n", sum.name, why, dir);
    } else if (!a.quiet) {
        clink_sim_stats stats;
        clink_sim_stats_get(sim, &stats);
        printf("%s: ok, t = %g s, %ld steps, %ld right-hand sides; results in %s\n", sum.name,
               clink_sim_time(sim), stats.steps, stats.rhs_evals, dir);
    }
    clink_recorder_destroy(&rec);
    clink_sim_destroy(&sim);
    clink_model_destroy(&model);
    return exit_code;
}
