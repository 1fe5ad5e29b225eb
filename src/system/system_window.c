/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * system_window.c: the window of the state (settings window="on"; docs/kernel.md,
 * "Work in proportion to what moves"): the integrator carries only the bodies that are
 * awake, the others asleep with their positions held and their rates zero.
 *
 * It narrows the reduction of system_state.c further: of the coordinates the integrator
 * would carry (the base reduction), it keeps those of the awake bodies, in the same
 * order; a sleeping body's coordinates are held at the values they had when it fell
 * asleep (hq), its rates are 0. The right-hand side is evaluated over the window only:
 * for a model of free bodies and contact pairs (no joints, drivers, force elements or
 * inputs, no constraint: the mass matrix diagonal) the accelerations of an awake body are
 *   qdd_i = Q_i / M_ii + g_i,
 * Q the generalised forces of the window's contacts (those with an awake body) at the
 * full state, M_ii its mass or moment of inertia, g gravity along x or y. The contacts
 * between two sleeping bodies are not evaluated: their forces, the rounding overlaps of
 * bodies touching at rest (1e-16 N on the chain), are dropped.
 *
 * A damped contact's dissipation integral D_k (D_k' its damping power, in the energy
 * components after W_d and W_l) rides in the state while the contact is a window contact:
 * the reduced state is (the awake q, their v, W_d, W_l, the window's contacts' integrals in
 * ascending order); the others are held (hw; rate zero, both bodies at rest). At a layout
 * change every integral is read from the full state and so carried over exactly.
 *
 * The events the integrator sees are the window's contacts' (group j: contact con[j]),
 * so its root scan also runs over the window only. When the window changes, the
 * simulation (src/sim/sim_window.c) re-creates the integrator with the new size.
 */
#include "system/system.h"

#include "integrators/integrator.h"
#include "model/model_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* why the model cannot take the window, NULL if it can */
static const char *system_window_refusal(const mechsys *s)
{
    const model_data *d = &s->m->d;
    if (!(integrator_caps(s->set.method) & CLINK_CAP_RESIZE))
        return "the method cannot resize its state (adams can)";
    if (d->njoints || d->ndrivers || s->nc)
        return "the model has joints or drivers";
    if (d->nforces)
        return "the model has force elements";
    if (d->ninputs)
        return "the model has inputs";
    if (s->N != 2 * s->nq + 2 + contacts_nwork(s->sc))
        return "the state has joint friction states or an audit";
    for (int k = 0; k < s->ncon; k++)
        if (!contacts_window_fits(s->sc, k))
            return "a contact has friction, a lubricant, a bore or an impulse treatment";
    return NULL;
}

/* each body's contacts (incidence lists) and the coordinates' inverse inertias */
static int system_window_tables(mechsys *s, sys_window *w)
{
    int nb = w->nb;
    w->first = calloc((size_t) nb + 1, sizeof(int));
    w->at = calloc((size_t) (2 * s->ncon > 0 ? 2 * s->ncon : 1), sizeof(int));
    if (!w->first || !w->at)
        return -1;
    for (int k = 0; k < s->ncon; k++) {
        int ba = s->rt_body[2 * k], bb = s->rt_body[2 * k + 1];
        w->first[ba + 1]++;
        if (bb != ba)
            w->first[bb + 1]++;
    }
    for (int b = 0; b < nb; b++)
        w->first[b + 1] += w->first[b];
    int *fill = calloc((size_t) nb, sizeof(int));
    if (!fill)
        return -1;
    for (int k = 0; k < s->ncon; k++) {
        int ba = s->rt_body[2 * k], bb = s->rt_body[2 * k + 1];
        w->at[w->first[ba] + fill[ba]++] = k;
        if (bb != ba)
            w->at[w->first[bb] + fill[bb]++] = k;
    }
    free(fill);
    for (int b = 1; b < nb; b++) {
        const clink_body_def *bd = &s->m->d.bodies[b].def;
        w->minv[3 * (b - 1)] = 1.0 / bd->mass;
        w->minv[3 * (b - 1) + 1] = 1.0 / bd->mass;
        w->minv[3 * (b - 1) + 2] = 1.0 / bd->inertia;
    }
    return 0;
}

static void system_window_free(sys_window *w)
{
    if (!w)
        return;
    free(w->awake);
    free(w->bred);
    free(w->hq);
    free(w->con);
    free(w->zc);
    free(w->gq);
    free(w->minv);
    free(w->gall);
    free(w->list);
    free(w->first);
    free(w->at);
    free(w->wk);
    free(w->wc);
    free(w->hw);
    free(w);
}

