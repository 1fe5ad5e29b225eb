/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The nearest name to a misspelt one (suggest.h): the optimal-string-alignment
 * distance (Damerau 1964; Levenshtein 1966), computed over three rolling rows
 *
 *   d[i][j] = min(d[i-1][j] + 1, d[i][j-1] + 1, d[i-1][j-1] + (a_i != b_j),
 *                 d[i-2][j-2] + 1 if a_i = b_{j-1} and a_{i-1} = b_j),
 *
 * letters compared after ASCII lower-casing.
 */
#include "suggest.h"

#include <string.h>

static char suggest_lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char) (c - 'A' + 'a') : c;
}

static int suggest_min(int a, int b)
{
    return a < b ? a : b;
}

int suggest_distance(const char *a, const char *b)
{
    int rows[3][SUGGEST_MAX_LEN + 1];
    size_t na = strlen(a), nb = strlen(b), i, j;
    int *prev2 = rows[0], *prev = rows[1], *cur = rows[2];

    if (na > SUGGEST_MAX_LEN || nb > SUGGEST_MAX_LEN)
        return SUGGEST_MAX_LEN + 1;
    for (j = 0; j <= nb; j++)
        prev[j] = (int) j;
    for (i = 1; i <= na; i++) {
        int *t;
        cur[0] = (int) i;
        for (j = 1; j <= nb; j++) {
            int cost = suggest_lower(a[i - 1]) != suggest_lower(b[j - 1]);
            int d = suggest_min(prev[j] + 1, cur[j - 1] + 1);
            d = suggest_min(d, prev[j - 1] + cost);
            if (i > 1 && j > 1 && suggest_lower(a[i - 1]) == suggest_lower(b[j - 2]) &&
                suggest_lower(a[i - 2]) == suggest_lower(b[j - 1]))
                d = suggest_min(d, prev2[j - 2] + 1);
            cur[j] = d;
        }
        /* rotate: the row before the previous is overwritten next */
        t = prev2;
        prev2 = prev;
        prev = cur;
        cur = t;
    }
    return prev[nb];
}

void suggest_init(suggest *s, const char *word)
{
    s->word = word;
    s->best[0] = '\0';
    s->dist = SUGGEST_MAX_LEN + 1;
}

void suggest_offer(suggest *s, const char *candidate)
{
    int len = (int) strlen(s->word), limit, d;

    if (candidate == NULL || strcmp(candidate, s->word) == 0 || strlen(candidate) > SUGGEST_MAX_LEN)
        return;
    limit = len <= 4 ? 1 : len <= 7 ? 2 : 3;
    if (limit >= len)
        limit = len - 1;
    d = suggest_distance(s->word, candidate);
    if (d > limit || d >= s->dist)
        return;
    s->dist = d;
    memcpy(s->best, candidate, strlen(candidate) + 1);
}

const char *suggest_best(const suggest *s)
{
    return s->best[0] != '\0' ? s->best : NULL;
}
