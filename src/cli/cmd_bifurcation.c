/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `clink bifurcation SWEEPDIR COLUMN [--parameter PATH] [--section N] [-o OUTDIR]`: the
 * bifurcation diagram of a sweep (docs/nonlinear.md, "Bifurcation diagrams"). The sweep
 * (`clink sweep`, src/sweep: local cores or MPI, resumable) runs a model with Poincare
 * sections and keep_outputs="true", so that each case's directory holds its poincare.csv
 * (the transient left out by the section's `start`). This command reads the swept value of
 * each case that ended ok from SWEEPDIR/sweep.csv and the samples of one section from its
 * poincare.csv, and writes bifurcation.csv (value, sample), bifurcation.svg (the diagram)
 * and, per value, the number of distinct points (samples closer than 1e-6 of the column's
 * range counted once): 1 for a period-1 response, 2 after a period doubling, many in chaos.
 * --settle N leaves out each case's first N crossings (the column `count`), the transient;
 * --eccentricity J:X,Y:B:X,Y makes the sample the distance between a point fixed on body J and
 * one fixed on body B, r + A(phi) s of each from the bodies' x, y, phi (a clearance joint's
 * journal and bearing centres: its eccentricity).
 */
#define _POSIX_C_SOURCE 200809L

#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { BF_PARAM = 1, BF_SECTION, BF_OUTPUT, BF_SETTLE, BF_ECC };
enum { BF_LINE = 1 << 16, BF_MAXPTS = 1 << 22 };

static const cli_option bif_options[] = {
    {BF_PARAM, "parameter", 0, "PATH", "the swept column of sweep.csv (default: its first)"},
    {BF_SECTION, "section", 0, "N", "the section's index in poincare.csv (default 0)"},
    {BF_OUTPUT, "output", 'o', "OUTDIR", "directory of the results (default SWEEPDIR)"},
    {BF_SETTLE, "settle", 0, "N", "leave out each case's first N crossings (count <= N)"},
    {BF_ECC, "eccentricity", 0, "J:X,Y:B:X,Y",
     "COLUMN is the distance from body J's point (X, Y) to body B's (m, body frames)"},
    {0, NULL, 0, NULL, NULL},
};

static void bif_usage(FILE *out)
{
    fprintf(out,
            "usage: clink bifurcation SWEEPDIR COLUMN [--parameter PATH] [--section N]\n"
            "                          [--settle N] [--eccentricity J:X,Y:B:X,Y] [-o OUTDIR]\n\n"
            "The bifurcation diagram of a sweep run with keep_outputs=\"true\" on a model\n"
            "with Poincare sections: for each case that ended ok, its swept value and\n"
            "the samples of COLUMN (a column of poincare.csv, without the unit) in one\n"
            "section. Writes bifurcation.csv and bifurcation.svg into OUTDIR and prints\n"
            "the distinct points per value. With --eccentricity, COLUMN names the\n"
            "distance between a point of body J and one of body B (a clearance joint's\n"
            "journal and bearing centres: its eccentricity), from their x, y, phi.\n\n");
    cli_print_options(out, bif_options);
    fprintf(out, "\nExit status: 0 written; 2 bad input (no sweep table, no such column, no\n"
                 "case with samples); 3 a file could not be written.\n");
}

/* a point fixed on a body: its name and its body-frame coordinates (m) */
typedef struct bf_point {
    char body[128];
    double x, y;
} bf_point;

typedef struct bf_args {
    const char *dir, *column, *param, *out;
    int section, settle, ecc;
    bf_point pj, pb; /* --eccentricity: the journal's and the bearing's points */
} bf_args;

/* J:X,Y:B:X,Y into a->pj, a->pb; exit status */
static int bf_parse_ecc(bf_args *a, const char *spec)
{
    char tail;
    if (sscanf(spec, "%127[^:]:%lf,%lf:%127[^:]:%lf,%lf%c", a->pj.body, &a->pj.x, &a->pj.y,
               a->pb.body, &a->pb.x, &a->pb.y, &tail) != 6 ||
        !isfinite(a->pj.x) || !isfinite(a->pj.y) || !isfinite(a->pb.x) || !isfinite(a->pb.y))
        return cli_usage_error("bifurcation: --eccentricity '%s': expected BODY:X,Y:BODY:X,Y "
                               "(e.g. rod:0.06,0:slider:0,0)",
                               spec);
    a->ecc = 1;
    return CLI_EXIT_OK;
}

