/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * output_summary.c: the text of summary.json (docs/outputs.md, "summary.json"): the model,
 * the status, the end time reached, the settings of the integrator and of the output, the
 * statistics of the run (CVODE's steps, right-hand-side calls, root events, impacts), the
 * maxima the recorder kept, the caller's warnings and the wall time (null when not
 * measured). Numbers are the shortest decimals that read back as the same doubles; a
 * number that is not finite is null (JSON has none).
 */
#include "output/output_recorder.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void json_string(out_file *f, const char *s)
{
    output_file_char(f, '"');
    for (; s != NULL && *s != '\0'; s++) {
        unsigned char ch = (unsigned char) *s;
        if (ch == '"' || ch == '\\') {
            output_file_char(f, '\\');
            output_file_char(f, (char) ch);
        } else if (ch == '\n') {
            output_file_str(f, "\\n");
        } else if (ch < 0x20) {
            output_file_printf(f, "\\u%04x", ch);
        } else {
            output_file_char(f, (char) ch);
        }
    }
    output_file_char(f, '"');
}

/* "KEY": a finite number, or null (JSON has no NaN) */
static void json_number(out_file *f, const char *key, double v)
{
    output_file_printf(f, ",\n  \"%s\": ", key);
    if (isfinite(v))
        output_file_num0(f, v);
    else
        output_file_str(f, "null");
}

static void json_long(out_file *f, const char *key, long v)
{
    output_file_printf(f, ",\n  \"%s\": %ld", key, v);
}

/* ",\n  "overrides": {PATH: VALUE, ...}" of the run's overrides by path, if any */
static void json_overrides(out_file *f, const clink_run_info *in)
{
    int i;

    if (in->override_count <= 0 || in->override_paths == NULL || in->override_values == NULL)
        return;
    output_file_str(f, ",\n  \"overrides\": {");
    for (i = 0; i < in->override_count; i++) {
        const char *v = in->override_values[i];
        char *end;
        double x = v != NULL ? strtod(v, &end) : NAN;
        output_file_str(f, i > 0 ? ",\n    " : "\n    ");
        json_string(f, in->override_paths[i]);
        output_file_str(f, ": ");
        if (v != NULL && end != v && *end == '\0' && isfinite(x))
            output_file_num0(f, x);
        else
            json_string(f, v);
    }
    output_file_str(f, "\n  }");
}

/* the integrator method's name in summary.json */
static const char *summary_method_name(clink_method method)
{
    const char *name = clink_method_name(method);
    return name != NULL ? name : "?";
}

/* ",\n  "method_switches": [{"t": T, "from": M, "to": M, "reason": R}, ...]" of a run with
   method auto (none when nothing switched; docs/kernel.md, "What auto picks and why") */
static void json_method_switches(out_file *f, const clink_sim *sim)
{
    clink_method_switch sw[CLINK_METHOD_SWITCHES_KEPT];
    int n = clink_sim_method_switches(sim, sw, CLINK_METHOD_SWITCHES_KEPT);
    if (n <= 0)
        return;
    output_file_printf(f, ",\n  \"method_switch_count\": %d,\n  \"method_switches\": [", n);
    for (int i = 0; i < n && i < CLINK_METHOD_SWITCHES_KEPT; i++) {
        output_file_str(f, i > 0 ? ",\n    {\"t\": " : "\n    {\"t\": ");
        output_file_num0(f, sw[i].t);
        output_file_printf(f, ", \"from\": \"%s\", \"to\": \"%s\", \"reason\": ",
                           summary_method_name(sw[i].from), summary_method_name(sw[i].to));
        json_string(f, sw[i].reason);
        output_file_char(f, '}');
    }
    output_file_str(f, "\n  ]");
}

