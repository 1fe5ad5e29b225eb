/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A minimal FMI 2.0 co-simulation importer, written for these tests, driving the FMU that
 * `clink fmu` writes (src/cli/cmd_fmu.c, src/fmi/fmu.c): it unpacks the zip itself (stored
 * members, their CRC-32 checked by a table-driven implementation of its own), checks
 * modelDescription.xml against the schema's rules it can check with libxml2 (fmiVersion,
 * the GUID, the modelIdentifier naming the binary, unique names and value references,
 * causality and variability, every output listed once in ModelStructure/Outputs and no
 * input there, inputs with a start value, units defined), dlopens
 * binaries/linux64/<modelIdentifier>.so and runs the standard's sequence (instantiate, setup, enter
 * and exit initialization, doStep loop, get outputs, terminate, free). The outputs match `clink run
 * --rows grid` bit for bit at the communication points (the grid times), and the error paths the
 * standard names are refused: doStep before initialization, a wrong value reference, NULL
 * callbacks, a wrong GUID, setting an output; fmi2GetFMUstate/fmi2SetFMUstate continue bit for bit.
 * A closed loop through the FMU (a PD controller in the importer setting the crank's torque input
 * of examples/slider_crank_clearance_torque.xml each step) gives the same bits as the same loop on
 * the library's clink_sim_set_input and clink_sim_advance.
 */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */

#include "ensure.h"

#include "clink/sim.h"
#include "clink/xml.h"
#include "fmi/fmi2.h"

#include <dlfcn.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdarg.h>
#include <stdint.h>
#include <sys/stat.h>

#define MODEL CLINK_SOURCE_DIR "/models/slider_crank_clearance.xml"
#define T_END "0.005"

enum { MAX_VARS = 256 };

/* ---- the FMU, built and unpacked once ---------------------------------------------- */

static char dir[256]; /* the unpacked FMU */
static char id[128];  /* its modelIdentifier */
static char guid[64]; /* its GUID */
static char names[MAX_VARS][128];
static int is_input[MAX_VARS]; /* causality "input" (with a start value) */
static int is_param[MAX_VARS]; /* causality "parameter" (with a start value) */
static int nvars;
static const char *model_path = MODEL; /* the model the FMU is made of */

static uint32_t crc_table[256];

static uint32_t crc32_of(const unsigned char *p, size_t n)
{
    if (!crc_table[1])
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++)
                c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
            crc_table[i] = c;
        }
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++)
        c = crc_table[(c ^ p[i]) & 0xffu] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16 | (uint32_t) p[3] << 24;
}

static unsigned le16(const unsigned char *p)
{
    return (unsigned) p[0] | (unsigned) p[1] << 8;
}

/* writes member `name` (n bytes) under dir, making its directories */
static int put_member(const char *name, const unsigned char *data, size_t n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    for (char *s = path + strlen(dir) + 1; (s = strchr(s, '/')) != NULL; s++) {
        *s = '\0';
        mkdir(path, 0755);
        *s = '/';
    }
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int ok = fwrite(data, 1, n, f) == n;
    return fclose(f) == 0 && ok ? 0 : -1;
}

static int unzip_members(const unsigned char *z, size_t n);

/* the members of the zip at path, through its central directory; the number unpacked
   with a good CRC, -1 on a malformed archive */
static int unzip_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    unsigned char *z = size > 0 && fseek(f, 0, SEEK_SET) == 0 ? malloc((size_t) size) : NULL;
    size_t n = z ? fread(z, 1, (size_t) size, f) : 0;
    fclose(f);
    int good = z && n == (size_t) size ? unzip_members(z, n) : -1;
    free(z);
    return good;
}

/* the members of the zip z (n bytes) unpacked, as unzip_all */
static int unzip_members(const unsigned char *z, size_t n)
{
    if (n < 22 || le32(z + n - 22) != 0x06054b50u)
        return -1;
    unsigned count = le16(z + n - 12);
    uint32_t cd = le32(z + n - 6), good = 0;
    for (unsigned i = 0; i < count; i++) {
        if (cd + 46 > n || le32(z + cd) != 0x02014b50u || le16(z + cd + 10) != 0)
            return -1;
        uint32_t crc = le32(z + cd + 16), size = le32(z + cd + 24), off = le32(z + cd + 42);
        unsigned nlen = le16(z + cd + 28), extra = le16(z + cd + 30), com = le16(z + cd + 32);
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int) nlen, (const char *) z + cd + 46);
        if (off + 30 > n || le32(z + off) != 0x04034b50u)
            return -1;
        const unsigned char *data = z + off + 30 + le16(z + off + 26) + le16(z + off + 28);
        if (data + size > z + n || crc32_of(data, size) != crc)
            return -1;
        if (put_member(name, data, size) == 0)
            good++;
        cd += 46 + nlen + extra + com;
    }
    return (int) good;
}

/* the FMU of MODEL (with t_end T_END), unpacked into dir; 0 on success */
static int build_fmu(void)
{
    if (dir[0])
        return 0;
    snprintf(dir, sizeof dir, "/tmp/clink-fmi-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "'%s' fmu '%s' -o '%s/m.fmu' && '%s' run '%s' --t-end " T_END
             " --rows grid -q -o '%s/run'",
             CLINK_EXE, model_path, dir, CLINK_EXE, model_path, dir);
    if (system(cmd) != 0)
        return -1;
    snprintf(cmd, sizeof cmd, "%s/m.fmu", dir);
    return unzip_all(cmd) == 3 ? 0 : -1;
}

