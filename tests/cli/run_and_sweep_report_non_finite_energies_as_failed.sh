#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Energies that overflow double precision are a failure, never "ok": a spinning ball of
# inertia 1e308 kg m^2 (kinetic energy 0.5 J omega^2 = inf) made `clink run` exit 0 with
# "status": "ok", "energy_residual_max_abs": 0 and a residual of nan in every row. Now
# `clink run` exits 1, summary.json says "failed" with a message naming the non-finite
# energy and the time, and energy_residual_max_abs is null (not a number), as the residual;
# in `clink sweep` the case is a failed row with that cause (its max energy residual not 0).
# The same model with a plausible inertia still runs ok.
set -u
source "$(dirname "$0")/checks.bash"
model=$CLINK_SOURCE_DIR/models/ball_drop.xml
spin=(--set 'body[ball].omega=10' --t-end 0.01 -q)
expect 0 "a spinning ball" "$CLINK" run "$model" "${spin[@]}" -o "$tmp/fine"
expect 1 "a spinning ball of inertia 1e308" \
    "$CLINK" run "$model" "${spin[@]}" --set 'body[ball].inertia=1e308' -o "$tmp/big"
says "stderr names the non-finite energy" "energy is not finite"
summary=$tmp/big/summary.json
grep -q '"status": "failed"' "$summary" && ok "summary.json: failed" ||
    bad "summary.json status: $(grep '"status"' "$summary")"
grep -q '"message": ".*kinetic.*not finite' "$summary" && ok "summary.json: the message" ||
    bad "summary.json message: $(grep '"message"' "$summary")"
grep -q '"energy_residual_max_abs": null' "$summary" && ok "energy_residual_max_abs null" ||
    bad "summary.json: $(grep residual_max "$summary")"

cat >"$tmp/spec.xml" <<XML
<?xml version="1.0"?>
<sweep model="$model">
  <parameter path="settings.t_end" values="0.01"/>
  <parameter path="body[ball].omega" values="10"/>
  <parameter path="body[ball].inertia" values="0.001 1e308"/>
  <collect quantities="energy_residual steps"/>
</sweep>
XML
expect 1 "a sweep over the inertia (a case not ok)" "$CLINK" sweep "$tmp/spec.xml" -o "$tmp/sweep" -j 1 -q
sed -n 2p "$tmp/sweep/sweep.csv" | grep -q '^0,.*,ok,' && ok "case 0 ok" ||
    bad "case 0: $(sed -n 2p "$tmp/sweep/sweep.csv")"
sed -n 3p "$tmp/sweep/sweep.csv" | grep -q '^1,.*,failed,.*not finite' && ok "case 1 failed" ||
    bad "case 1: $(sed -n 3p "$tmp/sweep/sweep.csv")"
exit $fail
