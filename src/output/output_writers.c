/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * output_writers.c: the table of output formats (output_writer.h). A format is one file
 * defining its out_writer_ops and one row here; the recorder looks its options' format
 * up in this table and nowhere branches on it.
 */
#include "output/output_writer.h"

const out_writer_ops *const output_writers[] = {
    &output_csv_writer,
    &output_hdf5_writer,
    NULL,
};

const out_writer_ops *output_writer_find(clink_output_format format)
{
    for (int i = 0; output_writers[i] != NULL; i++)
        if (output_writers[i]->format == format)
            return output_writers[i];
    return NULL;
}
