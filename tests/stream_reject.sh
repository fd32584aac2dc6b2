#!/usr/bin/env bash
# covers: docs/stream.md "Header", "Packets", docs/timing.md "8. Faults"
# stream_reject.sh: a stream that is not what its header says is refused,
# with an error that names what is wrong, by the C model (`tcpa sim`) and
# by the RTL loader (build/bin/tcpa-rtl: the harness feeds the stream to
# tcpa_cfg_loader and reports its error state) alike.
# Good streams: regress/streams/alu_single.tasm (tcpa asm) and bitextract
# N=8 on 1x2 (tcpa run, compile + instantiate), both for configs/default.ini.
# Each is corrupted in one header or payload word (the CRC kept stale unless
# said otherwise) with a small inline writer; then for each case:
#   model: exit 2, stderr names the fault (KEYWORD) and the byte offset;
#   RTL:   exit 2, "stream rejected by the loader: error N (NAME)" with N
#          the loader's error code (rtl/tcpa_pkg.sv E_*) of the case and
#          NAME naming the same fault; no trace event (nothing started).
# The clean streams are accepted by both. RTL checks print `# SKIP` while
# build/bin/tcpa-rtl is missing or older than rtl/ (make rtl). Prints TAP.
set -u
. "$(dirname "$0")/tap.sh"
RTL=$("$TCPA" harness)

# Returns 0 when the harness $1 exists and is not older than rtl/ and tb/.
# (`tcpa harness` below builds what is missing; the cache never holds a
# stale harness, so only a failed build leaves one out: a failure)
fresh() { [ -x "$1" ]; }

# Writes stream $1 with 32-bit little-endian word $3 replaced by the value
# of the shell arithmetic $4 (in which W is the old word) to $2; with $3
# "cut" drops the last $4 bytes, with $3 "add" appends $4 zero words.
# Returns non-zero when the word does not exist.
poke() {
  local in=$1 out=$2 word=$3 expr=$4
  case $word in
    cut) head -c -"$expr" "$in" >"$out"; return ;;
    add) { cat "$in"; head -c $((4 * expr)) /dev/zero; } >"$out"; return ;;
  esac
  local size; size=$(stat -c %s "$in")
  [ $((4 * word + 4)) -le "$size" ] || return 1
  local W; W=$(od -An -t u4 -j $((4 * word)) -N 4 "$in" | tr -d ' ')
  local v=$(( (expr) & 0xffffffff ))
  { head -c $((4 * word)) "$in"
    printf "\\x$(printf %02x $((v & 255)))\\x$(printf %02x $((v >> 8 & 255)))\\x$(printf %02x $((v >> 16 & 255)))\\x$(printf %02x $((v >> 24 & 255)))"
    tail -c +$((4 * word + 5)) "$in"; } >"$out"
}

# Runs case NAME STREAM KEYWORD_ERE OFFSET RTLCODE RTLNAME_ERE.
reject() {
  local name=$1 bin=$2 kw=$3 off=$4 code=$5 rname=$6
  "$TCPA" sim "$bin" --trace "$tmp/m.trace" >"$tmp/out" 2>"$tmp/err"
  local st=$?
  [ $st -eq 2 ] && grep -Eq "$kw" "$tmp/err" && grep -q "byte $off:" "$tmp/err"
  vst=$?; check "$name: the model refuses it, exit 2 ($st), naming it at byte $off: $(sed -n '1s/.*invalid stream: //p' "$tmp/err")" $vst
  if ! fresh "$RTL"; then
    n=$((n + 1)); echo "not ok $n - $name: the RTL loader refuses it: the harness did not build"; fail=1; return
  fi
  rm -f "$tmp/r.trace"
  "$RTL" "$bin" --trace "$tmp/r.trace" >"$tmp/out" 2>"$tmp/err"
  st=$?
  local events=0
  [ -f "$tmp/r.trace" ] && events=$(grep -vc '^#' "$tmp/r.trace")
  [ $st -eq 2 ] && grep -Eq "stream rejected by the loader: error $code \\(($rname)[^)]*\\)" "$tmp/err" && [ "$events" -eq 0 ]
  vst=$?; check "$name: the RTL loader refuses it, exit 2 ($st), error $code, $events events: $(sed -n '1s/.*stream rejected/rejected/p' "$tmp/err")" $vst
}

