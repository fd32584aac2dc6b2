#!/usr/bin/env bash
# demo.sh: the main job of `make demo`. Runs every benchmark program of
# regress/programs/ through `tcpa check` and `tcpa run --engine ref` on
# configs/default.ini at a representative parameter set, checks the outputs
# against the independent plain-C implementations (tests/tools/refimpl.c,
# built here if missing), and prints a table: program, parameters,
# iteration-space dimensions, equations, equation instances evaluated,
# interpreter time, verdict.
#
# Then the hardware tables: every benchmark at a small parameter set on a
# 1-D region in `tcpa run --engine cosim` (C model and Verilated RTL, traces
# compared cycle by cycle, outputs against the reference interpreter), once
# on configs/default.ini and once on configs/big1d.ini; per run: program,
# region, II with its lower bounds (ResMII, RecMII), cycles, processor
# classes, stream bytes, verdict. A program that does not fit (exit 3)
# prints the resource instead of failing. The RTL harnesses are built by
# `tcpa harness` (the harness cache) before the first table; with
# DEMO_ENGINE=model the tables use the C model alone.
#
# Then the 2-D tables: every benchmark on regions 2x2, 2x4, 4x2, 3x3 and
# 4x4 (`tcpa run --pes RxC`, the default choice of the two tiled loop
# dimensions), once with loop bounds that divide every region evenly and
# once with bounds that do not, on configs/default.ini and on
# configs/big1d.ini; per run: program, region, the tiled dimensions, II,
# cycles, processor classes, stream bytes (all, and without the IODATA
# input data), verdict, or the resource that does not fit (exit 3: most
# of the benchmarks on default.ini's small PEs; a 1-D program runs on the
# region's first row or column, its map marked "(row)" or "(column)"). On big1d.ini the bounds are 12 (even) and 7, 5; on
# default.ini they follow the region's R rows and C columns (one
# iteration of the tiled dimensions per PE, tile size 1, and one more
# row: matmul N=R M=C, N=R+1 M=C), since its 32-word programs hold no
# larger tiles. DEMO_2D=0 leaves these tables out; DEMO_2D_REGIONS
# replaces the list of regions.
# Exits non-zero when any run that fits fails.
#
# Environment: BUILD (default build), TCPA (default $BUILD/bin/tcpa),
# ARCH (default configs/default.ini), DEMO_ENGINE (default cosim), DEMO_2D
# (default 1), DEMO_2D_REGIONS (default "2x2 2x4 4x2 3x3 4x4").
set -u
BUILD=${BUILD:-build}
TCPA=${TCPA:-$BUILD/bin/tcpa}
ARCH=${ARCH:-configs/default.ini}
ENGINE=${DEMO_ENGINE:-cosim}
REFIMPL=$BUILD/tests/tools/refimpl
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# program and parameter set, in the order of the table
CASES=(
  "bitextract|N=32"
  "fir|N=64 T=16"
  "matmul|N=16 M=16 K=16"
  "conv|CO=4 R=8 C=8 CI=3 KR=3 KC=3"
  "trimv|N=48"
  "maxpool|R=16 C=16"
  "dotprod|N=256"
  "jacobi|T=32 N=64"
  "gcd|N=64 S=48"
  "editdist|N=40 M=33"
  "satarith|N=256"
  "band|N=100 W=7"
)

# Prints the number after "KEY": in the JSON file $1 (empty when absent).
json_num() {
  grep -o "\"$2\" *: *[-0-9.eE+]*" "$1" 2>/dev/null | head -n 1 | sed 's/.*: *//'
}

