/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A free flexible beam striking the floor (models/beam_impact.xml: steel, 0.4 m in 8
 * elements, tilted 30 degrees, falling at 1 m/s; a disc of 5 mm on its end node beam.0 meets
 * the floor through the Lankarani-Nikravesh law, e = 0.8). Over the 4 ms of the run (the
 * impact, its bending waves, the node's rebounds) the books are closed from the nodes' states
 * and the contact force, sampled every 2e-8 s and integrated by the trapezoidal rule here:
 *
 * - linear momentum: P(t1) - P(0) = J_contact - M g t1 (J_contact = integral of the contact
 *   force on the node), y to 1e-5 of J_contact; x to 1e-6 of it (the law has no friction and
 *   the floor's normal is y, so x momentum must not move);
 * - angular momentum about the origin: L(t1) - L(0) = integral of (contact point x contact
 *   force) - integral of g sum m_i x_i, to 1e-5 of the contact's angular impulse;
 * - energy: T + V + U + W_contact - W_damping stays at its value at t = 0 within 1e-5 of the
 *   initial kinetic energy at every sample: T and V (gravity) from the nodes' lumped masses and
 *   states, U the elements' strain energy computed here from the nodes (eps = d.t/l - 1,
 *   gamma = d.n/l, kappa = (theta_b - theta_a)/l; docs/flexible.md), W_contact the work
 *   absorbed by the contact, integral of fn d(delta)/dt, W_damping the Kelvin-Voigt work (the
 *   energy audit's work_loads). Left without W_contact the book would miss by the contact's
 *   dissipation (reported: thousands of times the tolerance), so the check can fail;
 * - the contact work absorbed by the end is the law's dissipation plus its stored energy as
 *   the energy audit counts them (contact_damping + contact_stored), to 1e-5.
 * The tolerances leave room for the trapezoidal rule's error at 2e-8 s (some 1000 samples per
 * period of the node's axial vibration against the element, 2 l / c = 2e-5 s) and for the
 * integrator's (rtol 1e-8): sampled ten times coarser (2e-7 s) the momentum books still close
 * within 2e-7 and the energy book within 1.1e-6 of T0; a book left open by one term misses by
 * far more (the gravity's impulse is 8 % of J_contact, the contact work 4 % of T0).
 */
#include "vjson.h"

#include "beam_model.h"

#include "clink/model.h"
#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <stdio.h>

#define NN 9 /* nodes */

typedef struct books {
    double p[2], L, T, V, U; /* momentum, angular momentum about O, energies */
} books;

typedef struct integrals {
    double J[2], Jl, Jg, W; /* contact impulse and angular impulse, gravity's, contact work */
} integrals;

/* the nodes' books: lumped masses m, inertias j; strain energy of the elements (length l) */
static books node_books(clink_sim *sim, const double *m, const double *j, double l, double g)
{
    const double E = 207e9, G = E / 2.6, A = 1e-4, I = 8.333333333e-10, k = 5.0 / 6.0;
    books b = {{0, 0}, 0, 0, 0, 0};
    double q[NN][3], v[NN][3];
    for (int i = 0; i < NN; i++) {
        clink_sim_body_state(sim, i + 1, q[i], v[i]);
        b.p[0] += m[i] * v[i][0];
        b.p[1] += m[i] * v[i][1];
        b.L += j[i] * v[i][2] + m[i] * (q[i][0] * v[i][1] - q[i][1] * v[i][0]);
        b.T += 0.5 * (m[i] * (v[i][0] * v[i][0] + v[i][1] * v[i][1]) + j[i] * v[i][2] * v[i][2]);
        b.V += m[i] * g * q[i][1];
    }
    b.U = beam_model_strain_energy((const double(*)[3]) q, NN, l, E * A, k * G * A, E * I);
    return b;
}

/* the integrands at the current time: contact force on the node, its moment about O, the
   gravity moment, the contact's absorbed power */
static void integrands(clink_sim *sim, const double *m, double g, int node_is_a, double f[5])
{
    clink_contact_info c;
    double q[3], v[3];
    clink_sim_contact(sim, 0, &c);
    double sgn = node_is_a ? -1.0 : 1.0, fn = c.delta > 0.0 ? c.fn : 0.0;
    const double *pt = node_is_a ? c.point_a : c.point_b;
    f[0] = sgn * fn * c.normal[0];
    f[1] = sgn * fn * c.normal[1];
    f[2] = pt[0] * f[1] - pt[1] * f[0];
    f[3] = 0.0;
    for (int i = 0; i < NN; i++) {
        clink_sim_body_state(sim, i + 1, q, v);
        f[3] -= g * m[i] * q[0];
    }
    f[4] = fn * c.delta_dot;
}

int main(int argc, char **argv)
{
    const char *out = argc > 1 ? argv[1] : ".";
    const double g = 9.81, t1 = 4e-3, dt = 2e-8, l = 0.05;
    char err[512];
    vjson *v = vjson_open(out, "beam_impact",
                          "A flexible beam striking the floor: momentum and energy books");
    clink_model *model =
        clink_model_load_xml(CLINK_SOURCE_DIR "/models/beam_impact.xml", err, sizeof err);
    if (!model)
        fprintf(stderr, "%s\n", err);
    clink_sim *sim = model ? vsim_create(&model) : NULL;
    double m[NN], j[NN], M = 0.0;
    int a = -1, b = -1, ok = sim != NULL;
    for (int i = 0; ok && i < NN; i++) {
        clink_body_def d;
        ok = clink_model_body(model, i + 1, &d) == CLINK_OK;
        m[i] = d.mass;
        j[i] = d.inertia;
        M += d.mass;
    }
    ok = ok && clink_model_element_bodies(model, clink_model_contact_element(model, 0), &a, &b) ==
                   CLINK_OK;
    ok = ok && (a == 1 || b == 1);
    books b0 = ok ? node_books(sim, m, j, l, g) : (books){{0, 0}, 0, 0, 0, 0};
    integrals in = {{0, 0}, 0, 0, 0};
    double f0[5] = {0}, f1[5], worst = 0.0, worst_nc = 0.0, E0 = b0.T + b0.V + b0.U;
    if (ok)
        integrands(sim, m, g, a == 1, f0);
    int n = (int) lround(t1 / dt);
    for (int k = 1; ok && k <= n; k++) {
        if (clink_sim_advance(sim, k * dt) != CLINK_OK) {
            fprintf(stderr, "%s\n", clink_sim_error(sim));
            ok = 0;
            break;
        }
        integrands(sim, m, g, a == 1, f1);
        in.J[0] += 0.5 * dt * (f0[0] + f1[0]);
        in.J[1] += 0.5 * dt * (f0[1] + f1[1]);
        in.Jl += 0.5 * dt * (f0[2] + f1[2]);
        in.Jg += 0.5 * dt * (f0[3] + f1[3]);
        in.W += 0.5 * dt * (f0[4] + f1[4]);
        for (int i = 0; i < 5; i++)
            f0[i] = f1[i];
        clink_energy e;
        clink_sim_energy(sim, &e);
        books bk = node_books(sim, m, j, l, g);
        double book = bk.T + bk.V + bk.U - e.work_loads - E0;
        worst = fmax(worst, fabs(book + in.W));
        worst_nc = fmax(worst_nc, fabs(book));
    }
    vjson_check(v, "run to 4 ms", ok, "the beam and its contact reach t1", ok, "-");
    books b1 = ok ? node_books(sim, m, j, l, g) : b0;
    clink_energy e;
    clink_sim_energy(sim, &e);
    vjson_info(v, "impacts recorded", clink_sim_impact_count(sim), "-");
    vjson_info(v, "contact impulse on the node, y", in.J[1], "N s");
    vjson_row(v, "momentum x: P_x(t1) - P_x(0) against the contact impulse x (0)",
              (b1.p[0] - b0.p[0] - in.J[0]) / in.J[1], 0.0, 1e-6, "-");
    vjson_row(v, "momentum y: (P_y(t1) - P_y(0) - J_y + M g t1) / J_y",
              (b1.p[1] - b0.p[1] - in.J[1] + M * g * t1) / in.J[1], 0.0, 1e-5, "-");
    vjson_info(v, "contact angular impulse about O", in.Jl, "N m s");
    vjson_row(v, "angular momentum: (L(t1) - L(0) - contact's - gravity's) / contact's",
              (b1.L - b0.L - in.Jl - in.Jg) / in.Jl, 0.0, 1e-5, "-");
    vjson_info(v, "initial kinetic energy", b0.T, "J");
    vjson_info(v, "contact work absorbed (integral of fn d(delta)/dt)", in.W, "J");
    vjson_info(v, "Kelvin-Voigt work of the elements (work_loads)", e.work_loads, "J");
    vjson_info(v, "strain energy at t1 (here) / the energy audit's", b1.U / e.spring, "-");
    vjson_row(v, "energy book, largest |T+V+U+W_contact-W_damping - E0| / T0", worst / b0.T, 0.0,
              1e-5, "-");
    vjson_info(v, "the same book without W_contact, largest / T0", worst_nc / b0.T, "-");
    vjson_row_rel(v, "contact work absorbed against contact_damping + contact_stored", in.W,
                  e.contact_damping + e.contact_stored, 1e-5, "J");
    clink_sim_destroy(&sim);
    clink_model_destroy(&model);
    return vjson_close(v) || !ok;
}
