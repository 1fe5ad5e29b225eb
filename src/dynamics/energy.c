/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * energy.c: the energies and powers of the energy balance.
 *
 * Kinetic T = sum 1/2 M_cc v_c^2 (M diagonal); gravity V_g = -sum m_i g . r_i
 * (zero at y = 0 for g along -y); springs V_s = 1/2 k (l - l0)^2 for a
 * spring-damper and 1/2 k (phi_b - phi_a - l0)^2 for a rotational one. The
 * power of the non-conservative loads comes from dyn_applied_forces (loads.c);
 * that of the driver forces is lambda . nu over the driver rows (the driver
 * constraint forces Phi_q^T lambda on the velocities, Phi_q v = nu); that of
 * the constraint forces on the drift is lambda . (Phi_q v - nu), zero on the
 * manifold (dyn_constraint_power).
 */
#include "dynamics/dyn_internal.h"

#include <string.h>

/* kinetic energy and the potentials of gravity and springs at (q, v), J, each summed alone */
static void stored_energies(const dyn_system *s, const double *q, const double *v, double *kinetic,
                            double *gravity, double *spring)
{
    const model_data *d = &s->m->d;
    *kinetic = *gravity = *spring = 0.0;
    for (int c = 0; c < s->nq; c++)
        *kinetic += 0.5 * s->mass[c] * v[c] * v[c];
    for (int i = 1; i < d->nbodies; i++)
        *gravity -= d->bodies[i].def.mass *
                    (d->gravity[0] * q[3 * (i - 1)] + d->gravity[1] * q[3 * (i - 1) + 1]);
    for (int k = 0; k < d->nforces; k++) {
        const clink_force_def *f = &d->forces[k].def;
        kin_pose a, b;
        double arm[2], ra[2], rb[2];
        kin_pose_of(q, v, f->body_a, &a);
        kin_pose_of(q, v, f->body_b, &b);
        if (f->type == CLINK_FORCE_SPRING_DAMPER) {
            kin_point(&a, f->point_a, arm, ra);
            kin_point(&b, f->point_b, arm, rb);
            double ext = hypot(rb[0] - ra[0], rb[1] - ra[1]) - f->free_length;
            *spring += 0.5 * f->k * ext * ext;
        } else if (f->type == CLINK_FORCE_ROTATIONAL_SPRING_DAMPER) {
            double rel = b.phi - a.phi - f->free_length;
            *spring += 0.5 * f->k * rel * rel;
        } else if (f->type == CLINK_FORCE_BEAM) {
            *spring += dyn_beam_energy(f, q);
        }
    }
}

void dyn_stored_energies(const dyn_system *s, const double *q, const double *v, dyn_energy *e)
{
    memset(e, 0, sizeof *e);
    stored_energies(s, q, v, &e->kinetic, &e->gravity, &e->spring);
}

void dyn_energies(dyn_system *s, double t, const double *q, const double *v, const double *lambda,
                  dyn_energy *e)
{
    const model_data *d = &s->m->d;
    dyn_stored_energies(s, q, v, e);
    double pl = 0.0;
    double *g = s->work; /* nq scratch */
    if (dyn_applied_forces(s, t, q, v, g, &pl) == 0)
        e->power_loads = pl;
    else
        e->power_loads = NAN;
    if (lambda) {
        /* driver force on the bodies: Phi_q^T lambda; its power lambda . (Phi_q v) = lambda nu */
        double nu1;
        for (int k = 0; k < d->ndrivers; k++) {
            double f0, fdd;
            clink_function_eval(dyn_driver_function(s, k), t, &f0, &nu1, &fdd);
            e->power_drivers += lambda[s->m->driver_row[k]] * nu1;
        }
    }
}

double dyn_constraint_power(const dyn_system *s, const double *v, const double *lambda)
{
    double p = 0.0;
    for (int r = 0; r < s->nc; r++)
        p += lambda[r] * (dyn_row_times(s, r, v) - s->nu[r]);
    return p;
}

double dyn_mechanical_energy(const dyn_system *s, const double *q, const double *v)
{
    double kinetic, gravity, spring;
    stored_energies(s, q, v, &kinetic, &gravity, &spring);
    return kinetic + gravity + spring;
}