# Returns 0 when every output refimpl computes from $1/inputs equals the
# file tcpa wrote to $1 (program $2, parameter arguments after).
refimpl_agrees() {
  local dir=$1 prog=$2 f; shift 2
  rm -rf "$tmp/want"; mkdir -p "$tmp/want"
  "$REFIMPL" "$prog" "$@" --in-dir "$dir/inputs" --out-dir "$tmp/want" >/dev/null 2>&1 || return 1
  for f in "$tmp/want"/*.txt; do
    cmp -s <("$REFIMPL" --normalize "$f") <("$REFIMPL" --normalize "$dir/$(basename "$f")" 2>/dev/null) \
      || return 1
  done
}

[ -x "$TCPA" ] || { echo "demo: $TCPA is not built (run make)" >&2; exit 2; }
[ -x "$REFIMPL" ] || make -s BUILD="$BUILD" "$REFIMPL" >/dev/null 2>&1 || { echo "demo: cannot build $REFIMPL" >&2; exit 2; }

echo "Reference interpreter on every benchmark (arch $ARCH, seed 1);"
echo "outputs checked against independent plain-C implementations."
echo
fmt="%-11s %-31s %4s %4s %10s %9s  %s\n"
printf "$fmt" program params dims eqs instances time verdict
printf "$fmt" ----------- ------------------------------- ---- ---- ---------- --------- -------
failed=0
for c in "${CASES[@]}"; do
  prog=${c%%|*} ps=${c#*|}
  args=(); for p in $ps; do args+=(--param "$p"); done
  dims=- eqs=- inst=- secs=- verdict=pass
  if ! line=$("$TCPA" check "regress/programs/$prog.pla" 2>"$tmp/err"); then
    verdict="FAIL (check: $(head -n 1 "$tmp/err"))"
  else
    eqs=$(sed -n 's/.*OK (\([0-9]*\) equation.*/\1/p' <<<"$line")
    dims=$(sed -n 's/.* \([0-9]*\)-D iteration space.*/\1/p' <<<"$line")
    dir="$tmp/$prog"
    "$TCPA" run "regress/programs/$prog.pla" --arch "$ARCH" --engine ref "${args[@]}" \
      --seed 1 --out-dir "$dir" >/dev/null 2>"$tmp/err"; rc=$?
    inst=$(json_num "$dir/summary.json" instances)
    s=$(json_num "$dir/summary.json" ref_seconds)
    [ -n "$s" ] && secs=$(awk -v s="$s" 'BEGIN { printf "%.0f us", s * 1e6 }')
    if [ $rc -ne 0 ]; then
      verdict="FAIL (tcpa run exit $rc: $(head -n 1 "$tmp/err"))"
    elif ! grep -q '"status" *: *"pass"' "$dir/summary.json" 2>/dev/null; then
      verdict="FAIL (summary.json status is not pass)"
    elif ! refimpl_agrees "$dir" "$prog" "${args[@]}"; then
      verdict="FAIL (differs from refimpl)"
    fi
  fi
  [ "$verdict" = pass ] || failed=$((failed + 1))
  printf "$fmt" "$prog" "$ps" "${dims:--}" "${eqs:--}" "${inst:--}" "$secs" "$verdict"
done
echo
if [ $failed -eq 0 ]; then
  echo "demo: all ${#CASES[@]} benchmarks pass the reference check"
else
  echo "demo: $failed of ${#CASES[@]} benchmarks FAILED the reference check"
fi
ref_failed=$failed

# small parameter sets for the engines (cycle-accurate runs of every PE)
HW_CASES=(
  "bitextract|N=13"
  "fir|N=9 T=3"
  "matmul|N=2 M=3 K=4"
  "conv|CO=1 R=3 C=3 CI=1 KR=2 KC=2"
  "trimv|N=7"
  "maxpool|R=4 C=4"
  "dotprod|N=10"
  "jacobi|T=2 N=4"
  "gcd|N=5 S=6"
  "editdist|N=4 M=5"
  "satarith|N=10"
  "band|N=5 W=4"
)

# Prints the string value of KEY $2 in JSON file $1.
json_str() {
  sed -n "s/^ *\"$2\": \"\(.*\)\",\{0,1\}$/\1/p" "$1" 2>/dev/null | head -n 1
}

hw_fmt="%-11s %-6s %-16s %7s %7s %7s  %s\n"
hw_failed=0 hw_runs=0 hw_nofit=0
# hw_table ARCH PES: one engine run per HW_CASES entry on region PES.
hw_table() {
  local arch=$1 pes=$2 c
  echo
  echo "tcpa run --engine $ENGINE on $arch, region $pes (seed 1): C model$([ "$ENGINE" = cosim ] && echo " and RTL, traces")"
  echo "compared cycle by cycle, outputs against the reference interpreter."
  echo
  printf "$hw_fmt" program region "II (Res, Rec)" cycles classes stream verdict
  printf "$hw_fmt" ----------- ------ ---------------- ------- ------- ------- -------
  for c in "${HW_CASES[@]}"; do
    local prog=${c%%|*} ps=${c#*|} args=() p rc verdict ii=- cyc=- cls=- bytes=-
    for p in $ps; do args+=(--param "$p"); done
    local dir="$tmp/hw-$prog"
    rm -rf "$dir"
    timeout 600 "$TCPA" run "regress/programs/$prog.pla" --arch "$arch" --pes "$pes" --engine "$ENGINE" \
      "${args[@]}" --seed 1 --out-dir "$dir" >"$tmp/out" 2>"$tmp/err"; rc=$?
    if [ $rc -eq 3 ]; then
      verdict="does not fit: $(sed -n 's/.*does not fit: //p' "$tmp/err" | head -n 1)"
      hw_nofit=$((hw_nofit + 1))
    else
      hw_runs=$((hw_runs + 1))
      if [ -s "$dir/summary.json" ]; then
        ii="$(json_num "$dir/summary.json" ii) ($(json_num "$dir/summary.json" resmii), $(json_num "$dir/summary.json" recmii))"
        cyc=$(json_num "$dir/summary.json" cycles)
        cls=$(json_num "$dir/summary.json" processor_classes)
        bytes=$(json_num "$dir/summary.json" config_bytes)
      fi
      if [ $rc -eq 0 ]; then
        verdict=pass
      else
        verdict="FAIL (exit $rc: $(grep -m1 'error' "$tmp/err" | sed 's/^tcpa: error: //'))"
        local dv=$(json_str "$dir/summary.json" divergence)
        [ -n "$dv" ] && verdict="$verdict; divergence: $dv"
        hw_failed=$((hw_failed + 1))
      fi
    fi
    printf "$hw_fmt" "$prog" "$pes" "$ii" "${cyc:--}" "${cls:--}" "${bytes:--}" "$verdict"
  done
}

if [ "$ENGINE" = cosim ]; then
  for a in configs/default.ini configs/big1d.ini; do
    "$TCPA" harness --arch "$a" >/dev/null || { echo "demo: the RTL harness of $a does not build" >&2; exit 2; }
  done
fi
hw_table configs/default.ini 1x2
hw_table configs/big1d.ini 1x3

# 2-D regions of configs/big1d.ini: program|bounds that divide 2, 3 and
# 4|bounds that do not
TWOD_CASES=(
  "bitextract|N=12|N=7"
  "fir|N=12 T=12|N=7 T=5"
  "matmul|N=12 M=12 K=2|N=7 M=5 K=2"
  "conv|CO=12 R=12 C=2 CI=1 KR=2 KC=2|CO=7 R=5 C=2 CI=1 KR=2 KC=2"
  "trimv|N=12|N=7"
  "maxpool|R=12 C=12|R=7 C=5"
  "dotprod|N=12|N=7"
  "jacobi|T=12 N=12|T=7 N=5"
  "gcd|N=12 S=6|N=7 S=5"
  "editdist|N=12 M=12|N=7 M=5"
  "satarith|N=12|N=7"
  "band|N=12 W=3|N=7 W=2"
)
# configs/default.ini: bounds from the region's R rows and C columns
TWOD_CASES_SMALL=(
  "bitextract|N=R*C|N=R*C+1"
  "fir|N=R T=C|N=R+1 T=C+1"
  "matmul|N=R M=C K=3|N=R+1 M=C K=3"
  "conv|CO=R R=C C=2 CI=1 KR=2 KC=2|CO=R+1 R=C+1 C=2 CI=1 KR=2 KC=2"
  "trimv|N=R|N=R+1"
  "maxpool|R=R C=C|R=R+1 C=C+1"
  "dotprod|N=R*C|N=R*C+1"
  "jacobi|T=R N=C+2|T=R+1 N=C+3"
  "gcd|N=R S=C|N=R+1 S=C+1"
  "editdist|N=R-1 M=C-1|N=R M=C"
  "satarith|N=R*C|N=R*C+1"
  "band|N=R W=2|N=R+1 W=2"
)
TWOD_REGIONS=(${DEMO_2D_REGIONS:-2x2 2x4 4x2 3x3 4x4})

# twod_params TEMPLATE R C: the parameters of TEMPLATE with R and C in the
# values replaced by the region's rows and columns (numbers stay).
twod_params() {
  local out="" p v
  for p in $1; do
    v=${p#*=}; v=${v//R/$2}; v=${v//C/$3}
    out="$out ${p%%=*}=$((v))"
  done
  echo "${out# }"
}
twod_fmt="%-11s %-6s %-10s %-28s %4s %7s %7s %-15s  %s\n"

# twod_run ARCH PROG PES PARAMS: one engine run on a 2-D region; prints
# its row and counts it in hw_runs, hw_failed or hw_nofit.
twod_run() {
  local arch=$1 prog=$2 pes=$3 ps=$4 args=() p rc verdict ii=- cyc=- cls=- bytes=- map=- on
  for p in $ps; do args+=(--param "$p"); done
  local dir="$tmp/2d-$prog"
  rm -rf "$dir"
  timeout 600 "$TCPA" run "regress/programs/$prog.pla" --arch "$arch" --pes "$pes" --engine "$ENGINE" \
    "${args[@]}" --seed 1 --out-dir "$dir" >"$tmp/out" 2>"$tmp/err"; rc=$?
  if [ $rc -eq 3 ]; then
    verdict="does not fit: $(sed -n 's/^tcpa: error: //p' "$tmp/err" | head -n 1 | sed 's/.*does not fit: //' | cut -c1-200)"
    hw_nofit=$((hw_nofit + 1))
  else
    hw_runs=$((hw_runs + 1))
    if [ -s "$dir/summary.json" ]; then
      ii=$(json_num "$dir/summary.json" ii)
      cyc=$(json_num "$dir/summary.json" cycles)
      cls=$(json_num "$dir/summary.json" processor_classes)
      bytes="$(json_num "$dir/summary.json" config_bytes)/$(json_num "$dir/summary.json" config_bytes_nodata)"
      map=$(json_str "$dir/summary.json" tiled_dimension)
      on=$(sed -n 's/^mapping .* on the first \([a-z]*\) of the .*/\1/p' "$tmp/out")
      [ -n "$on" ] && map="$map ($on)"
    fi
    if [ $rc -eq 0 ]; then
      verdict=pass
    else
      verdict="FAIL (exit $rc: $(grep -m1 'error' "$tmp/err" | sed 's/^tcpa: error: //'))"
      local dv=$(json_str "$dir/summary.json" divergence)
      [ -n "$dv" ] && verdict="$verdict; divergence: $dv"
      hw_failed=$((hw_failed + 1))
    fi
  fi
  printf "$twod_fmt" "$prog" "$pes" "${map:--}" "$ps" "${ii:--}" "${cyc:--}" "${cls:--}" "${bytes:--}" "$verdict"
}

# twod_table ARCH CASE...: every case on every region, both bound sets.
twod_table() {
  local arch=$1 c prog even odd pes
  shift
  echo
  echo "tcpa run --engine $ENGINE on $arch, 2-D regions (seed 1): outputs against the reference"
  echo "interpreter$([ "$ENGINE" = cosim ] && echo ", C model and RTL traces compared cycle by cycle")."
  echo "map: the tiled loop dimensions (rows, columns); stream: bytes with/without the IODATA input data."
  echo
  printf "$twod_fmt" program region map params II cycles classes "stream" verdict
  printf "$twod_fmt" ----------- ------ ----- ---------------------------- ---- ------- ------- --------------- -------
  for c in "$@"; do
    IFS='|' read -r prog even odd <<<"$c"
    for pes in "${TWOD_REGIONS[@]}"; do
      twod_run "$arch" "$prog" "$pes" "$(twod_params "$even" "${pes%x*}" "${pes#*x}")"
      twod_run "$arch" "$prog" "$pes" "$(twod_params "$odd" "${pes%x*}" "${pes#*x}")"
    done
  done
}

if [ "${DEMO_2D:-1}" != 0 ]; then
  twod_table configs/default.ini "${TWOD_CASES_SMALL[@]}"
  twod_table configs/big1d.ini "${TWOD_CASES[@]}"
fi
echo
echo "demo: $hw_runs engine runs fit, $((hw_runs - hw_failed)) pass, $hw_failed fail; $hw_nofit do not fit"
[ $ref_failed -eq 0 ] && [ $hw_failed -eq 0 ] || exit 1
