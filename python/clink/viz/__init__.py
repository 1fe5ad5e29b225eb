# SPDX-License-Identifier: BSD-3-Clause
"""The viewer of a `clink run` output directory: figures (plot) and a film (animate).

    python3 -m clink.viz.plot DIR [--out OUTDIR] [--scene SCENE.json] ...
    python3 -m clink.viz.animate DIR --scene SCENE.json [--out OUTDIR] ...

The drawing behind `clink plot` and `clink animate`, which write the scene file
from the run's model and run these modules. They read the run's files only
(NumPy, matplotlib, ffmpeg for the film) and never the library: this
subpackage imports nothing from the rest of the package, so the command runs
it as the top-level package `viz` (PYTHONPATH set to the folder holding it)
without loading libclink, which a sanitizer build's library could not be
loaded into a plain interpreter anyway. docs/cli.md describes the options and
the figures.
"""
