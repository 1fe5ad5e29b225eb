#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Write docs/validation.md, the validation report, from the result files of
the validation programs (build/validation-results/*.json, written by
`ctest -L validation`) and, when present, the benchmark result
(build-bench/bench-results/impact.json). Every number in the report is read
from those files: nothing is typed in by hand.

usage: report.py [RESULTS_DIR [OUTPUT.md [BENCH_JSON]]]
"""
import datetime
import json
import math
import os
import sys

# the cases in report order, with what each reproduces and its figures
CASES = [
    ("feng_table2", "1. Power-law Tsuji oscillator: Feng (2026) Table 2 and Fig. 1",
     "Achieved restitution of `power-law-tsuji` with alpha from Eq. 14 for target e = 0.5, "
     "p in {1, 1.5, 2, 2.5, 3}, v0 in {0.1, 0.5, 1, 5, 10} m/s (m = 1 kg, K = 1e6 N/m^p; the "
     "paper gives neither and e does not depend on them). The paper claims +-1e-5; the "
     "tolerance here is 1e-6. Fig. 1: alpha recovered by calibrating the integrated impact "
     "(`clink_lab_calibrate`, Brent's method to |e_out - e| <= 1e-10) against Eq. 14.",
     ["feng_alpha.png"], "validation/val_feng_table2.c"),
    ("feng_closed_forms", "1. Power-law Tsuji oscillator: Feng's closed forms vs integration",
     "Over p in {1, 1.25, ..., 3} and e in {0.1, 0.2, ..., 0.9, 0.99} (m = 1 kg, K = 1e6, "
     "v0 = 1 m/s): delta_max (Eq. 15), energy dissipated in loading (Eq. 16; the laboratory's "
     "m v0^2/2 - U(delta_max)), in unloading (Eq. 17 corrected: as printed it is negative, "
     "see docs/contact-laws.md), the damped duration (quadrature of Eq. 24), the undamped "
     "duration (Eq. 34) and the ratio of the critical explicit step (Eq. 32) to the "
     "integrated undamped duration against Eq. 35, 2 / B(1/(p+1), 1/2). Tolerance 1e-6 "
     "relative (the readings in docs/contact-laws.md). Fig. 4's claim is checked too: "
     "tau(alpha)/tau(0) equals 1/sqrt(1 - alpha_eff^2) for p = 1 and lies above it for p > 1. "
     "Figures like Feng's Figs. 3, 4 and 5.",
     ["feng_delta_max.png", "feng_fig4.png", "feng_portraits.png"], "validation/val_feng_closed_forms.c"),
    ("alves_table4", "2. Alves et al. (2015) Table 4: steel ball on a fixed specimen",
     "Ball of mass 0.54 kg and diameter 5.08 cm (the text swaps the two), specimens C1 and "
     "C2 at 0.094 and 0.5 m/s with the stiffness and restitution of Table 3. The stiffness "
     "worked out from the materials of Table 2 (Hertz sphere on a plane, Alves et al. (2015), Eqs. 3-4, "
     "R = 2.54 cm: E = 210 GPa, nu = 0.30 for the ball; 213 / 205 GPa, nu = 0.29 for C1 / C2) "
     "is 2.4614e10 and 2.4144e10 N/m^1.5, the printed 2.46e10 and 2.41e10 to their three "
     "digits; the impacts use the printed values, as the paper did. Tolerance 0.5% on every "
     "published peak force; the published values come from a fixed-step integration and sit "
     "0.1-0.2% off the exact Hertz peak, which clink matches to 1e-6.",
     [], "validation/val_alves_table4.c"),
    ("alves_spheres", "2. Alves et al. (2015) Sect. 4: two aluminium spheres",
     "R = 20 mm, 0.092 kg each, +-0.15 m/s (m_eff = 0.046 kg, approach speed 0.3 m/s), "
     "K = 5.5e9 N/m^1.5, cr = 0.7. Post-impact relative velocity and peak force of every law "
     "of Table 1 whose damping is set by cr (Anagnostopoulos is left out: its spring is linear "
     "and the example's K is Hertzian), and the paper's qualitative claims as checks. The text "
     "says Herbert-McWhannell, Gonthier, Zhiying-Qishao and Flores rebound \"with a "
     "post-impact velocity value equal to -0.2 m/s\", a value read from its Fig. 4; the check "
     "uses 0.02 m/s, the resolution of that figure. Figures like Figs. 3 and 4 (grey: Hertz).",
     ["alves_loops.png", "alves_portraits.png"], "validation/val_alves_spheres.c"),
    ("alves_calibration", "2. Exact Hunt-Crossley calibration and `clink calibrate`",
     "`gonthier-exact` (chi = d K / (e v), d from Poursina and Nikravesh (2020), Eqs. 18-19) achieves the target to "
     "1e-6 for every exponent and mass tried; `clink_lab_calibrate` (what `clink calibrate` "
     "runs) reaches targets 0.3, 0.7 and 0.95 to 1e-9 for every law with a damping "
     "coefficient, on the two-sphere example (linear laws with K = 5.5e9 sqrt(1e-5) N/m). "
     "The elastoplastic laws need materials and belong to section 4.",
     [], "validation/val_alves_calibration.c"),
    ("poursina_random", "3. Poursina and Nikravesh (2020): linear damper, zero-force separation",
     "c_opt of Eq. 49 (alpha, beta of Eqs. 46-47) with separation where c x' + k x^n returns "
     "to zero (a CVODE root; residual penetration kept). Fig. 8: for each target e on a log "
     "grid over [1e-4, 1], the largest |e_out - e| over 300 parameter sets drawn "
     "log-uniformly from the paper's ranges (m 1e-5..1e2 kg, k 1e5..1e10 N/m^n, "
     "v 1e-3..1e2 m/s, n uniform in [1, 2]; xorshift64* with a fixed seed). The paper's "
     "optimisation (Eq. 23) solved exactly by calibration; n = 1 against the exact "
     "Kelvin-Voigt restitution with zero-force separation (Eq. 55 with the xi > 1 branch "
     "corrected as in docs/contact-laws.md).",
     ["poursina_fig8.png"], "validation/val_poursina_random.c"),
    ("damping_factors", "2. Damping factors of the Hunt-Crossley family (Alves et al. 2015, Fig. 2)",
     "chi v / K of every law whose damping is fixed by e, K and v, from `clink_law_onset` "
     "(K = 1, v = 1, m = 1), on 199 values of e in (0, 1): each against its Alves et al. (2015) "
     "Table 1 formula written out in the program to 1e-12 (`gonthier-exact` against d/e with "
     "d the root of Poursina and Nikravesh (2020), Eq. 19, solved in the program by Newton's "
     "method, independently of the library's bisection), and the paper's qualitative claims "
     "about Fig. 2 as checks.",
     ["damping_factors.png"], "validation/val_damping_factors.c"),
    ("pendulum", "5. Mechanisms: a physical pendulum at large amplitude",
     "Released at 2.5 rad: the period against the exact 4 K(k) / omega0 (K by the "
     "arithmetic-geometric mean, in the program) to 1e-8 relative, and the energy drift over "
     "100 periods.", [], "validation/val_pendulum.c"),
    ("slider_crank_ideal", "5. Mechanisms: the ideal slider-crank at 5000 rpm",
     "Slider position, velocity and acceleration against the closed-form kinematics, and the "
     "driving torque against the principle of virtual power derived in the program, to 1e-8 "
     "of each amplitude.", [], "validation/val_slider_crank_ideal.c"),
    ("four_bar", "5. Mechanisms: constraint drift of a four-bar over 10^4 crank turns",
     "BDF with projection and Adams with Baumgarte: the largest constraint violation, the "
     "crank angle against its driver, and the energy balance over 10^4 turns, checked within "
     "1e-6 of max(|T| + |V|) in every drift mode with the drift control's work booked "
     "(docs/kernel.md; the tighter tolerances the check needs are in the program).", [],
     "validation/val_four_bar.c"),
    ("ball_drop", "5. Mechanisms: a ball bouncing on the ground",
     "A 1 kg ball dropped from 0.5 m onto a steel floor (models/ball_drop.xml, gonthier-exact "
     "calibrated for e = 0.8): each bounce's achieved restitution and apex ratio against the "
     "law's restitution, the energy balance, no CVODE re-initialisation "
     "(docs/contact-mechanics.md).", [], "validation/val_ball_drop.c"),
    ("box_drop", "5. Mechanisms: a box (a polygon) dropped onto a floor",
     "A 0.4 m by 0.2 m box of 2 kg (models/box_drop.xml, a <polygon>: one contact per corner, "
     "linear elastic law, no friction) against closed forms clink does not compute: dropped "
     "tilted by 0.3 rad, the first corner's onset and approach speed (free fall) and the "
     "velocities after it against a rigid elastic impulse at that corner; dropped flat, both "
     "corners' largest penetration and duration against the linear oscillator under gravity; "
     "the energy balance over 1 s of rocking and its fall with rtol "
     "(docs/contact-mechanics.md, \"Polygons\").", [], "validation/val_box_drop.c"),
    ("double_pendulum", "5. Mechanisms: two pendulums striking each other (Poursina and Nikravesh 2020, Sect. 6)",
     "docs/contact-mechanics.md in three treatments (models/double_pendulum_impact*.xml): "
     "Hunt-Crossley with the Flores factor, piecewise (Newton restitution through the "
     "constraint Jacobian) and Poursina-Nikravesh's optimal damper. The tip of rod2 meets the "
     "line of rod1 (the paper's point against a line: the capsule's axis lies 10 mm beside the "
     "rod so that the penetration is the tip's distance past the line). Checked against the "
     "paper: three impacts in 8 s each. Checked against an independent implementation "
     "(validation/ref_double_pendulum.py: the two rod angles as coordinates, Lagrange's "
     "equations, SciPy DOP853 at 1e-12 with event location, itself converged to 1e-7 "
     "between rtol 1e-10 and 1e-12): every impact's onset time, approach speed, effective mass, "
     "restitution, peak force and largest penetration, and both angular rates at 8 s. "
     "Information: Poursina-Nikravesh's restitution against its target (a fit). With the "
     "former geometry (a 5 mm circle against a 5 mm capsule on the line) contact started "
     "0.97 ms early (1.1415 s against 1.14245 s) and the onset-time rows fail by 1000 times "
     "their tolerance. The paper prints no number beyond the count; its Figs. 11 and 12 are "
     "redrawn below.",
     ["double_pendulum_rates.png", "double_pendulum_loop.png"], "validation/val_double_pendulum.c"),
    ("slider_crank_clearance", "5. Mechanisms: slider-crank with a revolute clearance joint",
     "docs/contact-mechanics.md at 5000 rpm, with friction (mu 0.01) and without, "
     "beside the ideal slider-crank. The first impacts are deterministic: the first eight of "
     "each model (onset time, approach speed, peak force, largest penetration, duration) are "
     "checked against an independent implementation (validation/ref_slider_crank.py: the rod "
     "angle and the slider position as coordinates, Lagrange's equations with the crank "
     "driven, no constraint equations, SciPy DOP853 at rtol 1e-11 with event location; clink's "
     "peak force is the largest at its steps, hence the 1e-3 tolerance), and the number of "
     "leading onsets within 1 us of the reference's at the model's tolerances is checked "
     "against the count measured when this check was written. After that the mechanism is "
     "chaotic, so over the 0.048 s run the checks are bounds and balances (distributions: the "
     "ensemble case below). The figures draw the literature's window (0.024-0.048 s, two crank "
     "turns): slider acceleration on the ideal curve, journal orbit inside the clearance "
     "circle, contact force, crank moment.",
     ["slider_crank_acceleration.png", "slider_crank_orbit.png", "slider_crank_force.png",
      "slider_crank_moment.png"], "validation/val_slider_crank_clearance.c"),
    ("cylinder_laws", "5. Mechanisms: conformal cylinder laws and the clearance slider-crank",
     "The cylinder laws of docs/contact-laws.md (\"Cylinder laws\") for a steel journal in a "
     "steel bearing of radius 10 mm (207 GPa, 0.29), L = 20 mm, clearances 10, 100 and 500 um. "
     "Pereira, Ramalho and Ambrosio (2011) compare these laws in figures we could not read (only "
     "their abstract), so the curves are checked against an independent evaluation "
     "(validation/ref_cylinder_laws.py: the formulas written again in Python, the implicit ones "
     "solved by SciPy's brentq, the load limit of each logarithmic law as SciPy's maximum of "
     "delta(F); relative 1e-11), past the load limit the law must give NaN, and the limits "
     "between laws (Goldsmith = Dubowsky-Freudenstein for a journal, Radzimovsky = Johnson + "
     "5/3 F/(pi L E*), Lankarani-Flores = Hertz with the journal stiffness, the asymptotes of "
     "Liu et al. and Bai-Zhao, Pereira's continuity in the clearance) are unit tests "
     "(tests/contact/test_cylinder.c). The information rows give F_hertz / F_johnson: the "
     "sphere law is 3 to 30 % of the line-contact force at these penetrations. Then the "
     "clearance slider-crank (models/slider_crank_clearance_frictionless.xml, 0.5 mm, 5000 rpm, "
     "0.048 s) with each law, e = 0.9, beside lankarani-nikravesh: peak forces, penetrations, "
     "orbits (checked: energy balance, orbit = clearance + the impacts' largest penetration). "
     "Johnson's and Pereira's laws let the journal 43 um into the bearing where Hertz's lets it "
     "78 um, with peak forces 1.5 times Hertz's.",
     ["cylinder_laws_curves.png", "cylinder_laws_orbit.png"], "validation/val_cylinder_laws.c"),
    ("lubricated_slider_crank", "5. Mechanisms: the lubricated slider-crank against an independent reference",
     "models/slider_crank_lubricated.xml (Ocvirk's short bearing, half-Sommerfeld pi-film, "
     "0.4 Pa s, L = 40 mm, c = 0.5 mm, 5000 rpm) over its first 20 ms at its own settings "
     "(Adams, rtol 1e-9), sampled every 1e-5 s, against validation/ref_lubricated_slider_crank.py: "
     "the rod angle and the slider position as coordinates, Lagrange's equations without "
     "constraints, the film force derived again from the short-bearing pressure field (checked "
     "against scipy dblquad of that field), SciPy DOP853 at rtol 1e-12. Compared: the journal's "
     "eccentricity (x, y), the eccentricity ratio, the slider's position and acceleration, the "
     "film force on the journal (clink's from the slider's balance: guide reaction + m g - m a). "
     "Tolerances: 5e-8 m on positions (300 times clink's local error allowance rtol x 0.17 m), "
     "5e-5 of the largest value on accelerations and forces. The comparison must fail for a "
     "changed force law: viscosity 1 % higher, or a full film instead of the pi-film (rows "
     "\"detects\"). The dry contact is not exercised (the journal stays below e / c = 0.82). "
     "The pi-film is clink's for either sense of Omega; with Omega < 0 (26 % of the shipped 48 ms run) "
     "it is the sub-ambient half (tests/contact/test_lubrication_cavitation.c, disabled).",
     [], "validation/val_lubricated_slider_crank.c"),
    ("slider_crank_ensemble", "5. Mechanisms: the chaotic slider-crank as an ensemble",
     "models/slider_crank_clearance_frictionless.xml and slider_crank_clearance.xml (mu 0.01) "
     "over 0.1 s. Two runs whose initial states differ by 1e-10 m part after about 12 ms, so "
     "single trajectories are not compared: clink and the independent implementation each "
     "integrate six runs per model (the slider moved by 1e-10, 3e-10 and 1e-9 m, two "
     "tolerances each) and the ranges must overlap for the impact count (penetration "
     "up-crossings), the time in contact (counted the same way in both codes, on samples every "
     "1e-5 s with positive penetration) and the peak slider acceleration over the run (set by "
     "the first, deterministic impacts, hence the narrow ranges) and from 0.05 s on (chaotic). "
     "The sum of clink's impact durations is reported beside the reference's exact time in "
     "contact (information).",
     [], "validation/val_slider_crank_ensemble.c"),
    ("wang_liu_tables", "4. Wang, Liu and Liu (2022), Tables 2-7: one elastoplastic impact",
     "The Table 1 bodies at 4 and 8 m/s: the Ma-Liu closed forms and their integration in the "
     "laboratory (to 1e-7), the dashpots driven by the Ma-Liu restitution (separation "
     "velocity, restitution, F_max, dissipated energy) against each printed number to one "
     "unit of its last digit.", [], "validation/val_wang_liu_tables.c"),
    ("wang_liu_slider_crank", "5. Mechanisms: the clearance joint with the elastoplastic dashpot "
     "(Wang, Liu and Liu 2022, Sect. 5.1)",
     "The printed Kp, delta_y and delta_p of the journal-bearing pair from clink's Ma-Liu "
     "closed forms; which mass reproduces the printed delta_max and restitution (none of the "
     "benchmark's); models/slider_crank_clearance_wang_liu.xml run over 0.048 s.",
     [], "validation/val_wang_liu_slider_crank.c"),
    ("granular_chain", "5. Mechanisms: granular chain (Wang, Liu and Liu 2022, Sect. 5.2, Table 8)",
     "70 stainless-steel beads and a striker at 1.77 m/s (models/granular_chain*.xml): "
     "radius 2.38 mm, E 193 GPa, nu 0.3 as Table 8, density 8000 kg/m^3, so 4/3 pi R^3 rho = "
     "0.45176 g (Table 8 prints 0.45 g). Elastic Hertz chain against an independent chain of "
     "point masses (validation/ref_granular_chain.py, SciPy DOP853 at 1e-12, the same "
     "peak and speed measurement) at strikers of 0.5, 1.77 and 5 m/s: steady peak force and "
     "wave speed to 1e-7. Then against Nesterenko's long-wave solitary wave: steady amplitude, "
     "speed (2/sqrt 5) K^(1/3) a m^(-1/2) F_m^(1/6) within 3% (the long-wave expansion neglects "
     "terms of order (a/L)^2, L about five diameters), exponent 1/6 over the three strikers, "
     "width (FWHM of the cos^6 profile, 1.49 diameters, within 10%; five "
     "contacts loaded at the crest). Then the new dashpot and Ma-Liu as Wang, Liu and Liu (2022) runs them: "
     "the printed delta_y, delta_p and restitution 0.81, and the claims of Fig. 11 (peaks "
     "decay along the chain; dashpot peaks above Ma-Liu's). Energy balance of every run.",
     ["granular_chain_sensors.png", "granular_chain_wave.png"], "validation/val_granular_chain.c"),
    ("translational_clearance", "5. Mechanisms: slider-crank with a translational clearance joint",
     "The mechanism of Flores, Leine and Glocker (2010), Table 1 "
     "(models/slider_crank_translational_clearance.xml; crank driven at 150 rad/s, K, e and "
     "friction chosen as its header says): the four slider corners against the two guide "
     "surfaces. The energy balance with an elastic law, convergence to the ideal joint as the "
     "clearance tends to 0, impacts on both surfaces, the tilt bound, and the first eight "
     "impacts against validation/ref_slider_crank_translational.py (its own two coordinates, "
     "Lagrange's equations, SciPy DOP853 at rtol 1e-10, its own event location, the same law "
     "and friction): onset 1e-9 s; approach speed, penetration, duration 1e-5 relative; peak "
     "force 1e-3 relative (clink's peak is the largest at its steps); the corner and surface "
     "of each impact must be the reference's. Impacts 1 and 2 are an exact tie (the slider, "
     "pinned at its centre of mass, cannot turn before its first contact) and are matched by "
     "contact.",
     [], "validation/val_translational_clearance.c"),
    ("iftomm_a01", "6. IFToMM A01: simple pendulum over 2000 s",
     "The IFToMM benchmark's point mass on a massless 1 m bar released from the horizontal, "
     "modelled as the uniform 1.5 m rod with the same equation of motion (models/iftomm_a01.xml; "
     "clink's bodies carry inertia). The mass's position over 2000 s against the exact "
     "elliptic-function solution computed in the program (validation/iftomm_reference.h), below "
     "the benchmark's high-precision threshold of 1e-3 m, with the CPU time that takes "
     "(docs/kernel.md compares it with published figures).", [], "validation/val_iftomm_a01.c"),
    ("iftomm_a02", "6. IFToMM A02: N-four-bar mechanism, N = 40, 20 s",
     "81 bodies, 242 constraint rows, through the horizontal singular positions where the "
     "mobility jumps from 1 to N + 1 (models/n_four_bar.xml): the first crank point's position "
     "and velocity against an independent solution of the one-coordinate equation "
     "(validation/iftomm_reference.h), the energy, and no stop at the singular positions "
     "(BDF with projection; docs/kernel.md explains why Baumgarte leaves the branch).", [],
     "validation/val_iftomm_a02.c"),
    ("iftomm_a03", "6. IFToMM A03: Andrews' squeezing mechanism",
     "Seven bodies, ten pin joints, a constant torque of 0.033 N m on the crank and a spring "
     "of 4530 N/m (models/iftomm_a03.xml, generated from the test set's geometry by "
     "validation/make_iftomm_a03.py): the seven angles at t = 0.03 s against the published "
     "reference solution of the test set for initial value problem solvers (Mazzia and "
     "Magherini 2008) within 1e-6 rad.", [], "validation/val_iftomm_a03.c"),
    ("analysis_closed_forms", "8. Analysis: equilibrium and modes against closed forms",
     "`clink equilibrium` and `clink modes` (src/analysis, docs/analysis.md) against closed "
     "forms derived by hand in minimal coordinates: a compound pendulum's frequency "
     "sqrt(m g d / (J + m d^2)) / 2 pi; a double pendulum's two frequencies from det(K - w^2 M) "
     "= 0 of its 2-DOF linearisation; the spring-loaded slider-crank of "
     "models/slider_crank_spring.xml: its equilibrium crank angle (V'(th) = 0 by bisection), "
     "the slider's position and sqrt(K_th / M_th) with K_th = V'' and the generalised mass "
     "M_th.", [], "validation/val_analysis_closed_forms.c"),
    ("analysis_transient", "8. Analysis: modes against the transient",
     "Each mode released alone from the equilibrium (1e-5 times its shape), integrated by the "
     "simulation `clink run` uses (BDF, projection, rtol 1e-12); the period from the zero "
     "crossings over 20 periods against the eigenvalue's frequency within 1e-6.", [],
     "validation/val_analysis_transient.c"),
    ("analysis_kinematics", "8. Analysis: kinematics of a four-bar against Freudenstein's equation",
     "`clink kinematics` over one crank turn of models/four_bar.xml's linkage: the rocker angle "
     "against Freudenstein's equation (Freudenstein 1955), its velocity coefficient, the "
     "coupler point and the transmission angle against closed forms; driven at the rocker past "
     "its reach: assembly fails exactly outside the limit positions and a dead point is flagged "
     "at each.", [], "validation/val_analysis_kinematics.c"),
    ("analysis_four_bar_spring", "8. Analysis: a four-bar with a diagonal spring-damper",
     "After the linearisation problem of the IFToMM multibody benchmark library (\"fourbar "
     "linkage with diagonal spring\"). Its published equilibrium and eigenvalues could not be "
     "read for this work, so the model (models/four_bar_spring.xml) has its own dimensions and "
     "the reference is an independent derivation in the minimal coordinate with NumPy/SciPy "
     "(validation/ref_four_bar_spring.py: loop closure, velocity coefficients, V'(th) = 0 by "
     "brentq, K = V'', M(th), C(th)), not the benchmark's numbers. The equilibrium angles and "
     "the eigenvalue of clink's body-coordinate linearisation against it.", [],
     "validation/val_analysis_four_bar_spring.c"),
    ("film_coefficients", "8. Analysis: short-bearing film stiffness and damping",
     "clink_film_coefficients_compute (src/analysis/analysis_film.c, docs/analysis.md) on a "
     "short bearing loaded at eccentricity ratios 0.2, 0.5 and 0.8, the load set from the "
     "load-Sommerfeld-number relation (L/D)^2 S = (1 - eps^2)^2 / (pi eps sqrt(pi^2 (1 - eps^2) "
     "+ 16 eps^2)) (Ocvirk; Pinkus and Sternlicht 1961): the steady eccentricity, attitude angle "
     "and Sommerfeld number, and the eight dimensionless coefficients K c / W and C c omega / W "
     "against the closed forms of Friswell et al. (2010) and against central differences of "
     "Ocvirk's closed-form force in NumPy (validation/ref_film_coefficients.py).", [],
     "validation/val_film_coefficients.c"),
    ("friction_incline", "7. Friction: a block on an incline",
     "Every law of the friction catalogue (docs/friction.md) on a 20 deg incline: below the "
     "friction angle LuGre holds (drift per second), Dahl ratchets, the regularised laws creep "
     "at their closed-form speeds; above it every law slides with a = g (sin - mu cos).",
     [], "validation/val_friction_incline.c"),
    ("friction_lugre", "7. Friction: LuGre presliding with the parameter set of Canudas de Wit et al. (1995)",
     "The friction force over a displacement cycle of +-20 um against the closed form of the "
     "bristle state under monotonic motion.", [], "validation/val_friction_lugre.c"),
    ("friction_belt", "7. Friction: stick-slip on a moving belt",
     "Stribeck, LuGre and tanh-regularised Stribeck: period, amplitude and peak of the stick-slip cycle against a SciPy "
     "reference of the same law (validation/ref_friction_belt.py).", [],
     "validation/val_friction_belt.c"),
    ("friction_pendulum", "7. Friction: a pendulum with revolute joint friction",
     "Reversal angles and the final angle against a SciPy reference that solves the reaction's "
     "dependence by Brent's method, the Coulomb dead zone and the energy balance with the "
     "friction work booked.", [], "validation/val_friction_pendulum.c"),
    ("friction_slider", "7. Friction: a slider in a translational joint with friction",
     "Deceleration mu g, and 2 mu g under two-point binding.", [],
     "validation/val_friction_slider.c"),
    ("friction_disc", "7. Friction: the disc with backspin (Routh)",
     "Rolling velocity (2 v0 - omega0 R) / 3 and the end of sliding for every law.", [],
     "validation/val_friction_disc.c"),
    ("friction_slider_crank", "7. Friction: the clearance slider-crank with Stribeck friction",
     "Coulomb and Stribeck each against the SciPy reference (first 8 impacts) and the energy "
     "balance with the friction work booked.", [], "validation/val_friction_slider_crank.c"),
]


# the row kinds of vjson: a number compared with a reference, a boolean check, information
KIND = {"absolute": "number", "relative": "number", "check": "check", "info": "info"}


def agreement(rows):
    """Counts of the kinds and the row closest to its tolerance (largest deviation / tolerance)."""
    n = {"number": 0, "check": 0, "info": 0}
    worst, worst_row = -1.0, None
    for r in rows:
        k = KIND.get(r.get("kind", ""), "info")
        n[k] += 1
        if k != "number":
            continue
        c, ref, tol = r.get("computed"), r.get("reference"), r.get("tolerance")
        if c is None or ref is None or not tol:
            continue
        dev = abs(c - ref) / (tol * abs(ref) if r["kind"] == "relative" else tol)
        if dev > worst:
            worst, worst_row = dev, r
    return n, worst, worst_row


def fmt(x):
    if x is None:
        return "-"
    if isinstance(x, float):
        if math.isnan(x):
            return "NaN"
        if x == 0:
            return "0"
        if abs(x) >= 1e5 or abs(x) < 1e-3:
            return f"{x:.6e}"
        return f"{x:.10g}"
    return str(x)


def table(rows):
    out = ["| quantity | kind | computed | reference | tolerance | unit | pass |",
           "|---|---|---|---|---|---|---|"]
    for r in rows:
        kind = r.get("kind", "")
        if kind == "check":
            ref = r.get("criterion", "")
            tol = ""
        elif kind == "info":
            ref, tol = "", ""
        else:
            ref = fmt(r.get("reference"))
            t = r.get("tolerance")
            tol = (fmt(t) + (" rel." if kind == "relative" else "")) if t is not None else ""
        verdict = "info" if kind == "info" else ("yes" if r.get("pass") else "**NO**")
        quantity = r["quantity"].replace("|", "\\|")  # a pipe would end the cell
        out.append(f"| {quantity} | {KIND.get(kind, kind)} | {fmt(r.get('computed'))} | {ref} | {tol} | "
                   f"{r.get('unit', '')} | {verdict} |")
    return "\n".join(out)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.normpath(os.path.join(here, ".."))
    res = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "build", "validation-results")
    target = sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, "docs", "validation.md")
    bench = sys.argv[3] if len(sys.argv) > 3 else os.path.join(root, "build-bench", "bench-results",
                                                               "impact.json")
    results = {}
    for name in sorted(os.listdir(res)):
        if name.endswith(".json"):
            with open(os.path.join(res, name)) as f:
                d = json.load(f)
            if isinstance(d, dict) and "rows" in d:
                results[d.get("case", name[:-5])] = d
    lines = ["# Validation report", "",
             "Generated by `validation/report.py` from the result files of `ctest -L validation` "
             "(build/validation-results/*.json); every number below is computed by clink. "
             "Regenerate with:", "",
             "    bash scripts/report",
             "",
             f"Generated {datetime.datetime.utcnow().strftime('%Y-%m-%d %H:%M')} UTC.", "",
             "Row kinds: **number**, a computed value against a published number, a closed form "
             "implemented separately or an independent implementation, at a stated tolerance; "
             "**check**, a computed value against a criterion (a bound, an ordering, a count); "
             "**info**, a figure reported without a judgement (it cannot fail and is not a "
             "check). The last column of the summary is the number row closest to its "
             "tolerance, as |computed - reference| / tolerance.", "",
             "## Summary", "",
             "| case | rows | number | check | info | failed | verdict | closest to tolerance |",
             "|---|---|---|---|---|---|---|---|"]
    # in the order of the sections (the number that starts each title), stable within one
    known = [c[0] for c in sorted(CASES, key=lambda c: int(c[1].split(".")[0]))]
    order = [c for c in known if c in results] + [c for c in results if c not in known]
    for c in order:
        d = results[c]
        rows = d["rows"]
        nf = sum(1 for r in rows if not r.get("pass"))
        n, worst, _ = agreement(rows)
        lines.append(f"| [{c}](#{c}) | {len(rows)} | {n['number']} | {n['check']} | {n['info']} | "
                     f"{nf} | {'pass' if d.get('pass') else '**FAIL**'} | "
                     f"{'-' if worst < 0 else f'{worst:.3g}'} |")
    lines.append("")
    for c in order:
        d = results[c]
        meta = next((x for x in CASES if x[0] == c), None)
        lines.append(f'<a id="{c}"></a>')
        lines.append(f"## {meta[1] if meta else d.get('title', c)}")
        lines.append("")
        if meta:
            lines.append(meta[2])
            lines.append("")
            n, worst, wr = agreement(d["rows"])
            lines.append(f"Program: `{meta[4]}`; case `{c}`; {len(d['rows'])} rows "
                         f"({n['number']} numbers, {n['check']} checks, {n['info']} information), "
                         f"{'all pass' if d.get('pass') else 'SOME FAIL'}."
                         + (f" Closest to its tolerance: {wr['quantity']}, at {worst:.3g} of it."
                            if wr else ""))
        else:
            lines.append(f"{d.get('title', '')} (case `{c}`; see its program under validation/).")
        lines.append("")
        lines.append(table(d["rows"]))
        lines.append("")
        if meta:
            for fig in meta[3]:
                if os.path.exists(os.path.join(os.path.dirname(target), "figures", fig)):
                    lines.append(f"![{fig}](figures/{fig})")
                    lines.append("")
    if os.path.exists(bench):
        with open(bench) as f:
            b = json.load(f)
        lines += ["## Benchmark: one impact with event location", "",
                  "`bench/bench_impact.c` (run with `cmake -S . -B build-bench -DCLINK_BENCH=ON && "
                  "cmake --build build-bench -j2 && ctest --test-dir build-bench -L bench -V`): "
                  f"{b.get('case')}. clink's laboratory (CVODE Adams, root finding) against "
                  "SciPy `solve_ivp(DOP853, events)` on the same equation at the same tolerances, "
                  "in the same run.", "",
                  "| quantity | clink | SciPy |", "|---|---|---|",
                  f"| seconds per impact (mean) | {fmt(b['clink_seconds_per_impact'])} | "
                  f"{fmt(b['scipy_seconds_per_impact'])} |",
                  f"| abs. error of e_out | {fmt(b['clink_e_error'])} | {fmt(b['scipy_e_error'])} |",
                  f"| rel. error of delta_max (Eq. 15) | {fmt(b['clink_delta_max_rel_error'])} | "
                  f"{fmt(b['scipy_delta_max_rel_error'])} |",
                  f"| right-hand-side evaluations | {b['cvode']['rhs']} | {fmt(b['scipy_nfev'])} |",
                  "",
                  f"Ratio SciPy / clink: **{b['ratio']:.1f}** (target 100). CVODE statistics: "
                  f"{b['cvode']['steps']} steps, {b['cvode']['rhs']} right-hand sides, "
                  f"{b['cvode']['root_evals']} root-function evaluations, "
                  f"{b['cvode']['err_test_fails']} error-test failures.", ""]
        if b["ratio"] < 100:
            lines += ["The target is not met; why, and what would close the gap: "
                      "docs/laboratory.md, section Performance.", ""]
    with open(target + ".tmp", "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(target + ".tmp", target)


if __name__ == "__main__":
    main()
