/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Helpers shared by the subcommands: strict number readers for the options
 * (pure functions, fuzzed by tests/fuzz/fuzz_cli.c), their printing wrappers,
 * the check of an input file and the one-line error.
 */
#define _POSIX_C_SOURCE 200809L

#include "cli.h"

#include "clink/clink.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *cli_version(void)
{
#ifdef CLINK_PROJECT_VERSION
    return CLINK_PROJECT_VERSION;
#else
    return clink_version();
#endif
}

/* strtod would skip leading space; an option value with space is a typo */
static int cli_starts_with_space(const char *text)
{
    return *text == ' ' || (*text >= '\t' && *text <= '\r');
}

int cli_read_double(const char *text, double *out, const char **why)
{
    char *end = NULL;
    double v;

    if (text == NULL || *text == '\0') {
        *why = "missing value";
        return -1;
    }
    if (cli_starts_with_space(text)) {
        *why = "is not a finite number";
        return -1;
    }
    errno = 0;
    v = strtod(text, &end);
    if (end == text || *end != '\0' || !isfinite(v)) {
        *why = "is not a finite number";
        return -1;
    }
    if (errno == ERANGE && fabs(v) > 1.0) {
        *why = "is too large for a double";
        return -1;
    }
    if (errno == ERANGE && v == 0.0) {
        /* a nonzero number that reads as zero would silently become "none" */
        const char *p;
        for (p = text; *p != '\0' && *p != 'e' && *p != 'E'; p++)
            if (*p >= '1' && *p <= '9') {
                *why = "is too small for a double (it would read as 0)";
                return -1;
            }
    }
    *out = v;
    return 0;
}

int cli_read_int(const char *text, int *out, const char **why)
{
    char *end = NULL;
    long v;

    if (text == NULL || *text == '\0') {
        *why = "missing value";
        return -1;
    }
    if (cli_starts_with_space(text) || *text == '+' || *text == '-') {
        *why = "is not a non-negative integer";
        return -1;
    }
    errno = 0;
    v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno == ERANGE || v < 0 || v > INT_MAX) {
        *why = "is not a non-negative integer";
        return -1;
    }
    *out = (int) v;
    return 0;
}

int cli_read_count(const char *text, double max, double *out, const char **why)
{
    double v;

    if (cli_read_double(text, &v, why) != 0)
        return -1;
    if (v != floor(v) || v < 1.0 || v > max) {
        *why = "is not a whole number in range";
        return -1;
    }
    *out = v;
    return 0;
}

int cli_read_key_value(const char *text, char *key, size_t key_size, double *value, int allow_inf,
                       const char **why)
{
    const char *eq;
    size_t n;

    if (text == NULL || key_size == 0) {
        *why = "missing value";
        return -1;
    }
    eq = strchr(text, '=');
    if (eq == NULL || eq == text) {
        *why = "is not KEY=VALUE";
        return -1;
    }
    n = (size_t) (eq - text);
    if (n >= key_size) {
        *why = "has a key that is too long";
        return -1;
    }
    if (allow_inf && (strcmp(eq + 1, "inf") == 0 || strcmp(eq + 1, "INFINITY") == 0)) {
        *value = INFINITY;
    } else if (cli_read_double(eq + 1, value, why) != 0) {
        return -1;
    }
    memcpy(key, text, n);
    key[n] = '\0';
    return 0;
}

int cli_parse_double(const char *option, const char *text, double *out)
{
    const char *why = NULL;

    if (cli_read_double(text, out, &why) == 0)
        return 0;
    if (text == NULL || *text == '\0')
        fprintf(stderr, "clink: %s: %s\n", option, why);
    else
        fprintf(stderr, "clink: %s: '%s' %s\n", option, text, why);
    return -1;
}

int cli_parse_int(const char *option, const char *text, int *out)
{
    const char *why = NULL;

    if (cli_read_int(text, out, &why) == 0)
        return 0;
    if (text == NULL || *text == '\0')
        fprintf(stderr, "clink: %s: %s\n", option, why);
    else
        fprintf(stderr, "clink: %s: '%s' %s\n", option, text, why);
    return -1;
}

int cli_input_file_error(const char *command, const char *path, char *msg, size_t size)
{
    struct stat st;
    int fd = open(path, O_RDONLY), e = 0;
    const char *why = NULL;

    if (fd < 0) {
        e = errno;
    } else {
        if (fstat(fd, &st) != 0)
            e = errno;
        else if (S_ISDIR(st.st_mode))
            e = EISDIR;
        else if (!S_ISREG(st.st_mode))
            why = "not a regular file";
        close(fd); /* read-only: closing cannot lose data */
    }
    if (e == 0 && why == NULL)
        return 0;
    snprintf(msg, size, "clink: %s: %s: cannot read: %s", command, path,
             why != NULL ? why : strerror(e));
    return -1;
}

int cli_check_input_file(const char *command, const char *path)
{
    char msg[4400];

    if (cli_input_file_error(command, path, msg, sizeof msg) == 0)
        return 0;
    fprintf(stderr, "%s\n", msg);
    return -1;
}

int cli_usage_error(const char *fmt, ...)
{
    va_list ap;

    fputs("clink: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return CLI_EXIT_USAGE;
}

long cli_settings_line(const char *path)
{
    char line[4096];
    long no = 0, found = 0;
    FILE *f = fopen(path, "r");

    if (f == NULL)
        return 0;
    /* a line longer than the buffer counts once, at its end */
    while (found == 0 && fgets(line, sizeof line, f) != NULL) {
        if (strchr(line, '\n') != NULL || feof(f))
            no++;
        if (strstr(line, "<settings") != NULL)
            found = strchr(line, '\n') != NULL || feof(f) ? no : no + 1;
    }
    fclose(f);
    return found;
}

void cli_where_settings(const char *path, const char *msg, char *out, size_t size)
{
    long line = strncmp(msg, "settings: ", 10) == 0 ? cli_settings_line(path) : 0;

    if (line > 0)
        snprintf(out, size, "%s:%ld: <settings>: %s", path, line, msg + 10);
    else
        snprintf(out, size, "%s: %s", path, msg);
}
