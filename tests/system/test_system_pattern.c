/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The pattern of the BDF Newton Jacobian (src/system/system_pattern.c):
 *   - it holds every nonzero entry of the analytic Jacobian d qdd / d(q, v) (dyn_jacobian,
 *     dense) at a state off the constraints, for the shipped BDF models, mechanisms with
 *     joints (one component of the joint graph: dense over its bodies) and a chain of
 *     overlapping discs (every Hertz contact active);
 *   - for the chain of free discs it is sized by what couples: a disc's columns hold the
 *     rows of itself and its two neighbours, 3 x 3 x 3 per disc at most, not the N^2 of the
 *     dense columns;
 *   - a user force (which may couple anything) makes it dense and changes its version, and
 *     the simulation still runs with BDF after the switch;
 *   - the values the integrator gets (system_jacobian: by columns, the force derivatives
 *     by body blocks, the saddle solves shared by columns of disjoint joint components) are
 *     exactly the dense dyn_jacobian's at every entry of the pattern, on a chain whose discs
 *     are jointed in groups of three (one group pinned to the ground), with Hertz contacts
 *     between the groups and spring-dampers across them, and on the shipped BDF models.
 */
#include "ensure.h"

#include "clink/sim.h"
#include "clink/xml.h"
#include "sim/sim_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* a chain of n discs 4.9 mm apart (radius 2.5 mm: 0.1 mm overlap), no gravity, BDF */
static clink_model *disc_chain(int n)
{
    size_t cap = 4096 + (size_t) n * 400, len = 0;
    char *x = malloc(cap);
    if (!x)
        return NULL;
    len += (size_t) snprintf(
        x + len, cap - len,
        "<mechanism name=\"chain\"><settings t_end=\"1e-6\" output_step=\"1e-6\" method=\"bdf\"/>"
        "<gravity g=\"0 0\"/><materials><material name=\"steel\" E=\"200e9\" nu=\"0.3\" "
        "density=\"7800\"/></materials><bodies><ground material=\"steel\"/>");
    for (int i = 0; i < n; i++)
        len += (size_t) snprintf(x + len, cap - len,
                                 "<body name=\"b%d\" mass=\"0.001\" inertia=\"1e-9\" x=\"%.4f\" "
                                 "y=\"%.5f\" vx=\"%d\" material=\"steel\"/>",
                                 i, i * 0.0049, 1e-5 * (i % 3), i == 0);
    len += (size_t) snprintf(x + len, cap - len, "</bodies><contacts>");
    for (int i = 1; i < n; i++)
        len += (size_t) snprintf(x + len, cap - len,
                                 "<pair name=\"c%d\"><circle body=\"b%d\" radius=\"0.0025\"/>"
                                 "<circle body=\"b%d\" radius=\"0.0025\"/><law name=\"hertz\"/>"
                                 "</pair>",
                                 i, i - 1, i);
    len += (size_t) snprintf(x + len, cap - len, "</contacts></mechanism>");
    clink_model *m = NULL;
    char err[512];
    if (clink_xml_load_memory(x, len, "chain.xml", &m, NULL, err, sizeof err) != CLINK_OK)
        printf("disc chain: %s\n", err);
    free(x);
    return m;
}

/*
 * a chain of n discs as disc_chain, the discs joined in groups of three by revolute
 * joints at their touching points, the first group pinned to the ground, a Hertz contact
 * between the groups' neighbours, a spring-damper from each group's first disc to the
 * next group's last, gravity on
 */
