# tb/harness.mk: the one Verilator recipe of the project (included by the
# Makefile). Every Verilated harness is built by it, for any architecture
# configuration, into a directory of the harness cache that `tcpa harness`
# (tb/engine_harness.c, docs/rtl.md "Harness cache") chooses from a
# hash of everything that goes into the build: the effective configuration,
# rtl/, the generated packages' sources, the harness sources, this file and
# the Verilator version. The generated copies of C contracts (GEN_SV,
# GEN_HDR of the Makefile: tcpa_isa_pkg.sv, tcpa_stream_pkg.sv,
# tcpa_trace_events.h, tcpa_stream_errors.h in BUILD/gen, docs/rtl.md "Generated packages") are
# built first. tcpa writes the configuration's parameter package and C
# header into that directory, then runs
#
#   make harness HARNESS_DIR=<dir> HARNESS_KIND=<kind>
#
# The kinds differ only in flags and harness sources:
#   rtl      tcpa-rtl: the RTL under Verilator with the C++ harness
#            tb/rtl_main.cpp (--engine rtl and cosim)
#   mutants  tcpa-rtl with the mutation hooks (+define+TCPA_MUTANTS) and
#            random initial values on request (--x-initial unique), C++ at
#            -O0: short fault-injection runs (docs/rtl.md "Fault injection")
#   sc       tcpa-sc: the RTL as a SystemC module beside the C model
#            (--engine systemc); links build/lib/libtcpa.a
#   cov      tcpa-rtl-cov: line and toggle coverage for the sign-off
#            (docs/regress.md "Sign-off"), C++ at -O0; tb/rtl_main.cpp
#            writes the counters (VM_COVERAGE)
# Every kind is built with Verilator's --assert and +define+TCPA_ASSERT_ON
# (the assertions of rtl/tcpa_assert.svh run in every simulation) and with
# +define+TCPA_DEBUG_PORTS (the dbg_* ports of tcpa_top the harnesses read).
# Verilator's make is a build of its own, with its own -j: none of this
# make's job-server variables reach it (a make reading them without the
# job server's pipes falls back to one job).
# The binary is linked under a temporary name and renamed, under a lock on
# the directory, so a harness is either complete or absent; a second build
# of the same key waits for the first and then finds it there.

HARNESS_KIND ?= rtl
HARNESS_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# ccache, when present, through Verilator's OBJCACHE
HARNESS_OBJCACHE := $(if $(shell command -v ccache 2>/dev/null),-MAKEFLAGS OBJCACHE=ccache)

# every kind runs the assertions of rtl/tcpa_assert.svh (docs/rtl.md
# "Assertions") and reads the trace events from the dbg_* ports of
# tcpa_top, which exist only with TCPA_DEBUG_PORTS (synthesis sees none)
HARNESS_VFLAGS_ALL     := --assert +define+TCPA_ASSERT_ON +define+TCPA_DEBUG_PORTS
# -fno-dfg for the harnesses that run long programs: Verilator 5's DFG pass
# turns the generate loops that fill the wide flat vectors (the GC's
# constraint values, the debug ports, the wrapper links) into chains of
# VL_CONCAT_WWI that copy the growing vector once per element, quadratic
# in its width; without it each slice is one word assignment. 2.5x faster
# (docs/testing.md "Simulator speed").
HARNESS_VFLAGS_FAST    := -fno-dfg
HARNESS_VFLAGS_rtl     := --cc --trace-fst $(HARNESS_VFLAGS_FAST) $(HARNESS_VFLAGS_ALL)
HARNESS_VFLAGS_mutants := --cc --trace-fst +define+TCPA_MUTANTS --x-initial unique --x-assign unique \
                          $(HARNESS_VFLAGS_ALL)
HARNESS_VFLAGS_sc      := --sc $(HARNESS_VFLAGS_ALL)
HARNESS_VFLAGS_cov     := --cc --trace-fst --coverage-line --coverage-toggle --coverage-max-width 32 \
                          scripts/signoff-coverage.vlt $(HARNESS_VFLAGS_ALL)
