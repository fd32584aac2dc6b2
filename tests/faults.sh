#!/usr/bin/env bash
# covers: docs/rtl.md "Fault injection",
#   docs/user-guide.md "Fault injection",
#   docs/trace.md "The lockstep checker and its report"
# faults.sh: fault injection; the lockstep checker must stop at the FIRST
# affected cycle (docs/rtl.md "Fault injection", docs/user-guide.md).
#
# (A) Corrupted streams. For bitextract on configs/default.ini (and, when
#     build/rtl/big1d/tcpa-rtl is built, other programs on configs/big1d.ini)
#     `tcpa run --engine model --out-dir` gives the clean stream and the clean
#     model trace. Each corruption is aimed at a field found through
#     `tcpa disasm` (which instruction) and `tcpa stream-poke --fields`
#     (which word, which bits), made with `tcpa stream-poke`, and checked
#     to have hit the intended field (the disassembly differs from the clean
#     one in exactly the expected way). The expected first affected cycle
#     and PE are computed here, independently of the checker, as the first
#     event where the model's trace of the clean stream and the model's
#     trace of the corrupted stream (`tcpa sim`) differ; the RTL then runs
#     the corrupted stream and `tcpa cosim-check clean-model.trace rtl.trace`
#     must exit 1 reporting exactly that cycle and PE. A corruption that
#     changes nothing observable is reported as such and not counted; at
#     least 6 distinct observable ones are required.
# (B) RTL mutants (build/rtl/mutants/tcpa-rtl, +define+TCPA_MUTANTS, selected
#     with +mutant=N, 22 of them, docs/rtl.md): each runs a stream on which
#     it matters in cosim against the model; the checker must report a
#     divergence, and where the first affected event can be derived from
#     the clean trace (and the disassembly) the reported cycle and PE must
#     be it; elsewhere the reported cycle must not precede the first cycle
#     in which the mutated logic can act.
# (B) is the full tier's (TCPA_TIER=full). A harness that does not build
# fails the checks that need it.
# Prints TAP lines.
set -u
TCPA=${TCPA:-build/bin/tcpa}
BUILD=${BUILD:-build}
tmp=$(mktemp -d); trap 'echo "1..$n"; rm -rf "$tmp"' EXIT  # the TAP plan, at the end
n=0 fail=0

# Prints one TAP line: check NAME STATUS.
# Returns STATUS.
check() {
  n=$((n + 1))
  if [ "$2" -eq 0 ]; then echo "ok $n - $1"; else echo "not ok $n - $1"; fail=1; fi
  return "$2"
}

# Prints one skipped TAP line: skip NAME REASON (a tool this machine lacks).
skip() {
  n=$((n + 1))
  echo "ok $n - $1 # SKIP $2"
}
# unbuilt WHAT: what a harness that did not build leaves untested fails.
unbuilt() { n=$((n + 1)); echo "not ok $n - $1: its harness did not build"; fail=1; }


# Returns 0 when the harness $1 exists and is not older than rtl/ and tb/.
# (`tcpa harness` below builds what is missing; the cache never holds a
# stale harness, so only a failed build leaves one out: a failure)
fresh() { [ -x "$1" ]; }

# Prints "CYCLE PLACE" of the first event in which trace $1 and trace $2
# differ, in the canonical order of docs/trace.md (cycle, event kind, row,
# column), or "none". PLACE is R,C or - (the whole machine).
first_diff() {
  awk '
    BEGIN { split("start sig step gc issue insn halt pop fdrd wr rf flag hop push fifo bank bankwr ag fault mem done", k, " ")
            for (i in k) rank[k[i]] = i }
    # Returns the sort key of event line l (cycle, kind, row, column).
    function key(l,   f, rc) {
      split(l, f, " ")
      if (f[3] == "-") return sprintf("%012d %02d %09d %09d", f[1], rank[f[2]], 999999999, 0)
      split(f[3], rc, ",")
      return sprintf("%012d %02d %09d %09d", f[1], rank[f[2]], rc[1], rc[2])
    }
    FNR == 1 { file++ }
    /^#/ || NF == 0 { next }
    file == 1 { a[++na] = $0 } file == 2 { b[++nb] = $0 }
    END {
      for (i = 1; i <= na || i <= nb; i++) {
        if (i <= na && i <= nb && a[i] == b[i]) continue
        if (i > na) l = b[i]; else if (i > nb) l = a[i]
        else l = (key(a[i]) <= key(b[i])) ? a[i] : b[i]
        split(l, f, " "); print f[1], f[3]; exit
      }
      print "none"
    }' "$1" "$2"
}

