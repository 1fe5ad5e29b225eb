/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The BDF Newton Jacobian of a model with a dynamic friction law (src/integrators/cvode/
 * cvode_setup.c, src/system/system_pattern.c, src/system/system_rhs.c): the clearance
 * slider-crank with LuGre friction (sigma0 = 1e5 1/m, sigma1 = 0.3 s/m, sigma2 = 0.1 N s/m)
 * in its journal-bearing contact, at states where the contact carries force. The Jacobian
 * CVODE's Newton iteration gets (cvode_jacobian_dense) is compared entry by entry with
 * central differences of the whole right-hand side over every component of the state,
 * in the rows of the coordinates, the rates and the friction state (the energy rows are
 * zero by design: the works feed nothing back). The bristle state's column must carry
 * d v' / d z, which the reference shows nonzero: an entry left out of the pattern, or
 * left zero, fails. A user force (the pattern turns dense, its version changes) gives the
 * state's column the new pattern, and the comparison holds there too.
 */
#include "ensure.h"

#include "clink/sim.h"
#include "clink/xml.h"
#include "integrators/cvode/cvode_integ.h"
#include "sim/sim_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* models/slider_crank_clearance.xml with LuGre friction and BDF */
static clink_model *lugre_crank(void)
{
    char path[512], err[512];
    snprintf(path, sizeof path, "%s/models/slider_crank_clearance.xml", CLINK_SOURCE_DIR);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    static char text[16384], out[17408];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    const char *fr = strstr(text, "<friction type=\"coulomb\"");
    const char *end = fr ? strstr(fr, "/>") : NULL;
    const char *adams = strstr(text, "method=\"adams\"");
    if (!end || !adams || adams > fr)
        return NULL;
    snprintf(out, sizeof out,
             "%.*smethod=\"bdf\"%.*s<friction type=\"lugre\" mu=\"0.01\" mu_s=\"0.015\" "
             "v_s=\"1e-3\" sigma0=\"1e5\" sigma1=\"0.3\" sigma2=\"0.1\"/>%s",
             (int) (adams - text), text, (int) (fr - adams - 14), adams + 14, end + 2);
    clink_model *m = NULL;
    if (clink_xml_load_memory(out, strlen(out), "lugre_crank.xml", &m, NULL, err, sizeof err) !=
        CLINK_OK)
        printf("lugre crank: %s\n", err);
    return m;
}

/* the step of a central difference in component j of y (positions, rates, the rest) */
static double step_of(const mechsys *s, int j, double y)
{
    if (j < s->nr)
        return 1e-7 * fmax(fabs(y), 1e-3);
    if (j < 2 * s->nr)
        return 1e-7 * fmax(fabs(y), 1e-2);
    return 1e-2 * fmax(fabs(y), 1e-7); /* 1e-7 m: LuGre's steady deflection here */
}

/* central differences of the right-hand side over each component, steps step_of x scale,
   into C (N x N, column-major); 0 or -1 */
static int differences(mechsys *s, double t, double *y, double scale, double *C, double *fp,
                       double *fm)
{
    int N = s->Nr;
    for (int j = 0; j < N; j++) {
        double yj = y[j], h = scale * step_of(s, j, yj);
        y[j] = yj + h;
        int a = system_rhs(s, t, y, fp);
        y[j] = yj - h;
        int b = system_rhs(s, t, y, fm);
        y[j] = yj;
        if (a != 0 || b != 0)
            return -1;
        for (int i = 0; i < N; i++)
            C[(size_t) j * N + i] = (fp[i] - fm[i]) / (2.0 * h);
    }
    return 0;
}

/*
 * The Jacobian at the simulation's state against central differences of the right-hand
 * side with steps h: the worst entry's error relative to its tolerance, 1e-4 |reference|
 * (the analytic blocks' own differences of the laws, 1e-6 steps) plus 4 times the
 * reference's change when the steps double (its rounding and truncation: the saddle
 * solve's rounding over a step of 1e-10 m is not small where the accelerations are
 * constrained) plus 1e-9 of the row's largest entry plus the larger of 1e-12 of the
 * column's (the rounding of the Jacobian's own differences) and 64 eps max |v'| / h (the
 * accelerations' rounding over the step), into *worst; the largest
 * |d v' / d z| of the reference into *dvdz. 0, or -1 if something cannot be evaluated.
 */
