/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `clink fmu MODEL.xml -o MODEL.fmu`: writes an FMI 2.0 co-simulation FMU of a model
 * (docs/fmi.md): a zip archive (cli_zip.c) of
 *   modelDescription.xml                  generated here from the model's variables
 *                                         (src/fmi/fmu_vars.c: bodies, energies, contacts,
 *                                         inputs, parameters)
 *   binaries/linux64/<modelIdentifier>.so the FMU library (src/fmi/fmu.c, cmake/clinkFmu.cmake)
 *   resources/model.xml                   the model file as given
 * The model is checked first as `clink check` does (read, assembled, its simulation set
 * up); its GUID is a hash of the file (fmu_guid), which the library checks when it is
 * instantiated. Errors: "FILE:LINE: what is wrong" with exit status 2, I/O exit 3.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include "cli.h"
#include "cli_zip.h"

#include "clink/sim.h"
#include "clink/xml.h"
#include "fmi/fmu_vars.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { FMU_OUTPUT = 1, FMU_LIBRARY };

static const cli_option fmu_options[] = {
    {FMU_OUTPUT, "output", 'o', "FILE", "the FMU to write (default: MODEL.fmu beside MODEL.xml)"},
    {FMU_LIBRARY, "library", 0, "FILE",
     "the FMU library to pack (default: $CLINK_FMU_LIBRARY,\nelse the one built or installed "
     "with clink)"},
    {0, NULL, 0, NULL, NULL},
};

static void fmu_usage(FILE *out)
{
    fprintf(out, "usage: clink fmu MODEL.xml [-o MODEL.fmu] [--library FILE]\n\n"
                 "Writes an FMI 2.0 co-simulation FMU of MODEL.xml: modelDescription.xml\n"
                 "(outputs: every body's position and velocity, the energies, every\n"
                 "contact's forces and penetration; inputs: the model's <inputs>;\n"
                 "parameters: clearances, law, friction and material values, drivers'\n"
                 "constants), the library under binaries/linux64\n"
                 "and the model under resources (docs/fmi.md).\n\n");
    cli_print_options(out, fmu_options);
    fprintf(out, "\nExit status 0 when written, 2 for a refused model or usage, 3 when a file\n"
                 "cannot be read or written.\n");
}

typedef struct fmu_args {
    const char *path, *output, *library;
} fmu_args;

static int fmu_apply(void *ctx, int id, const char *spelled, const char *value)
{
    fmu_args *a = ctx;
    (void) spelled;
    if (id == FMU_OUTPUT)
        a->output = value;
    else if (id == FMU_LIBRARY)
        a->library = value;
    else if (a->path)
        return cli_usage_error("fmu: one model file only (got '%s' and '%s')", a->path, value);
    else
        a->path = value;
    return CLI_EXIT_OK;
}

/* the whole file into *data (malloc'd, *n bytes); 0, or -1 with errno */
static int fmu_slurp(const char *path, char **data, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t cap = 1 << 16, k = 0, got;
    char *p = malloc(cap);
    while (p && (got = fread(p + k, 1, cap - k, f)) > 0) {
        k += got;
        if (k == cap) {
            char *q = realloc(p, cap *= 2);
            if (!q) {
                free(p);
                p = NULL;
            }
            p = q;
        }
    }
    int e = ferror(f) ? (errno ? errno : EIO) : 0;
    if (fclose(f) != 0 && !e)
        e = errno ? errno : EIO;
    if (!p || e) {
        free(p);
        errno = p ? e : ENOMEM;
        return -1;
    }
    *data = p;
    *n = k;
    return 0;
}

/* the model identifier: the file's stem as a C identifier */
static void fmu_identifier(const char *path, char *id, size_t n)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t k = 0;
    if (isdigit((unsigned char) base[0]) && n > 2)
        id[k++] = 'm';
    for (const char *p = base; *p && *p != '.' && k + 1 < n; p++)
        id[k++] = isalnum((unsigned char) *p) ? *p : '_';
    id[k] = '\0';
    if (k == 0)
        snprintf(id, n, "clink_model");
}

/* s with XML's special characters escaped */
static void fmu_xml_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '<')
            fputs("&lt;", out);
        else if (*s == '>')
            fputs("&gt;", out);
        else if (*s == '&')
            fputs("&amp;", out);
        else if (*s == '"')
            fputs("&quot;", out);
        else
            fputc(*s, out);
    }
}

