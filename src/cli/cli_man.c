/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `clink help`: a command's --help, the man pages clink(1) and clink-CMD(1) in
 * roff (man(7) macros), and the bash completion script (on stdout or into FILE). Both are made from
 * what --help prints: the command's help is run with stdout sent to a scratch
 * file while cli_print_options() writes its table as roff or as words
 * (cli_set_help_form), and that text becomes the page; so a page can never
 * list other options than --help does. The law names of the completion come
 * from the law catalogue (`clink laws`). The build runs `clink help
 * --man-pages` and `clink help --completion` and installs what they write
 * (cmake/clinkInstall.cmake).
 *
 * A help text reads: "usage: ..." (SYNOPSIS), paragraphs separated by blank
 * lines (DESCRIPTION), the option table (OPTIONS), a "Commands:" block of
 * "  NAME  SUMMARY" lines (COMMANDS), a paragraph that starts "Exit status"
 * (EXIT STATUS).
 */
#define _POSIX_C_SOURCE 200809L

#include "cli.h"

#include "clink/contact.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- a command's --help, read back --------------------------------------------- */

/* what fn (a command with --help, or print_help) writes on stdout, in form; NULL on failure */
static char *man_capture(const cli_command *c, void (*print_help)(FILE *), cli_help_form form)
{
    char name[32], help[] = "--help", *argv[3] = {name, help, NULL}, *text = NULL;
    FILE *tmp = tmpfile();
    int saved = -1;
    long size;

    if (tmp == NULL || fflush(stdout) != 0 || (saved = dup(STDOUT_FILENO)) < 0 ||
        dup2(fileno(tmp), STDOUT_FILENO) < 0)
        goto done;
    cli_set_help_form(form);
    if (c != NULL) {
        snprintf(name, sizeof name, "%s", c->name);
        c->run(2, argv);
    } else {
        print_help(stdout);
    }
    cli_set_help_form(CLI_FORM_TEXT);
    if (fflush(stdout) != 0 || dup2(saved, STDOUT_FILENO) < 0)
        goto done;
    if (fseek(tmp, 0, SEEK_END) != 0 || (size = ftell(tmp)) < 0 || fseek(tmp, 0, SEEK_SET) != 0)
        goto done;
    text = malloc((size_t) size + 1);
    if (text != NULL && fread(text, 1, (size_t) size, tmp) != (size_t) size) {
        free(text);
        text = NULL;
    }
    if (text != NULL)
        text[size] = '\0';
done:
    if (saved >= 0) {
        fflush(stdout);
        dup2(saved, STDOUT_FILENO);
        close(saved);
    }
    if (tmp != NULL)
        fclose(tmp);
    if (text == NULL)
        fprintf(stderr, "clink: help: cannot read the help text: %s\n", strerror(errno));
    return text;
}

/* ---- help text to roff --------------------------------------------------------- */

/* the state of the conversion: the section open, whether a paragraph is open */
typedef struct man_state {
    FILE *out;
    const char *section;
    int in_para;
    const char *options; /* roff of an OPTIONS section to write before EXIT STATUS, or NULL */
} man_state;

static void man_section(man_state *m, const char *name)
{
    if (m->section != NULL && strcmp(m->section, name) == 0)
        return;
    if (m->options != NULL && strcmp(name, "EXIT STATUS") == 0) {
        fprintf(m->out, ".SH OPTIONS\n%s", m->options);
        m->options = NULL;
    }
    fprintf(m->out, ".SH %s\n", name);
    m->section = name;
    m->in_para = 1;
}

/* "  NAME  SUMMARY" of a Commands block as a tagged paragraph naming the command's page */
static void man_command_line(man_state *m, const char *line, size_t len)
{
    const char *p = line, *end = line + len, *name;
    size_t name_len;

    while (p < end && *p == ' ')
        p++;
    name = p;
    while (p < end && *p != ' ')
        p++;
    name_len = (size_t) (p - name);
    fputs(".TP\n\\fB", m->out);
    cli_roff_text(m->out, name, name_len);
    fputs("\\fR\n", m->out);
    while (p < end && *p == ' ')
        p++;
    cli_roff_text(m->out, p, (size_t) (end - p));
    fputs(" (\\fBclink\\-", m->out);
    cli_roff_text(m->out, name, name_len);
    fputs("\\fR(1))\n", m->out);
}

/* one line of help text (no newline) */
static void man_line(man_state *m, const char *line, size_t len, int *commands)
{
    if (len == 0) {
        m->in_para = 0;
        *commands = 0;
        return;
    }
    if (*commands) {
        man_command_line(m, line, len);
        return;
    }
    if (!m->in_para) {
        if (len >= 8 && strncmp(line, "Commands", 8) == 0) {
            man_section(m, "COMMANDS");
            *commands = 1;
            return;
        }
        if (len >= 7 && strncmp(line, "Options", 7) == 0)
            man_section(m, "OPTIONS");
        else if (len >= 11 && strncmp(line, "Exit status", 11) == 0)
            man_section(m, "EXIT STATUS");
        else if (m->section != NULL && strcmp(m->section, "SYNOPSIS") == 0)
            man_section(m, "DESCRIPTION");
        else
            fputs(".PP\n", m->out);
        m->in_para = 1;
    }
    cli_roff_text(m->out, line, len);
    fputc('\n', m->out);
}

