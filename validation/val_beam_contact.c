/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A ball striking a free beam between its nodes (models/ball_on_beam.xml: steel, 0.4 m in 4
 * elements, the ball of 10 mm falling at 2 m/s onto the middle of element 1; the beam contact
 * through the Lankarani-Nikravesh law, e = 0.8). Over the first millisecond (the impact at
 * 0.25 ms, 71 us long, and the beam's vibration after it) the books are closed from the
 * bodies' states and the contacts' forces, sampled every 2e-8 s and integrated by the
 * trapezoidal rule here:
 *
 * - linear momentum, of the ball and of the beam apart: P(t1) - P(0) = +-J_contact - m g t1
 *   (J_contact the integral of the contact forces on the ball), y to 1e-5 of J_contact, x to
 *   1e-6 of it;
 * - angular momentum about the origin, of the ball and of the beam apart: L(t1) - L(0) = the
 *   contact's angular impulse (+-integral of c x f: the force acts along the line through the
 *   ball's centre c, on the beam at its centreline point shared by the nodes) + gravity's, to
 *   1e-5 of the contact's;
 * - energy: T + V + U + W_contact - W_damping stays at its value at t = 0 within 1e-5 of the
 *   initial kinetic energy at every sample (U the elements' strain energy computed here from
 *   the nodes, W_contact the integral of fn d(delta)/dt, W_damping the Kelvin-Voigt work of the
 *   audit's work_loads); without W_contact the book misses by the contact's dissipation;
 * - the contact work against the energy audit's contact damping + stored energy, to 1e-5;
 * - the penetration and normal of the contact reported by the simulation against the distance
 *   from the ball's centre to the element's centreline segment evaluated here from the bodies'
 *   states (the closest point by projection, written separately), at every sample in contact,
 *   to 1e-12 m and 1e-9;
 * - positions against validation/ref_beam_contact.py (the same discretised system written
 *   separately in SciPy, Radau IIA at rtol 1e-9): the ball's x, y and vy and the nodes' y every
 *   0.1 ms, to 5e-9 m and 1e-5 m/s (measured: 4.7e-10 m and 7e-7 m/s at most, from both
 *   integrators' tolerances, rtol 1e-8 and 1e-9; the ball rebounds at 1.05 m/s and moves
 *   by 1 mm).
 */
#include "vjson.h"

#include "beam_model.h"

#include "clink/model.h"
#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <stdio.h>

#define NN   5 /* nodes */
#define BALL 6 /* the ball's body */
#define NC   4 /* contacts, one per element */

typedef struct books {
    double p[2][2], L[2], T, V, U; /* momentum and angular momentum: [0] the ball, [1] the beam */
} books;

static books all_books(clink_sim *sim, const double *m, const double *j, double l, double g)
{
    const double E = 207e9, G = E / 2.6, A = 1e-4, I = 8.333333333e-10, k = 5.0 / 6.0;
    books b = {{{0, 0}, {0, 0}}, {0, 0}, 0, 0, 0};
    double q[NN + 1][3], v[NN + 1][3];
    for (int i = 0; i <= NN; i++) {
        int w = i == NN ? 0 : 1;
        clink_sim_body_state(sim, i + 1, q[i], v[i]);
        b.p[w][0] += m[i] * v[i][0];
        b.p[w][1] += m[i] * v[i][1];
        b.L[w] += j[i] * v[i][2] + m[i] * (q[i][0] * v[i][1] - q[i][1] * v[i][0]);
        b.T += 0.5 * (m[i] * (v[i][0] * v[i][0] + v[i][1] * v[i][1]) + j[i] * v[i][2] * v[i][2]);
        b.V += m[i] * g * q[i][1];
    }
    b.U = beam_model_strain_energy((const double(*)[3]) q, NN, l, E * A, k * G * A, E * I);
    return b;
}

/* the integrands: the contacts' force on the ball (x, y), its moment about O at the ball's
   centre, the gravity moments on the ball and on the beam, the contacts' absorbed power; and
   the worst disagreement of a contact's penetration and normal with the segment's here */
static void integrands(clink_sim *sim, const double *m, double g, double f[6], double *dgap,
                       double *dnrm)
{
    double q[NN + 1][3], v[3];
    for (int i = 0; i <= NN; i++)
        clink_sim_body_state(sim, i + 1, q[i], v);
    for (int i = 0; i < 6; i++)
        f[i] = 0.0;
    for (int k = 0; k < NC; k++) {
        clink_contact_info c;
        clink_sim_contact(sim, k, &c);
        double fn = c.delta > 0.0 ? c.fn : 0.0;
        f[0] += fn * c.normal[0];
        f[1] += fn * c.normal[1];
        f[2] += q[NN][0] * fn * c.normal[1] - q[NN][1] * fn * c.normal[0];
        f[5] += fn * c.delta_dot;
        if (!(c.delta > 0.0))
            continue;
        /* the ball's distance to segment k, from the states */
        const double *a = q[k], *b = q[k + 1], *cb = q[NN];
        double d[2] = {b[0] - a[0], b[1] - a[1]}, w[2] = {cb[0] - a[0], cb[1] - a[1]};
        double s = (w[0] * d[0] + w[1] * d[1]) / (d[0] * d[0] + d[1] * d[1]);
        s = s < 0.0 ? 0.0 : (s > 1.0 ? 1.0 : s);
        double e[2] = {w[0] - s * d[0], w[1] - s * d[1]}, dist = hypot(e[0], e[1]);
        *dgap = fmax(*dgap, fabs(c.delta - (0.01 + 0.005 - dist)));
        *dnrm = fmax(*dnrm, hypot(c.normal[0] - e[0] / dist, c.normal[1] - e[1] / dist));
    }
    f[3] = -g * m[NN] * q[NN][0];
    f[4] = 0.0;
    for (int i = 0; i < NN; i++)
        f[4] -= g * m[i] * q[i][0];
}

/* the positions every 0.1 ms against the SciPy reference */
static void compare(vjson *v, const vref *ref, clink_sim *sim, int k)
{
    double q[3], w[3];
    char key[32], qn[96];
    const double t = 1e-4 * k;
    clink_sim_body_state(sim, BALL, q, w);
    const char *what[3] = {"x", "y", "vy"};
    const double val[3] = {q[0], q[1], w[1]}, tol[3] = {5e-9, 5e-9, 1e-5};
    for (int i = 0; i < 3; i++) {
        snprintf(key, sizeof key, "ball.%s.%d", what[i], k);
        snprintf(qn, sizeof qn, "ball %s at t = %g ms", what[i], 1e3 * t);
        vjson_row(v, qn, val[i], vref_get(ref, key), tol[i], i == 2 ? "m/s" : "m");
    }
    for (int i = 0; i < NN; i++) {
        clink_sim_body_state(sim, i + 1, q, w);
        snprintf(key, sizeof key, "node%d.y.%d", i, k);
        snprintf(qn, sizeof qn, "node beam.%d y at t = %g ms", i, 1e3 * t);
        vjson_row(v, qn, q[1], vref_get(ref, key), 5e-9, "m");
    }
}

/* the model, its masses, the reference; 0 when all are there */
static int setup(vjson *v, const char *out, clink_model **model, clink_sim **sim, double *m,
                 double *j, vref **ref)
{
    char err[512], args[96];
    *model = clink_model_load_xml(CLINK_SOURCE_DIR "/models/ball_on_beam.xml", err, sizeof err);
    if (!*model) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    for (int i = 0; i <= NN; i++) {
        clink_body_def d;
        if (clink_model_body(*model, i + 1, &d) != CLINK_OK)
            return -1;
        m[i] = d.mass;
        j[i] = d.inertia;
    }
    clink_beam_contact_def bc;
    if (clink_model_beam_contact(*model, 0, &bc) != CLINK_OK)
        return -1;
    vjson_info(v, "contact stiffness K (Hertz of two cylinders, given to the reference)",
               bc.params.K, "N/m^1.5");
    snprintf(args, sizeof args, "%.17g 0.001 1e-4", bc.params.K);
    if (vref_run(out, "ref_beam_contact.py", args) != 0) {
        fprintf(stderr, "ref_beam_contact.py failed (NumPy and SciPy needed)\n");
        return -1;
    }
    *ref = vref_load(out, "beam_contact_ref.csv");
    *sim = vsim_create(model);
    return *sim && *ref ? 0 : -1;
}

int main(int argc, char **argv)
{
    const char *out = argc > 1 ? argv[1] : ".";
    const double g = 9.81, t1 = 1e-3, dt = 2e-8, l = 0.1;
    vjson *v = vjson_open(out, "beam_contact",
                          "A ball striking a beam between its nodes: books, geometry and an "
                          "independent SciPy implementation");
    clink_model *model = NULL;
    clink_sim *sim = NULL;
    vref *ref = NULL;
    double m[NN + 1], j[NN + 1], M = 0.0;
    int ok = setup(v, out, &model, &sim, m, j, &ref) == 0;
    for (int i = 0; i < NN; i++)
        M += ok ? m[i] : 0.0;
    books b0 = ok ? all_books(sim, m, j, l, g) : (books){{{0, 0}, {0, 0}}, {0, 0}, 0, 0, 0};
    double J[2] = {0, 0}, Jl = 0, Jg[2] = {0, 0}, W = 0, f0[6] = {0}, f1[6];
    double worst = 0.0, worst_nc = 0.0, dgap = 0.0, dnrm = 0.0, E0 = b0.T + b0.V + b0.U;
    if (ok)
        integrands(sim, m, g, f0, &dgap, &dnrm);
    int n = (int) lround(t1 / dt);
    for (int k = 1; ok && k <= n; k++) {
        if (clink_sim_advance(sim, k * dt) != CLINK_OK) {
            fprintf(stderr, "%s\n", clink_sim_error(sim));
            ok = 0;
            break;
        }
        integrands(sim, m, g, f1, &dgap, &dnrm);
        J[0] += 0.5 * dt * (f0[0] + f1[0]);
        J[1] += 0.5 * dt * (f0[1] + f1[1]);
        Jl += 0.5 * dt * (f0[2] + f1[2]);
        Jg[0] += 0.5 * dt * (f0[3] + f1[3]);
        Jg[1] += 0.5 * dt * (f0[4] + f1[4]);
        W += 0.5 * dt * (f0[5] + f1[5]);
        for (int i = 0; i < 6; i++)
            f0[i] = f1[i];
        clink_energy e;
        clink_sim_energy(sim, &e);
        books bk = all_books(sim, m, j, l, g);
        double book = bk.T + bk.V + bk.U - e.work_loads - E0;
        worst = fmax(worst, fabs(book + W));
        worst_nc = fmax(worst_nc, fabs(book));
        if (k % 5000 == 0)
            compare(v, ref, sim, k / 5000);
    }
    vjson_check(v, "run to 1 ms", ok, "the ball, the beam and the reference reach t1", ok, "-");
    books b1 = ok ? all_books(sim, m, j, l, g) : b0;
    clink_energy e;
    clink_sim_energy(sim, &e);
    clink_impact_record rec = {0};
    int nimp = clink_sim_impact_count(sim);
    if (nimp > 0 && clink_sim_impact(sim, 0, &rec) != CLINK_OK)
        nimp = -1;
    vjson_check(v, "one impact, on element 1 (hit.e1)", nimp, "1 impact record, of contact 1",
                nimp == 1 && rec.contact == 1, "-");
    vjson_info(v, "contact impulse on the ball, y", J[1], "N s");
    vjson_row(v, "ball momentum x: (P_x(t1) - P_x(0) - J_x) / J_y",
              (b1.p[0][0] - b0.p[0][0] - J[0]) / J[1], 0.0, 1e-6, "-");
    vjson_row(v, "ball momentum y: (P_y(t1) - P_y(0) - J_y + m g t1) / J_y",
              (b1.p[0][1] - b0.p[0][1] - J[1] + m[NN] * g * t1) / J[1], 0.0, 1e-5, "-");
    vjson_row(v, "beam momentum x: (P_x(t1) - P_x(0) + J_x) / J_y",
              (b1.p[1][0] - b0.p[1][0] + J[0]) / J[1], 0.0, 1e-6, "-");
    vjson_row(v, "beam momentum y: (P_y(t1) - P_y(0) + J_y + M g t1) / J_y",
              (b1.p[1][1] - b0.p[1][1] + J[1] + M * g * t1) / J[1], 0.0, 1e-5, "-");
    vjson_info(v, "contact angular impulse on the ball about O", Jl, "N m s");
    vjson_row(v, "ball angular momentum: (L(t1) - L(0) - contact's - gravity's) / contact's",
              (b1.L[0] - b0.L[0] - Jl - Jg[0]) / Jl, 0.0, 1e-5, "-");
    vjson_row(v, "beam angular momentum: (L(t1) - L(0) + contact's - gravity's) / contact's",
              (b1.L[1] - b0.L[1] + Jl - Jg[1]) / Jl, 0.0, 1e-5, "-");
    vjson_info(v, "initial kinetic energy", b0.T, "J");
    vjson_info(v, "contact work absorbed (integral of fn d(delta)/dt)", W, "J");
    vjson_row(v, "energy book, largest |T+V+U+W_contact-W_damping - E0| / T0", worst / b0.T, 0.0,
              1e-5, "-");
    vjson_info(v, "the same book without W_contact, largest / T0", worst_nc / b0.T, "-");
    vjson_row_rel(v, "contact work absorbed against contact_damping + contact_stored", W,
                  e.contact_damping + e.contact_stored, 1e-5, "J");
    vjson_row(v, "penetration against the segment's evaluated here, largest difference", dgap, 0.0,
              1e-12, "m");
    vjson_row(v, "normal against the segment's evaluated here, largest difference", dnrm, 0.0, 1e-9,
              "-");
    vjson_row(v, "onset time against the reference", nimp > 0 ? rec.t_onset : NAN,
              vref_get(ref, "onset"), 1e-9, "s");
    clink_sim_destroy(&sim);
    clink_model_destroy(&model);
    vref_free(ref);
    return vjson_close(v) || !ok;
}
