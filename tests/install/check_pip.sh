#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `pip install .` (README, docs/python.md "Installing with pip"), as a user offline with
# Debian's packages would run it: a fresh virtual environment that sees the system's
# site-packages (python3-cffi, python3-numpy, python3-setuptools, python3-wheel), pip
# with --no-build-isolation --no-index, from the top of the repository. The library is
# built in the CMake tree under test (CLINK_CMAKE_BUILD_DIR: reused, nothing to
# recompile), setuptools' directories go to a scratch directory. Then, with no
# CLINK_LIBRARY and from another directory: the package loads the libclink.so inside it,
# its __version__ is the file VERSION's, and it runs models/slider_crank_clearance.xml
# with the same numbers, bit for bit, as the package of the source tree loading the
# build tree's library.
set -euo pipefail
src=$1
build=$2
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unset CLINK_LIBRARY PYTHONPATH

echo "== a virtual environment and pip install ."
"$py" -m venv --system-site-packages "$work/venv"
(cd "$src" && CLINK_CMAKE_BUILD_DIR="$build" CLINK_PYTHON_BUILD_DIR="$work/setuptools" \
    "$work/venv/bin/pip" install --no-build-isolation --no-index --no-cache-dir . >"$work/pip.log" 2>&1) ||
    { cat "$work/pip.log" >&2; echo "pip install . failed" >&2; exit 1; }
site=$("$work/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')
[ -f "$site/clink/libclink.so" ] || { echo "no libclink.so in $site/clink" >&2; exit 1; }
[ -f "$site/clink/viz/view.js" ] && [ -f "$site/clink/py.typed" ] ||
    { echo "the package's data files (viz/view.js, py.typed) are not installed" >&2; exit 1; }

echo "== import clink from the environment, a model run"
cat >"$work/run.py" <<'PY'
import sys
import numpy as np
import clink
from clink import _lib
out, model, want_lib = sys.argv[1], sys.argv[2], sys.argv[3]
if want_lib and _lib.library_path() != want_lib:
    sys.exit("clink loaded %s, not %s" % (_lib.library_path(), want_lib))
r = clink.load(model).simulate(t_end=0.01, output_step=1e-3)
if r.summary["status"] != "ok" or not np.all(np.isfinite(r.q)):
    sys.exit("the run did not end ok: %s" % r.summary["status"])
np.savez(out, t=r.t, q=r.q, v=r.v, version=clink.__version__)
print("clink", clink.__version__, "from", _lib.library_path(), ":", r.q.shape[0], "rows")
PY
model="$src/models/slider_crank_clearance.xml"
(cd "$work" && "$work/venv/bin/python" "$work/run.py" "$work/venv.npz" "$model" "$site/clink/libclink.so")
(cd "$work" && PYTHONPATH="$src/python" CLINK_LIBRARY="$build/libclink.so" \
    "$py" "$work/run.py" "$work/tree.npz" "$model" "")
"$py" - "$work/venv.npz" "$work/tree.npz" "$(cat "$src/VERSION")" <<'PY'
import sys
import numpy as np
a, b = np.load(sys.argv[1]), np.load(sys.argv[2])
assert str(a["version"]) == sys.argv[3], "clink.__version__ %s, VERSION %s" % (a["version"], sys.argv[3])
for k in ("t", "q", "v"):
    assert a[k].shape == b[k].shape and np.array_equal(a[k], b[k]), "%s differs" % k
print("the pip-installed package runs the model bit for bit as the build tree's library")
PY
