/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Alves et al. (2015) Table 4: peak contact force of a steel ball (mass
 * 0.54 kg, diameter 5.08 cm; the text swaps the two) dropped on a fixed steel
 * specimen, for the specimens and velocities of Table 3 and eight laws of
 * Table 1. The stiffness is Hertz's sphere-on-plane value from the materials
 * of Table 2 (Alves et al. 2015, Eqs. 3-4, R = 2.54 cm, E, nu of ball and specimen);
 * it is compared with the printed Table 3 value (3 digits), and the impacts use
 * the printed Table 3 stiffness and restitution (what the paper used).
 * Tolerances: 0.5% on every published peak force (the paper integrated with a
 * fixed step, the readings in docs/contact-laws.md); Hertz also to 1e-6 against the exact
 * undamped peak F = K (5 m v^2 / (4 K))^(3/5).
 */
#include "vjson.h"

#include "clink/contact.h"
#include "clink/lab.h"

#include <math.h>
#include <stdio.h>

#define NLAWS  8
#define NCASES 4

int main(int argc, char **argv)
{
    const char *laws[NLAWS] = {"hertz",
                               "hunt-crossley",
                               "herbert-mcwhannell",
                               "lee-wang",
                               "lankarani-nikravesh",
                               "gonthier",
                               "zhiying-qishao",
                               "flores"};
    /* Table 3: specimen, velocity (m/s), stiffness (N/m^1.5), restitution */
    const char *spec[NCASES] = {"C1", "C1", "C2", "C2"};
    const double vel[NCASES] = {0.094, 0.500, 0.094, 0.500};
    const double Ktab[NCASES] = {2.46e10, 2.46e10, 2.41e10, 2.41e10};
    const double cr[NCASES] = {0.974, 0.955, 0.917, 0.757};
    /* Table 4: published peak forces (N), [law][case] */
    const double Fpub[NLAWS][NCASES] = {
        {662.5, 4937.8, 657.5, 4899.9}, {652.7, 4817.6, 630.6, 4496.4},
        {652.4, 4812.8, 628.9, 4464.1}, {657.4, 4874.3, 642.6, 4633.5},
        {652.8, 4820.0, 631.5, 4522.3}, {649.5, 4780.2, 622.9, 4436.0},
        {652.3, 4810.1, 627.8, 4444.0}, {651.8, 4805.2, 627.2, 4445.5}};
    /* Table 2: ball and specimen materials */
    const double E_ball = 210e9, nu_ball = 0.30, R_ball = 0.0508 / 2.0, m_ball = 0.54;
    const double E_spec[2] = {213e9, 205e9}, nu_spec = 0.29;
    const char *outdir = argc > 1 ? argv[1] : ".";
    clink_lab *lab = NULL;
    vjson *v;
    char q[160], path[1024];
    FILE *csv;
    int i, j, failed = 0;

    v = vjson_open(outdir, "alves_table4", "Alves et al. (2015) Tables 3-4: steel ball");
    if (v == NULL || clink_lab_create(&lab) != CLINK_OK)
        return 1;
    for (i = 0; i < 2; i++) {
        double K;
        if (clink_contact_stiffness_sphere_plane(E_ball, nu_ball, E_spec[i], nu_spec, R_ball, &K) !=
            CLINK_OK)
            K = NAN;
        snprintf(q, sizeof q, "K specimen %s from materials (Eqs. 3-4) vs Table 3",
                 i == 0 ? "C1" : "C2");
        vjson_row_rel(v, q, K, i == 0 ? 2.46e10 : 2.41e10, 5e-3, "N/m^1.5");
    }
    snprintf(path, sizeof path, "%s/alves_table4_forces.csv", outdir);
    csv = fopen(path, "w");
    if (csv != NULL)
        fprintf(csv, "law,specimen,v [m/s],F_max [N],F_published [N],e_out [-]\n");
    for (j = 0; j < NCASES; j++) {
        for (i = 0; i < NLAWS; i++) {
            const clink_law *law = clink_law_find(laws[i]);
            clink_contact_params p;
            clink_lab_result r;
            clink_contact_params_init(&p);
            p.K = Ktab[j];
            p.n = 1.5;
            p.e = cr[j];
            if (law == NULL ||
                clink_lab_impact(lab, law, &p, m_ball, vel[j], NULL, &r) != CLINK_OK) {
                fprintf(stderr, "%s %s: %s\n", laws[i], spec[j], clink_lab_error(lab));
                r.F_max = NAN;
                failed = 1;
            }
            snprintf(q, sizeof q, "F_max %s, specimen %s, %.3f m/s", laws[i], spec[j], vel[j]);
            vjson_row_rel(v, q, r.F_max, Fpub[i][j], 5e-3, "N");
            if (i == 0) {
                double Fx = Ktab[j] * pow(5.0 * m_ball * vel[j] * vel[j] / (4.0 * Ktab[j]), 0.6);
                snprintf(q, sizeof q, "F_max hertz, specimen %s, %.3f m/s vs exact closed form",
                         spec[j], vel[j]);
                vjson_row_rel(v, q, r.F_max, Fx, 1e-6, "N");
            }
            if (csv != NULL)
                fprintf(csv, "%s,%s,%g,%.17g,%g,%.17g\n", laws[i], spec[j], vel[j], r.F_max,
                        Fpub[i][j], r.e_out);
        }
    }
    if (csv != NULL)
        fclose(csv);
    clink_lab_destroy(&lab);
    return vjson_close(v) || failed;
}
