#!/usr/bin/env bash
# bench_regions.sh: the several-regions table of `make bench`
# (docs/testing.md "Several regions"). What four regions busy cost the
# simulators against one, on the same array (configs/default.ini's 4x4):
# regress/jobs/quadrants.ini (matmul 2x2, bitextract 1x2, fir 2x2, trimv
# 2x2 on GCs 0..3, started as the loader frees) against its matmul run
# alone (2x2 on GC 0). The streams are made once (`tcpa run JOB --engine
# model --out-dir`, each run's NAME/config.bin) and then timed, without
# traces or waveforms:
#   rtl     the Verilated RTL (`tcpa-rtl S0.bin S1.bin@T1 ...`, the start
#           cycles of the job's summary.json; the harness of the cache);
#   cosim   `tcpa run JOB --engine cosim`: the whole command (every run
#           alone on both engines, then all at once, model and RTL
#           compared), for the job and for a job of the matmul run alone.
# Printed: cycles, busy PE-cycles (each region's PEs times its own
# cycles), CPU seconds (the fastest of REPEAT), and nanoseconds per busy
# PE-cycle and per array cycle. A benchmark, never an assertion.
#
# Environment: BUILD, TCPA, REPEAT (default 3).
set -u
BUILD=${BUILD:-build}
TCPA=${TCPA:-$BUILD/bin/tcpa}
REPEAT=${REPEAT:-3}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
job=regress/jobs/quadrants.ini

"$TCPA" run $job --engine model --out-dir "$tmp/q" >"$tmp/q.out" 2>&1 || { echo "bench_regions: $job failed on the model" >&2; exit 1; }
rtl=$("$TCPA" harness 2>"$tmp/h.err" | tail -n 1)
[ -x "$rtl" ] || { echo "bench_regions: no RTL harness ($(tail -n 1 "$tmp/h.err"))" >&2; exit 1; }
# the one-region job: the [run mm] section of the job alone
awk 'BEGIN { head = 1 } /^\[run / { head = 0; on = ($0 == "[run mm]") } head || on' $job >"$tmp/one.ini"
# streams and start cycles from summary.json: "NAME START ROWS COLS CYCLES" a line
python3 - "$tmp/q/summary.json" >"$tmp/regions" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["regions"]:
    print(r["name"], r["start_cycle"], r["rows"], r["cols"], r["cycles"])
PY

# best CPU seconds (user + sys) of REPEAT runs of a command
best() {
  local b= t
  for _ in $(seq 1 "$REPEAT"); do
    /usr/bin/time -f "%U %S" -o "$tmp/t" "$@" >/dev/null 2>&1 || { echo fail; return; }
    t=$(awk '{ print $1 + $2 }' "$tmp/t")
    b=$(awk -v a="${b:-1e9}" -v t="$t" 'BEGIN { print (t < a ? t : a) }')
  done
  echo "$b"
}
args4=() busy4=0
while read -r name start rows cols cyc; do
  if [ "$start" = 0 ]; then args4+=("$tmp/q/$name/config.bin"); else args4+=("$tmp/q/$name/config.bin@$start"); fi
  busy4=$((busy4 + rows * cols * cyc))
done <"$tmp/regions"
read -r _ _ r1 c1 cyc1 < <(grep '^mm ' "$tmp/regions")
busy1=$((r1 * c1 * cyc1))
cyc4=$(sed -n 's/^model *the job done in \([0-9]*\) cycles/\1/p' "$tmp/q.out")

rtl4=$(best "$rtl" "${args4[@]}")
rtl1=$(best "$rtl" "$tmp/q/mm/config.bin")
cos4=$(best "$TCPA" run $job --engine cosim)
cos1=$(best "$TCPA" run "$tmp/one.ini" --engine cosim)

echo
echo "Several regions (configs/default.ini 4x4; $job against its matmul run alone; CPU s, best of $REPEAT):"
printf '  %-28s %7s %7s %9s %8s %10s %10s\n' "case" "regions" "cycles" "busy PEc" "CPU s" "ns/busyPEc" "ns/cycle"
row() {
  awk -v n="$1" -v g="$2" -v c="$3" -v b="$4" -v s="$5" 'BEGIN {
    if (s == "fail") { printf "  %-28s %7d %7d %9d %8s\n", n, g, c, b, "FAIL"; exit }
    printf "  %-28s %7d %7d %9d %8.3f %10.1f %10.1f\n", n, g, c, b, s, 1e9 * s / b, 1e9 * s / c }'
}
row "rtl, four regions" 4 "$cyc4" "$busy4" "$rtl4"
row "rtl, one region" 1 "$cyc1" "$busy1" "$rtl1"
row "cosim command, four regions" 4 "$cyc4" "$busy4" "$cos4"
row "cosim command, one region" 1 "$cyc1" "$busy1" "$cos1"
echo "  (the cosim command runs each program alone on both engines before the job: see the header)"