/* the help text as the body of a page (from SYNOPSIS on); options: see man_state */
static void man_body(FILE *out, const char *text, const char *options)
{
    man_state m = {out, NULL, 0, options};
    const char *p = text, *nl;
    int commands = 0, roff = 0;

    for (; *p != '\0'; p = nl + (*nl != '\0')) {
        size_t len;
        nl = strchr(p, '\n');
        if (nl == NULL)
            nl = p + strlen(p);
        len = (size_t) (nl - p);
        if (len == strlen(CLI_OPTIONS_BEGIN) && strncmp(p, CLI_OPTIONS_BEGIN, len) == 0) {
            man_section(&m, "OPTIONS");
            roff = 1;
        } else if (len == strlen(CLI_OPTIONS_END) && strncmp(p, CLI_OPTIONS_END, len) == 0) {
            roff = 0;
            m.in_para = 0;
        } else if (roff) {
            fprintf(out, "%.*s\n", (int) len, p); /* already roff */
        } else if (m.section == NULL && len > 7 && strncmp(p, "usage: ", 7) == 0) {
            man_section(&m, "SYNOPSIS");
            cli_roff_text(out, p + 7, len - 7);
            fputc('\n', out);
        } else {
            man_line(&m, p, len, &commands);
        }
    }
}

/* the page of command c (NULL: clink(1)) on out */
static int man_page(FILE *out, const cli_command *commands, const cli_command *c,
                    void (*print_help)(FILE *))
{
    char *text = man_capture(c, print_help, CLI_FORM_ROFF);
    size_t i;

    if (text == NULL)
        return CLI_EXIT_IO;
    fprintf(out, ".\\\" generated by `clink help --man%s%s` from its --help; do not edit\n",
            c != NULL ? " " : "", c != NULL ? c->name : "");
    fputs(".TH CLINK", out);
    if (c != NULL) {
        fputs("\\-", out);
        for (i = 0; c->name[i] != '\0'; i++)
            fputc(c->name[i] >= 'a' && c->name[i] <= 'z' ? c->name[i] - 'a' + 'A' : c->name[i],
                  out);
    }
    fprintf(out, " 1 \"\" \"clink %s\" \"clink manual\"\n.SH NAME\n", cli_version());
    if (c != NULL) {
        fputs("clink\\-", out);
        cli_roff_text(out, c->name, strlen(c->name));
        fputs(" \\- ", out);
        cli_roff_text(out, c->summary, strlen(c->summary));
    } else {
        fputs("clink \\- planar multibody dynamics with contact\\-impact", out);
    }
    fputc('\n', out);
    /* clink(1): the options of the command itself, from its usage line */
    man_body(out, text,
             c != NULL
                 ? NULL
                 : ".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nthe commands and what they do\n"
                   ".TP\n\\fB\\-V\\fR, \\fB\\-\\-version\\fR\nthe version of clink (and of the "
                   "library when another one is linked)\n");
    free(text);
    /* the other pages */
    fputs(".SH SEE ALSO\n", out);
    if (c != NULL)
        fputs("\\fBclink\\fR(1)", out);
    for (i = 0; commands[i].name != NULL; i++)
        if (&commands[i] != c)
            fprintf(out, "%s\\fBclink\\-%s\\fR(1)", i == 0 && c == NULL ? "" : ",\n",
                    commands[i].name);
    fputc('\n', out);
    return ferror(out) ? CLI_EXIT_IO : CLI_EXIT_OK;
}

/* every page into dir: clink.1 and clink-CMD.1 */
static int man_pages(const char *dir, const cli_command *commands, void (*print_help)(FILE *))
{
    char path[4096];
    size_t i;

    for (i = 0; i == 0 || commands[i - 1].name != NULL; i++) {
        const cli_command *c = i == 0 ? NULL : &commands[i - 1];
        FILE *f;
        int rc;
        snprintf(path, sizeof path, "%s/clink%s%s.1", dir, c != NULL ? "-" : "",
                 c != NULL ? c->name : "");
        f = fopen(path, "w");
        if (f == NULL) {
            fprintf(stderr, "clink: help: %s: cannot write: %s\n", path, strerror(errno));
            return CLI_EXIT_IO;
        }
        rc = man_page(f, commands, c, print_help);
        if (fclose(f) != 0 && rc == CLI_EXIT_OK) {
            fprintf(stderr, "clink: help: %s: cannot write: %s\n", path, strerror(errno));
            rc = CLI_EXIT_IO;
        }
        if (rc != CLI_EXIT_OK)
            return rc;
    }
    return CLI_EXIT_OK;
}

