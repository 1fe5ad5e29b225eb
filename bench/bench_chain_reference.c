/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The reference of the side-by-side chain benchmark (bench/chain_side_by_side.py):
 * the elastic Hertz chain of bench_granular_chain.c (chain_sensors.h: n beads
 * touching on the x axis, the last against a wall, the first struck by a striker
 * bead at 1.77 m/s, F = K delta^(3/2) at every contact) as the 1-D equations of
 * motion it is, integrated by the classical fourth-order Runge-Kutta method with a
 * fixed step, independently of clink and of Simbody. It writes the sensor forces
 * every CHAIN_DT as CSV; run at two steps, the difference of the two runs bounds
 * the reference's own error (fourth order: halving the step divides it by 16).
 *
 * Unknowns are displacements from the initial positions, so touching beads touch
 * exactly (delta = 0, no rounding of absolute positions). A bead at rest whose
 * contacts carry no force has an exactly zero state and derivative; only the
 * beads up to four past the last moving one are integrated (one step of RK4
 * carries a disturbance two beads on), which changes no bit of the result, and
 * the program stops with an error if a bead at the edge of that range moves.
 *
 *   bench_chain_reference OUTDIR                  N = 70 and 700 over the benchmark's
 *       window at 100 and 200 steps per sample: OUTDIR/chain_ref_<N>_<S>.csv
 *   bench_chain_reference OUTDIR N WINDOW STEPS   one run, OUTDIR/chain_ref_<N>_<STEPS>.csv
 */
#include "bench_clock.h" /* first: it sets _POSIX_C_SOURCE */

#include "chain_sensors.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct chain_ref {
    int n;           /* beads; bodies 0 (striker) .. n */
    double kb, kw;   /* Hertz stiffness bead-bead and bead-wall, N/m^1.5 */
    double *u, *v;   /* displacement (m), velocity (m/s) of bodies 0..n */
    double *ku, *kv; /* stage derivatives, accumulated */
    double *us, *vs; /* stage state */
    double *au, *av; /* stage derivative */
} chain_ref;

static double hertz(double k, double delta)
{
    return delta > 0.0 ? k * delta * sqrt(delta) : 0.0;
}

/* penetration of contact c (0..n) from displacements u */
static double penetration(const chain_ref *c, const double *u, int k)
{
    if (k == 0)
        return u[1] - u[0] - CHAIN_GAP;
    if (k < c->n)
        return u[k + 1] - u[k];
    return -u[c->n];
}

/* contact force of contact k, N */
static double contact_force(const chain_ref *c, const double *u, int k)
{
    return hertz(k == c->n ? c->kw : c->kb, penetration(c, u, k));
}

/* derivative (du, dv) of bodies 0..top at state (u, v); contact top's partner
   top + 1 is at rest (zero displacement) */
static void derivative(const chain_ref *c, const double *u, const double *v, int top, double *du,
                       double *dv)
{
    for (int i = 0; i <= top; i++) {
        du[i] = v[i];
        dv[i] = 0.0;
    }
    for (int k = 0; k <= top; k++) {
        double f = contact_force(c, u, k) / CHAIN_MASS;
        if (k == c->n) {
            dv[k] += f; /* the wall pushes bead n towards +x */
        } else {
            dv[k] += f; /* body k is on the +x side of contact k */
            if (k < top)
                dv[k + 1] -= f;
        }
    }
}

/* the last body with a nonzero state */
static int front(const chain_ref *c)
{
    for (int i = c->n; i > 0; i--)
        if (c->u[i] != 0.0 || c->v[i] != 0.0)
            return i;
    return 0;
}

/* one RK4 step of h over bodies 0..top */
static void rk4_step(chain_ref *c, int top, double h)
{
    static const double a[3] = {0.5, 0.5, 1.0};
    static const double b[4] = {1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0};
    derivative(c, c->u, c->v, top, c->au, c->av);
    for (int i = 0; i <= top; i++) {
        c->ku[i] = b[0] * c->au[i];
        c->kv[i] = b[0] * c->av[i];
    }
    for (int s = 0; s < 3; s++) {
        for (int i = 0; i <= top; i++) {
            c->us[i] = c->u[i] + a[s] * h * c->au[i];
            c->vs[i] = c->v[i] + a[s] * h * c->av[i];
        }
        derivative(c, c->us, c->vs, top, c->au, c->av);
        for (int i = 0; i <= top; i++) {
            c->ku[i] += b[s + 1] * c->au[i];
            c->kv[i] += b[s + 1] * c->av[i];
        }
    }
    for (int i = 0; i <= top; i++) {
        c->u[i] += h * c->ku[i];
        c->v[i] += h * c->kv[i];
    }
}

