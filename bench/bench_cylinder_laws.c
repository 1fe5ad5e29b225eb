/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The cost of one force evaluation of each conformal cylinder law (src/contact/cylinder.c)
 * beside Lankarani-Nikravesh's Hertz law: clink_law_force at 200 000 penetrations spread
 * over 0.01 ... 50 um of a steel journal (9.5 mm) in a bearing (10 mm), L = 20 mm, best of
 * 5 passes, in ns per evaluation; for the logarithmic laws also the mean number of Newton
 * steps of the implicit solve (contact_cylinder_solve_log). Writes <outdir>/cylinder_laws.json.
 */
#include "bench_clock.h"
#include "contact/cylinder.h"

#include "clink/contact.h"

#include <math.h>
#include <stdio.h>

#define NEVAL 200000

static const char *const names[] = {"lankarani-nikravesh",
                                    "johnson-cylinder",
                                    "radzimovsky",
                                    "goldsmith",
                                    "esdu-78035",
                                    "dubowsky-freudenstein",
                                    "lankarani-flores-cylinder",
                                    "pereira",
                                    "liu-zhang-wang",
                                    "bai-zhao"};
enum { NLAWS = sizeof names / sizeof names[0] };

/* ns per clink_law_force of law l, best of 5 passes; *sink keeps the sum */
static double time_law(const clink_law *l, const clink_contact_params *p, double *sink)
{
    clink_contact_state s;
    double best = INFINITY;
    clink_contact_state_init(&s);
    if (clink_law_onset(l, p, 0.5, 1.0, &s) != CLINK_OK)
        return NAN;
    for (int pass = 0; pass < 5; pass++) {
        double t0 = bench_now(), sum = 0;
        for (int i = 0; i < NEVAL; i++)
            sum += clink_law_force(l, p, &s, 1e-8 * pow(5000.0, (double) i / NEVAL), 1e-3);
        double dt = bench_now() - t0;
        *sink += sum;
        best = dt < best ? dt : best;
    }
    return 1e9 * best / NEVAL;
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    clink_contact_params p;
    double sink = 0;
    char path[1024];

    clink_contact_params_init(&p);
    p.E1 = p.E2 = 2.07e11;
    p.nu1 = p.nu2 = 0.29;
    p.R1 = 9.5e-3;
    p.R2 = -10e-3;
    p.L = 20e-3;
    p.e = 0.9;
    if (clink_contact_stiffness_journal_bearing(p.E1, p.nu1, p.E2, p.nu2, 9.5e-3, 10e-3, &p.K) !=
        CLINK_OK)
        return 1;
    snprintf(path, sizeof path, "%s/cylinder_laws.json", outdir);
    FILE *f = fopen(path, "w");
    if (!f)
        return fprintf(stderr, "%s: cannot write\n", path), 1;
    fprintf(f, "{\"ns_per_force\": {");
    for (int i = 0; i < NLAWS; i++) {
        double ns = time_law(clink_law_find(names[i]), &p, &sink);
        printf("%-26s %7.1f ns per force\n", names[i], ns);
        fprintf(f, "%s\"%s\": %.1f", i ? ", " : "", names[i], ns);
    }
    /* Newton steps of Johnson's law over the same penetrations */
    double A = 1.0 / (3.14159265358979323846 * p.L * 1.136e11), B = 4 / A * 0.5e-3;
    long steps = 0;
    for (int i = 0; i < NEVAL; i++) {
        int it = 0;
        contact_cylinder_solve_log(A, B, -1.0, 1e-8 * pow(5000.0, (double) i / NEVAL), &it);
        steps += it;
    }
    printf("johnson-cylinder: %.2f Newton steps per force on average\n", (double) steps / NEVAL);
    fprintf(f, "}, \"johnson_newton_steps\": %.3f, \"sink\": %g}\n", (double) steps / NEVAL, sink);
    return fclose(f) != 0;
}