/* the run: status, end, settings of the integrator and of the output */
static void write_summary_run(clink_recorder *r, out_file *f, const clink_sim *sim,
                              const clink_run_info *in)
{
    static const char *const drifts[] = {"projection", "baumgarte", "none", "auto"};
    static const char *const rows[] = {"events", "steps", "grid"};
    clink_settings_def set = in->settings != NULL ? *in->settings : clink_model_settings(r->model);

    output_file_str(f, "{\n  \"model\": ");
    json_string(f, in->model_name);
    output_file_str(f, ",\n  \"source\": ");
    if (in->source != NULL)
        json_string(f, in->source);
    else
        output_file_str(f, "null");
    /* the release that computed it (docs/releases.md) */
    output_file_str(f, ",\n  \"clink\": ");
    json_string(f, clink_version());
    json_overrides(f, in);
    output_file_printf(f, ",\n  \"status\": \"%s\"",
                       in->interrupted ? "interrupted"
                       : in->failed    ? "failed"
                                       : "ok");
    output_file_str(f, ",\n  \"message\": ");
    if (in->message != NULL)
        json_string(f, in->message);
    else
        output_file_str(f, "null");
    json_number(f, "t_end_requested", in->t_end);
    json_number(f, "t_end_reached", sim != NULL ? clink_sim_time(sim) : 0.0);
    int automatic = set.method == CLINK_METHOD_AUTO || set.drift == CLINK_DRIFT_AUTO;
    if (automatic && sim != NULL) /* what auto chose (docs/kernel.md) */
        set = clink_sim_settings(sim);
    output_file_printf(f, ",\n  \"method\": \"%s\",\n  \"drift\": \"%s\"%s",
                       summary_method_name(set.method), drifts[(int) set.drift % 4],
                       automatic ? ",\n  \"auto\": true" : "");
    json_method_switches(f, sim);
    clink_window_stats ws;
    clink_sim_window_get(sim, &ws);
    if (ws.in_use) /* the window of the state ran (on, or auto chose it; docs/kernel.md) */
        output_file_printf(
            f, ",\n  \"window\": {\"bodies\": %d, \"mean_awake\": %.6g, \"restarts\": %ld}",
            ws.bodies, ws.mean_awake, ws.restarts);
    json_number(f, "rtol", set.rtol);
    json_number(f, "atol", set.atol);
    json_number(f, "max_steps", set.max_steps);
    json_number(f, "min_step", set.min_step);
    json_number(f, "wall_limit", set.wall_limit);
    json_number(f, "output_step", set.output_step);
    json_long(f, "output_rows", r->rows);
    /* row_mode: the rows written; row_mode_auto: chosen by auto (the default) from the width */
    output_file_printf(f, ",\n  \"row_mode\": \"%s\",%s\n  \"output_format\": \"%s\"",
                       rows[(int) r->opt.rows % 3],
                       r->rows_auto ? "\n  \"row_mode_auto\": true," : "", r->ops->name);
    json_long(f, "dense_rows_per_step", r->opt.dense);
}

/* with Poincare sections: their names and the samples written */
static void summary_sections(const clink_recorder *r, out_file *f)
{
    if (r->nsec == 0)
        return;
    output_file_str(f, ",\n  \"poincare_sections\": [");
    for (int i = 0; i < r->nsec; i++) {
        char name[CLINK_NAME_MAX + 16];
        if (r->sec[i].name[0] != '\0')
            snprintf(name, sizeof name, "%s", r->sec[i].name);
        else
            snprintf(name, sizeof name, "section%d", i);
        output_file_str(f, i ? ", " : "");
        json_string(f, name);
    }
    output_file_str(f, "]");
    json_long(f, "poincare_points", r->nsrows);
}

void output_write_summary(clink_recorder *r, out_file *f, const clink_sim *sim,
                          const clink_run_info *in)
{
    clink_sim_stats st;
    double dq = 0, dv = 0;
    int i, nw = 0;

    memset(&st, 0, sizeof st);
    if (sim != NULL) {
        clink_sim_stats_get(sim, &st);
        clink_sim_assembly(sim, &dq, &dv);
    }
    write_summary_run(r, f, sim, in);
    json_long(f, "steps", st.steps);
    json_long(f, "rhs_calls", st.rhs_evals);
    json_long(f, "rhs_calls_jacobian", st.rhs_evals_jac);
    json_long(f, "error_test_failures", st.error_test_fails);
    json_long(f, "projections", st.proj_evals);
    json_long(f, "root_events", st.contact_events);
    json_long(f, "cvode_reinits", st.contact_reinits);
    json_long(f, "impacts", sim != NULL ? clink_sim_impact_count(sim) : 0);
    summary_sections(r, f);
    json_number(f, "max_constraint_violation_position", r->max_pos);
    json_number(f, "max_constraint_violation_velocity", r->max_vel);
    json_number(f, "energy_residual_final", r->last_balance);
    json_number(f, "energy_residual_max_abs", r->max_balance);
    json_number(f, "assembly_correction_position", dq);
    json_number(f, "assembly_correction_velocity", dv);
    output_file_str(f, ",\n  \"warnings\": [");
    for (i = 0; in->warnings != NULL && i < in->warning_count; i++) {
        output_file_str(f, nw++ ? ",\n    " : "\n    ");
        json_string(f, in->warnings[i]);
    }
    output_file_str(f, nw ? "\n  ]" : "]");
    if (in->wall_time >= 0)
        json_number(f, "wall_time", in->wall_time);
    else
        output_file_str(f, ",\n  \"wall_time\": null");
    output_file_str(f, "\n}\n");
    output_file_char(f, '\0'); /* a C string for results.h5; not written to summary.json */
    f->len--;
}
