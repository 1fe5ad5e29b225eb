/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Tests of the run outputs: the shortest round-trip formatter of the recorder
 * (src/fmt_double.c) against the C library (strtod reads every output
 * back to the same bits; printf's shortest round-tripping "%.{1..17}g" has the
 * same digits), and the recorder's file protocol (old results removed before
 * a run, names that say "incomplete" until the end, errors with the OS's
 * cause and the user's path).
 */
#define _XOPEN_SOURCE 700

#include "ensure.h"

#include "clink/output.h"
#include "clink/sim.h"
#include "clink/xml.h"
#include "fmt_double.h"

#include <errno.h>
#include <float.h>
#include <signal.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/* xorshift64*: a fixed sequence, the same on every machine */
static uint64_t next_random(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ULL;
}

static double from_bits(uint64_t b)
{
    double x;
    memcpy(&x, &b, sizeof x);
    return x;
}

static uint64_t to_bits(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

/* a test value of family k: any bit pattern, subnormal, power of ten, integer, power of two */
static double sample_value(uint64_t *s, long i)
{
    uint64_t r = next_random(s);
    switch (i % 8) {
    case 0: /* subnormal with a random significand and sign */
        return from_bits((r & 0x800fffffffffffffULL));
    case 1: { /* a power of ten 1e-330 .. 1e310, scaled by a random small integer */
        char txt[32];
        snprintf(txt, sizeof txt, "%de%d", (int) (r % 9) + 1, (int) ((r >> 8) % 641) - 330);
        return strtod(txt, NULL);
    }
    case 2: /* an integer below 2^53, or up to 2^64 */
        return (r >> 60) & 1 ? (double) (r >> (r & 63)) : (double) (r >> 11);
    case 3: /* a power of two times a short odd integer (the asymmetric intervals) */
        return ldexp((double) ((r & 7) * 2 + 1), (int) ((r >> 8) % 2150) - 1080);
    default: { /* any bit pattern but NaN and infinity */
        double x = from_bits(r);
        return isfinite(x) ? x : from_bits(r & 0xbfffffffffffffffULL);
    }
    }
}

TEST(shortest_format_reads_back_bit_for_bit_for_a_million_doubles_of_every_kind)
{
    uint64_t s = 0x9e3779b97f4a7c15ULL;
    char buf[OUTPUT_DOUBLE_MAX];
    long i, bad = 0, n = 1200000;
    static const double special[] = {0.0,
                                     1.0,
                                     -1.0,
                                     0.1,
                                     DBL_MAX,
                                     -DBL_MAX,
                                     DBL_MIN,
                                     DBL_TRUE_MIN,
                                     1e23,
                                     9007199254740993.0,
                                     5e-324,
                                     2.2250738585072009e-308,
                                     1.7976931348623157e308};
    for (i = 0; i < (long) (sizeof special / sizeof special[0]); i++) {
        output_format_double(special[i], buf);
        if (to_bits(strtod(buf, NULL)) != to_bits(special[i]))
            bad++;
    }
    for (i = 1; i <= 100000; i++) { /* the smallest subnormals, one by one */
        double x = from_bits((uint64_t) i);
        output_format_double(x, buf);
        if (to_bits(strtod(buf, NULL)) != to_bits(x))
            bad++;
    }
    for (i = 0; i < n; i++) {
        double x = sample_value(&s, i);
        size_t len = output_format_double(x, buf);
        char *end = NULL;
        double y = strtod(buf, &end);
        if (to_bits(y) != to_bits(x) || (size_t) (end - buf) != len || len >= OUTPUT_DOUBLE_MAX) {
            if (bad < 10)
                fprintf(stderr, "%.17g (bits %016llx) formatted as \"%s\"\n", x,
                        (unsigned long long) to_bits(x), buf);
            bad++;
        }
    }
    printf("%ld doubles formatted and read back, %ld differ\n", n + 100000, bad);
    ENSURE(bad == 0);
}

/* the fewest digits p for which printf("%.{p}g") reads back as x */
static int shortest_printf(double x, char *buf, size_t size)
{
    int p;
    for (p = 1; p < 17; p++) {
        snprintf(buf, size, "%.*e", p - 1, x);
        if (strtod(buf, NULL) == x)
            return p;
    }
    snprintf(buf, size, "%.16e", x);
    return 17;
}

TEST(shortest_format_has_the_digits_of_the_shortest_round_tripping_printf)
{
    uint64_t s = 0x243f6a8885a308d3ULL;
    char pbuf[64], digits[18];
    long i, n = 200000, bad = 0, shorter = 0;

    for (i = 0; i < n; i++) {
        double x = i < 2000 ? from_bits((uint64_t) i + 1) : fabs(sample_value(&s, i));
        int e, k, p, nd;
        char mine[40];
        if (x == 0 || !isfinite(x))
            continue;
        nd = output_shortest_decimal(x, digits, &e);
        p = shortest_printf(x, pbuf, sizeof pbuf);
        if (nd < p) {
            /* fewer digits than printf can only happen where the rounding interval is
               asymmetric (significand 2^52): the nearer neighbour below is closer */
            uint64_t b = to_bits(x);
            snprintf(mine, sizeof mine, "%.*se%d", nd, digits, e);
            if ((b & 0xfffffffffffffULL) == 0 && strtod(mine, NULL) == x) {
                shorter++;
                continue;
            }
        }
        /* printf's "%.{p-1}e" is d.ddd...e+X: the same digits and exponent */
        if (nd == p) {
            char pd[18];
            int j = 0, xexp;
            for (k = 0; pbuf[k] != 'e'; k++)
                if (pbuf[k] >= '0' && pbuf[k] <= '9')
                    pd[j++] = pbuf[k];
            xexp = atoi(pbuf + k + 1);
            if (j == nd && memcmp(pd, digits, (size_t) nd) == 0 && xexp == e + nd - 1)
                continue;
        }
        if (bad < 10)
            fprintf(stderr, "%.17g: %d digits \"%.*s\"e%d, printf %d digits \"%s\"\n", x, nd, nd,
                    digits, e, p, pbuf);
        bad++;
    }
    printf("%ld doubles: digits equal to printf's shortest, %ld shorter at powers of two, "
           "%ld differ\n",
           n, shorter, bad);
    ENSURE(bad == 0);
}

TEST(shortest_format_lays_numbers_out_like_printf_g)
{
    static const struct {
        double x;
        const char *text;
    } cases[] = {
        {0.0, "0"},
        {1.0, "1"},
        {-2.5, "-2.5"},
        {0.1, "0.1"},
        {1.0 / 3.0, "0.3333333333333333"},
        {0.0001, "0.0001"},
        {0.00012, "0.00012"},
        {1e-5, "1e-05"},
        {-1.25e-7, "-1.25e-07"},
        {123456.0, "123456"},
        {1e16, "10000000000000000"},
        {1e17, "1e+17"},
        {1.5e300, "1.5e+300"},
        {5e-324, "5e-324"},
        {2.2250738585072014e-308, "2.2250738585072014e-308"},
        {1.7976931348623157e308, "1.7976931348623157e+308"},
        {9007199254740993.0, "9007199254740992"},
        {0.02, "0.02"},
        {123.456, "123.456"},
    };
    char buf[OUTPUT_DOUBLE_MAX];
    size_t i;

    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        output_format_double(cases[i].x, buf);
        ENSURE_STR_EQ(buf, cases[i].text);
    }
    output_format_double(-0.0, buf);
    ENSURE_STR_EQ(buf, "-0");
    output_format_double(NAN, buf);
    ENSURE_STR_EQ(buf, "nan");
    output_format_double(-NAN, buf);
    ENSURE_STR_EQ(buf, "nan");
    output_format_double(INFINITY, buf);
    ENSURE_STR_EQ(buf, "inf");
    ENSURE(output_format_double(-INFINITY, buf) == 4);
    ENSURE_STR_EQ(buf, "-inf");
}

