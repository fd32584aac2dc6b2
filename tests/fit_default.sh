#!/usr/bin/env bash
# covers: docs/instantiate.md "Program size reductions",
#   docs/symbolic.md "What fits"
# fit_default.sh: which benchmarks fit the small PEs of configs/default.ini
# (pe.imem 32 words per FU program, pe.branch_targets 2, gc.signals 8,
# rd/fd/id/od 4), now that the instantiator shrinks programs
# (docs/instantiate.md, "Program size reductions").
#
#   - every benchmark of regress/programs/ at small parameters on 1x1, 1x2,
#     1x4 and 4x1 with `tcpa run --engine model --arch configs/default.ini`
#     (the C model against the reference interpreter): the runs the table
#     below marks `fit` must exit 0; the others must exit 3 with a message
#     naming an architecture resource (pe.*, gc.*, ...), printed in a `#`
#     comment, or exit 0 (a run that starts to fit is fine; it is printed);
#     every run that exits 0 has every FU program within pe.imem and
#     reports, per FU, fewer or as many words as without the reductions;
#   - shared kernel tails and prefixes are used (fir N=4 T=2 on 1x1 needs
#     tails, fir N=6 T=3 on 1x4 prefixes);
#   - the reductions never change behaviour (full tier): with --share-all
#     (tails and prefixes shared in every program, not only in those over
#     pe.imem)
#     every benchmark runs on configs/big1d.ini against the reference;
#   - 2-D regions 2x2, 2x4, 4x2, 3x3 and 4x4 (the second table; the fast
#     tier runs 4x4, the full tier all five): matmul
#     fits with tile size 1 (one (i, j) per PE) and with one tiled
#     dimension partial; the 1-D bitextract and dotprod run on the
#     region's first row or column; the rest exit 3 naming the resource;
#   - a few of the default.ini runs in cosim on the RTL (build/bin/tcpa-rtl,
#     `make rtl`; skipped while it is missing or older than rtl/ and tb/),
#     two per 2-D region (bounds that divide the region and that do not);
#     the fast tier six of them, the runs marked `full` in the full tier.
# The fast tier runs a part of each table (about a minute; the full tier
# all of it, six): see RUN1, trims and RUN2 below.
#   - register sharing: maxpool maps (rd), dotprod needs at most 4 ids
#     (its bias on the id of a channel, docs/symbolic.md "Registers");
#   - re-read inputs (docs/symbolic.md): conv maps with 4 fds;
#   - bent I/O chains (docs/instantiate.md): maxpool and conv on 2-D
#     regions whose inner PEs straight chains cannot serve;
# Prints TAP lines.
set -u
. tests/tap.sh

# The table: PROGRAM PARAMS... -- verdict on 1x1 1x2 1x4 4x1 (fit / no).
TABLE="
bitextract N=7                      -- fit fit fit fit
bitextract N=16                     -- fit fit fit fit
fir N=4 T=2                         -- fit fit fit fit
fir N=3 T=2                         -- fit fit fit fit
fir N=5 T=2                         -- fit fit fit fit
fir N=6 T=3                         -- fit fit fit fit
fir N=5 T=3                         -- fit fit fit fit
matmul N=2 M=1 K=2                  -- fit fit fit fit
matmul N=1 M=2 K=2                  -- fit fit fit fit
matmul N=2 M=2 K=2                  -- fit fit fit fit
trimv N=3                           -- fit fit fit fit
trimv N=5                           -- fit fit fit fit
trimv N=7                           -- fit fit fit fit
band N=5 W=4                        -- fit no no no
conv CO=1 R=2 C=2 CI=1 KR=1 KC=1    -- fit fit fit fit
dotprod N=7                         -- fit fit fit fit
editdist N=3 M=3                    -- no no no no
gcd N=3 S=5                         -- no no no no
jacobi T=2 N=4                      -- no no no no
maxpool R=3 C=4                     -- fit fit fit fit
satarith N=7                        -- no no no no
"
REGIONS=(1x1 1x2 1x4 4x1)
# the fast tier runs 1x4, the full tier every region
RUN1=" 1x4 "
full_tier && RUN1=" ${REGIONS[*]} "

