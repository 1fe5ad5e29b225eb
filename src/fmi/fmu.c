/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fmu.c: the FMI 2.0 co-simulation interface of clink's FMU (docs/fmi.md), written
 * from the standard (Modelica Association, FMI 2.0, 2014, chapters 2 and 4): an
 * instance loads the model from the FMU's resources (resources/model.xml), creates its
 * simulation in fmi2EnterInitializationMode and advances it in fmi2DoStep
 * (clink_sim_advance to currentCommunicationPoint + communicationStepSize); the outputs
 * are read by fmi2GetReal through the variable table (fmu_vars.h). fmi2GetFMUstate and
 * fmi2SetFMUstate (and their serialisation) are the simulation's state snapshots
 * (clink_sim_state_peek, _restore): taking a state never changes the run (no restart of
 * the integrator), setting one restarts the integrator at its time.
 *
 * The instance's states follow the standard's state machine for co-simulation:
 * instantiated -> initialization mode -> slave initialised (stepping) -> terminated, and
 * error after a failed step; a call in a state where the standard does not allow it
 * returns fmi2Error with a message through the logger. What clink does not support
 * (directional derivatives, input derivatives, asynchronous steps, integer, boolean and
 * string variables) returns fmi2Error, as the standard allows.
 */
#include "fmi/fmi2.h"
#include "fmi/fmu_vars.h"

#include "clink/xml.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum fmu_mode {
    FMU_INSTANTIATED = 1,
    FMU_INITIALIZING = 2,
    FMU_STEPPING = 4,
    FMU_TERMINATED = 8,
    FMU_FAILED = 16
} fmu_mode;

typedef struct fmu {
    char name[128];
    fmi2CallbackFunctions cb;
    int logging;
    char model_path[4096];
    clink_model *m;
    clink_model *mp; /* the model with the parameters set (overrides), NULL when none is */
    clink_sim *sim;
    fmu_var *vars;
    int nvars;
    double *pending; /* per variable: an input's value set before the simulation exists, a
                        parameter's value set (NaN: none), applied when initialisation
                        begins */
    fmu_mode mode;
    double t_start, t_stop, tolerance;
    int stop_defined, tolerance_defined;
} fmu;

/* a state of fmi2GetFMUstate: a snapshot and the mode it was taken in */
typedef struct fmu_state {
    fmu_mode mode;
    size_t n;
    unsigned char bytes[];
} fmu_state;

/* a message to the importer's logger (errors always, the rest when logging is on) */
static void fmu_log(const fmu *f, fmi2Status st, const char *fmt, ...)
{
    if (!f->cb.logger || (st == fmi2OK && !f->logging))
        return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    f->cb.logger(f->cb.componentEnvironment, f->name, st,
                 st == fmi2OK ? "logAll" : "logStatusError", "%s", msg);
}

/* the instance of c when its mode is one of `allowed`, else NULL (logged) */
static fmu *fmu_in(fmi2Component c, int allowed, const char *call)
{
    fmu *f = c;
    if (!f)
        return NULL;
    if (!(f->mode & allowed)) {
        fmu_log(f, fmi2Error, "%s: not allowed in the instance's current state (%d)", call,
                (int) f->mode);
        return NULL;
    }
    return f;
}

const char *fmi2GetTypesPlatform(void)
{
    return "default";
}

const char *fmi2GetVersion(void)
{
    return "2.0";
}

fmi2Status fmi2SetDebugLogging(fmi2Component c, fmi2Boolean loggingOn, size_t nCategories,
                               const fmi2String categories[])
{
    fmu *f = c;
    if (!f)
        return fmi2Error;
    for (size_t i = 0; i < nCategories; i++)
        if (!categories || !categories[i] ||
            (strcmp(categories[i], "logAll") != 0 &&
             strcmp(categories[i], "logStatusError") != 0)) {
            fmu_log(f, fmi2Error, "fmi2SetDebugLogging: unknown category '%s'",
                    categories && categories[i] ? categories[i] : "(null)");
            return fmi2Error;
        }
    f->logging = loggingOn != fmi2False;
    return fmi2OK;
}

