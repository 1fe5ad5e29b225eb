/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * output_queue.h: the writer thread of results.h5 (output_hdf5.c) and its bounded queue of
 * blocks. The caller (the integrating thread) fills block q->fill with rows and hands it
 * over full; the writer thread writes the queued blocks in order through the write
 * function (OUTPUT_QUEUE_BLOCKS blocks in all: one being filled, the others queued or being
 * written), and the caller waits only when every other block is still in flight. Between
 * output_queue_start and output_queue_join only the writer thread calls write (the caller
 * may then call the library the write function uses, HDF5, only after the join). A
 * failure of write is kept (its message) and reported by the next hand-over, or read with
 * output_queue_failed / output_queue_failure. When the thread cannot be started (or
 * CLINK_BENCH_H5_SYNC is set: a benchmark switch, docs/outputs.md) each block is written
 * on the caller's thread as it is handed over; what is written is the same either way.
 */
#ifndef CLINK_OUTPUT_QUEUE_H
#define CLINK_OUTPUT_QUEUE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

/* blocks of rows: one being filled, the others queued for or being written by the writer */
#define OUTPUT_QUEUE_BLOCKS 3

/* writes the rows rows of block b; 0, or -1 with the reason in err */
typedef int (*output_queue_write_fn)(void *ctx, int b, size_t rows, char *err, size_t err_size);

typedef struct output_queue {
    output_queue_write_fn write;
    void *ctx;
    int fill; /* the block being filled (caller's thread) */

    /* the writer thread; threaded 0: blocks are written on the caller's thread */
    int threaded;
    int sync_made; /* 1: lock and cond initialised */
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond;               /* a block queued or written, or stop */
    size_t qrows[OUTPUT_QUEUE_BLOCKS]; /* rows of each queued block (under lock) */
    int queued;                        /* blocks queued or being written (under lock) */
    int head;                          /* the oldest queued block (writer thread) */
    int stop;                          /* 1: finish the queue and end; 2: drop it and end */
    atomic_int failed;                 /* 1 once werr holds the first failure of a write */
    char werr[4400];                   /* written before failed is set, then never again */
} output_queue;

/* q ready, the thread not started: blocks are written on the caller's thread until then */
void output_queue_init(output_queue *q, output_queue_write_fn write, void *ctx);

/*
 * The writer thread started, with every signal blocked in it (they go to the caller's
 * thread). Not started (the caller's thread writes) when CLINK_BENCH_H5_SYNC is set to
 * anything but "0" or when the system refuses a lock, a condition variable or a thread.
 */
void output_queue_start(output_queue *q);

/*
 * Block q->fill, holding rows rows, handed to the writer thread (or written here) and
 * q->fill advanced to the next block to fill. 0, or -1 with the first failure in err.
 */
int output_queue_hand_over(output_queue *q, size_t rows, char *err, size_t err_size);

/* nonzero once a write has failed */
int output_queue_failed(output_queue *q);

/* the first failure's message into err; -1 */
int output_queue_failure(const output_queue *q, char *err, size_t err_size);

/* the writer thread stopped (stop 1: after writing what is queued; 2: dropping it), joined */
void output_queue_join(output_queue *q, int stop);

/* the thread dropped and joined, the lock and condition released */
void output_queue_destroy(output_queue *q);

#endif