# Every program of regress/programs/ is in the table.
for f in regress/programs/*.pla; do
  b=$(basename "$f" .pla)
  echo "$TABLE" | grep -q "^$b " ; check "the table covers $b" $?
done

# words_ok LST: every FU line of listing LST has W <= pe.imem (32) and W <=
# its unreduced word count; prints nothing.
words_ok() {
  awk '/ kernel classes, epilog / {
         w = $0; sub(/ words \(unreduced.*/, "", w); sub(/.* /, "", w)
         u = $0; sub(/ words\)$/, "", u); sub(/.* /, "", u)
         if (w + 0 > 32 || w + 0 > u + 0) bad = 1; n++
       }
       END { exit (bad || n == 0) }' "$1"
}

while read -r line; do
  [ -n "$line" ] || continue
  spec=${line%%--*} verdicts=${line##*--}
  set -- $spec
  prog=$1; shift
  params=("$@")
  args=()
  for p in "${params[@]}"; do args+=(--param "$p"); done
  set -- $verdicts
  for pes in "${REGIONS[@]}"; do
    want=$1; shift
    case $RUN1 in *" $pes "*) ;; *) continue ;; esac
    # (the fast tier: the runs that fit; one that does not tries several
    # mappings first, seconds: band 19 s)
    [ "$want" = no ] && ! full_tier && continue
    rm -rf "$tmp/o"
    $TCPA run regress/programs/$prog.pla --engine model --arch configs/default.ini --pes $pes "${args[@]}" \
      --out-dir "$tmp/o" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    what="$prog ${params[*]} on $pes"
    if [ "$want" = fit ]; then
      check "$what: fits default.ini, model = reference (exit $rc)" $rc
      [ $rc -eq 0 ] && words_ok "$tmp/o/config.lst"
      check "$what: every FU program within 32 words and no larger than unreduced" $?
    else
      why=$(grep -o "does not fit: .*" "$tmp/err" | head -n 1)
      if [ $rc -eq 0 ]; then
        echo "# $what: now fits (the table says it does not)"
        check "$what: exit 0 or 3 naming the resource (exit 0, model = reference)" 0
      else
        echo "# $what: ${why:-exit $rc}"
        [ $rc -eq 3 ] && echo "$why" | grep -Eq "(pe|gc|iobuf|array|interconnect|latency)\.[a-z_]+"
        check "$what: exit 3 naming the resource (exit $rc)" $?
      fi
    fi
  done
done <<< "$TABLE"

# trimv N=7 on 1x2, 2x1, 1x3 and 3x1 (a partial last tile): the control
# flow fits at II 3 with its accumulation padded (s = 0 + L * v at j = 0,
# one producer of y), each signal's cheaper polarity and term pieces
# merged into their hulls (16 GC terms at most; docs/symbolic.md "What
# fits"); the run passes against the reference
trims="1x2 2x1 1x3 3x1"
full_tier || trims="" # 6 s a run
for pes in $trims; do
  rm -rf "$tmp/o"
  $TCPA run regress/programs/trimv.pla --engine model --arch configs/default.ini --pes $pes --param N=7 \
    --out-dir "$tmp/o" > "$tmp/out" 2> "$tmp/err"
  rc=$?
  [ $rc -eq 0 ] && grep -q "verdict *pass" "$tmp/out" && grep -q "schedule: pi = 3," "$tmp/o/config.lst"
  check "trimv N=7 on $pes: fits at II 3, passes (exit $rc)" $?
done

# Register sharing of the symbolic mapper (docs/symbolic.md, registers):
# maxpool's values of exclusive conditions share rds (it needed rd 5; its
# runs above stop at pe.imem now), dotprod's a[i] and b[i] are read once
# over both condition pieces (it needed id 7).
$TCPA compile regress/programs/maxpool.pla --arch configs/default.ini -o "$tmp/mp.sym" > /dev/null 2> "$tmp/err"
rc=$?
check "maxpool maps on default.ini (rd 4: exclusive conditions share rds) (exit $rc)" $rc
$TCPA compile regress/programs/dotprod.pla --arch configs/default.ini -o "$tmp/dp.sym" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 0 ] && grep -q '^access [0-9]* in edge [0-9]* array 2 reg id[0-9]' "$tmp/dp.sym" &&
  [ "$(grep -c '^reg id' "$tmp/dp.sym")" -le 4 ]