/* the window's arrays; all bodies awake (the base reduction) */
static sys_window *system_window_alloc(mechsys *s)
{
    sys_window *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    size_t nq1 = (size_t) (s->nq > 0 ? s->nq : 1), nc1 = (size_t) (s->ncon > 0 ? s->ncon : 1);
    w->nb = s->m->d.nbodies;
    w->nr0 = s->nr;
    w->awake = calloc((size_t) w->nb, 1);
    w->bred = malloc(nq1 * sizeof(int));
    w->hq = malloc(nq1 * sizeof(double));
    w->con = malloc(nc1 * sizeof(int));
    w->zc = malloc(nq1 * sizeof(int));
    w->gq = calloc(nq1, sizeof(double));
    w->minv = calloc(nq1, sizeof(double));
    w->gall = calloc(2 * nc1, sizeof(double));
    w->list = malloc(nc1 * sizeof(int));
    w->nwork = contacts_nwork(s->sc);
    w->wk = malloc(nc1 * sizeof(int));
    w->wc = malloc(nc1 * sizeof(int));
    w->hw = calloc((size_t) (w->nwork > 0 ? w->nwork : 1), sizeof(double));
    if (!w->awake || !w->bred || !w->hq || !w->con || !w->zc || !w->gq || !w->minv || !w->gall ||
        !w->list || !w->wk || !w->wc || !w->hw || system_window_tables(s, w) != 0) {
        system_window_free(w);
        return NULL;
    }
    for (int i = 0; i < s->nr; i++)
        w->bred[i] = s->nr == s->nq ? i : s->red[i];
    memcpy(w->hq, s->q0, nq1 * sizeof(double));
    return w;
}

clink_status system_window_create(mechsys *s)
{
    if (!s->set.window)
        return CLINK_OK;
    int automatic = s->set.window == 2;
    const char *why = system_window_refusal(s);
    if (!why && automatic && s->m->d.nbodies - 1 < CLINK_WINDOW_AUTO_BODIES)
        why = "fewer moving bodies than CLINK_WINDOW_AUTO_BODIES";
    if (why) { /* the full state: the documented fallback */
        snprintf(s->win_why, sizeof s->win_why, "%s%s", automatic ? "auto: " : "", why);
        return CLINK_OK;
    }
    sys_window *w = system_window_alloc(s);
    if (!w)
        return CLINK_ERR_NOMEM;
    s->win = w;
    contacts_set_impulse_free(s->sc, 1); /* no constraint: the free bodies' effective mass */
    for (int b = 0; b < w->nb; b++)
        w->awake[b] = b > 0;
    unsigned char *all = w->awake;
    return system_window_layout(s, all, NULL) == 0 ? CLINK_OK : CLINK_ERR_NOMEM;
}

void system_window_destroy(mechsys *s)
{
    system_window_free(s->win);
    s->win = NULL;
}

/* the window's contacts (an awake body), their damping integrals (ascending, as the full
   state orders them) and the coordinates their forces are added to */
static void system_window_contacts(mechsys *s, sys_window *w)
{
    w->ncw = 0;
    w->nzc = 0;
    w->nwk = 0;
    for (int k = 0; k < s->ncon; k++) {
        int ba = s->rt_body[2 * k], bb = s->rt_body[2 * k + 1];
        if (!w->awake[ba] && !w->awake[bb])
            continue;
        w->con[w->ncw++] = k;
        if (contacts_damping_index(s->sc, k) >= 0) {
            w->wk[w->nwk] = contacts_damping_index(s->sc, k);
            w->wc[w->nwk++] = k;
        }
    }
    /* every body of a window contact (bodies > 0), each once: its three coordinates */
    for (int b = 1; b < w->nb; b++) {
        int touched = w->awake[b];
        for (int j = w->first[b]; !touched && j < w->first[b + 1]; j++) {
            int k = w->at[j];
            touched = w->awake[s->rt_body[2 * k]] || w->awake[s->rt_body[2 * k + 1]];
        }
        for (int d = 0; touched && d < 3; d++)
            w->zc[w->nzc++] = 3 * (b - 1) + d;
    }
}

int system_window_layout(mechsys *s, const unsigned char *awake, double *y)
{
    sys_window *w = s->win;
    int nq = s->nq;
    if (y) /* every integral held where it is: those that stay carried are read back */
        memcpy(w->hw, y + 2 * nq + 2, (size_t) w->nwork * sizeof(double));
    for (int b = 1; b < w->nb; b++) {
        if (y && w->awake[b] && !awake[b])
            for (int d = 0; d < 3; d++) { /* falls asleep: held where it is, at rest */
                int c = 3 * (b - 1) + d;
                w->hq[c] = y[c];
                y[nq + c] = 0.0;
            }
    }
    if (awake != w->awake)
        memcpy(w->awake, awake, (size_t) w->nb);
    w->awake[0] = 0;
    w->nawake = 0;
    for (int b = 1; b < w->nb; b++)
        w->nawake += w->awake[b];
    int nr = 0, nf = 0;
    unsigned char *in = calloc((size_t) (nq > 0 ? nq : 1), 1);
    if (!in)
        return -1;
    for (int i = 0; i < w->nr0; i++) {
        int c = w->bred[i];
        if (w->awake[c / 3 + 1]) {
            s->red[nr++] = c;
            in[c] = 1;
        }
    }
    for (int c = 0; c < nq; c++)
        if (!in[c])
            s->fixed[nf++] = c;
    free(in);
    s->nr = nr;
    system_window_contacts(s, w);
    s->Nr = 2 * nr + 2 + w->nwk; /* q, v, W_d, W_l, the window's contacts' integrals */
    for (int c = 0; c < nq; c++)
        s->rt_inv[c] = -1;
    for (int i = 0; i < nr; i++)
        s->rt_inv[s->red[i]] = i;
    s->yx_fixed = 0;
    w->layouts++;
    return 0;
}

