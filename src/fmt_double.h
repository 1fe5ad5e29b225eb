/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Shortest round-trip formatting of doubles for the run outputs and the messages (internal to
 * the library; tests/output/test_output.c checks it against the C library).
 */
#ifndef CLINK_FMT_DOUBLE_H
#define CLINK_FMT_DOUBLE_H

#include <stddef.h>

/* bytes output_format_double() may write, the terminating NUL included */
enum { OUTPUT_DOUBLE_MAX = 32 };

/*
 * Writes into buf (at least OUTPUT_DOUBLE_MAX bytes) the shortest decimal that
 * strtod() reads back as exactly v (of the shortest ones, the nearest to v),
 * laid out like printf("%.17g"): fixed notation for decimal exponents -4 .. 16,
 * otherwise d.ddde+XX with at least two exponent digits. -0 is "-0"; NaN is
 * "nan" whatever its sign and payload, infinities "inf" and "-inf". Returns the
 * length (without the NUL). The bytes depend only on v, never on the locale or
 * the machine.
 */
size_t output_format_double(double v, char *buf);

/*
 * The shortest decimal of a finite v > 0: its significant digits (ASCII, no
 * leading or trailing zeros, not terminated) and the exponent e such that the
 * decimal is DIGITS x 10^e. Returns the number of digits (1 .. 17).
 */
int output_shortest_decimal(double v, char digits[18], int *e);

#endif
