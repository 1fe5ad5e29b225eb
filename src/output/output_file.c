/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * output_file.c: the buffered files of the run outputs (output_file.h): created with
 * "wx" (never over an existing file), unbuffered in the C library because the buffer here
 * is handed to write() a block at a time; the first failure's errno kept.
 */
#include "output/output_file.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int output_file_open(out_file *of, const char *path)
{
    of->len = 0;
    of->err = 0;
    of->mem = 0;
    of->cap = OUTPUT_FILE_BUF;
    of->buf = malloc(OUTPUT_FILE_BUF);
    if (of->buf == NULL) {
        errno = ENOMEM;
        return -1;
    }
    of->f = fopen(path, "wx");
    if (of->f == NULL) {
        int e = errno;
        free(of->buf);
        of->buf = NULL;
        errno = e;
        return -1;
    }
    /* the recorder buffers: the stream passes each block straight to write() */
    if (setvbuf(of->f, NULL, _IONBF, 0) != 0) {
        /* harmless: the stream keeps its own buffer as well */
    }
    return 0;
}

void output_file_flush(out_file *of)
{
    if (of->len > 0 && of->err == 0) {
        errno = 0;
        if (fwrite(of->buf, 1, of->len, of->f) != of->len)
            of->err = errno != 0 ? errno : EIO;
    }
    of->len = 0;
}

int output_file_memory(out_file *of)
{
    memset(of, 0, sizeof *of);
    of->mem = 1;
    of->cap = OUTPUT_FILE_BUF;
    of->buf = malloc(OUTPUT_FILE_BUF);
    return of->buf != NULL ? 0 : -1;
}

void output_file_grow(out_file *of, size_t n)
{
    size_t cap = of->cap;
    char *p;
    while (cap - of->len < n)
        cap *= 2;
    p = realloc(of->buf, cap);
    if (p == NULL) {
        if (of->err == 0)
            of->err = ENOMEM;
        of->len = 0;
        return;
    }
    of->buf = p;
    of->cap = cap;
}

void output_file_bytes(out_file *of, const char *s, size_t n)
{
    while (n > 0) {
        size_t chunk = n < OUTPUT_FILE_BUF ? n : OUTPUT_FILE_BUF;
        memcpy(output_file_room(of, chunk), s, chunk);
        of->len += chunk;
        s += chunk;
        n -= chunk;
    }
}

void output_file_str(out_file *of, const char *s)
{
    output_file_bytes(of, s, strlen(s));
}

void output_file_printf(out_file *of, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n > 0)
        output_file_bytes(of, line, (size_t) n < sizeof line ? (size_t) n : sizeof line - 1);
}

void output_file_close(out_file *of)
{
    if (of->f != NULL) {
        output_file_flush(of);
        errno = 0;
        if (fclose(of->f) != 0 && of->err == 0)
            of->err = errno != 0 ? errno : EIO;
        of->f = NULL;
    }
    free(of->buf);
    of->buf = NULL;
}
