/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim_snapshot.c: state snapshots (include/clink/sim.h, "state snapshots"):
 * clink_sim_state_size, clink_sim_state_save, clink_sim_state_restore.
 *
 * A snapshot holds everything a continuation reads: the output time and full state (the
 * coordinates, rates, the works and the contacts' dissipation integrals, the audit), what
 * the output computed (accelerations, multipliers, energies, violations, contact
 * information, the output level and contact list), the contacts' state machine
 * (contacts_snapshot.c), the stop time, the progress guarantees' counters, the
 * integrator's counters, the findings and the rank-revealing solver's stickiness.
 *
 * The integrator's history is not in it: CVODE has no public call that saves its
 * Nordsieck array, step size and order. A save therefore makes a restart point in the
 * saved simulation too: the integrator is re-initialised at the output time with the
 * output state (the `reinit` op of src/integrators/integrator.h, as at a contact event),
 * a root found beyond the output time is dropped (the restarted integrator finds it
 * again), and the saddle-point solver forgets its factorisation and pivot order
 * (dyn_restart). A restore makes the same restart from the same data, so the saved and
 * the restored simulation continue bit for bit alike. The cost: each save restarts the
 * integrator at order 1 with a small first step (a few extra steps and one Jacobian,
 * like a contact event), and the saved run's later bits differ from those of a run
 * never saved. clink_sim_state_peek writes the same bytes without the restart: the
 * peeked run continues bit for bit as one never saved, and a restore of its snapshot
 * continues from the same state after a restart (within the integrator's tolerances of
 * the peeked run, not bit for bit).
 *
 * A snapshot is restored into a simulation of the same method and drift control, but a
 * simulation whose method is auto and switches while running (sim_auto.c) takes one of the
 * other of Adams and BDF: its integrator is re-created with the snapshot's method before the
 * restart, and the switcher counts from the restored steps (snap_auto_restored).
 *
 * Layout: a header of SNAP_HEADER bytes (magic, version, byte order and sizes, total
 * size, the model's hash, a checksum of the rest; FNV-1a 64, Fowler, Noll and Vo), then
 * the data in the order written below, in the machine's byte order.
 */
#include "sim/sim_internal.h"
#include "contacts/contacts_snapshot.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#define SNAP_VERSION 2u
#define SNAP_ORDER   0x01020304u
#define SNAP_HEADER  48u
static const char snap_magic[8] = {'C', 'L', 'I', 'N', 'K', 'S', 'N', 'P'};

/* ---- hashes ------------------------------------------------------------------------ */

#define SNAP_FNV_BASIS 0xcbf29ce484222325ull

/* the model a simulation runs: every entity's count and names, the bodies' definitions,
   gravity, the contacts' names, laws and parameters, the state's layout and the assembled initial
   coordinates (these carry the joints' geometry) */
static uint64_t snap_model_hash(const clink_sim *s)
{
    const clink_model *m = s->m;
    const mechsys *sys = s->sys;
    uint64_t h = SNAP_FNV_BASIS;
    for (int kind = 0; kind < CLINK_ENTITY_COUNT_; kind++) {
        int n = clink_model_count(m, (clink_entity) kind);
        h = snap_fnv(h, &n, sizeof n);
        for (int i = 0; i < n; i++) {
            const char *name = clink_model_name(m, (clink_entity) kind, i);
            if (name)
                h = snap_fnv(h, name, strlen(name) + 1);
        }
    }
    for (int i = 0; i < clink_model_count(m, CLINK_ENTITY_BODY); i++) {
        clink_body_def b;
        if (clink_model_body(m, i, &b) != CLINK_OK)
            continue;
        double v[8] = {b.mass, b.inertia, b.x, b.y, b.phi, b.vx, b.vy, b.omega};
        h = snap_fnv(h, v, sizeof v);
    }
    double g[2];
    clink_model_gravity(m, &g[0], &g[1]);
    h = snap_fnv(h, g, sizeof g);
    for (int k = 0; k < sys->ncon; k++) {
        const char *name = clink_model_contact_name(m, k);
        if (name)
            h = snap_fnv(h, name, strlen(name) + 1);
    }
    if (sys->ncon)
        h = contacts_snapshot_hash(sys->sc, h);
    int lay[4] = {sys->nq, sys->nc, sys->N, sys->Nr};
    h = snap_fnv(h, lay, sizeof lay);
    h = snap_fnv(h, sys->red, (size_t) sys->nr * sizeof *sys->red);
    return snap_fnv(h, sys->q0, (size_t) sys->nq * sizeof *sys->q0);
}

/* ---- the data ---------------------------------------------------------------------- */

/* the layout every part below depends on; a restore compares it */
static void snap_layout(const clink_sim *s, int lay[8])
{
    const mechsys *sys = s->sys;
    int v[8] = {sys->N,
                sys->Nr,
                sys->nr,
                sys->nq,
                sys->nc,
                sys->ncon,
                (int) s->set.method,
                (int) s->set.drift};
    memcpy(lay, v, sizeof v);
}

/* the output level and contact list's scalars (first: a restore makes room for the list) */
static void snap_write_levels(const clink_sim *s, snap_stream *o)
{
    const sim_levels *lv = &s->lv;
    int ints[5] = {(int) lv->level, (int) lv->done, lv->some, lv->nlist, lv->partial};
    snap_put(o, ints, sizeof ints);
}

/* the output state and what the output computed, in stream order: each member's address and
   size (written from them, read into them: one list for both) */
enum { SNAP_OUTPUT_FIELDS = 9 };
static void snap_output_fields(const clink_sim *s, void *at[SNAP_OUTPUT_FIELDS],
                               size_t size[SNAP_OUTPUT_FIELDS])
{
    clink_sim *w = (clink_sim *) s; /* the reader writes through these */
    const mechsys *sys = s->sys;
    void *const p[SNAP_OUTPUT_FIELDS] = {
        &w->t,          w->out.y,         w->out.qdd,       sys->lambda,
        &w->out.energy, &w->out.viol_pos, &w->out.viol_vel, &w->out.e0,
        w->out.info};
    const size_t z[SNAP_OUTPUT_FIELDS] = {sizeof s->t,
                                          (size_t) sys->N * sizeof(double),
                                          (size_t) sys->nq * sizeof(double),
                                          (size_t) sys->nc * sizeof(double),
                                          sizeof s->out.energy,
                                          sizeof(double),
                                          sizeof(double),
                                          sizeof(double),
                                          (size_t) sys->ncon * sizeof *s->out.info};
    for (int f = 0; f < SNAP_OUTPUT_FIELDS; f++) {
        at[f] = p[f];
        size[f] = z[f];
    }
}

/* the output state and what the output computed */
static void snap_write_output(const clink_sim *s, snap_stream *o)
{
    const mechsys *sys = s->sys;
    void *at[SNAP_OUTPUT_FIELDS];
    size_t size[SNAP_OUTPUT_FIELDS];
    snap_output_fields(s, at, size);
    for (int f = 0; f < SNAP_OUTPUT_FIELDS; f++)
        snap_put(o, at[f], size[f]);
    const sim_levels *lv = &s->lv;
    snap_put(o, lv->list, (size_t) lv->nlist * sizeof(int));
    unsigned char none = 0;
    for (int k = 0; k < sys->ncon; k++)
        snap_put(o, lv->has ? &lv->has[k] : &none, 1);
}

/* the stepping's and the checks' counters */
static void snap_write_counters(const clink_sim *s, snap_stream *o)
{
    snap_put(o, &s->loop.tstop_set, sizeof(int));
    snap_put(o, &s->loop.t_stop, sizeof(double));
    snap_put(o, &s->loop.reinits, sizeof(long));
    long prog[3] = {s->prog.small_steps, s->prog.steps_checked, s->prog.steps_seen};
    snap_put(o, prog, sizeof prog);
    integ_stats st;
    memset(&st, 0, sizeof st); /* its padding too: every byte of a snapshot is defined */
    s->in->ops->stats(s->in, &st);
    snap_put(o, &st, sizeof st);
    long roots[4] = {s->sys->root_calls, s->sys->roots_full, s->sys->roots_partial,
                     s->sys->rhs_jac};
    snap_put(o, roots, sizeof roots);
    int sticky = dyn_history(s->sys->dyn);
    snap_put(o, &sticky, sizeof sticky);
    const sim_checks *c = &s->chk;
    snap_put(o, &c->energy_scale, sizeof(double));
    snap_put(o, &c->gravity0, sizeof(double));
    int ints[4] = {c->energy_level, c->impacts_checked, c->nfindings, c->nimplausible};
    snap_put(o, ints, sizeof ints);
    snap_put(o, &c->nfound, sizeof c->nfound);
    snap_put(o, c->pen_level, (size_t) s->sys->ncon);
    snap_put(o, c->findings, (size_t) c->nfindings * sizeof *c->findings);
}

/* the whole snapshot into o (counting when o->p is NULL) */
static void snap_write(const clink_sim *s, snap_stream *o)
{
    unsigned char header[SNAP_HEADER] = {0};
    snap_put(o, header, sizeof header); /* filled in by snap_seal */
    int lay[8];
    snap_layout(s, lay);
    snap_put(o, lay, sizeof lay);
    snap_write_levels(s, o);
    contacts_snapshot_write(s->sys->sc, o);
    snap_write_output(s, o);
    snap_write_counters(s, o);
    sim_section_snapshot_write(s, o);
}

/* the header of a written snapshot of n bytes at p */
static void snap_seal(const clink_sim *s, unsigned char *p, size_t n)
{
    uint32_t w[4] = {
        SNAP_VERSION, SNAP_ORDER,
        (uint32_t) (sizeof(double) << 24 | sizeof(long) << 16 | sizeof(int) << 8 | sizeof(size_t)),
        0u};
    uint64_t d[3] = {(uint64_t) n, snap_model_hash(s),
                     snap_fnv(SNAP_FNV_BASIS, p + SNAP_HEADER, n - SNAP_HEADER)};
    memcpy(p, snap_magic, sizeof snap_magic);
    memcpy(p + 8, w, sizeof w);
    memcpy(p + 24, d, sizeof d);
}

/* ---- the restart point --------------------------------------------------------------- */

/* the integrator re-initialised at the output state, the saddle-point solver's history
   forgotten unless sticky: what a save, a restore and a state set do (see the top of the
   file); `why` ends the message of a failed restart ("of a state snapshot") */
clink_status sim_restart_at_output(clink_sim *s, int sticky, const char *why)
{
    mechsys *sys = s->sys;
    system_reduce(sys, s->out.y, s->loop.yroot);
    dyn_restart(sys->dyn, sticky);
    s->in->ops->events_changed(s->in);
    int rc = s->in->ops->reinit(s->in, s->t, s->loop.yroot);
    if (rc != 0) {
        char flag[64];
        sim_msg(s, "%s: the restart at t = %.9g s %s failed with %d (%s)", s->in->ops->name, s->t,
                why, rc, s->in->ops->code_name(rc, flag, sizeof flag));
        return CLINK_ERR_SOLVER;
    }
    s->loop.root_pending = 0;
    s->loop.recheck = 0;
    s->loop.at_reinit = 1;
    s->loop.at_tstop = 0;
    if (s->sec)
        sim_section_restart(s, s->t);
    return CLINK_OK;
}

/* ---- save -------------------------------------------------------------------------- */

size_t clink_sim_state_size(const clink_sim *sim)
{
    if (!sim)
        return 0;
    snap_stream o = {0};
    snap_write(sim, &o);
    return o.pos;
}

/* clink_sim_state_save (restart 1) and clink_sim_state_peek (restart 0), the simulation
   held. The bytes written are the same either way: the restart changes the integrator and
   the saddle-point solver's history, none of which a snapshot holds */
static clink_status snap_save(clink_sim *s, void *buf, size_t size, int restart)
{
    size_t need = clink_sim_state_size(s);
    if (!buf || size < need) {
        sim_msg(s,
                "state save: the buffer has %zu bytes, the snapshot needs %zu "
                "(clink_sim_state_size)",
                buf ? size : (size_t) 0, need);
        return CLINK_ERR_RANGE;
    }
    clink_status st =
        restart ? sim_restart_at_output(s, dyn_history(s->sys->dyn), "of a state snapshot")
                : CLINK_OK;
    if (st != CLINK_OK)
        return st;
    snap_stream o = {.p = buf, .cap = size};
    snap_write(s, &o);
    if (o.bad || o.pos != need) {
        sim_msg(s, "state save: wrote %zu bytes of %zu", o.pos, need);
        return CLINK_ERR_INTERNAL;
    }
    snap_seal(s, buf, need);
    return CLINK_OK;
}

/* the state's layout changes with the window of the state (sim_window.c): 1 (and the
   message) when the window runs, else 0 */
static int snap_refused_by_window(clink_sim *sim)
{
    if (!sim->sys->win)
        return 0;
    sim_msg(sim, "state save/restore: not with the window of the state (settings window; it is "
                 "on, or auto chose it: set window=\"off\" to save or restore the state)");
    return 1;
}

clink_status clink_sim_state_save(clink_sim *sim, void *buf, size_t size)
{
    if (!sim)
        return CLINK_ERR_ARG;
    clink_status st = sim_enter(sim, SIM_OP_SNAPSHOT);
    if (st != CLINK_OK)
        return st;
    st = snap_refused_by_window(sim) ? CLINK_ERR_STATE : snap_save(sim, buf, size, 1);
    sim_leave(sim);
    return st;
}

clink_status clink_sim_state_peek(clink_sim *sim, void *buf, size_t size)
{
    if (!sim)
        return CLINK_ERR_ARG;
    clink_status st = sim_enter(sim, SIM_OP_SNAPSHOT);
    if (st != CLINK_OK)
        return st;
    st = snap_refused_by_window(sim) ? CLINK_ERR_STATE : snap_save(sim, buf, size, 0);
    sim_leave(sim);
    return st;
}

/* ---- restore ----------------------------------------------------------------------- */

/* 1 if the layouts lay (the snapshot's) and mine differ in the method alone and the
   simulation may take the snapshot's: its settings say auto and it switches while running
   (sim_auto.c), and the snapshot's method is one it switches between */
static int snap_method_follows(const clink_sim *s, const int lay[8], const int mine[8])
{
    if (!s->aut.on || lay[6] == mine[6] ||
        (lay[6] != (int) CLINK_METHOD_ADAMS && lay[6] != (int) CLINK_METHOD_BDF))
        return 0;
    for (int i = 0; i < 8; i++)
        if (i != 6 && lay[i] != mine[i])
            return 0;
    return 1;
}

/* the header and the layout of the snapshot at p (n bytes) against the simulation; the
   snapshot's method into *method */
static clink_status snap_check(clink_sim *s, const unsigned char *p, size_t n, clink_method *method)
{
    uint32_t w[4];
    uint64_t d[3];
    if (!p || n < SNAP_HEADER + 8 * sizeof(int) || memcmp(p, snap_magic, sizeof snap_magic) != 0) {
        sim_msg(s, "state restore: not a clink state snapshot");
        return CLINK_ERR_PARSE;
    }
    memcpy(w, p + 8, sizeof w);
    memcpy(d, p + 24, sizeof d);
    uint32_t sizes =
        (uint32_t) (sizeof(double) << 24 | sizeof(long) << 16 | sizeof(int) << 8 | sizeof(size_t));
    if (w[0] != SNAP_VERSION || w[1] != SNAP_ORDER || w[2] != sizes) {
        sim_msg(s,
                "state restore: snapshot version %u (this library reads %u) or saved on "
                "another kind of machine",
                (unsigned) w[0], SNAP_VERSION);
        return CLINK_ERR_PARSE;
    }
    if (d[0] != (uint64_t) n ||
        d[2] != snap_fnv(SNAP_FNV_BASIS, p + SNAP_HEADER, n - SNAP_HEADER)) {
        sim_msg(s,
                "state restore: the snapshot is truncated or damaged (%zu bytes given, "
                "%llu saved, checksum)",
                n, (unsigned long long) d[0]);
        return CLINK_ERR_PARSE;
    }
    if (d[1] != snap_model_hash(s)) {
        sim_msg(s,
                "state restore: the snapshot is of another model (model hash %016llx, this "
                "simulation's %016llx)",
                (unsigned long long) d[1], (unsigned long long) snap_model_hash(s));
        return CLINK_ERR_MODEL;
    }
    int lay[8], mine[8];
    memcpy(lay, p + SNAP_HEADER, sizeof lay);
    snap_layout(s, mine);
    *method = (clink_method) lay[6];
    if (memcmp(lay, mine, sizeof lay) != 0 && !snap_method_follows(s, lay, mine)) {
        sim_msg(s,
                "state restore: the snapshot was saved with method %s and drift control %d, "
                "this simulation runs %s and %d%s",
                clink_method_name((clink_method) lay[6]) ? clink_method_name((clink_method) lay[6])
                                                         : "?",
                lay[7], clink_method_name(s->set.method), (int) s->set.drift,
                lay[6] != mine[6] && lay[7] == mine[7]
                    ? " (only a simulation whose method is auto, switching while running, "
                      "takes the snapshot's method)"
                    : "");
        return CLINK_ERR_MODEL;
    }
    return CLINK_OK;
}

/* the output level and contact list's scalars from o */
static void snap_read_levels(clink_sim *s, snap_stream *o)
{
    int ints[5] = {0, 0, 0, 0, 0};
    snap_get(o, ints, sizeof ints);
    sim_levels *lv = &s->lv;
    lv->level = (clink_output_level) ints[0];
    lv->done = (clink_output_level) ints[1];
    lv->some = ints[2];
    lv->nlist = ints[3];
    lv->partial = ints[4];
}

/* the output state and what the output computed, from o */
static void snap_read_output(clink_sim *s, snap_stream *o)
{
    mechsys *sys = s->sys;
    void *at[SNAP_OUTPUT_FIELDS];
    size_t size[SNAP_OUTPUT_FIELDS];
    snap_output_fields(s, at, size);
    for (int f = 0; f < SNAP_OUTPUT_FIELDS; f++)
        snap_get(o, at[f], size[f]);
    sim_levels *lv = &s->lv;
    snap_get(o, lv->list, (size_t) lv->nlist * sizeof(int));
    for (int k = 0; k < sys->ncon; k++) {
        unsigned char has = 0;
        snap_get(o, &has, 1);
        if (lv->has)
            lv->has[k] = has;
    }
}

/* the stepping's and the checks' counters from o; the integrator's into *st, the
   solver's stickiness into *sticky */
static void snap_read_counters(clink_sim *s, snap_stream *o, integ_stats *st, int *sticky)
{
    snap_get(o, &s->loop.tstop_set, sizeof(int));
    snap_get(o, &s->loop.t_stop, sizeof(double));
    snap_get(o, &s->loop.reinits, sizeof(long));
    long prog[3] = {0, 0, 0};
    snap_get(o, prog, sizeof prog);
    s->prog.small_steps = prog[0];
    s->prog.steps_checked = prog[1];
    s->prog.steps_seen = prog[2];
    snap_get(o, st, sizeof *st);
    long roots[4] = {0, 0, 0, 0};
    snap_get(o, roots, sizeof roots);
    s->sys->root_calls = roots[0];
    s->sys->roots_full = roots[1];
    s->sys->roots_partial = roots[2];
    s->sys->rhs_jac = roots[3];
    snap_get(o, sticky, sizeof *sticky);
    sim_checks *c = &s->chk;
    snap_get(o, &c->energy_scale, sizeof(double));
    snap_get(o, &c->gravity0, sizeof(double));
    int ints[4] = {0, 0, 0, 0};
    snap_get(o, ints, sizeof ints);
    c->energy_level = ints[0];
    c->impacts_checked = ints[1];
    c->nfindings = ints[2] < 0 ? 0 : ints[2] > SIM_MAX_FINDINGS ? SIM_MAX_FINDINGS : ints[2];
    c->nimplausible = ints[3];
    snap_get(o, &c->nfound, sizeof c->nfound);
    snap_get(o, c->pen_level, (size_t) s->sys->ncon);
    snap_get(o, c->findings, (size_t) c->nfindings * sizeof *c->findings);
}

/* the output contact list's arrays, when the snapshot has a list and the simulation none
   yet (before anything is changed) */
static clink_status snap_room(clink_sim *s, const unsigned char *p, size_t n)
{
    size_t at = SNAP_HEADER + 8 * sizeof(int);
    int ints[5] = {0, 0, 0, 0, 0};
    if (at > n || n - at < sizeof ints)
        return CLINK_ERR_PARSE;
    memcpy(ints, p + at, sizeof ints);
    if (ints[3] < 0 || ints[3] > s->sys->ncon)
        return CLINK_ERR_PARSE;
    if (s->lv.list || s->sys->ncon == 0)
        return CLINK_OK;
    s->lv.list = calloc((size_t) s->sys->ncon, sizeof(int));
    s->lv.has = calloc((size_t) s->sys->ncon, 1);
    if (!s->lv.list || !s->lv.has) {
        free(s->lv.list);
        free(s->lv.has);
        s->lv.list = NULL;
        s->lv.has = NULL;
        return CLINK_ERR_NOMEM;
    }
    return CLINK_OK;
}

/* every part after the header and the layout from the snapshot at p (n bytes); the
   integrator's counters into *ist, the solver's stickiness into *sticky. On failure parts
   may have been read: the caller reads its backup back */
static clink_status snap_read_all(clink_sim *s, const unsigned char *p, size_t n, integ_stats *ist,
                                  int *sticky)
{
    /* the contacts first, after the levels (they make room for the records) */
    snap_stream o = {.r = p, .cap = n, .pos = SNAP_HEADER + 8 * sizeof(int) + 5 * sizeof(int)};
    clink_status st = contacts_snapshot_read(s->sys->sc, &o);
    if (st == CLINK_OK) {
        snap_stream ol = {.r = p, .cap = n, .pos = SNAP_HEADER + 8 * sizeof(int)};
        snap_read_levels(s, &ol);
        snap_read_output(s, &o);
        snap_read_counters(s, &o, ist, sticky);
        st = sim_section_snapshot_read(s, &o);
    }
    if (st != CLINK_OK || o.bad || o.pos != n)
        return st == CLINK_ERR_NOMEM ? st : CLINK_ERR_PARSE;
    return CLINK_OK;
}

/* auto's switcher after a restore that changed its method, at the restored step count
   `steps`: as at the start of a run (sim_auto_start: the least stay and the checks a switch to
   BDF needs at their first values), with the next check and the stay counted from the restored
   steps; no streak, no measurement running and no measured cost (a snapshot holds none of
   them: on BDF a return to Adams is then decided by the step test alone until Adams's cost is
   measured again); the switch log stays this simulation's */
static void snap_auto_restored(clink_sim *s, long steps)
{
    sim_autorun *a = &s->aut;
    sim_auto_start(s);
    a->steps_check = steps;
    a->steps_switch = steps;
    a->streak = 0;
    a->marked = 0;
    a->rate_adams = 0.0;
    a->rate_bdf = 0.0;
}

/* an auto simulation on one method given a snapshot saved on the other (after a switch
   while running, sim_auto.c): the integrator of the snapshot's method into *out, created at
   the simulation's own time and state (the restart puts it at the snapshot's), nothing of the
   simulation changed yet */
static clink_status snap_other_method(clink_sim *s, clink_method method, integ **out)
{
    clink_method mine = s->set.method;
    s->set.method = method; /* the problem and the configuration of that method */
    integ_problem prob = sim_problem(s);
    integ_config c = sim_config(s);
    s->set.method = mine;
    system_reduce(s->sys, s->out.y, s->loop.yroot);
    clink_status st = CLINK_OK;
    char msg[sizeof s->msg];
    *out = integrator_for(method)->create(&prob, &c, s->t, s->loop.yroot, &st, msg, sizeof msg);
    if (!*out) {
        sim_msg(s, "state restore: the integrator of the snapshot's method %s: %s",
                clink_method_name(method), msg);
        return st != CLINK_OK ? st : CLINK_ERR_SOLVER;
    }
    return CLINK_OK;
}

/* the integrator `in` of `method` in place of the simulation's (docs/kernel.md, "Switched
   while running") */
static void snap_switch_to(clink_sim *s, clink_method method, integ *in)
{
    s->in->ops->destroy(s->in);
    s->in = in;
    s->set.method = method;
}

/* clink_sim_state_restore, the simulation held: all or nothing. The simulation's own data
   are written to a backup first (the same layout); a snapshot whose data turn out not to
   fit is undone by reading the backup back (its records fit the room already made), so a
   refused restore leaves the simulation as it was */
static clink_status snap_restore(clink_sim *s, const unsigned char *p, size_t n)
{
    clink_method method = s->set.method;
    clink_status st = snap_check(s, p, n, &method);
    if (st == CLINK_OK)
        st = snap_room(s, p, n);
    integ *other = NULL; /* the snapshot's method's integrator, when auto switched it */
    if (st == CLINK_OK && method != s->set.method)
        st = snap_other_method(s, method, &other);
    size_t nb = st == CLINK_OK ? clink_sim_state_size(s) : 0;
    unsigned char *backup = st == CLINK_OK ? malloc(nb) : NULL;
    if (st == CLINK_OK && !backup)
        st = CLINK_ERR_NOMEM;
    if (st != CLINK_OK) {
        if (other)
            other->ops->destroy(other);
        if (st == CLINK_ERR_NOMEM)
            sim_msg(s, "state restore: out of memory");
        return st;
    }
    snap_stream b = {.p = backup, .cap = nb};
    snap_write(s, &b);
    integ_stats ist;
    int sticky = 0;
    st = b.bad ? CLINK_ERR_INTERNAL : snap_read_all(s, p, n, &ist, &sticky);
    if (st != CLINK_OK) {
        integ_stats unused;
        int unused_sticky;
        if (!b.bad)
            snap_read_all(s, backup, nb, &unused, &unused_sticky);
        free(backup);
        if (other)
            other->ops->destroy(other);
        sim_msg(s, "state restore: the snapshot's data do not fit this simulation (nothing "
                   "changed)");
        return st;
    }
    free(backup);
    if (other)
        snap_switch_to(s, method, other);
    st = sim_restart_at_output(s, sticky, "of a state snapshot");
    if (st != CLINK_OK)
        return st;
    s->in->ops->set_counters(s->in, &ist);
    if (other)
        snap_auto_restored(s, ist.steps);
    int rc = s->in->ops->set_stop_time(s->in, s->loop.tstop_set ? s->loop.t_stop : INFINITY);
    if (rc != 0) {
        sim_msg(s, "state restore: %s refused the stop time (%d)", s->in->ops->name, rc);
        return CLINK_ERR_SOLVER;
    }
    return CLINK_OK;
}

clink_status clink_sim_state_restore(clink_sim *sim, const void *buf, size_t size)
{
    if (!sim)
        return CLINK_ERR_ARG;
    clink_status st = sim_enter(sim, SIM_OP_SNAPSHOT);
    if (st != CLINK_OK)
        return st;
    st = snap_refused_by_window(sim) ? CLINK_ERR_STATE : snap_restore(sim, buf, size);
    sim_leave(sim);
    return st;
}
