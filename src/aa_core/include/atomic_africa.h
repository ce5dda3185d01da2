/* atomic-africa's public C API: reserved for the flat API on opaque handles of issue 22 (specs,
 * games, agents, batch kernels) built on the C core in ../csrc. So far only the version it will
 * carry; the core's own interfaces are csrc/aa_engine.h and the aa_*.h headers beside it. */
#ifndef ATOMIC_AFRICA_H
#define ATOMIC_AFRICA_H

/* Bumped whenever a struct or function of the C core changes in a way a compiled host can see. */
#define AA_ABI_VERSION 1

#endif