check "dotprod maps on default.ini with 4 ids: bias on a channel's id (exit $rc)" $?
# the bias's bank is the west one behind that channel's port (1x4) and
# the north one (4x1); the run passes against the reference
for pes in 1x4 4x1; do
  rm -rf "$tmp/o"
  $TCPA run regress/programs/dotprod.pla --engine model --arch configs/default.ini --pes $pes --param N=9 \
    --out-dir "$tmp/o" > /dev/null 2>&1
  rc=$?
  side=west; [ $pes = 4x1 ] && side=north
  [ $rc -eq 0 ] && grep -q "read bias via id[0-9]*, $side bank" "$tmp/o/config.lst"
  check "dotprod N=9 on $pes: bias read from the $side bank of the first PE (exit $rc)" $?
done
# conv: its propagated inputs w and x are read again (fd 6 -> 4)
$TCPA compile regress/programs/conv.pla --arch configs/default.ini -o "$tmp/cv.sym" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c '^reg fd' "$tmp/cv.sym")" -le 4 ]
check "conv maps on default.ini with at most 4 fds (inputs read again) (exit $rc)" $?
$TCPA compile --disable reread regress/programs/conv.pla --arch configs/default.ini -o "$tmp/cv0.sym" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 3 ] && grep -q "registers fd" "$tmp/err"
check "conv without re-reading (--disable reread): exit 3 naming registers fd (exit $rc)" $?

# A register message names every class that runs out: satarith needs 8
# rds and 5 ids (five input streams, pe.id = 4), docs/symbolic.md "What fits",
# each with its lower bound ("Lower bounds": 3 rds for one sel's three
# computed operands, 5 ids for five inputs read in every iteration)
$TCPA compile regress/programs/satarith.pla --arch configs/default.ini -o "$tmp/sa.sym" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 3 ] && grep -q "registers rd: needs 8, pe.rd = 4 (any mapping needs at least 3); id: needs 5, pe.id = 4 (any mapping needs at least 5)" "$tmp/err"
check "satarith on default.ini: exit 3 naming rd 8/4 bound 3 and id 5/4 bound 5 (exit $rc)" $?

# Shared tails and prefixes: fir N=4 T=2 on 1x1 needed the tails and fir
# N=6 T=3 on 1x4 the prefixes to fit until fir mapped at II 2 (one op per
# variable, docs/symbolic.md); its programs fit without them now, so they
# are shared on demand (--share-all) and the run must still pass.
rm -rf "$tmp/o"
$TCPA run regress/programs/fir.pla --share-all --engine model --arch configs/default.ini --pes 1x1 \
  --param N=4 --param T=2 --out-dir "$tmp/o" > /dev/null 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q "shares its last [0-9]* slots: continues in q[0-9]* at slot [0-9]*" "$tmp/o/config.lst"
check "fir N=4 T=2 on 1x1: the listing shows shared kernel tails (exit $rc)" $?
rm -rf "$tmp/o"
$TCPA run regress/programs/fir.pla --share-all --engine model --arch configs/default.ini --pes 1x4 \
  --param N=6 --param T=3 --out-dir "$tmp/o" > /dev/null 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q "shares its first [0-9]* slots: runs q[0-9]*'s words, branching on c[0-9]*" "$tmp/o/config.lst"
check "fir N=6 T=3 on 1x4: the listing shows shared kernel prefixes (exit $rc)" $?