/* ---- modelDescription.xml ------------------------------------------------------------ */

static int attr_is(xmlNode *n, const char *name, const char *value)
{
    xmlChar *v = xmlGetProp(n, (const xmlChar *) name);
    int same = v && strcmp((const char *) v, value) == 0;
    xmlFree(v);
    return same;
}

/* a copy of attribute name of n into out; 0 if absent */
static int attr(xmlNode *n, const char *name, char *out, size_t size)
{
    xmlChar *v = xmlGetProp(n, (const xmlChar *) name);
    if (!v)
        return 0;
    snprintf(out, size, "%s", (const char *) v);
    xmlFree(v);
    return 1;
}

static xmlNode *child(xmlNode *n, const char *name)
{
    for (xmlNode *c = n ? n->children : NULL; c; c = c->next)
        if (c->type == XML_ELEMENT_NODE && strcmp((const char *) c->name, name) == 0)
            return c;
    return NULL;
}

/* the variables: unique names and value references 0 .. n - 1, outputs, Real with a
   defined unit; returns the number of failed checks */
static int check_variables(xmlNode *vars, xmlNode *units)
{
    int bad = 0;
    nvars = 0;
    for (xmlNode *v = vars ? vars->children : NULL; v; v = v->next) {
        if (v->type != XML_ELEMENT_NODE)
            continue;
        char vr[32] = "", unit[32] = "", name[128] = "";
        bad += !attr(v, "name", name, sizeof name) || !attr(v, "valueReference", vr, sizeof vr);
        int input = attr_is(v, "causality", "input"), param = attr_is(v, "causality", "parameter");
        bad += param ? !attr_is(v, "variability", "fixed") || !attr_is(v, "initial", "exact")
                     : !(input || attr_is(v, "causality", "output")) ||
                           !attr_is(v, "variability", "continuous");
        xmlNode *real = child(v, "Real");
        char start[64];
        bad += !real || !attr(real, "unit", unit, sizeof unit);
        /* inputs and parameters only */
        bad += real && (input || param) != attr(real, "start", start, sizeof start);
        if (nvars < MAX_VARS)
            is_param[nvars] = param;
        if (nvars < MAX_VARS)
            is_input[nvars] = input;
        int found = 0;
        for (xmlNode *u = units ? units->children : NULL; u; u = u->next)
            found |= u->type == XML_ELEMENT_NODE && attr_is(u, "name", unit);
        bad += !found;
        for (int i = 0; i < nvars; i++)
            bad += strcmp(names[i], name) == 0; /* unique names */
        bad += atoi(vr) != nvars;               /* value references unique: 0, 1, ... in order */
        if (nvars < MAX_VARS)
            snprintf(names[nvars++], sizeof names[0], "%s", name);
    }
    return bad;
}

/* every output listed once in ModelStructure/Outputs, indices in range */
static int check_structure(xmlNode *ms)
{
    int seen[MAX_VARS] = {0}, bad = 0;
    for (xmlNode *u = child(ms, "Outputs") ? child(ms, "Outputs")->children : NULL; u;
         u = u->next) {
        char idx[32];
        if (u->type != XML_ELEMENT_NODE)
            continue;
        int k = attr(u, "index", idx, sizeof idx) ? atoi(idx) : 0;
        if (k < 1 || k > nvars)
            bad++;
        else
            seen[k - 1]++;
    }
    for (int i = 0; i < nvars; i++)
        bad += seen[i] != (!is_input[i] && !is_param[i]); /* every output once, nothing else */
    return bad;
}

static int read_description(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/modelDescription.xml", dir);
    xmlDoc *doc = xmlReadFile(path, NULL, XML_PARSE_NONET);
    if (!doc)
        return -1;
    xmlNode *root = xmlDocGetRootElement(doc);
    xmlNode *cs = child(root, "CoSimulation");
    int bad = !root || strcmp((const char *) root->name, "fmiModelDescription") != 0 ||
              !attr_is(root, "fmiVersion", "2.0") || !attr(root, "guid", guid, sizeof guid) ||
              !cs || !attr(cs, "modelIdentifier", id, sizeof id);
    if (!bad)
        bad += check_variables(child(root, "ModelVariables"), child(root, "UnitDefinitions"));
    if (!bad)
        bad += check_structure(child(root, "ModelStructure"));
    xmlFreeDoc(doc);
    return bad;
}

/* ---- the library ------------------------------------------------------------------------ */

typedef struct fmu_api {
    void *so;
    fmi2Component (*instantiate)(fmi2String, fmi2Type, fmi2String, fmi2String,
                                 const fmi2CallbackFunctions *, fmi2Boolean, fmi2Boolean);
    fmi2Status (*setup)(fmi2Component, fmi2Boolean, fmi2Real, fmi2Real, fmi2Boolean, fmi2Real);
    fmi2Status (*enter)(fmi2Component);
    fmi2Status (*exit)(fmi2Component);
    fmi2Status (*step)(fmi2Component, fmi2Real, fmi2Real, fmi2Boolean);
    fmi2Status (*get)(fmi2Component, const fmi2ValueReference[], size_t, fmi2Real[]);
    fmi2Status (*set)(fmi2Component, const fmi2ValueReference[], size_t, const fmi2Real[]);
    fmi2Status (*terminate)(fmi2Component);
    void (*free_instance)(fmi2Component);
    fmi2Status (*get_state)(fmi2Component, fmi2FMUstate *);
    fmi2Status (*set_state)(fmi2Component, fmi2FMUstate);
    fmi2Status (*free_state)(fmi2Component, fmi2FMUstate *);
    fmi2Status (*reset)(fmi2Component);
    fmi2Status (*real_status)(fmi2Component, const fmi2StatusKind, fmi2Real *);
    const char *(*version)(void);
    const char *(*platform)(void);
} fmu_api;

