/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target for the command line's option parser (src/cli/cli_opt.c,
 * cli_parse_options): the input, split at NUL bytes into at most 32
 * arguments, is parsed as the arguments of a command against a table with
 * flags, options with values, short forms and a row listed nowhere. What must
 * hold, for every option handed to the apply function: its id is a row of the
 * table, a flag comes without a value and an option with one, the spelling is
 * "--name" or "-x" of that row, and the value is a tail of one of the
 * arguments; operands come without a spelling. The parser's answer is OK,
 * --help, or usage (2). Built by scripts/fuzz (--opt) with clang
 * -fsanitize=fuzzer,address,undefined; never part of the default build.
 * (Run it with -close_fd_mask=2: the refusals are printed on stderr.)
 */
#include "cli/cli.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { FUZZ_MAX_ARGS = 32 };

static const cli_option fuzz_table[] = {{2, "output", 'o', "DIR", "directory"},
                                        {3, "quiet", 'q', NULL, "no progress"},
                                        {4, "t-end", 0, "T", "end time"},
                                        {5, "set", 's', "PATH=VALUE", "an override"},
                                        {6, "x", 'x', NULL, "a flag with a one-letter long name"},
                                        {7, "old", 0, NULL, NULL},
                                        {0, NULL, 0, NULL, NULL}};

typedef struct fuzz_ctx {
    int argc;
    char **argv;
    int calls;
} fuzz_ctx;

/* value is argv[j] + k for some j, k */
static int fuzz_in_argv(const fuzz_ctx *c, const char *value)
{
    for (int j = 0; j < c->argc; j++) {
        size_t len = strlen(c->argv[j]);
        if (value >= c->argv[j] && value <= c->argv[j] + len)
            return 1;
    }
    return 0;
}

static int fuzz_apply(void *ctx, int id, const char *spelled, const char *value)
{
    fuzz_ctx *c = ctx;
    const cli_option *row;

    c->calls++;
    if (id == CLI_OPERAND) {
        if (spelled != NULL || value == NULL || !fuzz_in_argv(c, value))
            __builtin_trap();
        return CLI_EXIT_OK;
    }
    for (row = fuzz_table; row->id != 0 && row->id != id; row++)
        ;
    if (row->id == 0 || spelled == NULL)
        __builtin_trap();
    if ((row->value == NULL) != (value == NULL))
        __builtin_trap();
    if (value != NULL && !fuzz_in_argv(c, value))
        __builtin_trap();
    if (spelled[0] != '-')
        __builtin_trap();
    if (spelled[1] == '-' ? strcmp(spelled + 2, row->name) != 0
                          : spelled[1] != row->short_name || spelled[2] != '\0')
        __builtin_trap();
    /* a value starting with '!' stands for a value the command refuses */
    return value != NULL && value[0] == '!' ? CLI_EXIT_USAGE : CLI_EXIT_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1), *argv[FUZZ_MAX_ARGS + 2];
    fuzz_ctx c = {0, argv, 0};
    size_t pos = 0;
    int rc;

    if (text == NULL)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    argv[c.argc++] = (char *) "run";
    while (pos <= size && c.argc < FUZZ_MAX_ARGS + 1) {
        argv[c.argc++] = text + pos;
        pos += strlen(text + pos) + 1;
    }
    argv[c.argc] = NULL;
    rc = cli_parse_options(c.argc, argv, fuzz_table, fuzz_apply, &c);
    if (rc != CLI_EXIT_OK && rc != CLI_HELP && rc != CLI_EXIT_USAGE)
        __builtin_trap();
    if (c.calls > (int) size + c.argc)
        __builtin_trap();
    free(text);
    return 0;
}
