#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# One release number everywhere (docs/releases.md): the file VERSION, and each place that
# shows it, read from the build tree: CMake's project version, the header's literals,
# `clink -V`, the man page, summary.json of a run, the FMU's generationTool,
# clink.__version__ (the Python package on the built library), the pkg-config file, the
# CMake package's version file, the shared library's file name and SONAME
# (libclink.so.0.MINOR before 1.0, libclink.so.MAJOR after), setup.py's metadata and
# the newest section of CHANGELOG.md. Each must equal VERSION; a place that cannot be
# read fails too.
set -euo pipefail
src=$1
build=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
v=$(cat "$src/VERSION")
[[ $v =~ ^([0-9]+)\.([0-9]+)\.([0-9]+)$ ]] || { echo "VERSION '$v' is not MAJOR.MINOR.PATCH" >&2; exit 1; }
major=${BASH_REMATCH[1]} minor=${BASH_REMATCH[2]} patch=${BASH_REMATCH[3]}
fail=0
check() { # place value
    if [ "$2" = "$v" ]; then
        printf 'ok   %-28s %s\n' "$1" "$2"
    else
        printf 'FAIL %-28s "%s", VERSION says %s\n' "$1" "$2" "$v"
        fail=1
    fi
}

check "CMake project version" "$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")"
h="$src/include/clink/clink.h"
hv() { sed -n "s/^#define CLINK_VERSION_$1 *\"*\([0-9.]*\)\"*.*/\1/p" "$h"; }
check "clink.h CLINK_VERSION_*" "$(hv MAJOR).$(hv MINOR).$(hv PATCH)"
check "clink.h CLINK_VERSION_STRING" "$(hv STRING)"
check "clink -V" "$("$build/clink" -V | sed 's/^clink //')"
check "man page clink(1)" "$(sed -n 's/^\.TH CLINK 1 "" "clink \([^"]*\)".*/\1/p' "$build/man/man1/clink.1")"

"$build/clink" run "$src/models/pendulum.xml" -o "$work/run" --t-end 0.01 --quiet
check "summary.json \"clink\"" "$("$py" -c 'import json, sys; print(json.load(open(sys.argv[1]))["clink"])' "$work/run/summary.json")"

"$build/clink" fmu "$src/models/pendulum.xml" -o "$work/p.fmu" >/dev/null
check "FMU generationTool" "$("$py" - "$work/p.fmu" <<'PY'
import sys, zipfile
import xml.etree.ElementTree as ET
with zipfile.ZipFile(sys.argv[1]) as z:
    root = ET.fromstring(z.read("modelDescription.xml"))
tool = root.get("generationTool")
print(tool[len("clink "):] if tool.startswith("clink ") else tool)
PY
)"

check "clink.__version__" "$(cd "$work" && PYTHONPATH="$src/python" CLINK_LIBRARY="$build/libclink.so" \
    "$py" -c 'import clink; print(clink.__version__)')"
check "clink.pc Version" "$(sed -n 's/^Version: *//p' "$build/clink.pc")"
check "clinkConfigVersion.cmake" "$(sed -n 's/^set(PACKAGE_VERSION "\(.*\)")/\1/p' "$build/clinkConfigVersion.cmake")"

real=$(basename "$(readlink -f "$build/libclink.so")")
check "libclink.so file name" "${real#libclink.so.}"
soname=$(readelf -d "$build/libclink.so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
if [ "$major" = 0 ]; then want="libclink.so.0.$minor"; else want="libclink.so.$major"; fi
if [ "$soname" = "$want" ]; then printf 'ok   %-28s %s\n' SONAME "$soname"
else printf 'FAIL SONAME "%s", expected %s for %s\n' "$soname" "$want" "$v"; fail=1; fi

check "setup.py (pip metadata)" "$(cd "$src" && CLINK_PYTHON_BUILD_DIR="$work/setuptools" \
    "$py" setup.py --version 2>/dev/null | tail -n1)"
check "CHANGELOG.md newest" "$(sed -n 's/^## \[\([^]]*\)\].*/\1/p' "$src/CHANGELOG.md" | head -n1)"
[ "$fail" = 0 ] || { echo "the places above disagree with VERSION" >&2; exit 1; }
echo "every place names $v (patch $patch)"