static int errors_logged;
static char last_error[1024]; /* the last error message logged */

static void logger(fmi2ComponentEnvironment env, fmi2String name, fmi2Status st,
                   fmi2String category, fmi2String message, ...)
{
    (void) env, (void) category;
    va_list ap;
    va_start(ap, message);
    char text[1024];
    vsnprintf(text, sizeof text, message, ap);
    va_end(ap);
    if (st >= fmi2Error) {
        errors_logged++;
        snprintf(last_error, sizeof last_error, "%s", text);
    }
    if (getenv("CLINK_FMI_LOG"))
        fprintf(stderr, "[%s] %d %s\n", name, (int) st, text);
}

static const fmi2CallbackFunctions callbacks = {logger, calloc, free, NULL, NULL};

static int load_api(fmu_api *a)
{
    char path[512];
    snprintf(path, sizeof path, "%s/binaries/linux64/%s.so", dir, id);
    a->so = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!a->so) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        return -1;
    }
    /* dlsym's object pointer into a function pointer (POSIX guarantees the conversion) */
#define SYM(field, name) *(void **) (&a->field) = dlsym(a->so, name)
    SYM(instantiate, "fmi2Instantiate");
    SYM(setup, "fmi2SetupExperiment");
    SYM(enter, "fmi2EnterInitializationMode");
    SYM(exit, "fmi2ExitInitializationMode");
    SYM(step, "fmi2DoStep");
    SYM(get, "fmi2GetReal");
    SYM(set, "fmi2SetReal");
    SYM(terminate, "fmi2Terminate");
    SYM(free_instance, "fmi2FreeInstance");
    SYM(get_state, "fmi2GetFMUstate");
    SYM(set_state, "fmi2SetFMUstate");
    SYM(free_state, "fmi2FreeFMUstate");
    SYM(reset, "fmi2Reset");
    SYM(real_status, "fmi2GetRealStatus");
    SYM(version, "fmi2GetVersion");
    SYM(platform, "fmi2GetTypesPlatform");
#undef SYM
    return a->instantiate && a->setup && a->enter && a->exit && a->step && a->get && a->set &&
                   a->terminate && a->free_instance && a->get_state && a->set_state &&
                   a->free_state && a->reset && a->real_status && a->version && a->platform
               ? 0
               : -1;
}

/* an instance of the unpacked FMU, NULL on failure */
static fmi2Component instantiate(fmu_api *a, const char *with_guid, const fmi2CallbackFunctions *cb)
{
    char uri[600];
    snprintf(uri, sizeof uri, "file://%s/resources", dir);
    return a->instantiate("test", fmi2CoSimulation, with_guid, uri, cb, fmi2False, fmi2False);
}

/* ---- clink run's rows ------------------------------------------------------------------- */

/* the columns of the CSV that are FMU variables: col[v] the column of variable v, -1 if
   none; returns how many matched */
static int match_columns(const char *header, int col[MAX_VARS])
{
    int matched = 0;
    for (int v = 0; v < nvars; v++)
        col[v] = -1;
    int c = 0;
    for (const char *p = header; *p && *p != '\n'; c++) {
        const char *end = p + strcspn(p, ",\n");
        char name[160];
        size_t len = strcspn(p, " ,\n");
        snprintf(name, sizeof name, "%.*s", (int) len, p);
        for (int v = 0; v < nvars; v++)
            if (strcmp(names[v], name) == 0) {
                col[v] = c;
                matched++;
            }
        p = *end == ',' ? end + 1 : end;
    }
    return matched;
}

/* field c of a CSV line as a double */
static double field(const char *line, int c)
{
    for (int i = 0; i < c; i++) {
        line = strchr(line, ',');
        if (!line)
            return NAN;
        line++;
    }
    return strtod(line, NULL);
}

static int same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static void with_fmu(void (*body)(fmu_api *a))
{
    fmu_api a = {0};
    ENSURE(build_fmu() == 0);
    ENSURE(read_description() == 0);
    ENSURE(load_api(&a) == 0);
    if (a.so) {
        /* the library exports the FMI functions alone, not clink's own */
        ENSURE(dlsym(a.so, "clink_sim_create") == NULL);
        if (a.instantiate)
            body(&a);
        ENSURE(dlclose(a.so) == 0);
    }
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ENSURE(dir[0] && system(cmd) == 0);
    dir[0] = '\0'; /* the next test builds its own (several may run in one process) */
}

/* ---- the tests ----------------------------------------------------------------------------- */

static int var_named(const char *name);