static int bif_apply(void *ctx, int id, const char *spelled, const char *value)
{
    bf_args *a = ctx;
    switch (id) {
    case BF_PARAM:
        a->param = value;
        return CLI_EXIT_OK;
    case BF_SECTION:
        return cli_parse_int(spelled, value, &a->section);
    case BF_OUTPUT:
        a->out = value;
        return CLI_EXIT_OK;
    case BF_SETTLE:
        return cli_parse_int(spelled, value, &a->settle);
    case BF_ECC:
        return bf_parse_ecc(a, value);
    default:
        break;
    }
    if (a->dir == NULL)
        a->dir = value;
    else if (a->column == NULL)
        a->column = value;
    else
        return cli_usage_error("bifurcation: one SWEEPDIR and one COLUMN (got also '%s')", value);
    return CLI_EXIT_OK;
}

/* the index of the comma-separated field of line named name (before " ["), -1 */
static int bf_field_index(const char *line, const char *name)
{
    int i = 0;
    size_t n = strlen(name);
    for (const char *p = line; p && *p; i++) {
        size_t len = strcspn(p, ",\n\r");
        const char *br = strstr(p, " [");
        size_t nl = br && (size_t) (br - p) < len ? (size_t) (br - p) : len;
        if (nl == n && strncmp(p, name, n) == 0)
            return i;
        p = p[len] == ',' ? p + len + 1 : NULL;
    }
    return -1;
}

/* field k of line into buf (no quoting needed before the cause column) */
static void bf_field(const char *line, int k, char *buf, size_t n)
{
    const char *p = line;
    for (int i = 0; i < k && p; i++)
        p = (p = strchr(p, ',')) ? p + 1 : NULL;
    size_t len = p ? strcspn(p, ",\n\r") : 0;
    snprintf(buf, n, "%.*s", (int) len, p ? p : "");
}

/* the points (value, sample) of all cases */
typedef struct bf_points {
    double *v, *x;
    long n, cap;
} bf_points;

static int bf_push(bf_points *p, double v, double x)
{
    if (p->n == p->cap) {
        long cap = p->cap ? 2 * p->cap : 1024;
        if (cap > BF_MAXPTS)
            return -1;
        double *nv = realloc(p->v, (size_t) cap * sizeof *nv);
        if (!nv)
            return -1;
        p->v = nv;
        double *nx = realloc(p->x, (size_t) cap * sizeof *nx);
        if (!nx)
            return -1;
        p->x = nx;
        p->cap = cap;
    }
    p->v[p->n] = v;
    p->x[p->n++] = x;
    return 0;
}

/* the columns a sample is read from: section, count, and the column or the two bodies'
   x, y, phi (--eccentricity); 0 when all are there */
typedef struct bf_cols {
    int s, c, x, b[6];
} bf_cols;

static int bf_columns(const bf_args *a, const char *hdr, bf_cols *k)
{
    static const char *const coord[3] = {"x", "y", "phi"};
    k->s = bf_field_index(hdr, "section");
    k->c = bf_field_index(hdr, "count");
    k->x = a->ecc ? 0 : bf_field_index(hdr, a->column);
    int bad = k->s < 0 || k->c < 0 || k->x < 0;
    for (int i = 0; a->ecc && i < 6; i++) {
        char name[160];
        snprintf(name, sizeof name, "%s.%s", i < 3 ? a->pj.body : a->pb.body, coord[i % 3]);
        k->b[i] = bf_field_index(hdr, name);
        bad |= k->b[i] < 0;
    }
    return bad ? -1 : 0;
}