/* the directory of a file URI (the FMU's resources) into path; 0 or -1. Accepted:
   file:///path, file://localhost/path and file:/path (RFC 8089); another scheme, a
   remote host or a bare path is refused */
static int fmu_resource_path(const char *uri, char *path, size_t n)
{
    if (!uri || strncmp(uri, "file:", 5) != 0)
        return -1;
    const char *p = uri + 5;
    if (strncmp(p, "//", 2) == 0) {
        p += 2;
        if (strncmp(p, "localhost/", 10) == 0)
            p += 9;
        else if (*p != '/')
            return -1; /* a host other than this one */
    }
    if (*p != '/')
        return -1;
    /* percent-decoding of the path */
    size_t k = 0;
    for (; *p && k + 1 < n; p++) {
        unsigned hex;
        if (*p == '%' && sscanf(p + 1, "%2x", &hex) == 1) {
            path[k++] = (char) hex;
            p += 2;
        } else {
            path[k++] = *p;
        }
    }
    path[k] = '\0';
    while (k > 1 && path[k - 1] == '/')
        path[--k] = '\0';
    return *p ? -1 : 0;
}

/* the model of the FMU's resources, its GUID checked; 0 or -1 (logged) */
static int fmu_load(fmu *f, fmi2String guid, fmi2String resources)
{
    char dir[4000], err[512], mine[40] = "";
    if (fmu_resource_path(resources, dir, sizeof dir) != 0) {
        fmu_log(f, fmi2Error,
                "fmi2Instantiate: resource location '%s' is not a local file URI "
                "(file:///path, file://localhost/path or file:/path)",
                resources ? resources : "(null)");
        return -1;
    }
    snprintf(f->model_path, sizeof f->model_path, "%s/model.xml", dir);
    if (fmu_guid(f->model_path, mine) != 0) {
        fmu_log(f, fmi2Error, "fmi2Instantiate: the model %s cannot be read: %s", f->model_path,
                strerror(errno));
        return -1;
    }
    if (!guid || strcmp(guid, mine) != 0) {
        fmu_log(f, fmi2Error, "fmi2Instantiate: GUID %s does not match the model %s (%s)",
                guid ? guid : "(null)", f->model_path, mine);
        return -1;
    }
    f->m = clink_model_load_xml(f->model_path, err, sizeof err);
    if (!f->m) {
        fmu_log(f, fmi2Error, "fmi2Instantiate: %s", err);
        return -1;
    }
    if (fmu_vars_build(f->m, f->model_path, &f->vars, &f->nvars) != 0 ||
        !(f->pending = malloc(sizeof(double) * (size_t) (f->nvars > 0 ? f->nvars : 1)))) {
        fmu_log(f, fmi2Error, "fmi2Instantiate: out of memory");
        return -1;
    }
    for (int i = 0; i < f->nvars; i++)
        f->pending[i] = NAN;
    int dup = fmu_vars_duplicate(f->vars, f->nvars);
    if (dup >= 0) {
        fmu_log(f, fmi2Error, "fmi2Instantiate: two variables are named '%s'", f->vars[dup].name);
        return -1;
    }
    return 0;
}

