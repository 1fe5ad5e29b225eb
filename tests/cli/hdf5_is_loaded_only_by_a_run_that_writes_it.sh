#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# HDF5 is loaded on first use (src/output/hdf5_load.c, docs/outputs.md): neither the
# clink command, nor libclink.so, nor the FMU library clink_fmu.so has libhdf5 among the
# libraries the dynamic loader maps at start (ldd: the whole chain); a CSV run maps no
# libhdf5 (the loader's own log, LD_DEBUG=files), a run with --format hdf5 does and writes
# results.h5; with CLINK_HDF5_LIBRARY naming a missing library, --format hdf5 exits 3
# with one message naming that library and the loader's reason and leaves no results,
# while a CSV run is untouched; `clink sweep` then fails the same way naming sweep.h5.
set -u
source "$(dirname "$0")/checks.bash"
model=$CLINK_SOURCE_DIR/models/pendulum.xml

for f in "$CLINK" "$CLINK_BINARY_DIR/libclink.so" "$CLINK_BINARY_DIR/clink_fmu.so"; do
    [ -e "$f" ] || { bad "$f: not built"; continue; }
    if ! ldd "$f" >"$tmp/ldd" 2>&1; then
        bad "ldd $f failed:"; cat "$tmp/ldd"; continue
    fi
    if grep -q libhdf5 "$tmp/ldd"; then
        bad "$(basename "$f") is linked with HDF5:"; grep libhdf5 "$tmp/ldd"
    else
        ok "$(basename "$f"): $(grep -c '=>\|ld-linux' "$tmp/ldd") libraries at start, no libhdf5"
    fi
done

# a CSV run: no libhdf5 in the loader's log
LD_DEBUG=files "$CLINK" run "$model" -o "$tmp/csv" --t-end 0.01 --quiet 2>"$tmp/csv.log"
status=$?
[ "$status" = 0 ] || bad "csv run: exit $status"
if grep -q 'file=libhdf5' "$tmp/csv.log"; then bad "csv run loaded HDF5"; else ok "csv run: HDF5 not loaded"; fi

# --format hdf5: loaded (by dlopen, after start) and the file written
LD_DEBUG=files "$CLINK" run "$model" -o "$tmp/h5" --t-end 0.01 --quiet --format hdf5 \
    2>"$tmp/h5.log"
status=$?
if [ "$status" = 2 ] && grep -q 'built without HDF5' "$tmp/h5.log"; then
    echo "this clink has no HDF5: only the libraries and the CSV run checked"
else
    [ "$status" = 0 ] || bad "hdf5 run: exit $status"
    grep -q 'file=libhdf5.*dynamically loaded' "$tmp/h5.log" ||
        { bad "hdf5 run: libhdf5 not opened by dlopen:"; grep libhdf5 "$tmp/h5.log" | head -3; }
    [ -s "$tmp/h5/results.h5" ] || bad "hdf5 run: no results.h5"
    [ "$fail" = 0 ] && ok "hdf5 run: HDF5 loaded on first use, results.h5 written"

    # a library that cannot be loaded: exit 3, one message, nothing left
    CLINK_HDF5_LIBRARY=/nonexistent/libhdf5_missing.so.0 "$CLINK" run "$model" -o "$tmp/miss" \
        --t-end 0.01 --quiet --format hdf5 >"$tmp/stdout" 2>"$tmp/err"
    status=$?
    [ "$status" = 3 ] || bad "missing library: exit $status, expected 3"
    [ "$(wc -l <"$tmp/err")" = 1 ] || { bad "missing library: stderr is not one line:"; cat "$tmp/err"; }
    grep -q "cannot load the HDF5 library /nonexistent/libhdf5_missing.so.0: .*No such file or directory" \
        "$tmp/err" || { bad "missing library: message:"; cat "$tmp/err"; }
    [ ! -e "$tmp/miss" ] || [ "$(ls -A "$tmp/miss" | wc -l)" = 0 ] ||
        { bad "missing library: files left:"; ls -A "$tmp/miss"; }
    echo "     $(cat "$tmp/err")"
    CLINK_HDF5_LIBRARY=/nonexistent/libhdf5_missing.so.0 "$CLINK" run "$model" -o "$tmp/csv2" \
        --t-end 0.01 --quiet || bad "csv run with a missing HDF5: exit $?"
    cmp -s "$tmp/csv/timeseries.csv" "$tmp/csv2/timeseries.csv" ||
        bad "csv run with a missing HDF5: timeseries.csv differs"

    # clink sweep writes sweep.h5 when built with HDF5: the same refusal, naming sweep.h5
    cp "$model" "$tmp/model.xml"
    printf '%s\n' '<?xml version="1.0"?>' '<sweep model="model.xml">' \
        '  <parameter path="settings.t_end" values="0.01 0.02"/>' '</sweep>' >"$tmp/spec.xml"
    (cd "$tmp" && CLINK_HDF5_LIBRARY=/nonexistent/libhdf5_missing.so.0 "$CLINK" sweep spec.xml \
        -o sw -q) 2>"$tmp/err"
    status=$?
    [ "$status" = 3 ] || bad "sweep with a missing library: exit $status, expected 3"
    grep -q "^clink: sweep: sw/sweep.h5: cannot create: cannot load the HDF5 library /nonexistent/libhdf5_missing.so.0: " \
        "$tmp/err" || { bad "sweep with a missing library: message:"; cat "$tmp/err"; }
    [ ! -e "$tmp/sw/sweep.h5" ] && [ ! -e "$tmp/sw/sweep.h5.tmp" ] ||
        bad "sweep with a missing library: sweep.h5 left"
    echo "     $(cat "$tmp/err")"
    (cd "$tmp" && "$CLINK" sweep spec.xml -o sw2 -q) || bad "sweep: exit $?"
    [ -s "$tmp/sw2/sweep.h5" ] || bad "sweep: no sweep.h5"
fi
[ "$fail" = 0 ] && echo "PASS"
exit "$fail"