/* the sample of one row: the column, or the distance between the two bodies' points */
static double bf_sample(const bf_args *a, const bf_cols *k, const char *line)
{
    char buf[64];
    if (!a->ecc) {
        bf_field(line, k->x, buf, sizeof buf);
        return strtod(buf, NULL);
    }
    double q[6];
    for (int i = 0; i < 6; i++) {
        bf_field(line, k->b[i], buf, sizeof buf);
        q[i] = strtod(buf, NULL);
    }
    /* r + A(phi) s of each point, A the rotation by phi */
    double jx = q[0] + cos(q[2]) * a->pj.x - sin(q[2]) * a->pj.y;
    double jy = q[1] + sin(q[2]) * a->pj.x + cos(q[2]) * a->pj.y;
    double bx = q[3] + cos(q[5]) * a->pb.x - sin(q[5]) * a->pb.y;
    double by = q[4] + sin(q[5]) * a->pb.x + cos(q[5]) * a->pb.y;
    return hypot(jx - bx, jy - by);
}

/* the samples of case k's section (after the first `settle` crossings) into p; their count,
   -1 when a column is missing */
static long bf_case(const bf_args *a, long k, double value, bf_points *p, char *line)
{
    char path[4300];
    snprintf(path, sizeof path, "%s/cases/%06ld/poincare.csv", a->dir, k);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0; /* a case without samples (none reached, or outputs not kept) */
    long n = 0;
    bf_cols kc;
    int ok = fgets(line, BF_LINE, f) && bf_columns(a, line, &kc) == 0;
    while (ok && fgets(line, BF_LINE, f)) {
        char s[64], c[64];
        bf_field(line, kc.s, s, sizeof s);
        bf_field(line, kc.c, c, sizeof c);
        if (atoi(s) == a->section && atol(c) > a->settle &&
            bf_push(p, value, bf_sample(a, &kc, line)) == 0)
            n++;
    }
    fclose(f);
    return ok ? n : -1;
}

/* every ok case of sweep.csv; exit status */
static int bf_read(const bf_args *a, bf_points *p, const char **pname)
{
    char path[4300], buf[128];
    snprintf(path, sizeof path, "%s/sweep.csv", a->dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "clink: bifurcation: %s: cannot open: %s\n", path, strerror(errno));
        return CLI_EXIT_USAGE;
    }
    char *line = malloc(BF_LINE), *row = malloc(BF_LINE);
    static char hdr[1024];
    int rc = line && row && fgets(row, BF_LINE, f) ? CLI_EXIT_OK : CLI_EXIT_USAGE;
    int kp = -1, kst = -1;
    if (rc == CLI_EXIT_OK) {
        snprintf(hdr, sizeof hdr, "%s", row);
        if (a->param)
            kp = bf_field_index(row, a->param);
        else
            kp = 1;
        kst = bf_field_index(row, "status");
        bf_field(hdr, kp, hdr, sizeof hdr);
        *pname = hdr;
        if (kp < 0 || kst < 0 || kp >= kst) {
            fprintf(stderr, "clink: bifurcation: %s: no swept column '%s'\n", path,
                    a->param ? a->param : "(the first)");
            rc = CLI_EXIT_USAGE;
        }
    }
    while (rc == CLI_EXIT_OK && fgets(row, BF_LINE, f)) {
        bf_field(row, kst, buf, sizeof buf);
        if (strcmp(buf, "ok") != 0)
            continue;
        long k = strtol(row, NULL, 10);
        bf_field(row, kp, buf, sizeof buf);
        if (bf_case(a, k, strtod(buf, NULL), p, line) < 0) {
            fprintf(stderr, "clink: bifurcation: case %ld: poincare.csv has no column '%s'\n", k,
                    a->ecc ? "BODY.x, BODY.y, BODY.phi of --eccentricity" : a->column);
            rc = CLI_EXIT_USAGE;
        }
    }
    fclose(f);
    free(line);
    free(row);
    if (rc == CLI_EXIT_OK && p->n == 0) {
        fprintf(stderr,
                "clink: bifurcation: %s: no samples (keep_outputs=\"true\" and a model "
                "with <poincare> are needed)\n",
                a->dir);
        rc = CLI_EXIT_USAGE;
    }
    return rc;
}

