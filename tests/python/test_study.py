# SPDX-License-Identifier: BSD-3-Clause
"""The clearance study of examples/clearance_study.py on a short horizon (6 ms, the six
sizes): every run finishes, the table and the figure are written, a journal that struck
its bearing went beyond the clearance, and the row of the model's own clearance (0.5 mm)
equals `clink run` of the unmodified file bit for bit (peak slider acceleration, impacts,
eccentricity)."""

import csv
import importlib.util
import os

import numpy as np

from conftest import SOURCE, model, run_cli


def load_example():
    spec = importlib.util.spec_from_file_location(
        "clearance_study", os.path.join(SOURCE, "examples", "clearance_study.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_clearance_study_runs_and_its_own_clearance_row_equals_the_cli(tmp_path):
    study = load_example()
    out = tmp_path / "study"
    assert study.main(["--t-end", "0.006", "--out", str(out)]) == 0
    with open(out / "clearance_study.csv") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == len(study.SIZES_MM) >= 6
    assert (out / "clearance_study.png").stat().st_size > 10000
    for r in rows:
        assert r["status"] == "ok"
        if int(r["impacts"]) > 0:
            assert float(r["max_eccentricity_m"]) > float(r["clearance_m"])
    own = [r for r in rows if float(r["clearance_m"]) == 0.5e-3]
    assert len(own) == 1
    run_cli("run", model("slider_crank_clearance"), "-o", tmp_path / "cli", "--t-end", "0.006",
            "--quiet", "--no-timing", "--rows", "grid")
    with open(tmp_path / "cli" / "timeseries.csv") as f:
        data = list(csv.reader(f))
    head = [h.split(" [")[0] for h in data[0]]
    d = np.array([[float(x) for x in row] for row in data[1:]])
    ax = d[:, head.index("slider.ax")]
    ex, ey = d[:, head.index("rod_slider.ex")], d[:, head.index("rod_slider.ey")]
    with open(tmp_path / "cli" / "impacts.csv") as f:
        n_impacts = len(f.readlines()) - 1
    assert float(own[0]["peak_slider_acceleration_m_s2"]) == float(np.max(np.abs(ax)))
    assert float(own[0]["max_eccentricity_m"]) == float(np.max(np.hypot(ex, ey)))
    assert int(own[0]["impacts"]) == n_impacts > 0