# C++ optimization: -O2 for tcpa-rtl, which runs long programs (18 % faster
# than Verilator's own -Os on matmul N=M=4 K=1000, 4x4 of default.ini, for
# about a third more build time; docs/testing.md "Simulator speed"), its
# tracing code at -O1 (HARNESS_TRACE_OPT_MK);
# Verilator's -Os for tcpa-sc; -O0 for the two that run short ones (a
# quarter of the build time)
HARNESS_MAKEFLAGS_rtl      = -MAKEFLAGS "OPT_FAST=-O2 OPT_GLOBAL=-O2" -MAKEFLAGS "-f $(HARNESS_DIR)/trace_opt.mk"
HARNESS_MAKEFLAGS_mutants := -MAKEFLAGS "OPT_FAST=-O0 OPT_SLOW=-O0 OPT_GLOBAL=-O0"
HARNESS_MAKEFLAGS_cov     := -MAKEFLAGS "OPT_FAST=-O0 OPT_SLOW=-O0 OPT_GLOBAL=-O0"
# The FST tracing code of a harness (V<top>__Trace__N.cpp: half of its
# C++; it runs only while an FST is written) at -O1 whatever OPT_FAST says:
# the rtl kind's build takes a quarter less time (docs/testing.md "The
# budget"). Written into the harness directory as trace_opt.mk, which
# Verilator's make reads after its own makefile (-f).
define HARNESS_TRACE_OPT_MK
$$(patsubst %.cpp,%.o,$$(wildcard $$(VM_PREFIX)__Trace__[0-9].cpp $$(VM_PREFIX)__Trace__[0-9][0-9].cpp)): override OPT_FAST := -O1
endef
HARNESS_SRC_rtl        := tb/rtl_main.cpp
HARNESS_SRC_mutants    := tb/rtl_main.cpp
HARNESS_SRC_sc         := tb/sc_main.cpp tb/sc_model.cpp tb/sc_tb.cpp
HARNESS_SRC_cov        := tb/rtl_main.cpp
HARNESS_BIN_rtl        := tcpa-rtl
HARNESS_BIN_mutants    := tcpa-rtl
HARNESS_BIN_sc         := tcpa-sc
HARNESS_BIN_cov        := tcpa-rtl-cov
HARNESS_INC_rtl        := -I$(abspath common)
HARNESS_INC_mutants    := -I$(abspath common)
HARNESS_INC_cov        := -I$(abspath common)
HARNESS_INC_sc         := $(foreach d,common cmodel tb,-I$(abspath $(d)))
HARNESS_LD_sc          = $(abspath $(BUILD)/lib/libtcpa.a) $(PKG_LIBS) \
                         $(shell pkg-config --libs systemc 2>/dev/null || echo -lsystemc) $(LDLIBS)
HARNESS_DEP_sc         := $(BUILD)/lib/libtcpa.a

.PHONY: harness
ifdef HARNESS_DIR
HARNESS_OUT := $(HARNESS_DIR)/$(HARNESS_BIN_$(HARNESS_KIND))

harness: $(GEN_SV) $(GEN_HDR) $(HARNESS_DEP_$(HARNESS_KIND))
	@test -n "$(HARNESS_BIN_$(HARNESS_KIND))" || { echo "harness: unknown HARNESS_KIND '$(HARNESS_KIND)'" >&2; exit 2; }
	$(file >$(HARNESS_DIR)/trace_opt.mk,$(HARNESS_TRACE_OPT_MK))
	@flock $(HARNESS_DIR)/.lock sh -c 'test -x $(HARNESS_OUT) || { \
	  env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL $(VERILATOR) --exe --build -O1 -j $(HARNESS_JOBS) --top-module tcpa_top $(HARNESS_VFLAGS_$(HARNESS_KIND)) \
	    $(HARNESS_OBJCACHE) $(HARNESS_MAKEFLAGS_$(HARNESS_KIND)) \
	    -Mdir $(HARNESS_DIR)/obj -CFLAGS "-I$(HARNESS_DIR) -I$(abspath tb) -I$(abspath $(BUILD)/gen) $(HARNESS_INC_$(HARNESS_KIND))" \
	    $(if $(strip $(HARNESS_LD_$(HARNESS_KIND))),-LDFLAGS "$(HARNESS_LD_$(HARNESS_KIND))") \
	    rtl/lint_waivers.vlt $(HARNESS_DIR)/tcpa_params_pkg.sv $(GEN_SV) $(RTL_SV) \
	    $(abspath $(HARNESS_SRC_$(HARNESS_KIND))) -o $(HARNESS_OUT).tmp > $(HARNESS_DIR)/build.log 2>&1 \
	  && mv $(HARNESS_OUT).tmp $(HARNESS_OUT); }' \
	  || { tail -30 $(HARNESS_DIR)/build.log >&2; exit 1; }
else
harness:
	@echo "make harness: HARNESS_DIR is not set; use 'build/bin/tcpa harness --arch FILE' (docs/rtl.md)" >&2; exit 2
endif
