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

/*
 * The text the header promises, laid out here from printf's digits: the shortest decimal's
 * digits (printf "%.{n-1}e" at the formatter's digit count n) in fixed notation for decimal
 * exponents -4 .. 16, else d.ddde+XX; -1 when printf's n digits do not read back as x (the
 * asymmetric intervals at powers of two, where the shortest has fewer digits than printf's)
 */
static int expected_text(double x, char *out, size_t size)
{
    char e[48], dg[20], digits[18];
    int ex, n = output_shortest_decimal(fabs(x), digits, &ex), j = 0, k, xp;
    snprintf(e, sizeof e, "%.*e", n - 1, fabs(x));
    if (strtod(e, NULL) != fabs(x))
        return -1;
    for (k = 0; e[k] != 'e'; k++)
        if (e[k] != '.')
            dg[j++] = e[k];
    dg[j] = '\0';
    xp = atoi(e + k + 1);
    while (j > 1 && dg[j - 1] == '0') /* printf's digits at n - 1 places: n of them */
        dg[--j] = '\0';
    const char *sign = signbit(x) ? "-" : "";
    if (xp < -4 || xp >= 17)
        snprintf(out, size, "%s%c%s%.*se%c%02d", sign, dg[0], j > 1 ? "." : "", j - 1, dg + 1,
                 xp < 0 ? '-' : '+', abs(xp));
    else if (xp < 0)
        snprintf(out, size, "%s0.%.*s%s", sign, -xp - 1, "0000", dg);
    else if (xp >= j - 1)
        snprintf(out, size, "%s%s%.*s", sign, dg, xp - (j - 1), "0000000000000000");
    else
        snprintf(out, size, "%s%.*s.%s", sign, xp + 1, dg, dg + xp + 1);
    return 0;
}

TEST(shortest_format_text_is_the_layout_of_printf_digits_for_a_million_doubles)
{
    /* every family of sample_value (any bit pattern, subnormals, powers of ten, integers,
       powers of two), both signs, and the values of a run's rows (small negative decimals) */
    uint64_t s = 0x13198a2e03707344ULL;
    char buf[OUTPUT_DOUBLE_MAX], want[64];
    long i, n = 1000000, bad = 0, skipped = 0;
    for (i = 0; i < n; i++) {
        double x = i % 10 == 9 ? -(double) (next_random(&s) % 1000000) / 1024.0 - 1e-3
                               : sample_value(&s, i);
        if (x == 0 || !isfinite(x))
            continue;
        if (expected_text(x, want, sizeof want) != 0) {
            skipped++;
            continue;
        }
        size_t len = output_format_double(x, buf);
        if (strcmp(buf, want) != 0 || len != strlen(want)) {
            if (bad < 10)
                fprintf(stderr, "%.17g: \"%s\", expected \"%s\"\n", x, buf, want);
            bad++;
        }
    }
    printf("%ld doubles: text as laid out from printf's digits, %ld at powers of two skipped, "
           "%ld differ\n",
           n, skipped, bad);
    ENSURE(bad == 0);
    ENSURE(skipped < n / 100);
}

TEST(shortest_format_writes_the_digits_of_every_integer_block_like_printf)
{
    /* the digits are written eight at a time (fmt_write8): every integer below 2e6, 10^6
       random ones of 8 to 16 digits, and each 10^k - 1, 10^k, 10^k + 1, against "%.0f" */
    uint64_t s = 0xa4093822299f31d0ULL;
    char buf[OUTPUT_DOUBLE_MAX], want[40];
    long bad = 0, count = 0;
    for (long i = 0; i < 3000000 + 48; i++) {
        double x;
        if (i < 2000000)
            x = (double) i;
        else if (i < 3000000)
            x = (double) (next_random(&s) % 10000000000000000ULL / (1 + next_random(&s) % 10000));
        else
            x = pow(10.0, (double) ((i - 3000000) / 3)) + (double) ((i - 3000000) % 3) - 1.0;
        if (!(x < 9007199254740992.0))
            continue;
        output_format_double(x, buf);
        snprintf(want, sizeof want, "%.0f", x);
        count++;
        if (strcmp(buf, want) != 0) {
            if (bad < 10)
                fprintf(stderr, "%s formatted as \"%s\"\n", want, buf);
            bad++;
        }
    }
    printf("%ld integers below 2^53: %ld differ from printf\n", count, bad);
    ENSURE(bad == 0);
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
