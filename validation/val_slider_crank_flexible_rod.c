/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The clearance slider-crank with a flexible connecting rod (models/slider_crank_flexible_rod.xml:
 * 8 beam elements, docs/flexible.md) over one crank revolution at 5000 rpm, and the rigid-rod
 * model (models/slider_crank_clearance.xml) beside it:
 *
 * - the energy balance closes: |kinetic + gravity + strain energy - driver work - load work
 *   (the rod's Kelvin-Voigt damping) + contact books - stabilisation| stays below 1e-5 of the
 *   largest kinetic energy at every 1e-5 s (clink_energy.balance);
 * - the rod's strain energy is counted (positive, and the elastic energy of its bending is a
 *   small share of the kinetic energy: the rod is stiff at this speed);
 * - the rod's midpoint deflection (node rod.4 from the chord rod.0 - rod.8) and the change of
 *   the chord's length are reported, and the flexible rod's slider stays within 2 mm of the
 *   rigid rod's (the clearance, 0.5 mm, and the rod's deflection bound the difference; the
 *   clearance joint's flight differs between the two: they are not the same motion).
 * No published benchmark for this mechanism is reproduced here.
 */
#include "vjson.h"

#include "clink/model.h"
#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <stdio.h>

/* the simulation of a shipped model (its model in *m, kept until the simulation is gone) */
static clink_sim *open_model(const char *name, clink_model **m)
{
    char path[512], err[512];
    snprintf(path, sizeof path, "%s/models/%s.xml", CLINK_SOURCE_DIR, name);
    *m = clink_model_load_xml(path, err, sizeof err);
    if (!*m) {
        fprintf(stderr, "%s\n", err);
        return NULL;
    }
    return vsim_create(m);
}

int main(int argc, char **argv)
{
    const char *out = argc > 1 ? argv[1] : ".";
    vjson *v = vjson_open(out, "slider_crank_flexible_rod",
                          "Clearance slider-crank with a flexible rod: energy balance, rod "
                          "deflection, beside the rigid rod");
    clink_model *mf = NULL, *mr = NULL;
    clink_sim *flex = open_model("slider_crank_flexible_rod", &mf);
    clink_sim *rigid = open_model("slider_crank_clearance", &mr);
    int r0 = mf ? clink_model_find(mf, CLINK_ENTITY_BODY, "rod.0") : -1;
    int slf = mf ? clink_model_find(mf, CLINK_ENTITY_BODY, "slider") : -1;
    int slr = mr ? clink_model_find(mr, CLINK_ENTITY_BODY, "slider") : -1;
    const double T = 2.0 * 3.14159265358979323846 / 523.598775598, dt = 1e-5;
    int n = (int) floor(T / dt), ok = flex && rigid && r0 > 0 && slf > 0 && slr > 0;
    double worst = 0.0, kmax = 0.0, smax = 0.0, mid = 0.0, chord = 0.0, dslider = 0.0;
    for (int k = 1; ok && k <= n; k++) {
        double t = k * dt;
        if (clink_sim_advance(flex, t) != CLINK_OK || clink_sim_advance(rigid, t) != CLINK_OK) {
            fprintf(stderr, "run: %s %s\n", clink_sim_error(flex), clink_sim_error(rigid));
            ok = 0;
            break;
        }
        clink_energy e;
        clink_sim_energy(flex, &e);
        worst = fmax(worst, fabs(e.balance));
        kmax = fmax(kmax, e.kinetic);
        smax = fmax(smax, e.spring);
        double a[3], b[3], c[3], w[3], sf[3], sr[3];
        clink_sim_body_state(flex, r0, a, w);
        clink_sim_body_state(flex, r0 + 4, c, w);
        clink_sim_body_state(flex, r0 + 8, b, w);
        double dx = b[0] - a[0], dy = b[1] - a[1], l = hypot(dx, dy);
        mid = fmax(mid, fabs((c[0] - a[0]) * dy - (c[1] - a[1]) * dx) / l);
        chord = fmax(chord, fabs(l - 0.12));
        clink_sim_body_state(flex, slf, sf, w);
        clink_sim_body_state(rigid, slr, sr, w);
        dslider = fmax(dslider, fabs(sf[0] - sr[0]));
    }
    vjson_check(v, "one revolution run", ok, "both models reach T", ok, "-");
    vjson_info(v, "largest kinetic energy", kmax, "J");
    vjson_check(v, "energy balance, largest |residual| / largest kinetic energy", worst / kmax,
                "< 1e-5", worst / kmax < 1e-5, "-");
    vjson_check(v, "rod strain energy, largest", smax, "> 0 and < 1e-2 of the kinetic",
                smax > 0.0 && smax < 1e-2 * kmax, "J");
    vjson_info(v, "rod midpoint deflection from its chord, largest", mid, "m");
    vjson_info(v, "rod chord length change, largest", chord, "m");
    vjson_check(v, "slider position, flexible against rigid rod, largest difference", dslider,
                "< 2e-3 m", dslider < 2e-3, "m");
    clink_sim_destroy(&flex);
    clink_sim_destroy(&rigid);
    clink_model_destroy(&mf);
    clink_model_destroy(&mr);
    return vjson_close(v);
}