static clink_model *jointed_chain(int n)
{
    size_t cap = 4096 + (size_t) n * 800, len = 0;
    char *x = malloc(cap);
    if (!x)
        return NULL;
    len += (size_t) snprintf(
        x + len, cap - len,
        "<mechanism name=\"jchain\"><settings t_end=\"1e-6\" output_step=\"1e-6\" "
        "method=\"bdf\"/><materials><material name=\"steel\" E=\"200e9\" nu=\"0.3\" "
        "density=\"7800\"/></materials><bodies><ground material=\"steel\"/>");
    for (int i = 0; i < n; i++)
        len += (size_t) snprintf(x + len, cap - len,
                                 "<body name=\"b%d\" mass=\"0.001\" inertia=\"1e-9\" x=\"%.4f\" "
                                 "vx=\"%g\" omega=\"%g\" material=\"steel\"/>",
                                 i, i * 0.0049, i < 3 ? 0.0 : 0.1 * (i % 5), 0.0);
    len += (size_t) snprintf(x + len, cap - len, "</bodies><joints>");
    len += (size_t) snprintf(x + len, cap - len,
                             "<revolute name=\"pin\" body1=\"ground\" point1=\"-0.00245 0\" "
                             "body2=\"b0\" point2=\"-0.00245 0\"/>");
    for (int i = 1; i < n; i++)
        if (i % 3)
            len += (size_t) snprintf(x + len, cap - len,
                                     "<revolute name=\"j%d\" body1=\"b%d\" point1=\"0.00245 0\" "
                                     "body2=\"b%d\" point2=\"-0.00245 0\"/>",
                                     i, i - 1, i);
    len += (size_t) snprintf(x + len, cap - len, "</joints><contacts>");
    for (int i = 3; i < n; i += 3)
        len += (size_t) snprintf(x + len, cap - len,
                                 "<pair name=\"c%d\"><circle body=\"b%d\" radius=\"0.0025\"/>"
                                 "<circle body=\"b%d\" radius=\"0.0025\"/><law name=\"hertz\"/>"
                                 "</pair>",
                                 i, i - 1, i);
    len += (size_t) snprintf(x + len, cap - len, "</contacts><loads>");
    for (int i = 0; i + 5 < n; i += 3)
        len += (size_t) snprintf(x + len, cap - len,
                                 "<spring_damper name=\"s%d\" body1=\"b%d\" point1=\"0 0.001\" "
                                 "body2=\"b%d\" point2=\"0.001 0\" stiffness=\"50\" "
                                 "damping=\"0.01\" length=\"0.02\"/>",
                                 i, i, i + 5);
    len += (size_t) snprintf(x + len, cap - len, "</loads></mechanism>");
    clink_model *m = NULL;
    char err[512];
    if (clink_xml_load_memory(x, len, "jchain.xml", &m, NULL, err, sizeof err) != CLINK_OK)
        printf("jointed chain: %s\n", err);
    free(x);
    return m;
}

/* the simulation of m with method BDF (projection) */
static clink_sim *bdf_sim(const clink_model *m)
{
    clink_settings_def set = clink_model_settings(m);
    set.method = CLINK_METHOD_BDF;
    set.drift = CLINK_DRIFT_PROJECTION;
    clink_sim *sim = NULL;
    char err[512];
    if (clink_sim_create(m, &set, &sim, err, sizeof err) != CLINK_OK)
        printf("create: %s\n", err);
    return sim;
}

/* nonzero entries of the analytic Jacobian outside the pattern (off the constraints by
   1e-6 in positions, 1e-4 in rates); -1 if it cannot be evaluated */
static long entries_outside(clink_sim *sim)
{
    mechsys *s = sim->sys;
    int nf = s->nq, nr = s->nr;
    const int *rows = NULL;
    long version = 0;
    const long *ptr = system_jacobian_pattern(s, &rows, &version);
    double *w = malloc((2 * (size_t) nf * (size_t) nf + 2 * (size_t) nf) * sizeof(double));
    if (!ptr || !w) {
        free(w);
        return -1;
    }
    double *jq = w, *jv = w + (size_t) nf * nf, *q = jv + (size_t) nf * nf, *v = q + nf;
    for (int i = 0; i < nf; i++) {
        q[i] = sim->out.y[i] + 1e-6 * sin(1.0 + i);
        v[i] = sim->out.y[nf + i] + 1e-4 * cos(2.0 + i);
    }
    long out = 0;
    if (dyn_jacobian(s->dyn, 1e-4, q, v, jq, jv) != CLINK_OK)
        out = -1;
    for (int j = 0; j < nr && out >= 0; j++) {
        int c = s->red[j];
        for (int i = 0; i < nr; i++) {
            double a = jq[(size_t) c * nf + s->red[i]], b = jv[(size_t) c * nf + s->red[i]];
            if ((a != 0.0 || b != 0.0) && system_pattern_find(s, j, i) < 0)
                out++;
        }
    }
    free(w);
    return out;
}

TEST(the_jacobian_pattern_holds_every_nonzero_of_the_analytic_jacobian)
{
    static const char *files[] = {"ball_drop",
                                  "box_drop",
                                  "double_pendulum_impact",
                                  "n_four_bar",
                                  "slider_crank_clearance_wang_liu",
                                  "four_bar",
                                  "slider_crank_clearance",
                                  "granular_chain",
                                  "slider_crank_translational_clearance"};
    for (size_t k = 0; k < sizeof files / sizeof *files; k++) {
        char path[512], err[512];
        snprintf(path, sizeof path, "%s/models/%s.xml", CLINK_SOURCE_DIR, files[k]);
        clink_model *m = clink_model_load_xml(path, err, sizeof err);
        ENSURE(m != NULL);
        clink_sim *sim = m ? bdf_sim(m) : NULL;
        ENSURE(sim != NULL);
        if (sim) {
            long out = entries_outside(sim);
            printf("%-40s nr %d, pattern %ld entries, %ld nonzeros outside\n", files[k],
                   sim->sys->nr, sim->sys->pat_ptr[sim->sys->nr], out);
            ENSURE(out == 0);
        }
        clink_sim_destroy(&sim);
        clink_model_destroy(&m);
    }
}

