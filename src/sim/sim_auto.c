/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim_auto.c: the integration method and drift control of a model whose settings
 * say neither (CLINK_METHOD_AUTO, CLINK_DRIFT_AUTO), chosen once when the
 * simulation is created, from the model's structure:
 *
 *   no joints and no drivers (free bodies, contacts)      Adams, no drift control
 *   joints forming no closed loop or one loop              Adams, Baumgarte
 *   joints closing two or more independent loops           BDF, projection
 *   any of these with a dynamic friction law (lugre, dahl)  BDF, the drift above
 *
 * The loops are the cyclomatic number of the graph whose nodes are the ground
 * and the bodies and whose edges are the joints: L = joints - bodies + parts
 * (parts: connected components, ground included in one). The rule comes from a
 * study at equal accuracy (bench/auto_settings_study.py, docs/kernel.md "What
 * auto picks and why"): Adams is the cheaper method on every shipped class
 * whose solution it follows (the contacts of the chains, the ball and the
 * clearance joints are resolved by Adams's short steps at fewer instructions
 * than BDF's Newton iterations with their KLU factorizations), Baumgarte costs
 * a few percent over no drift control and keeps a constrained run on its
 * manifold over long horizons, and projection with BDF is the one combination
 * that follows the N-four-bar (IFToMM A02) through its flat positions, where
 * the loops' constraints become dependent: without projection the run leaves
 * the branch or stalls. A tree of joints has a constraint Jacobian of full rank
 * in every configuration, so no singular position can occur there; with loops
 * it can, and the rule takes projection where several loops share their links.
 *
 * A dynamic friction law (a contact's or a joint's law with a state: lugre, dahl)
 * makes the problem stiff: the bristle state relaxes at sigma0 |v_t| / mu, 1e7 / s
 * for the clearance slider-crank's journal with sigma0 = 1e5 1/m, and Adams, whose
 * fixed-point iteration and stability bound follow that rate, took 25 times BDF's
 * steps there (bench/friction_lugre.sh, docs/friction.md "Performance"); BDF's
 * Newton iteration carries the state in its Jacobian (cvode_setup.c).
 *
 * An explicit method or drift is never changed; with one of them explicit the
 * other follows the rule, except that Adams never gets projection (CVODE 6.4's
 * projection works with BDF only): Adams with auto drift gets Baumgarte, and
 * auto method with projection gets BDF.
 */
#include "sim/sim_auto.h"

#include "elements/element.h"
#include "integrators/integrator.h"
#include "model/model_internal.h"
#include "sim/sim_internal.h"

#include <stdlib.h>

/* the root of node i (path halving) */
static int auto_root(int *parent, int i)
{
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

int sim_auto_loops(const clink_model *m)
{
    int n = m->d.nbodies, loops = 0;
    int *parent = malloc((size_t) n * sizeof *parent);

    if (!parent) /* out of memory: count each joint beyond a tree's n - 1 as a loop */
        return m->d.njoints > n - 1 ? m->d.njoints - (n - 1) : 0;
    for (int i = 0; i < n; i++)
        parent[i] = i;
    /* a joint whose two bodies are already connected closes a loop */
    for (int j = 0; j < m->d.njoints; j++) {
        int a = auto_root(parent, m->d.joints[j].def.body_a);
        int b = auto_root(parent, m->d.joints[j].def.body_b);
        if (a == b)
            loops++;
        else
            parent[a] = b;
    }
    free(parent);
    return loops;
}

int sim_auto_dynamic_friction(const clink_model *m)
{
    for (int j = 0; j < m->d.njoints; j++)
        if (clink_friction_state_count(&m->d.joints[j].def.friction) > 0)
            return 1;
    for (int k = 0; k < m->d.nelems; k++) {
        element_def def = m->d.elems[k].def;
        const clink_element_base *cm = element_base(&def);
        if (cm->treatment != CLINK_CONTACT_PIECEWISE &&
            clink_friction_state_count(&cm->friction) > 0)
            return 1;
    }
    return 0;
}

int sim_auto_resolve(const clink_model *m, clink_settings_def *set)
{
    int method_auto = set->method == CLINK_METHOD_AUTO, drift_auto = set->drift == CLINK_DRIFT_AUTO;
    clink_method method = CLINK_METHOD_ADAMS;
    clink_drift drift = CLINK_DRIFT_BAUMGARTE;

    if (!method_auto && !drift_auto)
        return 0;
    /* the rule */
    if (m->nconstraints == 0)
        drift = CLINK_DRIFT_NONE;
    else if (sim_auto_loops(m) >= 2) {
        method = CLINK_METHOD_BDF;
        drift = CLINK_DRIFT_PROJECTION;
    }
    if (sim_auto_dynamic_friction(m))
        method = CLINK_METHOD_BDF;
    /* one of the two explicit: the other follows it */
    if (!method_auto && drift == CLINK_DRIFT_PROJECTION &&
        !(integrator_caps(set->method) & CLINK_CAP_PROJECTION))
        drift = CLINK_DRIFT_BAUMGARTE;
    if (!drift_auto && set->drift == CLINK_DRIFT_PROJECTION)
        method = CLINK_METHOD_BDF;
    if (method_auto)
        set->method = method;
    if (drift_auto)
        set->drift = drift;
    return 1;
}

/* ---- the settings a simulation runs with (auto resolved) -------------------- */

clink_settings_def clink_sim_settings(const clink_sim *sim)
{
    return sim ? sim->set : clink_default_settings_def();
}