# Tails and prefixes shared everywhere (--share-all) on
# configs/big1d.ini (full tier: 18 s). (conv CO=4: two-iteration tiles on two PEs; CO=2 has
# tile size 1 since session 3, where sharing everything needs 17 control
# signals, gc.signals 16.)
full_tier && while read -r prog pes params; do
  args=()
  for p in $params; do args+=(--param "$p"); done
  rm -rf "$tmp/o"
  $TCPA run regress/programs/$prog.pla --engine model --arch configs/big1d.ini --pes $pes --share-all \
    "${args[@]}" --out-dir "$tmp/o" > /dev/null 2>&1
  rc=$?
  shared=$(grep -c "shares its last\|shares its first" "$tmp/o/config.lst" 2>/dev/null)
  [ $rc -eq 0 ] && [ "${shared:-0}" -gt 0 ]
  check "sharing in every program: $prog $params on $pes (big1d): model = reference (exit $rc, ${shared:-0} shared tails and prefixes)" $?
done <<'EOF'
bitextract 1x3 N=16
fir 1x2 N=9 T=3
fir 4x1 N=7 T=4
matmul 1x2 N=3 M=2 K=3
trimv 4x1 N=4
trimv 1x2 N=4
dotprod 1x3 N=8
editdist 1x2 N=4 M=5
gcd 1x2 N=4 S=6
maxpool 1x2 R=3 C=4
conv 1x2 CO=4 R=3 C=3 CI=2 KR=2 KC=2
jacobi 1x2 T=2 N=5
band 1x2 N=5 W=4
EOF

