/* Helpers shared by the subcommands: strict option parsing and error lines. */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>

int cli_parse_double(const char *option, const char *text, double *out)
{
    char *end = NULL;
    double v;

    if (text == NULL || *text == '\0') {
        fprintf(stderr, "clink: %s: missing value\n", option);
        return -1;
    }
    errno = 0;
    v = strtod(text, &end);
    if (end == text || *end != '\0' || errno == ERANGE || !isfinite(v)) {
        fprintf(stderr, "clink: %s: '%s' is not a finite number\n", option, text);
        return -1;
    }
    *out = v;
    return 0;
}

int cli_parse_int(const char *option, const char *text, int *out)
{
    char *end = NULL;
    long v;

    if (text == NULL || *text == '\0') {
        fprintf(stderr, "clink: %s: missing value\n", option);
        return -1;
    }
    errno = 0;
    v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno == ERANGE || v < 0 || v > INT_MAX) {
        fprintf(stderr, "clink: %s: '%s' is not a non-negative integer\n", option, text);
        return -1;
    }
    *out = (int) v;
    return 0;
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