mkdir -p "$tmp/bx"
"$TCPA" asm regress/streams/alu_single.tasm -o "$tmp/as.bin" >/dev/null 2>&1
check "alu_single.tasm assembles" $?
"$TCPA" run regress/programs/bitextract.pla --engine model --out-dir "$tmp/bx" --param N=8 --pes 1x2 \
  --seed 3 --arch configs/default.ini >/dev/null 2>&1
check "bitextract N=8 on 1x2: compiled and instantiated" $?

for job in "alu_single $tmp/as.bin" "bitextract $tmp/bx/config.bin"; do
  set -- $job; tag=$1 s=$2
  "$TCPA" sim "$s" >/dev/null 2>&1
  st=$?
  [ $st -le 1 ]
  check "$tag: the clean stream is accepted by the model (exit $st)" $?
  if fresh "$RTL"; then
    "$RTL" "$s" --trace "$tmp/r.trace" >/dev/null 2>&1
    st=$?
    [ $st -le 1 ] && [ "$(grep -vc '^#' "$tmp/r.trace")" -gt 0 ]
    check "$tag: the clean stream is accepted by the RTL loader and runs (exit $st)" $?
  fi
  words=$(( $(stat -c %s "$s") / 4 ))
  c=$tmp/c.bin
  poke "$s" "$c" 5 'W ^ 1' && reject "$tag: wrong CRC (header CRC xor 1)" "$c" 'CRC' 20 6 'payload CRC'
  poke "$s" "$c" $((words - 2)) 'W ^ 0x100' &&
    reject "$tag: payload word $((words - 2)) flipped, CRC stale" "$c" 'CRC' 20 6 'payload CRC'
  poke "$s" "$c" 2 'W ^ 1' && reject "$tag: wrong fingerprint (low word xor 1)" "$c" 'fingerprint' 8 4 'architecture fingerprint'
  poke "$s" "$c" 3 'W ^ 0x80000000' &&
    reject "$tag: wrong fingerprint (high word xor 0x80000000)" "$c" 'fingerprint' 8 4 'architecture fingerprint'
  poke "$s" "$c" 1 '1' && reject "$tag: wrong version (1, the previous one)" "$c" 'version' 4 3 'unsupported version|version'
  poke "$s" "$c" 1 '0' && reject "$tag: wrong version (0)" "$c" 'version' 4 3 'unsupported version|version'
  poke "$s" "$c" 4 'W + 1' && reject "$tag: wrong length (header one word more)" "$c" 'length' 16 5 'payload length|length'
  poke "$s" "$c" 4 'W - 1' && reject "$tag: wrong length (header one word less)" "$c" 'length' 16 5 'payload length|length'
  poke "$s" "$c" cut 4 && reject "$tag: wrong length (last word cut off)" "$c" 'length' 16 5 'payload length|length'
  poke "$s" "$c" add 1 && reject "$tag: wrong length (a word appended)" "$c" 'length' 16 5 'payload length|length'
  poke "$s" "$c" 0 'W ^ 0x20' && reject "$tag: wrong magic" "$c" 'magic|not a configuration stream' 0 2 'bad magic|magic'
done

# A WRAPPER payload byte past the sources (docs/stream.md: four sink
# selects a word, a byte each): stream-poke fixes the CRC, so the payload
# check itself must refuse it, at the packet's byte offset, in both.
s=$tmp/bx/config.bin
"$TCPA" stream-poke "$s" --fields >"$tmp/fields"
w=$(awk '$3 == "wrapper" && $8 == "sinks0-3" { print $1; exit }' "$tmp/fields")
pkt=$(awk -v w="$w" '$1 == w { print $2 }' "$tmp/fields")
hdr=$(awk -v p="$pkt" '$2 == p && $8 == "hdr0" { print $1 }' "$tmp/fields")
[ -n "$w" ] && [ "$hdr" = $((w - 4)) ] &&
  grep -q "^$w .* sinks0-3 0x[0-9a-f]* sink0@0:8 sink1@8:8 sink2@16:8 sink3@24:8$" "$tmp/fields"