/* the causality of a variable */
static const char *fmu_causality(const fmu_var *v)
{
    return v->kind == FMU_VAR_INPUT ? "input" : v->kind == FMU_VAR_PARAM ? "parameter" : "output";
}

/* the variables, value reference = index: the outputs, then the inputs and the
   parameters (with their start values, as the standard asks of both; a parameter is
   "fixed", set before initialisation); then the structure, which lists the outputs */
static void fmu_write_variables(FILE *out, const fmu_var *v, int n)
{
    fputs("  <ModelVariables>\n", out);
    for (int i = 0; i < n; i++) {
        int output = v[i].kind != FMU_VAR_INPUT && v[i].kind != FMU_VAR_PARAM;
        fputs("    <ScalarVariable name=\"", out);
        fmu_xml_text(out, v[i].name);
        fprintf(out, "\" valueReference=\"%d\" description=\"%s\" causality=\"%s\" ", i, v[i].what,
                fmu_causality(&v[i]));
        fprintf(out, "variability=\"%s\"%s>\n      <Real unit=\"%s\"",
                v[i].kind == FMU_VAR_PARAM ? "fixed" : "continuous",
                v[i].kind == FMU_VAR_PARAM ? " initial=\"exact\"" : "", v[i].unit);
        if (!output)
            fprintf(out, " start=\"%.17g\"", v[i].start);
        fputs("/>\n    </ScalarVariable>\n", out);
    }
    fputs("  </ModelVariables>\n  <ModelStructure>\n    <Outputs>\n", out);
    for (int i = 0; i < n; i++)
        if (v[i].kind != FMU_VAR_INPUT && v[i].kind != FMU_VAR_PARAM)
            fprintf(out, "      <Unknown index=\"%d\"/>\n", i + 1);
    fputs("    </Outputs>\n    <InitialUnknowns>\n", out);
    for (int i = 0; i < n; i++)
        if (v[i].kind != FMU_VAR_INPUT && v[i].kind != FMU_VAR_PARAM)
            fprintf(out, "      <Unknown index=\"%d\"/>\n", i + 1);
    fputs("    </InitialUnknowns>\n  </ModelStructure>\n", out);
}

/* the units of the variables beyond the fixed ones written above them (the parameters'
   units from the law catalogues), each once, without base units */
static void fmu_write_more_units(FILE *out, const fmu_var *v, int n)
{
    static const char *const fixed[] = {"m", "rad", "m/s", "rad/s", "N", "J", "N.m", "1"};
    for (int i = 0; i < n; i++) {
        int seen = 0;
        for (size_t f = 0; f < sizeof fixed / sizeof *fixed; f++)
            seen |= strcmp(v[i].unit, fixed[f]) == 0;
        for (int j = 0; j < i && !seen; j++)
            seen |= strcmp(v[i].unit, v[j].unit) == 0;
        if (!seen) {
            fputs("    <Unit name=\"", out);
            fmu_xml_text(out, v[i].unit);
            fputs("\"/>\n", out);
        }
    }
}

