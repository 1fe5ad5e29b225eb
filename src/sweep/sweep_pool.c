/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sweep_pool.c: the sweep's cases in child processes. Each case runs in a child
 * (fork) that writes its row into a pipe and exits, so that a case that fails, or
 * even crashes, never stops the others: a child that dies without a complete row
 * gives a "crashed" row naming its signal or exit status. The coordinator hands out
 * the missing cases one at a time to up to `workers` children (and, through a
 * sweep_remote, to other processes: the MPI ranks), records each finished row
 * (sweep_record: the journal), and polls rather than blocks (see sweep_pause). The
 * children are waited for by their own pids, never by waitpid(-1), so that a caller
 * with children of its own (a Python interpreter) keeps them. A child never outlives its
 * coordinator (PR_SET_PDEATHSIG, Linux) and holds the journal's lock with it
 * (sweep_child_start).
 */
#define _POSIX_C_SOURCE 200809L

#include "sweep/sweep_internal.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* the child's part: case k run, its row written to fd, then _exit */
static void sweep_child_main(const sweep_spec *s, const char *dir, long k, int fd)
{
    char row[SWEEP_ROW_MAX];
    sweep_result res;
    size_t n, off = 0;

    sweep_case_run(s, dir, k, &res);
    sweep_row(s, k, &res, row, sizeof row);
    n = strlen(row);
    while (off < n) {
        ssize_t w = write(fd, row + off, n - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            _exit(3);
        off += (size_t) w;
    }
    _exit(0);
}

/* forks a child that runs case k and writes its row to a pipe; 0, or -1 with errno. The
   child ends with its coordinator: it asks for SIGKILL when its parent dies
   (PR_SET_PDEATHSIG; a parent already gone before the request is seen by getppid), and it
   keeps the journal's descriptor, so that the journal's lock (flock: one lock for every
   descriptor of the open file) lasts until the last process of a killed sweep has ended and
   a resume never runs a case that a process of the killed sweep still runs */
int sweep_child_start(const sweep_spec *s, const char *dir, long k, int ignore_sigint,
                      sweep_child *c)
{
    int p[2];
    pid_t pid, parent = getpid();

    if (pipe(p) != 0)
        return -1;
    fflush(NULL);
    pid = fork();
    if (pid < 0) {
        int e = errno;
        close(p[0]);
        close(p[1]);
        errno = e;
        return -1;
    }
    if (pid == 0) {
        close(p[0]);
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
            _exit(3);
        if (ignore_sigint)
            signal(SIGINT, SIG_IGN);
        sweep_child_main(s, dir, k, p[1]);
    }
    close(p[1]);
    c->pid = pid;
    c->fd = p[0];
    c->k = k;
    return 0;
}

/* the row of a child that has ended with wait status ws (a "crashed" row if it gave none) */
static void sweep_child_row(const sweep_spec *s, sweep_child *c, int ws, double wall, char *row,
                            size_t size)
{
    size_t n = 0;
    ssize_t r;

    while (n + 1 < size &&
           ((r = read(c->fd, row + n, size - 1 - n)) > 0 || (r < 0 && errno == EINTR)))
        if (r > 0)
            n += (size_t) r;
    row[n] = '\0';
    close(c->fd);
    if (!(WIFEXITED(ws) && WEXITSTATUS(ws) == 0) || n == 0 || row[n - 1] != '\n') {
        sweep_result res;
        memset(&res, 0, sizeof res);
        res.status = "crashed";
        if (WIFSIGNALED(ws))
            snprintf(res.cause, sizeof res.cause, "the case's process was killed by signal %d (%s)",
                     WTERMSIG(ws), strsignal(WTERMSIG(ws)));
        else
            snprintf(res.cause, sizeof res.cause, "the case's process exited with status %d",
                     WIFEXITED(ws) ? WEXITSTATUS(ws) : -1);
        res.wall = wall;
        sweep_row(s, c->k, &res, row, size);
    }
    c->pid = 0;
}

/*
 * Waits for one of the children: without block, the first of them that has ended
 * (polled by pid); with block, the first live one. Its slot index with its row, or -1
 * if none ended.
 */
int sweep_child_reap(const sweep_spec *s, sweep_child *kids, int n_kids, int block, char *row,
                     size_t size)
{
    for (int i = 0; i < n_kids; i++) {
        int ws;
        pid_t pid;
        if (kids[i].pid == 0)
            continue;
        do
            pid = waitpid(kids[i].pid, &ws, block ? 0 : WNOHANG);
        while (pid < 0 && errno == EINTR);
        if (pid == kids[i].pid) {
            sweep_child_row(s, &kids[i], ws, 0.0, row, size);
            return i;
        }
        if (block)
            return -1;
    }
    return -1;
}

/* the running children killed and waited for, their rows not recorded */
static void sweep_children_kill(sweep_child *kids, int n_kids)
{
    for (int i = 0; i < n_kids; i++) {
        if (kids[i].pid == 0)
            continue;
        kill(kids[i].pid, SIGKILL);
        while (waitpid(kids[i].pid, NULL, 0) < 0 && errno == EINTR)
            ;
        close(kids[i].fd);
        kids[i].pid = 0;
    }
}

/* the next missing case to hand out, or -1 when none is left (or the run has failed) */
long sweep_next_case(sweep_run *run)
{
    if (run->status != CLINK_OK)
        return -1;
    while (run->next < run->s->n_cases && run->sw->rows[run->next] != NULL)
        run->next++;
    return run->next < run->s->n_cases ? run->next++ : -1;
}

/* the progress callback told of the cases done: 1 if it asks to stop, else 0 */
int sweep_progress(sweep_run *run)
{
    run->last_progress = sweep_now();
    if (run->opt.progress == NULL)
        return 0;
    return run->opt.progress(run->opt.progress_ctx, run->sw->tally.done, run->s->n_cases) != 0;
}

/* cases started in the free local slots while the run is sound */
static void sweep_fill_slots(sweep_run *run, sweep_child *kids, int jobs, int *running)
{
    long k;

    for (int i = 0; i < jobs && run->status == CLINK_OK; i++) {
        if (kids[i].pid != 0 || (k = sweep_next_case(run)) < 0)
            continue;
        if (sweep_child_start(run->s, run->dir, k, run->opt.children_ignore_sigint, &kids[i]) !=
            0) {
            sweep_fail(run->sw, CLINK_ERR_INTERNAL, "cannot start a process: %s", strerror(errno));
            run->status = CLINK_ERR_INTERNAL;
            break;
        }
        (*running)++;
    }
}

/* a finished local child's row recorded: 1 if one finished, 0 if none */
static int sweep_reap_local(sweep_run *run, sweep_child *kids, int jobs, int *running)
{
    char row[SWEEP_ROW_MAX];
    int slot = sweep_child_reap(run->s, kids, jobs, 0, row, sizeof row);

    if (slot < 0)
        return 0;
    (*running)--;
    if (sweep_record(run, row) != 0 && run->status == CLINK_OK) {
        sweep_fail(run->sw, CLINK_ERR_IO, "%s/sweep.journal: cannot write: %s", run->dir,
                   strerror(errno));
        run->status = CLINK_ERR_IO;
    }
    return 1;
}

/* the pause after a coordinator's round: none after progress, else one that doubles */
static void sweep_pause(int progressed, long *pause_ns)
{
    /* polled, not blocked in waitpid: on the loaded 2-core machine of docs/sweeps.md,
       64 short cases on -j 2 took 1.8 s (median of 4) with polling, 2.3 s with a blocking
       waitpid; the pause doubles while nothing happens (50 us .. 1 ms) so that long
       cases cost the coordinator next to nothing */
    if (progressed) {
        *pause_ns = 50000;
    } else {
        struct timespec ts = {0, *pause_ns};
        nanosleep(&ts, NULL);
        *pause_ns = *pause_ns < 500000 ? 2 * *pause_ns : 1000000;
    }
}

/* the run stopped by its progress callback: the local cases killed, nothing more handed out */
static void sweep_stop(sweep_run *run, sweep_child *kids, int jobs, int *running)
{
    sweep_children_kill(kids, jobs);
    *running = 0;
    if (run->status == CLINK_OK) {
        sweep_fail(run->sw, CLINK_ERR_STATE,
                   "interrupted: %ld of %ld cases done, kept in %s/sweep.journal (resume to "
                   "run the others)",
                   run->sw->tally.done, run->s->n_cases, run->dir);
        run->status = CLINK_ERR_STATE;
    }
}

/* runs the queue to its end on up to `workers` children (and the remote processes) */
clink_status sweep_coordinate(sweep_run *run, sweep_remote *remote)
{
    int jobs = run->opt.workers, running = 0;
    sweep_child *kids = calloc((size_t) jobs, sizeof *kids);
    long pause_ns = 50000;

    if (kids == NULL)
        return run->status = sweep_fail(run->sw, CLINK_ERR_NOMEM, "out of memory");
    if (sweep_progress(run))
        sweep_stop(run, kids, jobs, &running);
    for (;;) {
        int progressed = 0, active = remote != NULL ? remote->active : 0;
        sweep_fill_slots(run, kids, jobs, &running);
        if (running == 0 && active == 0)
            break;
        if (active > 0 && remote->serve(run, remote))
            progressed = 1;
        if (running > 0 && sweep_reap_local(run, kids, jobs, &running))
            progressed = 1;
        if ((progressed || sweep_now() - run->last_progress >= 0.1) && sweep_progress(run))
            sweep_stop(run, kids, jobs, &running);
        sweep_pause(progressed, &pause_ns);
    }
    free(kids);
    return run->status;
}
