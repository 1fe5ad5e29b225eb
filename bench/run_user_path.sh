#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Instructions of `clink run` beside the library call (clink_sim_create, one
# clink_sim_advance to t_end: bench_clearance_slider_crank --once) on the Hertz granular
# chain of N beads with the defaults (the model of bench/run_memory.sh: <settings>
# replaced by t_end = output_step = T, <output> removed), whole process under valgrind
# callgrind (counts do not depend on the machine's load); docs/performance.md, "The
# user's path". Prints one line per N: N, library call and `clink run` instructions
# (1e9), their ratio. An argument ending in .xml is a model file run with its own
# settings instead (T unused for it), e.g. models/slider_crank_clearance.xml; MODEL.xml@end
# runs it with `--output-step` equal to its t_end, one grid row at the end as the chains have
# (the event rows and impacts.csv stay).
# Usage: bench/run_user_path.sh BUILD [T] [N|MODEL.xml|MODEL.xml@end...]
#        (default T = 1e-3 s, N = 100 700 10000)
set -eu
build=${1:?usage: run_user_path.sh BUILD [T] [N...]}
t_end=${2:-1e-3}
shift $(($# > 1 ? 2 : 1))
ns=${*:-100 700 10000}
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# total instructions of one callgrind run of the command given
count() {
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$@" >/dev/null 2>"$tmp/cg.err" ||
        { cat "$tmp/cg.err" >&2; exit 1; }
    awk '/^summary:/ {print $2}' "$tmp/cg.out"
}
printf '%6s %10s %10s %6s\n' N lib_1e9 run_1e9 ratio
for n in $ns; do
    extra=()
    case $n in
    *.xml) model=$n ;;
    *.xml@end)
        model=${n%@end}
        extra=(--output-step "$(sed -n 's/.*<settings[^>]* t_end="\([^"]*\)".*/\1/p' "$model" | head -n 1)")
        ;;
    *)
        mkdir -p "$tmp/g$n"
        python3 "$top/validation/make_granular_chain.py" "$tmp/g$n" "$n" >/dev/null
        sed -e "s|<settings [^>]*/>|<settings t_end=\"$t_end\" output_step=\"$t_end\"/>|" \
            -e '/<output rows="grid"\/>/d' "$tmp/g$n/granular_chain.xml" >"$tmp/chain$n.xml"
        model=$tmp/chain$n.xml
        ;;
    esac
    lib=$(count "$build/bench/bench_clearance_slider_crank" --once "$model")
    run=$(count "$build/clink" run "$model" ${extra[@]+"${extra[@]}"} -o "$tmp/out" -q)
    awk -v n="$n" -v a="$lib" -v b="$run" 'BEGIN {printf "%6s %10.3f %10.3f %6.2f\n", n, a / 1e9, b / 1e9, b / a}'
    rm -rf "$tmp/out" "$tmp/g$n"
done
