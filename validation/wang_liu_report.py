#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Markdown table of validation/val_wang_liu_tables' JSON (for docs/elastoplastic.md).

usage: wang_liu_report.py build/validation-results/wang_liu_tables.json
"""
import json
import sys


def fmt(x):
    if x is None:
        return ""
    if isinstance(x, bool):
        return str(x)
    if x != 0 and (abs(x) >= 1e4 or abs(x) < 1e-2):
        return "%.6e" % x
    return "%.6f" % x


def main():
    with open(sys.argv[1]) as fh:
        data = json.load(fh)
    print("| quantity | computed | published | tolerance | unit | pass |")
    print("|---|---|---|---|---|---|")
    for r in data["rows"]:
        tol = r["tolerance"]
        if r["kind"] == "relative" and tol is not None:
            tol_s = "%g rel" % tol
        elif tol is not None:
            tol_s = "%g" % tol
        else:
            tol_s = r["kind"]
        print("| %s | %s | %s | %s | %s | %s |" % (
            r["quantity"], fmt(r["computed"]), fmt(r["reference"]), tol_s, r["unit"],
            "yes" if r["pass"] else "**no**"))
    print()
    print("%d rows, all pass: %s" % (len(data["rows"]), data["pass"]))


if __name__ == "__main__":
    main()
