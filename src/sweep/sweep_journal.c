/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sweep_journal.c: DIR/sweep.journal, what makes a sweep lose nothing (docs/sweeps.md,
 * "Nothing lost"). Its first line tags the sweep: the format's version, the case
 * count, keep_outputs and a 64-bit FNV-1a hash (Fowler, Noll and Vo) of the header,
 * every parameter's values and the model attribute as written. Each finished row is
 * appended with one write() (a killed sweep never leaves half a row but the last)
 * and fsync'd, at once or at most every sync_interval seconds. On resume the journal
 * of the same tag gives back its complete rows (a last line without its newline, cut
 * by a kill, is cut from the file) and only the missing cases run; a journal of
 * another tag is refused. Each resumed row is checked (a NUL byte, its case index, the
 * case given twice, the parameters' values as the specification generates them, a
 * known status, the header's number of fields): a damaged row is skipped with a warning
 * naming DIR/sweep.journal:LINE, and its case runs again. The journal is locked with
 * flock() from its opening (before it is emptied or read) to the end of the run, so
 * that a second sweep into the same directory is refused, naming the holder's pid
 * (found in /proc/locks).
 */
#define _POSIX_C_SOURCE 200809L

#include "sweep/sweep_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* the journal's first line: the version and a hash of every case's overrides and columns */
static void sweep_journal_tag(const sweep_spec *s, char *buf, size_t size)
{
    uint64_t h = 14695981039346656037ull;
    char header[SWEEP_ROW_MAX];

    sweep_header(s, header, sizeof header);
    for (const char *c = header; *c != '\0'; c++)
        h = (h ^ (uint8_t) *c) * 1099511628211ull;
    for (int i = 0; i < s->n_params; i++)
        for (long j = 0; j < s->params[i].n; j++)
            for (const char *c = s->params[i].values[j];; c++) {
                h = (h ^ (uint8_t) *c) * 1099511628211ull;
                if (*c == '\0')
                    break;
            }
    /* the model as the specification writes it: the same sweep started from another
       directory (spec.xml, ./spec.xml, /abs/spec.xml) resumes */
    for (const char *c = s->model_attr; *c != '\0'; c++)
        h = (h ^ (uint8_t) *c) * 1099511628211ull;
    snprintf(buf, size, "# clink sweep journal 1 cases=%ld keep=%d spec=%016llx\n", s->n_cases,
             s->keep, (unsigned long long) h);
}

/* a finished row: kept, appended to the journal with one write and fsync'd. 0 or -1 (errno) */
int sweep_record(sweep_run *run, const char *row)
{
    clink_sweep *sw = run->sw;
    long k = sweep_row_case(row, run->s->n_cases);
    size_t n = strlen(row), off = 0;

    if (k < 0 || sw->rows[k] != NULL)
        return 0;
    while (off < n) {
        ssize_t w = write(run->fd, row + off, n - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return -1;
        off += (size_t) w;
    }
    run->unsynced = 1;
    if (run->opt.sync_interval <= 0 || sweep_now() - run->last_sync >= run->opt.sync_interval) {
        if (fsync(run->fd) != 0)
            return -1;
        run->last_sync = sweep_now();
        run->unsynced = 0;
    }
    sw->rows[k] = strdup(row);
    if (sw->rows[k] == NULL)
        return -1;
    sweep_count(&sw->tally, run->s, row);
    return 0;
}

/* the journal (open and locked) emptied, then holding the tag line */
static clink_status sweep_journal_create(sweep_run *run, const char *path, const char *tag)
{
    if (ftruncate(run->fd, 0) != 0 || write(run->fd, tag, strlen(tag)) != (ssize_t) strlen(tag) ||
        fsync(run->fd) != 0)
        return sweep_fail(run->sw, CLINK_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
    return CLINK_OK;
}

/* the whole file at path, NUL-terminated, in *data (the caller frees it) */
static clink_status sweep_journal_read(clink_sweep *sw, const char *path, char **data, size_t *size)
{
    size_t cap = 0;
    FILE *f = fopen(path, "r");

    *data = NULL;
    *size = 0;
    if (f == NULL)
        return sweep_fail(sw, CLINK_ERR_IO, "%s: cannot read: %s", path, strerror(errno));
    for (;;) {
        size_t r;
        if (cap - *size < 65536) {
            char *d = realloc(*data, cap + 1048576);
            if (d == NULL) {
                free(*data);
                *data = NULL;
                fclose(f);
                return sweep_fail(sw, CLINK_ERR_NOMEM, "out of memory");
            }
            *data = d;
            cap += 1048576;
        }
        r = fread(*data + *size, 1, cap - *size - 1, f);
        *size += r;
        if (r == 0)
            break;
    }
    (*data)[*size] = '\0';
    if (ferror(f)) {
        fclose(f);
        free(*data);
        *data = NULL;
        return sweep_fail(sw, CLINK_ERR_IO, "%s: cannot read: %s", path, strerror(EIO));
    }
    fclose(f);
    return CLINK_OK;
}

/* line (len bytes and its newline) checked: case k's index, or -1 with why */
static long sweep_journal_line(sweep_run *run, const char *line, size_t len, char *why, size_t size)
{
    long k;

    if (memchr(line, '\0', len) != NULL) {
        snprintf(why, size, "a NUL byte in the row");
        return -1;
    }
    k = sweep_row_case(line, run->s->n_cases);
    if (k < 0) {
        snprintf(why, size, "no case index of this sweep (0 .. %ld) at its start",
                 run->s->n_cases - 1);
        return -1;
    }
    if (run->sw->rows[k] != NULL) {
        snprintf(why, size, "case %ld given again (the first row kept)", k);
        return -1;
    }
    return sweep_row_check(run->sw, k, line, why, size) == 0 ? k : -1;
}

/* the journal's complete lines in [line, end) taken, the damaged ones skipped with a
   warning (their cases run again) */
static clink_status sweep_journal_take(sweep_run *run, const char *line, const char *end)
{
    clink_sweep *sw = run->sw;
    char why[200];

    for (long no = 2; line < end; no++) {
        const char *nl = memchr(line, '\n', (size_t) (end - line));
        size_t len = (size_t) (nl - line);
        long k = sweep_journal_line(run, line, len, why, sizeof why);
        if (k < 0) {
            sweep_warn(sw, "%s/sweep.journal:%ld: %s: skipped, its case runs again", run->dir, no,
                       why);
        } else {
            sw->rows[k] = malloc(len + 2);
            if (sw->rows[k] == NULL)
                return sweep_fail(sw, CLINK_ERR_NOMEM, "out of memory");
            memcpy(sw->rows[k], line, len + 1);
            sw->rows[k][len + 1] = '\0';
            sweep_count(&sw->tally, run->s, sw->rows[k]);
        }
        line = nl + 1;
    }
    return CLINK_OK;
}

/* the pid holding the flock() of fd's file (from /proc/locks), or -1 when unknown */
static long sweep_lock_holder(int fd)
{
    struct stat st;
    char line[256];
    long pid = -1;
    FILE *f;

    if (fstat(fd, &st) != 0 || (f = fopen("/proc/locks", "r")) == NULL)
        return -1;
    while (pid < 0 && fgets(line, sizeof line, f) != NULL) {
        char type[16];
        unsigned maj, min;
        unsigned long ino;
        long p;
        if (sscanf(line, "%*d: %15s %*s %*s %ld %x:%x:%lu", type, &p, &maj, &min, &ino) == 5 &&
            strcmp(type, "FLOCK") == 0 && ino == (unsigned long) st.st_ino &&
            maj == major(st.st_dev) && min == minor(st.st_dev))
            pid = p;
    }
    fclose(f);
    return pid;
}

/* the journal at path opened for reading and appending (created if missing) and locked;
   refused when another process holds it */
static clink_status sweep_journal_lock(sweep_run *run, const char *path)
{
    run->fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
    if (run->fd < 0)
        return sweep_fail(run->sw, CLINK_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
    /* the case processes of a coordinator killed a moment ago hold the lock until they
       have ended (they get SIGKILL when it dies, sweep_pool.c): while the lock's owner is
       not a live process it is tried again, for up to 3 s; a live sweep holding it is
       refused at once, and so is one whose case processes still run after 3 s */
    long holder = -1;
    for (int tries = 0;; tries++) {
        if (flock(run->fd, LOCK_EX | LOCK_NB) == 0)
            return CLINK_OK;
        if (errno != EWOULDBLOCK && errno != EINTR)
            return sweep_fail(run->sw, CLINK_ERR_IO, "%s: cannot lock: %s", path, strerror(errno));
        holder = sweep_lock_holder(run->fd);
        if ((holder > 0 && kill((pid_t) holder, 0) == 0) || tries >= 60)
            break;
        struct timespec nap = {0, 50000000L}; /* 50 ms */
        nanosleep(&nap, NULL);
    }
    return sweep_fail(run->sw, CLINK_ERR_STATE,
                      "%s is in use by another sweep (pid %ld): two sweeps into one directory "
                      "would mix their rows; wait for it to end, or give another directory",
                      path, holder);
}

/*
 * Opens and locks DIR/sweep.journal: a new one (the tag line) or, on resume, the existing
 * one, whose complete rows are taken (a last line without its newline, cut by a kill, is
 * dropped from the file).
 */
clink_status sweep_journal_open(sweep_run *run)
{
    char path[4200], tag[200], *data = NULL;
    const sweep_spec *s = run->s;
    size_t size = 0, keep;
    struct stat st;
    clink_status rc;

    snprintf(path, sizeof path, "%s/sweep.journal", run->dir);
    sweep_journal_tag(s, tag, sizeof tag);
    rc = sweep_journal_lock(run, path);
    if (rc != CLINK_OK)
        return rc;
    if (fstat(run->fd, &st) != 0)
        return sweep_fail(run->sw, CLINK_ERR_IO, "%s: cannot read: %s", path, strerror(errno));
    /* a new journal: none before (or an empty one), or no resume asked */
    if (!run->opt.resume || st.st_size == 0)
        return sweep_journal_create(run, path, tag);
    rc = sweep_journal_read(run->sw, path, &data, &size);
    if (rc != CLINK_OK)
        return rc;
    if (size < strlen(tag) || memcmp(data, tag, strlen(tag)) != 0) {
        free(data);
        return sweep_fail(run->sw, CLINK_ERR_STATE,
                          "%s was written by another sweep specification (or another "
                          "version): resume refused; run without --resume to start afresh",
                          path);
    }
    /* complete lines only */
    keep = size;
    while (keep > 0 && data[keep - 1] != '\n')
        keep--;
    rc = sweep_journal_take(run, data + strlen(tag), data + keep);
    free(data);
    if (rc != CLINK_OK)
        return rc;
    if (ftruncate(run->fd, (off_t) keep) != 0)
        return sweep_fail(run->sw, CLINK_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
    return CLINK_OK;
}

/* the journal fsync'd (when rows are unsynced) and closed */
clink_status sweep_journal_close(sweep_run *run)
{
    int bad;

    if (run->fd < 0)
        return CLINK_OK;
    bad = (int) (run->unsynced && fsync(run->fd) != 0) | (int) (close(run->fd) != 0); /* both */
    run->fd = -1;
    if (bad)
        return sweep_fail(run->sw, CLINK_ERR_IO, "%s/sweep.journal: cannot write: %s", run->dir,
                          strerror(errno));
    return CLINK_OK;
}
