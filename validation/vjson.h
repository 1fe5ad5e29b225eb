/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vjson: the result file of one validation case (and, below, the reference scripts and
 * the opening of a simulation that the validation programs share).
 *
 *   vjson *v = vjson_open(outdir, "feng_table2", "Feng (2026) Table 2");
 *   vjson_row(v, "e_out p=1.5 v0=0.1", computed, 0.5, 1e-6, "-");   absolute tolerance
 *   vjson_row_rel(v, "F_max steel 0.5 m/s", computed, ref, 5e-3, "N");  relative
 *   vjson_info(v, "rhs_calls", 1234, "-");    a measured figure with no reference
 *   return vjson_close(v);   writes OUTDIR/<case>.json, prints a table, 0 if all pass
 *
 * Each row prints one line to stdout as it is added, so the ctest log reads as
 * the comparison table. A NaN computed value always fails.
 */
#ifndef CLINK_VALIDATION_VJSON_H
#define CLINK_VALIDATION_VJSON_H

#include "clink/sim.h"

typedef struct vjson vjson;

vjson *vjson_open(const char *outdir, const char *case_name, const char *title);
/* |computed - reference| <= tolerance */
void vjson_row(vjson *v, const char *quantity, double computed, double reference, double tolerance,
               const char *unit);
/* |computed - reference| <= tolerance * |reference| */
void vjson_row_rel(vjson *v, const char *quantity, double computed, double reference,
                   double rel_tolerance, const char *unit);
/* a check with no published number: pass is given (for example a bound or an ordering) */
void vjson_check(vjson *v, const char *quantity, double computed, const char *criterion, int pass,
                 const char *unit);
/* a figure reported without a pass/fail judgement (statistics, timings) */
void vjson_info(vjson *v, const char *quantity, double value, const char *unit);
/* writes the file (temporary name, then rename); returns 0 when every row passed */
int vjson_close(vjson *v);

/*
 * Independent references (validation/ref_*.py, Python with NumPy/SciPy): the
 * validation program runs the script, which writes OUTDIR/<name>, lines
 * "key,value"; then reads it.
 *
 *   if (vref_run(outdir, "ref_double_pendulum.py", "") != 0) ... fail
 *   vref *r = vref_load(outdir, "double_pendulum_ref.csv");
 *   double t = vref_get(r, "flores.1.t");     NaN when the key is missing
 *   vref_free(r);
 */
typedef struct vref vref;

/* runs CLINK_PYTHON CLINK_SOURCE_DIR/validation/SCRIPT OUTDIR ARGS; its exit status */
int vref_run(const char *outdir, const char *script, const char *args);
vref *vref_load(const char *outdir, const char *name);
double vref_get(const vref *r, const char *key);
void vref_free(vref *r);

/*
 * The simulation of a loaded model under the model's own settings:
 *
 *   clink_sim *sim = vsim_create(&model);   NULL: the reason on stderr, model destroyed
 */
clink_sim *vsim_create(clink_model **model);

/* the root in [0, h] of the cubic Hermite interpolant of w between (0, w0) and (h, w1) with
   slopes a0 and a1, by 200 bisections (w0 and w1 of opposite signs) */
double vhermite_root(double w0, double a0, double w1, double a1, double h);

#endif
