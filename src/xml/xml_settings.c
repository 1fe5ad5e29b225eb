/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * <settings>, <gravity> and <output>. Settings start from
 * clink_default_settings_def() and take what the file gives; the builder checks
 * the ranges (clink_model_builder_set_settings). Two rules belong to the file:
 * output_step must not exceed t_end when both are given, and Baumgarte gains
 * are given only with drift="baumgarte".
 */
#include "xml/xml_internal.h"

#include <string.h>

void xml_read_settings(xml_reader *r, const xmlNode *n)
{
    /* the words of the methods' table, in the order of their values */
    static const char *const methods[] = {
#define XML_METHOD_WORD(id, word, integrator, caps) word,
        CLINK_METHOD_TABLE(XML_METHOD_WORD)
#undef XML_METHOD_WORD
            NULL};
    static const char *const drifts[] = {"projection", "baumgarte", "none", "auto", NULL};
    static const char *const bookkeepings[] = {"episodes", "hysteresis", NULL};
    static const char *const booleans[] = {"false", "true", "0", "1", NULL};
    static const char *const starts[] = {"as_given", "ideal", "ideal_centred", NULL};
    static const char *const windows[] = {"off", "on", "auto", NULL};
    static const char *const keys[] = {"t_end",
                                       "output_step",
                                       "method",
                                       "rtol",
                                       "atol",
                                       "max_step",
                                       "drift",
                                       "baumgarte_alpha",
                                       "baumgarte_beta",
                                       "settle_speed",
                                       "max_steps",
                                       "min_step",
                                       "wall_limit",
                                       "contact_bookkeeping",
                                       "strict",
                                       "start",
                                       "window", /* the window of the state */
                                       NULL};
    clink_settings_def s = clink_default_settings_def();
    int has_t_end, has_output_step, has_alpha, has_beta;

    if (xml_check_attrs(r, n, keys, NULL))
        return;
    has_t_end = xml_num(r, n, "t_end", s.t_end, 1, &s.t_end);
    has_output_step = xml_num(r, n, "output_step", s.output_step, 1, &s.output_step);
    xml_num(r, n, "rtol", s.rtol, 1, &s.rtol);
    xml_num(r, n, "atol", s.atol, 1, &s.atol);
    xml_num(r, n, "max_step", s.max_step, 1, &s.max_step);
    has_alpha = xml_num(r, n, "baumgarte_alpha", s.baumgarte_alpha, 1, &s.baumgarte_alpha);
    has_beta = xml_num(r, n, "baumgarte_beta", s.baumgarte_beta, 1, &s.baumgarte_beta);
    xml_num(r, n, "settle_speed", s.settle_speed, 1, &s.settle_speed);
    xml_num(r, n, "max_steps", s.max_steps, 1, &s.max_steps);
    xml_num(r, n, "min_step", s.min_step, 1, &s.min_step);
    xml_num(r, n, "wall_limit", s.wall_limit, 1, &s.wall_limit);
    s.method = (clink_method) xml_keyword(r, n, "method", methods, CLINK_METHOD_AUTO);
    s.contact_bookkeeping = xml_keyword(r, n, "contact_bookkeeping", bookkeepings, 0)
                                ? CLINK_BOOKKEEPING_HYSTERESIS
                                : CLINK_BOOKKEEPING_EPISODES;
    s.drift = (clink_drift) xml_keyword(r, n, "drift", drifts, CLINK_DRIFT_AUTO);
    s.strict = xml_keyword(r, n, "strict", booleans, 0) % 2;
    s.start = xml_keyword(r, n, "start", starts, CLINK_START_AS_GIVEN);
    s.window = xml_keyword(r, n, "window", windows, 2);
    if (r->failed)
        return;
    if (xml_built(r, clink_model_builder_set_settings(r->builder, &s), n))
        return;
    if (has_t_end && has_output_step && s.output_step > s.t_end)
        xml_fail(r, CLINK_ERR_RANGE, xml_line(n),
                 "<settings>: output_step = %g s is larger than t_end = %g s", s.output_step,
                 s.t_end);
    else if ((has_alpha || has_beta) && s.drift != CLINK_DRIFT_BAUMGARTE)
        xml_fail(r, CLINK_ERR_MODEL, xml_line(n),
                 "<settings>: baumgarte_alpha/beta are given but drift is not 'baumgarte'");
}

void xml_read_gravity(xml_reader *r, const xmlNode *n)
{
    static const char *const keys[] = {"g", NULL};
    double g[2];

    if (xml_check_attrs(r, n, keys, NULL))
        return;
    xml_vec2(r, n, "g", 0.0, -9.81, g);
    if (!r->failed)
        xml_built(r, clink_model_builder_set_gravity(r->builder, g[0], g[1]), n);
}

void xml_read_output(xml_reader *r, const xmlNode *n)
{
    static const char *const booleans[] = {"false", "true", "0", "1", NULL};
    static const char *const keys[] = {"reactions", "energies", "contacts", "rows",
                                       "dense",     "format",   NULL};
    static const char *const rows[] = {"events", "steps", "grid", "auto", NULL};
    static const char *const formats[] = {"csv", "hdf5", NULL};
    double dense = 1;

    if (xml_check_attrs(r, n, keys, NULL))
        return;
    r->summary.out_reactions = xml_keyword(r, n, "reactions", booleans, 1) % 2;
    r->summary.out_energies = xml_keyword(r, n, "energies", booleans, 1) % 2;
    r->summary.out_contacts = xml_keyword(r, n, "contacts", booleans, 1) % 2;
    r->summary.out_rows = xml_keyword(r, n, "rows", rows, CLINK_ROWS_AUTO);
    r->summary.out_format = xml_keyword(r, n, "format", formats, 0);
    if (xml_num(r, n, "dense", 1, 1.0, &dense) &&
        !(dense >= 0 && dense <= 1000 && dense == (int) dense))
        xml_fail(r, CLINK_ERR_RANGE, xml_line(n), "<output dense=\"%g\">: an integer 0 .. 1000",
                 dense);
    r->summary.out_dense = (int) dense;
    xml_read_sections(r, n); /* the <poincare> children (xml_sections.c) */
}
