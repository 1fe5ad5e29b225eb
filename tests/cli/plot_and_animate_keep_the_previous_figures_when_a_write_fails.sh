#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `clink plot` and `clink animate --frame T --png FILE` write each figure (and the frame's
# FILE.json) under a temporary name and rename it when complete
# (python/clink/viz/rundir.py, write_replacing): a write that fails (here a file size limit
# of 8 KiB, the figures being larger) exits 3 naming the file and leaves the previous
# figures byte for byte as they were, with no temporary file (before: each figure was
# written in place, so a failed write left it truncated).
set -u
source "$(dirname "$0")/checks.bash"
py=${CLINK_PYTHON:-/usr/bin/python3}
export CLINK_PYTHON=$py
"$py" -c "import matplotlib" 2>/dev/null || { echo "skip: no matplotlib for $py"; exit 0; }
model=$CLINK_SOURCE_DIR/models/pendulum.xml
"$CLINK" run "$model" -o "$tmp/run" --t-end 0.05 -q || bad "pendulum run"
expect 0 "plot" "$CLINK" plot "$tmp/run" -o "$tmp/fig"
expect 0 "a frame" "$CLINK" animate "$tmp/run" --frame 0.01 --png "$tmp/frame.png"
cp -r "$tmp/fig" "$tmp/fig.orig"
cp "$tmp/frame.png" "$tmp/frame.png.orig"
limited() { # command...: run with a file size limit of 8 KiB, SIGXFSZ at its default
    (ulimit -f 8; exec env --default-signal=XFSZ "$@") >"$tmp/out" 2>"$tmp/err"
}
limited "$CLINK" plot "$tmp/run" -o "$tmp/fig"
status=$?
[ "$status" = 3 ] && ok "plot beyond the limit exits 3" || { bad "plot: exit $status"; cat "$tmp/err"; }
says "plot names the reason" "File too large"
diff -r "$tmp/fig" "$tmp/fig.orig" >/dev/null && ok "the previous figures are intact" ||
    bad "the figures changed: $(diff -rq "$tmp/fig" "$tmp/fig.orig")"
limited "$CLINK" animate "$tmp/run" --frame 0.02 --png "$tmp/frame.png"
status=$?
[ "$status" = 3 ] && ok "a frame beyond the limit exits 3" || { bad "animate: exit $status"; cat "$tmp/err"; }
cmp -s "$tmp/frame.png" "$tmp/frame.png.orig" && ok "the previous frame is intact" ||
    bad "the frame changed"
left=$(find "$tmp" -name '*.incomplete*' -o -name '*.tmp*')
[ -z "$left" ] && ok "nothing temporary left" || bad "left behind: $left"
exit $fail
