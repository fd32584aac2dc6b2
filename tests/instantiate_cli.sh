#!/usr/bin/env bash
# covers: docs/instantiate.md "What each step computes", "Listing",
#   docs/user-guide.md "Exit status"
# instantiate_cli.sh: `tcpa instantiate` from the outside: the running
# example (bitextract, N=16 on 1x3: p = 6, 2 processor classes, a stream the
# reader accepts, a listing with a program per class and FU); the stream run
# on the C model (`tcpa sim`) gives the same `bits` as the reference
# interpreter (`tcpa run --engine ref`), for several N and region sizes;
# errors: a missing parameter (exit 2), a region of the wrong shape (2), a
# region larger than the array (3), too few control signals (3, the message
# names gc.signals needed and available), too little program memory (3).
# Prints TAP lines.
set -u
. tests/tap.sh

# Prints the values of array ARR gathered from the bank dumps in DIR via
# the layout file LAY (missing words are 0), one per line, by element.
gather() {
  local arr=$1 lay=$2 dir=$3
  awk -v arr="$arr" -v dir="$dir" '
    function hex(s,   i, v) {
      v = 0; s = tolower(substr(s, 3))
      for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
      return v
    }
    $1 == arr {
      f = dir "/bank_" $3 "_" $4 "_" $5 "_" $6 ".txt"
      if (!(f in seen)) {
        seen[f] = 1
        while ((getline line < f) > 0) { split(line, w, " "); mem[f, w[1]] = w[2] }
      }
      v = ((f, $7) in mem) ? hex(mem[f, $7]) : 0
      if (v >= 2147483648) v -= 4294967296
      val[$2] = v; if ($2 + 1 > cnt) cnt = $2 + 1
    }
    END { for (i = 0; i < cnt; i++) print val[i] }' "$lay"
}

sym=$tmp/be.sym
$TCPA compile regress/programs/bitextract.pla -o "$sym" > /dev/null
check "compile bitextract" $?

out=$($TCPA instantiate "$sym" --param N=16 --pes 1x3 -o "$tmp/be.bin" --listing "$tmp/be.lst" \
      --layout "$tmp/be.lay" 2>&1)
check "instantiate N=16 on 1x3" $?
echo "$out" | grep -q "region 1x3, 3 PEs used, p = 6, II 2, 2 processor classes" ; check "summary: p = 6, 2 classes" $?
bytes=$(stat -c %s "$tmp/be.bin")
echo "$out" | grep -q "stream $bytes bytes"; check "summary names the stream size ($bytes)" $?
grep -q "^  class 1: PEs { \[k0 = 2\] }" "$tmp/be.lst"; check "listing: class of the last tile" $?
grep -Eq "L[0-9]+ +(q[0-9]+:)? +and od1, rd0, #1 ; br c[0-9] \\? L[0-9]+ : L[0-9]+" "$tmp/be.lst"; check "listing: assembly per FU" $?
$TCPA disasm "$tmp/be.bin" > "$tmp/be.tasm" 2>&1; check "the stream reader accepts it" $?

# model against the reference, several sizes
for cfg in "16 1x3" "16 1x4" "7 1x2" "40 1x4" "5 1x1"; do
  set -- $cfg
  N=$1 pes=$2
  echo $(( (N * 2654435761) % 2147483647 )) > "$tmp/v.txt"
  $TCPA instantiate "$sym" --param N=$N --pes $pes -o "$tmp/r.bin" --layout "$tmp/r.lay" --in v="$tmp/v.txt" > /dev/null
  st=$?
  rm -rf "$tmp/dump"
  $TCPA sim "$tmp/r.bin" --dump-banks "$tmp/dump" > "$tmp/sim.out" 2>&1 || st=1
  $TCPA run regress/programs/bitextract.pla --param N=$N --engine ref --in v="$tmp/v.txt" --out-dir "$tmp/ref" > /dev/null || st=1
  mkdir -p "$tmp/dump"
  gather bits "$tmp/r.lay" "$tmp/dump" > "$tmp/got.txt"
  tr -s ' \n' '\n\n' < "$tmp/ref/bits.txt" | grep -v '^$' > "$tmp/want.txt"
  cmp -s "$tmp/got.txt" "$tmp/want.txt" || st=1
  check "bitextract N=$N on $pes: model banks = reference ($(head -1 "$tmp/sim.out"))" $st
done

# Benchmarks end to end on a large 8x8 architecture (1-D regions up to 8
# PEs; written here so that the test does not depend on a shared config):
# compile (columns, or rows with --rows), reference run with random inputs
# (seed 3), instantiate with those inputs, run on the C model, gather every
# output from the banks through the layout and compare with the reference.
# Checks: e2e PROG "N=.. M=.." RxC [--rows].
BIG=$tmp/big8x8.ini
printf '%s\n' '[array]' 'rows = 8' 'cols = 8' '[pe]' 'alu = 2' 'mul = 1' 'div = 1' 'rd = 32' 'fd = 16' \
  'fd_depth = 1024' 'id = 16' 'od = 8' 'fifo_depth = 64' 'imem = 256' 'branch_targets = 4' \
  '[interconnect]' 'ports = 16' '[gc]' 'signals = 32' 'dims = 8' '[iobuf]' 'banks = 16' 'depth = 65536' > "$BIG"
