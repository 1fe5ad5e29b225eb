/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A beam into its nodes and elements (src/model/model_beam.c): N + 1 bodies named NAME.i along
 * the centreline with the beam's angle, lumped masses summing to rho A L and rotary inertias to
 * rho I L, N beam elements with EA, kGA, EI and l; refusals leave the builder unchanged.
 */
#include "ensure.h"

#include "clink/model.h"

#include <math.h>
#include <string.h>

static clink_beam_def steel_beam(void)
{
    clink_beam_def d = clink_default_beam_def();
    d.name = "rod";
    d.from[0] = 0.1;
    d.from[1] = 0.2;
    d.to[0] = 0.1 + 0.6;
    d.to[1] = 0.2 + 0.8; /* length 1 m at atan2(0.8, 0.6) */
    d.elements = 4;
    d.area = 1e-4;
    d.second_moment = 1e-9;
    d.E = 2e11;
    d.G = 8e10;
    d.density = 7800.0;
    d.omega = 2.0;
    return d;
}

TEST(a_beam_expands_into_named_nodes_with_lumped_masses_and_elements)
{
    clink_model_builder *b = clink_model_builder_create();
    clink_beam_def d = steel_beam();
    int first = -1;
    ENSURE(clink_model_builder_add_beam(b, &d, &first) == CLINK_OK);
    ENSURE(first == 1);
    clink_model *m = NULL;
    ENSURE(clink_model_builder_finalize(b, &m) == CLINK_OK);
    clink_model_builder_destroy(&b);
    if (!m)
        return;
    ENSURE(clink_model_count(m, CLINK_ENTITY_BODY) == 1 + 5);
    ENSURE(clink_model_count(m, CLINK_ENTITY_FORCE) == 4);
    ENSURE(clink_model_find(m, CLINK_ENTITY_BODY, "rod.4") == 5);
    ENSURE(clink_model_find(m, CLINK_ENTITY_FORCE, "rod.e3") == 3);
    double mass = 0.0, inertia = 0.0;
    for (int i = 0; i <= 4; i++) {
        clink_body_def bd;
        ENSURE(clink_model_body(m, 1 + i, &bd) == CLINK_OK);
        mass += bd.mass;
        inertia += bd.inertia;
        ENSURE_NEAR(bd.x, 0.1 + 0.15 * i, 1e-15);
        ENSURE_NEAR(bd.y, 0.2 + 0.2 * i, 1e-15);
        ENSURE_NEAR(bd.phi, atan2(0.8, 0.6), 1e-15);
        /* a rigid spin about the from end: v = omega x (r - from) */
        ENSURE_NEAR(bd.vx, -2.0 * 0.2 * i, 1e-14);
        ENSURE_NEAR(bd.vy, 2.0 * 0.15 * i, 1e-14);
        ENSURE(bd.omega == 2.0);
        if (i == 0 || i == 4)
            ENSURE_REL(bd.mass, 7800.0 * 1e-4 * 0.25 / 2.0, 1e-14);
    }
    ENSURE_REL(mass, 7800.0 * 1e-4 * 1.0, 1e-14);
    ENSURE_REL(inertia, 7800.0 * 1e-9 * 1.0, 1e-14);
    clink_force_def f;
    ENSURE(clink_model_force(m, 2, &f) == CLINK_OK);
    ENSURE(f.type == CLINK_FORCE_BEAM && f.body_a == 3 && f.body_b == 4);
    ENSURE_REL(f.ea, 2e7, 1e-15);
    ENSURE_REL(f.ga, 5.0 / 6.0 * 8e10 * 1e-4, 1e-15);
    ENSURE_REL(f.ei, 200.0, 1e-15);
    ENSURE_REL(f.free_length, 0.25, 1e-15);
    clink_model_destroy(&m);
}

TEST(a_refused_beam_leaves_the_builder_unchanged)
{
    clink_model_builder *b = clink_model_builder_create();
    clink_body_def bd = clink_default_body_def();
    bd.name = "rod.3"; /* a node name taken */
    ENSURE(clink_model_builder_add_body(b, &bd, NULL) == CLINK_OK);
    clink_beam_def d = steel_beam();
    ENSURE(clink_model_builder_add_beam(b, &d, NULL) == CLINK_ERR_MODEL);
    ENSURE(strstr(clink_model_builder_error(b), "'rod.3' is taken") != NULL);
    d = steel_beam();
    d.area = 0.0;
    ENSURE(clink_model_builder_add_beam(b, &d, NULL) == CLINK_ERR_RANGE);
    ENSURE(strstr(clink_model_builder_error(b), "area = 0 m^2 must be > 0") != NULL);
    d = steel_beam();
    d.elements = 0;
    ENSURE(clink_model_builder_add_beam(b, &d, NULL) == CLINK_ERR_RANGE);
    d = steel_beam();
    d.name = NULL;
    ENSURE(clink_model_builder_add_beam(b, &d, NULL) == CLINK_ERR_ARG);
    ENSURE(clink_model_builder_find(b, CLINK_ENTITY_BODY, "rod.0") < 0);
    clink_model *m = NULL;
    ENSURE(clink_model_builder_finalize(b, &m) == CLINK_OK);
    if (m)
        ENSURE(clink_model_count(m, CLINK_ENTITY_BODY) == 2);
    clink_model_destroy(&m);
    clink_model_builder_destroy(&b);
}