fmi2Component fmi2Instantiate(fmi2String instanceName, fmi2Type fmuType, fmi2String fmuGUID,
                              fmi2String fmuResourceLocation,
                              const fmi2CallbackFunctions *functions, fmi2Boolean visible,
                              fmi2Boolean loggingOn)
{
    (void) visible;
    /* without callbacks nothing can even be reported */
    if (!functions || !functions->logger)
        return NULL;
    fmu *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->cb = *functions;
    snprintf(f->name, sizeof f->name, "%s", instanceName ? instanceName : "");
    f->logging = loggingOn != fmi2False;
    f->mode = FMU_INSTANTIATED;
    if (!instanceName || !instanceName[0] || fmuType != fmi2CoSimulation) {
        fmu_log(f, fmi2Error, "fmi2Instantiate: %s",
                fmuType != fmi2CoSimulation ? "this FMU is for co-simulation only"
                                            : "an instance name is needed");
        free(f);
        return NULL;
    }
    if (fmu_load(f, fmuGUID, fmuResourceLocation) != 0) {
        clink_model_destroy(&f->m);
        free(f->vars);
        free(f->pending);
        free(f);
        return NULL;
    }
    return f;
}

void fmi2FreeInstance(fmi2Component c)
{
    fmu *f = c;
    if (!f)
        return;
    clink_sim_destroy(&f->sim);
    clink_model_destroy(&f->mp);
    clink_model_destroy(&f->m);
    free(f->vars);
    free(f->pending);
    free(f);
}

fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean toleranceDefined, fmi2Real tolerance,
                               fmi2Real startTime, fmi2Boolean stopTimeDefined, fmi2Real stopTime)
{
    fmu *f = fmu_in(c, FMU_INSTANTIATED, "fmi2SetupExperiment");
    if (!f)
        return fmi2Error;
    if (startTime != 0.0 || (stopTimeDefined && !(stopTime > 0.0 && isfinite(stopTime))) ||
        (toleranceDefined && !(tolerance > 0.0 && tolerance < 1.0))) {
        fmu_log(f, fmi2Error,
                "fmi2SetupExperiment: the start time must be 0 (got %g), the stop time finite "
                "and after it (%g) and the tolerance in (0, 1) (%g)",
                startTime, stopTime, tolerance);
        return fmi2Error;
    }
    f->t_start = startTime;
    f->stop_defined = stopTimeDefined != fmi2False;
    f->t_stop = stopTime;
    f->tolerance_defined = toleranceDefined != fmi2False;
    f->tolerance = tolerance;
    return fmi2OK;
}

/* the model with the parameters set into f->mp (as `clink run --set PATH=VALUE` for each,
   in value-reference order), or none when no parameter is set; 0, or -1 (logged) */
static int fmu_parameters(fmu *f, const char *call)
{
    clink_model_destroy(&f->mp);
    int n = 0;
    for (int i = 0; i < f->nvars; i++)
        n += f->vars[i].kind == FMU_VAR_PARAM && !isnan(f->pending[i]);
    if (n == 0)
        return 0;
    char(*text)[FMU_PATH_MAX + 32] = malloc((size_t) n * sizeof *text);
    const char **sets = malloc((size_t) n * sizeof *sets);
    clink_xml_applied *applied = malloc((size_t) n * sizeof *applied);
    char err[1024] = "out of memory";
    clink_status st = CLINK_ERR_NOMEM;
    if (text && sets && applied) {
        int k = 0;
        for (int i = 0; i < f->nvars; i++)
            if (f->vars[i].kind == FMU_VAR_PARAM && !isnan(f->pending[i])) {
                snprintf(text[k], sizeof text[k], "%s=%.17g", f->vars[i].path, f->pending[i]);
                sets[k] = text[k];
                k++;
            }
        st = clink_xml_load_with(f->model_path, sets, n, applied, &f->mp, NULL, err, sizeof err);
    }
    free(text);
    free(sets);
    free(applied);
    if (st != CLINK_OK) {
        fmu_log(f, fmi2Error, "%s: the parameters: %s", call, err);
        return -1;
    }
    return 0;
}

/* the simulation at t = 0 of the model with its parameters, the inputs set before it
   given to it; 0, or -1 (logged, no simulation) */
