#!/usr/bin/env bash
# covers: docs/rtl.md "Trace extraction", docs/trace.md "State events"
# rtl_debug_ports.sh: the dbg_* ports of tcpa_top exist only with
# +define+TCPA_DEBUG_PORTS (docs/rtl.md "Trace extraction"): the harnesses
# set it (tb/harness.mk), synthesis and `make rtl-lint` do not. Without the
# define tcpa_top has its 10 functional ports and no dbg_* port; with it,
# 26 dbg_* event outputs, 16 state outputs (docs/trace.md "State
# events"), dbg_rd_addr_i and dbg_rd_data_o more. The RTL
# is `verilator --lint-only -Wall` clean both ways (with the define also
# together with the assertions and the mutation hooks, as the mutants
# harness is built), and tb/harness.mk passes the define to every harness
# kind. Prints TAP. Each lint takes about half a minute.
set -u
BUILD=${BUILD:-build}
TCPA=${TCPA:-$BUILD/bin/tcpa}
VERILATOR=${VERILATOR:-verilator}
. tests/tap.sh

sv="rtl/tcpa_pkg.sv $(ls rtl/tcpa_*.sv | grep -v tcpa_pkg.sv | sort)"
# the parameter package made here (tcpa arch --sv), so the test runs where
# make has not written build/gen/tcpa_params_pkg.sv; the ISA and stream
# packages are `make gen`'s (every harness build makes them)
"$TCPA" arch configs/default.ini --sv -o "$tmp/tcpa_params_pkg.sv" || echo "# tcpa arch --sv failed"
pkgs="$tmp/tcpa_params_pkg.sv $BUILD/gen/tcpa_isa_pkg.sv $BUILD/gen/tcpa_stream_pkg.sv"

# Prints the number of ports of tcpa_top matching ERE $1 in the text that
# `verilator -E -P` makes of rtl/tcpa_top.sv with the defines after $1
# (comments after a port left out).
nports() {
  local re=$1; shift
  "$VERILATOR" -E -P "$@" rtl/tcpa_top.sv 2>/dev/null >"$tmp/top.sv"
  awk '/^ *module tcpa_top/ { on = 1 } on && /^ *\);/ { exit } on' "$tmp/top.sv" |
    sed 's| *//.*||; s| *$||' | grep -Ec "^ *(input|output) +logic.*$re"
}
check_eval "without TCPA_DEBUG_PORTS: no dbg_* port" '[ "$(nports " dbg_")" -eq 0 ]'
check_eval "without TCPA_DEBUG_PORTS: the 10 functional ports" '[ "$(nports " [a-z_]+_n?[io],?$")" -eq 10 ]'
check_eval "with TCPA_DEBUG_PORTS: 50 dbg_* outputs (26 event ports, dbg_rd_data_o, 16 state ports, 7 region ports)" \
  '[ "$(nports " dbg_[a-z_]+_o,?$" +define+TCPA_DEBUG_PORTS)" -eq 50 ]'
check_eval "with TCPA_DEBUG_PORTS: the bank read address input" \
  '[ "$(nports " dbg_rd_addr_i,?$" +define+TCPA_DEBUG_PORTS)" -eq 1 ]'

# the fast tier lints with all of them (the mutants harness's view; rtl.sh
# lints without a define, synthesis's view); the full tier also without a
# define and with the debug ports alone
lints=("+define+TCPA_DEBUG_PORTS +define+TCPA_ASSERT_ON +define+TCPA_MUTANTS --assert")
full_tier && lints+=("" "+define+TCPA_DEBUG_PORTS")
for defs in "${lints[@]}"; do
  # shellcheck disable=SC2086
  "$VERILATOR" --lint-only -Wall $defs --top-module tcpa_top rtl/lint_waivers.vlt \
    $pkgs $sv >"$tmp/lint.log" 2>&1
  st=$?
  [ $st -eq 0 ] || head -5 "$tmp/lint.log" | sed 's/^/# /'
  check "verilator --lint-only -Wall ${defs:-(no define)} is clean" $st
done

# every kind of tb/harness.mk gets the define
for kind in rtl mutants sc cov; do
  printf 'include tb/harness.mk\nprint-flags: ; @echo $(HARNESS_VFLAGS_%s)\n' $kind >"$tmp/flags.mk"
  flags=$(make -s --no-print-directory -f "$tmp/flags.mk" print-flags 2>/dev/null)
  case " $flags " in *" +define+TCPA_DEBUG_PORTS "*) st=0 ;; *) st=1 ;; esac
  check "harness kind $kind is built with +define+TCPA_DEBUG_PORTS" $st
done
exit $fail
