/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The command line's option parser (cli.h, "Options"): walks argv against a
 * command's table of options with getopt_long's conventions (long options with
 * their value as the next argument or after '=', short options with attached or
 * separate values, grouped flags, operands anywhere, "--" ends the options) and
 * hands each option and operand to the command's apply function in order. Also
 * the --help listing of a table (as text, as a man page's roff, or as words for
 * the shell completion: cli_man.c), the JSON writers and the check of output
 * paths the commands share.
 */
#define _POSIX_C_SOURCE 200809L

#include "cli.h"
#include "suggest.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

/* the row of the long name name[0..len), or NULL */
static const cli_option *cli_opt_find_long(const cli_option *table, const char *name, size_t len)
{
    for (; table->id != 0; table++)
        if (strlen(table->name) == len && strncmp(table->name, name, len) == 0)
            return table;
    return NULL;
}

static const cli_option *cli_opt_find_short(const cli_option *table, char c)
{
    for (; table->id != 0; table++)
        if (table->short_name != 0 && table->short_name == c)
            return table;
    return NULL;
}

/* argv[*i] is "--name" or "--name=value" */
static int cli_opt_long(int argc, char **argv, int *i, const cli_option *table, cli_apply_fn apply,
                        void *ctx)
{
    const char *cmd = argv[0], *arg = argv[*i], *name = arg + 2, *eq = strchr(name, '=');
    size_t len = eq != NULL ? (size_t) (eq - name) : strlen(name);
    const cli_option *row = cli_opt_find_long(table, name, len);
    char spelled[80];

    if (row == NULL && len == 4 && strncmp(name, "help", 4) == 0) {
        if (eq != NULL)
            return cli_usage_error("%s: --help takes no value (got '%s')", cmd, arg);
        return CLI_HELP;
    }
    if (row == NULL) {
        char word[64];
        suggest near;
        snprintf(word, sizeof word, "%.*s", (int) (len < 60 ? len : 60), name);
        suggest_init(&near, word);
        for (row = table; row->id != 0; row++)
            if (row->help != NULL)
                suggest_offer(&near, row->name);
        suggest_offer(&near, "help");
        if (suggest_best(&near) != NULL)
            return cli_usage_error("%s: unknown option '--%s' (did you mean '--%s'?); see clink "
                                   "%s --help",
                                   cmd, word, suggest_best(&near), cmd);
        return cli_usage_error("%s: unknown option '--%s' (see clink %s --help)", cmd, word, cmd);
    }
    snprintf(spelled, sizeof spelled, "--%s", row->name);
    if (row->value == NULL) {
        if (eq != NULL)
            return cli_usage_error("%s: %s takes no value (got '%s')", cmd, spelled, arg);
        return apply(ctx, row->id, spelled, NULL);
    }
    if (eq != NULL)
        return apply(ctx, row->id, spelled, eq + 1);
    if (*i + 1 >= argc)
        return cli_usage_error("%s: %s needs a value (%s)", cmd, spelled, row->value);
    ++*i;
    return apply(ctx, row->id, spelled, argv[*i]);
}

/* argv[*i] is "-x", "-xVALUE" or a group of flags "-qx" */
static int cli_opt_short(int argc, char **argv, int *i, const cli_option *table, cli_apply_fn apply,
                         void *ctx)
{
    const char *cmd = argv[0], *arg = argv[*i];
    size_t j;

    for (j = 1; arg[j] != '\0'; j++) {
        const cli_option *row = cli_opt_find_short(table, arg[j]);
        char spelled[3] = {'-', arg[j], '\0'};
        int rc;

        if (row == NULL && arg[j] == 'h')
            return CLI_HELP;
        if (row == NULL) {
            if (j == 1 && arg[2] == '\0')
                return cli_usage_error("%s: unknown option '%s' (see clink %s --help)", cmd, arg,
                                       cmd);
            return cli_usage_error("%s: unknown option '%s' in '%s' (see clink %s --help)", cmd,
                                   spelled, arg, cmd);
        }
        if (row->value == NULL) {
            rc = apply(ctx, row->id, spelled, NULL);
            if (rc != CLI_EXIT_OK)
                return rc;
            continue;
        }
        if (arg[j + 1] != '\0')
            return apply(ctx, row->id, spelled, arg + j + 1);
        if (*i + 1 >= argc)
            return cli_usage_error("%s: %s needs a value (%s)", cmd, spelled, row->value);
        ++*i;
        return apply(ctx, row->id, spelled, argv[*i]);
    }
    return CLI_EXIT_OK;
}

int cli_parse_options(int argc, char **argv, const cli_option *table, cli_apply_fn apply, void *ctx)
{
    int i, operands_only = 0, rc = CLI_EXIT_OK;

    for (i = 1; i < argc && rc == CLI_EXIT_OK; i++) {
        const char *arg = argv[i];

        if (operands_only || arg[0] != '-' || arg[1] == '\0')
            rc = apply(ctx, CLI_OPERAND, NULL, arg);
        else if (strcmp(arg, "--") == 0)
            operands_only = 1;
        else if (arg[1] == '-')
            rc = cli_opt_long(argc, argv, &i, table, apply, ctx);
        else
            rc = cli_opt_short(argc, argv, &i, table, apply, ctx);
    }
    return rc;
}

/* "  -o, --output DIR" or "      --t-end T" into buf; its length */
static size_t cli_opt_left(const cli_option *row, char *buf, size_t size)
{
    int n;

    if (row->short_name != 0)
        n = snprintf(buf, size, "  -%c, --%s%s%s", row->short_name, row->name,
                     row->value != NULL ? " " : "", row->value != NULL ? row->value : "");
    else
        n = snprintf(buf, size, "      --%s%s%s", row->name, row->value != NULL ? " " : "",
                     row->value != NULL ? row->value : "");
    return n < 0 ? 0 : (size_t) n < size ? (size_t) n : size - 1;
}

