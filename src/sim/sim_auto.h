/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim_auto.h: the method and drift control a model gets when its settings leave
 * them to clink (CLINK_METHOD_AUTO, CLINK_DRIFT_AUTO); docs/kernel.md, "What
 * auto picks and why".
 */
#ifndef CLINK_SIM_AUTO_H
#define CLINK_SIM_AUTO_H

#include "clink/model.h"

/* the independent kinematic loops the joints close: joints - bodies + connected parts
   (the cyclomatic number of the graph of ground and bodies joined by joints) */
int sim_auto_loops(const clink_model *m);

/* 1 if a contact (not piecewise) or a joint of m has a dynamic friction law (a law with a
   state: lugre, dahl), else 0 */
int sim_auto_dynamic_friction(const clink_model *m);

/* replaces CLINK_METHOD_AUTO and CLINK_DRIFT_AUTO in *set by the rule's choice for m;
   explicit values are left as they are; returns 1 if anything was chosen, else 0 */
int sim_auto_resolve(const clink_model *m, clink_settings_def *set);

#endif
