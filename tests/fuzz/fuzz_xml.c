/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target for the XML reader: every input goes through the whole
 * loading path (well-formedness, the embedded schema, the semantic checks and,
 * for valid files, the model builder) exactly as `clink check` runs it. Built by
 * scripts/fuzz with clang -fsanitize=fuzzer,address,undefined; never part of the
 * default build. The schema is compiled once per process (only to save time:
 * the loader compiles it per load when given none).
 */
#include "xml/xml_internal.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static xml_schema *schema;
    char err[512];

    if (schema == NULL) {
        schema = xml_schema_create(err, sizeof err);
        if (schema == NULL)
            __builtin_trap();
    }
    xml_fuzz_one((const char *) data, size, schema, err, sizeof err);
    return 0;
}
