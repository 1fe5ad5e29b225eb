/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * clink wear: the life simulation of a mechanism whose clearance joints wear (Archard's
 * law, <wear> on <revolute_clearance> and <translational_clearance>; include/clink/wear.h,
 * docs/wear.md): a few steady cycles observed per update, the wear per cycle extrapolated by a
 * factor chosen so one update adds at most a stated fraction of the clearance, the worn bore fed
 * back into the dynamics; resumable from its journal. A shell over clink_wear_life().
 */
#include "cli.h"

#include "clink/wear.h"

#include <stdio.h>
#include <string.h>

enum {
    W_OUT = 1,
    W_CYCLES,
    W_FRACTION,
    W_KNOTS,
    W_SAMPLES,
    W_WARMUP,
    W_OBSERVE,
    W_PERIOD,
    W_RESUME,
    W_QUIET,
    W_SET
};

enum { WEAR_MAX_SETS = 32 };

static const cli_option wear_options[] = {
    {W_OUT, "output", 'o', "DIR", "output directory (created if missing; default out/wear)"},
    {W_CYCLES, "cycles", 0, "N", "machine cycles of life to simulate, >= 1 (required)"},
    {W_FRACTION, "fraction", 0, "F",
     "one update adds at most F times the radial clearance\nat any point, 0 < F < 1 "
     "(default 0.02)"},
    {W_KNOTS, "knots", 0, "K",
     "knots of the worn bore's and guide's splines, 8 .. 47\n(default 36)"},
    {W_SAMPLES, "samples", 0, "S", "observations per cycle, >= 10 (default 2000)"},
    {W_WARMUP, "warmup", 0, "W", "cycles run before each observation (default 1)"},
    {W_OBSERVE, "observe", 0, "C", "cycles observed per update, >= 1 (default 2)"},
    {W_PERIOD, "period", 0, "T",
     "cycle period, s (default: 2 pi / rate of the model's\nconstant-rate angle driver)"},
    {W_RESUME, "resume", 0, NULL, "continue from DIR/wear.journal after its last update"},
    {W_QUIET, "quiet", 'q', NULL, "no progress line on stderr"},
    {W_SET, "set", 0, "PATH=VALUE",
     "override an attribute of the model, repeatable:\n"
     "revolute_clearance[rod_slider].wear.grid=720"},
    {0, NULL, 0, NULL, NULL},
};

typedef struct wear_cli {
    clink_wear_options o;
    const char *model, *dir;
    int has_cycles;
    const char *sets[WEAR_MAX_SETS];
} wear_cli;

static void wear_usage(FILE *out)
{
    fprintf(out, "usage: clink wear MODEL.xml --cycles N [OPTIONS]\n\n"
                 "Simulates N cycles of wear of the clearance joints of MODEL.xml that have a\n"
                 "<wear> (Archard's law; revolute: bore and pin, translational: the guide):\n"
                 "per update a few steady cycles are observed, the wear per cycle is\n"
                 "extrapolated by a factor chosen so that one update adds at most F times the\n"
                 "clearance, and the worn surfaces are fed back. Writes DIR/wear_updates.csv\n"
                 "and DIR/orbit_NNNNN.csv (revolute joints), DIR/wear_guide_updates.csv and\n"
                 "DIR/guide_orbit_NNNNN.csv (guides), DIR/wear_profile.csv,\n"
                 "DIR/wear_summary.json and DIR/wear.journal (docs/wear.md).\n\n"
                 "Options (--opt VALUE or --opt=VALUE):\n");
    cli_print_options(out, wear_options);
    fprintf(out, "\nExit status: 0 done, 1 the model or the run failed, 2 usage.\n");
}

static int wear_count(const char *opt, const char *v, double max, double *out)
{
    const char *why;
    if (cli_read_count(v, max, out, &why) != 0)
        return cli_usage_error("wear: %s '%s': %s", opt, v, why);
    return CLI_EXIT_OK;
}

static int wear_apply(void *ctx, int id, const char *spelled, const char *v)
{
    wear_cli *c = ctx;
    double x;
    int rc = CLI_EXIT_OK;
    switch (id) {
    case CLI_OPERAND:
        if (c->model)
            return cli_usage_error("wear: one model file (got '%s' and '%s')", c->model, v);
        c->model = v;
        return CLI_EXIT_OK;
    case W_OUT:
        c->dir = v;
        return CLI_EXIT_OK;
    case W_CYCLES:
        if ((rc = wear_count(spelled, v, 1e15, &x)) == CLI_EXIT_OK)
            c->o.cycles = (long) x, c->has_cycles = 1;
        return rc;
    case W_FRACTION:
        if (cli_parse_double(spelled, v, &c->o.fraction))
            return CLI_EXIT_USAGE;
        if (!(c->o.fraction > 0.0 && c->o.fraction < 1.0))
            return cli_usage_error("wear: %s %s is out of range; 0 < F < 1 (one update must "
                                   "wear less than the radial clearance)",
                                   spelled, v);
        return CLI_EXIT_OK;
    case W_PERIOD:
        return cli_parse_double(spelled, v, &c->o.period) ? CLI_EXIT_USAGE : CLI_EXIT_OK;
    case W_KNOTS:
        return cli_parse_int(spelled, v, &c->o.knots) ? CLI_EXIT_USAGE : CLI_EXIT_OK;
    case W_SAMPLES:
        return cli_parse_int(spelled, v, &c->o.samples) ? CLI_EXIT_USAGE : CLI_EXIT_OK;
    case W_WARMUP:
        return cli_parse_int(spelled, v, &c->o.warmup) ? CLI_EXIT_USAGE : CLI_EXIT_OK;
    case W_OBSERVE:
        return cli_parse_int(spelled, v, &c->o.observe) ? CLI_EXIT_USAGE : CLI_EXIT_OK;
    case W_RESUME:
        c->o.resume = 1;
        return CLI_EXIT_OK;
    case W_QUIET:
        c->o.quiet = 1;
        return CLI_EXIT_OK;
    case W_SET:
        if (c->o.nsets >= WEAR_MAX_SETS)
            return cli_usage_error("wear: more than %d --set", WEAR_MAX_SETS);
        c->sets[c->o.nsets++] = v;
        c->o.sets = c->sets;
        return CLI_EXIT_OK;
    default:
        return CLI_EXIT_USAGE;
    }
}

int cmd_wear(int argc, char **argv)
{
    wear_cli c;
    char err[1024];
    memset(&c, 0, sizeof c);
    clink_wear_options_init(&c.o);
    c.dir = "out/wear";
    int rc = cli_parse_options(argc, argv, wear_options, wear_apply, &c);
    if (rc == CLI_HELP) {
        wear_usage(stdout);
        return CLI_EXIT_OK;
    }
    if (rc != CLI_EXIT_OK)
        return rc;
    if (!c.model)
        return cli_usage_error("wear: no model file (clink wear MODEL.xml --cycles N)");
    if (!c.has_cycles)
        return cli_usage_error("wear: --cycles N is required");
    if (cli_check_input_file("wear", c.model) != 0)
        return CLI_EXIT_USAGE;
    if (cli_check_output_path("wear", "--output", c.dir, 1) != CLI_EXIT_OK)
        return CLI_EXIT_USAGE;
    if (clink_wear_life(c.model, c.dir, &c.o, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "clink: wear: %s\n", err);
        return 1;
    }
    if (!c.o.quiet)
        printf("wear: %ld cycles into %s\n", c.o.cycles, c.dir);
    return CLI_EXIT_OK;
}
