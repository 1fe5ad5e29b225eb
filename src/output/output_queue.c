/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * output_queue.c: the writer thread and bounded block queue of output_queue.h. The
 * integrating thread fills blocks of rows; full blocks go through a queue of
 * OUTPUT_QUEUE_BLOCKS - 1 entries to a thread that writes them in order (for results.h5:
 * H5Dset_extent, H5Dwrite and the deflate inside), so that compression overlaps the
 * integration. After a failure the thread writes no more but still frees every block it
 * is handed, so that the integrating thread never waits for nothing.
 *
 * The lock, wait, broadcast and join calls below have their results cast away: POSIX lets
 * them fail only on misuse (a lock or condition not initialised, a recursive or
 * error-checking lock, a thread already joined or the caller itself), which this file
 * never does; the initialisations and the thread's creation, which can fail, are checked.
 *
 * Compiled with HDF5 only (CLINK_HAVE_HDF5): results.h5 is its one user, and the build
 * links POSIX threads only then (cmake/clinkHdf5.cmake).
 */
#define _POSIX_C_SOURCE 200809L /* pthread_sigmask, sigfillset */

#include "output/output_queue.h"

#ifdef CLINK_HAVE_HDF5

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void output_queue_init(output_queue *q, output_queue_write_fn write, void *ctx)
{
    q->write = write;
    q->ctx = ctx;
    q->fill = 0;
    q->threaded = 0;
    q->sync_made = 0;
    q->queued = 0;
    q->head = 0;
    q->stop = 0;
    q->werr[0] = '\0';
    atomic_init(&q->failed, 0);
}

/* the writer thread: writes the queued blocks in order until told to stop */
static void *output_queue_writer(void *arg)
{
    output_queue *q = arg;
    int failed = 0;

    for (;;) {
        size_t n;
        int b, drop;
        (void) pthread_mutex_lock(&q->lock);
        while (q->queued == 0 && q->stop == 0)
            (void) pthread_cond_wait(&q->cond, &q->lock);
        if (q->queued == 0) {
            (void) pthread_mutex_unlock(&q->lock);
            break;
        }
        b = q->head;
        n = q->qrows[b];
        drop = q->stop == 2;
        (void) pthread_mutex_unlock(&q->lock);

        if (!failed && !drop) {
            failed = q->write(q->ctx, b, n, q->werr, sizeof q->werr) != 0;
            if (failed)
                atomic_store_explicit(&q->failed, 1, memory_order_release);
        }

        (void) pthread_mutex_lock(&q->lock);
        q->head = (q->head + 1) % OUTPUT_QUEUE_BLOCKS;
        q->queued--;
        (void) pthread_cond_broadcast(&q->cond);
        (void) pthread_mutex_unlock(&q->lock);
    }
    return NULL;
}

void output_queue_start(output_queue *q)
{
    const char *sync = getenv("CLINK_BENCH_H5_SYNC");
    sigset_t all, old;

    if (sync != NULL && sync[0] != '\0' && strcmp(sync, "0") != 0)
        return;
    if (pthread_mutex_init(&q->lock, NULL) != 0)
        return;
    if (pthread_cond_init(&q->cond, NULL) != 0) {
        pthread_mutex_destroy(&q->lock);
        return;
    }
    q->sync_made = 1;
    if (sigfillset(&all) != 0 || pthread_sigmask(SIG_SETMASK, &all, &old) != 0)
        return;
    q->threaded = pthread_create(&q->thread, NULL, output_queue_writer, q) == 0;
    /* restoring the mask the caller had cannot fail with a mask it gave back itself */
    (void) pthread_sigmask(SIG_SETMASK, &old, NULL);
}

int output_queue_failed(output_queue *q)
{
    return atomic_load_explicit(&q->failed, memory_order_acquire);
}

int output_queue_failure(const output_queue *q, char *err, size_t err_size)
{
    snprintf(err, err_size, "%s", q->werr);
    return -1;
}

int output_queue_hand_over(output_queue *q, size_t rows, char *err, size_t err_size)
{
    int rc = 0;
    if (!q->threaded) {
        rc = q->write(q->ctx, q->fill, rows, q->werr, sizeof q->werr);
        if (rc == 0)
            return 0;
        atomic_store_explicit(&q->failed, 1, memory_order_relaxed);
        return output_queue_failure(q, err, err_size);
    }
    (void) pthread_mutex_lock(&q->lock);
    while (q->queued == OUTPUT_QUEUE_BLOCKS - 1 &&
           !atomic_load_explicit(&q->failed, memory_order_acquire))
        (void) pthread_cond_wait(&q->cond, &q->lock);
    if (atomic_load_explicit(&q->failed, memory_order_acquire))
        rc = -1;
    else {
        q->qrows[q->fill] = rows;
        q->queued++;
        (void) pthread_cond_broadcast(&q->cond);
    }
    (void) pthread_mutex_unlock(&q->lock);
    if (rc != 0)
        return output_queue_failure(q, err, err_size);
    q->fill = (q->fill + 1) % OUTPUT_QUEUE_BLOCKS;
    return 0;
}

void output_queue_join(output_queue *q, int stop)
{
    if (!q->threaded)
        return;
    (void) pthread_mutex_lock(&q->lock);
    q->stop = stop;
    (void) pthread_cond_broadcast(&q->cond);
    (void) pthread_mutex_unlock(&q->lock);
    (void) pthread_join(q->thread, NULL);
    q->threaded = 0;
}

void output_queue_destroy(output_queue *q)
{
    output_queue_join(q, 2);
    if (q->sync_made) {
        pthread_cond_destroy(&q->cond);
        pthread_mutex_destroy(&q->lock);
    }
    q->sync_made = 0;
}

#endif /* CLINK_HAVE_HDF5 */
