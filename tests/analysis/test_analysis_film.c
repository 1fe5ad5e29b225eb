/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Tests of src/analysis/analysis_film.c: the steady position of a lubricated journal and the
 * film's stiffness and damping about it, against central differences of the public film
 * forces (clink/lubrication.h) with this file's own frame, the mirror symmetry of the sense
 * of rotation, a lubricated clearance joint of models/slider_crank_lubricated.xml, and the
 * refusals. The closed-form comparison is validation/val_film_coefficients.c.
 */
#include "../ensure.h"

#include "clink/analysis.h"
#include "clink/lubrication.h"
#include "clink/model.h"
#include "clink/xml.h"

#include <math.h>

static clink_film_bearing bearing(int theory, double omega, double load)
{
    clink_film_bearing b = {theory, 0.02, 0.025, 0.01, 5e-5, omega, load};
    return b;
}

/* the film force on the journal at position p and velocity v (bearing fixed), through the
   public force functions: eps = |p| / c, eps_dot = e_r . v / c, Omega = omega - 2 gamma_dot */
static void film_xy(const clink_film_bearing *b, const double p[2], const double v[2], double F[2])
{
    double e = hypot(p[0], p[1]), er[2] = {p[0] / e, p[1] / e}, et[2] = {-er[1], er[0]};
    double eps_dot = (er[0] * v[0] + er[1] * v[1]) / b->clearance;
    double Omega = b->omega - 2.0 * (et[0] * v[0] + et[1] * v[1]) / e, Fr, Ft;
    if (b->theory == CLINK_LUBRICATION_LONG)
        clink_long_bearing_force(b->viscosity, b->radius, b->length, b->clearance, e / b->clearance,
                                 eps_dot, Omega, &Fr, &Ft);
    else
        clink_short_bearing_force(b->viscosity, b->radius, b->length, b->clearance,
                                  e / b->clearance, eps_dot, Omega, &Fr, &Ft);
    F[0] = Fr * er[0] + Ft * et[0];
    F[1] = Fr * er[1] + Ft * et[1];
}

/* every coefficient against central differences (step 1e-6 c, 1e-6 c omega) within 1e-7 of
   the largest (truncation ~1e-12, rounding ~1e-10) */
static int matches_differences(int theory, double eps_load)
{
    clink_film_bearing b = bearing(theory, 300.0, eps_load);
    clink_film_coefficients f;
    if (clink_film_coefficients_compute(&b, &f) != CLINK_OK)
        return 0;
    double hp = 1e-6 * b.clearance, hv = hp * b.omega, Kmax = 0, Cmax = 0, Kd[4], Cd[4];
    for (int j = 0; j < 2; j++) {
        double pp[2] = {f.position[0], f.position[1]}, pm[2] = {pp[0], pp[1]};
        double vp[2] = {0, 0}, vm[2] = {0, 0}, z[2] = {0, 0}, Fp[2], Fm[2], Gp[2], Gm[2];
        pp[j] += hp;
        pm[j] -= hp;
        vp[j] = hv;
        vm[j] = -hv;
        film_xy(&b, pp, z, Fp);
        film_xy(&b, pm, z, Fm);
        film_xy(&b, f.position, vp, Gp);
        film_xy(&b, f.position, vm, Gm);
        for (int i = 0; i < 2; i++) {
            Kd[2 * i + j] = -(Fp[i] - Fm[i]) / (2 * hp);
            Cd[2 * i + j] = -(Gp[i] - Gm[i]) / (2 * hv);
        }
    }
    for (int k = 0; k < 4; k++) {
        Kmax = fmax(Kmax, fabs(Kd[k]));
        Cmax = fmax(Cmax, fabs(Cd[k]));
    }
    int ok = 1;
    for (int k = 0; k < 4; k++) {
        ENSURE_NEAR(f.stiffness[k], Kd[k], 1e-7 * Kmax);
        ENSURE_NEAR(f.damping[k], Cd[k], 1e-7 * Cmax);
        ok = ok && fabs(f.stiffness[k] - Kd[k]) <= 1e-7 * Kmax &&
             fabs(f.damping[k] - Cd[k]) <= 1e-7 * Cmax;
    }
    return ok;
}

TEST(film_short_coefficients_match_differences_of_the_force)
{
    ENSURE(matches_differences(CLINK_LUBRICATION_SHORT, 50.0));
    ENSURE(matches_differences(CLINK_LUBRICATION_SHORT, 2000.0));
}

TEST(film_long_coefficients_match_differences_of_the_force)
{
    ENSURE(matches_differences(CLINK_LUBRICATION_LONG, 2000.0));
    ENSURE(matches_differences(CLINK_LUBRICATION_LONG, 200000.0));
}

