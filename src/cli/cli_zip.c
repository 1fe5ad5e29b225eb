/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cli_zip.c: zip archives with stored members (PKWARE, APPNOTE.TXT, "ZIP File Format
 * Specification"): per member a local file header and its bytes, then the central
 * directory and its end record, every number little-endian. No compression (method 0)
 * and no data descriptor: the CRC-32 and sizes are known before a member is written.
 * Times are 1980-01-01 00:00 so that the same input gives the same archive.
 */
#include "cli_zip.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ZIP_MAX_MEMBERS = 16, ZIP_NAME_MAX = 256 };

typedef struct zip_member {
    char name[ZIP_NAME_MAX];
    uint32_t crc, size, offset;
} zip_member;

struct cli_zip {
    FILE *f;
    zip_member m[ZIP_MAX_MEMBERS];
    int n;
    uint32_t at; /* bytes written */
    int failed;
};

uint32_t cli_crc32(uint32_t crc, const void *data, size_t n)
{
    const unsigned char *p = data;
    crc = ~crc;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

/* n bytes out, counted */
static void zip_put(cli_zip *z, const void *p, size_t n)
{
    if (!z->failed && n && fwrite(p, 1, n, z->f) != n)
        z->failed = errno ? errno : EIO;
    z->at += (uint32_t) n;
}

static void zip_u16(cli_zip *z, unsigned v)
{
    unsigned char b[2] = {(unsigned char) (v & 0xffu), (unsigned char) (v >> 8 & 0xffu)};
    zip_put(z, b, 2);
}

static void zip_u32(cli_zip *z, uint32_t v)
{
    unsigned char b[4] = {(unsigned char) (v & 0xffu), (unsigned char) (v >> 8 & 0xffu),
                          (unsigned char) (v >> 16 & 0xffu), (unsigned char) (v >> 24)};
    zip_put(z, b, 4);
}

cli_zip *cli_zip_open(const char *path)
{
    cli_zip *z = calloc(1, sizeof *z);
    if (!z)
        return NULL;
    z->f = fopen(path, "wb");
    if (!z->f) {
        int e = errno;
        free(z);
        errno = e;
        return NULL;
    }
    return z;
}

/* the fields local and central headers share: version 2.0, no flags, stored, the time,
   CRC and sizes, the name's length */
static void zip_common(cli_zip *z, const zip_member *m)
{
    zip_u16(z, 20);
    zip_u16(z, 0);
    zip_u16(z, 0);
    zip_u16(z, 0);      /* 00:00:00 */
    zip_u16(z, 0x0021); /* 1980-01-01 */
    zip_u32(z, m->crc);
    zip_u32(z, m->size);
    zip_u32(z, m->size);
    zip_u16(z, (unsigned) strlen(m->name));
}

int cli_zip_add(cli_zip *z, const char *name, const void *data, size_t n)
{
    if (z->n == ZIP_MAX_MEMBERS || strlen(name) >= ZIP_NAME_MAX || n > 0xffffffffu - z->at) {
        errno = EFBIG;
        return -1;
    }
    zip_member *m = &z->m[z->n++];
    snprintf(m->name, sizeof m->name, "%s", name);
    m->crc = cli_crc32(0, data, n);
    m->size = (uint32_t) n;
    m->offset = z->at;
    zip_u32(z, 0x04034b50u);
    zip_common(z, m);
    zip_u16(z, 0); /* no extra field */
    zip_put(z, m->name, strlen(m->name));
    zip_put(z, data, n);
    if (z->failed) {
        errno = z->failed;
        return -1;
    }
    return 0;
}

int cli_zip_close(cli_zip *z)
{
    uint32_t start = z->at;
    for (int i = 0; i < z->n; i++) {
        const zip_member *m = &z->m[i];
        zip_u32(z, 0x02014b50u);
        zip_u16(z, 3u << 8 | 20u); /* made by: Unix, 2.0 */
        zip_common(z, m);
        zip_u16(z, 0);              /* extra */
        zip_u16(z, 0);              /* comment */
        zip_u16(z, 0);              /* disk */
        zip_u16(z, 0);              /* internal attributes */
        zip_u32(z, 0100644u << 16); /* external: a regular file, rw-r--r-- */
        zip_u32(z, m->offset);
        zip_put(z, m->name, strlen(m->name));
    }
    uint32_t size = z->at - start;
    zip_u32(z, 0x06054b50u);
    zip_u16(z, 0);
    zip_u16(z, 0);
    zip_u16(z, (unsigned) z->n);
    zip_u16(z, (unsigned) z->n);
    zip_u32(z, size);
    zip_u32(z, start);
    zip_u16(z, 0);
    int failed = z->failed;
    if (fclose(z->f) != 0 && !failed)
        failed = errno ? errno : EIO;
    free(z);
    if (failed) {
        errno = failed;
        return -1;
    }
    return 0;
}
