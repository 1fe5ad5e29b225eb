/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `clink spectrum PATH COLUMN [--from T] [--to T] [--window hann|rect] [--fmax F]
 * [-o OUTDIR]`: the amplitude spectrum of one column of a run's time series (PATH: the run's
 * directory, or a CSV file with a column "t [s]") over a settled window, by cli_spectrum.c
 * (resampled onto a uniform grid of 2^m times, Hann window, FFT, one-sided amplitudes,
 * refined peaks). Writes OUTDIR/spectrum_COLUMN.csv (f [Hz], amplitude [unit]),
 * spectrum_COLUMN.json (the window, the grid, the mean and the largest peaks) and
 * spectrum_COLUMN.svg (the figure), and prints the peaks. docs/nonlinear.md, "Spectra".
 */
#define _POSIX_C_SOURCE 200809L

#include "cli.h"
#include "cli_spectrum.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { SP_FROM = 1, SP_TO, SP_WINDOW, SP_FMAX, SP_OUTPUT };
enum { SP_PEAKS = 8, SP_LINE = 1 << 20 };

static const cli_option spectrum_options[] = {
    {SP_FROM, "from", 0, "T", "start of the window, s (default: half-way through the rows)"},
    {SP_TO, "to", 0, "T", "end of the window, s (default: the last row)"},
    {SP_WINDOW, "window", 0, "W", "hann (the default) or rect"},
    {SP_FMAX, "fmax", 0, "F",
     "the figure's highest frequency, Hz (default: 8 times the\n"
     "largest peak's, at most the Nyquist frequency)"},
    {SP_OUTPUT, "output", 'o', "OUTDIR", "directory of the results (default: PATH's)"},
    {0, NULL, 0, NULL, NULL},
};

static void spectrum_usage(FILE *out)
{
    fprintf(out, "usage: clink spectrum PATH COLUMN [--from T] [--to T] [--window hann|rect]\n"
                 "                      [--fmax F] [-o OUTDIR]\n\n"
                 "The amplitude spectrum of COLUMN (a column of the time series, as its header\n"
                 "names it, without the unit: slider.ax) of the run in PATH (a directory of\n"
                 "clink run, or a CSV file with a column t) over the window [from, to): the\n"
                 "rows resampled by linear interpolation onto 2^m uniform times (at least as\n"
                 "many as rows), the mean removed, the window applied, and the one-sided\n"
                 "amplitudes (a sine of amplitude a shows a). Writes spectrum_COLUMN.csv,\n"
                 ".json (window, grid, mean, peaks) and .svg (the figure) into OUTDIR, and\n"
                 "prints the largest peaks, refined between bins.\n\n");
    cli_print_options(out, spectrum_options);
    fprintf(out, "\nExit status: 0 written; 2 bad input (no such file or column, fewer than 8\n"
                 "rows in the window, a bad option); 3 a file could not be written.\n");
}

typedef struct sp_args {
    const char *path, *column, *out;
    double from, to, fmax;
    int hann;
} sp_args;

static int spectrum_apply(void *ctx, int id, const char *spelled, const char *value)
{
    sp_args *a = ctx;
    switch (id) {
    case SP_FROM:
        return cli_parse_double(spelled, value, &a->from);
    case SP_TO:
        return cli_parse_double(spelled, value, &a->to);
    case SP_FMAX:
        return cli_parse_double(spelled, value, &a->fmax);
    case SP_WINDOW:
        if (strcmp(value, "hann") != 0 && strcmp(value, "rect") != 0)
            return cli_usage_error("spectrum: %s: '%s' is not hann or rect", spelled, value);
        a->hann = strcmp(value, "hann") == 0;
        return CLI_EXIT_OK;
    case SP_OUTPUT:
        a->out = value;
        return CLI_EXIT_OK;
    default:
        break;
    }
    if (a->path == NULL)
        a->path = value;
    else if (a->column == NULL)
        a->column = value;
    else
        return cli_usage_error("spectrum: one PATH and one COLUMN (got also '%s')", value);
    return CLI_EXIT_OK;
}

/* the signal read from a CSV file */
typedef struct sp_signal {
    double *t, *x;
    long n, cap;
    char unit[64];
} sp_signal;