# Prints "CYCLE PLACE" of the divergence in cosim-check report $1, or "none".
reported() {
  sed -n -e 's/^lockstep: DIVERGENCE at cycle \([0-9]*\), PE (\([0-9]*,[0-9]*\))$/\1 \2/p' \
         -e 's/^lockstep: DIVERGENCE at cycle \([0-9]*\), the whole machine (-)$/\1 -/p' "$1" |
    head -n 1 | grep . || echo none
}

# Prints the pc of the first instruction matching ERE $2 in the $1-th
# (from 0) program block of disassembly $3, or nothing.
pc_of() {
  awk -v k="$1" -v re="$2" '
    /^program / { cur = ++np; next } /^[a-z]/ { cur = 0 }
    cur == k + 1 && $0 ~ re { sub(/.*\/\/ */, ""); print; exit }' "$3"
}

# Prints "WORD VALUE" of field $3 of the $2-th (from 0) packet of type $1
# in the word map $4 (stream-poke --fields), or nothing.
word_of() {
  awk -v t="$1" -v k="$2" -v fld="$3" '
    $3 == t && $8 == "hdr0" { seen++ }
    $3 == t && seen == k + 1 && $8 == fld { print $1, $9; exit }' "$4"
}

# Prints the low bit of bit field $2 of word $1 in word map $3, or nothing.
bit_of() {
  awk -v w="$1" -v name="$2" '
    $1 == w { for (i = 10; i <= NF; i++) { split($i, p, "[@:]")
              if (p[1] == name) { print p[2]; exit } } }' "$3"
}

# -- (A) corrupted streams ----------------------------------------------------
# Runs one corruption: corrupt NAME DIR WORD MASK EXPECT_ERE RTL ARCH.
# DIR holds the clean config.bin, model.trace, clean.dis, fields; the
# disassembly of the corrupted stream must differ from clean.dis in one line,
# which matches EXPECT_ERE ('' when disasm may reject it, e.g. a GC field it
# does not print). Counts the observable ones in $counted.
corrupt() {
  local name=$1 d=$2 word=$3 mask=$4 expect=$5 rtl=$6 arch=$7 c=$tmp/c
  rm -rf "$c"; mkdir -p "$c"
  if [ -z "$word" ]; then check "$name: the field was found in the stream" 1; return; fi
  "$TCPA" stream-poke "$d/config.bin" --word "$word" --xor "$mask" -o "$c/bad.bin" 2>"$c/err"
  check "$name: stream-poke word $word xor $mask" $?
  if [ -n "$expect" ]; then
    "$TCPA" disasm "$c/bad.bin" --arch "$arch" >"$c/bad.dis" 2>"$c/err"
    st=$?
    diff "$d/clean.dis" "$c/bad.dis" | grep '^>' >"$c/dd"
    [ $st -eq 0 ] && [ "$(wc -l <"$c/dd")" -eq 1 ] && grep -Eq "$expect" "$c/dd" || st=1
    check "$name: the disassembly changed in the aimed field only ($(sed 's/^> *//' "$c/dd" | head -1))" $st
  fi
  local max=$(( $(grep -c . "$d/model.trace") * 4 + 200 ))
  "$TCPA" sim "$c/bad.bin" --arch "$arch" --trace "$c/model.trace" --max-cycles $max >/dev/null 2>"$c/err"
  st=$?
  [ $st -le 1 ] && [ -s "$c/model.trace" ]
  check "$name: the model runs the corrupted stream (exit $st)" $? || return
  local want; want=$(first_diff "$d/model.trace" "$c/model.trace")
  if [ "$want" = none ]; then
    echo "# $name: no observable change (model traces of the clean and corrupted streams are equal); not counted"
    return
  fi
  counted=$((counted + 1))
  if ! fresh "$rtl"; then unbuilt "$name: RTL stops at cycle/PE $want"; return; fi
  "$rtl" "$c/bad.bin" --trace "$c/rtl.trace" --max-cycles $max >/dev/null 2>"$c/err"
  "$TCPA" cosim-check "$d/model.trace" "$c/rtl.trace" >"$c/report" 2>&1
  st=$?
  local got; got=$(reported "$c/report")
  [ $st -eq 1 ] && [ "$got" = "$want" ]
  check "$name: cosim-check exits 1 ($st) at the first affected cycle/PE: expected $want, reported $got" $?
}

