# SPDX-License-Identifier: BSD-3-Clause
"""A user's script written with type hints, checked by `mypy --strict` in
tests/python/test_types.py (which also runs it): it must type-check against the package's
annotations (docs/python.md, "Type hints") with no error and no ignore comment.

    python3 typed_user.py MODEL.xml OUTDIR
"""

import sys

import numpy as np
import numpy.typing as npt

import clink


def peak_force(r: clink.Result, contact: str) -> float:
    """The largest normal force (N) of a contact over the run."""
    fn: npt.NDArray[np.float64] = r.contacts[contact].fn
    return float(np.max(fn, initial=0.0))


def stepped(m: clink.Model, t_end: float) -> tuple[float, npt.NDArray[np.float64]]:
    """Step by step to t_end (s): the time reached and the bodies' positions (bodies, 3)."""
    seen: list[dict[str, object]] = []
    with m.start(on_impact=seen.append, t_end=t_end, method="adams") as s:
        for k in range(1, 5):
            s.advance(t_end * k / 4)
        q, _v = s.state
        return s.t, q.copy()


def main(path: str, out: str) -> int:
    m = clink.load(path, set={"settings.t_end": 0.002})
    r = m.simulate(t_end=0.002, output_step=1e-4, rtol=1e-9)
    directory: str = r.save(out)
    run = clink.read_run(directory)
    rows = len(run.timeseries["t [s]"])
    t, q = stepped(m, 0.001)
    m.close()
    lab = clink.impact(law="hunt-crossley", mass=0.046, velocity=0.3, k=5.5e9,
                       restitution=0.7)
    e_out: float = lab.e_out
    names = [law["name"] for law in clink.laws()]
    missing: str | None = "loaded"
    try:
        clink.load(path + ".missing")
    except clink.FileNotFound as e:
        missing = e.status
    print(r.rows, rows, peak_force(r, m.contacts[0]), t, q.shape[0], e_out,
          "hunt-crossley" in names, missing, clink.__version__)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
