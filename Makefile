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
LOCKSTEP_SRC := tb/lockstep.c tb/gtkw.c
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