static void description_body(fmu_api *a)
{
    ENSURE(strcmp(id, "slider_crank_clearance") == 0);
    /* 3 bodies x 6, 10 energies, 1 contact x 3; 11 parameters: the material's E and nu,
       the joint's clearance and radii, its law's e, its friction's mu, v0 and v1, the
       driver's initial angle and rate */
    ENSURE(nvars == 42);
    int np = 0;
    for (int v = 0; v < nvars; v++)
        np += is_param[v];
    ENSURE(np == 11);
    ENSURE(var_named("revolute_clearance.rod_slider.clearance") == 33);
    ENSURE(var_named("revolute_clearance.rod_slider.law.e") == 36);
    ENSURE(strcmp(a->version(), "2.0") == 0);
    ENSURE(strcmp(a->platform(), "default") == 0);
}

TEST(the_fmu_model_description_follows_the_schema_rules)
{
    with_fmu(description_body);
}

/* the doStep loop of the initialised instance c over the grid of the rows of csv (a clink
   run's timeseries.csv), every matched column compared; the rows into *rows, the values
   that differ returned (-1 when the file cannot be read) */
static int compare_with_run(fmu_api *a, fmi2Component c, const char *csv, int *rows)
{
    FILE *f = fopen(csv, "r");
    static char line[1 << 16];
    int col[MAX_VARS], differ = 0;
    *rows = 0;
    if (!f || !fgets(line, sizeof line, f)) {
        if (f)
            fclose(f);
        return -1;
    }
    int matched = match_columns(line, col);
    ENSURE(matched >= 18); /* every body's x, y, phi, vx, vy, omega */
    if (getenv("CLINK_FMI_LOG"))
        fprintf(stderr, "%d columns matched\n", matched);
    fmi2ValueReference vr[MAX_VARS];
    double out[MAX_VARS], t_prev = 0.0;
    for (int v = 0; v < nvars; v++)
        vr[v] = (fmi2ValueReference) v;
    while (fgets(line, sizeof line, f)) {
        double t = field(line, 0);
        if (*rows > 0 && a->step(c, t_prev, t - t_prev, fmi2True) != fmi2OK)
            break;
        ENSURE(a->get(c, vr, (size_t) nvars, out) == fmi2OK);
        for (int v = 0; v < nvars; v++)
            if (col[v] >= 0 && !same_bits(out[v], field(line, col[v]))) {
                if (!differ)
                    fprintf(stderr, "t = %.17g: %s FMU %.17g, clink run %.17g\n", t, names[v],
                            out[v], field(line, col[v]));
                differ++;
            }
        t_prev = t;
        (*rows)++;
    }
    fclose(f);
    return differ;
}

static void run_body(fmu_api *a)
{
    fmi2Component c = instantiate(a, guid, &callbacks);
    ENSURE(c != NULL);
    if (!c)
        return;
    ENSURE(a->setup(c, fmi2False, 0.0, 0.0, fmi2True, 0.005) == fmi2OK);
    ENSURE(a->enter(c) == fmi2OK);
    ENSURE(a->exit(c) == fmi2OK);
    char path[512];
    snprintf(path, sizeof path, "%s/run/timeseries.csv", dir);
    int rows = 0;
    ENSURE(compare_with_run(a, c, path, &rows) == 0);
    ENSURE(rows == 501);
    /* past the stop time: refused */
    ENSURE(a->step(c, 0.005, 1e-5, fmi2True) == fmi2Error);
    ENSURE(a->terminate(c) == fmi2OK);
    a->free_instance(c);
}

TEST(the_fmu_matches_clink_run_bit_for_bit_at_the_communication_points)
{
    with_fmu(run_body);
}

static void errors_body(fmu_api *a)
{
    /* NULL callbacks, a wrong GUID, model exchange: no instance */
    ENSURE(instantiate(a, guid, NULL) == NULL);
    fmi2CallbackFunctions no_logger = callbacks;
    no_logger.logger = NULL;
    ENSURE(instantiate(a, guid, &no_logger) == NULL);
    int before = errors_logged;
    ENSURE(instantiate(a, "{00000000-0000-0000-0000-000000000000}", &callbacks) == NULL);
    ENSURE(errors_logged > before);
    fmi2Component c = instantiate(a, guid, &callbacks);
    ENSURE(c != NULL);
    if (!c)
        return;
    /* doStep before initialization */
    before = errors_logged;
    ENSURE(a->step(c, 0.0, 1e-5, fmi2True) == fmi2Error);
    ENSURE(a->exit(c) == fmi2Error);
    ENSURE(errors_logged >= before + 2);
    ENSURE(a->setup(c, fmi2False, 0.0, 1.0, fmi2False, 0.0) == fmi2Error); /* start time 1 */
    ENSURE(a->setup(c, fmi2False, 0.0, 0.0, fmi2False, 0.0) == fmi2OK);
    ENSURE(a->enter(c) == fmi2OK);
    ENSURE(a->step(c, 0.0, 1e-5, fmi2True) == fmi2Error); /* still initializing */
    ENSURE(a->exit(c) == fmi2OK);
    /* a wrong value reference; an output set */
    fmi2ValueReference bad = 100000, good = 0;
    double x = 0.0;
    ENSURE(a->get(c, &bad, 1, &x) == fmi2Error);
    ENSURE(a->set(c, &good, 1, &x) == fmi2Error);
    ENSURE(a->get(c, &good, 1, &x) == fmi2OK && x == 0.025);
    /* a communication point that is not the instance's time */
    ENSURE(a->step(c, 1.0, 1e-5, fmi2True) == fmi2Error);
    ENSURE(a->step(c, 0.0, -1e-5, fmi2True) == fmi2Error);
    ENSURE(a->step(c, 0.0, 1e-5, fmi2True) == fmi2OK);
    ENSURE(a->terminate(c) == fmi2OK);
    ENSURE(a->step(c, 1e-5, 1e-5, fmi2True) == fmi2Error); /* terminated */
    a->free_instance(c);
}

