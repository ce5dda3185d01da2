/* Generated from atomic_africa.game.schema by atomic_africa.game.native.schema_c: do not edit by hand.
 * Regenerate: PYTHONPATH=python python -m atomic_africa.game.native.schema_c
 * (tests/test_information_sets.py fails when this file and the schema differ). Included by aa_api.c. */
#ifndef AA_HIDDEN_H
#define AA_HIDDEN_H

#include "aa_schema.h"

/* The event record values a player's view hides (atomic_africa.game.schema.HIDDEN): per span the
 * event code, its first hidden value (0: the record's first value after code, turn, n), the number
 * of values (-1: the rest of the record) and the value naming the player who may know them (-1:
 * nobody). A hidden value becomes NO_CARD. */
typedef struct aa_hidden_span {
    int code, first, count, owner;
} aa_hidden_span;

static const aa_hidden_span AA_HIDDEN_SPANS[] = {
    {E_SHUFFLE, 1, -1, -1},    /* shuffle.deck: nobody knows it */
    {E_RESHUFFLE, 1, -1, -1},  /* reshuffle.deck: nobody knows it */
    {E_DRAW, 1, -1, 0},        /* draw.cards: known to the event's player only */
    {E_ASSIGN, 2, 1, 0},       /* assign.card: known to the event's player only */
};

enum { AA_N_HIDDEN_SPANS = 4 };

#endif
