#!/bin/bash
# covers: docs/symbolic.md "What fits", docs/user-guide.md "tcpa run"
# unseen.sh: the unseen-input campaign: loop
# programs of 1 to 4 dimensions that are not benchmarks
# (tests/programs-extra/*.pla: 1-D fibmix, 2-D stencil5 lcs sat2 pascal,
# 3-D bmv3 minplus3, 4-D conv4 bmm4) on 2-D architecture configurations no
# benchmark was tuned for, on several regions and --map choices, with loop
# bounds that divide the region and bounds that do not; every passing run
# is also compared with an independent plain-C implementation of the
# program (tests/tools/refimpl.c), reading the inputs `tcpa run
# --out-dir` used and comparing every output file value by value: the
# files of the engine itself (DIR/NAME.txt: the model's for model, the
# RTL's for cosim, as summary.json's outputs.engine must say), not the
# reference interpreter's (DIR/ref/). TAP.
#   - tcpa check accepts every extra program; the reference interpreter
#     (--engine ref) agrees with refimpl, also on degenerate bounds
#     (1) and on hand-picked inputs (INT_MIN, zero and -1 divisors);
#   - --engine model (exit 0: its outputs equal the reference
#     interpreter's; then its own output files equal refimpl's) on four
#     configurations of tests/configs/ (no
#     benchmark was tuned for them; u35: 3x5, ALU latency 2; u53: 5x3, 6 id, mul
#     latency 4, div 7; u66: 6x6 with 2 ports per side and no divider;
#     u28: 2x8, 4 ALUs, 12 id, 10 banks) and on configs/unseen-2x3.ini
#     (the fast tier: the rows of seed 1, a third of them);
#   - does not fit (exit 3) with the resource named: a divider missing,
#     input registers, I/O banks, a region larger than the
#     array;
#   - full tier: --engine cosim (model and RTL in lockstep; the RTL's
#     output files compared with refimpl's) of the 4-D conv4 on
#     configs/default.ini; nightly tier: also on configs/unseen-2x3.ini
#     (its harness is built by the first cosim run when missing:
#     Verilator, minutes).
# Environment: TCPA (default build/bin/tcpa), BUILD (default build),
# REFX (default $BUILD/tests/tools/refimpl).
cd "$(dirname "$0")/.." || exit 1
. tests/tap.sh
. tests/refcmp.sh
BUILD=${BUILD:-build}
REFX=${REFX:-$BUILD/tests/tools/refimpl}
PROGS=tests/programs-extra
COSIM_ARCH=configs/unseen-2x3.ini

if [ ! -x "$REFX" ]; then
  echo "not ok 1 - refimpl not built ($REFX): run make $REFX"
  exit 1
fi

# -- the generated configurations -------------------------------------------
for c in u35 u53 u66 u28; do
  $TCPA arch "tests/configs/$c.ini" > /dev/null 2>&1
  check "configuration tests/configs/$c.ini loads" $?
done

# arch_path NAME: the file of configuration NAME (tests/configs/, configs/).
arch_path() {
  case $1 in u35 | u53 | u66 | u28) echo "tests/configs/$1.ini" ;; *) echo "configs/$1.ini" ;; esac
}

# same_outputs GOT WANT: ref_outputs_compare (tests/refcmp.sh) with $REFX.
same_outputs() { ref_outputs_compare "$REFX" "$1" "$2"; }

