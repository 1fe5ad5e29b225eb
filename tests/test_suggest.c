/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The "did you mean" helper (src/suggest.c): the Damerau-Levenshtein distance
 * (optimal string alignment, case-insensitive) and the choice of the nearest
 * candidate within the edit budget of the word's length.
 */
#include "suggest.h"

#include "ensure.h"

TEST(edit_distance_counts_insertions_deletions_substitutions_and_swaps)
{
    ENSURE(suggest_distance("", "") == 0);
    ENSURE(suggest_distance("mass", "mass") == 0);
    ENSURE(suggest_distance("mas", "mass") == 1);            /* insertion */
    ENSURE(suggest_distance("masss", "mass") == 1);          /* deletion */
    ENSURE(suggest_distance("mast", "mass") == 1);           /* substitution */
    ENSURE(suggest_distance("claerance", "clearance") == 1); /* a swap is one edit */
    ENSURE(suggest_distance("bodys", "bodies") == 2);
    ENSURE(suggest_distance("ca", "abc") == 3); /* optimal string alignment */
    ENSURE(suggest_distance("", "abc") == 3);
    ENSURE(suggest_distance("kitten", "sitting") == 3);
    ENSURE(suggest_distance("Clearance", "cLEARANCE") == 0); /* letters without case */
}

TEST(edit_distance_of_overlong_words_is_beyond_any_budget)
{
    char longw[SUGGEST_MAX_LEN + 2];

    memset(longw, 'a', sizeof longw - 1);
    longw[sizeof longw - 1] = '\0';
    ENSURE(suggest_distance(longw, "a") == SUGGEST_MAX_LEN + 1);
}

TEST(nearest_candidate_is_suggested_within_the_edit_budget)
{
    static const char *const attrs[] = {"name", "mass", "inertia", "x", "y", "phi", "material"};
    suggest s;
    size_t i;

    suggest_init(&s, "mas");
    for (i = 0; i < sizeof attrs / sizeof attrs[0]; i++)
        suggest_offer(&s, attrs[i]);
    ENSURE(suggest_best(&s) != NULL && strcmp(suggest_best(&s), "mass") == 0);

    /* too far: no suggestion rather than a wild guess */
    suggest_init(&s, "hinge");
    suggest_offer(&s, "revolute");
    suggest_offer(&s, "translational");
    ENSURE(suggest_best(&s) == NULL);

    /* a one-letter word: only the same letter in the other case */
    suggest_init(&s, "z");
    suggest_offer(&s, "x");
    ENSURE(suggest_best(&s) == NULL);
    suggest_init(&s, "e");
    suggest_offer(&s, "E");
    ENSURE(suggest_best(&s) != NULL && strcmp(suggest_best(&s), "E") == 0);

    /* the word itself is never suggested; the first of equals wins */
    suggest_init(&s, "nu");
    suggest_offer(&s, "nu");
    ENSURE(suggest_best(&s) == NULL);
    suggest_init(&s, "mv");
    suggest_offer(&s, "mu");
    suggest_offer(&s, "nv");
    ENSURE(suggest_best(&s) != NULL && strcmp(suggest_best(&s), "mu") == 0);

    /* the nearest, not the first near one */
    suggest_init(&s, "bodys");
    suggest_offer(&s, "loads");
    suggest_offer(&s, "bodies");
    suggest_offer(&s, "body");
    ENSURE(suggest_best(&s) != NULL && strcmp(suggest_best(&s), "body") == 0);
}
