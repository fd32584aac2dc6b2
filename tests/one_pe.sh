#!/usr/bin/env bash
# covers: docs/symbolic.md "Regions of one PE"
# one_pe.sh: a region of one PE (1x1) that does not fit with propagation
# channels is mapped as one tile, without them. Its one tile spans every
# mapped dimension, so no dependence comes from a neighbour tile; the
# channels the symbolic mapping routes anyway took ids, ods and wrapper
# ports, and 1x1 runs that need none exited 3 for ports or banks
# (docs/symbolic.md, "Regions of one PE"). TAP.
#   - on a 1x1 array of one port and two banks a side, with the C model
#     against the reference interpreter: fir N=8 T=3 and trimv N=6 (they
#     failed with "I/O banks: ... finds no free bank") exit 0, pass, and
#     say they were mapped as one tile (summary.json and the mapping line);
#   - on configs/linear.ini, jacobi T=4 N=6 on 1x1 (it failed with "ports:
#     3 propagation channels toward the east neighbour") passes;
#   - dotprod on the narrow array still exits 3, now for what the PE
#     lacks: 5 accesses for 4 sides of one port, not channels;
#   - a 1x1 run that fits with channels keeps that mapping: fir on
#     default.ini (map_one_tile false, one mapping built);
#   - the narrow runs in cosim: tests/rtl_1x1.sh (full tier).
# Environment: TCPA (default build/bin/tcpa).
set -u
. tests/tap.sh

printf '[array]\nrows = 1\ncols = 1\n[interconnect]\nports = 1\n[iobuf]\nbanks = 2\n' > "$tmp/narrow.ini"

# run_model ARCH PROG PARAMS...: runs PROG on 1x1 in the model with its
# outputs in $tmp/o, stdout in $tmp/out, stderr in $tmp/err; returns its
# exit status.
run_model() {
  local arch=$1 prog=$2
  shift 2
  local args=()
  for p in "$@"; do args+=(--param "$p"); done
  rm -rf "$tmp/o"
  "$TCPA" run "regress/programs/$prog.pla" "${args[@]}" --arch "$arch" --pes 1x1 --engine model \
    --out-dir "$tmp/o" > "$tmp/out" 2> "$tmp/err"
}

# one_tile: returns 0 when the last run passed and was mapped as one tile.
one_tile() {
  grep -qx 'verdict   pass' "$tmp/out" && grep -q '"map_one_tile": true' "$tmp/o/summary.json" &&
    grep -q '^mapping .* tiled onto 1 PE as one tile (no channels),' "$tmp/out"
}

for job in "fir N=8 T=3" "trimv N=6"; do
  run_model "$tmp/narrow.ini" $job
  st=$?
  check_eval "$job on a 1x1 array of one port: exit 0, passes, one tile (exit $st: $(head -c 200 "$tmp/err"))" \
    "[ $st -eq 0 ] && one_tile"
done

run_model configs/linear.ini jacobi T=4 N=6
st=$?
check_eval "jacobi T=4 N=6 on linear.ini 1x1: exit 0, passes, one tile (exit $st: $(head -c 200 "$tmp/err"))" \
  "[ $st -eq 0 ] && one_tile"

run_model "$tmp/narrow.ini" dotprod N=7
st=$?
check_eval "dotprod on the narrow 1x1 array: exit 3 for its 5 accesses, not for channels ($(head -c 200 "$tmp/err"))" \
  "[ $st -eq 3 ] && grep -q 'I/O banks: 5 input/output accesses' $tmp/err && ! grep -q 'propagation channels' $tmp/err"

run_model configs/default.ini fir N=8 T=3
st=$?
check_eval "fir N=8 T=3 on default.ini 1x1: fits with channels, kept (exit $st)" \
  "[ $st -eq 0 ] && grep -q '\"map_one_tile\": false' $tmp/o/summary.json && grep -q '\"map_attempts\": 1,' $tmp/o/summary.json"
exit $fail