# run_case ENGINE PROG "P=V ..." CFG RxC [MAP [SEED [--in ...]]]: runs tcpa
# run into $tmp/out and refimpl into $tmp/want; returns 0 when the
# run exits 0, its summary says pass and every output agrees; prints the
# reason as TAP comments otherwise. The exit status is left in $rc.
run_case() {
  local eng=$1 prog=$2 params=$3 cfg=$4 pes=$5 map=${6:-} seed=${7:-1} pa="" p
  shift 7 2> /dev/null || shift $#
  for p in $params; do pa="$pa --param $p"; done
  rm -rf "$tmp/out" "$tmp/want"
  mkdir -p "$tmp/want"
  # shellcheck disable=SC2086
  timeout 1800 $TCPA run $PROGS/$prog.pla --arch "$(arch_path "$cfg")" $pa --pes "$pes" ${map:+--map $map} \
    --engine "$eng" --seed "$seed" --out-dir "$tmp/out" "$@" > "$tmp/run.log" 2>&1
  rc=$?
  if [ $rc -ne 0 ]; then
    echo "#   tcpa run exited with status $rc:"; grep -v '^tcpa run: building' "$tmp/run.log" | head -n 4 | sed 's/^/#     /'
    return 1
  fi
  if ! grep -q '"status" *: *"pass"' "$tmp/out/summary.json" 2> /dev/null; then
    echo "#   summary.json missing or its status is not \"pass\""; return 1
  fi
  # the files compared are the engine's own outputs (the RTL's for cosim)
  local who want=$eng
  [ "$eng" = cosim ] && want=rtl
  who=$(ref_outputs_engine "$tmp/out")
  if [ "$who" != "$want" ]; then
    echo "#   summary.json: the outputs in --out-dir are '$who''s, not $want's"; return 1
  fi
  # shellcheck disable=SC2086
  if ! "$REFX" "$prog" $pa --in-dir "$tmp/out/inputs" --out-dir "$tmp/want" > "$tmp/ref.log" 2>&1; then
    echo "#   refimpl failed:"; head -n 3 "$tmp/ref.log" | sed 's/^/#     /'
    return 1
  fi
  same_outputs "$tmp/out" "$tmp/want"
}

# one ENGINE PROG "P=V ..." CFG RxC [MAP [SEED]]: one TAP check of run_case.
one() {
  run_case "$@"
  check "$2 $3 on $5${6:+ --map $6}, $4 ($1): exit 0, outputs equal refimpl" $?
}

