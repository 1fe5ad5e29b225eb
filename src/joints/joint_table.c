/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * joint_table.c: the joint class table, generated from CLINK_JOINT_TYPES
 * (include/clink/model.h): row i is the class of joint type i, defined in
 * src/joints/joint_<name>.c.
 */
#include "joints/joint.h"

#include <string.h>

#define JOINT_DECLARE_(NAME, name) extern const joint_class joint_##name;
CLINK_JOINT_TYPES(JOINT_DECLARE_)
#undef JOINT_DECLARE_

#define JOINT_ROW_(NAME, name) &joint_##name,
static const joint_class *const joint_table[CLINK_JOINT_TYPE_COUNT_] = {
    CLINK_JOINT_TYPES(JOINT_ROW_)};
#undef JOINT_ROW_

const joint_class *joint_class_of(clink_joint_type type)
{
    if ((int) type < 0 || type >= CLINK_JOINT_TYPE_COUNT_)
        return NULL;
    return joint_table[type];
}

const joint_class *joint_class_find(const char *name)
{
    for (int i = 0; name && i < CLINK_JOINT_TYPE_COUNT_; i++)
        if (strcmp(joint_table[i]->name, name) == 0)
            return joint_table[i];
    return NULL;
}
