# Makefile: builds build/bin/tcpa and the tests; `make test` runs them all,
# `make demo` runs the main job, `make bench` prints the benchmark tables.
# Every target first runs scripts/setup.sh, which installs what is missing.
# `make debug` builds the same into build-debug/ with ASan and UBSan.

BUILD   ?= build
CC      ?= cc
PKGS    := isl inih zlib yaml-0.1
CFLAGS  ?= -O2 -g
override CFLAGS += -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -MMD -MP $(SRC_INC) -Itests
LDLIBS  += -lm

SETUP_STAMP := $(BUILD)/.setup

# Every core unless the command line says otherwise (its -j wins): the C
# library is many small files, and `make test` compiles the unit tests
# beside its harness. Recipes that start a build or a test run of their
# own clear make's job-server variables for it (CLEAN_MAKE_ENV).
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 2)
CLEAN_MAKE_ENV := env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL

# pkg-config is only asked once the set-up script has installed it.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lgmp

# The folders of the C library, in the order they may depend on each other
# (README.md "Layout"; `make layout-check` enforces it): each includes only
# from itself and the folders before it.
COMPILER_DIRS := compiler/front compiler/interp compiler/map compiler/inst compiler/asm compiler/dfg compiler/host
SRC_DIRS     := common $(COMPILER_DIRS) cmodel tb regress cli
SRC_INC      := $(addprefix -I,$(SRC_DIRS) runtime)
# Programs of their own, not library code: the tcpa command's main and the
# generators of the SystemVerilog and C++ copies of the contracts.
PROGRAM_SRC  := cli/main.c $(wildcard common/gen/*.c)
LIB_SRC      := $(filter-out $(PROGRAM_SRC),$(foreach d,$(SRC_DIRS),$(wildcard $(d)/*.c)))
GEN_SRC      := $(BUILD)/gen/arch_default_ini.c
LIB_OBJ      := $(patsubst %.c,$(BUILD)/obj/%.o,$(LIB_SRC)) $(BUILD)/obj/gen/arch_default_ini.o
MAIN_OBJ     := $(BUILD)/obj/cli/main.o
UNIT_SRC     := $(wildcard tests/unit/test_*.c)
UNIT_BIN     := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))
TOOL_SRC     := $(wildcard tests/tools/*.c)
TOOL_BIN     := $(patsubst tests/tools/%.c,$(BUILD)/tests/tools/%,$(TOOL_SRC))

.PHONY: all setup test demo bench debug clean layout-check

all: $(BUILD)/bin/tcpa

$(SETUP_STAMP): scripts/setup.sh
	@bash scripts/setup.sh
	@mkdir -p $(BUILD) && touch $@

setup: $(SETUP_STAMP)

$(BUILD)/obj/%.o: %.c | $(SETUP_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -c $< -o $@

# configs/default.ini is compiled into the binary: the embedded default.
$(GEN_SRC): configs/default.ini scripts/embed-text.sh
	@mkdir -p $(dir $@)
	bash scripts/embed-text.sh configs/default.ini arch_default_ini > $@.tmp && mv $@.tmp $@

$(BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

# The git revision, for `tcpa --version` (common/version.c): the file is
# rewritten only when the revision changes, so only version.o recompiles.
GIT_REV := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
$(BUILD)/gen/git_rev.txt: FORCE
	@mkdir -p $(dir $@)
	@echo '$(GIT_REV)' | cmp -s - $@ || echo '$(GIT_REV)' > $@
$(BUILD)/obj/common/version.o: $(BUILD)/gen/git_rev.txt
$(BUILD)/obj/common/version.o: override CFLAGS += -DTCPA_GIT_REV='"$(GIT_REV)"'
.PHONY: FORCE
FORCE:

$(BUILD)/lib/libtcpa.a: $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# The host runtime (runtime/, docs/runtime.md): its own library beside
# libtcpa.a, which it is built on; a host program links both (the
# installed tcpa_rt.pc says how).
RT_SRC := $(wildcard runtime/*.c)
RT_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(RT_SRC))
RT_LIB := $(BUILD)/lib/libtcpa_rt.a

$(RT_LIB): $(RT_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

all: $(RT_LIB)

# make examples: the host programs of examples/ (docs/runtime.md
# "Examples"), each compiled as any host program is: against tcpa_rt.h
# alone, linked with the runtime's libraries.
EXAMPLES := $(patsubst examples/%.c,$(BUILD)/examples/%,$(wildcard examples/*.c))
.PHONY: examples
examples: $(EXAMPLES)
$(BUILD)/examples/%: examples/%.c examples/example.h runtime/tcpa_rt.h $(RT_LIB) $(BUILD)/lib/libtcpa.a | $(SETUP_STAMP)
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O2 -g -Wall -Wextra -Iruntime $< $(RT_LIB) $(BUILD)/lib/libtcpa.a -o $@ $(PKG_LIBS) $(LDLIBS)

# make install PREFIX=DIR: the runtime's header, the libraries a host
# program links and a pkg-config file (DIR/lib/pkgconfig/tcpa_rt.pc).
PREFIX ?= /usr/local
.PHONY: install
install: $(RT_LIB) $(BUILD)/lib/libtcpa.a
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 runtime/tcpa_rt.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 $(RT_LIB) $(BUILD)/lib/libtcpa.a $(DESTDIR)$(PREFIX)/lib/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@REQUIRES@|$(PKGS)|' runtime/tcpa_rt.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/tcpa_rt.pc

# libtcpa.a's `tcpa run` runs tiled problems through the runtime
# (regress/run_tile.c), which is built on libtcpa.a: one group.
$(BUILD)/bin/tcpa: $(MAIN_OBJ) $(BUILD)/lib/libtcpa.a $(RT_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(MAIN_OBJ) -Wl,--start-group $(BUILD)/lib/libtcpa.a $(RT_LIB) -Wl,--end-group -o $@ $(PKG_LIBS) $(LDLIBS)

$(BUILD)/tests/%: tests/unit/%.c $(RT_LIB) $(BUILD)/lib/libtcpa.a tests/test.h | $(SETUP_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) $< -Wl,--start-group $(RT_LIB) $(BUILD)/lib/libtcpa.a -Wl,--end-group -o $@ $(PKG_LIBS) $(LDLIBS)

$(BUILD)/tests/tools/%: tests/tools/%.c | $(SETUP_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $< -o $@ $(LDLIBS)

# make test: the fast tier; make test-full: every test (docs/testing.md).
# T='engine* test_map*' runs the test programs matching those globs.
.PHONY: test-full test-index nightly
# make test-index: tests/INDEX.md from the tests' covers: lines
# (docs/testing.md "Finding the tests of a feature").
test-index:
	python3 scripts/test-index.py
test: layout-check $(BUILD)/bin/tcpa $(UNIT_BIN) $(TOOL_BIN) examples
	@$(CLEAN_MAKE_ENV) BUILD=$(BUILD) TCPA_TIER=fast bash tests/run.sh $(T)

test-full: layout-check $(BUILD)/bin/tcpa $(UNIT_BIN) $(TOOL_BIN) examples harness-rtl harness-mutants harness-sc fuzz
test-full: $(BUILD)/gen/tcpa_params_pkg.sv $(GEN_SV) $(GEN_HDR)
	@$(CLEAN_MAKE_ENV) BUILD=$(BUILD) TCPA_TIER=full bash tests/run.sh $(T)

# make nightly: the full tier and the long campaigns (random programs,
# streams and configurations by the hundred, the unit tests' long parts
# under the sanitizers): docs/testing.md "The nightly campaigns". In no
# tier: run it at night or before a release.
nightly: layout-check $(BUILD)/bin/tcpa $(UNIT_BIN) $(TOOL_BIN) examples harness-rtl harness-mutants harness-sc fuzz
nightly: $(BUILD)/gen/tcpa_params_pkg.sv $(GEN_SV) $(GEN_HDR)
	@$(CLEAN_MAKE_ENV) BUILD=$(BUILD) TCPA_TIER=nightly bash tests/run.sh $(T)

# Each folder includes only from the folders README.md "Layout" lets it.
layout-check:
	@bash scripts/layout-check.sh

demo: $(BUILD)/bin/tcpa
	@$(CLEAN_MAKE_ENV) BUILD=$(BUILD) bash scripts/demo.sh

bench: $(BUILD)/bin/tcpa $(TOOL_BIN)
	@$(CLEAN_MAKE_ENV) BUILD=$(BUILD) bash scripts/bench.sh

debug:
	$(MAKE) BUILD=build-debug CC=clang CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer" LDLIBS="-lm -fsanitize=address,undefined" all $(patsubst $(BUILD)/%,build-debug/%,$(UNIT_BIN) $(TOOL_BIN))

clean:
	rm -rf build build-debug

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# ==== RTL (owner: rtl/, tb/, scripts/synth.sh) ===============================
# The copies of C contracts in other languages, printed at build time by the
# generators of common/gen/ from their one C definition (docs/rtl.md
# "Generated packages"), built before any lint, synthesis or harness:
# build/gen/tcpa_isa_pkg.sv (common/isa.h), tcpa_stream_pkg.sv
# (common/stream.h), tcpa_trace_events.h (common/trace.h, for tb/) and
# tcpa_stream_errors.h (the loader's error names, common/stream.c, for tb/);
# `make gen` builds them. build/gen/tcpa_params_pkg.sv: the parameter
# package of configs/default.ini (lint, synthesis). The Verilated harnesses are built
# by the one recipe of tb/harness.mk into the harness cache
# build/harness/<kind>-<key>/, through `tcpa harness` (docs/rtl.md
# "Harness cache"): any configuration file, rebuilt whenever anything that
# goes into it changes. `make rtl` builds the default configuration's and
# links it as build/bin/tcpa-rtl (`make rtl RTL_ARCH=FILE` another one's);
# the engines build the one they need when it is missing.
RTL_ARCH  ?= configs/default.ini
RTL_SV    := rtl/tcpa_pkg.sv $(filter-out rtl/tcpa_pkg.sv,$(sort $(wildcard rtl/tcpa_*.sv)))
VERILATOR ?= verilator
GEN_SV    := $(BUILD)/gen/tcpa_isa_pkg.sv $(BUILD)/gen/tcpa_stream_pkg.sv
GEN_HDR   := $(BUILD)/gen/tcpa_trace_events.h $(BUILD)/gen/tcpa_stream_errors.h
include tb/harness.mk

.PHONY: rtl rtl-lint synth harness-rtl harness-mutants harness-sc gen

# common/gen/gen_X.c -> BUILD/gen/tools/gen_X (header dependencies in its .d;
# gen_trace_events asks common/trace.c for the event names) -> its output
$(BUILD)/gen/tools/gen_%: common/gen/gen_%.c | $(SETUP_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $< $(filter %.o,$^) -o $@
$(BUILD)/gen/tools/gen_trace_events: $(BUILD)/obj/common/trace.o
# gen_stream_errors asks common/stream.c (linked with the library) for the names
$(BUILD)/gen/tools/gen_stream_errors: common/gen/gen_stream_errors.c $(BUILD)/lib/libtcpa.a | $(SETUP_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $< $(BUILD)/lib/libtcpa.a -o $@ $(PKG_LIBS) $(LDLIBS)

$(BUILD)/gen/tcpa_isa_pkg.sv: $(BUILD)/gen/tools/gen_isa_pkg
$(BUILD)/gen/tcpa_stream_pkg.sv: $(BUILD)/gen/tools/gen_stream_pkg
$(BUILD)/gen/tcpa_trace_events.h: $(BUILD)/gen/tools/gen_trace_events
$(BUILD)/gen/tcpa_stream_errors.h: $(BUILD)/gen/tools/gen_stream_errors
$(GEN_SV) $(GEN_HDR):
	@mkdir -p $(dir $@)
	$< > $@.tmp && mv $@.tmp $@

gen: $(GEN_SV) $(GEN_HDR)

$(BUILD)/gen/tcpa_params_pkg.sv: configs/default.ini $(BUILD)/bin/tcpa
	@mkdir -p $(dir $@)
	$(BUILD)/bin/tcpa arch $< --sv -o $@

# The harnesses of RTL_ARCH, built when missing (a progress line each).
harness-rtl harness-mutants harness-sc: harness-%: $(BUILD)/bin/tcpa $(GEN_SV) $(GEN_HDR)
	@$(CLEAN_MAKE_ENV) $(BUILD)/bin/tcpa harness --arch $(RTL_ARCH) --kind $* >/dev/null
harness-sc: $(BUILD)/lib/libtcpa.a

rtl: harness-rtl
	@mkdir -p $(BUILD)/bin
	ln -sf "$$($(BUILD)/bin/tcpa harness --arch $(RTL_ARCH))" $(BUILD)/bin/tcpa-rtl

# rtl-lint and synth are of RTL_ARCH (default configs/default.ini, any
# configuration file): `tcpa lint` (cli/cli_lint.c: its parameter package,
# verilator -Wall with rtl/lint_waivers.vlt; log in $(BUILD)/lint/<name>/)
# and scripts/synth.sh on the parameter package of RTL_ARCH written into
# $(BUILD)/synth/ (`tcpa arch --sv` refuses a bad configuration, exit 2).
rtl-lint: $(BUILD)/bin/tcpa $(GEN_SV)
	VERILATOR=$(VERILATOR) $(BUILD)/bin/tcpa lint --arch $(RTL_ARCH) --out-dir $(BUILD)/lint/$(basename $(notdir $(RTL_ARCH)))

synth: $(BUILD)/bin/tcpa $(GEN_SV)
	@mkdir -p $(BUILD)/synth
	$(BUILD)/bin/tcpa arch $(RTL_ARCH) --sv -o $(BUILD)/synth/tcpa_params_pkg.sv
	@echo "synth: RTL_ARCH=$(RTL_ARCH); Yosys log $(BUILD)/synth/yosys.log"
	@BUILD=$(BUILD) SYNTH_PARAMS=$(BUILD)/synth/tcpa_params_pkg.sv bash scripts/synth.sh

# The fast tier (make test) runs on the default configuration's rtl
# harness, built first (its Verilator build uses every core; the unit
# tests compile beside it); the full tier builds the mutants harness and
# the others as it needs them (docs/testing.md "The budget").
test: $(BUILD)/gen/tcpa_params_pkg.sv $(GEN_SV) $(GEN_HDR) harness-rtl
demo: harness-rtl $(BUILD)/tests/tools/refimpl
# tcpa signoff (regress/signoff_run.c, docs/regress.md): the Yosys cell
# table of the parameter package it writes into SIGNOFF_DIR (any
# configuration, seen or not; synth.sh on that package). Its coverage
# model is the `cov` harness of the cache (tb/harness.mk).
ifdef SIGNOFF_DIR
$(SIGNOFF_DIR)/synth/table.txt: $(RTL_SV) scripts/synth.sh $(SIGNOFF_DIR)/tcpa_params_pkg.sv $(GEN_SV)
	@mkdir -p $(SIGNOFF_DIR)/gen
	cp $(SIGNOFF_DIR)/tcpa_params_pkg.sv $(GEN_SV) $(SIGNOFF_DIR)/gen/
	BUILD=$(SIGNOFF_DIR) bash scripts/synth.sh > $(SIGNOFF_DIR)/synth.log 2>&1 || { tail -30 $(SIGNOFF_DIR)/synth.log; exit 1; }
endif
# ==== end RTL ================================================================

# ==== fault injection (owner: tests/faults.sh, cli/cli_poke.c) =========
# The mutants harness (tcpa harness --kind mutants; tb/harness.mk): the RTL
# with +define+TCPA_MUTANTS, so the mutation hooks of rtl/*.sv exist;
# `tcpa-rtl STREAM +mutant=N` selects one (docs/rtl.md "Fault injection");
# random initial values with +verilator+rand+reset+2 (tests/xinit.sh).
.PHONY: rtl-mutants
rtl-mutants: harness-mutants
# ==== end fault injection ====================================================

# ==== fuzzing (owner: fuzz/, tests/fuzz.sh, docs/fuzz.md) ===================
# build-fuzz/fuzz_{parse,arch,stream}: libFuzzer targets (fuzz/*.c) linked
# with the contracts (common/), the compiler, the model and the JSON reader
# built by clang with ASan, UBSan and
# the fuzzer's coverage instrumentation; build-fuzz/seeds/: their seed
# corpora (fuzz/seeds.sh). `make fuzz` builds both; tests/fuzz.sh (make
# test) replays the seeds and fuzz/regress/ and fuzzes each target briefly;
# docs/fuzz.md gives the long runs.
FUZZ_BUILD  := build-fuzz
FUZZ_CC     ?= clang
FUZZ_CFLAGS := -O1 -g -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -MMD -MP $(SRC_INC) -Itests \
               -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_LIBOBJ := $(patsubst %.c,$(FUZZ_BUILD)/obj/%.o,$(filter $(addsuffix /%,common $(COMPILER_DIRS) cmodel),$(LIB_SRC)) \
                 regress/regress_json.c) $(FUZZ_BUILD)/obj/gen/arch_default_ini.o
FUZZ_BIN    := $(patsubst fuzz/%.c,$(FUZZ_BUILD)/%,$(wildcard fuzz/fuzz_*.c))

.PHONY: fuzz
fuzz: $(FUZZ_BIN) $(FUZZ_BUILD)/seeds/.stamp

$(FUZZ_BUILD)/obj/%.o: %.c | $(SETUP_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(PKG_CFLAGS) -c $< -o $@

$(FUZZ_BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@

$(FUZZ_BUILD)/libtcpa.a: $(FUZZ_LIBOBJ)
	rm -f $@ && ar rcs $@ $^

$(FUZZ_BUILD)/fuzz_%: fuzz/fuzz_%.c $(FUZZ_BUILD)/libtcpa.a | $(SETUP_STAMP)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(PKG_CFLAGS) $< $(FUZZ_BUILD)/libtcpa.a -o $@ $(PKG_LIBS) $(LDLIBS)

$(FUZZ_BUILD)/seeds/.stamp: fuzz/seeds.sh $(BUILD)/bin/tcpa $(wildcard regress/programs/*.pla regress/errors/*/* configs/*.ini regress/streams/*.tasm)
	BUILD=$(BUILD) bash fuzz/seeds.sh $(FUZZ_BUILD)/seeds
	@touch $@


.PHONY: fuzz-clean
fuzz-clean:
	rm -rf $(FUZZ_BUILD)
clean: fuzz-clean

-include $(shell find $(FUZZ_BUILD) -name '*.d' 2>/dev/null)
# ==== end fuzzing ============================================================

# ==== the C model's FST writer (owner: cmodel/model_fst.c) ===================
# GTKWave's FST writer as shipped with Verilator (fstapi.c with lz4.c and
# fastlz.c, zlib from PKGS), compiled as third-party code (its warnings
# off) into libtcpa.a; cmodel/model_fst.c includes its fstapi.h.
FST_DIR := /usr/share/verilator/include/gtkwave
FST_OBJ := $(BUILD)/obj/fst/fstapi.o $(BUILD)/obj/fst/lz4.o $(BUILD)/obj/fst/fastlz.o
override CFLAGS += -I$(FST_DIR)
FUZZ_CFLAGS += -I$(FST_DIR)
$(BUILD)/lib/libtcpa.a: $(FST_OBJ)
# The sources are not prerequisites: on a fresh machine they appear only
# once the set-up script has installed Verilator, after make has looked.
$(FST_OBJ): $(BUILD)/obj/fst/%.o: | $(SETUP_STAMP)
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -w -I$(FST_DIR) -DFST_CONFIG_INCLUDE="<fst_config.h>" -c $(FST_DIR)/$*.c -o $@

# ==== SystemC engine (owner: tb/sc_*, tb/engine_systemc.c) ============
# The sc harness (tcpa harness --kind sc; tb/harness.mk): the RTL built
# with verilator --sc and linked with the SystemC harness tb/sc_*.cpp, the
# C model and the lockstep checker (libtcpa.a) and the SystemC kernel
# (`tcpa run --engine systemc`, docs/rtl.md "SystemC"). `make systemc`
# builds the one of RTL_ARCH; the full tier builds those it runs.
.PHONY: systemc
systemc: harness-sc
# ==== end SystemC engine =====================================================