/* modelDescription.xml of the model into a memory buffer; 0 or -1 */
static int fmu_description(const clink_model *m, const char *path, const char *id, const char *guid,
                           int states, char **text, size_t *n)
{
    fmu_var *v = NULL;
    int nv = 0;
    const char *name = id;
    if (fmu_vars_build(m, path, &v, &nv) != 0)
        return -1;
    FILE *out = open_memstream(text, n);
    if (!out) {
        free(v);
        return -1;
    }
    clink_settings_def set = clink_model_settings(m);
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<fmiModelDescription fmiVersion=\"2.0\" "
          "modelName=\"",
          out);
    fmu_xml_text(out, name);
    fprintf(
        out,
        "\" guid=\"%s\" generationTool=\"clink %s\" variableNamingConvention=\"structured\" "
        "numberOfEventIndicators=\"0\">\n"
        "  <CoSimulation modelIdentifier=\"%s\" canHandleVariableCommunicationStepSize=\"true\" "
        "canGetAndSetFMUstate=\"%s\" canSerializeFMUstate=\"%s\" "
        "canNotUseMemoryManagementFunctions=\"true\"/>\n"
        "  <UnitDefinitions>\n"
        "    <Unit name=\"m\"><BaseUnit m=\"1\"/></Unit>\n"
        "    <Unit name=\"rad\"><BaseUnit rad=\"1\"/></Unit>\n"
        "    <Unit name=\"m/s\"><BaseUnit m=\"1\" s=\"-1\"/></Unit>\n"
        "    <Unit name=\"rad/s\"><BaseUnit rad=\"1\" s=\"-1\"/></Unit>\n"
        "    <Unit name=\"N\"><BaseUnit kg=\"1\" m=\"1\" s=\"-2\"/></Unit>\n"
        "    <Unit name=\"J\"><BaseUnit kg=\"1\" m=\"2\" s=\"-2\"/></Unit>\n"
        "    <Unit name=\"N.m\"><BaseUnit kg=\"1\" m=\"2\" s=\"-2\"/></Unit>\n"
        "    <Unit name=\"1\"/>\n",
        guid, cli_version(), id, states ? "true" : "false", states ? "true" : "false");
    fmu_write_more_units(out, v, nv);
    fprintf(out,
            "  </UnitDefinitions>\n"
            "  <LogCategories>\n    <Category name=\"logStatusError\"/>\n"
            "    <Category name=\"logAll\"/>\n  </LogCategories>\n"
            "  <DefaultExperiment startTime=\"0\" stopTime=\"%.17g\" stepSize=\"%.17g\"/>\n",
            set.t_end, set.output_step);
    fmu_write_variables(out, v, nv);
    fputs("</fmiModelDescription>\n", out);
    free(v);
    return fclose(out) == 0 ? 0 : -1;
}

/* the library to pack: --library, $CLINK_FMU_LIBRARY, the build tree's, the installed one */
static const char *fmu_library(const fmu_args *a)
{
    if (a->library)
        return a->library;
    const char *env = getenv("CLINK_FMU_LIBRARY");
    if (env && env[0])
        return env;
    FILE *f = fopen(CLINK_FMU_BUILD, "rb");
    if (f && fclose(f) == 0)
        return CLINK_FMU_BUILD;
    return CLINK_FMU_INSTALL;
}

/* the model read and set up as clink run does, its variables' names unique; exit status,
   the message in err; *states: whether its simulation can save and restore its state
   (not under the window of the state, clink_sim_state_save) */
static int fmu_check_model(const char *path, clink_model **m, int *states, char *err, size_t n)
{
    *m = clink_model_load_xml(path, err, n);
    if (!*m)
        return CLI_EXIT_USAGE;
    clink_sim *s = NULL;
    char why[512];
    if (clink_sim_create(*m, NULL, &s, why, sizeof why) != CLINK_OK) {
        snprintf(err, n, "%s: %s", path, why);
        clink_model_destroy(m);
        return CLI_EXIT_USAGE;
    }
    clink_window_stats w;
    clink_sim_window_get(s, &w);
    *states = !w.in_use;
    clink_sim_destroy(&s);
    fmu_var *v = NULL;
    int nv = 0, dup = -1;
    if (fmu_vars_build(*m, path, &v, &nv) == 0)
        dup = fmu_vars_duplicate(v, nv);
    if (dup >= 0)
        snprintf(err, n,
                 "clink: fmu: %s: two FMU variables are named '%s' (the FMI standard asks for "
                 "unique names: an input named like an output? rename it)",
                 path, v[dup].name);
    free(v);
    if (dup >= 0) {
        clink_model_destroy(m);
        return CLI_EXIT_USAGE;
    }
    return CLI_EXIT_OK;
}

/* the archive of the three members at out, written as OUT.incomplete and renamed when
   complete (a failed write leaves a previous FMU at out as it was); 0, or -1 with errno */
