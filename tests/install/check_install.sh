#!/usr/bin/env bash
# Installs the build tree into a scratch prefix, then builds a small program
# against it twice: with CMake's find_package(clink) (shared and static targets)
# and with `pkg-config --cflags --libs clink`. Each program must run.
set -euo pipefail
build=$1
here=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"

cmake --install "$build" --prefix "$prefix" >/dev/null
libdir=$(ls -d "$prefix"/lib* | head -n1)
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

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
echo "installed clink found by find_package and pkg-config"
