/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cli_zip.h: a writer of zip archives with stored (uncompressed) members, for the FMUs of
 * `clink fmu` (cli_zip.c).
 */
#ifndef CLINK_CLI_ZIP_H
#define CLINK_CLI_ZIP_H

#include <stddef.h>
#include <stdint.h>

typedef struct cli_zip cli_zip;

/* the CRC-32 of n bytes (ISO 3309, the polynomial 0xedb88320 reflected), continuing crc */
uint32_t cli_crc32(uint32_t crc, const void *data, size_t n);

/* a new archive at path (created or truncated); NULL with errno on failure */
cli_zip *cli_zip_open(const char *path);
/* a member `name` holding n bytes of data; 0, or -1 with errno */
int cli_zip_add(cli_zip *z, const char *name, const void *data, size_t n);
/* writes the central directory and closes; 0, or -1 with errno (the archive is then
   incomplete). Frees z in every case. */
int cli_zip_close(cli_zip *z);

#endif
