/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ensure.h: the test harness of clink, one header, no dependencies.
 *
 *   TEST(name_that_reads_as_a_sentence) { ENSURE(cond); ENSURE_NEAR(x, ref, tol); }
 *
 * Each TEST registers itself; the test program runs them all, or only the one
 * named on its command line (ctest registers one ctest test per TEST, see
 * tests/CMakeLists.txt). ENSURE_NEAR compares |x - ref| <= tol (absolute);
 * ENSURE_REL compares |x - ref| <= tol |ref| (relative). A failing check prints
 * file:line, the expression and the values, and fails the test; the remaining
 * checks of the test still run so one run shows every failure.
 * Include it in exactly one translation unit per test program.
 */
#ifndef CLINK_TESTS_ENSURE_H
#define CLINK_TESTS_ENSURE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*ensure_test_fn)(void);

typedef struct ensure_entry {
    const char *name;
    ensure_test_fn fn;
} ensure_entry;

enum { ENSURE_MAX_TESTS = 512 };
static ensure_entry ensure_registry[ENSURE_MAX_TESTS];
static int ensure_count;
static int ensure_failures; /* failed checks in the current test */

static void ensure_register(const char *name, ensure_test_fn fn)
{
    if (ensure_count < ENSURE_MAX_TESTS) {
        ensure_registry[ensure_count].name = name;
        ensure_registry[ensure_count].fn = fn;
        ensure_count++;
    } else {
        fprintf(stderr, "ensure.h: more than %d tests in one program\n", ENSURE_MAX_TESTS);
        exit(2);
    }
}

#define TEST(name)                                                                                 \
    static void name(void);                                                                        \
    __attribute__((constructor)) static void ensure_register_##name(void)                          \
    {                                                                                              \
        ensure_register(#name, name);                                                              \
    }                                                                                              \
    static void name(void)

#define ENSURE(cond)                                                                               \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: ENSURE(%s) failed\n", __FILE__, __LINE__, #cond);              \
            ensure_failures++;                                                                     \
        }                                                                                          \
    } while (0)

#define ENSURE_NEAR(x, ref, tol)                                                                   \
    do {                                                                                           \
        double ensure_x_ = (double) (x), ensure_r_ = (double) (ref), ensure_t_ = (double) (tol);   \
        if (!(fabs(ensure_x_ - ensure_r_) <= ensure_t_)) {                                         \
            fprintf(stderr,                                                                        \
                    "%s:%d: ENSURE_NEAR(%s, %s, %s): %.17g vs %.17g, |diff| %.3g > %.3g\n",        \
                    __FILE__, __LINE__, #x, #ref, #tol, ensure_x_, ensure_r_,                      \
                    fabs(ensure_x_ - ensure_r_), ensure_t_);                                       \
            ensure_failures++;                                                                     \
        }                                                                                          \
    } while (0)

#define ENSURE_REL(x, ref, tol)                                                                    \
    do {                                                                                           \
        double ensure_x_ = (double) (x), ensure_r_ = (double) (ref), ensure_t_ = (double) (tol);   \
        if (!(fabs(ensure_x_ - ensure_r_) <= ensure_t_ * fabs(ensure_r_))) {                       \
            fprintf(stderr, "%s:%d: ENSURE_REL(%s, %s, %s): %.17g vs %.17g, rel %.3g > %.3g\n",    \
                    __FILE__, __LINE__, #x, #ref, #tol, ensure_x_, ensure_r_,                      \
                    fabs(ensure_x_ - ensure_r_) / fabs(ensure_r_), ensure_t_);                     \
            ensure_failures++;                                                                     \
        }                                                                                          \
    } while (0)

#define ENSURE_STR_EQ(a, b)                                                                        \
    do {                                                                                           \
        const char *ensure_a_ = (a), *ensure_b_ = (b);                                             \
        if (ensure_a_ == NULL || ensure_b_ == NULL || strcmp(ensure_a_, ensure_b_) != 0) {         \
            fprintf(stderr, "%s:%d: ENSURE_STR_EQ(%s, %s): \"%s\" vs \"%s\"\n", __FILE__,          \
                    __LINE__, #a, #b, ensure_a_ ? ensure_a_ : "(null)",                            \
                    ensure_b_ ? ensure_b_ : "(null)");                                             \
            ensure_failures++;                                                                     \
        }                                                                                          \
    } while (0)

static int ensure_run(const ensure_entry *e)
{
    ensure_failures = 0;
    e->fn();
    printf("%s %s\n", ensure_failures ? "FAIL" : "ok  ", e->name);
    return ensure_failures ? 1 : 0;
}

/* run every test, or those named in argv; --list prints the names */
int main(int argc, char **argv)
{
    int failed = 0, ran = 0, i, j;

    if (argc > 1 && strcmp(argv[1], "--list") == 0) {
        for (i = 0; i < ensure_count; i++)
            printf("%s\n", ensure_registry[i].name);
        return 0;
    }
    if (argc == 1) {
        for (i = 0; i < ensure_count; i++, ran++)
            failed += ensure_run(&ensure_registry[i]);
    } else {
        for (j = 1; j < argc; j++) {
            for (i = 0; i < ensure_count; i++)
                if (strcmp(argv[j], ensure_registry[i].name) == 0)
                    break;
            if (i == ensure_count) {
                fprintf(stderr, "no test named %s\n", argv[j]);
                return 2;
            }
            failed += ensure_run(&ensure_registry[i]);
            ran++;
        }
    }
    printf("%d passed, %d failed\n", ran - failed, failed);
    return failed ? 1 : 0;
}

#endif /* CLINK_TESTS_ENSURE_H */