static int bf_cmp(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

/* the distinct samples among x (n), closer than tol counted once */
static int bf_distinct(double *x, long n, double tol)
{
    qsort(x, (size_t) n, sizeof *x, bf_cmp);
    int d = n > 0;
    for (long i = 1; i < n; i++)
        d += x[i] - x[i - 1] > tol;
    return d;
}

/* the table, the figure and the printed counts; exit status */
static int bf_write(const bf_args *a, const bf_points *p, const char *pname)
{
    char csv[4300], svg[4300];
    const char *dir = a->out ? a->out : a->dir;
    if (a->out && mkdir(a->out, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "clink: bifurcation: %s: cannot create: %s\n", a->out, strerror(errno));
        return CLI_EXIT_IO;
    }
    snprintf(csv, sizeof csv, "%s/bifurcation.csv", dir);
    snprintf(svg, sizeof svg, "%s/bifurcation.svg", dir);
    double vlo = INFINITY, vhi = -INFINITY, xlo = INFINITY, xhi = -INFINITY;
    for (long i = 0; i < p->n; i++) {
        vlo = fmin(vlo, p->v[i]), vhi = fmax(vhi, p->v[i]);
        xlo = fmin(xlo, p->x[i]), xhi = fmax(xhi, p->x[i]);
    }
    FILE *f = fopen(csv, "w"), *g = fopen(svg, "w");
    if (!f || !g) {
        fprintf(stderr, "clink: bifurcation: %s: cannot create: %s\n", f ? svg : csv,
                strerror(errno));
        if (f)
            fclose(f);
        if (g)
            fclose(g);
        return CLI_EXIT_IO;
    }
    fprintf(f, "%s,%s\n", pname, a->column);
    const double W = 800, H = 480, L = 80, R = 20, T = 40, B = 50;
    double dv = vhi > vlo ? vhi - vlo : 1.0, dx = xhi > xlo ? xhi - xlo : 1.0;
    fprintf(g,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" "
            "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%%\" "
            "height=\"100%%\" fill=\"white\"/>\n<text x=\"%g\" y=\"24\">bifurcation "
            "diagram: %s (section %d) against %s</text>\n<path d=\"M%g %gV%gH%g\" "
            "fill=\"none\" stroke=\"black\"/>\n",
            W, H, L, a->column, a->section, pname, L, T, H - B, W - R);
    for (int i = 0; i <= 5; i++)
        fprintf(g,
                "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\">%.5g</text><text x=\"%g\" "
                "y=\"%g\" text-anchor=\"end\">%.5g</text>\n",
                L + (W - L - R) * i / 5.0, H - B + 18, vlo + dv * i / 5.0, L - 6,
                H - B - (H - T - B) * i / 5.0 + 4, xlo + dx * i / 5.0);
    for (long i = 0; i < p->n; i++) {
        fprintf(f, "%.17g,%.17g\n", p->v[i], p->x[i]);
        fprintf(g, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"1\"/>\n",
                L + (W - L - R) * (p->v[i] - vlo) / dv, H - B - (H - T - B) * (p->x[i] - xlo) / dx);
    }
    fprintf(g, "</svg>\n");
    int bad = ferror(f) || ferror(g);
    bad |= fclose(f) != 0;
    bad |= fclose(g) != 0;
    if (bad) {
        fprintf(stderr, "clink: bifurcation: %s: cannot write: %s\n", csv, strerror(errno));
        return CLI_EXIT_IO;
    }
    /* the distinct points per value (the points are grouped by case, in case order) */
    double *x = malloc((size_t) p->n * sizeof *x);
    for (long i = 0, j; x && i < p->n; i = j) {
        for (j = i; j < p->n && p->v[j] == p->v[i]; j++)
            x[j - i] = p->x[j];
        printf("%s = %.9g: %ld samples, %d distinct\n", pname, p->v[i], j - i,
               bf_distinct(x, j - i, 1e-6 * dx));
    }
    free(x);
    return CLI_EXIT_OK;
}

int cmd_bifurcation(int argc, char **argv)
{
    bf_args a;
    memset(&a, 0, sizeof a);
    int rc = cli_parse_options(argc, argv, bif_options, bif_apply, &a);
    if (rc == CLI_HELP) {
        bif_usage(stdout);
        return CLI_EXIT_OK;
    }
    if (rc != CLI_EXIT_OK)
        return rc;
    if (a.dir == NULL || a.column == NULL) {
        bif_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    bf_points p = {NULL, NULL, 0, 0};
    const char *pname = "";
    rc = bf_read(&a, &p, &pname);
    if (rc == CLI_EXIT_OK)
        rc = bf_write(&a, &p, pname);
    free(p.v);
    free(p.x);
    return rc;
}
