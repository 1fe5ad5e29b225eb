# SPDX-License-Identifier: BSD-3-Clause
"""clink.sweep() (python/clink/sweep.py) against `clink sweep`: the same table (sweep.csv
with wall_time left out: bytes, and every value of the returned table), the same journal
and resume guarantees (a partial journal, with a row cut by a kill, resumed gives the
table of an uninterrupted sweep and keeps its rows as they were; a sweep stopped by its
progress callback records no case it killed), the command and the function resuming each
other's journals, the errors, the table without pandas, and the sweep structs' layout
against include/clink/sweep.h."""

import csv
import math
import struct
import sys

import numpy as np
import pytest

import clink
from conftest import model, run_cli

# ok, failed (max_steps) and invalid (negative mass) cases; a string parameter; 8 cases
SPEC = """<?xml version="1.0" encoding="UTF-8"?>
<sweep model="%s">
  <parameter path="settings.t_end" values="0.005"/>
  <parameter path="settings.max_steps" values="1e6 40"/>
  <parameter path="revolute_clearance[rod_slider].law.name" values="lankarani-nikravesh"/>
  <zip>
    <parameter path="body[crank].mass" values="0.3 -1"/>
    <parameter path="body[rod].mass" values="0.21 0.25"/>
  </zip>
  <random count="2" seed="7">
    <parameter path="body[slider].mass" from="0.1" to="0.2"/>
  </random>
  <collect quantities="impacts max_contact_force steps restitution"/>
</sweep>
""" % model("slider_crank_clearance")


@pytest.fixture
def spec(tmp_path):
    path = tmp_path / "spec.xml"
    path.write_text(SPEC)
    return path


def strip(path):
    """sweep.csv without its last column (wall_time), as bytes."""
    with open(path, "rb") as f:
        return [line.rsplit(b",", 1)[0] for line in f.read().split(b"\n") if line]


def frame(table):
    """{column: list of values} of a returned table (DataFrame or dict of arrays)."""
    return {name: list(np.asarray(table[name])) for name in table.keys()}


def same_value(text, value):
    """A value of the table equals the CSV field it came from (doubles bit for bit)."""
    if isinstance(value, (float, np.floating)):
        if text == "":
            return math.isnan(value)
        return struct.pack("<d", float(text)) == struct.pack("<d", float(value))
    if isinstance(value, (int, np.integer)):
        return int(text) == int(value)
    return text == value


def test_the_table_is_the_commands(spec, tmp_path):
    p = run_cli("sweep", spec, "-o", tmp_path / "cli", "-j", "1", "-q", check=False)
    assert p.returncode == 1, p.stderr  # failed and invalid cases
    table = clink.sweep(spec, tmp_path / "py", workers=2)
    assert strip(tmp_path / "py" / "sweep.csv") == strip(tmp_path / "cli" / "sweep.csv")
    with open(tmp_path / "cli" / "sweep.csv", newline="") as f:
        rows = list(csv.reader(f))
    head, rows = rows[0], rows[1:]
    got = frame(table)
    assert list(got) == head and len(rows) == 8
    for j, name in enumerate(head[:-1]):
        for i, r in enumerate(rows):
            assert same_value(r[j], got[name][i]), (name, i, r[j], got[name][i])
    assert table["case"].dtype == np.int64 and table["steps"].dtype == np.float64
    assert table["revolute_clearance[rod_slider].law.name"].dtype == object
    assert sorted(set(table["status"])) == ["failed", "invalid", "ok"]
    assert clink.read_sweep(tmp_path / "py")["status"].tolist() == list(table["status"])


def test_a_partial_journal_resumed_gives_the_whole_table(spec, tmp_path):
    whole = frame(clink.sweep(spec, tmp_path / "whole", workers=1))
    lines = (tmp_path / "whole" / "sweep.journal").read_text().split("\n")
    assert lines[0].startswith("# clink sweep journal") and len(lines) == 10  # tag, 8, ""
    part = tmp_path / "part"
    part.mkdir()
    kept = [lines[0]] + lines[3:6]
    # three rows kept, and a fourth cut by a kill (no newline)
    (part / "sweep.journal").write_text("\n".join(kept) + "\n" + lines[6][:20])
    resumed = frame(clink.sweep(spec, part, workers=2, resume=True))
    for name in whole:
        if name != "wall_time":
            assert [repr(x) for x in resumed[name]] == [repr(x) for x in whole[name]], name
    # the kept rows were not run again: their wall times are the journal's
    for row in kept[1:]:
        k = int(row.split(",")[0])
        assert float(row.rsplit(",", 1)[1]) == resumed["wall_time"][k]
    assert strip(part / "sweep.csv") == strip(tmp_path / "whole" / "sweep.csv")
    # the command resumes the same partial journal to the same table
    cli = tmp_path / "cli"
    cli.mkdir()
    (cli / "sweep.journal").write_text("\n".join(kept) + "\n" + lines[6][:20])
    run_cli("sweep", spec, "-o", cli, "--resume", "-q", check=False)
    assert strip(cli / "sweep.csv") == strip(tmp_path / "whole" / "sweep.csv")
    assert (cli / "sweep.journal").read_text().startswith("\n".join(kept) + "\n")