static int fmu_start(fmu *f, const char *call)
{
    if (fmu_parameters(f, call) != 0)
        return -1;
    const clink_model *m = f->mp ? f->mp : f->m;
    clink_settings_def set = clink_model_settings(m);
    if (f->tolerance_defined)
        set.rtol = f->tolerance; /* the importer's relative tolerance */
    char err[512];
    if (clink_sim_create(m, &set, &f->sim, err, sizeof err) != CLINK_OK) {
        fmu_log(f, fmi2Error, "%s: %s", call, err);
        return -1;
    }
    for (int i = 0; i < f->nvars; i++)
        if (f->vars[i].kind == FMU_VAR_INPUT && !isnan(f->pending[i]) &&
            clink_sim_set_input(f->sim, f->vars[i].index, f->pending[i], 0.0) != CLINK_OK) {
            fmu_log(f, fmi2Error, "%s: %s: %s", call, f->vars[i].name, clink_sim_error(f->sim));
            clink_sim_destroy(&f->sim);
            return -1;
        }
    return 0;
}

fmi2Status fmi2EnterInitializationMode(fmi2Component c)
{
    fmu *f = fmu_in(c, FMU_INSTANTIATED, "fmi2EnterInitializationMode");
    if (!f || fmu_start(f, "fmi2EnterInitializationMode") != 0)
        return fmi2Error;
    f->mode = FMU_INITIALIZING;
    return fmi2OK;
}

fmi2Status fmi2ExitInitializationMode(fmi2Component c)
{
    fmu *f = fmu_in(c, FMU_INITIALIZING, "fmi2ExitInitializationMode");
    if (!f)
        return fmi2Error;
    f->mode = FMU_STEPPING;
    return fmi2OK;
}

fmi2Status fmi2Terminate(fmi2Component c)
{
    fmu *f = fmu_in(c, FMU_STEPPING | FMU_FAILED, "fmi2Terminate");
    if (!f)
        return fmi2Error;
    f->mode = FMU_TERMINATED;
    return fmi2OK;
}

fmi2Status fmi2Reset(fmi2Component c)
{
    fmu *f =
        fmu_in(c, FMU_INSTANTIATED | FMU_INITIALIZING | FMU_STEPPING | FMU_TERMINATED | FMU_FAILED,
               "fmi2Reset");
    if (!f)
        return fmi2Error;
    clink_sim_destroy(&f->sim);
    clink_model_destroy(&f->mp);
    f->mode = FMU_INSTANTIATED;
    f->stop_defined = f->tolerance_defined = 0;
    for (int i = 0; i < f->nvars; i++)
        f->pending[i] = NAN;
    return fmi2OK;
}

/* the variable of value reference r, NULL (logged) if none */
static const fmu_var *fmu_var_of(fmu *f, fmi2ValueReference r, const char *call)
{
    if (r < (fmi2ValueReference) f->nvars)
        return &f->vars[r];
    fmu_log(f, fmi2Error, "%s: no variable has the value reference %u", call, (unsigned) r);
    return NULL;
}

fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2Real value[])
{
    fmu *f =
        fmu_in(c, FMU_INITIALIZING | FMU_STEPPING | FMU_TERMINATED | FMU_FAILED, "fmi2GetReal");
    if (!f)
        return fmi2Error;
    if (nvr && (!vr || !value))
        return fmi2Error;
    for (size_t i = 0; i < nvr; i++) {
        const fmu_var *v = fmu_var_of(f, vr[i], "fmi2GetReal");
        if (!v)
            return fmi2Error;
        if (v->kind == FMU_VAR_PARAM) {
            value[i] = isnan(f->pending[vr[i]]) ? v->start : f->pending[vr[i]];
            continue;
        }
        clink_status st = fmu_var_value(f->sim, v, &value[i]);
        if (st != CLINK_OK) {
            fmu_log(f, fmi2Error, "fmi2GetReal: %s: %s", v->name, clink_sim_error(f->sim));
            return fmi2Error;
        }
    }
    return fmi2OK;
}

