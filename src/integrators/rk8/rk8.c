/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The DOP853 Runge-Kutta pair (Dormand-Prince 8(5,3), Hairer, Norsett and
 * Wanner 1993, Sect. II.10) on small arrays: one accepted step with its error
 * control, and the dense output of order 7 of an accepted step.
 *
 * The error estimate is Hairer's combination of the fifth- and third-order
 * estimators, err = h |e5|^2 / sqrt(|e5|^2 + 0.01 |e3|^2) in the weighted RMS
 * norm with weights atol_i + rtol max(|y0_i|, |y1_i|); the step changes by
 * 0.9 err^(-1/8), within [0.2, 10], and does not grow right after a rejection
 * (nor beyond h_max when one is set). An optional scale callback replaces the
 * weights (the mechanisms' own, rk8_integ.c). The sums run over the components in
 * the same order for every n, so the laboratory's n = 3 gives the bits it gave when
 * n was a compile-time constant.
 */
#include "integrators/rk8/rk8.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* bounds of the step size change after a rejected and an accepted step */
#define RK8_FACMIN 0.2
#define RK8_FACMAX 10.0

/* the tableau (nodes c, stages a, weights b, estimators e5, e3, dense output d) */
static const double rk8_c[16] = {0.0,
                                 0.05260015195876773,
                                 0.0789002279381516,
                                 0.1183503419072274,
                                 0.2816496580927726,
                                 0.3333333333333333,
                                 0.25,
                                 0.3076923076923077,
                                 0.6512820512820513,
                                 0.6,
                                 0.8571428571428571,
                                 1.0,
                                 1.0,
                                 0.1,
                                 0.2,
                                 0.7777777777777778};
static const double rk8_a[16][16] = {
    {0.0},
    {0.05260015195876773},
    {0.0197250569845379, 0.0591751709536137},
    {0.02958758547680685, 0.0, 0.08876275643042054},
    {0.2413651341592667, 0.0, -0.8845494793282861, 0.924834003261792},
    {0.037037037037037035, 0.0, 0.0, 0.17082860872947386, 0.12546768756682242},
    {0.037109375, 0.0, 0.0, 0.17025221101954405, 0.06021653898045596, -0.017578125},
    {0.03709200011850479, 0.0, 0.0, 0.17038392571223998, 0.10726203044637328, -0.015319437748624402,
     0.008273789163814023},
    {0.6241109587160757, 0.0, 0.0, -3.3608926294469414, -0.868219346841726, 27.59209969944671,
     20.154067550477894, -43.48988418106996},
    {0.47766253643826434, 0.0, 0.0, -2.4881146199716677, -0.590290826836843, 21.230051448181193,
     15.279233632882423, -33.28821096898486, -0.020331201708508627},
    {-0.9371424300859873, 0.0, 0.0, 5.186372428844064, 1.0914373489967295, -8.149787010746927,
     -18.52006565999696, 22.739487099350505, 2.4936055526796523, -3.0467644718982196},
    {2.273310147516538, 0.0, 0.0, -10.53449546673725, -2.0008720582248625, -17.9589318631188,
     27.94888452941996, -2.8589982771350235, -8.87285693353063, 12.360567175794303,
     0.6433927460157636},
    {0.054293734116568765, 0.0, 0.0, 0.0, 0.0, 4.450312892752409, 1.8915178993145003,
     -5.801203960010585, 0.3111643669578199, -0.1521609496625161, 0.20136540080403034,
     0.04471061572777259},
    {0.056167502283047954, 0.0, 0.0, 0.0, 0.0, 0.0, 0.25350021021662483, -0.2462390374708025,
     -0.12419142326381637, 0.15329179827876568, 0.00820105229563469, 0.007567897660545699,
     -0.008298},
    {0.03183464816350214, 0.0, 0.0, 0.0, 0.0, 0.028300909672366776, 0.053541988307438566,
     -0.05492374857139099, 0.0, 0.0, -0.00010834732869724932, 0.0003825710908356584,
     -0.00034046500868740456, 0.1413124436746325},
    {-0.42889630158379194, 0.0, 0.0, 0.0, 0.0, -4.697621415361164, 7.683421196062599,
     4.06898981839711, 0.3567271874552811, 0.0, 0.0, 0.0, -0.0013990241651590145,
     2.9475147891527724, -9.15095847217987}};
static const double rk8_b[12] = {0.054293734116568765,
                                 0.0,
                                 0.0,
                                 0.0,
                                 0.0,
                                 4.450312892752409,
                                 1.8915178993145003,
                                 -5.801203960010585,
                                 0.3111643669578199,
                                 -0.1521609496625161,
                                 0.20136540080403034,
                                 0.04471061572777259};
static const double rk8_e3[12] = {-0.18980075407240762,
                                  0.0,
                                  0.0,
                                  0.0,
                                  0.0,
                                  4.450312892752409,
                                  1.8915178993145003,
                                  -5.801203960010585,
                                  -0.4226823213237919,
                                  -0.1521609496625161,
                                  0.20136540080403034,
                                  0.02265179219836082};
static const double rk8_e5[12] = {0.01312004499419488,
                                  0.0,
                                  0.0,
                                  0.0,
                                  0.0,
                                  -1.2251564463762044,
                                  -0.4957589496572502,
                                  1.6643771824549864,
                                  -0.35032884874997366,
                                  0.3341791187130175,
                                  0.08192320648511571,
                                  -0.022355307863886294};
static const double rk8_d[4][16] = {
    {-8.428938276109013, 0.0, 0.0, 0.0, 0.0, 0.5667149535193777, -3.0689499459498917,
     2.38466765651207, 2.117034582445028, -0.871391583777973, 2.2404374302607883,
     0.6315787787694688, -0.08899033645133331, 18.148505520854727, -9.194632392478356,
     -4.436036387594894},
    {10.427508642579134, 0.0, 0.0, 0.0, 0.0, 242.28349177525817, 165.20045171727028,
     -374.5467547226902, -22.113666853125306, 7.733432668472264, -30.674084731089398,
     -9.332130526430229, 15.697238121770845, -31.139403219565178, -9.35292435884448,
     35.81684148639408},
    {19.985053242002433, 0.0, 0.0, 0.0, 0.0, -387.0373087493518, -189.17813819516758,
     527.8081592054236, -11.57390253995963, 6.8812326946963, -1.0006050966910838,
     0.7777137798053443, -2.778205752353508, -60.19669523126412, 84.32040550667716,
     11.99229113618279},
    {-25.69393346270375, 0.0, 0.0, 0.0, 0.0, -154.18974869023643, -231.5293791760455,
     357.6391179106141, 93.40532418362432, -37.45832313645163, 104.0996495089623, 29.8402934266605,
     -43.53345659001114, 96.32455395918828, -39.17726167561544, -149.72683625798564}};

/* the arrays of one step out of the block at *at */
static void rk8_step_arrays(rk8_step *s, int n, double **at)
{
    s->y0 = *at;
    s->y1 = *at + n;
    *at += 2 * n;
    for (int j = 0; j < RK8_STAGES_DENSE; j++, *at += n)
        s->k[j] = *at;
    for (int j = 0; j < 7; j++, *at += n)
        s->dense[j] = *at;
}

int rk8_init(rk8 *rk, int n)
{
    /* y, f, atol, yt, sc; per step (2 + 16 + 7) n, three steps */
    size_t per = (size_t) (2 + RK8_STAGES_DENSE + 7), nn = (size_t) (n > 0 ? n : 1);
    memset(rk, 0, sizeof *rk);
    rk->block = calloc((5 + 3 * per) * nn, sizeof(double));
    if (!rk->block)
        return -1;
    rk->n = n;
    double *at = rk->block;
    rk->y = at;
    rk->f = at + nn;
    rk->atol = at + 2 * nn;
    rk->yt = at + 3 * nn;
    rk->sc = at + 4 * nn;
    at += 5 * nn;
    rk8_step_arrays(&rk->buf[0], (int) nn, &at);
    rk8_step_arrays(&rk->buf[1], (int) nn, &at);
    rk8_step_arrays(&rk->scratch, (int) nn, &at);
    return 0;
}

void rk8_reset(rk8 *rk)
{
    size_t per = (size_t) (2 + RK8_STAGES_DENSE + 7), nn = (size_t) (rk->n > 0 ? rk->n : 1);
    memset(rk->block, 0, (5 + 3 * per) * nn * sizeof(double));
    rk->rhs = NULL;
    rk->scale = NULL;
    rk->ctx = NULL;
    rk->rtol = rk->h_max = rk->x = rk->h = 0.0;
    rk->cur = rk->n_valid = 0;
    rk->n_steps = rk->n_rhs = rk->n_rejects = 0;
    rk->buf[0].x0 = rk->buf[0].h = rk->buf[1].x0 = rk->buf[1].h = 0.0;
    rk->scratch.x0 = rk->scratch.h = 0.0;
    rk->buf[0].have_dense = rk->buf[1].have_dense = rk->scratch.have_dense = 0;
}

void rk8_free(rk8 *rk)
{
    free(rk->block);
    rk->block = NULL;
}

static double rk8_norm_factor(rk8 *rk, const rk8_step *s)
{
    double e5 = 0.0, e3 = 0.0, den;
    int i, j;

    if (rk->scale)
        rk->scale(rk->ctx, s->y0, s->y1, rk->sc);
    for (i = 0; i < rk->n; i++) {
        double sc =
            rk->scale ? rk->sc[i] : rk->atol[i] + rk->rtol * fmax(fabs(s->y0[i]), fabs(s->y1[i]));
        double a5 = 0.0, a3 = 0.0;
        for (j = 0; j < RK8_STAGES; j++) {
            a5 += rk8_e5[j] * s->k[j][i];
            a3 += rk8_e3[j] * s->k[j][i];
        }
        a5 /= sc;
        a3 /= sc;
        e5 += a5 * a5;
        e3 += a3 * a3;
    }
    if (e5 == 0.0 && e3 == 0.0)
        return 0.0;
    den = e5 + 0.01 * e3;
    return fabs(s->h) * e5 / sqrt(den * (double) rk->n);
}

/* stage st of a step: k[st] = f(x0 + c[st] h, y0 + h sum_j<st a[st][j] k[j]); 0, or nonzero if
   f is not finite */
static int rk8_stage(rk8 *rk, rk8_step *s, int st)
{
    double *yt = rk->yt;
    int j, i;

    for (i = 0; i < rk->n; i++) {
        double acc = 0.0;
        for (j = 0; j < st; j++)
            acc += rk8_a[st][j] * s->k[j][i];
        yt[i] = s->y0[i] + s->h * acc;
    }
    rk->n_rhs++;
    return rk->rhs(rk->ctx, s->x0 + rk8_c[st] * s->h, yt, s->k[st]);
}

/* the stages of a step from (x0, y0) with f(x0, y0) in k[0]; 0, or nonzero if f is not finite */
static int rk8_stages(rk8 *rk, rk8_step *s)
{
    int st, j, i;

    for (st = 1; st < RK8_STAGES; st++)
        if (rk8_stage(rk, s, st) != 0)
            return 1;
    for (i = 0; i < rk->n; i++) {
        double acc = 0.0;
        for (j = 0; j < RK8_STAGES; j++)
            acc += rk8_b[j] * s->k[j][i];
        s->y1[i] = s->y0[i] + s->h * acc;
        if (!isfinite(s->y1[i]))
            return 1;
    }
    rk->n_rhs++;
    return rk->rhs(rk->ctx, s->x0 + s->h, s->y1, s->k[RK8_STAGES]);
}

int rk8_start(rk8 *rk, double x, const double *y, double h)
{
    rk->x = x;
    rk->h = h;
    memcpy(rk->y, y, (size_t) rk->n * sizeof *y);
    rk->n_valid = 0;
    rk->n_rhs++;
    return rk->rhs(rk->ctx, x, rk->y, rk->f);
}

int rk8_advance(rk8 *rk, double x_end)
{
    rk8_step *s = &rk->buf[1 - rk->cur];
    int rejected = 0;
    double h = rk->h_max > 0.0 && rk->h > rk->h_max ? rk->h_max : rk->h;

    for (;;) {
        double h_min = 16.0 * DBL_EPSILON * fmax(fabs(rk->x), fabs(x_end - rk->x));
        double err, fac;
        int bad;

        if (!(h >= h_min))
            return -1;
        if (rk->x + h >= x_end || rk->x + 1.01 * h >= x_end)
            h = x_end - rk->x;
        s->x0 = rk->x;
        s->h = h;
        s->have_dense = 0;
        memcpy(s->y0, rk->y, (size_t) rk->n * sizeof(double));
        memcpy(s->k[0], rk->f, (size_t) rk->n * sizeof(double));
        bad = rk8_stages(rk, s);
        err = bad ? INFINITY : rk8_norm_factor(rk, s);
        if (!(err <= 1.0)) {
            rk->n_rejects++;
            rejected = 1;
            h *= bad ? 0.25 : fmax(RK8_FACMIN, 0.9 * pow(err, -0.125));
            continue;
        }
        fac = err == 0.0 ? RK8_FACMAX : fmin(RK8_FACMAX, 0.9 * pow(err, -0.125));
        if (rejected)
            fac = fmin(1.0, fac);
        rk->h = h * fac;
        rk->x = s->x0 + h;
        if (s->x0 + h == x_end || fabs(x_end - rk->x) <= 4.0 * DBL_EPSILON * fabs(x_end))
            rk->x = x_end;
        memcpy(rk->y, s->y1, (size_t) rk->n * sizeof(double));
        memcpy(rk->f, s->k[RK8_STAGES], (size_t) rk->n * sizeof(double));
        rk->cur = 1 - rk->cur;
        rk->n_valid++;
        rk->n_steps++;
        return 0;
    }
}

int rk8_step_to(rk8 *rk, const rk8_step *s, double x, double *y)
{
    rk8_step *t = &rk->scratch;
    int bad;

    t->x0 = s->x0;
    t->h = x - s->x0;
    t->have_dense = 0;
    memcpy(t->y0, s->y0, (size_t) rk->n * sizeof(double));
    memcpy(t->k[0], s->k[0], (size_t) rk->n * sizeof(double));
    if (!(t->h > 0.0)) {
        memcpy(y, s->y0, (size_t) rk->n * sizeof(double));
        return 0;
    }
    bad = rk8_stages(rk, t);
    memcpy(y, t->y1, (size_t) rk->n * sizeof(double));
    return bad;
}

rk8_step *rk8_last(rk8 *rk, int back)
{
    if (back < 0 || back > 1 || rk->n_valid <= back)
        return NULL;
    return &rk->buf[back == 0 ? rk->cur : 1 - rk->cur];
}

int rk8_dense(rk8 *rk, rk8_step *s)
{
    int st, j, i, r;

    if (s->have_dense)
        return 0;
    for (st = RK8_STAGES + 1; st < RK8_STAGES_DENSE; st++)
        if (rk8_stage(rk, s, st) != 0)
            return 1;
    for (i = 0; i < rk->n; i++) {
        double dy = s->y1[i] - s->y0[i];
        s->dense[0][i] = dy;
        s->dense[1][i] = s->h * s->k[0][i] - dy;
        s->dense[2][i] = 2.0 * dy - s->h * (s->k[RK8_STAGES][i] + s->k[0][i]);
        for (r = 0; r < 4; r++) {
            double acc = 0.0;
            for (j = 0; j < RK8_STAGES_DENSE; j++)
                acc += rk8_d[r][j] * s->k[j][i];
            s->dense[3 + r][i] = s->h * acc;
        }
    }
    s->have_dense = 1;
    return 0;
}

void rk8_eval(const rk8 *rk, const rk8_step *s, double x, double *y)
{
    (void) rk;
    double u = (x - s->x0) / s->h, w = 1.0 - u;
    int i;

    for (i = 0; i < rk->n; i++) {
        double *const *d = s->dense;
        y[i] =
            s->y0[i] +
            u * (d[0][i] +
                 w * (d[1][i] +
                      u * (d[2][i] + w * (d[3][i] + u * (d[4][i] + w * (d[5][i] + u * d[6][i]))))));
    }
}

void rk8_eval_derivs(const rk8 *rk, const rk8_step *s, double x, int i, double *d1, double *d2)
{
    double u = (x - s->x0) / s->h;
    double r = s->dense[6][i], r1 = 0.0, r2 = 0.0;
    int k;

    (void) rk;
    /* the nested form y0 + u (D0 + w (D1 + u (D2 + ... + u D6))), w = 1 - u, with the
       first two derivatives in u carried along (the factors u and w are linear) */
    for (k = 5; k >= -1; k--) {
        double f = (k % 2 == 0) ? 1.0 - u : u, fp = (k % 2 == 0) ? -1.0 : 1.0;
        double c = k >= 0 ? s->dense[k][i] : 0.0;
        double n0, n1, n2;
        /* level k: r <- c + f r, innermost D6 multiplied by u first */
        n0 = f * r;
        n1 = fp * r + f * r1;
        n2 = 2.0 * fp * r1 + f * r2;
        r = c + n0;
        r1 = n1;
        r2 = n2;
        if (k < 0)
            break;
    }
    *d1 = r1 / s->h;
    *d2 = r2 / (s->h * s->h);
}
