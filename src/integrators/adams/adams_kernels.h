/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * adams_kernels.h: the element-wise loops of adams_core.c that run over the Nordsieck
 * array every step (the prediction and its undoing, the correction of the history, the
 * fixed-point update), included there once per instruction set: VK(name) names this
 * copy's functions, VK_TARGET is their target attribute, VK_T a register of VK_W doubles
 * and VK_LOAD, VK_STORE, VK_ADD, VK_SUB, VK_MUL, VK_SET1 its operations (plain doubles
 * with VK_W = 1). Every element gets the same operations in the same order in every copy
 * (an IEEE sum or product of two doubles has one result whatever the register; fused
 * multiply-adds are off), so all copies give CVODE's bits. No include guard: included
 * more than once; it undefines its parameters at its end, so each copy defines them anew.
 */

/*
 * The Pascal triangle of cvPredict (sub = 0: zn_(j-1) += zn_j for k = 1 .. q, j = q .. k)
 * or of cvRestore (sub = 1: -=) on the components [i, i + VK_W) held in registers: each
 * element gets CVODE's sums in CVODE's order (its vector loops run j, k outside and the
 * elements inside) with q (q + 1) / 2 additions per register instead of as many passes over
 * the arrays. Q is a constant in each copy (VK(pascal)'s switch), so the columns stay in
 * registers.
 */
VK_TARGET static inline __attribute__((always_inline)) void VK(pascal_at)(double *const *zn, int i,
                                                                          int Q, int sub)
{
    VK_T z[ADAMS_LMAX];
#pragma GCC unroll 13
    for (int j = 0; j <= Q; j++)
        z[j] = VK_LOAD(zn[j] + i);
#pragma GCC unroll 13
    for (int k = 1; k <= Q; k++)
#pragma GCC unroll 13
        for (int j = Q; j >= k; j--)
            z[j - 1] = sub ? VK_SUB(z[j - 1], z[j]) : VK_ADD(z[j - 1], z[j]);
#pragma GCC unroll 13
    for (int j = 0; j < Q; j++)
        VK_STORE(zn[j] + i, z[j]);
}

/* the same on the one component i */
VK_TARGET static inline __attribute__((always_inline)) void VK(pascal_one)(double *const *zn, int i,
                                                                           int Q, int sub)
{
    double z[ADAMS_LMAX];
#pragma GCC unroll 13
    for (int j = 0; j <= Q; j++)
        z[j] = zn[j][i];
#pragma GCC unroll 13
    for (int k = 1; k <= Q; k++)
#pragma GCC unroll 13
        for (int j = Q; j >= k; j--)
            z[j - 1] = sub ? z[j - 1] - z[j] : z[j - 1] + z[j];
#pragma GCC unroll 13
    for (int j = 0; j < Q; j++)
        zn[j][i] = z[j];
}

#define VK_PASCAL_CASE(Q)                                                                          \
    case Q:                                                                                        \
        for (; i + VK_W <= n; i += VK_W)                                                           \
            VK(pascal_at)(zn, i, Q, sub);                                                          \
        for (; i < n; i++)                                                                         \
            VK(pascal_one)(zn, i, Q, sub);                                                         \
        break;

VK_TARGET static void VK(pascal)(double *const *zn, int q, int n, int sub)
{
    int i = 0;
    switch (q) {
        VK_PASCAL_CASE(1)
        VK_PASCAL_CASE(2)
        VK_PASCAL_CASE(3)
        VK_PASCAL_CASE(4)
        VK_PASCAL_CASE(5)
        VK_PASCAL_CASE(6)
        VK_PASCAL_CASE(7)
        VK_PASCAL_CASE(8)
        VK_PASCAL_CASE(9)
        VK_PASCAL_CASE(10)
        VK_PASCAL_CASE(11)
        VK_PASCAL_CASE(12)
    default:
        break;
    }
}
#undef VK_PASCAL_CASE

/* cvCompleteStep's zn_j += l_j acor, j = 0 .. Q (N_VScaleAddMulti: z + l_j a per element)
   on the components [i, i + VK_W), acor loaded once */
VK_TARGET static inline __attribute__((always_inline)) void
VK(correct_at)(double *const *zn, const double *l, const double *acor, int i, int Q)
{
    VK_T a = VK_LOAD(acor + i);
#pragma GCC unroll 13
    for (int j = 0; j <= Q; j++)
        VK_STORE(zn[j] + i, VK_ADD(VK_LOAD(zn[j] + i), VK_MUL(VK_SET1(l[j]), a)));
}

#define VK_CORRECT_CASE(Q)                                                                         \
    case Q:                                                                                        \
        for (; i + VK_W <= n; i += VK_W)                                                           \
            VK(correct_at)(zn, l, acor, i, Q);                                                     \
        break;

VK_TARGET static void VK(correct)(double *const *zn, const double *l, const double *acor, int q,
                                  int n)
{
    int i = 0;
    switch (q) {
        VK_CORRECT_CASE(1)
        VK_CORRECT_CASE(2)
        VK_CORRECT_CASE(3)
        VK_CORRECT_CASE(4)
        VK_CORRECT_CASE(5)
        VK_CORRECT_CASE(6)
        VK_CORRECT_CASE(7)
        VK_CORRECT_CASE(8)
        VK_CORRECT_CASE(9)
        VK_CORRECT_CASE(10)
        VK_CORRECT_CASE(11)
        VK_CORRECT_CASE(12)
    default:
        break;
    }
    for (; i < n; i++)
        for (int j = 0; j <= q; j++)
            zn[j][i] += l[j] * acor[i];
}
#undef VK_CORRECT_CASE

/* the fixed-point update in one pass: a = rl1 (h f - zn_1) (cvNlsFPFunction: h f - zn_1,
   then scaled by rl1), its change delta = a - acor (the solver's ycor - yprev), acor = a,
   and y = zn_0 + a */
VK_TARGET static void VK(update)(const double *f, const double *z0, const double *z1, double *acor,
                                 double *delta, double *y, double rl1, double h, int n)
{
    int i = 0;
    VK_T r = VK_SET1(rl1), hv = VK_SET1(h);
    for (; i + VK_W <= n; i += VK_W) {
        VK_T a = VK_MUL(r, VK_SUB(VK_MUL(hv, VK_LOAD(f + i)), VK_LOAD(z1 + i)));
        VK_STORE(delta + i, VK_SUB(a, VK_LOAD(acor + i)));
        VK_STORE(acor + i, a);
        VK_STORE(y + i, VK_ADD(VK_LOAD(z0 + i), a));
    }
    for (; i < n; i++) {
        double a = rl1 * ((h * f[i]) - z1[i]);
        delta[i] = a - acor[i];
        acor[i] = a;
        y[i] = z0[i] + a;
    }
}

#undef VK
#undef VK_TARGET
#undef VK_T
#undef VK_W
#undef VK_LOAD
#undef VK_STORE
#undef VK_ADD
#undef VK_SUB
#undef VK_MUL
#undef VK_SET1
