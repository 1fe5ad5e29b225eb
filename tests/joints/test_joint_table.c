/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The class table of the joints (src/joints/joint_table.c): one row per joint type, in
 * the order of clink_joint_type, each with its number of equations and the hooks every
 * joint needs, found again by its name. The hooks' values are checked against finite
 * differences in tests/dynamics/test_constraints.c.
 */
#include "ensure.h"

#include "dynamics/constraints.h"

TEST(joint_table_rows_match_their_types_and_names)
{
    for (int t = 0; t < CLINK_JOINT_TYPE_COUNT_; t++) {
        const joint_class *jc = joint_class_of((clink_joint_type) t);
        ENSURE(jc != NULL);
        if (!jc)
            continue;
        ENSURE(jc->type == (clink_joint_type) t);
        ENSURE(jc->neq >= 1 && jc->neq <= JOINT_MAX_EQUATIONS);
        ENSURE(jc->phi && jc->jacobian && jc->gamma);
        ENSURE((jc->required & ~jc->fields) == 0);
        ENSURE(joint_class_find(jc->name) == jc);
    }
    ENSURE(joint_class_of(CLINK_JOINT_TYPE_COUNT_) == NULL);
    ENSURE(joint_class_find("hinge") == NULL);
    ENSURE(joint_class_of(CLINK_JOINT_REVOLUTE)->neq == 2 &&
           joint_class_of(CLINK_JOINT_TRANSLATIONAL)->neq == 2 &&
           joint_class_of(CLINK_JOINT_WELD)->neq == 3);
}