# -- 1. the programs are valid; ref agrees with the independent code ---------
for f in $PROGS/*.pla; do
  $TCPA check "$f" > "$tmp/chk.log" 2>&1
  st=$?
  [ $st -ne 0 ] && head -n 4 "$tmp/chk.log" | sed 's/^/#   /'
  check "tcpa check $(basename "$f")" $st
done
while read -r prog params; do
  one ref "$prog" "$params" default 1x1 "" 2
done <<'EOF'
fibmix N=1
fibmix N=2
fibmix N=17
stencil5 T=1 N=1
stencil5 T=9 N=13
lcs N=1 M=1
lcs N=11 M=8
sat2 N=1 M=1
sat2 N=7 M=9
bmv3 B=1 N=1 K=1
bmv3 B=4 N=5 K=6
minplus3 N=1 M=1 K=1
minplus3 N=5 M=4 K=7
conv4 O=1 T=1 C=1 K=1
conv4 O=3 T=6 C=2 K=4
bmm4 Q=1 N=1 M=1 K=1
bmm4 Q=3 N=2 M=4 K=5
pascal N=2
pascal N=23
EOF

# the independent code is not a copy of tcpa: a corrupted output is caught
run_case ref sat2 "N=4 M=5" default 1x1 "" 3 > /dev/null
awk 'NR == 2 { $3 = $3 + 1 } { print }' "$tmp/out/S.txt" > "$tmp/S.bad" && mv "$tmp/S.bad" "$tmp/out/S.txt"
same_outputs "$tmp/out" "$tmp/want" > /dev/null
check_eval "an output changed by one is reported as differing" "[ $? -ne 0 ]"

# hand-picked inputs: INT_MIN, INT_MAX, zero and -1 divisors (fibmix's d),
# on ref and on the model (u28, 1x4)
printf '%s\n' -2147483648 0x7fffffff -1 5 -7 0 3 -2147483648 9 1 2 > "$tmp/a.txt"
printf '%s\n' 1 -1 0x80000000 2147483647 3 -3 0 0 -5 6 7 > "$tmp/b.txt"
echo 3 > "$tmp/c.txt"
for d in 0 -1 7; do
  echo $d > "$tmp/d.txt"
  for eng in ref model; do
    run_case $eng fibmix "N=11" u28 1x4 "" 1 --in a="$tmp/a.txt" --in b="$tmp/b.txt" --in c="$tmp/c.txt" \
      --in d="$tmp/d.txt"
    check "fibmix N=11 with INT_MIN/INT_MAX inputs, d = $d ($eng, u28 1x4): outputs equal refimpl" $?
  done
done
printf '%s\n' -2147483648 -2147483648 2147483647 2147483647 1 -1 > "$tmp/A.txt"
echo -1 > "$tmp/w.txt"
run_case model sat2 "N=2 M=3" u28 2x2 "" 1 --in A="$tmp/A.txt" --in w="$tmp/w.txt"
check "sat2 N=2 M=3 with wrapping sums, w = -1 (model, u28 2x2): outputs equal refimpl" $?

# -- 2. --engine model on the unseen configurations --------------------------
# (engine program params config region map seed); bounds that divide the
# region (6, 12) and that do not (5, 7, 11, 13), extents below the region's;
# the parameters separated by commas. Pascal on 2x2 with the default map,
# N >= 5, was a bug (the two pieces of P, an ALU op and a multi-cycle `%`,
# wrote the same output register in one cycle; fixed by the write-offset
# alignment of map_sched.c): N=9 here, N=7 in cosim below.
# The fast tier runs the rows of seed 1 (every program; u28, u35 and
# u53), the full tier all of them.
while read -r prog params cfg pes map seed; do
  [ "$map" = - ] && map=""
  [ "$seed" -gt 1 ] && ! full_tier && continue
  one model "$prog" "${params//,/ }" "$cfg" "$pes" "$map" "$seed"
done <<'EOF'
fibmix N=12 u28 1x3 - 1
fibmix N=13 u28 1x8 - 2
fibmix N=13 u28 2x1 - 3
fibmix N=1 u28 1x2 - 4
stencil5 T=6,N=12 u35 1x3 - 1
minplus3 N=6,M=6,K=3 u35 2x2 - 1
stencil5 T=5,N=11 u35 3x1 - 2
stencil5 T=5,N=11 unseen-2x3 1x2 - 3
stencil5 T=7,N=4 u28 1x3 - 4
lcs N=6,M=6 u35 2x2 - 1
lcs N=7,M=5 u35 3x5 1,0 2
lcs N=7,M=5 u28 2x8 - 3
lcs N=1,M=9 u28 2x3 - 4
sat2 N=6,M=6 u28 2x2 - 1
sat2 N=7,M=5 u28 2x3 1,0 2
sat2 N=5,M=7 u28 2x8 - 3
sat2 N=7,M=5 unseen-2x3 1x3 1,0 4
bmv3 B=6,N=6,K=3 u53 2x3 - 1
bmv3 B=5,N=7,K=4 u35 3x3 1,2 2
bmv3 B=5,N=7,K=4 u35 3x5 1,2 3
bmv3 B=1,N=5,K=2 u28 2x2 - 4
minplus3 N=6,M=6,K=3 u53 2x2 - 1
minplus3 N=7,M=5,K=4 u28 2x3 0,2 2
minplus3 N=7,M=5,K=4 u28 2x8 - 3
minplus3 N=2,M=7,K=1 u28 2x2 - 4
conv4 O=2,T=6,C=2,K=3 u35 3x5 1,3 1
conv4 O=3,T=5,C=3,K=2 u53 2x3 1,3 2
conv4 O=3,T=5,C=3,K=2 u28 2x8 - 3
conv4 O=1,T=7,C=1,K=4 unseen-2x3 2x2 1,3 4
bmm4 Q=2,N=6,M=6,K=2 u35 2x3 1,2 1
bmm4 Q=2,N=6,M=6,K=2 u53 2x3 1,2 2
bmm4 Q=3,N=5,M=7,K=3 u28 2x8 1,2 3
bmm4 Q=2,N=2,M=2,K=4 u28 2x3 2,3 4
pascal N=7 u35 1x3 - 1
pascal N=6 u28 2x3 - 2
pascal N=7 unseen-2x3 2x2 1,0 3
pascal N=9 unseen-2x3 2x2 - 5
EOF

# -- 3. does not fit: exit 3 naming the resource -----------------------------
# nofit PROG "P=V ..." CFG RxC MAP PATTERN: exit 3 and stderr matching PATTERN
nofit() {
  local prog=$1 params=$2 cfg=$3 pes=$4 map=$5 pat=$6 pa="" p
  [ "$map" = - ] && map=""
  for p in $params; do pa="$pa --param $p"; done
  # shellcheck disable=SC2086
  $TCPA run $PROGS/$prog.pla --arch "$(arch_path "$cfg")" $pa --pes "$pes" ${map:+--map $map} --engine model \
    > /dev/null 2> "$tmp/err"
  local st=$?
  [ $st -ne 3 ] && head -n 3 "$tmp/err" | sed 's/^/#   /'
  check_eval "$prog on $pes, $cfg: exit 3 ($(sed -e 's/.*does not fit: //' -e 's/.*error: //' -e "s|$tmp/||" "$tmp/err" | head -c 80))" \
    "[ $st -eq 3 ] && grep -Eq \"\$pat\" \"$tmp/err\""
}
nofit fibmix "N=12" u66 1x3 - "div unit \('/'\), pe\.div = 0"
nofit bmm4 "Q=2 N=6 M=6 K=2" u66 2x2 - "div unit \('%'\), pe\.div = 0"
# (stencil5 needed 7 ids until x, read at t = 0 only, shared a channel's
# id on the first PE, docs/symbolic.md "Registers"; 8 ods until joined
# channels, ibid.)
nofit stencil5 "T=6 N=12" u53 1x2 - "registers od: needs 7, pe\.od = 6"
nofit fibmix "N=12" u35 1x2 - "I/O banks: access .* on PE 1 .*banks needed 8, available 6 .*interconnect\.ports 6"
nofit minplus3 "N=6 M=6 K=3" u66 2x2 - "PE \(0,1\) needs a bank .*interconnect\.ports 2"
nofit lcs "N=6 M=6" u28 3x3 - "region does not fit the processor array .* 2 rows"
$TCPA run $PROGS/pascal.pla --param N=1 --engine ref > /dev/null 2> "$tmp/err"
check_eval "pascal N=1 (the program requires N >= 2): exit 2 naming the parameter domain" \
  "[ $? -eq 2 ] && grep -q 'outside the parameter domain' $tmp/err"

# -- 4. cosim: configs/unseen-2x3.ini, and conv4 on configs/default.ini ------
# The full tier runs conv4 on default.ini (its harness is the fast
# tier's); unseen-2x3's rows need a harness of their own (five minutes of
# Verilator cold): the nightly tier runs them.
if full_tier; then
  while read -r prog params cfg pes map seed; do
    [ "$map" = - ] && map=""
    [ "$cfg" = default ] || nightly_tier || continue
    one cosim "$prog" "${params//,/ }" "$cfg" "$pes" "$map" "$seed"
  done <<'EOF'
bmv3 B=6,N=6,K=3 unseen-2x3 2x3 - 1
conv4 O=2,T=6,C=2,K=3 unseen-2x3 2x2 1,3 2
bmm4 Q=2,N=6,M=6,K=2 unseen-2x3 2x3 - 3
stencil5 T=5,N=11 unseen-2x3 1x3 - 4
lcs N=7,M=5 unseen-2x3 1x3 - 5
sat2 N=6,M=6 unseen-2x3 1x3 1,0 6
minplus3 N=1,M=1,K=1 unseen-2x3 2x2 - 7
pascal N=7 unseen-2x3 2x3 - 8
pascal N=7 unseen-2x3 2x2 - 9
conv4 O=3,T=5,C=3,K=2 default 2x2 1,3 8
EOF
fi

exit $fail