/* the index of the header field whose name (before " [") is name, its unit into unit; -1 */
static int sp_find(char *header, const char *name, char *unit, size_t usize)
{
    int i = 0;
    for (char *f = strtok(header, ",\n\r"); f; f = strtok(NULL, ",\n\r"), i++) {
        char *br = strstr(f, " [");
        size_t len = br ? (size_t) (br - f) : strlen(f);
        if (strlen(name) == len && strncmp(f, name, len) == 0) {
            snprintf(unit, usize, "%.*s", br ? (int) strcspn(br + 2, "]") : 1, br ? br + 2 : "-");
            return i;
        }
    }
    return -1;
}

/* field k of a CSV line as a double (NaN when missing) */
static double sp_field(const char *line, int k)
{
    const char *p = line;
    for (int i = 0; i < k && p; i++) {
        p = strchr(p, ',');
        if (p)
            p++;
    }
    return p ? strtod(p, NULL) : NAN;
}

/* appends (t, x); 0 or -1 out of memory */
static int sp_push(sp_signal *s, double t, double x)
{
    if (s->n == s->cap) {
        long cap = s->cap ? 2 * s->cap : 4096;
        double *nt = realloc(s->t, (size_t) cap * sizeof *nt);
        if (!nt)
            return -1;
        s->t = nt;
        double *nx = realloc(s->x, (size_t) cap * sizeof *nx);
        if (!nx)
            return -1;
        s->x = nx;
        s->cap = cap;
    }
    s->t[s->n] = t;
    s->x[s->n++] = x;
    return 0;
}

/* the columns t and name of the CSV file at path; exit status */
static int sp_read(const char *path, const char *name, sp_signal *s)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "clink: spectrum: %s: cannot open: %s\n", path, strerror(errno));
        return CLI_EXIT_USAGE;
    }
    char *line = malloc(SP_LINE), *hdr = malloc(SP_LINE), tu[64];
    int rc = line && hdr && fgets(line, SP_LINE, f) ? CLI_EXIT_OK : CLI_EXIT_USAGE;
    int kt = -1, kx = -1;
    if (rc == CLI_EXIT_OK) {
        memcpy(hdr, line, strlen(line) + 1);
        kt = sp_find(hdr, "t", tu, sizeof tu);
        memcpy(hdr, line, strlen(line) + 1);
        kx = sp_find(hdr, name, s->unit, sizeof s->unit);
        if (kt < 0 || kx < 0) {
            fprintf(stderr,
                    "clink: spectrum: %s: no column '%s' (the header names it as "
                    "'NAME [UNIT]'; give NAME)\n",
                    path, kt < 0 ? "t" : name);
            rc = CLI_EXIT_USAGE;
        }
    }
    while (rc == CLI_EXIT_OK && fgets(line, SP_LINE, f)) {
        double t = sp_field(line, kt), x = sp_field(line, kx);
        if (!isfinite(t) || !isfinite(x) || (s->n > 0 && t < s->t[s->n - 1])) {
            fprintf(stderr,
                    "clink: spectrum: %s: row %ld: time or value not finite, or time "
                    "going back\n",
                    path, s->n + 2);
            rc = CLI_EXIT_USAGE;
        } else if (sp_push(s, t, x) != 0) {
            fprintf(stderr, "clink: spectrum: out of memory\n");
            rc = CLI_EXIT_FAIL;
        }
    }
    fclose(f);
    free(line);
    free(hdr);
    return rc;
}

/* OUTDIR/spectrum_COLUMN + ext (".svg") into buf */
static void sp_name(const sp_args *a, const char *dir, const char *ext, char *buf, size_t n)
{
    char col[128];
    snprintf(col, sizeof col, "%s", a->column);
    for (char *p = col; *p; p++)
        if (*p == '/' || *p == ' ')
            *p = '_';
    snprintf(buf, n, "%s/spectrum_%s%s", dir, col, ext);
}

/* closes f; exit status 3 with the message when a write failed */
static int sp_close(FILE *f, const char *path)
{
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        fprintf(stderr, "clink: spectrum: %s: cannot write: %s\n", path, strerror(errno));
        return CLI_EXIT_IO;
    }
    return CLI_EXIT_OK;
}

