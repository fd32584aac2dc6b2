#!/usr/bin/env bash
# bench_fit.sh: the fit table of `make bench` (docs/symbolic.md "What
# fits"). Every benchmark of regress/programs/ on every configuration of
# configs/ on the regions 1x1, 1x4, 4x1, 2x2 and 4x4 (the 2-D regions
# tiled with --map 0,1 for programs of two or more dimensions; a 1-D
# program runs on their first row, docs/user-guide.md `--pes`), at the
# representative parameters of the mapping-quality table
# (scripts/bench_quality.sh): `tcpa run --engine model` against the
# reference and, where the configuration has an RTL (every one but
# array32.ini, docs/arch.md), `--engine cosim`. A cell says
#   runs     the model and cosim pass (model only for array32.ini)
#   runs (row)  the same for a 1-D program on a 2-D region: it ran on the
#            region's first row (1xC), not tiled in two dimensions
#   FAIL     a run exits 1 or 2: a bug, listed under the table
#   X n/m    exit 3: the resource X that ran out, needed n, available m
#   X n/m *  the same, failing at a lower bound (summary.json's nofit: an
#            item's bound above its available, docs/symbolic.md "Lower
#            bounds"): no mapping fits, the architecture's shortfall; a
#            no-fit without * fails above its bounds (or none is known):
#            the compiler's
# (a no-fit's cell is made from summary.json's record: its first item),
# then the share of cells that run per configuration and in all, the
# no-fits split into the architecture's and the compiler's, and a list
# of the compiler's.
# A benchmark, never an assertion: exits 0 unless a run FAILs.
#
# Environment: BUILD, TCPA as bench.sh; FIT_COSIM=0 runs the model only
# (no harness builds); FIT_CONFIGS="default" picks configurations.
set -u
BUILD=${BUILD:-build}
TCPA=${TCPA:-$BUILD/bin/tcpa}
FIT_COSIM=${FIT_COSIM:-1}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
REGIONS="1x1 1x4 4x1 2x2 4x4"

# The representative parameters and params_of of the mapping-quality table.
source <(sed -n '/^PARAMS=(/,/^)/p;/^params_of()/,/^}/p' scripts/bench_quality.sh)

# Prints the short form of the does-not-fit message in file $1.
short_reason() {
  sed -n '1{s/^tcpa: error: //;s/^[a-z0-9_]* does not fit: //;p}' "$1" | sed -E \
    -e 's/.*registers ([a-z]+): needs ([0-9]+), pe\.[a-z]+ = ([0-9]+).*/\1 \2\/\3/;t' \
    -e 's/.*needs ([0-9]+) instruction words, pe\.imem is ([0-9]+).*/imem \1\/\2/;t' \
    -e 's/.*control signals: ([0-9]+) needed.*gc\.signals is ([0-9]+).*/signals \1\/\2/;t' \
    -e 's/.*start delay: the last PE starts ([0-9]+) cycles.*/delay \1\/2147483647/;t' \
    -e 's/.*fd[0-9]+ needs depth ([0-9]+), pe\.fd_depth is ([0-9]+).*/fd_depth \1\/\2/;t' \
    -e 's/.*spans ([0-9]+) bank words, iobuf\.depth is ([0-9]+).*/bank \1\/\2/;t' \
    -e 's/.*([0-9]+) operations? needs? an? ([a-z]+) unit.*pe\.[a-z]+ = ([0-9]+).*/\2 \1\/\3/;t' \
    -e 's/.*I\/O routing:.*channels needed ([0-9]+), available ([0-9]+).*/routing \1\/\2/;t' \
    -e 's/.*holds up to ([0-9]+) values, pe\.fifo_depth = ([0-9]+).*/fifo \1\/\2/;t' \
    -e 's/.*I\/O banks:.*banks needed ([0-9]+), available ([0-9]+).*/banks \1\/\2/;t' \
    -e 's/ /_/g;s/^(.{14}).*/\1/'
}

# Prints the cell of the no-fit of summary.json $1, made from its record
# (docs/user-guide.md "summary.json"): the first item's resource with
# needed/available, `*` when an item's bound is above its available (at
# a lower bound); returns 0 when at a bound, 1 when above, 2 without a
# record (then the message's short form, short_reason, is the cell).
nofit_cell() {
  python3 -c '
import json, sys
short = {"registers_rd": "rd", "registers_fd": "fd", "registers_id": "id", "registers_od": "od",
         "instruction_memory": "imem", "control_signals": "signals", "io_banks": "banks",
         "io_channels": "routing", "bank_depth": "bank", "start_delay": "delay", "fifo_depth": "fifo",
         "loop_dimensions": "dims", "array_rows": "rows", "array_cols": "cols", "gc_terms": "terms",
         "branch_levels": "branch", "region_dimensions": "region_dims"}
items = json.load(open(sys.argv[1])).get("nofit") or []
if not items:
    sys.exit(2)
i = items[0]
name = short.get(i["resource"], i["resource"])
if i["resource"] == "functional_units":
    name = (i.get("key") or "fu").replace("pe.", "")
counts = lambda x: isinstance(x, int)
cell = name + (" %d/%d" % (i["needed"], i["available"]) if counts(i.get("needed")) and counts(i.get("available"))
               and i["needed"] >= 0 and i["available"] >= 0 else "")
at = any(counts(x.get("bound")) and counts(x.get("available")) and x["bound"] > x["available"] for x in items)
print(cell[:12] + (" *" if at else ""))
sys.exit(0 if at else 1)' "$1" 2>/dev/null
}