# The fast tier runs the first case of each program; the full tier all
# of them.
e2e_seen=" "
e2e() {
  local prog=$1 params=$2 pes=$3 rows=${4:-} pa="" ins="" st=0 f a p d=$tmp/e2e
  case $e2e_seen in *" $prog "*) full_tier || return 0 ;; esac
  e2e_seen="$e2e_seen$prog "
  rm -rf "$d"; mkdir -p "$d"
  for p in $params; do pa="$pa --param $p"; done
  $TCPA compile regress/programs/$prog.pla --arch $BIG $rows -o "$d/p.sym" > /dev/null 2>&1 || st=1
  $TCPA run regress/programs/$prog.pla $pa --engine ref --seed 3 --out-dir "$d/ref" > /dev/null 2>&1 || st=1
  for f in "$d"/ref/inputs/*.txt; do [ -e "$f" ] && ins="$ins --in $(basename "$f" .txt)=$f"; done
  $TCPA instantiate "$d/p.sym" --arch $BIG $pa --pes $pes -o "$d/p.bin" --layout "$d/p.lay" $ins \
    > /dev/null 2> "$d/inst.err" || { st=1; sed 's/^/#   /' "$d/inst.err"; }
  $TCPA sim "$d/p.bin" --arch $BIG --dump-banks "$d/dump" > "$d/sim.out" 2>&1 || st=1
  grep -q "fault" "$d/sim.out" && st=1
  mkdir -p "$d/dump"
  for f in "$d"/ref/*.txt; do
    a=$(basename "$f" .txt)
    gather "$a" "$d/p.lay" "$d/dump" > "$d/got.txt"
    tr -s ' \n' '\n\n' < "$f" | grep -v '^$' > "$d/want.txt"
    cmp -s "$d/got.txt" "$d/want.txt" || { st=1; echo "#   $a differs"; }
  done
  check "$prog $params on $pes${rows:+ ($rows)}: model banks = reference ($(head -1 "$d/sim.out" | sed 's/.*: //'))" $st
}
e2e gcd "N=7 S=5" 1x3
e2e gcd "N=1 S=1" 1x1
e2e gcd "N=13 S=6" 1x4
e2e gcd "N=10 S=3" 4x1 --rows
e2e bitextract "N=11" 3x1 --rows
e2e gcd "N=5 S=2" 8x1 --rows
e2e dotprod "N=7" 3x1 --rows
e2e dotprod "N=31" 1x8
e2e fir "N=5 T=3" 1x1
e2e fir "N=5 T=3" 1x3
e2e fir "N=13 T=5" 1x4
e2e fir "N=7 T=11" 1x3
e2e editdist "N=3 M=4" 1x1
e2e editdist "N=7 M=5" 1x3
e2e editdist "N=2 M=9" 2x1 --rows
e2e maxpool "R=3 C=5" 1x2
e2e maxpool "R=7 C=2" 1x3
e2e maxpool "R=5 C=3" 4x1 --rows
e2e editdist "N=13 M=13" 1x4
e2e fir "N=20 T=3" 3x1 --rows
e2e trimv "N=1" 1x1
e2e trimv "N=7" 1x3
e2e trimv "N=13" 1x4
e2e trimv "N=13" 4x1 --rows
e2e matmul "N=1 M=1 K=1" 1x1
e2e matmul "N=7 M=5 K=3" 1x3
e2e matmul "N=13 M=1 K=9" 1x4
e2e matmul "N=4 M=11 K=2" 3x1 --rows
e2e conv "CO=1 R=1 C=1 CI=1 KR=1 KC=1" 1x1
e2e conv "CO=3 R=1 C=2 CI=2 KR=1 KC=2" 1x2
e2e conv "CO=4 R=2 C=1 CI=1 KR=2 KC=1" 1x3
e2e conv "CO=3 R=1 C=1 CI=2 KR=1 KC=3" 3x1 --rows
e2e jacobi "T=1 N=3" 1x1
e2e jacobi "T=2 N=4" 1x1
e2e jacobi "T=4 N=3" 1x2
e2e jacobi "T=6 N=4" 3x1 --rows
e2e satarith "N=1" 1x1
e2e satarith "N=7" 1x3
e2e satarith "N=13" 4x1 --rows
e2e band "N=1 W=1" 1x1
e2e band "N=5 W=9" 1x2
e2e band "N=11 W=10" 4x1 --rows

# errors
$TCPA instantiate "$sym" --pes 1x3 -o "$tmp/x.bin" 2> "$tmp/err"; st=$?
[ $st -eq 2 ] && grep -q "parameter N needs a value" "$tmp/err"; check "missing parameter: exit 2" $?
$TCPA instantiate "$sym" --param N=16 --pes 3x1 -o "$tmp/x.bin" 2> "$tmp/err"; st=$?
[ $st -eq 2 ] && grep -q "compiled for a 1xC region" "$tmp/err"; check "wrong region shape: exit 2" $?
$TCPA instantiate "$sym" --param N=16 --pes 1x9 -o "$tmp/x.bin" 2> "$tmp/err"; st=$?
[ $st -eq 3 ] && grep -q "does not fit the 4x4 array" "$tmp/err"; check "region too large: exit 3" $?
[ ! -e "$tmp/x.bin" ]; check "no stream written on failure" $?
printf '[gc]\nsignals = 1\n' > "$tmp/sig1.ini"
$TCPA compile regress/programs/bitextract.pla --arch "$tmp/sig1.ini" -o "$tmp/s1.sym" > /dev/null 2>&1
if [ -e "$tmp/s1.sym" ]; then
  $TCPA instantiate "$tmp/s1.sym" --arch "$tmp/sig1.ini" --param N=16 --pes 1x3 -o "$tmp/x.bin" 2> "$tmp/err"; st=$?
  [ $st -eq 3 ] && grep -q "control signals: [0-9]* needed.*gc.signals is 1" "$tmp/err"; check "gc.signals 1: exit 3 with needed/available" $?
else
  check "gc.signals 1: compile refuses it already (estimate)" 0
fi
printf '[pe]\nimem = 6\n' > "$tmp/imem.ini"
$TCPA compile regress/programs/bitextract.pla --arch "$tmp/imem.ini" -o "$tmp/im.sym" > /dev/null 2>&1
$TCPA instantiate "$tmp/im.sym" --arch "$tmp/imem.ini" --param N=16 --pes 1x3 -o "$tmp/x.bin" 2> "$tmp/err"; st=$?
[ $st -eq 3 ] && grep -q "processor class [0-9]*, alu[0-9]: the program needs [0-9]* instruction words, pe.imem is 6" "$tmp/err"
check "pe.imem 6: exit 3 naming class, FU, words" $?

# Start delays are no longer bounded by a control-signal history (the PEs
# evaluate the signals at their own step, docs/timing.md 2): the last PE
# of a 1x4 region starts 3 * lambda^K cycles after the first. editdist M=2
# on 1x4 of configs/big1d.ini: ii and lambda^K = A*p + C from tcpa compile.
# Around the tile size where the former bound (gc.history 128: 127 * ii
# cycles) cut off, every N instantiates, and some delays are beyond it.
out=$("$TCPA" compile regress/programs/editdist.pla --arch configs/big1d.ini -o "$tmp/ed.sym" 2>/dev/null)
ii=$(sed -n 's/.*RecMII [0-9]*, II \([0-9]*\).*/\1/p' <<<"$out")
lk=$(sed -n 's/.*lambda^K = \([0-9]*\)\*p \([-+]\) \([0-9]*\)$/\1 \2\3/p' <<<"$out")
read -r la lc <<<"$lk"
check_eval "editdist on big1d: lambda^K = ${la:-?}*p ${lc:-?} with II ${ii:-?} (from tcpa compile)" \
  '[ -n "$ii" ] && [ -n "$la" ] && [ "$la" = "$ii" ]'