int system_window_rhs(mechsys *s, double t, const double *yr, double *yd)
{
    sys_window *w = s->win;
    const double *yy = system_full_x(s, yr);
    int nq = s->nq, nr = s->nr;
    double *g = w->gq;
    for (int i = 0; i < w->nzc; i++)
        g[w->zc[i]] = 0.0;
    if (contacts_forces_some(s->sc, w->con, w->ncw, t, yy, yy + nq, g) != 0) {
        if (contacts_take_failure(s->sc)) {
            system_failed(s, CLINK_ERR_NONFINITE, contacts_error(s->sc));
            return -1;
        }
        return system_failed(s, CLINK_ERR_SOLVER, contacts_error(s->sc));
    }
    const double *grav = s->m->d.gravity;
    memcpy(yd, yr + nr, (size_t) nr * sizeof(double));
    for (int i = 0; i < nr; i++) {
        int c = s->red[i], d = c % 3;
        yd[nr + i] = g[c] * w->minv[c] + (d < 2 ? grav[d] : 0.0);
    }
    yd[2 * nr] = 0.0; /* no drivers, no applied loads but gravity (in the potential) */
    yd[2 * nr + 1] = 0.0;
    for (int j = 0; j < w->nwk; j++) /* the window's contacts' dissipation rates */
        yd[2 * nr + 2 + j] = contacts_damping_rate(s->sc, w->wc[j]);
    return system_finite_rates(s, t, yd);
}

/* ---- the energy components between the layouts ---- */

void system_window_tail_full(const mechsys *s, const double *yr, double *yf)
{
    const sys_window *w = s->win;
    int nq = s->nq, nr = s->nr;
    yf[2 * nq] = yr[2 * nr];
    yf[2 * nq + 1] = yr[2 * nr + 1];
    for (int j = 0; j < w->nwk; j++)
        yf[2 * nq + 2 + w->wk[j]] = yr[2 * nr + 2 + j];
}

void system_window_tail_held(const mechsys *s, double *yf)
{
    memcpy(yf + 2 * s->nq + 2, s->win->hw, (size_t) s->win->nwork * sizeof(double));
}

void system_window_tail_reduce(const mechsys *s, const double *yf, double *yr)
{
    const sys_window *w = s->win;
    int nq = s->nq, nr = s->nr;
    yr[2 * nr] = yf[2 * nq];
    yr[2 * nr + 1] = yf[2 * nq + 1];
    for (int j = 0; j < w->nwk; j++)
        yr[2 * nr + 2 + j] = yf[2 * nq + 2 + w->wk[j]];
}

/* ---- the events of the window's contacts (group j: contact con[j]) ---- */

int system_window_events(mechsys *s, double t, const double *yr, double *g)
{
    sys_window *w = s->win;
    int rc = system_roots(s, t, system_full_x(s, yr), w->con, w->ncw, w->gall);
    for (int j = 0; j < w->ncw; j++) {
        g[2 * j] = w->gall[2 * w->con[j]];
        g[2 * j + 1] = w->gall[2 * w->con[j] + 1];
    }
    return rc;
}

/* the contacts of the listed groups into w->list */
static const int *system_window_map(const sys_window *w, const int *groups, int n)
{
    for (int j = 0; j < n; j++)
        w->list[j] = w->con[groups[j]];
    return w->list;
}

int system_window_event_inputs(mechsys *s, const int *groups, int n, int *pairs)
{
    return system_roots_inputs(s, system_window_map(s->win, groups, n), n, pairs);
}

int system_window_events_some(mechsys *s, double t, const int *groups, int n, double *g)
{
    sys_window *w = s->win;
    int rc = system_roots(s, t, s->rt_y, system_window_map(w, groups, n), n, w->gall);
    for (int j = 0; j < n; j++) {
        int k = w->con[groups[j]];
        g[2 * groups[j]] = w->gall[2 * k];
        g[2 * groups[j] + 1] = w->gall[2 * k + 1];
    }
    return rc;
}

void system_window_directions(mechsys *s, int *dirs)
{
    contacts_root_directions_some(s->sc, s->win->con, s->win->ncw, dirs);
}