/* ---- the recorder's file protocol ------------------------------------------ */

static int exists(const char *dir, const char *name)
{
    char path[4200];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return stat(path, &st) == 0;
}

static void touch(const char *dir, const char *name, const char *text)
{
    char path[4200];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "w");
    if (f != NULL) {
        fputs(text, f);
        fclose(f);
    }
}

static char *slurp_file(const char *dir, const char *name)
{
    char path[4200], *buf;
    FILE *f;
    long n;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = calloc(1, (size_t) n + 1);
    if (buf != NULL && fread(buf, 1, (size_t) n, f) != (size_t) n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    return buf;
}

/* the pendulum model and a simulation of it */
static int open_pendulum(clink_model **model, clink_sim **sim)
{
    char err[512];
    *model = NULL;
    *sim = NULL;
    if (clink_xml_load(CLINK_SOURCE_DIR "/models/pendulum.xml", model, NULL, err, sizeof err) !=
        CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    if (clink_sim_create(*model, NULL, sim, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        clink_model_destroy(model);
        return -1;
    }
    return 0;
}

TEST(recorder_removes_old_results_and_writes_incomplete_names_until_it_finishes)
{
    char dir[] = "/tmp/clink_test_output_XXXXXX", err[512], *summary;
    clink_model *model;
    clink_sim *sim;
    clink_recorder *rec = NULL;
    clink_run_info info;
    const char *warnings[] = {"a warning \"quoted\""};
    int k;

    ENSURE(mkdtemp(dir) != NULL);
    ENSURE(open_pendulum(&model, &sim) == 0);
    if (sim == NULL)
        return;
    touch(dir, "summary.json", "{\"status\": \"ok\"}\n");
    touch(dir, "timeseries.csv", "old\n");
    touch(dir, "impacts.csv.incomplete", "killed\n");
    touch(dir, ".summary.json.tmp", "killed by an older version\n");
    ENSURE(clink_recorder_create(model, dir, NULL, &rec, err, sizeof err) == CLINK_OK);
    ENSURE(!exists(dir, "summary.json"));
    ENSURE(!exists(dir, "timeseries.csv"));
    ENSURE(!exists(dir, ".summary.json.tmp"));
    ENSURE(exists(dir, "timeseries.csv.incomplete"));
    ENSURE(exists(dir, "impacts.csv.incomplete"));
    ENSURE(clink_recorder_sample(rec, sim) == CLINK_OK);
    for (k = 1; k <= 5; k++) {
        ENSURE(clink_sim_advance(sim, 0.01 * k) == CLINK_OK);
        ENSURE(clink_recorder_sample(rec, sim) == CLINK_OK);
    }
    ENSURE(!exists(dir, "timeseries.csv"));
    ENSURE_STR_EQ(clink_recorder_error(rec), "");
    memset(&info, 0, sizeof info);
    info.model_name = "pendulum";
    info.interrupted = 1;
    info.message = "interrupted by SIGINT";
    info.t_end = 1.0;
    info.wall_time = -1;
    info.warnings = warnings;
    info.warning_count = 1;
    ENSURE(clink_recorder_finish(rec, sim, &info) == CLINK_OK);
    ENSURE_STR_EQ(clink_recorder_error(rec), "");
    /* a second finish fails with its message on the handle (no caller buffer) */
    ENSURE(clink_recorder_finish(rec, sim, &info) == CLINK_ERR_ARG);
    ENSURE_STR_EQ(clink_recorder_error(rec), "clink_recorder_finish: recorder already finished");
    ENSURE(clink_recorder_sample(rec, sim) == CLINK_ERR_ARG);
    ENSURE_STR_EQ(clink_recorder_error(rec), "clink_recorder_sample: recorder already finished");
    clink_recorder_destroy(&rec);
    ENSURE(exists(dir, "timeseries.csv") && exists(dir, "impacts.csv") &&
           exists(dir, "summary.json"));
    ENSURE(!exists(dir, "timeseries.csv.incomplete") && !exists(dir, "impacts.csv.incomplete") &&
           !exists(dir, "summary.json.incomplete"));
    summary = slurp_file(dir, "summary.json");
    ENSURE(summary != NULL && strstr(summary, "\"status\": \"interrupted\"") != NULL);
    ENSURE(summary != NULL && strstr(summary, "\"output_rows\": 6,") != NULL);
    ENSURE(summary != NULL && strstr(summary, "\"t_end_reached\": 0.05,") != NULL);
    ENSURE(summary != NULL &&
           strstr(summary, "\"warnings\": [\n    \"a warning \\\"quoted\\\"\"\n  ]") != NULL);
    free(summary);
    remove(strcat(strcpy(err, dir), "/timeseries.csv"));
    remove(strcat(strcpy(err, dir), "/impacts.csv"));
    remove(strcat(strcpy(err, dir), "/summary.json"));
    ENSURE(rmdir(dir) == 0);
    clink_sim_destroy(&sim);
    clink_model_destroy(&model);
}

TEST(recorder_write_failure_names_the_final_file_and_the_system_reason_and_leaves_nothing)
{
    char dir[] = "/tmp/clink_test_output_XXXXXX", err[512], want[600];
    clink_model *model;
    clink_sim *sim;
    clink_recorder *rec = NULL;
    clink_run_info info;
    struct rlimit old, small;
    clink_status st = CLINK_OK;
    int rows = 0;

    ENSURE(mkdtemp(dir) != NULL);
    ENSURE(open_pendulum(&model, &sim) == 0);
    if (sim == NULL)
        return;
    ENSURE(clink_recorder_create(model, dir, NULL, &rec, err, sizeof err) == CLINK_OK);
    /* a file size limit of 64 KiB: write() fails with EFBIG, as a full disk gives ENOSPC */
    ENSURE(getrlimit(RLIMIT_FSIZE, &old) == 0);
    small = old;
    small.rlim_cur = 65536;
    signal(SIGXFSZ, SIG_IGN);
    ENSURE(setrlimit(RLIMIT_FSIZE, &small) == 0);
    while (st == CLINK_OK && rows < 100000) {
        st = clink_recorder_sample(rec, sim); /* the same state again and again */
        rows++;
    }
    ENSURE(st == CLINK_ERR_IO);
    snprintf(want, sizeof want, "%s/timeseries.csv: cannot write: %s", dir, strerror(EFBIG));
    ENSURE_STR_EQ(clink_recorder_error(rec), want);
    memset(&info, 0, sizeof info);
    info.model_name = "pendulum";
    info.t_end = 1.0;
    info.wall_time = -1;
    ENSURE(clink_recorder_finish(rec, sim, &info) == CLINK_ERR_IO);
    ENSURE_STR_EQ(clink_recorder_error(rec), want);
    clink_recorder_destroy(&rec);
    ENSURE(setrlimit(RLIMIT_FSIZE, &old) == 0);
    signal(SIGXFSZ, SIG_DFL);
    printf("the write failed after %d rows: %s\n", rows, want);
    ENSURE(!exists(dir, "timeseries.csv") && !exists(dir, "timeseries.csv.incomplete"));
    ENSURE(!exists(dir, "impacts.csv") && !exists(dir, "impacts.csv.incomplete"));
    ENSURE(!exists(dir, "summary.json") && !exists(dir, "summary.json.incomplete"));
    ENSURE(rmdir(dir) == 0);
    clink_sim_destroy(&sim);
    clink_model_destroy(&model);
}