/*
 * fmi2SetReal: the inputs and the parameters can be set; an output is refused, as the
 * standard says. Before initialisation an input's value waits (pending) and is given to
 * the simulation when it is created; afterwards it goes to clink_sim_set_input with slope
 * 0: held over the next fmi2DoStep, and a changed value restarts the integrator there (the
 * same value again changes nothing; docs/fmi.md, "Inputs"). A parameter ("fixed") is set
 * before fmi2EnterInitializationMode or in initialisation mode, where the simulation is
 * made again from the model with the parameters set; later it is refused.
 */
static int fmu_set_check(fmu *f, const fmi2ValueReference vr[], size_t nvr, const fmi2Real value[],
                         int *params)
{
    *params = 0;
    for (size_t i = 0; i < nvr; i++) {
        const fmu_var *v = fmu_var_of(f, vr[i], "fmi2SetReal");
        if (!v)
            return -1;
        const char *why = v->kind == FMU_VAR_PARAM
                              ? (f->mode == FMU_STEPPING ? "is a parameter, fixed once "
                                                           "initialisation ends"
                                                         : NULL)
                          : v->kind != FMU_VAR_INPUT ? "is an output and cannot be set"
                                                     : NULL;
        if (!why && !isfinite(value[i]))
            why = "is not finite";
        if (why) {
            fmu_log(f, fmi2Error, "fmi2SetReal: %s = %g %s (nothing set)", v->name, value[i], why);
            return -1;
        }
        *params += v->kind == FMU_VAR_PARAM;
    }
    return 0;
}

fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                       const fmi2Real value[])
{
    fmu *f = fmu_in(c, FMU_INSTANTIATED | FMU_INITIALIZING | FMU_STEPPING, "fmi2SetReal");
    if (!f)
        return fmi2Error;
    if (nvr > 0 && (!vr || !value)) {
        fmu_log(f, fmi2Error, "fmi2SetReal: NULL value references or values");
        return fmi2Error;
    }
    /* every value checked before any is set: a refused call changes nothing */
    int params;
    if (fmu_set_check(f, vr, nvr, value, &params) != 0)
        return fmi2Error;
    /* a parameter set in initialisation mode makes the simulation again: the values it
       replaces are kept to make it again as it was if the new ones are refused */
    double *old = params && f->sim ? malloc(nvr * sizeof *old) : NULL;
    if (params && f->sim && !old) {
        fmu_log(f, fmi2Error, "fmi2SetReal: out of memory (nothing set)");
        return fmi2Error;
    }
    for (size_t i = 0; i < nvr; i++) {
        const fmu_var *v = &f->vars[vr[i]];
        if (old)
            old[i] = f->pending[vr[i]];
        if (!f->sim || v->kind == FMU_VAR_PARAM || f->mode == FMU_INITIALIZING)
            f->pending[vr[i]] = value[i]; /* kept for a simulation made again */
        if (!old && f->sim && v->kind == FMU_VAR_INPUT &&
            clink_sim_set_input(f->sim, v->index, value[i], 0.0) != CLINK_OK) {
            fmu_log(f, fmi2Error, "fmi2SetReal: %s: %s", v->name, clink_sim_error(f->sim));
            return fmi2Error;
        }
    }
    if (!old)
        return fmi2OK;
    clink_sim_destroy(&f->sim);
    fmi2Status st = fmi2OK;
    if (fmu_start(f, "fmi2SetReal") != 0) {
        for (size_t i = nvr; i-- > 0;)
            f->pending[vr[i]] = old[i];
        st = fmi2Error;
        if (fmu_start(f, "fmi2SetReal") != 0)
            f->mode = FMU_INSTANTIATED; /* no simulation: initialisation starts again */
    }
    free(old);
    return st;
}

/* a communication point within this relative distance of the instance's time is taken as
   that time: a master computing t_k = k h differs from the sum of its steps in the last
   bits (about k rounding errors of t) */
