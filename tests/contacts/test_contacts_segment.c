/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The contacts with a third body, a circle against a beam element's centreline
 * (src/contacts/contacts_segment.c, through the beam contact element): the force's Jacobian
 * (contacts_forces_jacobian, the geometry's exact derivatives with the law's slopes) against
 * central differences of the generalised forces (contacts_forces) over every coordinate and
 * rate of the three bodies (step 1e-8 of the coordinates, 1e-6 of the rates; tolerance 1e-5 of
 * the largest entry), for an elastic law and a damped one, the circle off its body's origin on
 * a turning body; and the force's balance: the nodes' shares sum to the circle's force, and the
 * moment about the origin of the three is zero (the force acts along one line).
 */
#include "ensure.h"

#include "clink/xml.h"
#include "contacts/contacts.h"
#include "model/model_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* a beam of 2 elements (nodes 1..3) and a ball (body 4) whose circle is off its origin */
static clink_model *ball_and_beam(const char *law)
{
    char xml[2048], err[512];
    snprintf(xml, sizeof xml,
             "<mechanism name=\"seg\"><settings t_end=\"1\"/>"
             "<materials><material name=\"steel\" E=\"207e9\" nu=\"0.3\" density=\"7800\"/>"
             "</materials><bodies><beam name=\"b\" from=\"0 0\" to=\"0.2 0\" elements=\"2\" "
             "area=\"1e-4\" second_moment=\"8.3e-10\" material=\"steel\"/>"
             "<body name=\"ball\" mass=\"0.03\" inertia=\"1e-6\" material=\"steel\"/></bodies>"
             "<contacts><beam_contact name=\"hit\" body=\"ball\" point=\"0.002 -0.001\" "
             "radius=\"0.01\" beam=\"b\" half_thickness=\"0.005\" beam_material=\"steel\">"
             "<law name=\"%s\" e=\"0.7\"/></beam_contact></contacts></mechanism>",
             law);
    clink_model *m = NULL;
    if (clink_xml_load_memory(xml, strlen(xml), "seg.xml", &m, NULL, err, sizeof err) != CLINK_OK)
        fprintf(stderr, "%s\n", err);
    return m;
}

enum { NQ = 12 };

/* nodes bent a little, the ball overlapping element 0 near its middle, all moving */
static void state(double q[NQ], double v[NQ])
{
    const double qs[NQ] = {0.0, 0.0005, 0.02,  0.1,   -0.0003, -0.01,
                           0.2, 0.001,  0.015, 0.046, 0.0144,  0.3};
    const double vs[NQ] = {0.1, -0.2, 3.0, -0.05, 0.3, -4.0, 0.02, 0.1, 1.0, 0.2, -1.8, 25.0};
    memcpy(q, qs, sizeof qs);
    memcpy(v, vs, sizeof vs);
}

static void forces(contact_set *sc, const double *q, const double *v, double g[NQ])
{
    memset(g, 0, NQ * sizeof *g);
    ENSURE(contacts_forces(sc, 0.0, q, v, g, NULL) == 0);
}

static void check_jacobian(const char *law)
{
    clink_model *m = ball_and_beam(law);
    ENSURE(m != NULL);
    if (!m)
        return;
    ENSURE(m->ncoords == NQ && m->d.ncontacts == 2);
    char err[256];
    contact_set *sc = contacts_create(m, m->d.settings.settle_speed, err, sizeof err);
    ENSURE(sc != NULL);
    double q[NQ], v[NQ], jq[NQ * NQ] = {0}, jv[NQ * NQ] = {0}, g[NQ];
    state(q, v);
    contacts_start(sc, q, v);
    forces(sc, q, v, g);
    ENSURE(fabs(g[10]) > 1.0); /* the ball is pushed */
    /* balance: the nodes' forces sum to minus the ball's, no net moment about the origin */
    ENSURE_NEAR(g[0] + g[3] + g[6] + g[9], 0.0, 1e-12 * fabs(g[10]));
    ENSURE_NEAR(g[1] + g[4] + g[7] + g[10], 0.0, 1e-12 * fabs(g[10]));
    double mom = 0.0;
    for (int b = 0; b < 4; b++)
        mom += q[3 * b] * g[3 * b + 1] - q[3 * b + 1] * g[3 * b] + g[3 * b + 2];
    ENSURE_NEAR(mom, 0.0, 1e-10 * fabs(g[10]));
    dyn_gjac J = dyn_gjac_dense(NQ, jq, jv);
    ENSURE(contacts_forces_jacobian(sc, 0.0, q, v, &J) == 0);
    double big = 0.0;
    for (int i = 0; i < NQ * NQ; i++)
        big = fmax(big, fmax(fabs(jq[i]), fabs(jv[i])));
    for (int col = 0; col < NQ; col++)
        for (int rate = 0; rate < 2; rate++) {
            double *x = rate ? v : q, x0 = x[col], h = rate ? 1e-6 : 1e-8, gp[NQ], gm[NQ];
            x[col] = x0 + h;
            forces(sc, q, v, gp);
            x[col] = x0 - h;
            forces(sc, q, v, gm);
            x[col] = x0;
            const double *jc = (rate ? jv : jq) + (size_t) col * NQ;
            for (int row = 0; row < NQ; row++) {
                double fd = (gp[row] - gm[row]) / (2 * h);
                if (fabs(jc[row] - fd) > 1e-5 * big)
                    fprintf(stderr, "%s: d g[%d] / d %s[%d]: %g vs %g\n", law, row,
                            rate ? "v" : "q", col, jc[row], fd);
                ENSURE_NEAR(jc[row], fd, 1e-5 * big);
            }
        }
    contacts_destroy(&sc);
    clink_model_destroy(&m);
}

TEST(beam_contact_force_jacobian_agrees_with_differences_for_an_elastic_law)
{
    check_jacobian("hertz");
}

TEST(beam_contact_force_jacobian_agrees_with_differences_for_a_damped_law)
{
    check_jacobian("lankarani-nikravesh");
}
