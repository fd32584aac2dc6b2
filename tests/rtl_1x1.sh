#!/usr/bin/env bash
# covers: docs/rtl.md "Clock gating", docs/symbolic.md "Regions of one PE"
# rtl_1x1.sh: a 1x1 array's harness builds and runs in cosim. On a 1x1
# array the one PE borders all four sides, and the read tokens of its
# banks are registered on its gated clock (rtl/tcpa_top.sv, g_ag); when
# that clock was a bit of a vector (pe_clk[P]), Verilator 5.006 named the
# trigger of the bit and of the one-bit vector the same, and the C++ it
# generated did not compile ("redeclaration of __Vtrigrprev__..pe_clk"):
# tcpa-rtl could not be built for any 1x1 configuration (seen in the full
# tier's random configurations, gen_program_cosim.sh seed 50041). TAP.
#   - the harness of configs/default.ini with rows = cols = 1 builds, and
#     that of a 1x1 array of one port and two banks a side (the
#     failing seed's had one port and four banks);
#   - on each, bitextract and matmul run in cosim (model and RTL traces agree
#     cycle by cycle, outputs equal to the reference): verdict pass; on the
#     narrow one also fir and trimv, which fit it only mapped as one tile
#     (docs/symbolic.md "Regions of one PE").
# Environment: TCPA (default build/bin/tcpa).
# tier: full
set -u
. tests/tap.sh

printf '[array]\nrows = 1\ncols = 1\n' > "$tmp/one.ini"
printf '[array]\nrows = 1\ncols = 1\n[interconnect]\nports = 1\n[iobuf]\nbanks = 2\n' > "$tmp/narrow.ini"

for arch in one narrow; do
  ini="$tmp/$arch.ini"
  harness "$ini" > "$tmp/h.$arch" 2> "$tmp/h.$arch.err"
  st=$?
  check "$arch.ini (1x1): tcpa-rtl builds $(grep -m1 'error' "$tmp/h.$arch.err")" $st
  if [ $st -ne 0 ]; then unbuilt "cosim on $arch.ini"; continue; fi
  jobs=("bitextract N=13" "matmul N=2 M=3 K=4")
  # mapped as one tile, without channels (tests/one_pe.sh)
  [ $arch = narrow ] && jobs+=("fir N=8 T=3" "trimv N=6")
  for job in "${jobs[@]}"; do
    set -- $job
    prog=$1
    shift
    params=()
    for p in "$@"; do params+=(--param "$p"); done
    "$TCPA" run "regress/programs/$prog.pla" "${params[@]}" --arch "$ini" --engine cosim \
      > "$tmp/out" 2> "$tmp/err"
    st=$?
    check_eval "$job on $arch.ini (1x1), cosim: exit 0, verdict pass $(head -c 300 "$tmp/err")" \
      "[ $st -eq 0 ] && grep -qx 'verdict   pass' $tmp/out"
  done
done
exit $fail