TEST(the_fmu_refuses_the_calls_the_standard_forbids)
{
    with_fmu(errors_body);
}

/* n steps of dt from the instance's time t0, the outputs after the last into out */
static int steps(fmu_api *a, fmi2Component c, int k0, int n, double dt, double *out)
{
    fmi2ValueReference vr[MAX_VARS];
    for (int v = 0; v < nvars; v++)
        vr[v] = (fmi2ValueReference) v;
    for (int k = k0; k < k0 + n; k++)
        if (a->step(c, k * dt, (k + 1) * dt - k * dt, fmi2True) != fmi2OK)
            return -1;
    return a->get(c, vr, (size_t) nvars, out) == fmi2OK ? 0 : -1;
}

/* the largest |a - b| / (|b| + 1) over the bodies' positions and angles (the first 18
   variables: 3 bodies x x, y, phi, vx, vy, omega) */
static double position_gap(const double *a, const double *b)
{
    double worst = 0.0;
    for (int v = 0; v < 18; v++)
        if (v % 6 < 3 && fabs(a[v] - b[v]) / (fabs(b[v]) + 1.0) > worst)
            worst = fabs(a[v] - b[v]) / (fabs(b[v]) + 1.0);
    return worst;
}

/* a state taken at step 200 and set twice: both continuations alike bit for bit, and
   within FMU_STATE_BOUND of the run that took it (docs/fmi.md, "FMU states") */
#define FMU_STATE_BOUND 1e-6
static void state_body(fmu_api *a)
{
    fmi2Component c = instantiate(a, guid, &callbacks);
    ENSURE(c != NULL);
    if (!c)
        return;
    const double dt = 1e-5;
    double first[MAX_VARS], again[MAX_VARS], third[MAX_VARS];
    ENSURE(a->setup(c, fmi2False, 0.0, 0.0, fmi2False, 0.0) == fmi2OK);
    ENSURE(a->enter(c) == fmi2OK && a->exit(c) == fmi2OK);
    ENSURE(steps(a, c, 0, 200, dt, first) == 0);
    fmi2FMUstate s = NULL;
    ENSURE(a->get_state(c, &s) == fmi2OK && s != NULL);
    ENSURE(steps(a, c, 200, 300, dt, first) == 0);
    ENSURE(a->set_state(c, s) == fmi2OK);
    ENSURE(steps(a, c, 200, 300, dt, again) == 0);
    ENSURE(a->set_state(c, s) == fmi2OK);
    ENSURE(steps(a, c, 200, 300, dt, third) == 0);
    ENSURE(memcmp(third, again, (size_t) nvars * sizeof(double)) == 0);
    double gap = position_gap(again, first);
    if (getenv("CLINK_FMI_LOG"))
        fprintf(stderr, "restored vs original continuation: %.3g\n", gap);
    ENSURE(gap < FMU_STATE_BOUND);
    ENSURE(a->free_state(c, &s) == fmi2OK && s == NULL);
    ENSURE(a->terminate(c) == fmi2OK);
    a->free_instance(c);
}

TEST(fmu_states_continue_bit_for_bit)
{
    with_fmu(state_body);
}

/* 500 steps, states taken (one overwritten) and freed on the way, then fmi2Reset and the
   same 500 steps without a state: the same bits (a checkpoint never changes the run) */
static void checkpoint_body(fmu_api *a)
{
    fmi2Component c = instantiate(a, guid, &callbacks);
    ENSURE(c != NULL);
    if (!c)
        return;
    const double dt = 1e-5;
    double with[MAX_VARS], without[MAX_VARS];
    fmi2FMUstate s = NULL, s2 = NULL;
    ENSURE(a->setup(c, fmi2False, 0.0, 0.0, fmi2False, 0.0) == fmi2OK);
    ENSURE(a->enter(c) == fmi2OK);
    ENSURE(a->get_state(c, &s2) == fmi2OK);
    ENSURE(a->exit(c) == fmi2OK);
    ENSURE(steps(a, c, 0, 150, dt, with) == 0);
    ENSURE(a->get_state(c, &s) == fmi2OK);
    ENSURE(steps(a, c, 150, 150, dt, with) == 0);
    ENSURE(a->get_state(c, &s) == fmi2OK); /* overwritten */
    ENSURE(a->free_state(c, &s) == fmi2OK && a->free_state(c, &s2) == fmi2OK);
    ENSURE(steps(a, c, 300, 200, dt, with) == 0);
    ENSURE(a->reset(c) == fmi2OK);
    ENSURE(a->setup(c, fmi2False, 0.0, 0.0, fmi2False, 0.0) == fmi2OK);
    ENSURE(a->enter(c) == fmi2OK && a->exit(c) == fmi2OK);
    ENSURE(steps(a, c, 0, 500, dt, without) == 0);
    ENSURE(memcmp(with, without, (size_t) nvars * sizeof(double)) == 0);
    ENSURE(a->terminate(c) == fmi2OK);
    a->free_instance(c);
}

TEST(a_reset_and_rerun_equals_a_run_that_took_and_freed_states_bit_for_bit)
{
    with_fmu(checkpoint_body);
}

/* ---- parameters --------------------------------------------------------------------------- */