/* n beads over window w at steps per sample; writes the CSV into outdir; 0 on success */
static int run(const char *outdir, int n, double w, int steps)
{
    chain_ref c;
    memset(&c, 0, sizeof c);
    c.n = n;
    c.kb = chain_k_bead();
    c.kw = chain_k_wall();
    double *block = calloc(8 * (size_t) (n + 1), sizeof(double));
    if (!block) {
        fprintf(stderr, "bench_chain_reference: out of memory\n");
        return -1;
    }
    double **arrays[8] = {&c.u, &c.v, &c.ku, &c.kv, &c.us, &c.vs, &c.au, &c.av};
    for (int j = 0; j < 8; j++)
        *arrays[j] = block + (size_t) j * (size_t) (n + 1);
    c.v[0] = -CHAIN_V;

    int sens[CHAIN_NSENSOR];
    chain_sensors(n, w, sens);
    char path[1024];
    snprintf(path, sizeof path, "%s/chain_ref_%d_%d.csv", outdir, n, steps);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "bench_chain_reference: %s: %s\n", path, strerror(errno));
        free(block);
        return -1;
    }
    chain_csv_header(f, sens);

    long ns = chain_samples(w);
    double h = CHAIN_DT / steps, t0 = bench_now();
    int rc = 0, fr = 0;
    for (long i = 1; i <= ns && rc == 0; i++) {
        for (int s = 0; s < steps; s++) {
            int top = fr + 4 < n ? fr + 4 : n;
            rk4_step(&c, top, h);
            fr = front(&c);
            if (top < n && fr > top - 2) {
                fprintf(stderr, "bench_chain_reference: the disturbance outran the range\n");
                rc = -1;
                break;
            }
        }
        double fs[CHAIN_NSENSOR];
        for (int j = 0; j < CHAIN_NSENSOR; j++)
            fs[j] = contact_force(&c, c.u, sens[j]);
        chain_csv_row(f, (double) i * CHAIN_DT, fs);
    }
    if (fclose(f) != 0) {
        fprintf(stderr, "bench_chain_reference: %s: %s\n", path, strerror(errno));
        rc = -1;
    }
    printf("reference N = %d window %.6g s, RK4 %d steps per %.3g s sample: %.3f s wall, %s\n", n,
           w, steps, CHAIN_DT, bench_now() - t0, path);
    free(block);
    return rc;
}

/* strict parse of a positive number; 0 on success */
static int parse_positive(const char *s, double *x)
{
    char *end;
    errno = 0;
    *x = strtod(s, &end);
    return (end == s || *end != '\0' || errno != 0 || !isfinite(*x) || *x <= 0.0) ? -1 : 0;
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    if (argc == 5) {
        double n, w, s;
        if (parse_positive(argv[2], &n) != 0 || n != floor(n) || n < 2 || n > 1e6 ||
            parse_positive(argv[3], &w) != 0 || w < CHAIN_DT || parse_positive(argv[4], &s) != 0 ||
            s != floor(s) || s > 1e6) {
            fprintf(stderr, "usage: bench_chain_reference OUTDIR [N WINDOW_S STEPS_PER_SAMPLE]\n");
            return 2;
        }
        return run(outdir, (int) n, w, (int) s) != 0;
    }
    if (argc > 2) {
        fprintf(stderr, "usage: bench_chain_reference OUTDIR [N WINDOW_S STEPS_PER_SAMPLE]\n");
        return 2;
    }
    static const int NS[2] = {70, 700};
    for (int i = 0; i < 2; i++)
        for (int s = 100; s <= 200; s += 100)
            if (run(outdir, NS[i], chain_window(NS[i]), s) != 0)
                return 1;
    return 0;
}
