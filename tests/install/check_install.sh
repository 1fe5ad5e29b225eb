#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Installs the build tree into a scratch prefix, then builds a small program
# against it: with CMake's find_package(clink) (shared and static targets),
# with `pkg-config clink` (the shared library, found at run time through the
# documented -Wl,-rpath) and with `pkg-config --static clink-static` (the
# archive: the program needs no libclink.so). No LD_LIBRARY_PATH anywhere:
# every program must run as built. The .pc files name only clink's include
# directory in Cflags and only -l/-L flags in their libraries. The prefix is
# then moved and the consumers built again from the new place (relocatable
# packages). Last, every example of the documentation, as a reader would copy
# it (doc_examples.py). The man pages and the bash completion are installed.
# Then `clink plot` runs with the viewer installed in the Python package (clink/viz).
set -euo pipefail
build=$1
here=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
unset LD_LIBRARY_PATH

cmake --install "$build" --prefix "$prefix" >/dev/null
libdir=$(ls -d "$prefix"/lib* | head -n1)

echo "== the installed command runs from its prefix"
readelf -d "$prefix/bin/clink" | grep -E 'R(UN)?PATH' | grep -qF '$ORIGIN/../' ||
    { echo "bin/clink has no \$ORIGIN-relative RPATH" >&2; exit 1; }
"$prefix/bin/clink" --version

echo "== man pages and bash completion"
for c in "" $("$prefix/bin/clink" --help | sed -n '/^Commands:/,/^$/p' | awk 'NF > 1 {print "-" $1}'); do
    [ -f "$prefix/share/man/man1/clink$c.1" ] || { echo "share/man/man1/clink$c.1 not installed" >&2; exit 1; }
done
completion="$prefix/share/bash-completion/completions/clink"
[ -f "$completion" ] || { echo "share/bash-completion/completions/clink not installed" >&2; exit 1; }
got=$(bash -c '. "$1"; COMP_WORDS=(clink impact --law hunt-c); COMP_CWORD=3; _clink; echo "${COMPREPLY[*]}"' _ "$completion")
[ "$got" = hunt-crossley ] || { echo "the installed completion gives '$got' for --law hunt-c" >&2; exit 1; }
if command -v man >/dev/null && command -v groff >/dev/null; then
    MANPATH="$prefix/share/man" man -P cat clink-run 2>/dev/null | grep -q -- "--t-end" ||
        { echo "man clink-run (MANPATH=PREFIX/share/man) does not show --t-end" >&2; exit 1; }
fi

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

# the consumers of one prefix: find_package (CMake records the library's directory in the
# programs' RPATH), pkg-config with the documented flags (shared, then static)
consumers() { # prefix tag
    local p=$1 tag=$2 ld pc flags
    ld=$(ls -d "$p"/lib* | head -n1)
    pc="$ld/pkgconfig"
    echo "== find_package(clink) ($tag)"
    cmake -S "$here" -B "$work/consumer-$tag" -DCMAKE_PREFIX_PATH="$p" >/dev/null
    cmake --build "$work/consumer-$tag" >/dev/null
    "$work/consumer-$tag/consumer_shared"
    "$work/consumer-$tag/consumer_static"

    echo "== pkg-config clink ($tag)"
    # Cflags: clink's headers alone (they include no header of a dependency)
    flags=$(PKG_CONFIG_PATH="$pc" pkg-config --cflags clink)
    set -- $flags
    if [ $# != 1 ] || [ "$(realpath -m "${1#-I}")" != "$(realpath -m "$p/include")" ]; then
        echo "pkg-config --cflags clink gives '$flags', not clink's include directory alone" >&2
        exit 1
    fi
    # libraries as -l (and -L) flags, never a file path of the build machine
    for f in $(PKG_CONFIG_PATH="$pc" pkg-config --static --libs clink); do
        case "$f" in -l* | -L* | -pthread) ;; *) echo "clink.pc: '$f' is not a -l/-L flag" >&2; exit 1 ;; esac
    done
    cc -std=c11 "$here/consumer.c" $(PKG_CONFIG_PATH="$pc" pkg-config --cflags --libs clink) \
        -Wl,-rpath,"$(PKG_CONFIG_PATH="$pc" pkg-config --variable=libdir clink)" -o "$work/pc-$tag"
    "$work/pc-$tag"

    echo "== pkg-config --static clink-static ($tag)"
    cc -std=c11 "$here/consumer.c" $(PKG_CONFIG_PATH="$pc" pkg-config --static --cflags --libs clink-static) \
        -o "$work/pc-static-$tag"
    if readelf -d "$work/pc-static-$tag" | grep -q 'NEEDED.*libclink'; then
        echo "the program linked with clink-static needs libclink.so" >&2
        exit 1
    fi
    "$work/pc-static-$tag"
}
consumers "$prefix" installed

echo "== the prefix moved"
moved="$work/elsewhere/prefix"
mkdir -p "$work/elsewhere"
cp -a "$prefix" "$moved"
mv "$prefix" "$work/hidden"
consumers "$moved" moved
"$moved/bin/clink" --version
mv "$work/hidden" "$prefix"
rm -rf "$work/elsewhere"

echo "== the documentation's examples, against the installed package"
# every C example compiled (programs built with the documented line and run),
# every whole XML mechanism checked, every shell example run (tests/install/doc_examples.py)
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
# the Python package as cmake --install put it (python/CMakeLists.txt: PREFIX/lib/python3.X/site-packages)
site=$(ls -d "$prefix"/lib/python3*/site-packages 2>/dev/null | head -1 || true)
export PKG_CONFIG_PATH="$libdir/pkgconfig"
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
echo "installed clink found by find_package and pkg-config from any prefix, programs run without LD_LIBRARY_PATH; documentation examples pass"
