/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Tests of src/sim/sim_friction.c (clink_sim_joint_friction, clink_sim_contact_friction_state)
 * and of the output columns built on them (src/output/output_columns.c): each value checked
 * against a computation that does not go through clink's friction code.
 *
 *   models/pendulum_lugre_pin.xml  the pin's friction torque T against the rod's equation
 *       about the pin, T = I_O alpha + m g x_c (the reaction has no moment there), from the
 *       accelerations of the saddle solve; the bristle state z against the LuGre law
 *       solved for z from T, the reaction and the slip (written here from the law's
 *       formula: sigma0 z + sigma1 z' = -(T / r + sigma2 v) / F_n, z' = v - sigma0 |v| z /
 *       mu(v));
 *   models/block_drag_lugre.xml  the contact's z at constant slip v against its closed
 *       form z_ss (1 - exp(-(t - t_on) / tau)) from the landing t_on = sqrt(2 h / g), z_ss = mu(v)
 * / sigma0, tau = mu(v) / (sigma0 v); the driver's force against the friction force F_t = -F_n
 * (sigma0 z + sigma1 z') - sigma2 v of that closed form and the contact's normal force (m a = 0
 * along x); and `clink run`'s columns pin.friction, pin.z and ground_contact.z hold the getters'
 * values bit for bit at the output times (outputs never steer the integrator).
 */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */

#include "ensure.h"

#include "clink/sim.h"
#include "clink/xml.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PENDULUM CLINK_SOURCE_DIR "/models/pendulum_lugre_pin.xml"
#define BLOCK    CLINK_SOURCE_DIR "/models/block_drag_lugre.xml"

/* the pendulum's data (models/pendulum_lugre_pin.xml) */
static const double P_M = 1.0, P_L = 0.5, P_G = 9.81, P_R = 0.02, P_PRE = 2.0, P_MU = 0.3,
                    P_MUS = 0.4, P_VS = 1e-3, P_S0 = 1e5, P_S1 = 300.0, P_S2 = 0.05;
/* the block's (models/block_drag_lugre.xml) */
static const double B_M = 1.0, B_G = 9.81, B_V = 0.01, B_MU = 0.3, B_MUS = 0.5, B_VS = 1e-2,
                    B_S0 = 1e5, B_S1 = 200.0, B_S2 = 0.1;

static clink_sim *open_sim(const char *path, clink_model **m)
{
    char err[512];
    clink_sim *s = NULL;
    *m = clink_model_load_xml(path, err, sizeof err);
    if (!*m || clink_sim_create(*m, NULL, &s, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        clink_model_destroy(m);
        return NULL;
    }
    return s;
}

/* the Stribeck curve of the lugre law, written from its formula (docs/friction.md) */
static double stribeck(double mu, double mu_s, double v_s, double v)
{
    return mu + (mu_s - mu) * exp(-(v / v_s) * (v / v_s));
}

TEST(a_joint_friction_torque_equals_the_rods_equation_about_the_pin_and_z_the_laws_inversion)
{
    clink_model *m = NULL;
    clink_sim *s = open_sim(PENDULUM, &m);
    ENSURE(s != NULL);
    if (!s)
        return;
    const double i_o = P_M * P_L * P_L / 3.0, torque_scale = P_M * P_G * P_L / 2.0;
    double worst_t = 0.0, worst_z = 0.0, largest_t = 0.0, largest_z = 0.0;
    int checked = 0;
    for (int k = 0; k <= 500; k++) {
        if (k > 0)
            ENSURE(clink_sim_advance(s, k * 1e-3) == CLINK_OK);
        double q[3], v[3], a[3], react[3], T, z;
        ENSURE(clink_sim_body_state(s, 1, q, v) == CLINK_OK);
        ENSURE(clink_sim_body_acceleration(s, 1, a) == CLINK_OK);
        ENSURE(clink_sim_joint_reaction(s, 0, react) == CLINK_OK);
        ENSURE(clink_sim_joint_friction(s, 0, &T, &z) == CLINK_OK);
        /* the rod about the pin (at the origin): I_O alpha = -m g x_c + T */
        double expect_t = i_o * a[2] + P_M * P_G * q[0];
        worst_t = fmax(worst_t, fabs(T - expect_t));
        largest_t = fmax(largest_t, fabs(T));
        /* the law solved for z: the slip v = r omega, F_n = |R| + preload */
        double slip = P_R * v[2], fn = hypot(react[0], react[1]) + P_PRE;
        double g = stribeck(P_MU, P_MUS, P_VS, slip);
        double rhs = -(T / P_R + P_S2 * slip) / fn - P_S1 * slip;
        double expect_z = rhs / (P_S0 - P_S1 * P_S0 * fabs(slip) / g);
        worst_z = fmax(worst_z, fabs(z - expect_z));
        largest_z = fmax(largest_z, fabs(z));
        checked++;
    }
    fprintf(stderr,
            "%d times: |T - (I_O alpha + m g x_c)| <= %.3g N m (|T| up to %.3g), "
            "|z - inversion| <= %.3g m (|z| up to %.3g)\n",
            checked, worst_t, largest_t, worst_z, largest_z);
    ENSURE(checked == 501);
    /* the torque acts (not zero compared with zero) and matches to the rounding of the
       saddle solve: 1e-9 of m g L / 2 (seen: 9e-13 N m, 4e-12 of it) */
    ENSURE(largest_t > 0.01);
    ENSURE(worst_t <= 1e-9 * torque_scale);
    /* z at its scale mu_s / sigma0: the inversion's rounding (it divides by F_n and sigma0)
       and that of the torque it starts from, 1e-9 of it (seen: 7e-21 m, 2e-15 of it) */
    ENSURE(largest_z > 1e-6);
    ENSURE(worst_z <= 1e-9 * P_MUS / P_S0);
    /* a joint without friction, a contact index out of range */
    double f, zz;
    ENSURE(clink_sim_joint_friction(s, 1, &f, &zz) == CLINK_ERR_ARG);
    clink_sim_destroy(&s);
    clink_model_destroy(&m);
}

TEST(a_contacts_bristle_state_at_constant_slip_follows_the_closed_form)
{
    clink_model *m = NULL;
    clink_sim *s = open_sim(BLOCK, &m);
    ENSURE(s != NULL);
    if (!s)
        return;
    const double g = stribeck(B_MU, B_MUS, B_VS, B_V), z_ss = g / B_S0, tau = g / (B_S0 * B_V);
    /* released 1 nm above the ground: z is 0 (frozen) until the landing */
    const double t_on = sqrt(2.0 * 1e-9 / B_G);
    double worst_z = 0.0, worst_f = 0.0, sign = 0.0;
    for (int k = 1; k <= 400; k++) {
        double t = k * 1e-5, z, push;
        clink_contact_info ci;
        ENSURE(clink_sim_advance(s, t) == CLINK_OK);
        ENSURE(clink_sim_contact_friction_state(s, 0, &z) == CLINK_OK);
        ENSURE(clink_sim_driver_force(s, 0, &push) == CLINK_OK);
        ENSURE(clink_sim_contact(s, 0, &ci) == CLINK_OK);
        if (sign == 0.0 && z != 0.0)
            sign = z < 0.0 ? -1.0 : 1.0; /* the tangent's orientation: the pair's */
        double expect = t < t_on ? 0.0 : sign * z_ss * (1.0 - exp(-(t - t_on) / tau));
        worst_z = fmax(worst_z, fabs(z - expect));
        /* m a = 0 along x: the driver pushes against F_t = -F_n (sigma0 z + sigma1 z') -
           sigma2 v, of the closed form's z and z' = v - sigma0 v z / mu(v) */
        double zc = t < t_on ? 0.0 : z_ss * (1.0 - exp(-(t - t_on) / tau)),
               zdot = B_V - B_S0 * B_V * zc / g;
        double ft = t < t_on ? 0.0 : ci.fn * (B_S0 * zc + B_S1 * zdot) + B_S2 * B_V;
        worst_f = fmax(worst_f, fabs(push - ft));
    }
    fprintf(stderr, "|z - closed form| <= %.3g m (z_ss %.4g m), |push - F_t| <= %.3g N\n", worst_z,
            z_ss, worst_f);
    /* the integration's error at rtol 1e-10, atol 1e-14 (seen: 3.6e-8 of z_ss; 1e-7 of
       the friction force, whose sigma1 z' term follows the contact's settling) */
    ENSURE(worst_z <= 1e-7 * z_ss);
    ENSURE(worst_f <= 1e-6 * B_M * B_G * g);
    double z;
    ENSURE(clink_sim_contact_friction_state(s, 1, &z) == CLINK_ERR_ARG);
    clink_sim_destroy(&s);
    clink_model_destroy(&m);
}

/* the column named `name` of a CSV header (its index), -1 if none */
static int column_of(const char *header, const char *name)
{
    char buf[1 << 14];
    snprintf(buf, sizeof buf, "%s", header);
    int c = 0;
    for (char *tok = strtok(buf, ",\n"); tok; tok = strtok(NULL, ",\n"), c++) {
        size_t n = strlen(name);
        if (strncmp(tok, name, n) == 0 && (tok[n] == ' ' || tok[n] == '\0'))
            return c;
    }
    return -1;
}

/* field c of a CSV line */
static double field_of(const char *line, int c)
{
    const char *p = line;
    for (int i = 0; i < c && p; i++) {
        p = strchr(p, ',');
        p = p ? p + 1 : NULL;
    }
    return p ? strtod(p, NULL) : NAN;
}

/* `clink run` of the model (grid rows) and the library's values of the columns at the
   same times: the same bits */
static int columns_match(const char *path, const char *c1, const char *c2, int joint)
{
    char dir[] = "/tmp/clink-friction-XXXXXX", cmd[2048], csv[256], line[1 << 14];
    if (!mkdtemp(dir))
        return -1;
    snprintf(cmd, sizeof cmd, "'%s' run '%s' --rows grid -q -o '%s/run'", CLINK_EXE, path, dir);
    snprintf(csv, sizeof csv, "%s/run/timeseries.csv", dir);
    FILE *f = system(cmd) == 0 ? fopen(csv, "r") : NULL;
    int bad = -1;
    clink_model *m = NULL;
    clink_sim *s = f && fgets(line, sizeof line, f) ? open_sim(path, &m) : NULL;
    int k1 = column_of(line, c1), k2 = c2 ? column_of(line, c2) : -1, rows = 0;
    if (s && k1 >= 0 && (!c2 || k2 >= 0)) {
        bad = 0;
        while (fgets(line, sizeof line, f)) {
            double t = field_of(line, 0), a = NAN, b = NAN;
            if (rows++ > 0 && clink_sim_advance(s, t) != CLINK_OK)
                return -1;
            if (joint)
                clink_sim_joint_friction(s, 0, &a, &b);
            else
                clink_sim_contact_friction_state(s, 0, &a);
            bad += memcmp(&a, &(double){field_of(line, k1)}, sizeof a) != 0;
            if (c2)
                bad += memcmp(&b, &(double){field_of(line, k2)}, sizeof b) != 0;
        }
    }
    if (f)
        fclose(f);
    clink_sim_destroy(&s);
    clink_model_destroy(&m);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        return -1;
    return rows > 100 ? bad : -1;
}

TEST(the_friction_columns_hold_the_getters_values_bit_for_bit)
{
    ENSURE(columns_match(PENDULUM, "pin.friction", "pin.z", 1) == 0);
    ENSURE(columns_match(BLOCK, "ground_contact.z", NULL, 0) == 0);
}
