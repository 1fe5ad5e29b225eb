/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * clink impact: one two-body central impact in the contact-law laboratory
 * (include/clink/lab.h): m delta'' = -F(delta, delta'), delta(0) = 0,
 * delta'(0) = V, integrated with CVODE to separation. Prints the achieved
 * restitution, separation velocity, delta_max, F_max and its time, contact
 * duration, energies dissipated in compression and restitution and the residual
 * penetration; --loop writes the force-indentation loop as CSV; --analytic adds
 * Feng's closed forms (Feng 2026, Eqs. 14-16, 24, 32, 34, 35) for power-law-tsuji.
 */
#include "cli.h"
#include "cli_lab.h"

#include "clink/feng.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static void impact_help(void)
{
    printf("usage: clink impact --law NAME --mass M --velocity V [OPTIONS]\n\n"
           "One central impact of effective mass M (kg) at approach speed V (m/s) with a\n"
           "contact law (`clink laws` lists them), integrated to separation.\n\n"
           "Options (--opt VALUE or --opt=VALUE):\n");
    cli_print_options(stdout, cli_lab_options(0));
}

/* the word of --method for a laboratory method */
static const char *impact_method_name(clink_lab_method m)
{
    switch (m) {
    case CLINK_LAB_RK8:
        return "rk8";
    case CLINK_LAB_ADAMS:
        return "adams";
    case CLINK_LAB_BDF:
        return "bdf";
    }
    return "unknown";
}

typedef struct loop_file {
    FILE *f;
    int error; /* errno of the first failed write, 0 while none */
} loop_file;

static void impact_sample(void *ctx, double t, double delta, double delta_dot, double force)
{
    loop_file *lf = ctx;
    errno = 0;
    if (fprintf(lf->f, "%.17g,%.17g,%.17g,%.17g\n", t, delta, delta_dot, force) < 0 &&
        lf->error == 0)
        lf->error = errno != 0 ? errno : EIO;
}

static void print_row(const char *name, double v, const char *unit)
{
    if (isfinite(v))
        printf("%-22s %.12g %s\n", name, v, unit);
    else
        printf("%-22s -\n", name);
}

/* --analytic: Feng's closed forms for the tsuji laws; the exponent p and alpha they use */
static int impact_analytic(const cli_lab_args *a, double *p, double *alpha, clink_feng_forms *fz)
{
    clink_law_info info;
    clink_status st;

    if (strcmp(clink_law_name(a->law), "power-law-tsuji") != 0 &&
        strcmp(clink_law_name(a->law), "tsuji") != 0)
        return cli_usage_error("--analytic: only for power-law-tsuji and tsuji, not '%s'",
                               clink_law_name(a->law));
    clink_law_get_info(a->law, &info);
    *p = isnan(a->params.n) ? info.n_default : a->params.n;
    if (!isnan(a->params.alpha))
        *alpha = a->params.alpha;
    else if (!isnan(a->params.e))
        *alpha = clink_feng_alpha(a->params.e, *p);
    if (isnan(a->params.K) || isnan(*alpha))
        return cli_usage_error("--analytic: needs --k and --restitution (or alpha)");
    st = clink_feng_evaluate(*p, a->params.K, a->mass, a->velocity, *alpha, fz);
    if (st != CLINK_OK)
        return cli_usage_error("--analytic: Feng's closed forms undefined here (%s)",
                               clink_status_string(st));
    return CLI_EXIT_OK;
}

/* --loop: opens PATH.incomplete with its header and hooks the sampler into the options */
static int impact_open_loop(cli_lab_args *a, loop_file *lf, char *tmp, size_t tmp_size)
{
    if (snprintf(tmp, tmp_size, "%s.incomplete", a->loop_path) >= (int) tmp_size)
        return cli_usage_error("--loop: %s: %s", a->loop_path, strerror(ENAMETOOLONG));
    lf->f = fopen(tmp, "w");
    if (lf->f == NULL) {
        fprintf(stderr, "clink: impact: --loop: %s: cannot create: %s\n", a->loop_path,
                strerror(errno));
        return CLI_EXIT_IO;
    }
    fprintf(lf->f, "t [s],delta [m],delta_dot [m/s],F [N]\n");
    a->options.sample = impact_sample;
    a->options.sample_ctx = lf;
    a->options.samples_per_step = 4;
    return CLI_EXIT_OK;
}

/* the impact itself; the loop file (if any) is closed and put in place or removed */
static int impact_run(cli_lab_args *a, loop_file *lf, const char *tmp, clink_lab_result *r)
{
    clink_lab *lab = NULL;
    clink_status st;

    st = clink_lab_create(&lab);
    if (st != CLINK_OK) {
        fprintf(stderr, "clink: impact: %s\n", clink_status_string(st));
        if (lf->f != NULL) {
            fclose(lf->f);
            remove(tmp);
        }
        return CLI_EXIT_FAIL;
    }
    st = clink_lab_impact(lab, a->law, &a->params, a->mass, a->velocity, &a->options, r);
    if (lf->f != NULL) {
        const char *what = "cannot write";
        errno = 0;
        if (fclose(lf->f) != 0 && lf->error == 0)
            lf->error = errno != 0 ? errno : EIO;
        if (st == CLINK_OK && lf->error == 0 && rename(tmp, a->loop_path) != 0) {
            lf->error = errno;
            what = "cannot rename into place";
        }
        if (st != CLINK_OK || lf->error != 0)
            remove(tmp);
        if (st == CLINK_OK && lf->error != 0) {
            fprintf(stderr, "clink: impact: --loop: %s: %s: %s\n", a->loop_path, what,
                    strerror(lf->error));
            clink_lab_destroy(&lab);
            return CLI_EXIT_IO;
        }
    }
    if (st != CLINK_OK) {
        fprintf(stderr, "clink: impact: %s\n", clink_lab_error(lab));
        clink_lab_destroy(&lab);
        return cli_lab_exit_for(st);
    }
    clink_lab_destroy(&lab);
    return CLI_EXIT_OK;
}

/* --json: one object with the result (and the closed forms with --analytic) */
static void impact_print_json(const cli_lab_args *a, const clink_lab_result *r, int have_feng,
                              double alpha, const clink_feng_forms *fz)
{
    printf("{\n  \"law\": \"%s\",\n", clink_law_name(a->law));
    cli_lab_json_number(stdout, "mass", a->mass, 1);
    cli_lab_json_number(stdout, "v_impact", a->velocity, 1);
    cli_lab_json_number(stdout, "e_target", a->params.e, 1);
    cli_lab_json_number(stdout, "e_out", r->e_out, 1);
    cli_lab_json_number(stdout, "v_out", r->v_out, 1);
    cli_lab_json_number(stdout, "delta_max", r->delta_max, 1);
    cli_lab_json_number(stdout, "t_delta_max", r->t_compression, 1);
    cli_lab_json_number(stdout, "F_max", r->F_max, 1);
    cli_lab_json_number(stdout, "t_F_max", r->t_F_max, 1);
    cli_lab_json_number(stdout, "F_min", r->F_min, 1);
    cli_lab_json_number(stdout, "duration", r->duration, 1);
    cli_lab_json_number(stdout, "E_impact", r->E_impact, 1);
    cli_lab_json_number(stdout, "E_diss_compression", r->E_diss_compression, 1);
    cli_lab_json_number(stdout, "E_diss_restitution", r->E_diss_restitution, 1);
    cli_lab_json_number(stdout, "E_residual", r->E_residual, 1);
    cli_lab_json_number(stdout, "delta_residual", r->delta_residual, 1);
    cli_lab_json_number(stdout, "damping", r->damping, 1);
    printf("  \"damping_kind\": \"%s\",\n", r->damping_is_c ? "c" : "chi");
    cli_lab_json_number(stdout, "energy_residual", r->energy_residual, 1);
    if (have_feng) {
        printf("  \"analytic\": {\n");
        cli_lab_json_number(stdout, "alpha", alpha, 1);
        cli_lab_json_number(stdout, "e", fz->e, 1);
        cli_lab_json_number(stdout, "delta_max", fz->delta_max, 1);
        cli_lab_json_number(stdout, "E_load", fz->E_load, 1);
        cli_lab_json_number(stdout, "E_unload", fz->E_unload, 1);
        cli_lab_json_number(stdout, "duration", fz->duration, 1);
        cli_lab_json_number(stdout, "duration_undamped", fz->duration_undamped, 1);
        cli_lab_json_number(stdout, "dt_crit", fz->dt_crit, 1);
        cli_lab_json_number(stdout, "dt_crit_ratio", fz->dt_crit_ratio, 0);
        printf("  },\n");
    }
    printf("  \"integrator\": {\"method\": \"%s\", \"steps\": %ld, \"rhs\": %ld, "
           "\"root_evals\": %ld, \"err_test_fails\": %ld, \"nonlin_iters\": %ld, "
           "\"reinit\": %d}\n}\n",
           impact_method_name(a->options.method), r->n_steps, r->n_rhs, r->n_root_evals,
           r->n_err_fails, r->n_nonlin_iters, r->n_reinit);
}

/* the table of the result (and the closed forms beside it with --analytic) */
static void impact_print_table(const cli_lab_args *a, const clink_lab_result *r, int have_feng,
                               double p, double alpha, const clink_feng_forms *fz)
{
    printf("%-22s %s\n", "law", clink_law_name(a->law));
    print_row("e_target", a->params.e, "");
    print_row("e_out", r->e_out, "");
    print_row("v_out", r->v_out, "m/s");
    print_row("delta_max", r->delta_max, "m");
    print_row("F_max", r->F_max, "N");
    print_row("t_F_max", r->t_F_max, "s");
    print_row("duration", r->duration, "s");
    print_row("E_impact", r->E_impact, "J");
    print_row("E_diss_compression", r->E_diss_compression, "J");
    print_row("E_diss_restitution", r->E_diss_restitution, "J");
    print_row("E_residual", r->E_residual, "J");
    print_row("delta_residual", r->delta_residual, "m");
    print_row(r->damping_is_c ? "damping c" : "damping chi", r->damping,
              r->damping_is_c                                    ? "N s/m"
              : strcmp(clink_law_geometry(a->law), "point") != 0 ? "s/m"
                                                                 : "N s/m^(m+1)");
    print_row("energy_residual", r->energy_residual, "");
    printf("%-22s %s: %ld steps, %ld rhs, %ld root evaluations, %d restarts\n", "integrator",
           impact_method_name(a->options.method), r->n_steps, r->n_rhs, r->n_root_evals,
           r->n_reinit);
    if (have_feng) {
        printf("\nFeng closed forms (Feng 2026), p = %g, alpha = %.12g:\n", p, alpha);
        printf("%-22s %-20s %-20s %s\n", "quantity", "closed form", "integrated", "rel. diff");
#define FROW(name, cf, num)                                                                        \
    printf("%-22s %-20.12g %-20.12g %.2e\n", name, cf, num, fabs((num) - (cf)) / fabs(cf))
        FROW("e (Eq. 13)", fz->e, r->e_out);
        FROW("delta_max (Eq. 15)", fz->delta_max, r->delta_max);
        FROW("E_load (Eq. 16)", fz->E_load, r->E_diss_compression);
        FROW("E_unload (Eq. 17c)", fz->E_unload, r->E_diss_restitution);
        FROW("duration (Eq. 24)", fz->duration, r->duration);
#undef FROW
        print_row("duration_undamped", fz->duration_undamped, "s (Eq. 34)");
        print_row("dt_crit", fz->dt_crit, "s (Eq. 32)");
        print_row("dt_crit/duration", fz->dt_crit_ratio, "(Eq. 35)");
    }
}

int cmd_impact(int argc, char **argv)
{
    cli_lab_args a;
    clink_lab_result r;
    loop_file lf = {NULL, 0};
    char tmp[4096];
    int rc, have_feng = 0;
    clink_feng_forms fz;
    double p = NAN, alpha = NAN;

    rc = cli_lab_parse(argc, argv, 0, &a);
    if (rc != CLI_EXIT_OK)
        return rc;
    if (a.help) {
        impact_help();
        return CLI_EXIT_OK;
    }
    if (a.analytic) {
        rc = impact_analytic(&a, &p, &alpha, &fz);
        if (rc != CLI_EXIT_OK)
            return rc;
        have_feng = 1;
    }
    if (a.loop_path != NULL) {
        rc = impact_open_loop(&a, &lf, tmp, sizeof tmp);
        if (rc != CLI_EXIT_OK)
            return rc;
    }
    rc = impact_run(&a, &lf, tmp, &r);
    if (rc != CLI_EXIT_OK)
        return rc;
    if (isnan(a.options.damping)) {
        char warning[600];
        if (clink_law_restitution_warning(a.law, &a.params, r.e_out, warning, sizeof warning))
            fprintf(stderr, "clink: impact: warning: %s\n", warning);
    }
    if (a.json)
        impact_print_json(&a, &r, have_feng, alpha, &fz);
    else
        impact_print_table(&a, &r, have_feng, p, alpha, &fz);
    return CLI_EXIT_OK;
}