TEST(the_jacobian_pattern_of_a_chain_of_free_discs_holds_neighbours_only)
{
    enum { N = 40 };
    clink_model *m = disc_chain(N);
    ENSURE(m != NULL);
    clink_sim *sim = m ? bdf_sim(m) : NULL;
    ENSURE(sim != NULL);
    if (sim) {
        mechsys *s = sim->sys;
        long out = entries_outside(sim);
        long nnz = s->pat_ptr[s->nr];
        printf("%d discs: nr %d, pattern %ld entries (dense %ld), %ld nonzeros outside\n", N, s->nr,
               nnz, (long) s->nr * (s->Nr - s->nr), out);
        ENSURE(out == 0);
        /* each column: the coordinates of at most three discs */
        for (int j = 0; j < s->nr; j++)
            ENSURE(s->pat_ptr[j + 1] - s->pat_ptr[j] <= 9);
        ENSURE(nnz <= 9L * s->nr);
        /* and it runs */
        ENSURE(clink_sim_advance(sim, 1e-6) == CLINK_OK);
    }
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

/* a weak linear spring between the first and the last disc's x */
static int end_spring(void *data, double t, int n, const double *q, const double *v, double *f)
{
    (void) data;
    (void) t;
    (void) v;
    memset(f, 0, (size_t) n * sizeof(double));
    double d = q[n - 3] - q[0];
    f[0] = 1e-3 * d;
    f[n - 3] = -1e-3 * d;
    return 0;
}

TEST(a_user_force_makes_the_jacobian_pattern_dense_and_the_run_goes_on)
{
    enum { N = 8 };
    clink_model *m = disc_chain(N);
    clink_sim *sim = m ? bdf_sim(m) : NULL;
    ENSURE(sim != NULL);
    if (!sim) {
        clink_model_destroy(&m);
        return;
    }
    mechsys *s = sim->sys;
    const int *rows = NULL;
    long v0 = 0, v1 = 0;
    ENSURE(system_jacobian_pattern(s, &rows, &v0) != NULL);
    ENSURE(clink_sim_advance(sim, 2e-7) == CLINK_OK);
    ENSURE(clink_sim_set_user_force(sim, "end spring", end_spring, NULL, NULL) == CLINK_OK);
    ENSURE(clink_sim_advance(sim, 1e-6) == CLINK_OK);
    const long *ptr = system_jacobian_pattern(s, &rows, &v1);
    ENSURE(ptr != NULL);
    ENSURE(v1 != v0);
    if (ptr)
        ENSURE(ptr[s->nr] == (long) s->nr * (s->Nr - s->nr));
    ENSURE(entries_outside(sim) == 0);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

/*
 * the largest difference between the integrator's Jacobian (system_jacobian, analytic, by
 * columns) and the dense dyn_jacobian at the pattern's entries, at a state off the
 * constraints (the kept coordinates moved by 1e-6, rates by 1e-4); the count of entries
 * compared into *n; -1 if either cannot be evaluated
 */
static double columns_against_dense(clink_sim *sim, long *n)
{
    mechsys *s = sim->sys;
    int nf = s->nq, nr = s->nr, N = s->N;
    const int *rows = NULL;
    long version = 0;
    const long *ptr = system_jacobian_pattern(s, &rows, &version);
    if (!ptr)
        return -1.0;
    long nnz = ptr[nr];
    size_t nn = (size_t) nf * (size_t) nf;
    double *y =
        malloc((2 * nn + (size_t) N + 3 * (size_t) s->Nr + 2 * (size_t) nnz) * sizeof(double));
    long *start = malloc(2 * (size_t) nr * sizeof *start);
    if (!y || !start) {
        free(y);
        free(start);
        return -1.0;
    }
    double *jq = y + N, *jv = jq + nn, *yr = jv + nn, *f0 = yr + s->Nr, *f1 = f0 + s->Nr;
    double *vals = f1 + s->Nr;
    memcpy(y, sim->out.y, (size_t) N * sizeof(double));
    for (int i = 0; i < nr; i++) {
        y[s->red[i]] += 1e-6 * sin(1.0 + i);
        y[nf + s->red[i]] += 1e-4 * cos(2.0 + i);
    }
    system_reduce(s, y, yr);
    for (int j = 0; j < 2 * nr; j++)
        start[j] = j < nr ? ptr[j] : nnz + ptr[j - nr];
    for (long k = 0; k < 2 * nnz; k++)
        vals[k] = -1.0; /* every entry must be written */
    double worst = -1.0;
    if (system_jacobian(s, 1e-4, yr, f0, f1, vals, start) == 0) {
        memcpy(y, system_full_x(s, yr), 2 * (size_t) nf * sizeof(double));
        if (dyn_jacobian(s->dyn, 1e-4, y, y + nf, jq, jv) == CLINK_OK) {
            worst = 0.0;
            *n = 0;
            for (int j = 0; j < nr; j++)
                for (long k = ptr[j]; k < ptr[j + 1]; k++) {
                    int i = rows[k];
                    size_t at = (size_t) s->red[j] * nf + (size_t) (i < nr ? s->red[i] : 0);
                    double dq = i < nr ? jq[at] : 0.0, dv = i < nr ? jv[at] : 0.0;
                    worst = fmax(worst, fabs(vals[start[j] + k - ptr[j]] - dq));
                    worst = fmax(worst, fabs(vals[start[nr + j] + k - ptr[j]] - dv));
                    *n += 2;
                }
        }
    }
    free(y);
    free(start);
    return worst;
}

/* the model's largest entry of the dense Jacobian is not needed: equal means equal */
TEST(the_jacobian_by_columns_equals_the_dense_one_on_a_jointed_chain_with_contacts)
{
    static const int sizes[] = {7, 30};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        clink_model *m = jointed_chain(sizes[k]);
        ENSURE(m != NULL);
        clink_sim *sim = m ? bdf_sim(m) : NULL;
        ENSURE(sim != NULL);
        if (sim) {
            long n = 0;
            double worst = columns_against_dense(sim, &n);
            printf("jointed chain of %d discs: nr %d, %d constraint rows, %ld entries compared, "
                   "largest difference %.3g\n",
                   sizes[k], sim->sys->nr, sim->sys->nc, n, worst);
            ENSURE(worst == 0.0);
            ENSURE(n > 0);
            ENSURE(clink_sim_advance(sim, 1e-6) == CLINK_OK);
        }
        clink_sim_destroy(&sim);
        clink_model_destroy(&m);
    }
}

TEST(the_jacobian_by_columns_equals_the_dense_one_on_the_shipped_bdf_models)
{
    static const char *files[] = {"ball_drop",      "double_pendulum_impact",
                                  "n_four_bar",     "slider_crank_clearance",
                                  "granular_chain", "slider_crank_translational_clearance"};
    for (size_t k = 0; k < sizeof files / sizeof *files; k++) {
        char path[512], err[512];
        snprintf(path, sizeof path, "%s/models/%s.xml", CLINK_SOURCE_DIR, files[k]);
        clink_model *m = clink_model_load_xml(path, err, sizeof err);
        ENSURE(m != NULL);
        clink_sim *sim = m ? bdf_sim(m) : NULL;
        ENSURE(sim != NULL);
        if (sim) {
            long n = 0;
            double worst = columns_against_dense(sim, &n);
            printf("%-40s %ld entries compared, largest difference %.3g\n", files[k], n, worst);
            ENSURE(worst == 0.0);
            ENSURE(n > 0);
        }
        clink_sim_destroy(&sim);
        clink_model_destroy(&m);
    }
}

/* a cart on a rail between the two stops of a <stop> (two contacts without a friction state)
   and a pendulum on a revolute joint with LuGre friction (a joint friction state) */
static const char stop_and_lugre_xml[] =
    "<mechanism name=\"stop_lugre\"><settings t_end=\"0.05\" output_step=\"0.01\" "
    "method=\"bdf\" rtol=\"1e-8\" atol=\"1e-11\"/><gravity g=\"0 -9.81\"/><bodies>"
    "<body name=\"cart\" mass=\"1\" inertia=\"0.01\" x=\"0\" y=\"0\" vx=\"0.3\"/>"
    "<body name=\"pendulum\" mass=\"0.2\" inertia=\"0.0015\" x=\"0\" y=\"-0.15\"/></bodies>"
    "<joints><translational name=\"rail\" body1=\"ground\" point1=\"0 0\" body2=\"cart\" "
    "point2=\"0 0\" axis=\"1 0\"/><revolute name=\"pin\" body1=\"cart\" point1=\"0 0\" "
    "body2=\"pendulum\" point2=\"0 0.15\" friction_radius=\"0.005\"><friction type=\"lugre\" "
    "mu=\"0.05\" mu_s=\"0.08\" v_s=\"0.01\" sigma0=\"1e5\"/></revolute><stop name=\"track\" "
    "body1=\"ground\" point1=\"0 0\" axis=\"1 0\" body2=\"cart\" point2=\"0 0\" "
    "lower=\"-0.005\" upper=\"0.005\"><law name=\"kelvin-voigt\" K=\"1e6\" c=\"0\"/></stop>"
    "</joints></mechanism>";

/* the columns after the rates hold rate rows only for the contacts' friction states: a
   contact without one (index -1) once claimed the column 2 + (-1), so the two stops' rows
   went into it twice, KLU refused the matrix (CV_LSETUP_FAIL at t = 0) and the column's
   values were never written */
TEST(contacts_without_a_friction_state_add_no_rows_after_the_rates)
{
    clink_model *m = NULL;
    char err[512];
    ENSURE(clink_xml_load_memory(stop_and_lugre_xml, sizeof stop_and_lugre_xml - 1,
                                 "stop_lugre.xml", &m, NULL, err, sizeof err) == CLINK_OK);
    clink_sim *sim = m ? bdf_sim(m) : NULL;
    ENSURE(sim != NULL);
    if (!sim) {
        clink_model_destroy(&m);
        return;
    }
    mechsys *s = sim->sys;
    const int *rows = NULL;
    long version = 0;
    ENSURE(system_jacobian_pattern(s, &rows, &version) != NULL);
    const long *tp = system_jacobian_tail_pattern(s, &rows);
    int nt = s->Nr - 2 * s->nr;
    ENSURE(nt > 2);
    for (int j = 0; tp && j < nt; j++) {
        if (j < 2) /* the energy columns: no contact's */
            ENSURE(tp[j + 1] == tp[j]);
        for (long k = tp[j] + 1; k < tp[j + 1]; k++)
            ENSURE(rows[k] > rows[k - 1]); /* ascending, no repeats */
    }
    /* the cart reaches the upper stop at about 17 ms and bounces */
    ENSURE(clink_sim_advance(sim, 0.05) == CLINK_OK);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

/* a ball pressed 10 um into a beam of one element, moving (at the start): the beam contact's force
   reads three bodies (the element's two nodes and the ball), so the pattern must couple the
   ball with both nodes (src/system/system_state.c, the third body's pairs: without them the
   ball's columns miss the rows of the second node, which no other contact or load couples
   with the ball); the Jacobian by columns equals the dense one there */
static const char ball_on_one_element_xml[] =
    "<mechanism name=\"bob1\"><settings t_end=\"1e-3\" method=\"bdf\"/>"
    "<materials><material name=\"steel\" E=\"207e9\" nu=\"0.3\" density=\"7800\"/>"
    "</materials><bodies><beam name=\"b\" from=\"0 0\" to=\"0.1 0\" elements=\"1\" "
    "area=\"1e-4\" second_moment=\"8.3e-10\" material=\"steel\" damping=\"1e-6\"/>"
    "<body name=\"ball\" mass=\"0.03\" inertia=\"1e-6\" x=\"0.03\" y=\"0.01499\" vy=\"-2\" "
    "material=\"steel\"/></bodies><contacts><beam_contact name=\"hit\" body=\"ball\" "
    "radius=\"0.01\" beam=\"b\" half_thickness=\"0.005\" beam_material=\"steel\">"
    "<law name=\"lankarani-nikravesh\" e=\"0.8\"/></beam_contact></contacts></mechanism>";

TEST(the_jacobian_pattern_holds_a_beam_contacts_third_body)
{
    char err[512];
    clink_model *m = NULL;
    if (clink_xml_load_memory(ball_on_one_element_xml, strlen(ball_on_one_element_xml), "bob1.xml",
                              &m, NULL, err, sizeof err) != CLINK_OK)
        printf("%s\n", err);
    ENSURE(m != NULL);
    clink_sim *sim = m ? bdf_sim(m) : NULL;
    ENSURE(sim != NULL);
    if (sim) {
        clink_contact_info c;
        ENSURE(clink_sim_contact(sim, 0, &c) == CLINK_OK && c.delta > 0.0);
        long out = entries_outside(sim), n = 0;
        printf("ball on one element: pattern %ld entries, %ld nonzeros outside\n",
               sim->sys->pat_ptr[sim->sys->nr], out);
        ENSURE(out == 0);
        double worst = columns_against_dense(sim, &n);
        printf("ball on one element: %ld entries compared, largest difference %.3g\n", n, worst);
        ENSURE(worst == 0.0 && n > 0);
    }
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}
