#!/usr/bin/env bash
# synth.sh: synthesizes the TCPA RTL of one configuration with Yosys
# (read_verilog -sv, coarse-grain `synth -run begin:fine`: processes,
# FSMs, memories kept as $mem cells, arithmetic as $alu/$mul cells) and
# prints a table of cells per module (each parameterized module once, with
# the number of its parameter variants) and the total of the flattened
# design (every instance counted). Takes about 5 minutes.
# Needs the configuration's parameter package $SYNTH_PARAMS (default
# $BUILD/gen/tcpa_params_pkg.sv; `make synth RTL_ARCH=FILE` writes FILE's
# into $BUILD/synth/) and the generated packages $BUILD/gen/tcpa_isa_pkg.sv
# and tcpa_stream_pkg.sv (docs/rtl.md "Generated packages"). Writes into
# $SYNTH_OUT (default $BUILD/synth). The Yosys log
# grows in $BUILD/synth/yosys.log.tmp while it runs (a heartbeat on stderr
# every 30 s names it) and is kept as $BUILD/synth/yosys.log.
set -eu
BUILD=${BUILD:-build}
params=${SYNTH_PARAMS:-$BUILD/gen/tcpa_params_pkg.sv}
out=${SYNTH_OUT:-$BUILD/synth}  # tcpa explore --area: one directory a point
mkdir -p "$out"
[ -r "$params" ] || { echo "synth.sh: no parameter package $params" >&2; exit 2; }
# Yosys 0.23 cannot resolve a package parameter or type from inside
# another package: for synthesis, tcpa_pkg gets the parameters and the
# types (typedef ... NAME;, enums and structs) of the generated packages
# copied into its body (same names, same values; the RTL modules still
# read the packages themselves).
inner() {
  awk '/^ *localparam .*;/ { sub(/;.*/, ";"); sub(/^ */, "  "); print; next }
       /^ *typedef / { t = 1 }
       t { print; if ($0 ~ /} *[A-Za-z_0-9]+;/) t = 0 }' "$1"
}
{
  echo "package tcpa_pkg;"
  inner "$params"
  inner "$BUILD/gen/tcpa_isa_pkg.sv"
  inner "$BUILD/gen/tcpa_stream_pkg.sv"
  sed -e '1,/^package tcpa_pkg;/d' -e 's/tcpa_params_pkg:://g; s/tcpa_isa_pkg:://g; s/tcpa_stream_pkg:://g' rtl/tcpa_pkg.sv
} > "$out/tcpa_pkg.sv"
sv="$out/tcpa_pkg.sv $(ls rtl/tcpa_*.sv | grep -v tcpa_pkg.sv | tr '\n' ' ')"
start=$(date +%s)
echo "synth.sh: Yosys on $params; live log: $out/yosys.log.tmp" >&2
# shellcheck disable=SC2086
yosys -q -l "$out/yosys.log.tmp" -p "
  read_verilog -sv $params $BUILD/gen/tcpa_isa_pkg.sv $BUILD/gen/tcpa_stream_pkg.sv $sv
  synth -top tcpa_top -run begin:fine
  tee -o $out/stat.txt stat
" >/dev/null &
yosys_pid=$!
# a heartbeat every 30 s while Yosys runs (elapsed time, the live log)
ticks=0
while kill -0 "$yosys_pid" 2>/dev/null; do
  sleep 1
  ticks=$((ticks + 1))
  [ $((ticks % 30)) -eq 0 ] || continue
  t=$(($(date +%s) - start))
  echo "synth.sh: Yosys still running, $((t / 60))m$(printf %02d $((t % 60)))s; live log: $out/yosys.log.tmp" \
    "($(wc -l <"$out/yosys.log.tmp" 2>/dev/null || echo 0) lines)" >&2
done
wait "$yosys_pid"
mv "$out/yosys.log.tmp" "$out/yosys.log"

# module table: name (parameters shortened), cells, variants
awk '
  /^=== design hierarchy ===/ { hier = 1; mod = ""; next }
  hier && /^ *Number of cells:/ { total = $4; next }
  !hier && /^=== .* ===$/ { mod = $2; sub(/^\$paramod\\/, "", mod); sub(/\\.*/, "", mod); next }
  /^ *Number of cells:/ && mod != "" { cells[mod] += $4; cnt[mod]++; mod = "" }
  END {
    for (m in cells) printf "%-20s %10d %8d\n", m, cells[m], cnt[m] | "sort"
    close("sort")
    printf "%-20s %10d\n", "TOTAL (flattened)", total
  }' "$out/stat.txt" > "$out/table.txt"
printf "%-20s %10s %8s\n" module cells variants
cat "$out/table.txt"