: "${ii:=1}" "${la:=1}" "${lc:=0}"
old=$((127 * ii)) pok=$(( (127 * ii - 3 * lc) / (3 * la) ))
fits=0 beyond=0 bad=
for ((N = 4 * pok - 4; N <= 4 * pok + 4; N++)); do
  rm -f "$tmp/ed.bin"
  out=$("$TCPA" instantiate "$tmp/ed.sym" --arch configs/big1d.ini --param N=$N --param M=2 --pes 1x4 \
        -o "$tmp/ed.bin" 2>"$tmp/ed.err"); rc=$?
  p=$(sed -n 's/.*, p = \([0-9]*\),.*/\1/p' <<<"$out")
  if [ $rc -eq 0 ] && [ -n "$p" ] && [ -s "$tmp/ed.bin" ]; then
    fits=$((fits + 1))
    [ $((3 * (la * p + lc))) -gt $old ] && beyond=$((beyond + 1))
  else
    bad="$bad N=$N(exit $rc: $(head -c 120 "$tmp/ed.err"))"
  fi
done
[ -z "$bad" ] && [ $fits -eq 9 ] && [ $beyond -gt 0 ]
check "editdist N=$((4 * pok - 4))..$((4 * pok + 4)) on 1x4: all $fits instantiate, $beyond with a start delay beyond the former bound of $old cycles${bad:+ (wrong:$bad)}" $?
exit $fail