#define FMU_POINT_RTOL 1e-9

/* the advance of f's simulation to target in pieces, the first the model's output step
   and each next one twice as long; after each piece the steps to the target at the pace so
   far are projected, and a step that would take more than max_steps in all stops there
   (fmi2Error, logged) instead of integrating millions of steps first. Outputs never steer
   the integrator, so the pieces leave the results as one advance would */
static fmi2Status fmu_advance(fmu *f, double target)
{
    clink_settings_def set = clink_sim_settings(f->sim);
    clink_sim_stats st;
    clink_sim_stats_get(f->sim, &st);
    double t0 = clink_sim_time(f->sim), piece = set.output_step > 0.0 ? set.output_step : 1e-3;
    long steps0 = st.steps;
    for (double t = t0; t < target; piece *= 2.0) {
        double to = target - t > piece ? t + piece : target;
        if (clink_sim_advance(f->sim, to) != CLINK_OK) {
            fmu_log(f, fmi2Error, "fmi2DoStep: %s", clink_sim_error(f->sim));
            return fmi2Error;
        }
        t = to;
        clink_sim_stats_get(f->sim, &st);
        double pace = (double) (st.steps - steps0) / (t - t0), need = pace * (target - t);
        if (t < target && (double) st.steps + need > set.max_steps) {
            fmu_log(
                f, fmi2Error,
                "fmi2DoStep: the step to t = %g s would need about %.3g more integrator steps "
                "at the pace of the first %ld steps (%g s covered, the instance now at t = %.17g "
                "s), more than max_steps %.3g allows: a shorter step, or a larger "
                "max_steps in the model's settings",
                target, need, st.steps - steps0, t - t0, t, set.max_steps);
            return fmi2Error;
        }
    }
    return fmi2OK;
}

fmi2Status fmi2DoStep(fmi2Component c, fmi2Real currentCommunicationPoint,
                      fmi2Real communicationStepSize, fmi2Boolean noSetFMUStatePriorToCurrentPoint)
{
    (void) noSetFMUStatePriorToCurrentPoint;
    fmu *f = fmu_in(c, FMU_STEPPING, "fmi2DoStep");
    if (!f)
        return fmi2Error;
    double t = clink_sim_time(f->sim), target = currentCommunicationPoint + communicationStepSize;
    int at_t = fabs(currentCommunicationPoint - t) <= FMU_POINT_RTOL * fabs(t);
    const char *why = !at_t ? "is not the instance's time (within a relative 1e-9)"
                      : !(communicationStepSize > 0.0) || !(target > t) || !isfinite(target)
                          ? "has a step that is not > 0 and finite"
                      : f->stop_defined && target > f->t_stop ? "ends after the stop time"
                                                              : NULL;
    if (why) {
        fmu_log(f, fmi2Error,
                "fmi2DoStep: the step from %.17g s by %g s %s (the instance's time %.17g s, "
                "stop time %g s)",
                currentCommunicationPoint, communicationStepSize, why, t,
                f->stop_defined ? f->t_stop : INFINITY);
        return fmi2Error;
    }
    if (fmu_advance(f, target) != fmi2OK) {
        f->mode = FMU_FAILED;
        return fmi2Error;
    }
    return fmi2OK;
}

/* ---- FMU states: the simulation's snapshots ---------------------------------------- */

fmi2Status fmi2GetFMUstate(fmi2Component c, fmi2FMUstate *state)
{
    fmu *f = fmu_in(c, FMU_INITIALIZING | FMU_STEPPING | FMU_TERMINATED, "fmi2GetFMUstate");
    if (!f || !state)
        return fmi2Error;
    size_t n = clink_sim_state_size(f->sim);
    fmu_state *s = malloc(sizeof *s + n);
    if (!s) {
        fmu_log(f, fmi2Error, "fmi2GetFMUstate: out of memory");
        return fmi2Error;
    }
    /* peek, not save: taking a state leaves the run as one that never took one */
    if (clink_sim_state_peek(f->sim, s->bytes, n) != CLINK_OK) {
        fmu_log(f, fmi2Error, "fmi2GetFMUstate: %s", clink_sim_error(f->sim));
        free(s);
        return fmi2Error;
    }
    s->mode = f->mode;
    s->n = n;
    if (*state)
        free(*state); /* the standard: a non-NULL *state is overwritten */
    *state = s;
    return fmi2OK;
}

