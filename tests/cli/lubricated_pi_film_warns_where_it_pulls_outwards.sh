#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The lubricated joint's fixed pi-film (film="pi", docs/contact-laws.md): the lubricated
# slider-crank with it (models/slider_crank_lubricated_pi_film.xml) runs, and warns once,
# naming the joint, film="pi" and a negative Omega, where the pi-film pulls the journal
# outwards; the same mechanism with the default (Gumbel) film gives no such warning and
# other numbers; film="gumbel" with theory="long" and an unknown film are refused at
# their line.
set -u
source "$(dirname "$0")/checks.bash"
pi=$CLINK_SOURCE_DIR/models/slider_crank_lubricated_pi_film.xml
gumbel=$CLINK_SOURCE_DIR/models/slider_crank_lubricated.xml

expect 0 "the pi-film slider-crank runs" "$CLINK" run "$pi" --t-end 0.01 -o "$tmp/pi"
grep -q 'film=\\"pi\\") turns backwards (Omega = -' "$tmp/pi/summary.json" &&
    ok "summary.json warns that the pi-film turns backwards" ||
    { bad "no pi-film warning in summary.json"; grep -n finding -A3 "$tmp/pi/summary.json" | head; }
n=$(grep -o 'turns backwards' "$tmp/pi/summary.json" | wc -l)
[ "$n" = 1 ] && ok "warned once" || bad "warned $n times"
expect 0 "the Gumbel-film slider-crank runs" "$CLINK" run "$gumbel" --t-end 0.01 -o "$tmp/gumbel"
grep -q 'turns backwards' "$tmp/gumbel/summary.json" && bad "the Gumbel film warned" ||
    ok "the Gumbel film does not warn"
cmp -s <(tail -n 1 "$tmp/pi/timeseries.csv") <(tail -n 1 "$tmp/gumbel/timeseries.csv") &&
    bad "the two films gave the same last row" || ok "the two films give other numbers"

sed 's|theory="short"|theory="long" film="gumbel"|' "$gumbel" >"$tmp/long.xml"
expect 2 "film=gumbel with theory=long is refused" "$CLINK" check "$tmp/long.xml"
says "the refusal names the pi-film" 'the long bearing has the fixed pi-film alone'
sed 's|theory="short"|theory="short" film="flat"|' "$gumbel" >"$tmp/flat.xml"
expect 2 "an unknown film is refused" "$CLINK" check "$tmp/flat.xml"
says "the refusal names the attribute's value" 'flat'
exit $fail
