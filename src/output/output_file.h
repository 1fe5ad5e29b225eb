/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * output_file.h: the buffered text files of the run outputs (the CSV files, summary.json)
 * and text kept in memory (the summary, which goes to two places). Each file has its own
 * 64 KiB buffer, handed to the C library a block at a time; the first failure's errno is
 * kept (err) and later writes are dropped, so a writer reports it once, at its next check.
 * Numbers are written as the shortest decimal that reads back as the same double
 * (src/fmt_double.c).
 */
#ifndef CLINK_OUTPUT_FILE_H
#define CLINK_OUTPUT_FILE_H

#include "fmt_double.h"

#include <stdio.h>

enum { OUTPUT_FILE_BUF = 1 << 16 };

/* one output file with its own buffer; in memory (f NULL, mem 1) the buffer grows */
typedef struct out_file {
    FILE *f;
    char *buf;
    size_t len, cap;
    int mem;
    int err; /* errno of the first failure, 0 while none */
} out_file;

/* creates path (which must not exist) for writing; 0, or -1 with errno */
int output_file_open(out_file *of, const char *path);

/* a file in memory; 0, or -1 when out of memory */
int output_file_memory(out_file *of);

/* the buffer handed to the C library (a file in memory: nothing) */
void output_file_flush(out_file *of);

/* room for n more bytes in memory (doubled when short); on failure err is set and writes go
   to the start of the buffer again (what was written is lost, the error reported) */
void output_file_grow(out_file *of, size_t n);

void output_file_bytes(out_file *of, const char *s, size_t n);
void output_file_str(out_file *of, const char *s);

void output_file_printf(out_file *of, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* flushes and closes; the first failure's errno stays in of->err; the buffer is freed */
void output_file_close(out_file *of);

/* room for n more bytes in the buffer (n <= OUTPUT_FILE_BUF) */
static inline char *output_file_room(out_file *of, size_t n)
{
    if (of->cap - of->len < n) {
        if (of->mem)
            output_file_grow(of, n);
        else
            output_file_flush(of);
    }
    return of->buf + of->len;
}

static inline void output_file_char(out_file *of, char c)
{
    *output_file_room(of, 1) = c;
    of->len++;
}

/* "," and the shortest round-trip decimal of v */
static inline void output_file_num(out_file *of, double v)
{
    char *p = output_file_room(of, OUTPUT_DOUBLE_MAX + 1);
    *p = ',';
    of->len += 1 + output_format_double(v, p + 1);
}

/* the number alone */
static inline void output_file_num0(out_file *of, double v)
{
    of->len += output_format_double(v, output_file_room(of, OUTPUT_DOUBLE_MAX));
}

#endif