# Makes the clean run of PROG ($1) on architecture $3 with ARGS in
# directory $2; returns its status.
clean_run() {
  local prog=$1 d=$2 arch=$3; shift 3
  mkdir -p "$d"
  "$TCPA" run "regress/programs/$prog.pla" --engine model --out-dir "$d" --arch "$arch" "$@" >"$d/run.log" 2>&1 &&
    "$TCPA" disasm "$d/config.bin" --arch "$arch" >"$d/clean.dis" 2>/dev/null &&
    "$TCPA" stream-poke "$d/config.bin" --fields >"$d/fields"
}

# Prints "WORD MASK" for flipping bit $3 of bit field $2 of word $1 in the
# map $4 (the field's low bit plus $3).
aim_bits() {
  local lo; lo=$(bit_of "$1" "$2" "$4")
  [ -n "$1" ] && [ -n "$lo" ] && echo "$1 $(( 1 << (lo + $3) ))"
}

# Prints the word of word $3 (w0..w3) of the instruction matching ERE $2 in
# program block $1 of directory $4.
insn_word() {
  local pc; pc=$(pc_of "$1" "$2" "$4/clean.dis")
  [ -n "$pc" ] && word_of program "$1" "pc$pc.$3" "$4/fields" | cut -d' ' -f1
}

D=$tmp/bx
counted=0
RTL=$("$TCPA" harness)
arch=configs/default.ini
clean_run bitextract "$D" $arch --param N=8 --pes 1x2 --seed 3
check "bitextract N=8 on 1x2 (default.ini): clean model run, disasm and word map" $?

# stream-poke itself: header words and words past the end exit 2 with no
# output; a payload poke keeps the stream loadable (CRC recomputed) and
# flips exactly the bits asked for; the clean stream agrees in cosim
last=$(( $(stat -c %s "$D/config.bin") / 4 - 1 ))
for bad in "--word 5 --xor 1" "--word 0 --xor 1" "--word $((last + 1)) --xor 1" "--word 6 --xor 0"; do
  "$TCPA" stream-poke "$D/config.bin" $bad -o "$tmp/p.bin" 2>"$tmp/err"
  [ $? -eq 2 ] && [ ! -e "$tmp/p.bin" ] && grep -q 'error' "$tmp/err"
  check "stream-poke $bad: exit 2, no output" $?
done
"$TCPA" stream-poke "$D/config.bin" --word $last --xor 0x80000000 -o "$tmp/p.bin" &&
  cmp -l "$D/config.bin" "$tmp/p.bin" | awk -v last=$last '
    $1 <= 24 && $1 > 20 { hdr++ } $1 <= 20 { other++ }
    $1 > 24 && int(($1 - 1) / 4) != last { other++ }
    END { exit !(hdr >= 1 && other == 0) }'
check "stream-poke: only word $last and the CRC (header word 5) change" $?
"$TCPA" stream-poke "$D/config.bin" --word 6 --xor 0x00010000 -o "$tmp/p.bin" &&
  "$TCPA" stream-poke "$tmp/p.bin" --word 6 --xor 0x00010000 -o "$tmp/p2.bin" && cmp -s "$D/config.bin" "$tmp/p2.bin"
check "stream-poke: the same poke twice restores the stream (CRC included)" $?
if fresh "$RTL"; then
  "$RTL" "$D/config.bin" --trace "$tmp/clean.rtl.trace" >/dev/null 2>&1 &&
    "$TCPA" cosim-check "$D/model.trace" "$tmp/clean.rtl.trace" >/dev/null
  check "the clean stream: RTL and model agree (cosim-check exit 0)" $?
else
  unbuilt "the clean stream: RTL and model agree"
fi

