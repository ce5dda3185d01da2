# WebAssembly builds of the C core with `zig cc` (the `ziglang` package: `pip install ziglang`; no other
# toolchain). From a source checkout's root:
#
#   make -C src/aa_core -f wasm.mk                 build-wasm/libatomic_africa.a: the core for wasm32-wasi
#   make -C src/aa_core -f wasm.mk web             build-wasm/atomic_africa.wasm: the core as a WASI reactor
#                                                  exporting atomic_africa.h's functions, malloc and free
#                                                  (examples/web loads it in a browser with a tiny WASI shim)
#   make -C src/aa_core -f wasm.mk host HOST=my_sim.c OUT=my_sim.wasm
#                                                  a C host (a WASI command) linked with the library
#
# The same flags as the native builds (-ffp-contract=off; the core uses no C library maths), so a
# game in WebAssembly equals the native one bit for bit, events included. STACK sets the linear
# memory's stack (1 MiB: wasm-ld's default of 64 KiB is too little for the greedy agent's search).
PYTHON ?= python3
ZIG ?= $(PYTHON) -m ziglang
TARGET ?= wasm32-wasi
CFLAGS ?= -O2
WASM_BUILD ?= build-wasm
STACK ?= 1048576
comma := ,
AA_CFLAGS := --target=$(TARGET) -std=c11 -ffp-contract=off -Wall -Wextra -Iinclude -Icsrc
SRCS := $(filter %.c,$(shell cat sources.txt))   # the one list of the core's sources
OBJS := $(patsubst csrc/%.c,$(WASM_BUILD)/%.o,$(SRCS))
HDRS := $(wildcard csrc/*.h) include/atomic_africa.h
# The public functions: every `aa_name(` that starts a declaration in the header (a variable holds the
# parenthesis, which make would count).
open_paren := (
API := $(shell sed -n 's/^[A-Za-z_][A-Za-z0-9_ ]*[ *]\(aa_[a-z0-9_]*\)[$(open_paren)].*/\1/p' include/atomic_africa.h)
OUT ?= $(WASM_BUILD)/host.wasm

all: $(WASM_BUILD)/libatomic_africa.a

$(WASM_BUILD)/libatomic_africa.a: $(OBJS)
	$(ZIG) ar rcs $@ $^

$(WASM_BUILD)/%.o: csrc/%.c $(HDRS) | $(WASM_BUILD)
	$(ZIG) cc $(AA_CFLAGS) $(CFLAGS) -c $< -o $@

web: $(WASM_BUILD)/atomic_africa.wasm

$(WASM_BUILD)/atomic_africa.wasm: $(WASM_BUILD)/libatomic_africa.a
	$(ZIG) cc --target=$(TARGET) $(CFLAGS) -mexec-model=reactor -Wl,-z,stack-size=$(STACK) \
	    $(addprefix -Wl$(comma)--export=,$(API) malloc free) $< -o $@

host: $(WASM_BUILD)/libatomic_africa.a
	test -n "$(HOST)" || { echo "host: give HOST=path/to/host.c" >&2; exit 2; }
	$(ZIG) cc $(AA_CFLAGS) $(CFLAGS) -Wl,-z,stack-size=$(STACK) $(HOST) $< -o $(OUT)

$(WASM_BUILD):
	mkdir -p $@

clean:
	rm -rf $(WASM_BUILD)

.PHONY: all web host clean