static int fmu_write_zip(const char *out, const char *id, const char *desc, size_t ndesc,
                         const char *lib, size_t nlib, const char *xml, size_t nxml)
{
    char member[192], tmp[4200];
    snprintf(member, sizeof member, "binaries/linux64/%s.so", id);
    if (snprintf(tmp, sizeof tmp, "%s.incomplete", out) >= (int) sizeof tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    cli_zip *z = cli_zip_open(tmp);
    if (!z)
        return -1;
    int bad = cli_zip_add(z, "modelDescription.xml", desc, ndesc) != 0 ||
              cli_zip_add(z, member, lib, nlib) != 0 ||
              cli_zip_add(z, "resources/model.xml", xml, nxml) != 0;
    int e = errno;
    if (cli_zip_close(z) != 0) {
        e = errno;
        bad = 1;
    }
    if (!bad && rename(tmp, out) != 0) {
        e = errno;
        bad = 1;
    }
    if (bad) {
        unlink(tmp);
        errno = e;
        return -1;
    }
    return 0;
}

/* the FMU of the model m at out; exit status */
static int fmu_pack(const fmu_args *a, const char *out, const clink_model *m, int states)
{
    char id[128], guid[40];
    char *xml = NULL, *lib = NULL, *desc = NULL;
    size_t nxml = 0, nlib = 0, ndesc = 0;
    const char *libpath = fmu_library(a);
    fmu_identifier(a->path, id, sizeof id);
    if (fmu_guid(a->path, guid) != 0 || fmu_slurp(a->path, &xml, &nxml) != 0) {
        fprintf(stderr, "clink: fmu: %s: cannot read: %s\n", a->path, strerror(errno));
        return CLI_EXIT_IO;
    }
    int rc = CLI_EXIT_OK;
    if (fmu_slurp(libpath, &lib, &nlib) != 0) {
        fprintf(stderr, "clink: fmu: the FMU library %s: cannot read: %s (--library FILE)\n",
                libpath, strerror(errno));
        rc = CLI_EXIT_IO;
    } else if (fmu_description(m, a->path, id, guid, states, &desc, &ndesc) != 0) {
        fprintf(stderr, "clink: fmu: out of memory\n");
        rc = CLI_EXIT_FAIL;
    } else if (fmu_write_zip(out, id, desc, ndesc, lib, nlib, xml, nxml) != 0) {
        fprintf(stderr, "clink: fmu: %s: cannot write: %s\n", out, strerror(errno));
        rc = CLI_EXIT_IO;
    }
    free(xml);
    free(lib);
    free(desc);
    return rc;
}

/* 1 (refused, said) when the output names the model or the library to pack: the same file
   however spelled (device and inode), which writing the FMU would replace */
static int fmu_output_is_an_input(const fmu_args *a, const char *out)
{
    struct stat so, si;
    if (stat(out, &so) != 0)
        return 0; /* a new file: no input */
    const char *inputs[2] = {a->path, fmu_library(a)};
    for (int i = 0; i < 2; i++)
        if (stat(inputs[i], &si) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino) {
            fprintf(stderr,
                    "clink: fmu: -o %s is the %s %s: refused (writing the FMU would replace "
                    "it); name another file\n",
                    out, i == 0 ? "model" : "FMU library", inputs[i]);
            return 1;
        }
    return 0;
}

int cmd_fmu(int argc, char **argv)
{
    fmu_args a = {0};
    char err[1200], out[4096];
    int rc = cli_parse_options(argc, argv, fmu_options, fmu_apply, &a);
    if (rc == CLI_HELP) {
        fmu_usage(stdout);
        return CLI_EXIT_OK;
    }
    if (rc != CLI_EXIT_OK)
        return rc;
    if (!a.path) {
        fmu_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (cli_input_file_error("fmu", a.path, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return CLI_EXIT_USAGE;
    }
    if (a.output) {
        snprintf(out, sizeof out, "%s", a.output);
    } else {
        const char *dot = strrchr(a.path, '.'), *slash = strrchr(a.path, '/');
        int stem = dot && (!slash || dot > slash) ? (int) (dot - a.path) : (int) strlen(a.path);
        snprintf(out, sizeof out, "%.*s.fmu", stem, a.path);
    }
    if (fmu_output_is_an_input(&a, out))
        return CLI_EXIT_USAGE;
    clink_model *m = NULL;
    int states = 1;
    rc = fmu_check_model(a.path, &m, &states, err, sizeof err);
    if (rc != CLI_EXIT_OK) {
        fprintf(stderr, "%s\n", err);
        return rc;
    }
    rc = fmu_pack(&a, out, m, states);
    clink_model_destroy(&m);
    return rc;
}