# the programs of the 1x2 region in stream order: alu0, alu1 of each
# processor class (one class since the last PE's channel write is widened:
# docs/instantiate.md "Channel writes on the far edge"); operand IDX is the
# low 5 bits of an operand (isa.h)
w=$(insn_word 0 'shr .*#1' w2 "$D")
corrupt "immediate (#1 -> #3 of the first shr, alu0 pe 0,0)" "$D" "$w" 2 '#3' "$RTL" $arch
set -- $(aim_bits "$(insn_word 0 'shr .*; br' w0 "$D")" op 0 "$D/fields")
corrupt "opcode (shr -> shl of the branching shr, alu0 pe 0,0)" "$D" "${1:-}" "${2:-0}" 'shl ' "$RTL" $arch
set -- $(aim_bits "$(insn_word 1 'and od1, rd0' w0 "$D")" srca 0 "$D/fields")
corrupt "source register (rd0 -> rd1 in the first and, alu1 pe 0,0)" "$D" "${1:-}" "${2:-0}" 'and od1, rd1' "$RTL" $arch
set -- $(aim_bits "$(insn_word 0 'mov rd0, id0' w0 "$D")" dst 0 "$D/fields")
corrupt "destination register (mov rd0 -> rd1, alu0 pe 0,0)" "$D" "${1:-}" "${2:-0}" 'mov rd1, id0' "$RTL" $arch
set -- $(aim_bits "$(insn_word 1 '; br ' w3 "$D")" bt0 0 "$D/fields")
corrupt "branch target (BT0 of the br, bit 0, alu1 pe 0,0)" "$D" "${1:-}" "${2:-0}" ' br ' "$RTL" $arch
# the second PE's alu0 when it has a program of its own (a processor class
# of its own); else alu0's one program, run by both PEs
if [ "$(grep -c '^program ' "$D/clean.dis")" -gt 2 ]; then blk=2 who="alu0 pe 0,1"; else blk=0 who="alu0 of both PEs"; fi
set -- $(aim_bits "$(insn_word $blk '; br ' w3 "$D")" bt0 1 "$D/fields")
corrupt "branch target (BT0 of the br, bit 1, $who)" "$D" "${1:-}" "${2:-0}" ' br ' "$RTL" $arch
set -- $(word_of gc 0 bound0 "$D/fields")
corrupt "GC bound0 (xor 1)" "$D" "${1:-}" 1 'bounds ' "$RTL" $arch
set -- $(word_of gc 0 delay_col "$D/fields")
corrupt "GC start delay delay_col (xor 1)" "$D" "${1:-}" 1 'delay ' "$RTL" $arch
set -- $(word_of ag 1 stride0 "$D/fields")
corrupt "AG stride0 of the write AG (xor 2)" "$D" "${1:-}" 2 'stride ' "$RTL" $arch
set -- $(word_of gc 0 term0.cons0.konst "$D/fields")
corrupt "GC signal term c0 constant (xor 1)" "$D" "${1:-}" 1 'term c0' "$RTL" $arch
set -- $(word_of regcfg 0 fd0.depth "$D/fields")
corrupt "fd0 depth (1 -> 3)" "$D" "${1:-}" 2 'fd0 = 3' "$RTL" $arch
[ $counted -ge 6 ]
check "at least 6 distinct observable corruptions on bitextract/default ($counted)" $?

# other programs on configs/big1d.ini (its harness): the full tier only
if [ "${TCPA_TIER:-fast}" = fast ]; then  # full and nightly tiers
  :
elif ! RTLB=$("$TCPA" harness --arch configs/big1d.ini) || ! fresh "$RTLB"; then
  unbuilt "corruptions of dotprod, fir, gcd on big1d.ini"
else
  arch=configs/big1d.ini
  for job in "dotprod 1x2 --param N=8" "fir 1x2 --param N=9 --param T=3" "gcd 1x2 --param N=4 --param S=6"; do
    set -- $job; prog=$1 pes=$2; shift 2
    D=$tmp/$prog; counted=0
    clean_run $prog "$D" $arch --pes $pes "$@"
    check "$prog on $pes (big1d.ini): clean model run, disasm and word map" $?
    w=; for k in $(seq 0 $(( $(grep -c '^program ' "$D/clean.dis") - 1 ))); do
      w=$(insn_word $k '#' w2 "$D"); [ -n "$w" ] && break
    done
    if [ -n "$w" ]; then
      corrupt "$prog: immediate of the first instruction with one (program $k)" "$D" "$w" 1 '#' "$RTLB" $arch
    else
      echo "# $prog: no instruction has an immediate; that corruption does not apply"
    fi
    set -- $(word_of gc 0 bound0 "$D/fields")
    corrupt "$prog: GC bound0 (xor 1)" "$D" "${1:-}" 1 'bounds ' "$RTLB" $arch
    set -- $(word_of ag 0 base "$D/fields")
    corrupt "$prog: base address of the first AG (xor 1)" "$D" "${1:-}" 1 'base ' "$RTLB" $arch
  done