/* the form cli_print_options() writes in (cli_set_help_form) */
static cli_help_form cli_opt_form = CLI_FORM_TEXT;

void cli_set_help_form(cli_help_form form)
{
    cli_opt_form = form;
}

void cli_roff_text(FILE *out, const char *s, size_t len)
{
    size_t i;

    /* a line that starts with a control character is text by a zero-width \& */
    if (len > 0 && (s[0] == '.' || s[0] == '\''))
        fputs("\\&", out);
    for (i = 0; i < len; i++) {
        if (s[i] == '\\')
            fputs("\\e", out);
        else if (s[i] == '-')
            fputs("\\-", out);
        else
            fputc(s[i], out);
    }
}

/* one row as a man page's tagged paragraph: .TP, the option in bold, its value in italics */
static void cli_opt_roff(FILE *out, const cli_option *row)
{
    const char *p = row->help, *nl;

    fputs(".TP\n", out);
    if (row->short_name != 0)
        fprintf(out, "\\fB\\-%c\\fR, ", row->short_name);
    fputs("\\fB\\-\\-", out);
    cli_roff_text(out, row->name, strlen(row->name));
    fputs("\\fR", out);
    if (row->value != NULL) {
        fputs(" \\fI", out);
        cli_roff_text(out, row->value, strlen(row->value));
        fputs("\\fR", out);
    }
    fputc('\n', out);
    for (; (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
        cli_roff_text(out, p, (size_t) (nl - p));
        fputc('\n', out);
    }
    cli_roff_text(out, p, strlen(p));
    fputc('\n', out);
}

/* the rows in a machine form between marker lines (cli.h, cli_help_form) */
static void cli_opt_marked(FILE *out, const cli_option *table)
{
    static const cli_option help = {1, "help", 'h', NULL, "this text"};
    const cli_option *row;
    int last = 0;

    fprintf(out, "%s\n", CLI_OPTIONS_BEGIN);
    for (row = table; !last; row++) {
        if (row->id == 0) {
            row = &help;
            last = 1;
        }
        if (row->help == NULL)
            continue;
        if (cli_opt_form == CLI_FORM_ROFF) {
            cli_opt_roff(out, row);
            continue;
        }
        fprintf(out, "--%s%s%s\n", row->name, row->value != NULL ? " " : "",
                row->value != NULL ? row->value : "");
        if (row->short_name != 0)
            fprintf(out, "-%c%s%s\n", row->short_name, row->value != NULL ? " " : "",
                    row->value != NULL ? row->value : "");
    }
    fprintf(out, "%s\n", CLI_OPTIONS_END);
}

void cli_print_options(FILE *out, const cli_option *table)
{
    static const cli_option help = {1, "help", 'h', NULL, "this text"};
    const cli_option *row;
    size_t width = 0;
    char left[128];
    int last = 0;

    if (cli_opt_form != CLI_FORM_TEXT) {
        cli_opt_marked(out, table);
        return;
    }

    for (row = table; row->id != 0; row++) {
        size_t n = row->help != NULL ? cli_opt_left(row, left, sizeof left) : 0;
        width = n > width ? n : width;
    }
    width = width < 18 ? 20 : width + 2;
    for (row = table; !last; row++) {
        const char *p;

        if (row->id == 0) {
            row = &help;
            last = 1;
        }
        if (row->help == NULL)
            continue; /* read, not listed */
        cli_opt_left(row, left, sizeof left);
        fprintf(out, "%-*s", (int) width, left);
        for (p = row->help; *p != '\0'; p++) {
            fputc(*p, out);
            if (*p == '\n')
                fprintf(out, "%*s", (int) width, "");
        }
        fputc('\n', out);
    }
}

void cli_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; s != NULL && *s != '\0'; s++) {
        unsigned char ch = (unsigned char) *s;

        if (ch == '"' || ch == '\\')
            fprintf(out, "\\%c", ch);
        else if (ch == '\n')
            fputs("\\n", out);
        else if (ch < 0x20)
            fprintf(out, "\\u%04x", ch);
        else
            fputc(ch, out);
    }
    fputc('"', out);
}

void cli_json_number(FILE *out, double v)
{
    if (isfinite(v))
        fprintf(out, "%.17g", v);
    else
        fputs("null", out);
}

int cli_check_output_path(const char *command, const char *option, const char *path, int want_dir)
{
    char buf[4096];
    struct stat st;
    size_t i, len = strlen(path);

    if (!want_dir) {
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
            return cli_usage_error("%s: %s %s: %s (a file name is needed)", command, option, path,
                                   strerror(EISDIR));
        return CLI_EXIT_OK;
    }
    if (len >= sizeof buf)
        return CLI_EXIT_OK; /* the creation reports ENAMETOOLONG */
    memcpy(buf, path, len + 1);
    /* each existing prefix ending at a '/' or at the end must be a directory */
    for (i = 1; i <= len; i++) {
        if (buf[i] != '/' && buf[i] != '\0')
            continue;
        char saved = buf[i];
        buf[i] = '\0';
        if (stat(buf, &st) == 0 && !S_ISDIR(st.st_mode))
            return cli_usage_error("%s: %s %s: '%s' exists and is not a directory", command, option,
                                   path, buf);
        buf[i] = saved;
    }
    return CLI_EXIT_OK;
}