/* the table: f [Hz], amplitude [unit] */
static int sp_write_csv(const char *path, const sp_args *a, const sp_signal *s,
                        const cli_spectrum *sp)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "clink: spectrum: %s: cannot create: %s\n", path, strerror(errno));
        return CLI_EXIT_IO;
    }
    fprintf(f, "f [Hz],%s.amplitude [%s]\n", a->column, s->unit);
    for (long k = 0; k < sp->n; k++)
        fprintf(f, "%.17g,%.17g\n", (double) k * sp->df, sp->amp[k]);
    return sp_close(f, path);
}

/* the summary: window, grid, mean, peaks */
static int sp_write_json(const char *path, const sp_args *a, const sp_signal *s,
                         const cli_spectrum *sp, const cli_spectrum_peak *pk, int np)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "clink: spectrum: %s: cannot create: %s\n", path, strerror(errno));
        return CLI_EXIT_IO;
    }
    fprintf(f,
            "{\n  \"column\": \"%s\",\n  \"unit\": \"%s\",\n  \"from\": %.17g,\n  \"to\": %.17g,\n"
            "  \"window\": \"%s\",\n  \"rows\": %ld,\n  \"samples\": %ld,\n  \"dt\": %.17g,\n"
            "  \"df\": %.17g,\n  \"mean\": %.17g,\n  \"peaks\": [",
            a->column, s->unit, a->from, a->to, sp->hann ? "hann" : "rect", sp->rows, sp->N, sp->dt,
            sp->df, sp->mean);
    for (int i = 0; i < np; i++)
        fprintf(f, "%s{\"f\": %.17g, \"amplitude\": %.17g}", i ? ", " : "", pk[i].f, pk[i].amp);
    fprintf(f, "]\n}\n");
    return sp_close(f, path);
}

/* the figure: the amplitudes up to fmax, the peaks marked */
static int sp_write_svg(const char *path, const sp_args *a, const sp_signal *s,
                        const cli_spectrum *sp, const cli_spectrum_peak *pk, int np, double fhi)
{
    const double W = 800, H = 420, L = 80, R = 20, T = 40, B = 50;
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "clink: spectrum: %s: cannot create: %s\n", path, strerror(errno));
        return CLI_EXIT_IO;
    }
    double amax = 0.0;
    for (long k = 1; k < sp->n && (double) k * sp->df <= fhi; k++)
        amax = fmax(amax, sp->amp[k]);
    amax = amax > 0.0 ? 1.1 * amax : 1.0;
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" "
            "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%%\" "
            "height=\"100%%\" fill=\"white\"/>\n",
            W, H);
    fprintf(f,
            "<text x=\"%g\" y=\"24\">amplitude spectrum of %s, %s window, %.6g to %.6g s, "
            "df = %.4g Hz</text>\n",
            L, a->column, sp->hann ? "Hann" : "rectangular", a->from, a->to, sp->df);
    fprintf(f, "<path d=\"M%g %gV%gH%g\" fill=\"none\" stroke=\"black\"/>\n", L, T, H - B, W - R);
    for (int i = 0; i <= 5; i++) {
        double x = L + (W - L - R) * i / 5.0, y = H - B - (H - T - B) * i / 5.0;
        fprintf(f, "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\">%.4g</text>\n", x, H - B + 18,
                fhi * i / 5.0);
        fprintf(f, "<text x=\"%g\" y=\"%g\" text-anchor=\"end\">%.3g</text>\n", L - 6, y + 4,
                amax * i / 5.0);
    }
    fprintf(f, "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\">f [Hz]</text>\n", (L + W - R) / 2,
            H - 10);
    fprintf(f,
            "<text x=\"16\" y=\"%g\" transform=\"rotate(-90 16 %g)\" text-anchor=\"middle\">"
            "amplitude [%s]</text>\n<polyline fill=\"none\" stroke=\"#1f77b4\" points=\"",
            (T + H - B) / 2, (T + H - B) / 2, s->unit);
    for (long k = 0; k < sp->n && (double) k * sp->df <= fhi; k++)
        fprintf(f, "%.2f,%.2f ", L + (W - L - R) * (double) k * sp->df / fhi,
                H - B - (H - T - B) * sp->amp[k] / amax);
    fprintf(f, "\"/>\n");
    for (int i = 0; i < np; i++)
        if (pk[i].f <= fhi)
            fprintf(f,
                    "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"3\" fill=\"#d62728\"/><text x=\"%.2f\" "
                    "y=\"%.2f\" font-size=\"10\">%.4g Hz</text>\n",
                    L + (W - L - R) * pk[i].f / fhi, H - B - (H - T - B) * pk[i].amp / amax,
                    L + (W - L - R) * pk[i].f / fhi + 5, H - B - (H - T - B) * pk[i].amp / amax - 5,
                    pk[i].f);
    fprintf(f, "</svg>\n");
    return sp_close(f, path);
}

