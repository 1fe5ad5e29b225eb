#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The Python side of bench/bench_python_lab.c: BATCH laboratory impacts through the
package clink (clink.impact, the two-sphere case of Alves et al. 2015), after WARM calls;
prints one JSON line: seconds per impact over the batch and the restitution it got."""

import json
import sys
import time

import clink

BATCH = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
WARM = 200
kw = dict(law="hunt-crossley", mass=0.046, velocity=0.3, k=5.5e9, restitution=0.7)
for _ in range(WARM):
    clink.impact(**kw)
t0 = time.perf_counter()
for _ in range(BATCH):
    r = clink.impact(**kw)
t = (time.perf_counter() - t0) / BATCH
print(json.dumps({"per_impact": t, "e_out": r.e_out.hex()}))