check "bitextract: stream-poke --fields names the first WRAPPER word sinks0-3 with its four select bytes (word $w)" $?
"$TCPA" stream-poke "$s" --word "$w" --xor 0xff000000 -o "$tmp/wb.bin" >/dev/null 2>&1 &&
  reject "bitextract: WRAPPER sink 3 select byte xor 0xff (past the sources, CRC fixed)" "$tmp/wb.bin" \
    'sink 3 selects source' $((4 * hdr)) 10 'bad packet payload'

# GC start delays (docs/stream.md, docs/timing.md section 2): every PE of
# the packet's region must start within [0, 2^31 - 1] cycles (the delay
# counters); no control-signal history bounds them any more (gc.history
# 128 allowed 254 cycles at ii 2 before). bitextract on 1x2 has ii 2; the
# second PE's delay is delay0 + delay_col. stream-poke fixes the CRC, so
# the payload check refuses it, at the GC packet's byte offset, in the
# model and the RTL; accepted delays run (100000-cycle limit).
g=$(awk '$3 == "gc" && $8 == "delay_col" { print $1; exit }' "$tmp/fields")
ghdr=$(awk -v w="$g" '$1 == w { p = $2 } $8 == "hdr0" { h[$2] = $1 } END { print h[p] }' "$tmp/fields")
field() { awk -v f="$1" '$3 == "gc" && $8 == f { print $9; exit }' "$tmp/fields"; }
gii=$(( $(field ii) )) gd0=$(( $(field delay0) )) gdc=$(( $(field delay_col) ))
[ -n "$g" ] && [ -n "$ghdr" ] && [ "$gii" = 2 ] && [ "$gd0" = 0 ] && [ "$((gdc < 254))" = 1 ]
check "bitextract: the GC packet's delay_col is word $g (header word $ghdr), ii $gii, delay0 $gd0, delay_col $gdc" $?
for c in "2147483648 rejected" "-10 rejected" "255 accepted" "5000 accepted"; do
  set -- $c; v=$1
  "$TCPA" stream-poke "$s" --word "$g" --xor $(( (gdc ^ v) & 0xffffffff )) -o "$tmp/gd.bin" >/dev/null 2>&1
  check "bitextract: delay_col poked to $v" $?
  if [ "$2" = rejected ]; then
    reject "bitextract: GC start delay $v of PE (0,1) (2^31 - 1 at most, CRC fixed)" "$tmp/gd.bin" \
      "start delay -?[0-9]+ of PE \\(0,1\\) out of range" $((4 * ghdr)) 10 'bad packet payload'
    continue
  fi
  "$TCPA" sim "$tmp/gd.bin" --max-cycles 100000 --trace "$tmp/m.trace" >/dev/null 2>&1
  st=$?; [ $st -le 1 ] && grep -q "^$v start 0,1$" "$tmp/m.trace"
  check "bitextract: GC start delay $v of PE (0,1), beyond the former history, is accepted by the model, PE (0,1) starts in cycle $v (exit $st)" $?
  if fresh "$RTL"; then
    "$RTL" "$tmp/gd.bin" --max-cycles 100000 --trace "$tmp/r.trace" >/dev/null 2>"$tmp/err"
    st=$?
    [ $st -le 1 ] && grep -q "^$v start 0,1$" "$tmp/r.trace"
    check "bitextract: GC start delay $v of PE (0,1) is accepted by the RTL loader, PE (0,1) starts in cycle $v (exit $st)" $?
  fi
done