static int compare(clink_sim *sim, double *worst, double *dvdz)
{
    mechsys *s = sim->sys;
    int N = s->Nr, nr = s->nr, wz = contacts_friction_state_index(s->sc, 0);
    double t = clink_sim_time(sim);
    double *J = malloc(3 * (size_t) N * N * sizeof(double));
    double *C = J ? J + (size_t) N * N : NULL, *C2 = C ? C + (size_t) N * N : NULL;
    double *y = malloc(3 * (size_t) N * sizeof(double)), *fp = y ? y + N : NULL;
    double *fm = fp ? fp + N : NULL;
    int rc = -1;
    if (!J || !y || wz < 0 || nr != s->nq)
        goto done;
    memcpy(y, sim->out.y, (size_t) N * sizeof(double));
    if (cvode_jacobian_dense(sim->in, t, y, J) != 0 || differences(s, t, y, 1.0, C, fp, fm) != 0 ||
        differences(s, t, y, 2.0, C2, fp, fm) != 0)
        goto done;
    *worst = *dvdz = 0.0;
    int zrow = 2 * nr + 2 + wz;
    double *colmax = fm, fmax_v = 0.0; /* fm is free now */
    if (system_rhs(s, t, y, fp) != 0)
        goto done;
    for (int i = nr; i < 2 * nr; i++)
        fmax_v = fmax(fmax_v, fabs(fp[i]));
    for (int j = 0; j < N; j++) {
        colmax[j] = 0.0;
        for (int i = 0; i < 2 * nr; i++)
            colmax[j] = fmax(colmax[j], fabs(C[(size_t) j * N + i]));
        /* and the rounding of the accelerations over the step */
        colmax[j] = fmax(1e-12 * colmax[j], 64.0 * 2.2e-16 * fmax_v / step_of(s, j, y[j]));
    }
    for (int i = 0; i < N; i++) {
        if (i >= 2 * nr && i != zrow)
            continue; /* the energies' rows: zero by design */
        double rowmax = 0.0;
        for (int j = 0; j < N; j++)
            rowmax = fmax(rowmax, fabs(C[(size_t) j * N + i]));
        for (int j = 0; j < N; j++) {
            size_t at = (size_t) j * N + i;
            double c = C[at], e = fabs(J[at] - c);
            double r = e / (1e-4 * fabs(c) + 4.0 * fabs(c - C2[at]) + 1e-9 * rowmax + colmax[j]);
            if (r > 1.0 && getenv("JDEBUG"))
                printf("  row %d col %d: J %.6e C %.6e C2 %.6e (rowmax %.3e)\n", i, j, J[at], c,
                       C2[at], rowmax);
            *worst = fmax(*worst, r);
            if (j == zrow && i >= nr && i < 2 * nr)
                *dvdz = fmax(*dvdz, fabs(c));
        }
    }
    rc = 0;
done:
    free(J);
    free(y);
    return rc;
}

TEST(the_bdf_jacobian_with_lugre_friction_matches_central_differences_of_the_whole_rhs)
{
    clink_model *m = lugre_crank();
    ENSURE(m != NULL);
    clink_sim *sim = NULL;
    char err[512];
    if (!m || clink_sim_create(m, NULL, &sim, err, sizeof err) != CLINK_OK) {
        printf("create: %s\n", m ? err : "no model");
        ENSURE(0);
        clink_model_destroy(&m);
        return;
    }
    ENSURE(clink_sim_set_outputs(sim, CLINK_OUTPUT_CONTACTS) == CLINK_OK);
    int checked = 0;
    /* states in the first impacts (the first at 0.23 ms) where the contact pushes */
    for (int k = 1; k <= 400 && checked < 4; k++) {
        if (clink_sim_advance(sim, k * 2e-6) != CLINK_OK)
            break;
        clink_contact_info ci;
        if (clink_sim_contact(sim, 0, &ci) != CLINK_OK || !(ci.delta > 0.0) || !(ci.fn > 1.0))
            continue;
        double worst = 0.0, dvdz = 0.0;
        ENSURE(compare(sim, &worst, &dvdz) == 0);
        printf("t = %.6e s: Fn %.4g N, largest |dv'/dz| %.4g, worst error %.3g of the "
               "tolerance\n",
               clink_sim_time(sim), ci.fn, dvdz, worst);
        ENSURE(dvdz > 1e6); /* the bristle force reaches the accelerations */
        ENSURE(worst <= 1.0);
        checked++;
    }
    ENSURE(checked == 4);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

/* a user force of zero (it makes the pattern dense: the host's forces may couple anything) */
static int no_force(void *data, double t, int n, const double *q, const double *v, double *f)
{
    (void) data;
    (void) t;
    (void) q;
    (void) v;
    memset(f, 0, (size_t) n * sizeof(double));
    return 0;
}

TEST(the_friction_state_column_follows_a_new_pattern_version)
{
    clink_model *m = lugre_crank();
    clink_sim *sim = NULL;
    char err[512];
    if (!m || clink_sim_create(m, NULL, &sim, err, sizeof err) != CLINK_OK) {
        ENSURE(0);
        clink_model_destroy(&m);
        return;
    }
    mechsys *s = sim->sys;
    int wz = contacts_friction_state_index(s->sc, 0);
    const int *rows = NULL, *trows = NULL;
    long v0 = 0, v1 = 0;
    ENSURE(wz >= 0);
    ENSURE(system_jacobian_pattern(s, &rows, &v0) != NULL);
    const long *tp = system_jacobian_tail_pattern(s, &trows);
    ENSURE(tp != NULL);
    /* the journal (rod) and the bearing (slider): the rate rows of their component, which
       the joints make the crank, rod and slider */
    ENSURE(tp != NULL && tp[3 + wz] - tp[2 + wz] == s->nr);
    ENSURE(clink_sim_set_outputs(sim, CLINK_OUTPUT_CONTACTS) == CLINK_OK);
    ENSURE(clink_sim_advance(sim, 2.2e-4) == CLINK_OK);
    ENSURE(clink_sim_set_user_force(sim, "nothing", no_force, NULL, NULL) == CLINK_OK);
    ENSURE(clink_sim_advance(sim, 2.3e-4) == CLINK_OK);
    ENSURE(system_jacobian_pattern(s, &rows, &v1) != NULL);
    ENSURE(v1 != v0);
    tp = system_jacobian_tail_pattern(s, &trows);
    ENSURE(tp != NULL && tp[3 + wz] - tp[2 + wz] == s->nr); /* every rate row */
    clink_contact_info ci;
    ENSURE(clink_sim_contact(sim, 0, &ci) == CLINK_OK && ci.delta > 0.0);
    double worst = 0.0, dvdz = 0.0;
    ENSURE(compare(sim, &worst, &dvdz) == 0);
    printf("dense pattern: largest |dv'/dz| %.4g, worst error %.3g of the tolerance\n", dvdz,
           worst);
    ENSURE(dvdz > 1e6 && worst <= 1.0);
    ENSURE(clink_sim_advance(sim, 3e-4) == CLINK_OK);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}
