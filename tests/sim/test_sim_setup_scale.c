/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The simulation's set-up is linear in the model (issue 28, "Why" 6): a row of 40,000
 * free discs on the x axis with a Hertz contact between neighbours (no gravity, the first
 * moving) is created in well under the time a quadratic set-up took (11 s of CPU for 4e4
 * bodies: each body's turning and kept axes found by scanning every contact, the kept axes
 * by whole passes until nothing changed, one per disc of the row when the motion enters
 * from its far end, 40,000 passes). Both ends are tried: the motion entering from the
 * first disc and from the last one; each simulation then takes a step.
 */
#include "ensure.h"

#include "clink/sim.h"
#include "clink/xml.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { N_DISCS = 40000 };

/* the row of n discs, the one moving at the start first (0) or last (1) */
static clink_model *row_of_discs(int n, int moving_last)
{
    size_t cap = (size_t) n * 260 + 1024, len = 0;
    char *doc = malloc(cap), err[512];
    clink_model *m = NULL;
    if (doc == NULL)
        return NULL;
    len += (size_t) snprintf(doc + len, cap - len,
                             "<mechanism name='row'><settings t_end='1e-6' output_step='1e-6' "
                             "method='adams' drift='none'/><gravity g='0 0'/><materials>"
                             "<material name='steel' E='200e9' nu='0.3'/></materials><bodies>");
    for (int i = 0; i < n; i++)
        len += (size_t) snprintf(doc + len, cap - len,
                                 "<body name='b%d' mass='0.001' inertia='1e-9' x='%.4f' vx='%d' "
                                 "material='steel'/>",
                                 i, i * 0.005, i == (moving_last ? n - 1 : 0));
    len += (size_t) snprintf(doc + len, cap - len, "</bodies><contacts>");
    for (int i = 1; i < n; i++)
        len += (size_t) snprintf(doc + len, cap - len,
                                 "<pair name='c%d'><circle body='b%d' radius='0.0025'/>"
                                 "<circle body='b%d' radius='0.0025'/><law name='hertz'/></pair>",
                                 i, i - 1, i);
    snprintf(doc + len, cap - len, "</contacts></mechanism>");
    if (clink_xml_load_memory(doc, strlen(doc), "row.xml", &m, NULL, err, sizeof err) != CLINK_OK)
        fprintf(stderr, "%s\n", err);
    free(doc);
    return m;
}

static void created_in_linear_time(int moving_last)
{
    clink_model *m = row_of_discs(N_DISCS, moving_last);
    clink_sim *sim = NULL;
    char err[512];
    ENSURE(m != NULL);
    if (!m)
        return;
    clock_t c0 = clock();
    ENSURE(clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_OK);
    double cpu = (double) (clock() - c0) / CLOCKS_PER_SEC;
    /* linear: about 0.1 s here (a few under the sanitizers); quadratic: 11 s */
    ENSURE(cpu < 5.0);
    ENSURE(sim != NULL && clink_sim_advance(sim, 1e-9) == CLINK_OK);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

TEST(a_row_of_40000_discs_with_contacts_is_set_up_in_linear_time)
{
    created_in_linear_time(0);
}

TEST(a_row_of_40000_discs_pushed_from_its_far_end_is_set_up_in_linear_time)
{
    created_in_linear_time(1);
}
