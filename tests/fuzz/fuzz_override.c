/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target for the overrides by path (src/xml/xml_override.c): the
 * input is a model text, a NUL byte, then up to 16 override strings, one a
 * line ("PATH=VALUE"); the model is loaded from memory with them
 * (clink_xml_load_memory_with, as `clink run --set` does). What must hold: a
 * load that succeeds gives a model and an empty message, one that fails gives
 * no model and a message; each applied record is NUL-terminated within its
 * field. An input without a NUL byte is all overrides, on a small built-in
 * model. Built by scripts/fuzz (--override) with clang
 * -fsanitize=fuzzer,address,undefined; never part of the default build.
 */
#include "clink/clink.h"
#include "clink/model.h"
#include "clink/xml.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { FUZZ_MAX_SETS = 16 };

/* the pendulum of models/pendulum.xml */
static const char fuzz_model[] =
    "<mechanism name=\"pendulum\" angle_unit=\"deg\">\n"
    "  <settings t_end=\"5\" output_step=\"0.01\" method=\"adams\" drift=\"baumgarte\"/>\n"
    "  <gravity g=\"0 -9.81\"/>\n"
    "  <bodies>\n"
    "    <body name=\"rod\" mass=\"1\" inertia=\"0.0833\" x=\"0.433\" y=\"-0.25\" phi=\"-30\"/>\n"
    "  </bodies>\n"
    "  <joints>\n"
    "    <revolute name=\"pivot\" body1=\"ground\" point1=\"0 0\" body2=\"rod\" point2=\"-0.5 "
    "0\"/>\n"
    "  </joints>\n"
    "</mechanism>\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nul = memchr(data, 0, size);
    const char *model_text = fuzz_model;
    size_t model_size = sizeof fuzz_model - 1, rest = size;
    char *sets_text, *sets[FUZZ_MAX_SETS], *p, err[1024];
    clink_xml_applied applied[FUZZ_MAX_SETS];
    clink_model *model = NULL;
    clink_status st;
    int n = 0;

    if (nul != NULL) {
        model_text = (const char *) data;
        model_size = (size_t) (nul - data);
        rest = size - model_size - 1;
    }
    sets_text = malloc(rest + 1);
    if (sets_text == NULL)
        return 0;
    memcpy(sets_text, nul != NULL ? nul + 1 : data, rest);
    sets_text[rest] = '\0';
    for (p = sets_text; n < FUZZ_MAX_SETS && *p != '\0';) {
        char *eol = strchr(p, '\n');
        sets[n++] = p;
        if (eol == NULL)
            break;
        *eol = '\0';
        p = eol + 1;
    }
    memset(applied, 0x5a, sizeof applied);
    err[0] = '\0';
    st = clink_xml_load_memory_with(model_text, model_size, "fuzz.xml", (const char *const *) sets,
                                    n, applied, &model, NULL, err, sizeof err);
    if (st == CLINK_OK && (model == NULL || err[0] != '\0'))
        __builtin_trap();
    if (st != CLINK_OK && (model != NULL || err[0] == '\0'))
        __builtin_trap();
    if (st == CLINK_OK)
        for (int i = 0; i < n; i++)
            if (memchr(applied[i].path, 0, sizeof applied[i].path) == NULL ||
                memchr(applied[i].value, 0, sizeof applied[i].value) == NULL ||
                memchr(applied[i].previous, 0, sizeof applied[i].previous) == NULL)
                __builtin_trap();
    clink_model_destroy(&model);
    free(sets_text);
    return 0;
}
