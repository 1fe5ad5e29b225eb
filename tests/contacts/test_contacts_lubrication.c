/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The analytic Jacobian of the film force of a lubricated clearance joint
 * (src/elements/element_revolute_clearance.c through src/contacts/contacts_extra.c,
 * jacobian="analytic") against the Richardson-extrapolated central differences of the same film
 * (jacobian="differences"), in both theories, with a moving bearing (both bodies' columns, the
 * centres off the reference points, both spinning), at eccentricity ratios inside the film, beyond
 * the transition (eps held) and at the bearing centre; and the derivatives of the bearing formulas
 * in (eps, eps_dot, Omega) (contact/lubrication.h) against differences of the formulas.
 */
#include "ensure.h"

#include "clink/xml.h"
#include "contact/lubrication.h"
#include "model/model_internal.h"
#include "contacts/contacts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* two free bodies: a housing (the bearing) and a shaft (the journal), c = 0.1 mm */
static clink_model *two_bodies(const char *theory, const char *jacobian)
{
    char xml[2048], err[512];
    snprintf(xml, sizeof xml,
             "<mechanism name=\"jac\"><settings t_end=\"1\"/>"
             "<materials><material name=\"steel\" E=\"207e9\" nu=\"0.3\"/></materials>"
             "<bodies><body name=\"housing\" mass=\"2\" inertia=\"1e-3\"/>"
             "<body name=\"shaft\" mass=\"1\" inertia=\"1e-4\"/></bodies>"
             "<joints><revolute_clearance name=\"brg\" journal=\"shaft\" bearing=\"housing\" "
             "journal_point=\"0.02 -0.01\" bearing_point=\"-0.03 0.015\" "
             "journal_radius=\"0.01\" clearance=\"1e-4\" journal_material=\"steel\" "
             "bearing_material=\"steel\"><law name=\"hertz\"/>"
             "<lubrication viscosity=\"0.05\" length=\"0.02\" theory=\"%s\" jacobian=\"%s\" "
             "transition=\"0.9\"/></revolute_clearance></joints></mechanism>",
             theory, jacobian);
    clink_model *m = NULL;
    if (clink_xml_load_memory(xml, strlen(xml), "jac.xml", &m, NULL, err, sizeof err) != CLINK_OK)
        fprintf(stderr, "%s\n", err);
    return m;
}

/* the state: housing at (0.1, -0.2, 0.3) turning at 7 rad/s and moving; the shaft placed so
   that e = eps c (cos a, sin a), spinning at 150 rad/s, e' = (ex', ey') */
static void state(double eps, double a, const double ed[2], double q[6], double v[6])
{
    const double sj[2] = {0.02, -0.01}, sb[2] = {-0.03, 0.015};
    q[0] = 0.1, q[1] = -0.2, q[2] = 0.3, q[5] = -0.4;
    v[0] = 0.3, v[1] = -0.5, v[2] = 7.0, v[5] = 150.0;
    double ch = cos(q[2]), sh = sin(q[2]), cs = cos(q[5]), sn = sin(q[5]);
    double ca[2] = {q[0] + ch * sb[0] - sh * sb[1], q[1] + sh * sb[0] + ch * sb[1]};
    double va[2] = {v[0] - v[2] * (sh * sb[0] + ch * sb[1]),
                    v[1] + v[2] * (ch * sb[0] - sh * sb[1])};
    double rj[2] = {cs * sj[0] - sn * sj[1], sn * sj[0] + cs * sj[1]};
    q[3] = ca[0] + eps * 1e-4 * cos(a) - rj[0];
    q[4] = ca[1] + eps * 1e-4 * sin(a) - rj[1];
    v[3] = va[0] + ed[0] + v[5] * rj[1];
    v[4] = va[1] + ed[1] - v[5] * rj[0];
}

/* the film Jacobian (both blocks) of the model at (q, v) into jq, jv (6 x 6 each) */
static void film_jacobian(clink_model *m, const double q[6], const double v[6], double jq[36],
                          double jv[36])
{
    char err[256];
    contact_set *sc = contacts_create(m, m->d.settings.settle_speed, err, sizeof err);
    ENSURE(sc != NULL);
    memset(jq, 0, 36 * sizeof *jq);
    memset(jv, 0, 36 * sizeof *jv);
    if (sc == NULL)
        return;
    contacts_start(sc, q, v);
    dyn_gjac J = dyn_gjac_dense(6, jq, jv);
    ENSURE(contacts_forces_jacobian(sc, 0.0, q, v, &J) == 0);
    ENSURE(J.missed == 0);
    contacts_destroy(&sc);
}