def test_a_damaged_journal_row_is_a_warning_and_runs_again(spec, tmp_path):
    whole = tmp_path / "whole"
    clink.sweep(spec, whole, workers=2)
    lines = (whole / "sweep.journal").read_text().split("\n")
    part = tmp_path / "part"
    part.mkdir()
    (part / "sweep.journal").write_bytes(
        (lines[0] + "\n" + lines[1].replace(",ok,", ",o\0k,") + "\n").encode())
    with pytest.warns(RuntimeWarning, match=r"part/sweep.journal:2: a NUL byte"):
        clink.sweep(spec, part, workers=2, resume=True)
    assert strip(part / "sweep.csv") == strip(whole / "sweep.csv")


def test_a_stopped_sweep_records_no_killed_case_and_resumes(spec, tmp_path):
    seen = []

    def progress(done, cases):
        seen.append((done, cases))
        return done >= 2

    with pytest.raises(clink.Error) as e:
        clink.sweep(spec, tmp_path / "out", workers=2, progress=progress)
    assert e.value.status == "CLINK_ERR_STATE" and "interrupted" in e.value.message
    assert seen[0][1] == 8 and seen[-1][0] >= 2
    assert not (tmp_path / "out" / "sweep.csv").exists()
    rows = (tmp_path / "out" / "sweep.journal").read_text().split("\n")[1:-1]
    assert 2 <= len(rows) < 8 and not any(",crashed," in r for r in rows)
    table = clink.sweep(spec, tmp_path / "out", resume=True)
    assert len(table["case"]) == 8
    again = clink.sweep(spec, tmp_path / "again")
    assert strip(tmp_path / "out" / "sweep.csv") == strip(tmp_path / "again" / "sweep.csv")
    assert list(again["status"]) == list(table["status"])


def test_errors(spec, tmp_path):
    bad = tmp_path / "bad.xml"
    bad.write_text(SPEC.replace('count="2"', 'count="0"'))
    with pytest.raises(clink.Error) as e:
        clink.sweep(bad, tmp_path / "x")
    assert e.value.status == "CLINK_ERR_PARSE" and str(bad) + ":" in e.value.message
    assert not (tmp_path / "x").exists()
    for w in (0, -1, 5000, 1.5, True):
        with pytest.raises(ValueError):
            clink.sweep(spec, tmp_path / "x", workers=w)
    with pytest.raises(ValueError):
        clink.sweep(spec, tmp_path / "x", sync_interval=-1)
    clink.sweep(spec, tmp_path / "out", workers=2)
    other = tmp_path / "other.xml"
    other.write_text(SPEC.replace('seed="7"', 'seed="8"'))
    with pytest.raises(clink.Error) as e:
        clink.sweep(other, tmp_path / "out", resume=True)
    assert e.value.status == "CLINK_ERR_STATE" and "another sweep specification" in str(e.value)
    with pytest.raises(clink.Error) as e:
        clink.sweep(spec, tmp_path / "no" / "such" / "dir")
    assert e.value.status == "CLINK_ERR_IO"
    with pytest.raises(clink.Error):
        clink.read_sweep(tmp_path / "nowhere")


def test_without_pandas_the_table_is_a_dict_of_arrays(spec, tmp_path, monkeypatch):
    clink.sweep(spec, tmp_path / "out", workers=2)
    monkeypatch.setitem(sys.modules, "pandas", None)
    table = clink.read_sweep(tmp_path / "out")
    assert isinstance(table, dict)
    assert list(table) == open(tmp_path / "out" / "sweep.csv").readline().strip().split(",")
    assert table["case"].dtype == np.int64 and table["case"].tolist() == list(range(8))
    assert table["max_contact_force"].dtype == np.float64
    assert table["status"].dtype == object