# Prints the number of loop dimensions of program $1.
dims_of() {
  tr '\n' ' ' < "$1" | sed -n 's/.*par *(\([^)]*\)).*/\1/p' | tr ',' '\n' | grep -c '<'
}

[ -x "$TCPA" ] || { echo "bench: $TCPA is not built (run make)" >&2; exit 2; }
echo "Fit table: each benchmark on each configuration and region (tcpa run --engine model, then cosim)"
status=0 all_runs=0 all_cells=0 all_arch=0 all_comp=0
fails=() comp_list=()
for cfg in configs/*.ini; do
  cname=$(basename "$cfg" .ini)
  case " ${FIT_CONFIGS:-$cname} " in *" $cname "*) ;; *) continue ;; esac
  cosim=$FIT_COSIM; [ "$cname" = array32 ] && cosim=0
  echo
  printf '%-11s' "$cname"; for r in $REGIONS; do printf ' %-14s' "$r"; done; echo
  runs=0 cells=0 arch_nf=0 comp_nf=0
  for f in regress/programs/*.pla; do
    prog=$(basename "$f" .pla)
    args=(); for p in $(params_of "$prog" "$f"); do args+=(--param "$p"); done
    nd=$(dims_of "$f")
    printf '%-11s' "$prog"
    for r in $REGIONS; do
      map=()
      case $r in 2x2|4x4) [ "$nd" -ge 2 ] && map=(--map 0,1) ;; esac
      cells=$((cells + 1))
      rm -rf "$tmp/o"
      "$TCPA" run "$f" --arch "$cfg" "${args[@]}" --pes "$r" "${map[@]}" --engine model --traces on-failure \
        --out-dir "$tmp/o" > "$tmp/out" 2>&1
      rc=$?
      if [ $rc -eq 0 ] && [ "$cosim" = 1 ]; then
        "$TCPA" run "$f" --arch "$cfg" "${args[@]}" --pes "$r" "${map[@]}" --engine cosim > "$tmp/out" 2>&1
        rc=$?
      fi
      case $rc in
        0) cell=runs; runs=$((runs + 1))
           on=$(sed -n 's/^mapping .* on the first \([a-z]*\) of the .*/\1/p' "$tmp/out")
           [ -n "$on" ] && cell="runs ($on)" ;;
        3) cell=$(nofit_cell "$tmp/o/summary.json"); at=$?
           [ $at -eq 2 ] && cell=$(short_reason "$tmp/out")
           if [ $at -eq 0 ]; then arch_nf=$((arch_nf + 1))
           else comp_nf=$((comp_nf + 1)); comp_list+=("$cname $prog $r: $cell"); fi ;;
        *) cell=FAIL; status=1; fails+=("$cname $prog $r: exit $rc: $(grep -m1 -i 'error\|diverge\|mismatch' "$tmp/out")") ;;
      esac
      printf ' %-14s' "$cell"
    done
    echo
  done
  echo "$cname: $runs of $cells runs; no-fits: $arch_nf at a lower bound (the architecture's)," \
    "$comp_nf above (the compiler's)"
  all_runs=$((all_runs + runs)) all_cells=$((all_cells + cells))
  all_arch=$((all_arch + arch_nf)) all_comp=$((all_comp + comp_nf))
done
echo
echo "In all: $all_runs of $all_cells (program, configuration, region) cells run" \
  "($(awk -v a="$all_runs" -v b="$all_cells" 'BEGIN { printf "%.0f", b ? 100 * a / b : 0 }') %)"
echo "No-fits: $all_arch at a lower bound (no mapping fits: the architecture's), $all_comp above their" \
  "bounds or with none known (the compiler's)"
echo "Parameters: $(printf '%s; ' "${PARAMS[@]}" | tr '|' ' ')"
[ ${#comp_list[@]} -gt 0 ] && echo "Above their bounds (the compiler's):"
for x in "${comp_list[@]}"; do echo "  $x"; done
for x in "${fails[@]}"; do echo "FAIL $x"; done
exit $status