/* largest |analytic - differences| over the largest |differences| of both blocks (of the
   velocity block alone if v_only) */
static double mismatch_of(const char *theory, double eps, double a, const double ed[2], int v_only)
{
    clink_model *ma = two_bodies(theory, "analytic"), *md = two_bodies(theory, "differences");
    ENSURE(ma != NULL && md != NULL);
    double q[6] = {0}, v[6] = {0}, aq[36], av[36], dq[36], dv[36], worst = 0, big = 0;
    if (ma == NULL || md == NULL)
        return INFINITY;
    state(eps, a, ed, q, v);
    film_jacobian(ma, q, v, aq, av);
    film_jacobian(md, q, v, dq, dv);
    for (int i = 0; i < 36; i++) {
        big = fmax(big, fmax(v_only ? 0.0 : fabs(dq[i]), fabs(dv[i])));
        worst = fmax(worst, fmax(v_only ? 0.0 : fabs(aq[i] - dq[i]), fabs(av[i] - dv[i])));
    }
    clink_model_destroy(&ma);
    clink_model_destroy(&md);
    printf("%s eps %.3g: largest |analytic - differences| %.3g of the largest entry %.3g\n", theory,
           eps, worst / big, big);
    ENSURE(big > 0);
    return worst / big;
}

static double mismatch(const char *theory, double eps, double a, const double ed[2])
{
    return mismatch_of(theory, eps, a, ed, 0);
}

TEST(the_analytic_film_jacobian_matches_differences_in_both_theories)
{
    const double ed[2] = {0.004, -0.007}, radial[2] = {0.003, 0.0};
    const char *th[] = {"short", "long"};
    for (int k = 0; k < 2; k++) {
        for (double eps = 0.17; eps < 0.89; eps += 0.12)
            ENSURE(mismatch(th[k], eps, 0.7 + eps, ed) < 1e-7);
        /* near the centre the differences' truncation error grows (steps of 1e-7 m against
           |e| = 5 um: (h / |e|)^4 = 2e-7 after extrapolation): the analytic one is the better */
        ENSURE(mismatch(th[k], 0.05, 0.75, ed) < 2e-6);
        /* beyond the transition (eps held at 0.9) */
        ENSURE(mismatch(th[k], 0.95, 2.0, ed) < 1e-7);
        /* at the centre the film is linear in e' (a pure squeeze) but not differentiable in
           e: the velocity block */
        ENSURE(mismatch_of(th[k], 0.0, 0.0, radial, 1) < 1e-7);
    }
}

/* the formula's derivatives against central differences of the formula itself */
TEST(the_bearing_formulas_derivatives_match_their_differences)
{
    const double mu = 0.04, R = 0.01, L = 0.03, c = 5e-5;
    for (int theory = 0; theory < 2; theory++)
        for (double eps = 0.02; eps < 0.97; eps += 0.07) {
            double x[3] = {eps, 37.0, -420.0}, worst = 0, big = 0;
            lubrication_force F, Fp, Fm;
            ENSURE(lubrication_film(theory, mu, R, L, c, x[0], x[1], x[2], &F) == 0);
            for (int j = 0; j < 3; j++) {
                /* Richardson's central difference (error h^4): steps of 1e-3 keep the
                   rounding of F (its integrals are differences of antiderivatives) out */
                double h = 1e-3 * fmax(fabs(x[j]), 1e-3), d[2][2];
                for (int r = 0; r < 2; r++) {
                    double xp[3], xm[3], hr = r ? 0.5 * h : h;
                    memcpy(xp, x, sizeof xp);
                    memcpy(xm, x, sizeof xm);
                    xp[j] += hr;
                    xm[j] -= hr;
                    ENSURE(lubrication_film(theory, mu, R, L, c, xp[0], xp[1], xp[2], &Fp) == 0);
                    ENSURE(lubrication_film(theory, mu, R, L, c, xm[0], xm[1], xm[2], &Fm) == 0);
                    for (int i = 0; i < 2; i++)
                        d[r][i] = Fp.F[i] - Fm.F[i];
                }
                for (int i = 0; i < 2; i++) {
                    double fd = (8.0 * d[1][i] - d[0][i]) / (6.0 * h);
                    big = fmax(big, fabs(fd));
                    worst = fmax(worst, fabs(fd - F.dF[i][j]) / fmax(fabs(fd), 1e-300));
                }
            }
            ENSURE(big > 0);
            ENSURE(worst < 1e-6);
        }
}