/* the directory of the results: -o, PATH itself when a directory, else PATH's */
static void sp_outdir(const sp_args *a, int isdir, char *buf, size_t n)
{
    if (a->out)
        snprintf(buf, n, "%s", a->out);
    else if (isdir)
        snprintf(buf, n, "%s", a->path);
    else {
        const char *sl = strrchr(a->path, '/');
        snprintf(buf, n, "%.*s", sl ? (int) (sl - a->path) : 1, sl ? a->path : ".");
    }
}

/* the three files and the printed peaks */
static int sp_report(sp_args *a, const sp_signal *s, const cli_spectrum *sp, int isdir)
{
    cli_spectrum_peak pk[SP_PEAKS];
    int np = cli_spectrum_peaks(sp, pk, SP_PEAKS);
    double nyq = (double) sp->n * sp->df, fhi = a->fmax;
    if (!(fhi > 0.0))
        fhi = np > 0 ? fmin(nyq, 8.0 * pk[0].f) : nyq;
    char dir[4096], csv[4300], json[4300], svg[4300];
    sp_outdir(a, isdir, dir, sizeof dir);
    if (a->out && mkdir(a->out, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "clink: spectrum: %s: cannot create: %s\n", a->out, strerror(errno));
        return CLI_EXIT_IO;
    }
    sp_name(a, dir, ".csv", csv, sizeof csv);
    sp_name(a, dir, ".json", json, sizeof json);
    sp_name(a, dir, ".svg", svg, sizeof svg);
    int rc = sp_write_csv(csv, a, s, sp);
    if (rc == CLI_EXIT_OK)
        rc = sp_write_json(json, a, s, sp, pk, np);
    if (rc == CLI_EXIT_OK)
        rc = sp_write_svg(svg, a, s, sp, pk, np, fhi);
    printf("%s over %.9g to %.9g s (%ld rows, %ld samples, df %.6g Hz, %s window); mean %.9g %s\n",
           a->column, a->from, a->to, sp->rows, sp->N, sp->df, sp->hann ? "Hann" : "rectangular",
           sp->mean, s->unit);
    for (int i = 0; i < np; i++)
        printf("  peak %d: f = %.9g Hz, amplitude %.9g %s\n", i + 1, pk[i].f, pk[i].amp, s->unit);
    return rc;
}

int cmd_spectrum(int argc, char **argv)
{
    sp_args a = {NULL, NULL, NULL, NAN, NAN, NAN, 1};
    int rc = cli_parse_options(argc, argv, spectrum_options, spectrum_apply, &a);
    if (rc == CLI_HELP) {
        spectrum_usage(stdout);
        return CLI_EXIT_OK;
    }
    if (rc != CLI_EXIT_OK)
        return rc;
    if (a.path == NULL || a.column == NULL) {
        spectrum_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    struct stat st;
    int isdir = stat(a.path, &st) == 0 && S_ISDIR(st.st_mode);
    char file[4200];
    snprintf(file, sizeof file, isdir ? "%s/timeseries.csv" : "%s", a.path);
    sp_signal s;
    memset(&s, 0, sizeof s);
    rc = sp_read(file, a.column, &s);
    cli_spectrum sp;
    memset(&sp, 0, sizeof sp);
    if (rc == CLI_EXIT_OK) {
        if (isnan(a.to))
            a.to = s.n > 0 ? s.t[s.n - 1] : 0.0;
        if (isnan(a.from))
            a.from = s.n > 0 ? 0.5 * (s.t[0] + a.to) : 0.0;
        int c = cli_spectrum_compute(s.t, s.x, s.n, a.from, a.to, a.hann, &sp);
        if (c != 0) {
            fprintf(stderr, "clink: spectrum: %s: %s\n", file,
                    c == -1 ? "fewer than 8 rows in the window [from, to)" : "out of memory");
            rc = c == -1 ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
        }
    }
    if (rc == CLI_EXIT_OK)
        rc = sp_report(&a, &s, &sp, isdir);
    cli_spectrum_free(&sp);
    free(s.t);
    free(s.x);
    return rc;
}