fmi2Status fmi2SetFMUstate(fmi2Component c, fmi2FMUstate state)
{
    fmu *f =
        fmu_in(c, FMU_INITIALIZING | FMU_STEPPING | FMU_TERMINATED | FMU_FAILED, "fmi2SetFMUstate");
    const fmu_state *s = state;
    if (!f || !s)
        return fmi2Error;
    if (clink_sim_state_restore(f->sim, s->bytes, s->n) != CLINK_OK) {
        fmu_log(f, fmi2Error, "fmi2SetFMUstate: %s", clink_sim_error(f->sim));
        return fmi2Error;
    }
    f->mode = s->mode;
    return fmi2OK;
}

fmi2Status fmi2FreeFMUstate(fmi2Component c, fmi2FMUstate *state)
{
    if (!c || !state)
        return fmi2Error;
    free(*state);
    *state = NULL;
    return fmi2OK;
}

fmi2Status fmi2SerializedFMUstateSize(fmi2Component c, fmi2FMUstate state, size_t *size)
{
    const fmu_state *s = state;
    if (!c || !s || !size)
        return fmi2Error;
    *size = sizeof(int) + s->n;
    return fmi2OK;
}

fmi2Status fmi2SerializeFMUstate(fmi2Component c, fmi2FMUstate state, fmi2Byte serializedState[],
                                 size_t size)
{
    const fmu_state *s = state;
    if (!c || !s || !serializedState || size < sizeof(int) + s->n)
        return fmi2Error;
    int mode = (int) s->mode;
    memcpy(serializedState, &mode, sizeof mode);
    memcpy(serializedState + sizeof mode, s->bytes, s->n);
    return fmi2OK;
}

fmi2Status fmi2DeSerializeFMUstate(fmi2Component c, const fmi2Byte serializedState[], size_t size,
                                   fmi2FMUstate *state)
{
    int mode;
    if (!c || !serializedState || !state || size <= sizeof mode)
        return fmi2Error;
    memcpy(&mode, serializedState, sizeof mode);
    if (mode != FMU_INITIALIZING && mode != FMU_STEPPING && mode != FMU_TERMINATED)
        return fmi2Error;
    fmu_state *s = malloc(sizeof *s + (size - sizeof mode));
    if (!s)
        return fmi2Error;
    s->mode = (fmu_mode) mode;
    s->n = size - sizeof mode;
    memcpy(s->bytes, serializedState + sizeof mode, s->n);
    free(*state);
    *state = s;
    return fmi2OK; /* the snapshot's checks are made by fmi2SetFMUstate */
}

/* ---- what clink's FMU does not support: fmi2Error, as the standard allows ------------ */

/* no variable of the type exists: only an empty request succeeds */
static fmi2Status fmu_none(fmi2Component c, size_t nvr, const char *call)
{
    fmu *f = c;
    if (!f)
        return fmi2Error;
    if (nvr == 0)
        return fmi2OK;
    fmu_log(f, fmi2Error, "%s: the FMU has no variable of this type", call);
    return fmi2Error;
}

fmi2Status fmi2GetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                          fmi2Integer value[])
{
    (void) vr, (void) value;
    return fmu_none(c, nvr, "fmi2GetInteger");
}

fmi2Status fmi2GetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                          fmi2Boolean value[])
{
    (void) vr, (void) value;
    return fmu_none(c, nvr, "fmi2GetBoolean");
}

