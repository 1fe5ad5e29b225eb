/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The films of linearised modes (`clink modes -o DIR`, docs/analysis.md, "Drawing the
 * modes"): for every oscillating mode K (an eigenvalue pair with im > 0) a synthetic run
 * DIR/mode-K/ that `clink animate` and `clink view` draw like any run:
 *
 *   q(t) = q0 + A sin(2 pi f t) s,   v(t) = 2 pi f A cos(2 pi f t) s,
 *
 * q0 the pose linearised about, s the mode's shape (largest component 1), f its damped
 * frequency, t over PERIODS periods. The amplitude A makes the largest displacement of a
 * body origin or joint point (the origin's motion plus s_phi times the point's arm) equal
 * to FRACTION of the model's size, the diagonal of the bounding box of those points at q0.
 * The shape is the linear one: the joints open by amounts of order A^2, and the decay
 * exp(re t) is not drawn (the damping ratio is in the title). Overdamped and zero modes
 * do not oscillate and get no film.
 */
#define _XOPEN_SOURCE 700

#include "cli.h"
#include "cli_analysis.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* one body point in the world at q and the magnitude of its displacement along s */
static void film_point(const double *q, const double *s, int body, const double p[2], double box[4],
                       double *dmax)
{
    double x = p[0], y = p[1], dx = 0.0, dy = 0.0;
    if (body > 0) {
        const double *qb = q + 3 * (body - 1), *sb = s + 3 * (body - 1);
        double c = cos(qb[2]), sn = sin(qb[2]);
        x = qb[0] + c * p[0] - sn * p[1];
        y = qb[1] + sn * p[0] + c * p[1];
        dx = sb[0] + sb[2] * (-sn * p[0] - c * p[1]);
        dy = sb[1] + sb[2] * (c * p[0] - sn * p[1]);
    }
    box[0] = fmin(box[0], x);
    box[1] = fmax(box[1], x);
    box[2] = fmin(box[2], y);
    box[3] = fmax(box[3], y);
    *dmax = fmax(*dmax, hypot(dx, dy));
}

/* the model's size (m) and the largest point displacement of shape s at q */
static void film_scale(const clink_model *m, int nb, const double *q, const double *s, double *size,
                       double *dmax)
{
    double box[4] = {INFINITY, -INFINITY, INFINITY, -INFINITY}, origin[2] = {0.0, 0.0};
    *dmax = 0.0;
    for (int b = 1; b <= nb; b++)
        film_point(q, s, b, origin, box, dmax);
    for (int j = 0; j < clink_model_count(m, CLINK_ENTITY_JOINT); j++) {
        clink_joint_def jd;
        if (clink_model_joint(m, j, &jd) != CLINK_OK)
            continue;
        film_point(q, s, jd.body_a, jd.point_a, box, dmax);
        film_point(q, s, jd.body_b, jd.point_b, box, dmax);
    }
    *size = hypot(box[1] - box[0], box[3] - box[2]);
    if (!(*size > 0.0))
        *size = 1.0; /* one body alone with no joint: 1 m */
    /* a body turning about its own origin with no point off it: its rotation at the size */
    for (int b = 0; b < nb && *dmax == 0.0; b++)
        *dmax = fmax(*dmax, fabs(s[3 * b + 2]) * *size);
}

static void film_series(FILE *f, const clink_model *m, int nb, const double *q, const double *s,
                        double amp, double freq, int periods, int rows_per_period)
{
    static const char *const col[6] = {"x [m]",    "y [m]",    "phi [rad]",
                                       "vx [m/s]", "vy [m/s]", "omega [rad/s]"};
    char label[96];
    int rows = periods * rows_per_period;
    double w = 2.0 * 3.14159265358979323846 * freq;
    fputs("t [s]", f);
    for (int b = 1; b <= nb; b++)
        for (int k = 0; k < 6; k++)
            fprintf(f, ",%s.%s", cli_body_label(m, b, label, sizeof label), col[k]);
    fputc('\n', f);
    for (int r = 0; r <= rows; r++) {
        double t = (double) r / (rows_per_period * freq);
        double sw = sin(w * t), cw = cos(w * t);
        fprintf(f, "%.17g", t);
        for (int b = 0; b < nb; b++) {
            for (int k = 0; k < 3; k++)
                fprintf(f, ",%.17g", q[3 * b + k] + amp * sw * s[3 * b + k]);
            for (int k = 0; k < 3; k++)
                fprintf(f, ",%.17g", w * amp * cw * s[3 * b + k]);
        }
        fputc('\n', f);
    }
}

typedef struct film_mode {
    int index; /* 1-based */
    clink_mode md;
    double amp, size, t_end;
} film_mode;

static void film_summary(FILE *f, const char *name, const char *source, const film_mode *fm,
                         double fraction, int periods, int rows)
{
    char title[512];
    snprintf(title, sizeof title, "%s mode %d: %.4g Hz, damping %.3g, amplitude %.3g x size", name,
             fm->index, fm->md.damped_frequency, fm->md.damping_ratio, fraction);
    fprintf(f, "{\n  \"clink\": \"%s\",\n  \"model\": ", cli_version());
    cli_json_string(f, title);
    fputs(",\n  \"source\": ", f);
    cli_json_string(f, source);
    fputs(",\n  \"status\": \"ok\",\n  \"message\": null,\n  \"synthetic\": \"mode\",\n"
          "  \"t_end_requested\": ",
          f);
    cli_json_number(f, fm->t_end);
    fputs(",\n  \"t_end_reached\": ", f);
    cli_json_number(f, fm->t_end);
    fprintf(f, ",\n  \"output_rows\": %d,\n  \"mode\": {\"index\": %d, \"frequency_hz\": ", rows,
            fm->index);
    cli_json_number(f, fm->md.frequency);
    fputs(", \"damped_frequency_hz\": ", f);
    cli_json_number(f, fm->md.damped_frequency);
    fputs(", \"damping_ratio\": ", f);
    cli_json_number(f, fm->md.damping_ratio);
    fputs(", \"amplitude\": ", f);
    cli_json_number(f, fm->amp);
    fputs(", \"model_size_m\": ", f);
    cli_json_number(f, fm->size);
    fputs(", \"fraction\": ", f);
    cli_json_number(f, fraction);
    fprintf(f, ", \"periods\": %d}\n}\n", periods);
}

/* the model's name for the title: the file's base name without .xml */
static void film_name(const char *path, char *buf, size_t size)
{
    const char *base = strrchr(path, '/');
    snprintf(buf, size, "%s", base != NULL ? base + 1 : path);
    size_t n = strlen(buf);
    if (n > 4 && strcmp(buf + n - 4, ".xml") == 0)
        buf[n - 4] = '\0';
}

static int film_write(const char *dir, const char *path, const clink_model *m, const double *q,
                      const double *s, film_mode *fm, double fraction, int periods)
{
    enum { ROWS_PER_PERIOD = 48 };
    char sub[4200], name[256], source[PATH_MAX];
    cli_out_file o;
    int nb = clink_model_count(m, CLINK_ENTITY_BODY) - 1, rc;
    double dmax;
    film_scale(m, nb, q, s, &fm->size, &dmax);
    fm->amp = fraction * fm->size / dmax;
    fm->t_end = periods / fm->md.damped_frequency;
    snprintf(sub, sizeof sub, "%s/mode-%d", dir, fm->index);
    if (realpath(path, source) == NULL)
        snprintf(source, sizeof source, "%s", path);
    film_name(path, name, sizeof name);
    if ((rc = cli_out_open("modes", sub, "timeseries.csv", &o)) != CLI_EXIT_OK)
        return rc;
    film_series(o.f, m, nb, q, s, fm->amp, fm->md.damped_frequency, periods, ROWS_PER_PERIOD);
    if ((rc = cli_out_close("modes", &o)) != CLI_EXIT_OK)
        return rc;
    if ((rc = cli_out_open("modes", sub, "summary.json", &o)) != CLI_EXIT_OK)
        return rc;
    film_summary(o.f, name, source, fm, fraction, periods, periods * ROWS_PER_PERIOD + 1);
    return cli_out_close("modes", &o);
}

int cli_modes_film(const char *dir, const char *path, const clink_model *m,
                   const clink_analysis *an, double fraction, int periods)
{
    int nq = clink_analysis_coordinate_count(an), rc = CLI_EXIT_OK;
    double *q = malloc(sizeof *q * (2 * (size_t) nq + 1));
    if (q == NULL) {
        fprintf(stderr, "clink: modes: out of memory\n");
        return CLI_EXIT_FAIL;
    }
    double *s = q + nq;
    if (clink_analysis_state(an, q, NULL) != CLINK_OK) {
        fprintf(stderr, "clink: modes: %s\n", clink_analysis_error(an));
        free(q);
        return CLI_EXIT_FAIL;
    }
    for (int i = 0; i < clink_analysis_mode_count(an) && rc == CLI_EXIT_OK; i++) {
        film_mode fm = {.index = i + 1};
        clink_analysis_mode(an, i, &fm.md, s);
        if (fm.md.zero || !(fm.md.im > 0.0))
            continue;
        rc = film_write(dir, path, m, q, s, &fm, fraction, periods);
    }
    free(q);
    return rc;
}