# 2-D regions of default.ini: every benchmark on 2x2, 2x4, 4x2,
# 3x3 and 4x4 (dimensions 0 and 1 onto rows and columns), with loop bounds
# from the region's R rows and C columns: equal to them (one iteration of
# the two dimensions per PE: tile size 1, docs/symbolic.md), smaller
# (rows of the region unused), one more (the last tile partial), twice.
# `fit` must pass in the model with every FU program within pe.imem;
# `no` must exit 3 naming the resource (printed), or 0 (printed: it
# started to fit). The 1-D programs run on the region's first row, or
# first column when it has more rows than columns (docs/user-guide.md
# `--pes`); satarith runs out of rd and id there as on 1-D regions.
TABLE2="
matmul N=R M=C K=3               -- fit fit fit fit fit
matmul N=R-1 M=C K=2             -- fit fit fit fit fit
matmul N=R+1 M=C K=3             -- fit fit fit fit fit
matmul N=R M=C+1 K=3             -- fit fit fit fit fit
matmul N=R+1 M=C+1 K=1           -- fit fit fit fit fit
matmul N=2*R M=2*C K=1           -- fit fit fit fit fit
matmul N=R+1 M=C+1 K=3           -- fit fit fit fit fit
fir N=R T=C                      -- no no no no no
fir N=R+1 T=C+1                  -- no no no no no
trimv N=R                        -- fit fit fit fit fit
trimv N=R+1                      -- fit fit fit fit fit
band N=R W=2                     -- no no no no no
band N=R+1 W=2                   -- no no no no no
conv CO=R R=C C=1 CI=1 KR=1 KC=2 -- fit fit fit no fit
editdist N=R-1 M=C-1             -- no no no no no
editdist N=R M=C                 -- no no no no no
gcd N=R S=C                      -- no no no no no
gcd N=R+1 S=C+1                  -- no no no no no
jacobi T=R N=C+2                 -- no no no no no
maxpool R=R C=C                  -- fit fit fit no fit
maxpool R=R+1 C=C+1              -- fit fit fit fit no
bitextract N=R*C                 -- fit fit fit fit fit
dotprod N=R*C                    -- fit fit fit fit fit
satarith N=R*C                   -- no no no no no
"
REGIONS2=(2x2 2x4 4x2 3x3 4x4)
# the fast tier runs the largest, and only its runs that fit; the full
# tier every region and run
RUN2=" 4x4 "
full_tier && RUN2=" ${REGIONS2[*]} "
for f in regress/programs/*.pla; do
  b=$(basename "$f" .pla)
  echo "$TABLE2" | grep -q "^$b " ; check "the 2-D table covers $b" $?
done
fits2=0
while read -r line; do
  [ -n "$line" ] || continue
  spec=${line%%--*} verdicts=${line##*--}
  set -- $spec
  prog=$1; shift
  tmpl=("$@")
  set -- $verdicts
  for pes in "${REGIONS2[@]}"; do
    want=$1; shift
    case $RUN2 in *" $pes "*) ;; *) continue ;; esac
    [ "$want" = no ] && ! full_tier && continue
    R=${pes%x*} C=${pes#*x}
    args=() shown=""
    for p in "${tmpl[@]}"; do
      v=${p#*=} e=${v//R/$R}; e=${e//C/$C}
      args+=(--param "${p%%=*}=$((e))"); shown="$shown ${p%%=*}=$((e))"
    done
    rm -rf "$tmp/o"
    $TCPA run regress/programs/$prog.pla --engine model --arch configs/default.ini --pes $pes "${args[@]}" \
      --out-dir "$tmp/o" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    what="$prog$shown on $pes"
    if [ "$want" = fit ]; then
      check "$what: fits default.ini, model = reference (exit $rc, $(grep -o 'p = [0-9]*' "$tmp/out" | head -n 1))" $rc
      [ $rc -eq 0 ] && words_ok "$tmp/o/config.lst"
      check "$what: every FU program within 32 words and no larger than unreduced" $?
      [ $rc -eq 0 ] && fits2=$((fits2 + 1))
    else
      why=$(grep -o "does not fit: .*" "$tmp/err" | head -n 1)
      if [ $rc -eq 0 ]; then
        echo "# $what: now fits (the table says it does not)"
        check "$what: exit 0 or 3 naming the resource (exit 0, model = reference)" 0
      else
        echo "# $what: ${why:-exit $rc}"
        [ $rc -eq 3 ] && echo "$why" | grep -Eq "(pe|gc|iobuf|array|interconnect|latency)\.[a-z_]+"
        check "$what: exit 3 naming the resource (exit $rc)" $?
      fi
    fi
  done
done <<< "$TABLE2"
echo "# 2-D regions of default.ini: $fits2 runs fit"

# Cosim on the RTL of configs/default.ini.
if ! RTL=$(harness configs/default.ini); then
  unbuilt "cosim on default.ini"
else
  while read -r prog pes params; do
    case "$params" in *" full") params=${params% full}; full_tier || continue ;; esac
    args=()
    for p in $params; do args+=(--param "$p"); done
    TCPA_RTL=$RTL timeout 300 $TCPA run regress/programs/$prog.pla \
      --engine cosim --arch configs/default.ini --pes $pes "${args[@]}" > /dev/null 2> "$tmp/err"
    rc=$?
    [ $rc -eq 0 ] || sed -n '1,3s/^/#   /p' "$tmp/err"
    check "cosim on default.ini: $prog $params on $pes: model = RTL = reference (exit $rc)" $rc
  done <<'EOF'
fir 1x1 N=4 T=2 full
fir 1x2 N=5 T=2 full
fir 1x4 N=6 T=3
matmul 1x1 N=2 M=1 K=2
matmul 4x1 N=1 M=2 K=2 full
trimv 1x4 N=5 full
matmul 1x2 N=2 M=2 K=2 full
matmul 2x2 N=2 M=2 K=3 full
matmul 2x2 N=3 M=3 K=1 full
matmul 2x4 N=2 M=4 K=3 full
matmul 2x4 N=2 M=5 K=3 full
matmul 4x2 N=5 M=2 K=3 full
matmul 4x2 N=3 M=2 K=2 full
matmul 3x3 N=3 M=3 K=3 full
matmul 3x3 N=6 M=6 K=1 full
matmul 4x4 N=4 M=4 K=3 full
matmul 4x4 N=5 M=5 K=1
matmul 4x4 N=16 M=16 K=16
dotprod 1x4 N=10 full
dotprod 4x1 N=7 full
conv 1x1 CO=4 R=2 C=2 CI=1 KR=2 KC=2 full
conv 1x4 CO=4 R=2 C=2 CI=1 KR=2 KC=2 full
conv 4x4 CO=4 R=2 C=2 CI=1 KR=2 KC=2
maxpool 2x2 R=4 C=4 full
maxpool 4x4 R=4 C=4
trimv 2x2 N=6 full
EOF
fi
exit $fail
