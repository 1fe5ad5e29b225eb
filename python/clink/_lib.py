# SPDX-License-Identifier: BSD-3-Clause
"""The C declarations clink's Python package uses, and the shared library.

cffi in ABI mode: the declarations below mirror include/clink/*.h (only what
the package calls); tests/python/test_layout.py compiles the real headers and
checks every struct's size and field offsets against these, so that a header
changed without this file fails the tests instead of corrupting memory.

The library is found, in order: the environment variable CLINK_LIBRARY (a
path to libclink.so), the copy inside the package (libclink.so next to this
file, put there by `pip install .`: setup.py), the path recorded at install
time (_paths.py, written by `cmake --install` and by the Debian package), then
the system's search (ctypes.util.find_library).
"""

import ctypes.util
import os

from cffi import FFI

CDEF = r"""
typedef enum clink_status {
    CLINK_OK = 0, CLINK_ERR_NOMEM = -1, CLINK_ERR_ARG = -2, CLINK_ERR_RANGE = -3,
    CLINK_ERR_NOT_FOUND = -4, CLINK_ERR_IO = -5, CLINK_ERR_PARSE = -6, CLINK_ERR_MODEL = -7,
    CLINK_ERR_SINGULAR = -8, CLINK_ERR_ASSEMBLY = -9, CLINK_ERR_SOLVER = -10,
    CLINK_ERR_LINSOLVE = -11, CLINK_ERR_NONFINITE = -12, CLINK_ERR_STATE = -13,
    CLINK_ERR_NO_CONVERGENCE = -14, CLINK_ERR_INTERNAL = -15
} clink_status;
typedef struct clink_model clink_model;
typedef struct clink_sim clink_sim;
const char *clink_version(void);
const char *clink_status_name(clink_status status);

typedef enum clink_entity {
    CLINK_ENTITY_BODY = 0, CLINK_ENTITY_JOINT = 1, CLINK_ENTITY_DRIVER = 2,
    CLINK_ENTITY_FORCE = 3
    /* then one per element kind, in the order of CLINK_ELEMENT_KINDS (clink.Model) */
} clink_entity;
typedef enum clink_method {
    CLINK_METHOD_BDF = 0, CLINK_METHOD_ADAMS = 1, CLINK_METHOD_RK4 = 2, CLINK_METHOD_AUTO = 3,
    CLINK_METHOD_RK8 = 4, CLINK_METHOD_COUNT = 5
} clink_method;
const char *clink_method_name(clink_method method);
unsigned clink_method_caps(clink_method method);
typedef enum clink_drift {
    CLINK_DRIFT_PROJECTION = 0, CLINK_DRIFT_BAUMGARTE = 1, CLINK_DRIFT_NONE = 2,
    CLINK_DRIFT_AUTO = 3
} clink_drift;
typedef enum clink_contact_bookkeeping {
    CLINK_BOOKKEEPING_EPISODES = 0, CLINK_BOOKKEEPING_HYSTERESIS = 1
} clink_contact_bookkeeping;
typedef struct clink_settings_def {
    double t_end; double output_step; double rtol; double atol; double max_step;
    clink_method method; clink_drift drift;
    double baumgarte_alpha; double baumgarte_beta; double settle_speed;
    double max_steps; double min_step; double wall_limit;
    clink_contact_bookkeeping contact_bookkeeping;
    int cookie;
    int strict;
    int start;
    int window;
} clink_settings_def;
void clink_model_destroy(clink_model **model);
int clink_model_count(const clink_model *model, clink_entity kind);
int clink_model_warning_count(const clink_model *model);
const char *clink_model_warning(const clink_model *model, int i);
int clink_model_element_count(const clink_model *model);
int clink_model_contact_count(const clink_model *model);
int clink_model_element_kind(const clink_model *model, int e);
int clink_model_contact_has_eccentricity(const clink_model *model, int i);
const char *clink_model_element_name(const clink_model *model, int e);
int clink_model_contact_element(const clink_model *model, int i);
const char *clink_model_contact_name(const clink_model *model, int i);
int clink_model_element_output_count(const clink_model *model, int e);
const char *clink_model_element_output_name(const clink_model *model, int e, int j,
                                            const char **unit);
int clink_model_element_bodies(const clink_model *model, int e, int *body_a, int *body_b);
int clink_model_element_outputs(const clink_model *model, int e, const double q_a[3],
                                const double q_b[3], double *values);
const char *clink_model_driver_unit(const clink_model *model, int id);
const char *clink_model_element_kind_name(int kind);
const char *clink_model_element_kind_word(int kind);
int clink_model_element_field_count(const clink_model *model, int e);
int clink_model_element_field(const clink_model *model, int e, int j, const char **name,
                              const char **child, const char **unit, double value[2]);
int clink_model_law_warnings(const clink_model *model, char *buf, size_t size);
const char *clink_model_name(const clink_model *model, clink_entity kind, int id);
clink_settings_def clink_model_settings(const clink_model *model);

typedef struct clink_section_def {
    char name[65]; int kind; int driver; int body; int coordinate;
    double value; double period; double start; int direction; int line;
} clink_section_def;
typedef struct clink_xml_summary {
    char name[64];
    int bodies; int joints; int clearance_joints; int drivers; int loads; int contacts;
    int constraints; int dof; int has_gravity;
    char laws[256];
    int out_reactions; int out_energies; int out_contacts;
    int out_rows; int out_dense; int out_format;
    clink_section_def sections[16]; int nsections;
} clink_xml_summary;
typedef struct clink_xml_applied {
    char path[256]; char value[256]; char previous[256]; long line;
} clink_xml_applied;
clink_status clink_xml_load_with(const char *path, const char *const *sets, int n_sets,
                                 clink_xml_applied *applied, clink_model **model,
                                 clink_xml_summary *summary, char *err, size_t err_size);
clink_status clink_xml_load_memory_with(const char *data, size_t size, const char *name,
                                        const char *const *sets, int n_sets,
                                        clink_xml_applied *applied, clink_model **model,
                                        clink_xml_summary *summary, char *err, size_t err_size);

clink_status clink_sim_create(const clink_model *model, const clink_settings_def *settings,
                              clink_sim **sim, char *err, size_t err_size);
void clink_sim_destroy(clink_sim **sim);
clink_settings_def clink_sim_settings(const clink_sim *sim);
const char *clink_sim_error(const clink_sim *sim);
clink_status clink_sim_advance(clink_sim *sim, double t);
clink_status clink_sim_set_stop_time(clink_sim *sim, double t_stop);
double clink_sim_time(const clink_sim *sim);
typedef enum clink_output_level {
    CLINK_OUTPUT_STATE = 1, CLINK_OUTPUT_CONTACTS = 2, CLINK_OUTPUT_ALL = 3
} clink_output_level;
clink_status clink_sim_set_outputs(clink_sim *sim, clink_output_level level);
clink_status clink_sim_set_output_contacts(clink_sim *sim, const int *contacts, int n);
clink_output_level clink_sim_output_level(const clink_sim *sim);
clink_status clink_sim_body_state(const clink_sim *sim, int body, double q[3], double v[3]);
clink_status clink_sim_body_acceleration(const clink_sim *sim, int body, double a[3]);
clink_status clink_sim_joint_reaction(const clink_sim *sim, int joint, double force[3]);
clink_status clink_sim_driver_force(const clink_sim *sim, int driver, double *force);
typedef struct clink_energy {
    double kinetic; double gravity; double spring; double work_drivers; double work_loads;
    double balance; double contact_stored; double contact_damping; double contact_friction;
    double work_stabilisation;
} clink_energy;
clink_status clink_sim_energy(const clink_sim *sim, clink_energy *energy);
void clink_sim_constraint_violation(const clink_sim *sim, double *position, double *velocity);
void clink_sim_assembly(const clink_sim *sim, double *dq_norm, double *dv_norm);
int clink_sim_redundant_constraints(const clink_sim *sim, char *names, size_t size);
typedef struct clink_sim_stats {
    long steps; long rhs_evals; long rhs_evals_jac; long jac_evals; long lin_setups;
    long error_test_fails; long nonlin_iters; long nonlin_fails; long proj_evals;
    long proj_fails; long klu_factors; long klu_refactors; double last_step; int last_order;
    long contact_events; long contact_reinits; long findings; long implausible;
    long root_evals; long root_evals_partial;
} clink_sim_stats;
void clink_sim_stats_get(const clink_sim *sim, clink_sim_stats *stats);
typedef struct clink_method_switch {
    double t; int from; int to; char reason[128];
} clink_method_switch;
int clink_sim_method_switches(const clink_sim *sim, clink_method_switch *out, int max);
typedef struct clink_sim_finding {
    int kind; int severity; double t; int contact; double value; double relative;
    double limit; char message[256];
} clink_sim_finding;
int clink_sim_finding_count(const clink_sim *sim);
clink_status clink_sim_finding_get(const clink_sim *sim, int i, clink_sim_finding *finding);
typedef enum clink_contact_phase {
    CLINK_CONTACT_OPEN = 0, CLINK_CONTACT_COMPRESSION = 1, CLINK_CONTACT_RESTITUTION = 2,
    CLINK_CONTACT_RELEASED = 3
} clink_contact_phase;
int clink_sim_contact_count(const clink_sim *sim);
typedef struct clink_contact_info {
    double delta; double delta_dot; double fn; double ft; double normal[2];
    double point_a[2]; double point_b[2]; double eccentricity[2];
    clink_contact_phase phase; int persistent;
} clink_contact_info;
clink_status clink_sim_contact(const clink_sim *sim, int contact, clink_contact_info *info);
clink_status clink_sim_element_outputs(const clink_sim *sim, int e, double *values);
typedef struct clink_impact_record {
    int contact; double t_onset; double duration; double v_impact; double v_separation;
    double restitution; double delta_max; double F_max; double dissipated; double m_eff;
    int persistent; int lobes;
} clink_impact_record;
int clink_sim_impact_count(const clink_sim *sim);
clink_status clink_sim_impact(const clink_sim *sim, int i, clink_impact_record *record);
typedef void (*clink_impact_fn)(void *data, const clink_impact_record *record);
void clink_sim_set_impact_callback(clink_sim *sim, clink_impact_fn fn, void *data);
size_t clink_sim_state_size(const clink_sim *sim);
clink_status clink_sim_state_save(clink_sim *sim, void *buf, size_t size);
clink_status clink_sim_state_restore(clink_sim *sim, const void *buf, size_t size);

int clink_model_input_count(const clink_model *model);
const char *clink_model_input_name(const clink_model *model, int i);
int clink_model_input_kind(const clink_model *model, int i);
int clink_sim_input_count(const clink_sim *sim);
int clink_sim_input_index(const clink_sim *sim, const char *name);
clink_status clink_sim_set_input(clink_sim *sim, int index, double value, double slope);
clink_status clink_sim_set_input_by_name(clink_sim *sim, const char *name, double value,
                                         double slope);
clink_status clink_sim_input(const clink_sim *sim, int index, double *value, double *slope);
typedef int (*clink_user_force_fn)(void *data, double t, int n, const double *q,
                                   const double *v, double *f);
typedef int (*clink_user_force_jac_fn)(void *data, double t, int n, const double *q,
                                       const double *v, double *dfdq, double *dfdv);
clink_status clink_sim_set_user_force(clink_sim *sim, const char *name, clink_user_force_fn fn,
                                      clink_user_force_jac_fn jac, void *data);

typedef struct clink_contact_params {
    double K; double n; double e; double chi; double c; double alpha; double v_ref;
    double E1; double E2; double nu1; double nu2; double R1; double R2;
    double eta1; double eta2; double Y; double psi; double xi; double zero_force;
    double L;
} clink_contact_params;
void clink_contact_params_init(clink_contact_params *params);
clink_status clink_contact_params_set(clink_contact_params *params, const char *key,
                                      double value);
size_t clink_contact_params_key_count(void);
const char *clink_contact_params_key(size_t i);
typedef struct clink_law clink_law;
size_t clink_law_count(void);
const clink_law *clink_law_at(size_t i);
const clink_law *clink_law_find(const char *name);
typedef struct clink_law_info {
    const char *name; const char *aliases; const char *title; const char *formula;
    const char *damping; const char *reference; const char *required; const char *optional;
    const char *separation; int can_pull; double n_default; double m;
} clink_law_info;
void clink_law_get_info(const clink_law *law, clink_law_info *info);
const char *clink_law_name(const clink_law *law);
const char *clink_law_geometry(const clink_law *law);

typedef struct clink_lab clink_lab;
clink_status clink_lab_create(clink_lab **lab);
void clink_lab_destroy(clink_lab **lab);
const char *clink_lab_error(const clink_lab *lab);
typedef enum clink_lab_method {
    CLINK_LAB_ADAMS = 0, CLINK_LAB_BDF = 1, CLINK_LAB_RK8 = 2
} clink_lab_method;
typedef void (*clink_lab_sample_fn)(void *ctx, double t, double delta, double delta_dot,
                                    double force);
typedef struct clink_lab_options {
    double rtol; clink_lab_method method; double damping; clink_lab_sample_fn sample;
    void *sample_ctx; int samples_per_step; double t_max_factor;
} clink_lab_options;
void clink_lab_options_init(clink_lab_options *options);
typedef struct clink_lab_result {
    double v_impact; double e_out; double v_out; double delta_max; double t_compression;
    double F_max; double t_F_max; double F_min; double duration; double delta_residual;
    double E_impact; double E_diss_compression; double E_diss_restitution; double E_residual;
    double W_damping; double energy_residual; double damping; double damping_law;
    int damping_is_c; int separated;
    long n_steps; long n_rhs; long n_root_evals; long n_err_fails; long n_nonlin_iters;
    long n_nonlin_fails; long n_jac_evals;
    int n_reinit;
} clink_lab_result;
clink_status clink_lab_impact(clink_lab *lab, const clink_law *law,
                              const clink_contact_params *params, double m_eff, double v_impact,
                              const clink_lab_options *options, clink_lab_result *result);
typedef struct clink_lab_calibration {
    double e_target; double damping; double e_achieved; double damping_law; double e_law;
    double alpha; double alpha_law; int damping_is_c; int iterations;
    clink_lab_result impact;
} clink_lab_calibration;
clink_status clink_lab_calibrate(clink_lab *lab, const clink_law *law,
                                 const clink_contact_params *params, double m_eff,
                                 double v_impact, double e_target,
                                 const clink_lab_options *options, clink_lab_calibration *cal);

typedef struct clink_sweep clink_sweep;
clink_status clink_sweep_load(const char *spec_path, clink_sweep **sweep, char *err,
                              size_t err_size);
void clink_sweep_destroy(clink_sweep **sweep);
const char *clink_sweep_error(const clink_sweep *sweep);
const char *clink_sweep_warnings(const clink_sweep *sweep);
long clink_sweep_case_count(const clink_sweep *sweep);
int clink_sweep_parameter_count(const clink_sweep *sweep);
const char *clink_sweep_parameter(const clink_sweep *sweep, int i);
typedef int (*clink_sweep_progress_fn)(void *ctx, long done, long cases);
typedef struct clink_sweep_options {
    int workers; int resume; double sync_interval;
    clink_sweep_progress_fn progress; void *progress_ctx;
    int children_ignore_sigint;
} clink_sweep_options;
void clink_sweep_options_init(clink_sweep_options *options);
clink_status clink_sweep_run(clink_sweep *sweep, const char *dir,
                             const clink_sweep_options *options);
const char *clink_sweep_header(const clink_sweep *sweep);
const char *clink_sweep_row(const clink_sweep *sweep, long k);
typedef struct clink_sweep_tally {
    long cases; long done; long ok; long failed; long invalid; long crashed;
} clink_sweep_tally;
void clink_sweep_tally_get(const clink_sweep *sweep, clink_sweep_tally *tally);

typedef struct clink_analysis clink_analysis;
clink_status clink_analysis_create(const clink_model *model, const clink_settings_def *settings,
                                   clink_analysis **out, char *err, size_t err_size);
void clink_analysis_destroy(clink_analysis **analysis);
const char *clink_analysis_error(const clink_analysis *analysis);
clink_status clink_analysis_advance(clink_analysis *analysis, double t);
double clink_analysis_time(const clink_analysis *analysis);
int clink_analysis_coordinate_count(const clink_analysis *analysis);
int clink_analysis_dof(const clink_analysis *analysis);
clink_status clink_analysis_state(const clink_analysis *analysis, double *q, double *v);
typedef struct clink_equilibrium_options {
    double tolerance; int max_iterations; int relax_first; int accept_unstable;
} clink_equilibrium_options;
clink_equilibrium_options clink_default_equilibrium_options(void);
typedef struct clink_equilibrium_result {
    int iterations; int line_search_cuts; int fallback; int fallback_steps;
    double residual; double tolerance; double force_scale; double constraint;
    int stable; double min_stiffness;
} clink_equilibrium_result;
clink_status clink_analysis_equilibrium(clink_analysis *analysis,
                                        const clink_equilibrium_options *options,
                                        clink_equilibrium_result *result);
clink_status clink_analysis_joint_reaction(const clink_analysis *analysis, int joint,
                                           double force[3]);
clink_status clink_analysis_driver_force(const clink_analysis *analysis, int driver,
                                         double *force);
clink_status clink_analysis_contact_force(const clink_analysis *analysis, int body,
                                          double force[3]);
typedef struct clink_mode {
    double re; double im; double frequency; double damped_frequency; double damping_ratio;
    int zero; int unstable;
} clink_mode;
clink_status clink_analysis_modes(clink_analysis *analysis);
int clink_analysis_mode_count(const clink_analysis *analysis);
clink_status clink_analysis_mode(const clink_analysis *analysis, int i, clink_mode *mode,
                                 double *shape);
void clink_analysis_describe(const clink_analysis *analysis, const double *shape, char *buf,
                             size_t size);
typedef struct clink_kinematics clink_kinematics;
typedef struct clink_kinematics_options {
    int driver; int range_given; double from; double to; int steps; double rate;
    int max_newton;
} clink_kinematics_options;
clink_kinematics_options clink_default_kinematics_options(void);
clink_status clink_kinematics_sweep(const clink_model *model,
                                    const clink_kinematics_options *options,
                                    clink_kinematics **out, char *err, size_t err_size);
void clink_kinematics_destroy(clink_kinematics **k);
int clink_kinematics_rows(const clink_kinematics *k);
int clink_kinematics_columns(const clink_kinematics *k);
const char *clink_kinematics_column_name(const clink_kinematics *k, int c);
const double *clink_kinematics_row(const clink_kinematics *k, int r);
"""

