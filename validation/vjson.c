/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vjson: writes the JSON result file of a validation case, runs and reads the
 * independent reference scripts, and opens a model's simulation (see vjson.h).
 */
#include "vjson.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct vrow {
    char quantity[160];
    char unit[24];
    char criterion[96];
    double computed, reference, tolerance;
    int kind; /* 0 abs, 1 rel, 2 check, 3 info */
    int pass;
} vrow;

struct vjson {
    char path[1024];
    char case_name[96];
    char title[200];
    vrow *rows;
    int n, cap, failed;
};

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char) *s < 0x20)
            fprintf(f, "\\u%04x", (unsigned) *s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

static void json_num(FILE *f, double x)
{
    if (isfinite(x))
        fprintf(f, "%.17g", x);
    else
        fputs("null", f);
}

vjson *vjson_open(const char *outdir, const char *case_name, const char *title)
{
    vjson *v = calloc(1, sizeof *v);

    if (v == NULL)
        return NULL;
    snprintf(v->path, sizeof v->path, "%s/%s.json", outdir, case_name);
    snprintf(v->case_name, sizeof v->case_name, "%s", case_name);
    snprintf(v->title, sizeof v->title, "%s", title);
    printf("validation %s: %s\n", case_name, title);
    return v;
}

static vrow *add(vjson *v)
{
    if (v->n == v->cap) {
        int cap = v->cap ? 2 * v->cap : 64;
        vrow *r = realloc(v->rows, (size_t) cap * sizeof *r);
        if (r == NULL) {
            fprintf(stderr, "vjson: out of memory\n");
            exit(1);
        }
        v->rows = r;
        v->cap = cap;
    }
    memset(&v->rows[v->n], 0, sizeof v->rows[v->n]);
    return &v->rows[v->n++];
}

static void finish(vjson *v, vrow *r, const char *quantity, const char *unit)
{
    snprintf(r->quantity, sizeof r->quantity, "%s", quantity);
    snprintf(r->unit, sizeof r->unit, "%s", unit ? unit : "-");
    if (!r->pass)
        v->failed++;
    if (r->kind == 3)
        printf("  info %-48s %.10g %s\n", r->quantity, r->computed, r->unit);
    else if (r->kind == 2)
        printf("  %s %-48s %.10g (%s) %s\n", r->pass ? "pass" : "FAIL", r->quantity, r->computed,
               r->criterion, r->unit);
    else
        printf("  %s %-48s %.10g vs %.10g (tol %.2g%s) %s\n", r->pass ? "pass" : "FAIL",
               r->quantity, r->computed, r->reference, r->tolerance, r->kind ? " rel" : "",
               r->unit);
}

void vjson_row(vjson *v, const char *quantity, double computed, double reference, double tolerance,
               const char *unit)
{
    vrow *r = add(v);
    r->computed = computed;
    r->reference = reference;
    r->tolerance = tolerance;
    r->kind = 0;
    r->pass = isfinite(computed) && fabs(computed - reference) <= tolerance;
    finish(v, r, quantity, unit);
}

void vjson_row_rel(vjson *v, const char *quantity, double computed, double reference,
                   double rel_tolerance, const char *unit)
{
    vrow *r = add(v);
    r->computed = computed;
    r->reference = reference;
    r->tolerance = rel_tolerance;
    r->kind = 1;
    r->pass = isfinite(computed) && fabs(computed - reference) <= rel_tolerance * fabs(reference);
    finish(v, r, quantity, unit);
}

void vjson_check(vjson *v, const char *quantity, double computed, const char *criterion, int pass,
                 const char *unit)
{
    vrow *r = add(v);
    r->computed = computed;
    r->reference = NAN;
    r->tolerance = NAN;
    r->kind = 2;
    snprintf(r->criterion, sizeof r->criterion, "%s", criterion);
    r->pass = pass && isfinite(computed);
    finish(v, r, quantity, unit);
}

void vjson_info(vjson *v, const char *quantity, double value, const char *unit)
{
    vrow *r = add(v);
    r->computed = value;
    r->reference = NAN;
    r->tolerance = NAN;
    r->kind = 3;
    r->pass = 1;
    finish(v, r, quantity, unit);
}

int vjson_close(vjson *v)
{
    static const char *kinds[] = {"absolute", "relative", "check", "info"};
    char tmp[1100];
    FILE *f;
    int i, rc;

    snprintf(tmp, sizeof tmp, "%s.tmp", v->path);
    f = fopen(tmp, "w");
    if (f == NULL) {
        fprintf(stderr, "vjson: cannot write %s\n", tmp);
        free(v->rows);
        free(v);
        return 1;
    }
    fprintf(f, "{\n  \"case\": ");
    json_str(f, v->case_name);
    fprintf(f, ",\n  \"title\": ");
    json_str(f, v->title);
    fprintf(f, ",\n  \"pass\": %s,\n  \"rows\": [\n", v->failed ? "false" : "true");
    for (i = 0; i < v->n; i++) {
        const vrow *r = &v->rows[i];
        fprintf(f, "    {\"quantity\": ");
        json_str(f, r->quantity);
        fprintf(f, ", \"computed\": ");
        json_num(f, r->computed);
        fprintf(f, ", \"reference\": ");
        json_num(f, r->reference);
        fprintf(f, ", \"tolerance\": ");
        json_num(f, r->tolerance);
        fprintf(f, ", \"kind\": \"%s\", \"unit\": ", kinds[r->kind]);
        json_str(f, r->unit);
        if (r->kind == 2) {
            fprintf(f, ", \"criterion\": ");
            json_str(f, r->criterion);
        }
        fprintf(f, ", \"pass\": %s}%s\n", r->pass ? "true" : "false", i + 1 < v->n ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    rc = fclose(f) != 0 || rename(tmp, v->path) != 0;
    printf("validation %s: %d rows, %d failed -> %s\n", v->case_name, v->n, v->failed, v->path);
    rc = rc || v->failed;
    free(v->rows);
    free(v);
    return rc ? 1 : 0;
}

#ifndef CLINK_PYTHON
#define CLINK_PYTHON "python3"
#endif

int vref_run(const char *outdir, const char *script, const char *args)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' '%s/validation/%s' '%s' %s", CLINK_PYTHON, CLINK_SOURCE_DIR,
             script, outdir, args ? args : "");
    fflush(stdout);
    int rc = system(cmd);
    if (rc != 0)
        fprintf(stderr,
                "reference %s failed (status %d): it needs python3-numpy and python3-scipy "
                "(scripts/install-deps)\n",
                script, rc);
    return rc;
}

typedef struct vref_entry {
    char key[256];
    double value;
} vref_entry;

struct vref {
    vref_entry *e;
    int n;
};

vref *vref_load(const char *outdir, const char *name)
{
    char path[1200], line[256];
    snprintf(path, sizeof path, "%s/%s", outdir, name);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "vref: cannot read %s\n", path);
        return NULL;
    }
    vref *r = calloc(1, sizeof *r);
    int cap = 0;
    while (r && fgets(line, sizeof line, f)) {
        char *comma = strchr(line, ',');
        if (!comma)
            continue;
        *comma = '\0';
        if (r->n == cap) {
            cap = cap ? 2 * cap : 64;
            vref_entry *e = realloc(r->e, (size_t) cap * sizeof *e);
            if (!e) {
                vref_free(r);
                r = NULL;
                break;
            }
            r->e = e;
        }
        snprintf(r->e[r->n].key, sizeof r->e[r->n].key, "%s", line);
        r->e[r->n].value = strtod(comma + 1, NULL);
        r->n++;
    }
    fclose(f);
    return r;
}

double vref_get(const vref *r, const char *key)
{
    for (int i = 0; r && i < r->n; i++)
        if (strcmp(r->e[i].key, key) == 0)
            return r->e[i].value;
    return NAN;
}

void vref_free(vref *r)
{
    if (r) {
        free(r->e);
        free(r);
    }
}

clink_sim *vsim_create(clink_model **model)
{
    char err[512];
    clink_sim *sim = NULL;
    if (clink_sim_create(*model, NULL, &sim, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        clink_model_destroy(model);
        return NULL;
    }
    return sim;
}

/* root in [0, h] of the cubic Hermite interpolant of w with slopes a */
double vhermite_root(double w0, double a0, double w1, double a1, double h)
{
    double lo = 0.0, hi = h;
    for (int i = 0; i < 200; i++) {
        double mid = 0.5 * (lo + hi), s = mid / h;
        double h00 = 2 * s * s * s - 3 * s * s + 1, h10 = s * s * s - 2 * s * s + s;
        double h01 = -2 * s * s * s + 3 * s * s, h11 = s * s * s - s * s;
        double w = h00 * w0 + h10 * h * a0 + h01 * w1 + h11 * h * a1;
        if ((w > 0) == (w0 > 0))
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}