/* the clearance and friction coefficient set through the FMU (before initialisation, or in
   initialisation mode) give the bits of `clink run --set` of the same values; unset, the
   file's; a parameter is refused once stepping, a value the model refuses fails the
   initialisation with the load's message */
static void param_body(fmu_api *a)
{
    int cl = var_named("revolute_clearance.rod_slider.clearance"),
        mu = var_named("revolute_clearance.rod_slider.friction.mu");
    ENSURE(cl >= 0 && mu >= 0);
    if (cl < 0 || mu < 0)
        return;
    char cmd[2048], set_csv[512], plain_csv[512];
    snprintf(cmd, sizeof cmd,
             "'%s' run '%s' --t-end " T_END " --rows grid -q -o '%s/runset' "
             "--set 'revolute_clearance[rod_slider].clearance=4e-4' "
             "--set 'revolute_clearance[rod_slider].friction.mu=0.05'",
             CLINK_EXE, model_path, dir);
    ENSURE(system(cmd) == 0);
    snprintf(set_csv, sizeof set_csv, "%s/runset/timeseries.csv", dir);
    snprintf(plain_csv, sizeof plain_csv, "%s/run/timeseries.csv", dir);
    fmi2ValueReference vr[2] = {(fmi2ValueReference) cl, (fmi2ValueReference) mu};
    const double value[2] = {4e-4, 0.05};
    double back[2];
    for (int when = 0; when < 3; when++) {
        fmi2Component c = instantiate(a, guid, &callbacks);
        ENSURE(c != NULL);
        if (!c)
            return;
        ENSURE(a->setup(c, fmi2False, 0.0, 0.0, fmi2False, 0.0) == fmi2OK);
        if (when == 0)
            ENSURE(a->set(c, vr, 2, value) == fmi2OK);
        ENSURE(a->enter(c) == fmi2OK);
        ENSURE(a->get(c, vr, 2, back) == fmi2OK);
        if (when == 1) { /* in initialisation mode: the file's values until set */
            ENSURE(fabs(back[0] - 5e-4) < 1e-15 && back[1] == 0.01);
            ENSURE(a->set(c, vr, 2, value) == fmi2OK);
            ENSURE(a->get(c, vr, 2, back) == fmi2OK);
        }
        if (when < 2)
            ENSURE(back[0] == 4e-4 && back[1] == 0.05);
        ENSURE(a->exit(c) == fmi2OK);
        ENSURE(a->set(c, vr, 1, value) == fmi2Error); /* fixed once stepping */
        int rows = 0, differ = compare_with_run(a, c, when < 2 ? set_csv : plain_csv, &rows);
        ENSURE(differ == 0 && rows == 501);
        ENSURE(a->terminate(c) == fmi2OK);
        a->free_instance(c);
    }
    /* the parameters change the run: the set run is not the file's */
    fmi2Component c = instantiate(a, guid, &callbacks);
    ENSURE(c != NULL);
    if (!c)
        return;
    ENSURE(a->setup(c, fmi2False, 0.0, 0.0, fmi2False, 0.0) == fmi2OK);
    ENSURE(a->set(c, vr, 2, value) == fmi2OK && a->enter(c) == fmi2OK && a->exit(c) == fmi2OK);
    int rows = 0;
    ENSURE(compare_with_run(a, c, plain_csv, &rows) > 0);
    a->free_instance(c);
    /* a clearance the model refuses: initialisation fails, naming it */
    c = instantiate(a, guid, &callbacks);
    ENSURE(c != NULL);
    if (!c)
        return;
    const double negative = -1e-4;
    ENSURE(a->setup(c, fmi2False, 0.0, 0.0, fmi2False, 0.0) == fmi2OK);
    ENSURE(a->set(c, vr, 1, &negative) == fmi2OK);
    ENSURE(a->enter(c) == fmi2Error);
    ENSURE(strstr(last_error, "clearance") != NULL);
    a->free_instance(c);
}

TEST(a_clearance_set_through_the_fmu_equals_clink_run_set_bit_for_bit)
{
    with_fmu(param_body);
}

/* ---- a closed loop through the FMU's input ------------------------------------------------ */

#define PD_MODEL CLINK_SOURCE_DIR "/examples/slider_crank_clearance_torque.xml"
enum { PD_STEPS = 300 };
static const double pd_h = 1e-5, pd_kp = 2.5e5, pd_kd = 20.0;
static const double pd_omega_ref = 5000.0 * 2.0 * 3.14159265358979323846 / 60.0;

