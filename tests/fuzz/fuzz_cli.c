/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target for the command line's number readers (src/cli/cli_util.c):
 * every input, cut at its first NUL, is read as an option value by
 * cli_read_double, cli_read_int, cli_read_count and cli_read_key_value, and
 * what they accept must hold up: a double is finite and reads back to itself
 * from both "%.17g" and the outputs' shortest formatter (the output formatter
 * is fuzzed on the way); an int is in [0, INT_MAX] and prints as the digits it
 * came from, less leading zeros; a count is whole and in [1, max]; a key is
 * non-empty and has no '='. A rejected value must leave the output untouched
 * and give a reason. Built by scripts/fuzz (--cli) with clang
 * -fsanitize=fuzzer,address,undefined; never part of the default build.
 */
#include "cli/cli.h"
#include "fmt_double.h"

#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_check_double(double v)
{
    char buf[OUTPUT_DOUBLE_MAX], txt[40];
    double back;
    const char *why = NULL;

    if (!isfinite(v))
        __builtin_trap();
    output_format_double(v, buf);
    if (cli_read_double(buf, &back, &why) != 0 || memcmp(&back, &v, sizeof v) != 0)
        __builtin_trap();
    snprintf(txt, sizeof txt, "%.17g", v);
    if (strtod(txt, NULL) != v)
        __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1), key[64];
    const char *why;
    double d = -7.25, c = -7.25, kv = -7.25;
    int i = -7;

    if (text == NULL)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';

    why = NULL;
    if (cli_read_double(text, &d, &why) == 0)
        fuzz_check_double(d);
    else if (why == NULL || d != -7.25)
        __builtin_trap();

    why = NULL;
    if (cli_read_int(text, &i, &why) == 0) {
        const char *p = text;
        char back[16];
        if (i < 0)
            __builtin_trap();
        while (*p == '0' && p[1] != '\0')
            p++;
        snprintf(back, sizeof back, "%d", i);
        if (strcmp(back, p) != 0)
            __builtin_trap();
    } else if (why == NULL || i != -7) {
        __builtin_trap();
    }

    why = NULL;
    if (cli_read_count(text, 1e15, &c, &why) == 0) {
        if (c < 1 || c > 1e15 || c != floor(c))
            __builtin_trap();
    } else if (why == NULL || c != -7.25) {
        __builtin_trap();
    }

    why = NULL;
    if (cli_read_key_value(text, key, sizeof key, &kv, 1, &why) == 0) {
        if (key[0] == '\0' || strchr(key, '=') != NULL || strlen(key) >= sizeof key)
            __builtin_trap();
        if (!isinf(kv))
            fuzz_check_double(kv);
    } else if (why == NULL || kv != -7.25) {
        __builtin_trap();
    }
    free(text);
    return 0;
}