fmi2Status fmi2GetString(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                         fmi2String value[])
{
    (void) vr, (void) value;
    return fmu_none(c, nvr, "fmi2GetString");
}

fmi2Status fmi2SetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                          const fmi2Integer value[])
{
    (void) vr, (void) value;
    return fmu_none(c, nvr, "fmi2SetInteger");
}

fmi2Status fmi2SetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                          const fmi2Boolean value[])
{
    (void) vr, (void) value;
    return fmu_none(c, nvr, "fmi2SetBoolean");
}

fmi2Status fmi2SetString(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                         const fmi2String value[])
{
    (void) vr, (void) value;
    return fmu_none(c, nvr, "fmi2SetString");
}

fmi2Status fmi2GetDirectionalDerivative(fmi2Component c, const fmi2ValueReference vUnknown_ref[],
                                        size_t nUnknown, const fmi2ValueReference vKnown_ref[],
                                        size_t nKnown, const fmi2Real dvKnown[],
                                        fmi2Real dvUnknown[])
{
    (void) vUnknown_ref, (void) nUnknown, (void) vKnown_ref, (void) nKnown, (void) dvKnown,
        (void) dvUnknown;
    if (c)
        fmu_log(c, fmi2Error, "fmi2GetDirectionalDerivative: not supported");
    return fmi2Error;
}

fmi2Status fmi2SetRealInputDerivatives(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                       const fmi2Integer order[], const fmi2Real value[])
{
    (void) vr, (void) order, (void) value;
    return fmu_none(c, nvr, "fmi2SetRealInputDerivatives");
}

fmi2Status fmi2GetRealOutputDerivatives(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                        const fmi2Integer order[], fmi2Real value[])
{
    (void) vr, (void) order, (void) value;
    if (c && nvr)
        fmu_log(c, fmi2Error,
                "fmi2GetRealOutputDerivatives: not supported "
                "(MaxOutputDerivativeOrder 0)");
    return c && nvr == 0 ? fmi2OK : fmi2Error;
}

fmi2Status fmi2CancelStep(fmi2Component c)
{
    if (c)
        fmu_log(c, fmi2Error, "fmi2CancelStep: steps are never asynchronous here");
    return fmi2Error;
}

fmi2Status fmi2GetStatus(fmi2Component c, const fmi2StatusKind s, fmi2Status *value)
{
    (void) s, (void) value;
    if (c)
        fmu_log(c, fmi2Error, "fmi2GetStatus: steps are never asynchronous here");
    return fmi2Error;
}

fmi2Status fmi2GetRealStatus(fmi2Component c, const fmi2StatusKind s, fmi2Real *value)
{
    fmu *f = fmu_in(c, FMU_STEPPING | FMU_FAILED | FMU_TERMINATED, "fmi2GetRealStatus");
    if (!f || s != fmi2LastSuccessfulTime || !value)
        return fmi2Error;
    *value = clink_sim_time(f->sim);
    return fmi2OK;
}

fmi2Status fmi2GetIntegerStatus(fmi2Component c, const fmi2StatusKind s, fmi2Integer *value)
{
    (void) s, (void) value;
    (void) c;
    return fmi2Error;
}

fmi2Status fmi2GetBooleanStatus(fmi2Component c, const fmi2StatusKind s, fmi2Boolean *value)
{
    fmu *f = fmu_in(c, FMU_STEPPING | FMU_FAILED | FMU_TERMINATED, "fmi2GetBooleanStatus");
    if (!f || s != fmi2Terminated || !value)
        return fmi2Error;
    *value = fmi2False; /* the slave never asks to end the simulation */
    return fmi2OK;
}

fmi2Status fmi2GetStringStatus(fmi2Component c, const fmi2StatusKind s, fmi2String *value)
{
    (void) s, (void) value;
    (void) c;
    return fmi2Error;
}