TEST(film_steady_force_balances_the_load)
{
    clink_film_bearing b = bearing(CLINK_LUBRICATION_SHORT, 300.0, 500.0);
    clink_film_coefficients f;
    ENSURE(clink_film_coefficients_compute(&b, &f) == CLINK_OK);
    ENSURE_REL(f.force[0], -500.0, 1e-12);
    ENSURE_NEAR(f.force[1], 0.0, 1e-12 * 500.0);
    ENSURE(f.eccentricity > 0 && f.eccentricity < 1);
    /* the journal turned from the load in the sense of rotation, by less than 90 degrees */
    ENSURE(f.attitude > 0 && f.attitude < 1.5707963267948966);
    ENSURE_REL(hypot(f.position[0], f.position[1]), f.eccentricity * b.clearance, 1e-14);
    /* the direct stiffness and damping of a journal bearing are positive */
    ENSURE(f.stiffness[0] > 0 && f.stiffness[3] > 0 && f.damping[0] > 0 && f.damping[3] > 0);
}

TEST(film_reverse_rotation_mirrors_the_coefficients)
{
    clink_film_bearing a = bearing(CLINK_LUBRICATION_SHORT, 300.0, 500.0);
    clink_film_bearing b = bearing(CLINK_LUBRICATION_SHORT, -300.0, 500.0);
    clink_film_coefficients fa, fb;
    ENSURE(clink_film_coefficients_compute(&a, &fa) == CLINK_OK);
    ENSURE(clink_film_coefficients_compute(&b, &fb) == CLINK_OK);
    ENSURE_REL(fb.eccentricity, fa.eccentricity, 1e-14);
    ENSURE_REL(fb.attitude, -fa.attitude, 1e-14);
    /* the mirror y -> -y: diagonal terms kept, cross terms change sign */
    double sgn[4] = {1, -1, -1, 1};
    for (int k = 0; k < 4; k++) {
        ENSURE_REL(fb.stiffness[k], sgn[k] * fa.stiffness[k], 1e-10);
        ENSURE_REL(fb.damping[k], sgn[k] * fa.damping[k], 1e-10);
    }
}

TEST(film_bearing_of_the_lubricated_slider_crank_joint)
{
    clink_model *m =
        clink_model_load_xml(CLINK_SOURCE_DIR "/models/slider_crank_lubricated.xml", NULL, 0);
    ENSURE(m != NULL);
    if (m == NULL)
        return;
    clink_film_bearing b;
    clink_film_coefficients f;
    ENSURE(clink_film_bearing_of_joint(m, 0, 150.0, 100.0, &b) == CLINK_OK);
    ENSURE(b.theory == CLINK_LUBRICATION_SHORT);
    ENSURE_NEAR(b.viscosity, 0.4, 0);
    ENSURE_NEAR(b.length, 0.04, 0);
    ENSURE_NEAR(b.radius, 0.0095, 0);
    ENSURE_REL(b.clearance, 0.0005, 1e-12);
    ENSURE(clink_film_coefficients_compute(&b, &f) == CLINK_OK);
    ENSURE(f.eccentricity > 0 && f.eccentricity < 1);
    ENSURE(clink_film_bearing_of_joint(m, 7, 150.0, 100.0, &b) != CLINK_OK);
    ENSURE(clink_film_bearing_of_joint(m, 0, 150.0, 100.0, NULL) == CLINK_ERR_ARG);
    clink_model_destroy(&m);
    m = clink_model_load_xml(CLINK_SOURCE_DIR "/models/slider_crank_clearance.xml", NULL, 0);
    ENSURE(m != NULL);
    if (m != NULL)
        ENSURE(clink_film_bearing_of_joint(m, 0, 150.0, 100.0, &b) == CLINK_ERR_MODEL);
    clink_model_destroy(&m);
}

TEST(film_coefficients_refuse_bad_input)
{
    clink_film_coefficients f;
    clink_film_bearing b = bearing(CLINK_LUBRICATION_SHORT, 300.0, 500.0);
    ENSURE(clink_film_coefficients_compute(NULL, &f) == CLINK_ERR_ARG);
    ENSURE(clink_film_coefficients_compute(&b, NULL) == CLINK_ERR_ARG);
    b.load = 0.0;
    ENSURE(clink_film_coefficients_compute(&b, &f) == CLINK_ERR_RANGE);
    b = bearing(CLINK_LUBRICATION_SHORT, 0.0, 500.0);
    ENSURE(clink_film_coefficients_compute(&b, &f) == CLINK_ERR_RANGE);
    b = bearing(CLINK_LUBRICATION_SHORT, NAN, 500.0);
    ENSURE(clink_film_coefficients_compute(&b, &f) == CLINK_ERR_RANGE);
    b = bearing(7, 300.0, 500.0);
    ENSURE(clink_film_coefficients_compute(&b, &f) == CLINK_ERR_RANGE);
    b = bearing(CLINK_LUBRICATION_SHORT, 300.0, 500.0);
    b.clearance = -1e-5;
    ENSURE(clink_film_coefficients_compute(&b, &f) == CLINK_ERR_RANGE);
    /* beyond what the film carries below eps = 1 - 1e-12 */
    b = bearing(CLINK_LUBRICATION_SHORT, 300.0, 1e40);
    ENSURE(clink_film_coefficients_compute(&b, &f) == CLINK_ERR_NO_CONVERGENCE);
}
