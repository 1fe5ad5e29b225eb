/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The ideal gear joint (src/joints/joint_gear.c): its row against the closed form and its
 * checks; the gear train of models/gear_train.xml (a pinion driven by a constant torque,
 * two external meshes in series and an internal one) keeps the speed ratios -r1 / r2 of
 * its meshes to 1e-9 through the run, and the pinion accelerates at the closed form
 * T / (I1 + sum I_k rho_k^2) (rho_k the speed ratio of gear k to the pinion) to 1e-9
 * relative; the work of the torque equals the kinetic energy (the books close to 1e-9 J).
 * The constraint Jacobian and second-derivative hooks of every joint class, the gear's
 * included, are checked against differences in tests/kinematics/test_kinematics.c.
 */
#include "ensure.h"
#include "test_models.h"

#include "clink/sim.h"
#include "clink/xml.h"
#include "joints/joint.h"

#include <math.h>

TEST(gear_joint_row_couples_the_rotations_by_its_ratio)
{
    const joint_class *jc = joint_class_find("gear");
    ENSURE(jc != NULL && jc->neq == 1);
    if (!jc)
        return;
    clink_joint_def d = clink_default_joint_def();
    d.type = CLINK_JOINT_GEAR;
    d.ratio = -0.25;
    d.angle0 = 0.3;
    joint_pose a, b;
    joint_pose_set(&a, 0.1, 0.2, 1.2, 0.3, 0.4, 5.0);
    joint_pose_set(&b, -0.1, 0.5, 0.7, 0.0, 0.1, 1.25);
    double phi, gamma;
    joint_row jac;
    jc->phi(&d, &a, &b, &phi);
    jc->jacobian(&d, &a, &b, &jac);
    jc->gamma(&d, &a, &b, &gamma);
    ENSURE_NEAR(phi, 0.7 - 0.25 * 1.2 - 0.3, 1e-15);
    ENSURE_NEAR(jac.ja[2], -0.25, 0.0);
    ENSURE_NEAR(jac.jb[2], 1.0, 0.0);
    ENSURE_NEAR(jac.ja[0] + jac.ja[1] + jac.jb[0] + jac.jb[1], 0.0, 0.0);
    ENSURE_NEAR(gamma, 0.0, 0.0);
    /* a zero or non-finite ratio is refused */
    d.ratio = 0.0;
    ENSURE(jc->check(&d) != NULL);
    d.ratio = NAN;
    ENSURE(jc->check(&d) != NULL);
    d.ratio = 2.0;
    ENSURE(jc->check(&d) == NULL);
}

TEST(a_gear_train_keeps_its_speed_ratios_and_accelerates_as_its_closed_form)
{
    char err[512];
    clink_model *m = NULL;
    ENSURE(clink_xml_load(CLINK_SOURCE_DIR "/models/gear_train.xml", &m, NULL, err, sizeof err) ==
           CLINK_OK);
    clink_sim *sim = test_sim_start(m);
    ENSURE(sim != NULL);
    if (!sim) {
        clink_model_destroy(&m);
        return;
    }
    const double T = 0.01, I[4] = {1e-5, 4e-5, 2e-5, 3e-4}, rho[4] = {1.0, -0.5, 2.0 / 3.0, 0.25};
    double Ieff = 0.0;
    for (int k = 0; k < 4; k++)
        Ieff += I[k] * rho[k] * rho[k];
    double worst = 0.0;
    for (double t = 0.1; t <= 1.0 + 1e-12; t += 0.1) {
        ENSURE(clink_sim_advance(sim, t) == CLINK_OK);
        double q[3], qd[3], w1 = 0.0, a[3];
        for (int k = 0; k < 4; k++) {
            ENSURE(clink_sim_body_state(sim, k + 1, q, qd) == CLINK_OK);
            if (k == 0)
                w1 = qd[2];
            worst = fmax(worst, fabs(qd[2] - rho[k] * w1));
        }
        ENSURE(clink_sim_body_acceleration(sim, 1, a) == CLINK_OK);
        ENSURE_NEAR(a[2] / (T / Ieff), 1.0, 1e-9);
        ENSURE_NEAR(w1, T / Ieff * t, 1e-9 * T / Ieff);
    }
    ENSURE_NEAR(worst, 0.0, 1e-9);
    clink_energy e;
    ENSURE(clink_sim_energy(sim, &e) == CLINK_OK);
    ENSURE_NEAR(e.balance, 0.0, 1e-9);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}