# GC steps (docs/stream.md): prod(bounds) + epilog is at most 2^32 - 1, the
# step counters' range. matmul N=M=K=2 on 1x1 has a 3-D GC (bounds 2 2 2,
# epilog E); bounds poked to 65536 x 65536 x 1 make 2^32 + E steps,
# 65536 x 32768 x 2 too (the product saturates in the RTL loader): refused
# by both at the GC packet's byte offset. (Accepted counts near the limit
# would run for 2^32 steps; tests/unit/test_stream.c checks 2^32 - 1.)
mkdir -p "$tmp/mm"
"$TCPA" run regress/programs/matmul.pla --engine model --out-dir "$tmp/mm" --param N=2 --param M=2 \
  --param K=2 --pes 1x1 --arch configs/default.ini >/dev/null 2>&1
check "matmul N=M=K=2 on 1x1: compiled and instantiated" $?
"$TCPA" stream-poke "$tmp/mm/config.bin" --fields >"$tmp/mfields"
mw() { awk -v f="$1" '$3 == "gc" && $8 == f { print $1; exit }' "$tmp/mfields"; }
b0=$(mw bound0) b1=$(mw bound1) b2=$(mw bound2)
mhdr=$(awk -v w="$b0" '$1 == w { p = $2 } $8 == "hdr0" { h[$2] = $1 } END { print h[p] }' "$tmp/mfields")
[ -n "$b0" ] && [ -n "$b1" ] && [ -n "$b2" ] && [ -n "$mhdr" ]
check "matmul: the GC packet's bounds are words $b0 $b1 $b2 (header word $mhdr)" $?
# bpoke IN OUT WORD VALUE: OUT is IN with bound word WORD (now 2) set to VALUE.
bpoke() {
  if [ "$4" = 2 ]; then cp "$1" "$2"; else "$TCPA" stream-poke "$1" --word "$3" --xor $(( 2 ^ $4 )) -o "$2"; fi
}
for c in "65536 65536 1" "65536 32768 2"; do
  set -- $c
  rm -f "$tmp"/s[123].bin
  bpoke "$tmp/mm/config.bin" "$tmp/s1.bin" "$b0" "$1" >/dev/null 2>&1 &&
    bpoke "$tmp/s1.bin" "$tmp/s2.bin" "$b1" "$2" >/dev/null 2>&1 &&
    bpoke "$tmp/s2.bin" "$tmp/s3.bin" "$b2" "$3" >/dev/null 2>&1
  check "matmul: bounds poked to $1 x $2 x $3" $?
  reject "matmul: GC of $1 x $2 x $3 steps plus epilog (2^32 - 1 at most, CRC fixed)" "$tmp/s3.bin" \
    "more than 4294967295 steps" $((4 * mhdr)) 10 'bad packet payload'
done
# 65535 x 65536 x 1 plus the epilog is below 2^32 - 1: both accept it and
# run (into the 300-cycle limit: exit 1, not 2).
rm -f "$tmp"/s[123].bin
bpoke "$tmp/mm/config.bin" "$tmp/s1.bin" "$b0" 65535 >/dev/null 2>&1 &&
  bpoke "$tmp/s1.bin" "$tmp/s2.bin" "$b1" 65536 >/dev/null 2>&1 &&
  bpoke "$tmp/s2.bin" "$tmp/s3.bin" "$b2" 1 >/dev/null 2>&1
check "matmul: bounds poked to 65535 x 65536 x 1" $?
"$TCPA" sim "$tmp/s3.bin" --max-cycles 300 >/dev/null 2>&1
st=$?; [ $st -eq 1 ]
check "matmul: 65535 x 65536 x 1 steps plus epilog is accepted by the model (exit $st: runs into the limit)" $?
if fresh "$RTL"; then
  "$RTL" "$tmp/s3.bin" --max-cycles 300 --trace "$tmp/r.trace" >/dev/null 2>"$tmp/err"
  st=$?; [ $st -eq 1 ] && grep -q '^0 start 0,0$' "$tmp/r.trace"
  check "matmul: 65535 x 65536 x 1 steps plus epilog is accepted by the RTL loader and starts (exit $st)" $?
fi
exit $fail
