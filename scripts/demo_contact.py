#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""README command 1's main job (for now): every contact law of clink on the
two-sphere impact of Alves et al. (2015, Sect. 4): two aluminium spheres,
R 20 mm, 0.092 kg each, +-0.15 m/s (m_eff 0.046 kg, approach 0.3 m/s),
K 5.5e9 N/m^1.5, target restitution 0.7.

For each law, computed by the clink command: the impact with the law's own
damping rule (`clink impact --json --loop`) and the damping calibrated so that
the achieved restitution is exactly 0.7 (`clink calibrate --json`). Writes
OUT/laws.csv, OUT/laws.json, OUT/loops/<law>.csv and OUT/loops.png, and prints
the comparison table.

usage: demo_contact.py CLINK OUT
"""
import csv
import json
import os
import re
import subprocess
import sys

M_EFF, V0, K, E = 0.092 / 2, 0.3, 5.5e9, 0.7
# linear-spring laws need a stiffness in N/m: the secant of the Hertz spring at 10 um
K_LIN = K * (1e-5) ** 0.5
# the elastoplastic laws take materials: aluminium spheres (E 70 GPa, nu 0.33,
# yield strength 2.76e8 Pa; psi = 3.0 and xi = 13 as in Wang, Liu and Liu (2022), Sect. 3)
MATERIALS = ["E1=70e9", "E2=70e9", "nu1=0.33", "nu2=0.33", "R1=0.02", "R2=0.02", "Y=2.76e8",
             "psi=3.0", "xi=13"]
# laws with an empirical coefficient and no rule from e: started at 1, then calibrated
EMPIRICAL = {"ristow": "chi", "lee-herrmann": "chi", "kuwabara-kono": "chi",
             "schwager-poschel": "chi", "hertz-linear-damper": "c"}


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr.strip()


def reads_e(info):
    """whether the law takes a target restitution (its parameter lists name e)"""
    text = info.get("required", "") + " " + info.get("optional", "")
    return "e" in re.findall(r"[A-Za-z_0-9]+", text)


def args_for(law, info, calibrate):
    """the command-line arguments of one law: calibrate sets the restitution itself and
    refuses the coefficient it finds; impact gets the target restitution only when the
    law reads one, and a starting coefficient when the law has no rule from e"""
    base = ["--mass", str(M_EFF), "--velocity", str(V0)]
    if info["required"].startswith("E1"):
        base += sum([["--param", m] for m in MATERIALS], [])
    else:
        base += ["--k", repr(K_LIN if law in ("kelvin-voigt", "anagnostopoulos") else K)]
    if law in EMPIRICAL:
        # no rule from e: a starting coefficient, the one calibrate reports beside its own
        base += ["--param", EMPIRICAL[law] + "=1"]
    if not calibrate and reads_e(info):
        base += ["--restitution", str(E)]
    return base


def main():
    clink, out = sys.argv[1], sys.argv[2]
    os.makedirs(os.path.join(out, "loops"), exist_ok=True)
    code, text, err = run([clink, "laws", "--json"])
    if code != 0:
        sys.exit(f"clink laws failed: {err}")
    laws = json.loads(text)["laws"]
    rows = []
    for law in laws:
        name = law["name"]
        a = args_for(name, law, calibrate=False)
        row = {"law": name}
        code, text, err = run([clink, "calibrate", "--law", name, "--target", str(E), "--json"]
                              + args_for(name, law, calibrate=True))
        cal = json.loads(text) if code == 0 else None
        extra = []
        if cal is not None and name in EMPIRICAL:
            # no rule from e: run the impact with the calibrated coefficient
            extra = ["--damping", repr(cal["damping"])]
        loop = os.path.join(out, "loops", f"{name}.csv")
        code, text, err2 = run([clink, "impact", "--law", name, "--json", "--loop", loop] + a + extra)
        if code != 0:
            row["note"] = err2 or err
            rows.append(row)
            continue
        imp = json.loads(text)
        for k in ("e_out", "v_out", "F_max", "delta_max", "duration", "E_diss_compression",
                  "E_diss_restitution", "delta_residual", "damping"):
            row[k] = imp.get(k)
        row["damping_kind"] = imp.get("damping_kind")
        if extra:
            row["note"] = "damping given (calibrated): the law has no rule from e"
        if cal is not None:
            row["damping_calibrated"] = cal["damping"]
            row["e_calibrated"] = cal["e_achieved"]
        elif "note" not in row:
            row["note"] = "no damping to calibrate" if "no damping" in err else err
        rows.append(row)

    keys = ["law", "e_out", "v_out", "F_max", "delta_max", "duration", "E_diss_compression",
            "E_diss_restitution", "delta_residual", "damping_kind", "damping",
            "damping_calibrated", "e_calibrated", "note"]
    with open(os.path.join(out, "laws.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["law", "e_out [-]", "v_out [m/s]", "F_max [N]", "delta_max [m]",
                    "duration [s]", "E_diss_compression [J]", "E_diss_restitution [J]",
                    "delta_residual [m]", "damping_kind", "damping (law's rule) [SI]",
                    "damping for e=0.7 [SI]", "e achieved with it [-]", "note"])
        for r in rows:
            w.writerow(["" if r.get(k) is None else r.get(k) for k in keys])
    with open(os.path.join(out, "laws.json"), "w") as f:
        json.dump({"case": "Alves et al. (2015) two aluminium spheres: m_eff 0.046 kg, "
                           "0.3 m/s, K 5.5e9 N/m^1.5, target e 0.7", "laws": rows}, f, indent=1)

    print(f"{'law':22s} {'e_out':>8s} {'v_out m/s':>10s} {'F_max N':>9s} {'dmax um':>8s} "
          f"{'t_c us':>7s} {'E_diss mJ':>9s} {'res. um':>8s}  damping: rule -> for e=0.7")
    for r in rows:
        if "e_out" not in r:
            print(f"{r['law']:22s} ({r.get('note', '')})")
            continue
        ed = (r["E_diss_compression"] + r["E_diss_restitution"]) * 1e3
        cal = (f"{r['damping']:.4g} -> {r['damping_calibrated']:.6g} {r['damping_kind']}"
               if r.get("damping_calibrated") is not None else r.get("note", ""))
        print(f"{r['law']:22s} {r['e_out']:8.4f} {r['v_out']:10.4f} {r['F_max']:9.2f} "
              f"{r['delta_max'] * 1e6:8.3f} {r['duration'] * 1e6:7.2f} {ed:9.4f} "
              f"{r['delta_residual'] * 1e6:8.4f}  {cal}")

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(matplotlib not found: no plot)")
        return
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(13, 5.5))
    # 10 colours x 3 line styles: up to 30 laws tell apart (scripts/plot_run.py's pairs)
    colors = plt.get_cmap("tab10").colors
    styles = [(colors[i % 10], ("-", "--", ":")[(i // 10) % 3]) for i in range(len(rows))]
    for (color, dash), r in zip(styles, rows):
        path = os.path.join(out, "loops", f"{r['law']}.csv")
        if "e_out" not in r or not os.path.exists(path):
            continue
        d, v, F = [], [], []
        with open(path) as f:
            rd = csv.reader(f)
            next(rd)
            for row in rd:
                d.append(float(row[1]) * 1e6)
                v.append(float(row[2]))
                F.append(float(row[3]))
        ax1.plot(d, F, lw=1, color=color, ls=dash, label=r["law"])
        ax2.plot(d, v, lw=1, color=color, ls=dash, label=r["law"])
    ax1.set_xlabel("indentation [um]")
    ax1.set_ylabel("contact force [N]")
    ax2.set_xlabel("indentation [um]")
    ax2.set_ylabel("indentation velocity [m/s]")
    ax1.grid(alpha=0.3)
    ax2.grid(alpha=0.3)
    ax2.legend(fontsize=7, ncol=2)
    fig.suptitle("clink: every contact law on the two-sphere impact of Alves et al. "
                 "(0.3 m/s, K 5.5e9, e 0.7)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "loops.png"), dpi=100)
    print(f"wrote {out}/laws.csv, {out}/laws.json, {out}/loops/*.csv, {out}/loops.png")


if __name__ == "__main__":
    main()