static int var_named(const char *name)
{
    for (int i = 0; i < nvars; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return -1;
}

/* the PD torque of examples/pd_crank.c from the crank's angle and rate at time t */
static double pd_torque(double theta0, double t, double theta, double omega)
{
    return pd_kp * (theta0 + pd_omega_ref * t - theta) + pd_kd * (pd_omega_ref - omega);
}

static double pd_fmu_omega[PD_STEPS];

static void pd_body(fmu_api *a)
{
    int phi = var_named("crank.phi"), om = var_named("crank.omega"), in = var_named("motor_torque");
    ENSURE(phi >= 0 && om >= 0 && in >= 0 && is_input[in] && !is_input[om]);
    if (phi < 0 || om < 0 || in < 0)
        return;
    fmi2Component c = instantiate(a, guid, &callbacks);
    ENSURE(c != NULL);
    if (!c)
        return;
    fmi2ValueReference out[2] = {(fmi2ValueReference) phi, (fmi2ValueReference) om},
                       vin = (fmi2ValueReference) in;
    double y[2] = {0.0, 0.0}, theta0 = 0.0;
    ENSURE(a->setup(c, fmi2False, 0.0, 0.0, fmi2False, 0.0) == fmi2OK);
    ENSURE(a->enter(c) == fmi2OK);
    ENSURE(a->exit(c) == fmi2OK);
    /* an output cannot be set; an input can */
    ENSURE(a->set(c, out, 1, y) == fmi2Error);
    ENSURE(a->get(c, out, 2, y) == fmi2OK);
    theta0 = y[0];
    double t = 0.0; /* the communication points as a master steps: t, t + h, ... */
    for (int k = 0; k < PD_STEPS; k++) {
        ENSURE(a->get(c, out, 2, y) == fmi2OK);
        double tau = pd_torque(theta0, t, y[0], y[1]), back;
        ENSURE(a->set(c, &vin, 1, &tau) == fmi2OK);
        ENSURE(a->get(c, &vin, 1, &back) == fmi2OK && back == tau);
        fmi2Status st = a->step(c, t, pd_h, fmi2True);
        ENSURE(st == fmi2OK);
        if (st != fmi2OK)
            break;
        t += pd_h;
        ENSURE(a->get(c, out, 2, y) == fmi2OK);
        pd_fmu_omega[k] = y[1];
    }
    ENSURE(a->terminate(c) == fmi2OK);
    a->free_instance(c);
}

TEST(a_closed_loop_through_the_fmu_input_matches_the_library_bit_for_bit)
{
    model_path = PD_MODEL;
    with_fmu(pd_body);
    /* the same loop on the library */
    char err[512];
    clink_model *m = clink_model_load_xml(PD_MODEL, err, sizeof err);
    clink_sim *s = NULL;
    ENSURE(m != NULL && clink_sim_create(m, NULL, &s, err, sizeof err) == CLINK_OK);
    if (!s) {
        clink_model_destroy(&m);
        return;
    }
    int motor = clink_sim_input_index(s, "motor_torque"), differ = 0;
    double q[3], v[3], theta0;
    ENSURE(clink_sim_body_state(s, 1, q, v) == CLINK_OK);
    theta0 = q[2];
    double t = 0.0;
    for (int k = 0; k < PD_STEPS; k++) {
        ENSURE(clink_sim_body_state(s, 1, q, v) == CLINK_OK);
        ENSURE(clink_sim_set_input(s, motor, pd_torque(theta0, t, q[2], v[2]), 0.0) == CLINK_OK);
        ENSURE(clink_sim_advance(s, t + pd_h) == CLINK_OK);
        t += pd_h;
        ENSURE(clink_sim_body_state(s, 1, q, v) == CLINK_OK);
        differ += !same_bits(v[2], pd_fmu_omega[k]);
    }
    if (differ)
        fprintf(stderr, "%d of %d steps differ; last: library %.17g, FMU %.17g\n", differ, PD_STEPS,
                v[2], pd_fmu_omega[PD_STEPS - 1]);
    ENSURE(differ == 0);
    /* and the loop holds the speed (the controller works through the FMU) */
    ENSURE(fabs(pd_fmu_omega[PD_STEPS - 1] - pd_omega_ref) < 0.05 * pd_omega_ref);
    clink_sim_destroy(&s);
    clink_model_destroy(&m);
}

/* ---- the contract: tolerance, steps, communication points, resources, inputs ------------- */

static fmi2Component initialised(fmu_api *a, fmi2Boolean stop_defined, double stop)
{
    fmi2Component c = instantiate(a, guid, &callbacks);
    ENSURE(c != NULL);
    if (c && (a->setup(c, fmi2False, 0.0, 0.0, stop_defined, stop) != fmi2OK ||
              a->enter(c) != fmi2OK || a->exit(c) != fmi2OK)) {
        ENSURE(0);
        a->free_instance(c);
        return NULL;
    }
    return c;
}

static void tolerance_body(fmu_api *a)
{
    const double bad[] = {1.0, 1e300, 0.0, -1e-6};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        fmi2Component c = instantiate(a, guid, &callbacks);
        ENSURE(c != NULL);
        if (!c)
            return;
        ENSURE(a->setup(c, fmi2True, bad[i], 0.0, fmi2False, 0.0) == fmi2Error);
        ENSURE(strstr(last_error, "(0, 1)") != NULL);
        a->free_instance(c);
    }
    fmi2Component c = instantiate(a, guid, &callbacks);
    ENSURE(c && a->setup(c, fmi2True, 1e-6, 0.0, fmi2False, 0.0) == fmi2OK);
    if (c)
        a->free_instance(c);
}

TEST(the_fmu_refuses_a_tolerance_outside_zero_one)
{
    with_fmu(tolerance_body);
}

/* a step of 1e300 s (no stop time) fails after a bounded number of integrator steps, not
   the ten million max_steps allows (before: 26 s of integration first) */
