/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The shell shared by `clink equilibrium`, `clink modes` and `clink kinematics`
 * (cli_analysis.h): loading the model with its overrides, the output directory and the
 * files written under a temporary name, the exit status of an analysis's status.
 */
#define _POSIX_C_SOURCE 200809L

#include "cli_analysis.h"

#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cli_analysis_operand(cli_analysis_args *a, const char *value)
{
    if (a->path != NULL)
        return cli_usage_error("%s: one model file only (got '%s' and '%s')", a->command, a->path,
                               value);
    a->path = value;
    return CLI_EXIT_OK;
}

int cli_analysis_set(cli_analysis_args *a, const char *spelled, const char *value)
{
    if (a->n_sets == CLI_ANALYSIS_MAX_SETS)
        return cli_usage_error("%s: %s: more than %d overrides", a->command, spelled,
                               CLI_ANALYSIS_MAX_SETS);
    a->sets[a->n_sets++] = value;
    return CLI_EXIT_OK;
}

int cli_analysis_load(cli_analysis_args *a, clink_model **model)
{
    char err[1200];
    clink_xml_summary s;

    if (cli_input_file_error(a->command, a->path, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return CLI_EXIT_USAGE;
    }
    if (a->dir != NULL && cli_check_output_path(a->command, "-o", a->dir, 1) != CLI_EXIT_OK)
        return CLI_EXIT_USAGE;
    if (clink_xml_load_with(a->path, a->sets, a->n_sets, a->applied, model, &s, err, sizeof err) !=
        CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        return CLI_EXIT_USAGE;
    }
    return CLI_EXIT_OK;
}

int cli_analysis_parse(int argc, char **argv, const cli_option *table, cli_apply_fn apply,
                       void *ctx, const cli_analysis_args *a, void (*usage)(FILE *out))
{
    int rc = cli_parse_options(argc, argv, table, apply, ctx);
    if (rc == CLI_HELP) {
        usage(stdout);
        return CLI_HELP;
    }
    if (rc != CLI_EXIT_OK)
        return rc;
    if (a->path == NULL) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    return CLI_EXIT_OK;
}

int cli_analysis_open(cli_analysis_args *a, clink_model **model, clink_analysis **an)
{
    char err[1024];
    int rc = cli_analysis_load(a, model);
    if (rc != CLI_EXIT_OK)
        return rc;
    clink_status st = clink_analysis_create(*model, NULL, an, err, sizeof err);
    if (st != CLINK_OK) {
        fprintf(stderr, "%s: %s\n", a->path, err);
        clink_model_destroy(model);
        return cli_analysis_exit(st);
    }
    return CLI_EXIT_OK;
}

int cli_analysis_exit(clink_status st)
{
    switch (st) {
    case CLINK_OK:
        return CLI_EXIT_OK;
    case CLINK_ERR_MODEL:
    case CLINK_ERR_SINGULAR:
    case CLINK_ERR_RANGE:
    case CLINK_ERR_ARG:
    case CLINK_ERR_ASSEMBLY:
        return CLI_EXIT_USAGE;
    default:
        return CLI_EXIT_FAIL;
    }
}

/* mkdir -p of dir: 0, or -1 with errno */
static int cli_make_dirs(const char *dir)
{
    char buf[4096];
    size_t len = strlen(dir);
    struct stat st;
    if (len >= sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(buf, dir, len + 1);
    for (size_t i = 1; i <= len; i++)
        if (buf[i] == '/' || buf[i] == '\0') {
            char saved = buf[i];
            buf[i] = '\0';
            if (mkdir(buf, 0777) != 0 &&
                (errno != EEXIST || stat(buf, &st) != 0 || !S_ISDIR(st.st_mode))) {
                if (errno == EEXIST)
                    errno = ENOTDIR;
                return -1;
            }
            buf[i] = saved;
        }
    return 0;
}

int cli_out_open(const char *command, const char *dir, const char *name, cli_out_file *o)
{
    memset(o, 0, sizeof *o);
    if (cli_make_dirs(dir) != 0) {
        fprintf(stderr, "clink: %s: %s: cannot create the directory: %s\n", command, dir,
                strerror(errno));
        return CLI_EXIT_IO;
    }
    snprintf(o->final, sizeof o->final, "%s/%s", dir, name);
    snprintf(o->tmp, sizeof o->tmp, "%s/%s.incomplete", dir, name);
    o->f = fopen(o->tmp, "w");
    if (o->f == NULL) {
        fprintf(stderr, "clink: %s: %s: cannot write: %s\n", command, o->final, strerror(errno));
        return CLI_EXIT_IO;
    }
    return CLI_EXIT_OK;
}

int cli_out_close(const char *command, cli_out_file *o)
{
    int bad = ferror(o->f) != 0;
    int e = errno;
    if (fclose(o->f) != 0) {
        bad = 1;
        e = errno;
    }
    o->f = NULL;
    if (!bad && rename(o->tmp, o->final) == 0)
        return CLI_EXIT_OK;
    if (!bad)
        e = errno;
    fprintf(stderr, "clink: %s: %s: cannot write: %s\n", command, o->final,
            strerror(e != 0 ? e : EIO));
    unlink(o->tmp);
    return CLI_EXIT_IO;
}

const char *cli_body_label(const clink_model *m, int body, char *buf, size_t size)
{
    const char *name = clink_model_name(m, CLINK_ENTITY_BODY, body);
    if (name != NULL && name[0] != '\0')
        snprintf(buf, size, "%s", name);
    else
        snprintf(buf, size, "body%d", body);
    return buf;
}
