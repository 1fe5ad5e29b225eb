/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pd_crank.c: a closed loop with the controller in the host. The clearance slider-crank of
 * examples/slider_crank_clearance_torque.xml has no speed driver: its crank is turned by the
 * input motor_torque, which a PD controller sets between advances to hold 5000 rpm,
 *
 *   tau = Kp (theta_ref - theta) + Kd (omega_ref - omega),  theta_ref = omega_ref t,
 *
 * theta and omega the crank's angle and rate read with clink_sim_body_state(), held over each
 * control period (a zero-order hold, as a digital drive applies it). The gains: the inertia
 * about the crank pivot is J ~ 4e-4 kg m^2 (crank 2.9e-4 and the rod's share); with the hold
 * of period h = 1e-5 s, Kd h / J = 0.5 keeps the sampled loop well inside its stability limit,
 * so Kd = 20 N m s/rad and Kp = Kd^2 / (4 J) = 2.5e5 N m/rad (critical damping). The
 * inertia forces of the slider reach 140 N m at the crank, so the speed moves by about
 * 140 / Kd = 7 rad/s (1.3 %) within a turn.
 *
 *   pd_crank [MODEL.xml [T_END [PERIOD]]]     defaults: the example model, 0.012 s, 1e-5 s
 *
 * Prints time, crank speed (rpm) and torque (N m) every 1 ms, and the largest speed error
 * over the last half of the run; exits 1 when a call fails or that error exceeds 2 %.
 */
#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define PD_PI 3.14159265358979323846

#ifndef PD_CRANK_MODEL
#define PD_CRANK_MODEL "examples/slider_crank_clearance_torque.xml"
#endif

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : PD_CRANK_MODEL;
    double t_end = argc > 2 ? atof(argv[2]) : 0.012, period = argc > 3 ? atof(argv[3]) : 1e-5;
    const double omega_ref = 5000.0 * 2.0 * PD_PI / 60.0, kp = 2.5e5, kd = 20.0;
    char err[512];
    clink_model *model = clink_model_load_xml(path, err, sizeof err);
    if (!model) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    clink_sim *sim = NULL;
    if (clink_sim_create(model, NULL, &sim, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        clink_model_destroy(&model);
        return 1;
    }
    int motor = clink_sim_input_index(sim, "motor_torque");
    int steps = (int) lround(t_end / period), every = (int) lround(1e-3 / period), rc = 0;
    double q[3], v[3], worst = 0.0, theta0;
    clink_sim_body_state(sim, 1, q, v);
    theta0 = q[2];
    for (int k = 0; k < steps && rc == 0; k++) {
        double t = k * period;
        clink_sim_body_state(sim, 1, q, v);
        double tau = kp * (theta0 + omega_ref * t - q[2]) + kd * (omega_ref - v[2]);
        if (motor < 0 || clink_sim_set_input(sim, motor, tau, 0.0) != CLINK_OK ||
            clink_sim_advance(sim, (k + 1) * period) != CLINK_OK) {
            fprintf(stderr, "pd_crank: %s\n",
                    motor < 0 ? "no input motor_torque" : clink_sim_error(sim));
            rc = 1;
            break;
        }
        clink_sim_body_state(sim, 1, q, v);
        if (k >= steps / 2)
            worst = fmax(worst, fabs(v[2] - omega_ref) / omega_ref);
        if ((k + 1) % every == 0)
            printf("%.4f s  %9.2f rpm  %9.3f N m\n", (k + 1) * period, v[2] * 60.0 / (2.0 * PD_PI),
                   tau);
    }
    if (rc == 0) {
        printf("largest speed error over the last half: %.3g %%\n", 100.0 * worst);
        printf("final crank speed %.17g rad/s\n", v[2]);
        rc = worst <= 0.02 ? 0 : 1;
    }
    clink_sim_destroy(&sim);
    clink_model_destroy(&model);
    return rc;
}
