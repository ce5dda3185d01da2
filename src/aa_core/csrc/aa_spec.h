/* What a spec holds (the public aa_spec, opaque to hosts): the engine's aa_params with the arrays its
 * tables and terrain point into, owned by the spec. Written by aa_spec.c (the binary format of
 * `atomic-africa compile`); read by the game API, which only needs aa_spec_params. */
#ifndef AA_SPEC_H
#define AA_SPEC_H

#include "aa_engine.h"
#include "../include/atomic_africa.h"

AA_EXTERN_C_BEGIN

/* The engine parameters of a valid spec (never NULL for a spec made by aa_spec_default/load). */
const aa_params *aa_spec_params(const aa_spec *spec);

AA_EXTERN_C_END

#endif