fi

# -- (B) RTL mutants ------------------------------------------------------------
# Prints 1 when PE $1 (R,C) lies in the disassembly's rectangle $2
# (R[..R2],C[..C2]), else 0.
in_rect() {
  awk -v pe="$1" -v rect="$2" 'BEGIN {
    split(pe, p, ","); split(rect, q, ",")
    n = split(q[1], r, "\\.\\."); if (n == 1) r[2] = r[1]
    n = split(q[2], c, "\\.\\."); if (n == 1) c[2] = c[1]
    print (p[1] >= r[1] && p[1] <= r[2] && p[2] >= c[1] && p[2] <= c[2]) ? 1 : 0 }'
}

# Prints the FU number of FU name $1 (alu0.., mul0.., div0..) on $2 alus
# and $3 multipliers.
fu_number() {
  case $1 in
    alu*) echo "${1#alu}" ;; mul*) echo $(( $2 + ${1#mul} )) ;; div*) echo $(( $2 + $3 + ${1#div} )) ;;
  esac
}

# Prints the value of key $2 in section [pe] of architecture file $1.
pe_key() {
  awk -v k="$2" '/^\[/ { s = $0 } s == "[pe]" && $1 == k { print $3; exit }' "$1"
}

# Prints "CYCLE PLACE" where mutant 6 (br takes the other target) first
# shows in clean trace $1 of disassembly $2: one cycle after the first issue
# of a br whose targets differ (the next issue's pc changes); or "none".
derive_branch() {
  local nalu nmul; nalu=$(pe_key "$3" alu); nmul=$(pe_key "$3" mul)
  awk '/^program fu / { fu = $3; rect = $5; next } /^[a-z]/ { fu = "" }
       fu != "" && / br / { t = $0; sub(/.*\? */, "", t); split(t, tt, /[ :\/]+/)
                            if (tt[1] != tt[2]) { pc = $0; sub(/.*\/\/ */, "", pc); print fu, rect, pc } }' "$2" |
  while read -r fu rect pc; do
    f=$(fu_number "$fu" "$nalu" "$nmul")
    grep -v '^#' "$1" | awk -v f="$f" -v pc="$pc" '$2 == "issue" && $4 == f && $5 == pc { print $1 + 1, $3 }' |
      while read -r cyc pe; do [ "$(in_rect "$pe" "$rect")" = 1 ] && { echo "$cyc $pe"; break; }; done
  done | sort -n | head -n 1 | grep . || echo none
}

# Prints "CYCLE PLACE" where mutant 8 (the loader skips the first data word
# of each IODATA packet) first shows in clean trace $1 of disassembly $2:
# the first bank read of such a word (side, bank, start address, a PE of
# the packet's rectangle) whose clean value is not 0; or "none".
derive_iodata() {
  awk '/^iodata side / { side = $3; bank = $5; rect = $7; next }
       side != "" && $1 == "address" { print side, bank, rect, $2; side = "" }' "$2" |
  while read -r side bank rect addr; do
    grep -v '^#' "$1" | awk -v s="$side" -v b="$bank" -v a="$addr" \
      '$2 == "bank" && $4 == s && $5 == b && $6 == "rd" && $7 == a && $8 != "0x00000000" { print $1, $3 }' |
      while read -r cyc pe; do [ "$(in_rect "$pe" "$rect")" = 1 ] && { echo "$cyc $pe"; break; }; done
  done | sort -n | head -n 1 | grep . || echo none
}

# Prints "CYCLE PLACE" of the first line of clean trace $1 whose fields
# satisfy awk condition $2, or "none".
derive_first() {
  grep -v '^#' "$1" | awk "$2 { print \$1, \$3; found = 1; exit } END { if (!found) print \"none\" }"
}

# Runs mutant $1 ($2: its name) on stream $3 with clean model trace $4 in
# cosim; the checker must report a divergence, at "CYCLE PLACE" $5 when it
# is not "-" (derived independently), else when $6 is given at a cycle
# >= $6 (the first cycle in which the mutated logic can act).
mutant() {
  local m=$1 name=$2 bin=$3 clean=$4 want=$5 min=${6:-} c=$tmp/m$1
  mkdir -p "$c"
  "$MUT" "$bin" +mutant=$m --trace "$c/rtl.trace" --max-cycles 2000 >/dev/null 2>"$c/err"
  "$TCPA" cosim-check "$clean" "$c/rtl.trace" >"$c/report" 2>&1
  local st=$? got; got=$(reported "$c/report")
  echo "# mutant $m ($name): divergence reported at cycle/PE $got ($(sed -n 's/^  event: *//p' "$c/report"))"
  if [ "$want" != - ]; then
    [ $st -eq 1 ] && [ "$got" = "$want" ]
    check "mutant $m ($name): detected at the first affected cycle/PE (expected $want, reported $got, exit $st)" $?
  elif [ -n "$min" ]; then
    [ $st -eq 1 ] && [ "$got" != none ] && [ "${got%% *}" -ge "$min" ]
    check "mutant $m ($name): cosim-check detects it (exit $st) at $got, not before cycle $min where it can first act" $?
  else
    [ $st -eq 1 ] && [ "$got" != none ]
    check "mutant $m ($name): cosim-check detects it (exit $st, at $got)" $?
  fi
}

# Prints "CYCLE PLACE" of the first issue, in clean trace $1, of an
# instruction matching ERE $2 in disassembly $3 of architecture $4 (the
# FU, pc and rectangle of its program block), or "none".
first_issue_of() {
  local nalu nmul; nalu=$(pe_key "$4" alu); nmul=$(pe_key "$4" mul)
  awk -v re="$2" '/^program fu / { fu = $3; rect = $5; next } /^[a-z]/ { fu = "" }
       fu != "" && $0 ~ re { pc = $0; sub(/.*\/\/ */, "", pc); print fu, rect, pc }' "$3" |
  while read -r fu rect pc; do
    f=$(fu_number "$fu" "$nalu" "$nmul")
    grep -v '^#' "$1" | awk -v f="$f" -v pc="$pc" '$2 == "issue" && $4 == f && $5 == pc { print $1, $3 }' |
      while read -r cyc pe; do [ "$(in_rect "$pe" "$rect")" = 1 ] && { echo "$cyc $pe"; break; }; done
  done | sort -n | head -n 1 | grep . || echo none
}

# Prints "CYCLE PLACE" where mutant 19 (stride write lost: an AG's address
# stays at its first one) first shows in clean trace $1: the first change
# of an AG's address counter after cycle 0 (`ag`; at cycle 0 it is the
# base), or the first bank event of a bank (PE, side, bank, rd/wr) at
# another address than that bank's first event; or "none".
derive_stride() {
  grep -v '^#' "$1" | awk '$2 == "ag" && $1 > 0 { print $1, $3; found = 1; exit }
    $2 == "bank" { k = $3 " " $4 " " $5 " " $6
    if (!(k in a)) a[k] = $7; else if ($7 != a[k]) { print $1, $3; found = 1; exit } }
    END { if (!found) print "none" }'
}

# Prints "CYCLE PLACE" where mutant 12 (a one-condition br on c<k> reads
# c<k+1>) first shows in clean trace $1 of disassembly $2 (architecture
# $3): one cycle after the first issue of such a br whose two targets
# differ, in a cycle in which its PE sees c<k> and c<k+1> differ (the
# PE's signal vector followed through the `sig` events); or "none".
derive_brsel() {
  local nalu nmul; nalu=$(pe_key "$3" alu); nmul=$(pe_key "$3" mul)
  awk '/^program fu / { fu = $3; rect = $5; next } /^[a-z]/ { fu = "" }
       fu != "" && / br c[0-9]+ \? / { t = $0; sub(/.* br c/, "", t); k = t; sub(/ .*/, "", k)
         sub(/^[0-9]+ \? */, "", t); split(t, tt, /[ :\/]+/)
         if (k ~ /^[0-9]+$/ && tt[1] != tt[2]) { pc = $0; sub(/.*\/\/ */, "", pc); print fu, rect, pc, k } }' "$2" |
  while read -r fu rect pc k; do
    f=$(fu_number "$fu" "$nalu" "$nmul")
    grep -v '^#' "$1" | awk -v f="$f" -v pc="$pc" -v k="$k" '
      # Returns the value of hex literal s (0x...).
      function hex(s,   i, v) { v = 0; s = tolower(substr(s, 3))
        for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
        return v }
      # Returns bit b of v.
      function bit(v, b) { return int(v / 2 ^ b) % 2 }
      $2 == "sig" { sig[$3] = hex($4) }
      $2 == "issue" && $4 == f && $5 == pc && bit(sig[$3] + 0, k) != bit(sig[$3] + 0, k + 1) { print $1 + 1, $3 }' |
      while read -r cyc pe; do [ "$(in_rect "$pe" "$rect")" = 1 ] && { echo "$cyc $pe"; break; }; done
  done | sort -n | head -n 1 | grep . || echo none
}

# Prints the cycle of "CYCLE PLACE" $1 plus $2, with its place.
shift_cycle() {
  [ "$1" = none ] && { echo none; return; }
  set -- $1 "$2"
  echo "$(($1 + $3)) $2"
}

# Makes stream $2/config.bin, its disassembly and its clean model trace
# from regress/streams/$1.tasm; returns the status.
tasm_run() {
  mkdir -p "$2"
  "$TCPA" asm "regress/streams/$1.tasm" -o "$2/config.bin" >/dev/null 2>&1 &&
    "$TCPA" disasm "$2/config.bin" >"$2/clean.dis" 2>/dev/null &&
    "$TCPA" sim "$2/config.bin" --trace "$2/model.trace" >/dev/null 2>&1
}

# (B) runs in the full tier: the mutants harness is a build of its own
# (minutes), which the fast tier leaves out (docs/testing.md "The budget")
D=$tmp/bx arch=configs/default.ini
if [ "${TCPA_TIER:-fast}" = fast ]; then  # full and nightly tiers
  :
elif ! MUT=$("$TCPA" harness --kind mutants) || ! fresh "$MUT"; then
  unbuilt "RTL mutants 1..22 in cosim"
else
  T=$D/model.trace
  "$MUT" "$D/config.bin" --trace "$tmp/m0.trace" >/dev/null 2>&1
  "$TCPA" cosim-check "$T" "$tmp/m0.trace" >/dev/null
  check "mutants build without +mutant: agrees with the model" $?
  "$MUT" "$D/config.bin" +mutant=0 --trace "$tmp/m00.trace" >/dev/null 2>&1
  if fresh "$RTL"; then
    "$RTL" "$D/config.bin" --trace "$tmp/d.trace" >/dev/null 2>&1
    cmp -s "$tmp/m0.trace" "$tmp/d.trace" && cmp -s "$tmp/m00.trace" "$tmp/d.trace"
    check "mutants build, no mutant and +mutant=0: the same trace as the rtl harness" $?
  fi
  nalu=$(pe_key $arch alu)
  mutant 1 "FU source mux: SRCB reads the register path for an immediate" "$D/config.bin" "$T" -
  mutant 2 "AG address off by one" "$D/config.bin" "$T" "$(derive_first "$T" '$2 == "bank"')"
  # (the FIFO's occupancy, docs/trace.md `fifo`: the first push, no longer
  # the first pop)
  mutant 3 "FIFO push dropped" "$D/config.bin" "$T" "$(derive_first "$T" '$2 == "fifo"')"
  # (the PE's vector, or the GC's as it computes it: `gc`)
  mutant 4 "control signal c0 stuck at 0" "$D/config.bin" "$T" \
    "$(derive_first "$T" '($2 == "sig" && index("13579bdf", substr($4, 10, 1))) ||
                         ($2 == "gc" && index("13579bdf", substr($5, 10, 1)))')"
  mutant 5 "ALU latency one cycle too long" "$D/config.bin" "$T" "$(derive_first "$T" "\$2 == \"wr\" && \$4 < $nalu")"
  mutant 6 "br takes the other target" "$D/config.bin" "$T" "$(derive_branch "$T" "$D/clean.dis" $arch)"
  # mutant 7 needs an fd deeper than 1: fd0 of the bitextract stream set to
  # depth 3 (no observable change in the model, part A)
  set -- $(word_of regcfg 0 fd0.depth "$D/fields")
  "$TCPA" stream-poke "$D/config.bin" --word "$1" --xor 2 -o "$tmp/fd3.bin" &&
    "$TCPA" sim "$tmp/fd3.bin" --trace "$tmp/fd3.trace" >/dev/null && [ -z "$(first_diff "$T" "$tmp/fd3.trace" | grep -v none)" ]
  check "fd0 depth 3 stream: the model's trace equals the clean one" $?
  mutant 7 "fd read pointer not advancing (fd0 depth 3)" "$tmp/fd3.bin" "$tmp/fd3.trace" -
  mutant 8 "loader skips the first IODATA data word" "$D/config.bin" "$T" "$(derive_iodata "$T" "$D/clean.dis")"

  # mutants 9..22; A: alu_single.tasm (alu and mul on one PE), G:
  # ag_bank.tasm (a FIFO popped on every iteration)
  A=$tmp/alu G=$tmp/agb
  tasm_run alu_single "$A"
  check "alu_single.tasm: assembled, disassembled, clean model trace" $?
  tasm_run ag_bank "$G"
  check "ag_bank.tasm: assembled, disassembled, clean model trace" $?
  TA=$A/model.trace TG=$G/model.trace
  latmul=$(awk '/^\[/ { s = $0 } s == "[latency]" && $1 == "mul" { print $3; exit }' $arch)
  lastcol=$(grep -v '^#' "$T" | awk '$2 == "start" { split($3, p, ","); if (p[2] > m) m = p[2] } END { print m + 0 }')
  mutant 9 "ALU result mux: and computes a | b" "$D/config.bin" "$T" - \
    "$(first_issue_of "$T" ' and ' "$D/clean.dis" $arch | cut -d' ' -f1)"
  mutant 10 "halt never latched: the FU runs on" "$A/config.bin" "$TA" \
    "$(shift_cycle "$(derive_first "$TA" '$2 == "halt"')" 1)"
  mutant 11 "latency off by one: the multiplier writes one cycle early" "$A/config.bin" "$TA" \
    "$(shift_cycle "$(derive_first "$TA" "\$2 == \"wr\" && \$4 >= $nalu")" -$(( latmul - 1 )))"
  mutant 12 "br reads condition sel0 + 1 (c1 for c0)" "$D/config.bin" "$T" "$(derive_brsel "$T" "$D/clean.dis" $arch)"
  # (the register as written, docs/trace.md `rf`: the first write of an
  # rd; the first write of a nonzero value to an od, which keeps its
  # reset value 0 in the mutant)
  mutant 13 "register write to the wrong index (rd k writes rd k^1)" "$A/config.bin" "$TA" \
    "$(derive_first "$TA" '$2 == "rf" && $4 ~ /^rd/')"
  mutant 14 "od values never updated (dropped register enable)" "$D/config.bin" "$T" \
    "$(derive_first "$T" '$2 == "rf" && $4 ~ /^od/ && $5 != "0x00000000"')"
  mutant 15 "no hop leaves a PE (link stage push dropped)" "$D/config.bin" "$T" "$(derive_first "$T" '$2 == "hop"')"
  mutant 16 "wrapper port swap: id0 and id1 crossed" "$D/config.bin" "$T" \
    "$(derive_first "$T" '$2 == "push" && ($4 == "id0" || $4 == "id1")')"
  mutant 17 "FIFO pop does not shift the data" "$G/config.bin" "$TG" - \
    "$(( $(derive_first "$TG" '$2 == "pop"' | cut -d' ' -f1) + 1 ))"
  mutant 18 "read AG token valid stuck at 0" "$D/config.bin" "$T" \
    "$(shift_cycle "$(derive_first "$T" '$2 == "bank" && $6 == "rd"')" 1)"
  mutant 19 "AG stride write lost" "$D/config.bin" "$T" "$(derive_stride "$T")"
  mutant 20 "control signal c1 stuck at 1" "$D/config.bin" "$T" "$(derive_first "$T" '$2 == "start"')"
  mutant 21 "START rectangle loses its last column" "$D/config.bin" "$T" \
    "$(derive_first "$T" "\$2 == \"start\" && \$3 ~ /,$lastcol\$/")"
  mutant 22 "delay counter restarts at 1: delayed units start early" "$D/config.bin" "$T" \
    "$(shift_cycle "$(derive_first "$T" '$1 > 0 && ($2 == "start" || $2 == "bank")')" -1)"
fi

exit $fail
