/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "Did you mean ...?": the nearest of a set of names to a misspelt one, by the
 * Damerau-Levenshtein distance in its optimal-string-alignment form (Damerau
 * 1964, Levenshtein 1966: insertions, deletions, substitutions and swaps of two
 * neighbouring letters, each of cost 1), ASCII letters compared without case.
 * The one helper behind every suggestion of the reader and the command line.
 */
#ifndef CLINK_SUGGEST_H
#define CLINK_SUGGEST_H

/* longest name compared (longer ones are never near anything) */
enum { SUGGEST_MAX_LEN = 96 };

/* the distance between a and b; SUGGEST_MAX_LEN + 1 when either is longer than SUGGEST_MAX_LEN */
int suggest_distance(const char *a, const char *b);

/* the search for the candidate nearest to word */
typedef struct suggest {
    const char *word;               /* the misspelt name (not copied) */
    char best[SUGGEST_MAX_LEN + 1]; /* the nearest candidate so far, "" if none is near */
    int dist;                       /* its distance */
} suggest;

void suggest_init(suggest *s, const char *word);

/*
 * Offers a candidate: kept when near enough to the word and nearer than the
 * ones before (the first of equals wins). Near enough: at most one edit for
 * words of up to 4 letters, two up to 7, three beyond, and fewer edits than
 * the word has letters; the word itself (same case) is never suggested.
 */
void suggest_offer(suggest *s, const char *candidate);

/* the nearest candidate offered, or NULL if none was near enough */
const char *suggest_best(const suggest *s);

#endif /* CLINK_SUGGEST_H */