static void huge_step_body(fmu_api *a)
{
    fmi2Component c = initialised(a, fmi2False, 0.0);
    if (!c)
        return;
    ENSURE(a->step(c, 0.0, 1e300, fmi2True) == fmi2Error);
    ENSURE(strstr(last_error, "max_steps") != NULL);
    /* the integrator steps taken before the refusal: a few thousand of the 1e7 allowed */
    const char *pace = strstr(last_error, "at the pace of the first ");
    long taken = pace ? atol(pace + strlen("at the pace of the first ")) : -1;
    ENSURE(taken >= 1 && taken <= 100000);
    double t = -1.0;
    ENSURE(a->real_status(c, fmi2LastSuccessfulTime, &t) == fmi2OK);
    ENSURE(t >= 0.0 && t <= 1e-3);
    a->free_instance(c);
    /* with a stop time: a step past it is refused before any integration */
    c = initialised(a, fmi2True, 0.005);
    if (!c)
        return;
    ENSURE(a->step(c, 0.0, 1e300, fmi2True) == fmi2Error);
    ENSURE(a->real_status(c, fmi2LastSuccessfulTime, &t) == fmi2OK && t == 0.0);
    a->free_instance(c);
}

TEST(a_step_of_1e300_s_fails_after_a_bounded_number_of_steps)
{
    with_fmu(huge_step_body);
}

/* a master computing its communication points as t_k = k h (not by summing h): the points
   differ from the instance's time in the last bits and are accepted; a point off by more
   than the relative tolerance is refused */
static void points_body(fmu_api *a)
{
    fmi2Component c = initialised(a, fmi2False, 0.0);
    if (!c)
        return;
    const double h = 1e-5;
    double sum = 0.0;
    int differ = 0, ok = 1;
    for (int k = 0; k < 200 && ok; k++) {
        differ += (double) k * h != sum;
        ok = a->step(c, (double) k * h, h, fmi2True) == fmi2OK;
        sum += h;
    }
    ENSURE(ok);
    ENSURE(differ > 0); /* the test exercises the tolerance */
    ENSURE(a->step(c, 200.0 * h * (1.0 + 1e-6), h, fmi2True) == fmi2Error);
    ENSURE(strstr(last_error, "instance's time") != NULL);
    a->free_instance(c);
}

TEST(communication_points_computed_as_k_times_h_are_accepted)
{
    with_fmu(points_body);
}

static void uri_body(fmu_api *a)
{
    char uri[600];
    const char *forms[] = {"%s/resources", "http://example.org%s/resources",
                           "file://example.org%s/resources"};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        snprintf(uri, sizeof uri, forms[i], dir);
        int before = errors_logged;
        ENSURE(a->instantiate("test", fmi2CoSimulation, guid, uri, &callbacks, fmi2False,
                              fmi2False) == NULL);
        ENSURE(errors_logged > before && strstr(last_error, "file") != NULL);
    }
    /* a file URI of a directory without the model: its path and the system's reason */
    snprintf(uri, sizeof uri, "file://%s/no-such-dir", dir);
    ENSURE(a->instantiate("test", fmi2CoSimulation, guid, uri, &callbacks, fmi2False, fmi2False) ==
           NULL);
    ENSURE(strstr(last_error, "no-such-dir/model.xml") != NULL &&
           strstr(last_error, "No such file") != NULL);
    /* the accepted forms: file:///path, file:/path, file://localhost/path */
    const char *good[] = {"file://%s/resources", "file:%s/resources",
                          "file://localhost%s/resources/"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        snprintf(uri, sizeof uri, good[i], dir);
        fmi2Component c =
            a->instantiate("test", fmi2CoSimulation, guid, uri, &callbacks, fmi2False, fmi2False);
        ENSURE(c != NULL);
        if (c)
            a->free_instance(c);
    }
}

TEST(a_resource_location_that_is_not_a_file_uri_is_refused)
{
    with_fmu(uri_body);
}

/* fmi2SetReal of {input, output}: refused, and the input keeps its value (before and after
   initialisation) */
static void set_pair_body(fmu_api *a)
{
    int in = var_named("motor_torque"), out = var_named("crank.phi");
    ENSURE(in >= 0 && out >= 0);
    if (in < 0 || out < 0)
        return;
    fmi2Component c = instantiate(a, guid, &callbacks);
    ENSURE(c != NULL);
    if (!c)
        return;
    fmi2ValueReference pair[2] = {(fmi2ValueReference) in, (fmi2ValueReference) out},
                       vin = (fmi2ValueReference) in;
    const double v[2] = {7.0, 1.0};
    double back = -1.0;
    ENSURE(a->set(c, pair, 2, v) == fmi2Error);
    ENSURE(a->setup(c, fmi2False, 0.0, 0.0, fmi2False, 0.0) == fmi2OK);
    ENSURE(a->enter(c) == fmi2OK && a->exit(c) == fmi2OK);
    ENSURE(a->get(c, &vin, 1, &back) == fmi2OK && back == 0.0); /* its initial value */
    ENSURE(a->set(c, pair, 2, v) == fmi2Error);
    ENSURE(a->get(c, &vin, 1, &back) == fmi2OK && back == 0.0);
    const double nan_pair[2] = {7.0, NAN};
    fmi2ValueReference twice[2] = {vin, vin};
    ENSURE(a->set(c, twice, 2, nan_pair) == fmi2Error);
    ENSURE(a->get(c, &vin, 1, &back) == fmi2OK && back == 0.0);
    ENSURE(a->set(c, &vin, 1, v) == fmi2OK);
    ENSURE(a->get(c, &vin, 1, &back) == fmi2OK && back == 7.0);
    a->free_instance(c);
}

TEST(fmi2_set_real_refused_for_one_variable_sets_none)
{
    model_path = PD_MODEL;
    with_fmu(set_pair_body);
}
