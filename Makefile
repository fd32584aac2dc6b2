# Makefile: builds build/bin/tcpa and the tests; `make test` runs them all,
# `make demo` runs the main job, `make bench` prints the benchmark tables.
# Every target first runs scripts/setup.sh, which installs what is missing.
# `make debug` builds the same into build-debug/ with ASan and UBSan.

BUILD   ?= build
CC      ?= cc
PKGS    := isl inih zlib
CFLAGS  ?= -O2 -g
override CFLAGS += -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -MMD -MP -Icompiler -Icmodel -Itests
LDLIBS  += -lm

SETUP_STAMP := $(BUILD)/.setup

# pkg-config is only asked once the set-up script has installed it.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lgmp

COMPILER_SRC := $(filter-out compiler/main.c,$(wildcard compiler/*.c))
CMODEL_SRC   := $(wildcard cmodel/*.c)
LOCKSTEP_SRC := tb/lockstep.c tb/gtkw.c tb/wave_merge.c
GEN_SRC      := $(BUILD)/gen/arch_default_ini.c
LIB_OBJ      := $(patsubst %.c,$(BUILD)/obj/%.o,$(COMPILER_SRC) $(CMODEL_SRC) $(LOCKSTEP_SRC)) \
                $(BUILD)/obj/gen/arch_default_ini.o
MAIN_OBJ     := $(BUILD)/obj/compiler/main.o
UNIT_SRC     := $(wildcard tests/unit/test_*.c)
UNIT_BIN     := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))
TOOL_SRC     := $(wildcard tests/tools/*.c)
TOOL_BIN     := $(patsubst tests/tools/%.c,$(BUILD)/tests/tools/%,$(TOOL_SRC))

.PHONY: all setup test demo bench debug clean

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

# The git revision, for `tcpa --version` (compiler/version.c): the file is
# rewritten only when the revision changes, so only version.o recompiles.
GIT_REV := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
$(BUILD)/gen/git_rev.txt: FORCE
	@mkdir -p $(dir $@)
	@echo '$(GIT_REV)' | cmp -s - $@ || echo '$(GIT_REV)' > $@
$(BUILD)/obj/compiler/version.o: $(BUILD)/gen/git_rev.txt
$(BUILD)/obj/compiler/version.o: override CFLAGS += -DTCPA_GIT_REV='"$(GIT_REV)"'
.PHONY: FORCE
FORCE:

$(BUILD)/lib/libtcpa.a: $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/bin/tcpa: $(MAIN_OBJ) $(BUILD)/lib/libtcpa.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $^ -o $@ $(PKG_LIBS) $(LDLIBS)

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/lib/libtcpa.a tests/test.h | $(SETUP_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) $< $(BUILD)/lib/libtcpa.a -o $@ $(PKG_LIBS) $(LDLIBS)

$(BUILD)/tests/tools/%: tests/tools/%.c | $(SETUP_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $< -o $@ $(LDLIBS)

test: $(BUILD)/bin/tcpa $(UNIT_BIN) $(TOOL_BIN)
	@BUILD=$(BUILD) bash tests/run.sh

demo: $(BUILD)/bin/tcpa
	@BUILD=$(BUILD) bash scripts/demo.sh

bench: $(BUILD)/bin/tcpa $(TOOL_BIN)
	@BUILD=$(BUILD) bash scripts/bench.sh

debug:
	$(MAKE) BUILD=build-debug CC=clang CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer" LDLIBS="-lm -fsanitize=address,undefined" all $(patsubst $(BUILD)/%,build-debug/%,$(UNIT_BIN) $(TOOL_BIN))

clean:
	rm -rf build build-debug

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# ==== RTL (owner: rtl/, tb/rtl_*, scripts/synth.sh) ========================
# build/gen/tcpa_isa_pkg.sv: the instruction layout, printed from isa.h by
# tb/gen_isa_pkg.c. build/rtl/<cfg>/: the parameter package of
# configs/<cfg>.ini (tcpa arch --sv), a C header derived from it for the
# harness, and the Verilator model + harness tcpa-rtl of that configuration
# (RTL_CFG, default `default`; build/bin/tcpa-rtl is the default one).
RTL_CFG   ?= default
RTL_SV    := rtl/tcpa_pkg.sv $(filter-out rtl/tcpa_pkg.sv,$(sort $(wildcard rtl/tcpa_*.sv)))
RTL_TB    := tb/rtl_main.cpp tb/rtl_events.h tb/rtl_collect.h
VERILATOR ?= verilator

.PHONY: rtl rtl-lint synth
.PRECIOUS: $(BUILD)/rtl/%/tcpa_params.h $(BUILD)/rtl/%/tcpa_params_pkg.sv

$(BUILD)/tb/gen_isa_pkg: tb/gen_isa_pkg.c compiler/isa.h | $(SETUP_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $< -o $@

$(BUILD)/gen/tcpa_isa_pkg.sv: $(BUILD)/tb/gen_isa_pkg
	@mkdir -p $(dir $@)
	$< > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/tcpa_params_pkg.sv: configs/default.ini $(BUILD)/bin/tcpa
	@mkdir -p $(dir $@)
	$(BUILD)/bin/tcpa arch $< --sv -o $@

# (rewritten only when its text changes, so relinking tcpa rebuilds no RTL)
$(BUILD)/rtl/%/tcpa_params_pkg.sv: configs/%.ini $(BUILD)/bin/tcpa
	@mkdir -p $(dir $@)
	$(BUILD)/bin/tcpa arch $< --sv -o $@.new
	@if cmp -s $@.new $@; then rm -f $@.new; else mv $@.new $@; fi

$(BUILD)/rtl/%/tcpa_params.h: $(BUILD)/rtl/%/tcpa_params_pkg.sv
	sed -n -e 's/^ *localparam int unsigned \([A-Z0-9_]*\) *= *\([0-9]*\);.*/#define TCPA_\1 \2/p' \
	  -e "s/^ *localparam logic \[63:0\] ARCH_FINGERPRINT = 64'h\([0-9a-f]*\);.*/#define TCPA_ARCH_FINGERPRINT 0x\1ull/p" \
	  $< > $@.tmp && mv $@.tmp $@

$(BUILD)/rtl/%/tcpa-rtl: $(RTL_SV) rtl/lint_waivers.vlt $(RTL_TB) $(BUILD)/rtl/%/tcpa_params_pkg.sv \
                        $(BUILD)/rtl/%/tcpa_params.h $(BUILD)/gen/tcpa_isa_pkg.sv
	flock $(BUILD)/rtl/$*/.lock $(VERILATOR) --cc --exe --build -O1 -j 2 --trace-fst --top-module tcpa_top \
	  -Mdir $(BUILD)/rtl/$*/obj -CFLAGS "-O1 -I$(abspath $(BUILD)/rtl/$*) -I$(abspath tb)" \
	  rtl/lint_waivers.vlt $(BUILD)/rtl/$*/tcpa_params_pkg.sv $(BUILD)/gen/tcpa_isa_pkg.sv \
	  $(RTL_SV) $(abspath tb/rtl_main.cpp) -o $(abspath $@) > $(BUILD)/rtl/$*/build.log 2>&1 \
	  || { tail -30 $(BUILD)/rtl/$*/build.log; exit 1; }

$(BUILD)/bin/tcpa-rtl: $(BUILD)/rtl/default/tcpa-rtl
	@mkdir -p $(dir $@)
	cp $< $@

rtl: $(BUILD)/rtl/$(RTL_CFG)/tcpa-rtl $(BUILD)/bin/tcpa-rtl

rtl-lint: $(BUILD)/gen/tcpa_params_pkg.sv $(BUILD)/gen/tcpa_isa_pkg.sv
	$(VERILATOR) --lint-only -Wall --top-module tcpa_top rtl/lint_waivers.vlt $^ $(RTL_SV)

synth: $(BUILD)/gen/tcpa_params_pkg.sv $(BUILD)/gen/tcpa_isa_pkg.sv
	@BUILD=$(BUILD) bash scripts/synth.sh

# `make test` builds the Verilator models of configs/default.ini
# (build/bin/tcpa-rtl) and configs/big1d.ini (build/rtl/big1d/tcpa-rtl), a
# few minutes each on two cores and only when an RTL or harness source
# changed: tests/rtl.sh and the cosim tests of tests/engine_cli.sh run them
# (they skip while a harness is missing or stale). One Verilator build at a
# time: big1d waits for the default one even under make -j.
test: $(BUILD)/gen/tcpa_params_pkg.sv $(BUILD)/gen/tcpa_isa_pkg.sv
test: $(BUILD)/bin/tcpa-rtl $(BUILD)/rtl/big1d/tcpa-rtl
demo: $(BUILD)/bin/tcpa-rtl $(BUILD)/rtl/big1d/tcpa-rtl $(BUILD)/tests/tools/refimpl
$(BUILD)/rtl/big1d/tcpa-rtl: | $(BUILD)/rtl/default/tcpa-rtl

.PHONY: test-rtl
test-rtl: $(BUILD)/bin/tcpa-rtl $(BUILD)/gen/tcpa_params_pkg.sv $(BUILD)/gen/tcpa_isa_pkg.sv
	@BUILD=$(BUILD) bash tests/rtl.sh
# tcpa signoff (compiler/cli_signoff.c, docs/regress.md): for the parameter
# package it writes into SIGNOFF_DIR (any configuration, seen or not):
# the harness header, the Verilated model + harness with line and toggle
# coverage (scripts/signoff-coverage.cpp writes the counters at the end of
# each run into $TCPA_COVERAGE_DIR), and the Yosys cell table (synth.sh on
# that package). Only when SIGNOFF_DIR is given. Toggle coverage of signals
# up to 32 bits, the model's C++ at -O0 (docs/regress.md "Sign-off": a 4x4
# array's coverage model in minutes, not hours).
ifdef SIGNOFF_DIR
$(SIGNOFF_DIR)/tcpa_params.h: $(SIGNOFF_DIR)/tcpa_params_pkg.sv
	sed -n -e 's/^ *localparam int unsigned \([A-Z0-9_]*\) *= *\([0-9]*\);.*/#define TCPA_\1 \2/p' \
	  -e "s/^ *localparam logic \[63:0\] ARCH_FINGERPRINT = 64'h\([0-9a-f]*\);.*/#define TCPA_ARCH_FINGERPRINT 0x\1ull/p" \
	  $< > $@.tmp && mv $@.tmp $@

$(SIGNOFF_DIR)/tcpa-rtl-cov: $(RTL_SV) rtl/lint_waivers.vlt $(RTL_TB) scripts/signoff-coverage.cpp scripts/signoff-coverage.vlt \
                             $(SIGNOFF_DIR)/tcpa_params_pkg.sv $(SIGNOFF_DIR)/tcpa_params.h $(BUILD)/gen/tcpa_isa_pkg.sv
	flock $(SIGNOFF_DIR)/.lock $(VERILATOR) --cc --exe --build -O1 -j 2 --trace-fst --coverage-line --coverage-toggle \
	  --coverage-max-width 32 --top-module tcpa_top -Mdir $(SIGNOFF_DIR)/obj -MAKEFLAGS "OPT_FAST=-O0 OPT_SLOW=-O0" \
	  -CFLAGS "-I$(abspath $(SIGNOFF_DIR)) -I$(abspath tb)" -LDFLAGS "-Wl,--wrap=_ZN13VerilatedSymsD2Ev" \
	  rtl/lint_waivers.vlt scripts/signoff-coverage.vlt $(SIGNOFF_DIR)/tcpa_params_pkg.sv $(BUILD)/gen/tcpa_isa_pkg.sv \
	  $(RTL_SV) $(abspath tb/rtl_main.cpp) $(abspath scripts/signoff-coverage.cpp) -o $(abspath $@) \
	  > $(SIGNOFF_DIR)/build.log 2>&1 || { tail -30 $(SIGNOFF_DIR)/build.log; exit 1; }

$(SIGNOFF_DIR)/synth/table.txt: $(RTL_SV) scripts/synth.sh $(SIGNOFF_DIR)/tcpa_params_pkg.sv $(BUILD)/gen/tcpa_isa_pkg.sv
	@mkdir -p $(SIGNOFF_DIR)/gen
	cp $(SIGNOFF_DIR)/tcpa_params_pkg.sv $(BUILD)/gen/tcpa_isa_pkg.sv $(SIGNOFF_DIR)/gen/
	BUILD=$(SIGNOFF_DIR) bash scripts/synth.sh > $(SIGNOFF_DIR)/synth.log 2>&1 || { tail -30 $(SIGNOFF_DIR)/synth.log; exit 1; }
endif
# ==== end RTL ================================================================

# ==== fault injection (owner: tests/faults.sh, compiler/cli_poke.c) =========
# build/rtl/mutants/tcpa-rtl: the default configuration's Verilator model
# built with +define+TCPA_MUTANTS, so the mutation hooks of rtl/*.sv exist;
# `tcpa-rtl STREAM +mutant=N` selects one (docs/rtl.md "Fault injection").
# Same sources, parameters and harness as the RTL block's default model;
# built after it (one Verilator build at a time), its C++ at -O0 since
# tests/faults.sh runs it only on short streams. Built with
# --x-initial unique --x-assign unique: without plusargs every variable
# starts at zero as in the default model; with +verilator+rand+reset+2
# +verilator+seed+N each one starts random (tests/xinit.sh).
$(BUILD)/rtl/mutants/tcpa-rtl: $(RTL_SV) rtl/lint_waivers.vlt $(RTL_TB) $(BUILD)/rtl/default/tcpa_params_pkg.sv \
                              $(BUILD)/rtl/default/tcpa_params.h $(BUILD)/gen/tcpa_isa_pkg.sv \
                              | $(BUILD)/rtl/default/tcpa-rtl
	@mkdir -p $(dir $@)
	flock $(BUILD)/rtl/default/.lock $(VERILATOR) --cc --exe --build -O1 -j 2 --trace-fst --top-module tcpa_top \
	  +define+TCPA_MUTANTS --x-initial unique --x-assign unique -Mdir $(BUILD)/rtl/mutants/obj \
	  -CFLAGS "-O0 -I$(abspath $(BUILD)/rtl/default) -I$(abspath tb)" \
	  rtl/lint_waivers.vlt $(BUILD)/rtl/default/tcpa_params_pkg.sv $(BUILD)/gen/tcpa_isa_pkg.sv \
	  $(RTL_SV) $(abspath tb/rtl_main.cpp) -o $(abspath $@) > $(BUILD)/rtl/mutants/build.log 2>&1 \
	  || { tail -30 $(BUILD)/rtl/mutants/build.log; exit 1; }

.PHONY: rtl-mutants
rtl-mutants: $(BUILD)/rtl/mutants/tcpa-rtl

test: $(BUILD)/rtl/mutants/tcpa-rtl
# ==== end fault injection ====================================================

# ==== fuzzing (owner: fuzz/, tests/fuzz.sh, docs/fuzz.md) ===================
# build-fuzz/fuzz_{parse,arch,stream}: libFuzzer targets (fuzz/*.c) linked
# with the compiler (but its cli_* and engine_* files) and model sources
# built by clang with ASan, UBSan and
# the fuzzer's coverage instrumentation; build-fuzz/seeds/: their seed
# corpora (fuzz/seeds.sh). `make fuzz` builds both; tests/fuzz.sh (make
# test) replays the seeds and fuzz/regress/ and fuzzes each target briefly;
# docs/fuzz.md gives the long runs.
FUZZ_BUILD  := build-fuzz
FUZZ_CC     ?= clang
FUZZ_CFLAGS := -O1 -g -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -MMD -MP -Icompiler -Icmodel -Itests \
               -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_LIBOBJ := $(patsubst %.c,$(FUZZ_BUILD)/obj/%.o,$(filter-out compiler/cli_% compiler/engine_%,$(COMPILER_SRC)) \
                 $(CMODEL_SRC)) $(FUZZ_BUILD)/obj/gen/arch_default_ini.o
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

test: fuzz

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

# ==== SystemC engine (owner: tb/sc_*, compiler/engine_systemc.c) ============
# build/rtl/sc-<cfg>/tcpa-sc: the RTL of configs/<cfg>.ini built with
# verilator --sc (a SystemC module) and linked with the SystemC harness
# tb/sc_*.cpp, the C model and the lockstep checker (libtcpa.a) and the
# SystemC kernel; build/bin/tcpa-sc is the default configuration's
# (`tcpa run --engine systemc`, docs/rtl.md "SystemC"; `make systemc
# SC_CFG=big1d` builds another one). Same Verilator and C++ flags as the
# RTL block's models, and their lock: one Verilator build at a time.
SC_CFG ?= default
SC_SRC := tb/sc_main.cpp tb/sc_model.cpp tb/sc_tb.cpp
SC_DEP := $(SC_SRC) tb/sc_model.h tb/sc_tb.h tb/rtl_collect.h tb/rtl_events.h tb/lockstep.h
SC_LIBS = $(shell pkg-config --libs systemc 2>/dev/null || echo -lsystemc)

$(BUILD)/rtl/sc-%/tcpa-sc: $(RTL_SV) rtl/lint_waivers.vlt $(SC_DEP) $(BUILD)/rtl/%/tcpa_params_pkg.sv \
                          $(BUILD)/rtl/%/tcpa_params.h $(BUILD)/gen/tcpa_isa_pkg.sv $(BUILD)/lib/libtcpa.a
	@mkdir -p $(dir $@) $(BUILD)/rtl/$*
	@rm -f $@  # Verilator's makefile relinks only a missing binary (libtcpa.a is no prerequisite there)
	flock $(BUILD)/rtl/$*/.lock $(VERILATOR) --sc --exe --build -O1 -j 2 --top-module tcpa_top \
	  -Mdir $(BUILD)/rtl/sc-$*/obj \
	  -CFLAGS "-O1 -I$(abspath $(BUILD)/rtl/$*) -I$(abspath tb) -I$(abspath compiler) -I$(abspath cmodel)" \
	  -LDFLAGS "$(abspath $(BUILD)/lib/libtcpa.a) $(PKG_LIBS) $(SC_LIBS) $(LDLIBS)" \
	  rtl/lint_waivers.vlt $(BUILD)/rtl/$*/tcpa_params_pkg.sv $(BUILD)/gen/tcpa_isa_pkg.sv \
	  $(RTL_SV) $(abspath $(SC_SRC)) -o $(abspath $@) > $(BUILD)/rtl/sc-$*/build.log 2>&1 \
	  || { tail -30 $(BUILD)/rtl/sc-$*/build.log; exit 1; }

$(BUILD)/bin/tcpa-sc: $(BUILD)/rtl/sc-default/tcpa-sc
	@mkdir -p $(dir $@)
	cp $< $@

.PHONY: systemc
systemc: $(BUILD)/rtl/sc-$(SC_CFG)/tcpa-sc $(BUILD)/bin/tcpa-sc

# tests/systemc_cli.sh runs it (make test builds it after the RTL models)
test: $(BUILD)/bin/tcpa-sc
$(BUILD)/rtl/sc-default/tcpa-sc: | $(BUILD)/rtl/default/tcpa-rtl
# ==== end SystemC engine =====================================================
