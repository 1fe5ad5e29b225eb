/*
 * `clink run MODEL.xml [-o DIR] [--t-end T] [--output-step H] [--quiet] [--no-timing]`:
 * loads the model (exit 2 on any error in the file, nothing written), integrates
 * it to t_end and samples it at t = 0, H, 2H, ... and t_end into
 * DIR/timeseries.csv, DIR/impacts.csv and DIR/summary.json (clink/output.h).
 * If the solver fails, the rows so far are kept, summary.json says "failed",
 * when and why, and the exit status is 1. Progress goes to stderr only when
 * stderr is a terminal and the run lasts more than a second.
 */
#define _POSIX_C_SOURCE 200809L

#include "cli.h"

#include "clink/output.h"
#include "clink/sim.h"
#include "clink/xml.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void run_usage(FILE *out)
{
    fprintf(out,
            "usage: clink run MODEL.xml [-o DIR] [--t-end T] [--output-step H] [--quiet]\n"
            "                 [--no-timing]\n\n"
            "Integrates MODEL.xml and writes DIR/timeseries.csv, DIR/impacts.csv and\n"
            "DIR/summary.json (default DIR: out/NAME, NAME the mechanism's name).\n\n"
            "  -o DIR            output directory (created if missing)\n"
            "  --t-end T         end time, s (overrides <settings t_end>)\n"
            "  --output-step H   spacing of output rows, s (overrides <settings output_step>)\n"
            "  --quiet           no summary line on stdout, no progress on stderr\n"
            "  --no-timing       write \"wall_time\": null, so that summary.json too is\n"
            "                    identical between two runs\n\n"
            "Exit status: 0 ok, 1 the solver failed (results up to the failure kept),\n"
            "2 bad input (file, option or inconsistent model; nothing written).\n");
}

static double now_seconds(void)
{
    struct timespec ts;

    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return 0.0;
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

/* mkdir -p */
static int make_dirs(const char *path)
{
    char buf[4096];
    size_t i, len = strlen(path);

    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, path, len + 1);
    for (i = 1; i <= len; i++) {
        if (buf[i] == '/' || buf[i] == '\0') {
            char saved = buf[i];
            buf[i] = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                return -1;
            buf[i] = saved;
        }
    }
    return 0;
}

int cmd_run(int argc, char **argv)
{
    const char *path = NULL, *dir = NULL;
    double t_end = -1, step = -1, t0, last_progress = 0;
    int quiet = 0, timing = 1, i, failed = 0, progress_shown = 0, exit_code;
    char err[1024], dirbuf[256], why[1024];
    clink_model *model = NULL;
    clink_sim *sim = NULL;
    clink_recorder *rec = NULL;
    clink_xml_summary sum;
    clink_settings_def set;
    clink_output_options opt;
    clink_run_info info;
    clink_status st;
    long n, k;

    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            run_usage(stdout);
            return CLI_EXIT_OK;
        } else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
            if (++i >= argc)
                return cli_usage_error("run: %s needs a directory", a);
            dir = argv[i];
        } else if (strcmp(a, "--t-end") == 0) {
            if (++i >= argc || cli_parse_double(a, argv[i], &t_end) != 0)
                return i >= argc ? cli_usage_error("run: --t-end needs a value") : CLI_EXIT_USAGE;
            if (!(t_end > 0))
                return cli_usage_error("run: --t-end = %g s must be > 0", t_end);
        } else if (strcmp(a, "--output-step") == 0) {
            if (++i >= argc || cli_parse_double(a, argv[i], &step) != 0)
                return i >= argc ? cli_usage_error("run: --output-step needs a value")
                                 : CLI_EXIT_USAGE;
            if (!(step > 0))
                return cli_usage_error("run: --output-step = %g s must be > 0", step);
        } else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
            quiet = 1;
        } else if (strcmp(a, "--no-timing") == 0) {
            timing = 0;
        } else if (a[0] == '-' && a[1] != '\0') {
            return cli_usage_error("run: unknown option '%s' (see clink run --help)", a);
        } else if (path != NULL) {
            return cli_usage_error("run: one model file only (got '%s' and '%s')", path, a);
        } else {
            path = a;
        }
    }
    if (path == NULL) {
        run_usage(stderr);
        return CLI_EXIT_USAGE;
    }

    /* the model: any error in the file stops here, before anything is written */
    if (clink_xml_load(path, &model, &sum, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        return CLI_EXIT_USAGE;
    }
    set = clink_model_settings(model);
    if (t_end > 0)
        set.t_end = t_end;
    if (step > 0)
        set.output_step = step;
    if (set.output_step > set.t_end) {
        clink_model_destroy(&model);
        return cli_usage_error("run: output step %g s is larger than the end time %g s",
                               set.output_step, set.t_end);
    }
    if (set.t_end / set.output_step > 1e8) {
        clink_model_destroy(&model);
        return cli_usage_error("run: %g s / %g s gives more than 1e8 output rows", set.t_end,
                               set.output_step);
    }
    t0 = now_seconds();
    st = clink_sim_create(model, &set, &sim, err, sizeof err);
    if (st != CLINK_OK) {
        fprintf(stderr, "%s: %s\n", path, err);
        clink_model_destroy(&model);
        return st == CLINK_ERR_ASSEMBLY || st == CLINK_ERR_SINGULAR || st == CLINK_ERR_ARG ||
                       st == CLINK_ERR_RANGE || st == CLINK_ERR_MODEL
                   ? CLI_EXIT_USAGE
                   : CLI_EXIT_FAIL;
    }

    if (dir == NULL) {
        snprintf(dirbuf, sizeof dirbuf, "out/%s", sum.name);
        dir = dirbuf;
    }
    if (make_dirs(dir) != 0) {
        fprintf(stderr, "clink: run: cannot create directory '%s': %s\n", dir, strerror(errno));
        clink_sim_destroy(&sim);
        clink_model_destroy(&model);
        return CLI_EXIT_FAIL;
    }
    opt = clink_default_output_options();
    opt.reactions = sum.out_reactions;
    opt.energies = sum.out_energies;
    if (clink_recorder_create(model, dir, &opt, &rec, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "clink: run: %s\n", err);
        clink_sim_destroy(&sim);
        clink_model_destroy(&model);
        return CLI_EXIT_FAIL;
    }

    /* t = 0, then k H for k = 1..n, then t_end if it is not on the grid */
    why[0] = '\0';
    st = clink_recorder_sample(rec, sim);
    n = (long) floor(set.t_end / set.output_step * (1.0 + 1e-12));
    for (k = 1; k <= n + 1 && st == CLINK_OK; k++) {
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
        if (!quiet && isatty(STDERR_FILENO)) {
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
        failed = 1;
        snprintf(why, sizeof why, "writing %s/timeseries.csv failed: %s", dir,
                 clink_status_string(st));
    }

    memset(&info, 0, sizeof info);
    info.model_name = sum.name;
    info.source = path;
    info.failed = failed;
    info.message = failed ? why : NULL;
    info.t_end = set.t_end;
    info.wall_time = timing ? now_seconds() - t0 : -1.0;
    exit_code = failed ? CLI_EXIT_FAIL : CLI_EXIT_OK;
    if (clink_recorder_finish(rec, sim, &info, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "clink: run: %s\n", err);
        exit_code = CLI_EXIT_FAIL;
    } else if (failed) {
        fprintf(stderr, "clink: run: %s failed at t = %.17g s: %s (results so far in %s)\n",
                sum.name, clink_sim_time(sim), why, dir);
    } else if (!quiet) {
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