/* ---- bash completion ------------------------------------------------------------ */

/* the words of a command's options ("--output --set ... -o -q"); 1 if one takes a law */
static int completion_options(FILE *out, const cli_command *c)
{
    char *text = man_capture(c, NULL, CLI_FORM_WORDS), *p, *nl;
    int in = 0, law = 0;

    if (text == NULL)
        return -1;
    for (p = text; *p != '\0'; p = nl + 1) {
        nl = strchr(p, '\n');
        if (nl == NULL)
            break;
        *nl = '\0';
        if (strcmp(p, CLI_OPTIONS_BEGIN) == 0)
            in = 1;
        else if (strcmp(p, CLI_OPTIONS_END) == 0)
            in = 0;
        else if (in) {
            char *sp = strchr(p, ' ');
            if (sp != NULL)
                *sp = '\0';
            fprintf(out, " %s", p);
            law |= strcmp(p, "--law") == 0;
        }
    }
    free(text);
    return law;
}

/* the completion script: commands, each command's options, law names after --law */
static int completion(FILE *out, const cli_command *commands)
{
    size_t i;

    fprintf(out,
            "# bash completion of clink %s, generated by `clink help --completion`\n"
            "# (commands and options from the --help tables, laws from `clink laws`)\n"
            "_clink()\n{\n"
            "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} words\n"
            "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
            "        words=\"help -h --help -V --version",
            cli_version());
    for (i = 0; commands[i].name != NULL; i++)
        fprintf(out, " %s", commands[i].name);
    fputs("\"\n        COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n        return 0\n    fi\n"
          "    case \"$prev\" in\n    --law)\n        COMPREPLY=($(compgen -W \"",
          out);
    for (i = 0; i < clink_law_count(); i++)
        fprintf(out, "%s%s", i > 0 ? " " : "", clink_law_name(clink_law_at(i)));
    fputs(
        "\" -- \"$cur\"))\n        return 0\n        ;;\n    esac\n    case ${COMP_WORDS[1]} in\n",
        out);
    for (i = 0; commands[i].name != NULL; i++) {
        fprintf(out, "    %s) words=\"", commands[i].name);
        if (completion_options(out, &commands[i]) < 0)
            return CLI_EXIT_IO;
        fputs("\" ;;\n", out);
    }
    fputs("    help) words=\"--man --man-pages --completion", out);
    for (i = 0; commands[i].name != NULL; i++)
        fprintf(out, " %s", commands[i].name);
    fputs("\" ;;\n    *) words=\"\" ;;\n    esac\n"
          "    if [[ $cur == -* || ${COMP_WORDS[1]} == help ]]; then\n"
          "        COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
          "    else\n"
          "        COMPREPLY=($(compgen -f -- \"$cur\"))\n"
          "    fi\n    return 0\n}\n"
          "complete -o filenames -F _clink clink\n",
          out);
    return ferror(out) ? CLI_EXIT_IO : CLI_EXIT_OK;
}

/* ---- clink help ----------------------------------------------------------------- */

static const cli_command *help_find(const cli_command *commands, const char *name)
{
    size_t i;

    for (i = 0; commands[i].name != NULL; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

int cli_help(int argc, char **argv, const cli_command *commands, void (*print_help)(FILE *out))
{
    const cli_command *c;

    if (argc == 1) {
        print_help(stdout);
        return CLI_EXIT_OK;
    }
    if (argc == 2 && (c = help_find(commands, argv[1])) != NULL) {
        char help[] = "--help", *args[3] = {argv[1], help, NULL};
        return c->run(2, args);
    }
    if (strcmp(argv[1], "--man") == 0 && argc <= 3) {
        c = argc == 3 ? help_find(commands, argv[2]) : NULL;
        if (argc == 3 && c == NULL)
            return cli_usage_error("help: --man: unknown command '%s' (see clink --help)", argv[2]);
        return man_page(stdout, commands, c, print_help);
    }
    if (strcmp(argv[1], "--man-pages") == 0 && argc == 3)
        return man_pages(argv[2], commands, print_help);
    if (strcmp(argv[1], "--completion") == 0 && argc <= 3) {
        FILE *f = argc == 3 ? fopen(argv[2], "w") : stdout;
        int rc;
        if (f == NULL) {
            fprintf(stderr, "clink: help: %s: cannot write: %s\n", argv[2], strerror(errno));
            return CLI_EXIT_IO;
        }
        rc = completion(f, commands);
        if (f != stdout && fclose(f) != 0 && rc == CLI_EXIT_OK) {
            fprintf(stderr, "clink: help: %s: cannot write: %s\n", argv[2], strerror(errno));
            rc = CLI_EXIT_IO;
        }
        return rc;
    }
    return cli_usage_error("help: usage: clink help [COMMAND | --man [COMMAND] | --man-pages DIR "
                           "| --completion [FILE]]");
}
