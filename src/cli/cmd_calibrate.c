/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * clink calibrate: the damping coefficient (chi, c, or Tsuji's alpha = chi /
 * sqrt(K m)) for which the laboratory's achieved restitution equals the target
 * to 1e-9, by bracketing and Brent's method on the integrated impact (Poursina and Nikravesh (2020)
 * Eq. 23 solved as a root), printed beside the law's own rule and the
 * restitution that rule achieves.
 */
#include "cli.h"
#include "cli_lab.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void calibrate_help(void)
{
    printf("usage: clink calibrate --law NAME --target E --mass M --velocity V [OPTIONS]\n\n"
           "The law's damping coefficient for which one central impact of effective mass M\n"
           "(kg) at approach speed V (m/s) rebounds with restitution E, to 1e-9, beside the\n"
           "coefficient the law's own rule gives and the restitution that one achieves.\n"
           "Options calibrate would overwrite are refused: --restitution, --damping and\n"
           "--param e, chi, c or alpha. Parameters the law does not read are refused.\n\n"
           "Options (--opt VALUE or --opt=VALUE):\n");
    cli_print_options(stdout, cli_lab_options(1));
}

int cmd_calibrate(int argc, char **argv)
{
    cli_lab_args a;
    clink_lab *lab = NULL;
    clink_lab_calibration cal;
    clink_status st;
    const char *kind, *unit;
    int rc, is_tsuji;

    rc = cli_lab_parse(argc, argv, 1, &a);
    if (rc != CLI_EXIT_OK)
        return rc;
    if (a.help) {
        calibrate_help();
        return CLI_EXIT_OK;
    }
    st = clink_lab_create(&lab);
    if (st != CLINK_OK) {
        fprintf(stderr, "clink: calibrate: %s\n", clink_status_string(st));
        return CLI_EXIT_FAIL;
    }
    st = clink_lab_calibrate(lab, a.law, &a.params, a.mass, a.velocity, a.target, &a.options, &cal);
    if (st != CLINK_OK) {
        fprintf(stderr, "clink: calibrate: %s\n", clink_lab_error(lab));
        clink_lab_destroy(&lab);
        return cli_lab_exit_for(st);
    }
    clink_lab_destroy(&lab);
    is_tsuji = strstr(clink_law_name(a.law), "tsuji") != NULL;
    kind = cal.damping_is_c ? "c" : "chi";
    unit = cal.damping_is_c                                  ? "N s/m"
           : strcmp(clink_law_geometry(a.law), "point") != 0 ? "s/m (F_el (1 + chi delta_dot))"
                                                             : "N s/m^(m+1)";
    if (a.json) {
        printf("{\n  \"law\": \"%s\",\n  \"damping_kind\": \"%s\",\n", clink_law_name(a.law), kind);
        cli_lab_json_number(stdout, "e_target", cal.e_target, 1);
        cli_lab_json_number(stdout, "damping", cal.damping, 1);
        cli_lab_json_number(stdout, "e_achieved", cal.e_achieved, 1);
        cli_lab_json_number(stdout, "error", fabs(cal.e_achieved - cal.e_target), 1);
        cli_lab_json_number(stdout, "damping_law", cal.damping_law, 1);
        cli_lab_json_number(stdout, "e_law", cal.e_law, 1);
        if (is_tsuji) {
            cli_lab_json_number(stdout, "alpha", cal.alpha, 1);
            cli_lab_json_number(stdout, "alpha_law", cal.alpha_law, 1);
        }
        printf("  \"iterations\": %d\n}\n", cal.iterations);
        return CLI_EXIT_OK;
    }
    printf("law                    %s\n", clink_law_name(a.law));
    printf("e_target               %.12g\n", cal.e_target);
    printf("%-22s %.15g %s (calibrated)\n", kind, cal.damping, unit);
    printf("e_achieved             %.15g  (|e - target| = %.2e)\n", cal.e_achieved,
           fabs(cal.e_achieved - cal.e_target));
    printf("%-22s %.15g %s (the law's own rule)\n", kind, cal.damping_law, unit);
    printf("e_law                  %.15g  (restitution the rule achieves)\n", cal.e_law);
    if (is_tsuji && isfinite(cal.alpha))
        printf("%-22s %.15g (rule: %.15g)\n", "alpha = chi/sqrt(K m)", cal.alpha, cal.alpha_law);
    printf("laboratory runs        %d\n", cal.iterations);
    return CLI_EXIT_OK;
}
