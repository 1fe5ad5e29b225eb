/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xml_wear.c: <wear> of a <revolute_clearance>, Archard's wear law (docs/wear.md) into
 * clink_wear_def: the coefficient either as k (dimensionless) with the hardness H (Pa), or
 * as kd = k / H (m^2/N) directly; the contact's axial length (m), the effective modulus of
 * the pressure strip (Pa, default: the joint's materials), the bearing's wall thickness (m,
 * default none), the cells of the accumulation grid, and optionally a worn depth profile
 * ("d1 d2 ...", m, at equally spaced angles of the bearing's frame from 0) and the worn
 * journal's (pin_depth, at equally spaced angles of the journal's frame); the pressure's shape
 * (pressure: hertz, default, or winkler with the foundation's layer thickness, m). The <wear>
 * of a translational clearance joint takes k, hardness, kd, length, wall, grid and its worn
 * guide: lower_depth and upper_depth (m, at knots equally spaced over guide_length from its
 * rear end; one alone: the other surface flat). Each value is checked here with the element's
 * line; the builder checks the definition again (the guide's grooves against the clearance).
 */
#include "xml/xml_internal.h"

#include <math.h>

/* a value out of range: the message with the element's line */
static int wear_bad(xml_reader *r, const xmlNode *n, const char *w, const char *what, double v,
                    const char *rule)
{
    xml_fail(r, CLINK_ERR_RANGE, xml_line(n), "%s: <wear> %s = %g is out of range; %s", w, what, v,
             rule);
    return -1;
}

/* the coefficient: k and hardness, or kd; 0 or -1 */
static int wear_coefficient(xml_reader *r, const xmlNode *n, clink_wear_def *d, const char *w)
{
    double k, H, kd;
    int has_k = xml_num(r, n, "k", NAN, 1, &k), has_h = xml_num(r, n, "hardness", NAN, 1, &H);
    int has_kd = xml_num(r, n, "kd", NAN, 1, &kd);
    if (r->failed)
        return -1;
    if (has_kd && (has_k || has_h)) {
        xml_fail(r, CLINK_ERR_MODEL, xml_line(n),
                 "%s: <wear> gives kd and k or hardness; give kd (m^2/N) or k with hardness (Pa)",
                 w);
        return -1;
    }
    if (!has_kd && !(has_k && has_h)) {
        xml_fail(r, CLINK_ERR_MODEL, xml_line(n),
                 "%s: <wear> needs kd (m^2/N) or both k (-) and hardness (Pa)", w);
        return -1;
    }
    if (has_kd) {
        if (!(kd >= 0.0))
            return wear_bad(r, n, w, "kd", kd, "give kd >= 0 (m^2/N)");
        d->kd = kd;
        return 0;
    }
    if (!(k >= 0.0))
        return wear_bad(r, n, w, "k", k, "give k >= 0 (Archard's dimensionless coefficient)");
    if (!(H > 0.0))
        return wear_bad(r, n, w, "hardness", H, "give hardness > 0 (Pa)");
    d->kd = k / H;
    return 0;
}

/* the worn pin's depths: >= 0 and short of the wall; 0 or -1 */
static int wear_pin(xml_reader *r, const xmlNode *n, clink_wear_def *d, const char *w, int np,
                    const double *pin)
{
    d->pin_nknots = np;
    for (int i = 0; i < np; i++) {
        d->pin_depth[i] = pin[i];
        if (!(pin[i] >= 0.0)) {
            xml_fail(r, CLINK_ERR_RANGE, xml_line(n),
                     "%s: <wear> pin_depth %g m (value %d) is out of range; give depths >= 0", w,
                     pin[i], i + 1);
            return -1;
        }
        if (!(pin[i] < d->wall)) {
            xml_fail(r, CLINK_ERR_RANGE, xml_line(n),
                     "%s: <wear> pin_depth %g m (value %d) reaches the wall thickness %g m (the "
                     "journal is worn through)",
                     w, pin[i], i + 1, d->wall);
            return -1;
        }
    }
    return 0;
}

/* the pressure's shape: hertz (default) or winkler with its layer thickness; 0 or -1 */
static int wear_pressure(xml_reader *r, const xmlNode *n, clink_wear_def *d, const char *w)
{
    static const char *const shapes[] = {"hertz", "winkler", NULL};
    d->pressure = xml_keyword(r, n, "pressure", shapes, CLINK_WEAR_HERTZ);
    int has_b = xml_num(r, n, "layer", NAN, 1, &d->layer);
    if (r->failed)
        return -1;
    if (d->pressure == CLINK_WEAR_WINKLER && !has_b) {
        xml_fail(r, CLINK_ERR_MODEL, xml_line(n),
                 "%s: <wear> pressure=\"winkler\" needs layer (the elastic foundation's "
                 "thickness, m)",
                 w);
        return -1;
    }
    if (d->pressure == CLINK_WEAR_WINKLER && !(d->layer > 0.0 && isfinite(d->layer)))
        return wear_bad(r, n, w, "layer", d->layer,
                        "pressure=\"winkler\" needs layer > 0 (the elastic foundation's "
                        "thickness, m)");
    if (d->pressure != CLINK_WEAR_WINKLER && has_b) {
        xml_fail(r, CLINK_ERR_MODEL, xml_line(n),
                 "%s: <wear> layer is the elastic foundation's: give it with pressure=\"winkler\"",
                 w);
        return -1;
    }
    return 0;
}

/* a guide's worn surfaces: lower_depth and upper_depth with as many values (one alone: the
   other flat), 2 .. CLINK_WEAR_MAX_KNOTS, each >= 0 and short of the wall, into *nk and
   depth[side * CLINK_WEAR_MAX_KNOTS + i]; 0 or -1 */
static int wear_guide_depths(xml_reader *r, const xmlNode *n, const clink_wear_def *d, int *nk,
                             double *depth, const char *w)
{
    static const char *const keys[2] = {"lower_depth", "upper_depth"};
    double v[2][CLINK_WEAR_MAX_KNOTS];
    int c[2];
    for (int s = 0; s < 2; s++)
        c[s] = xml_numbers(r, n, keys[s], v[s], 1, CLINK_WEAR_MAX_KNOTS, 1.0);
    if (r->failed)
        return -1;
    if (c[0] != 0 && c[1] != 0 && c[0] != c[1]) {
        xml_fail(r, CLINK_ERR_MODEL, xml_line(n),
                 "%s: <wear> lower_depth has %d values and upper_depth %d; give both at the "
                 "same knots (as many values)",
                 w, c[0], c[1]);
        return -1;
    }
    int k = c[0] > c[1] ? c[0] : c[1];
    if (k == 1) {
        xml_fail(r, CLINK_ERR_RANGE, xml_line(n),
                 "%s: <wear> %s has 1 value; give 2 .. %d (equally spaced over guide_length "
                 "from its rear end)",
                 w, keys[c[0] == 1 ? 0 : 1], CLINK_WEAR_MAX_KNOTS);
        return -1;
    }
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < k; i++) {
            double h = c[s] ? v[s][i] : 0.0;
            if (!(h >= 0.0) || !(h < d->wall)) {
                xml_fail(r, CLINK_ERR_RANGE, xml_line(n),
                         "%s: <wear> %s %g m (value %d) is out of range; 0 <= depth < wall "
                         "thickness %g m (the wear reached the wall)",
                         w, keys[s], h, i + 1, d->wall);
                return -1;
            }
            depth[s * CLINK_WEAR_MAX_KNOTS + i] = h;
        }
    *nk = k;
    return 0;
}

void xml_read_wear(xml_reader *r, const xmlNode *n, clink_wear_def *d, int *guide_n,
                   double *guide_depth, const char *w)
{
    static const char *const keys[] = {"k",         "hardness", "kd",    "length",
                                       "modulus",   "wall",     "grid",  "depth",
                                       "pin_depth", "pressure", "layer", NULL};
    static const char *const guide_keys[] = {"k",    "hardness",    "kd",          "length", "wall",
                                             "grid", "lower_depth", "upper_depth", NULL};
    double grid, depth[CLINK_WEAR_MAX_KNOTS], pin[CLINK_WEAR_MAX_KNOTS];
    if (n == NULL || xml_check_attrs(r, n, guide_n ? guide_keys : keys, NULL) ||
        wear_coefficient(r, n, d, w) != 0)
        return;
    int has_l = xml_num(r, n, "length", NAN, 1, &d->length);
    xml_num(r, n, "modulus", NAN, 1, &d->modulus);
    xml_num(r, n, "wall", INFINITY, 1, &d->wall);
    xml_num(r, n, "grid", 360, 1, &grid);
    int nk = xml_numbers(r, n, "depth", depth, 1, CLINK_WEAR_MAX_KNOTS, 1.0);
    int np = xml_numbers(r, n, "pin_depth", pin, 1, CLINK_WEAR_MAX_KNOTS, 1.0);
    if (r->failed)
        return;
    if (!has_l || !(d->length > 0.0))
        wear_bad(r, n, w, "length", d->length, "give length > 0 (the bearing's axial length, m)");
    else if (!isnan(d->modulus) && !(d->modulus > 0.0))
        wear_bad(r, n, w, "modulus", d->modulus, "give modulus > 0 (E*, Pa)");
    else if (!(d->wall > 0.0))
        wear_bad(r, n, w, "wall", d->wall, "give wall > 0 (the bearing's wall thickness, m)");
    else if (!(grid >= 16 && grid <= 100000 && grid == floor(grid)))
        wear_bad(r, n, w, "grid", grid, "a whole number of cells in 16 .. 100000");
    else if ((nk != 0 && nk < 8) || (np != 0 && np < 8))
        xml_fail(r, CLINK_ERR_RANGE, xml_line(n),
                 "%s: <wear> %s has %d values; give 8 .. %d (equally spaced from 0 deg)", w,
                 nk != 0 && nk < 8 ? "depth" : "pin_depth", nk != 0 && nk < 8 ? nk : np,
                 CLINK_WEAR_MAX_KNOTS);
    if (r->failed || wear_pin(r, n, d, w, np, pin) != 0 || wear_pressure(r, n, d, w) != 0)
        return;
    if (guide_n && wear_guide_depths(r, n, d, guide_n, guide_depth, w) != 0)
        return;
    d->grid = (int) grid;
    d->nknots = nk;
    for (int i = 0; i < nk; i++) {
        d->depth[i] = depth[i];
        if (!(depth[i] >= 0.0) || !(depth[i] < d->wall)) {
            xml_fail(r, CLINK_ERR_RANGE, xml_line(n),
                     "%s: <wear> depth %g m (value %d) is out of range; 0 <= depth < wall "
                     "thickness %g m (the wear reached the wall)",
                     w, depth[i], i + 1, d->wall);
            return;
        }
    }
}