# the structs of include/clink/analysis.h, checked by tests/python/test_layout.py
ANALYSIS_STRUCTS = ("clink_equilibrium_options", "clink_equilibrium_result", "clink_mode",
                    "clink_kinematics_options")

# the structs of include/clink/sweep.h, checked the same way by tests/python/test_sweep.py
SWEEP_STRUCTS = ("clink_sweep_options", "clink_sweep_tally")

# struct name -> fields whose offsets tests/python/test_layout.py checks against the headers
STRUCTS = (
    "clink_settings_def", "clink_xml_summary", "clink_xml_applied", "clink_energy",
    "clink_sim_stats", "clink_sim_finding", "clink_contact_info", "clink_impact_record",
    "clink_contact_params", "clink_law_info", "clink_lab_options", "clink_lab_result",
    "clink_lab_calibration",
)

ffi = FFI()
ffi.cdef(CDEF)


def library_path():
    """The path of the shared library this package loads (see the module's doc)."""
    env = os.environ.get("CLINK_LIBRARY")
    if env:
        return env
    bundled = os.path.join(os.path.dirname(os.path.abspath(__file__)), "libclink.so")
    if os.path.exists(bundled):  # pip install . (setup.py)
        return bundled
    try:
        from clink import _paths  # written by `cmake --install`
        if os.path.exists(_paths.LIBRARY):
            return _paths.LIBRARY
    except ImportError:
        pass
    found = ctypes.util.find_library("clink")
    if found:
        return found
    raise OSError("libclink not found: set CLINK_LIBRARY to the path of libclink.so "
                  "(in a build tree: build/libclink.so)")


lib = ffi.dlopen(library_path())
