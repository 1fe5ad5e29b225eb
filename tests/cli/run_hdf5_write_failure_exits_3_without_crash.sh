#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `clink run --format hdf5` under a file size limit (write(2) fails with EFBIG, as
# a full disk fails with ENOSPC) prints one message naming results.h5 and the
# system's reason, exits 3 (docs/cli.md, "Exit status") and leaves nothing in the
# output directory; the limit stays set while the file is closed, as a full disk
# stays full. Before the file driver of src/output/output_hdf5.c, HDF5 1.10 freed
# the file whose close had failed and crashed closing it again at exit (status
# 139 after the right message). Limits from 1 KiB to 512 KiB hit the failure at
# creation, in the rows (writer thread or synchronous), or in the closing;
# the 700-bead chain of validation/make_granular_chain.py is the reported case.
# SIGXFSZ keeps its default action (clink ignores it itself; before, the run died
# of it with status 153).
set -u
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad() { echo "FAIL $*"; fail=1; }
py=${CLINK_PYTHON:-/usr/bin/python3}
models=$CLINK_SOURCE_DIR/models

# MODEL KIB [ENV...]: the run under a limit of KIB KiB, its status and message checked
limited() {
    local model=$1 kib=$2 d=$tmp/run status was=$fail
    shift 2
    rm -rf "$d"
    ( ulimit -f "$kib"; env --default-signal=XFSZ "$@" "$CLINK" run "$model" -o "$d" \
        --format hdf5 --t-end 1e-3 --output-step 1e-6 --quiet --no-timing ) >"$tmp/stdout" 2>"$tmp/err"
    status=$?
    local what="$(basename "$model") under ulimit -f $kib${*:+ ($*)}"
    [ "$status" = 3 ] || bad "$what: exit $status, expected 3"
    [ "$(wc -l <"$tmp/err")" = 1 ] || { bad "$what: stderr is not one line:"; cat "$tmp/err"; }
    grep -Eq "^clink: run: $d/results.h5: cannot (create|write|close)[^:]*: File too large \(no results kept in $d\)\$" \
        "$tmp/err" || { bad "$what: message"; cat "$tmp/err"; }
    [ ! -e "$d" ] || [ "$(ls -A "$d" | wc -l)" = 0 ] || { bad "$what: files left:"; ls -A "$d"; }
    [ "$fail" = "$was" ] && echo "ok   $what: exit $status, $(cat "$tmp/err")"
}

# the run fits without the limit: the failures below are the limit's
"$CLINK" run "$models/granular_chain.xml" -o "$tmp/free" --format hdf5 --t-end 1e-3 \
    --output-step 1e-6 --quiet --no-timing || bad "70-bead chain without a limit"
size=$(stat -c %s "$tmp/free/results.h5" 2>/dev/null || echo 0)
[ "$size" -gt $((1024 * 1024)) ] || bad "the 70-bead file ($size bytes) fits under 1 MiB: the limits test nothing"

# limits just below the file's size fail in the closing of the datasets and of the
# file (the metadata and last chunks are written last), where a failure HDF5 does not
# pass on must still be reported and not end with status 0 and a broken file
for kib in 1 8 64 512 $((size / 1024 - 1)) $((size / 1024 - 25)) $((size / 1024 - 60)); do
    limited "$models/granular_chain.xml" "$kib"
done
limited "$models/granular_chain.xml" 64 CLINK_BENCH_H5_SYNC=1

"$py" "$CLINK_SOURCE_DIR/validation/make_granular_chain.py" "$tmp" 700 >/dev/null ||
    bad "make_granular_chain.py 700"
limited "$tmp/granular_chain.xml" 512

exit $fail
