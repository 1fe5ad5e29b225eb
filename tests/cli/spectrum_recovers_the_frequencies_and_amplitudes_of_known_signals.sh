#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `clink spectrum PATH COLUMN` (docs/nonlinear.md, "Spectra"): the amplitude spectrum of a
# column over a window, resampled onto a uniform grid. A signal 0.3 + 1.5 sin(2 pi 7 t) +
# 0.4 cos(2 pi 23.3 t) sampled at irregular times (0.5 to 1.5 ms apart) over 9.9 s gives
# its two tones at 7 and 23.3 Hz (to 0.01 Hz, a tenth of the resolution 0.101 Hz) with
# amplitudes 1.5 and 0.4 (0.5%: the linear resampling attenuates 23.3 Hz by 0.2%); the
# crank of the clearance slider-crank (its centre 25 mm from the pivot, 5000 rpm) gives
# one tone at 83.33 Hz of 0.025 m from the run's rows (events included). Files: the
# table, the JSON summary and the SVG figure. Errors: an unknown column, a window with
# fewer than 8 rows: exit 2 and the reason.
set -u
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad() { echo "FAIL $*"; fail=1; }
awk 'BEGIN { srand(3); print "t [s],sig [m],row.kind [-]"; t = 0; pi = 3.141592653589793;
     while (t < 10) { x = 0.3 + 1.5 * sin(2 * pi * 7 * t) + 0.4 * cos(2 * pi * 23.3 * t);
     printf "%.17g,%.17g,0\n", t, x; t += 0.001 * (0.5 + rand()) } }' >"$tmp/sig.csv"
"$CLINK" spectrum "$tmp/sig.csv" sig --from 0 --to 9.9 -o "$tmp/out" >"$tmp/log" || bad "spectrum of sig"
cat "$tmp/log"
# the peaks printed: "  peak N: f = F Hz, amplitude A m"
check() { # F A: a peak within 0.01 Hz of F with amplitude within 0.5% of A
    awk -v F="$1" -v A="$2" '/peak/ { f = $5; a = $8; df = f - F; if (df < 0) df = -df;
        da = (a - A) / A; if (da < 0) da = -da; if (df < 0.01 && da < 0.005) ok = 1 }
        END { exit !ok }' "$tmp/log" || bad "no peak at $1 Hz of amplitude $2"
}
check 7 1.5
check 23.3 0.4
[ "$(grep -c peak "$tmp/log")" = 2 ] || bad "peaks other than the two tones"
head -1 "$tmp/out/spectrum_sig.csv" | grep -qxF 'f [Hz],sig.amplitude [m]' || bad "table header"
grep -q '"window": "hann"' "$tmp/out/spectrum_sig.json" || bad "json: window"
grep -q '"samples": 16384' "$tmp/out/spectrum_sig.json" || bad "json: 2^m samples not below the rows"
head -c 4 "$tmp/out/spectrum_sig.svg" | grep -q '<svg' || bad "figure"
# a run's rows: the crank's centre x = 0.025 cos(w t), 83.33 Hz
"$CLINK" run "$CLINK_SOURCE_DIR/models/slider_crank_clearance.xml" -o "$tmp/run" --quiet ||
    bad "run"
"$CLINK" spectrum "$tmp/run" crank.x --from 0.012 --to 0.048 >"$tmp/log2" || bad "spectrum of crank.x"
cat "$tmp/log2"
awk '/peak 1:/ { f = $5; a = $8; if (f > 83.0 && f < 83.7 && a > 0.02475 && a < 0.02525) ok = 1 }
     END { exit !ok }' "$tmp/log2" || bad "crank.x: not one tone of 0.025 m at 83.33 Hz"
[ -e "$tmp/run/spectrum_crank.x.svg" ] || bad "the run's figure is not beside its rows"
# refused
"$CLINK" spectrum "$tmp/run" crank.psi 2>"$tmp/err" >/dev/null
[ $? = 2 ] && grep -q "no column 'crank.psi'" "$tmp/err" || bad "unknown column: $(cat "$tmp/err")"
"$CLINK" spectrum "$tmp/run" crank.x --from 0.04797 --to 0.048 2>"$tmp/err" >/dev/null
[ $? = 2 ] && grep -q "fewer than 8 rows" "$tmp/err" || bad "short window: $(cat "$tmp/err")"
exit $fail
