#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Installs the build tree into a scratch prefix, then builds a small program
# against it twice: with CMake's find_package(clink) (shared and static targets)
# and with `pkg-config --cflags --libs clink`. Each program must run. Then every
# example of the documentation, as a reader would copy it (doc_examples.py), and
# `clink plot` with the viewer installed in the Python package (clink/viz).
set -euo pipefail
build=$1
here=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"

cmake --install "$build" --prefix "$prefix" >/dev/null
libdir=$(ls -d "$prefix"/lib* | head -n1)
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

echo "== exported symbols"
# only the public API (clink_*) leaves the shared library, and all of it does:
# every function the installed headers declare with CLINK_API is exported
so=$(ls "$libdir"/libclink.so.* | head -n1)
nm -D --defined-only "$so" | awk '$2 == "T" {print $3}' | sort > "$work/exported"
if grep -v '^clink_' "$work/exported"; then
    echo "libclink exports the internal symbols above" >&2
    exit 1
fi
grep -ho '^CLINK_API [^(]*(' "$prefix"/include/clink/*.h | sed 's/($//; s/.*[ *]//' | sort -u \
    > "$work/declared"
if ! cmp -s "$work/declared" "$work/exported"; then
    echo "declared (<) and exported (>) differ:" >&2
    diff "$work/declared" "$work/exported" >&2 || true
    exit 1
fi
echo "$(wc -l < "$work/exported") symbols exported, all declared with CLINK_API"

echo "== find_package(clink)"
cmake -S "$here" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/consumer" >/dev/null
"$work/consumer/consumer_shared"
"$work/consumer/consumer_static"

echo "== pkg-config clink"
export PKG_CONFIG_PATH="$libdir/pkgconfig"
flags=$(pkg-config --cflags --libs clink)
cc -std=c11 "$here/consumer.c" $flags -o "$work/consumer_pc"
"$work/consumer_pc"
# the static archive with the private dependencies pkg-config lists for it
static_libs=$(pkg-config --static --libs clink | sed 's/ -lclink / /; s/^-lclink //')
cc -std=c11 "$here/consumer.c" $(pkg-config --cflags clink) "$libdir/libclink.a" \
    $static_libs -o "$work/consumer_pc_static"
"$work/consumer_pc_static"

echo "== the documentation's examples, against the installed package"
# every C example compiled (programs built with the documented line and run),
# every whole XML mechanism checked, every shell example run (tests/install/doc_examples.py)
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
# the Python package as cmake --install put it (python/CMakeLists.txt: PREFIX/lib/python3.X/site-packages)
site=$(ls -d "$prefix"/lib/python3*/site-packages 2>/dev/null | head -1 || true)
PATH="$prefix/bin:$PATH" CLINK_PYTHON_SITE="$site" "$py" "$here/doc_examples.py" "$here/../.." "$work/docs"

echo "== clink plot with the installed viewer"
# the viewer (clink/viz) in the site directory the install recorded for the command, run by
# the installed command and as the module python3 -m clink.viz.plot of the installed package
rel=$(cat "$prefix/share/clink/python-site")
[ -f "$prefix/share/clink/$rel/clink/viz/plot.py" ] ||
    { echo "no viewer in the recorded site directory $rel" >&2; exit 1; }
"$prefix/bin/clink" run "$here/../../models/pendulum.xml" -o "$work/pend" --t-end 0.05 --quiet
if "$py" -c "import matplotlib" 2>/dev/null; then
    CLINK_PYTHON=$py "$prefix/bin/clink" plot "$work/pend" -o "$work/fig" --format svg >"$work/plot.out"
    PYTHONPATH="$site" "$py" -m clink.viz.plot "$work/pend" --out "$work/fig_m" --format svg \
        >"$work/plot_m.out" 2>&1
    (cd "$work/fig" && ls) >"$work/plot.ls"
    (cd "$work/fig_m" && ls) >"$work/plot_m.ls"
    grep -q coordinates.svg "$work/plot.ls" && cmp -s "$work/plot.ls" "$work/plot_m.ls" ||
        { echo "clink plot and python3 -m clink.viz.plot drew different figures" >&2; exit 1; }
    echo "$(wc -l < "$work/plot.ls") figures by the installed clink plot and by the module"
else
    echo "skip: no matplotlib for $py"
fi
echo "installed clink found by find_package and pkg-config; documentation examples pass"
