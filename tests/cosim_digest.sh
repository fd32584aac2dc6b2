#!/usr/bin/env bash
# covers: docs/trace.md "Digest stream", "Lockstep protocol"
# cosim_digest.sh: cosim's digest stream (docs/trace.md "Digest stream"):
#   - `tcpa run --engine cosim` without --out-dir starts the harness with
#     --trace-mode digest and passes; with --out-dir it compares events
#     (no --trace-mode) and keeps rtl.trace;
#   - the harness's digest stream of a run holds one digest record per
#     cycle with events, whose counts add up to the events of the same
#     run's text trace, and one full record per done, fault and bank write
#     of that trace; its size is a small part of the event stream's;
#   - an input word flipped in the stream the RTL gets (a wrapper around
#     the harness), and (full tier) a mutant (the mutants harness,
#     +mutant=26: the multiplier computes
#     a * a) is caught by its digest at the cycle of the first divergent
#     event, then reported, after the repeated run, as the run comparing
#     events (--out-dir) reports it: same cycle, place and event, exit 1;
#   - a digest stream that disagrees with the events it stands for (a
#     wrapper flips a bit of the first digest record; the repeated run
#     gets the true events) is an error of the testbench: exit 2 and the
#     message says so, never a pass;
#   - `--engine rtl` refuses a digest stream cut inside a record (exit 2,
#     "ends inside record").
# Prints TAP lines.
set -u
. "$(dirname "$0")/tap.sh"

# Prints the first divergence of the lockstep report in file $1: its
# cycle and PE and the event line; "none" without one.
divergence() {
  awk '/lockstep: DIVERGENCE at cycle/ && !c { c = $5 " " $6 " " $7 }
       /^  event:/ && c != "" && !k { k = 1; sub(/^  */, ""); e = $0 }
       END { if (c == "") print "none"; else print c " | " e }' "$1"
}

# Prints, for the binary stream $1 (48-byte header, 120-byte records), one
# line per record: its cycle, kind and num (offset 56).
records() {
  tail -c +49 "$1" | od -An -v -t u4 -w120 | awk '{ print $1 + 4294967296 * $2, $3, $15 }'
}

RTL=$(harness)
check "the rtl harness builds" $?
# the mutants harness in the full tier (a build of its own)
MUT=""
if full_tier; then
  MUT=$(harness "" mutants)
  check "the mutants harness builds" $?
fi

# Writes the script $tmp/$1.sh that logs its arguments to $tmp/$1.args and
# runs harness $2 with them and the extra arguments $3...
wrapper() {
  local name=$1 bin=$2; shift 2
  printf '#!/bin/sh\necho "$@" >> "%s"\nexec "%s" "$@" %s\n' "$tmp/$name.args" "$bin" "$*" > "$tmp/$name.sh"
  chmod +x "$tmp/$name.sh"
}

mm=(regress/programs/matmul.pla --param N=4 --param M=4 --param K=5 --pes 4x4 --map 0,1)
mm22=(regress/programs/matmul.pla --param N=3 --param M=3 --param K=3 --pes 2x2 --map 0,1)

# -- the digest run passes; --out-dir compares events ---------------------------
if [ -x "$RTL" ]; then
  wrapper log "$RTL"
  TCPA_RTL=$tmp/log.sh "$TCPA" run "${mm[@]}" --engine cosim >"$tmp/d.out" 2>&1
  st=$?
  [ $st -eq 0 ] && grep -q "cosim     traces agree" "$tmp/d.out" && grep -q -- "--trace-mode digest" "$tmp/log.args"
  check "cosim without --out-dir: digest stream (--trace-mode digest), pass (exit $st)" $?
  : > "$tmp/log.args"
  TCPA_RTL=$tmp/log.sh "$TCPA" run "${mm[@]}" --engine cosim --out-dir "$tmp/e" >"$tmp/e.out" 2>&1
  st=$?
  [ $st -eq 0 ] && ! grep -q -- "--trace-mode" "$tmp/log.args" && [ -s "$tmp/e/rtl.trace" ]
  check "cosim with --out-dir: events compared (no --trace-mode), rtl.trace kept (exit $st)" $?

  # -- the digest stream against the text trace of the same run ---------------
  "$RTL" "$tmp/e/config.bin" --trace "$tmp/t.trace" --trace-bin "$tmp/t.dg" --trace-mode digest >/dev/null 2>&1
  st=$?
  "$RTL" "$tmp/e/config.bin" --trace-bin "$tmp/t.ev" >/dev/null 2>&1
  records "$tmp/t.dg" > "$tmp/t.rec"
  ev=$(grep -cv '^#' "$tmp/t.trace")
  cyc=$(grep -v '^#' "$tmp/t.trace" | awk '{ print $1 }' | sort -u | wc -l)
  full=$(grep -v '^#' "$tmp/t.trace" | awk '$2 == "done" || $2 == "fault" || ($2 == "bank" && $6 == "wr")' | wc -l)
  read -r drec dsum frec < <(awk '$2 == 256 { n++; s += $3; next } { f++ } END { print n + 0, s + 0, f + 0 }' "$tmp/t.rec")
  dg=$(wc -c < "$tmp/t.dg") evb=$(wc -c < "$tmp/t.ev")
  [ $st -eq 0 ] && [ "$(head -c 8 "$tmp/t.dg")" = "tcpa-dg" ] && [ "$drec" -eq "$cyc" ] && [ "$dsum" -eq "$ev" ] &&
    [ "$frec" -eq "$full" ] && [ "$full" -gt 0 ] && [ $((dg * 10)) -lt "$evb" ]
  check "digest stream: $drec digest records for $cyc cycles with events, counts $dsum of $ev events, $frec of $full done/fault/bank-wr records, $dg bytes (events: $evb)" $?
fi

# digest_vs_events NAME HARNESS TAG: mm22 in cosim on HARNESS (TCPA_RTL),
# without --out-dir (the digest stream) and with it (events); one check:
# both exit 1, the digests differ in a cycle and the report names the
# same first divergence, in that cycle, as the events run's.
digest_vs_events() {
  local name=$1 h=$2 tag=$3 st st2 got want dcyc
  TCPA_RTL=$h "$TCPA" run "${mm22[@]}" --engine cosim >"$tmp/$tag.out" 2>&1
  st=$?
  TCPA_RTL=$h "$TCPA" run "${mm22[@]}" --engine cosim --out-dir "$tmp/${tag}e" >"$tmp/${tag}e.out" 2>&1
  st2=$?
  got=$(divergence "$tmp/$tag.out") want=$(divergence "$tmp/${tag}e.out")
  dcyc=$(sed -n 's/^lockstep: the digests of cycle \([0-9]*\) differ.*/\1/p' "$tmp/$tag.out")
  [ $st -eq 1 ] && [ $st2 -eq 1 ] && [ "$got" != none ] && [ "$got" = "$want" ] && [ -n "$dcyc" ] &&
    [ "${got%% *}" = "$dcyc," ]
  check "$name: digests differ at cycle ${dcyc:-none}; reported as with events: $got (exit $st, events $st2: $want)" $?
}

# -- a real divergence: the RTL runs the stream with its first IODATA word
# flipped (a wrapper around the harness pokes the stream it is given);
# caught by the digest, reported as by the events ------------------------------
if [ -x "$RTL" ]; then
  cat > "$tmp/poke.sh" <<EOF
#!/usr/bin/env bash
# the stream is the harness's first argument
s=\$1; shift
w=\$("$TCPA" stream-poke "\$s" --fields | awk '\$3 == "iodata" && \$8 == "data0" { print \$1; exit }')
"$TCPA" stream-poke "\$s" --word "\$w" --xor 1 -o "\$s.poked.bin" >/dev/null || exit 3
exec "$RTL" "\$s.poked.bin" "\$@"
EOF
  chmod +x "$tmp/poke.sh"
  digest_vs_events "an input word flipped in the RTL's stream" "$tmp/poke.sh" p
fi

# -- a mutant (full tier): caught by the digest, reported as by the events -------
if [ -n "$MUT" ] && [ -x "$MUT" ]; then
  wrapper mut26 "$MUT" +mutant=26
  digest_vs_events "mutant 26" "$tmp/mut26.sh" m
fi

# -- a digest that lies: the testbench's error, not a pass ---------------------
if [ -x "$RTL" ]; then
  cat > "$tmp/liar.sh" <<EOF
#!/usr/bin/env bash
# runs the harness; in digest mode flips a bit of the first digest record
args=("\$@"); live=; digest=0; prev=
for ((i = 0; i < \${#args[@]}; i++)); do
  a=\${args[i]}
  if [ "\$prev" = --trace-bin ]; then live=\$a; args[i]=$tmp/liar.bin; fi
  [ "\$a" = digest ] && digest=1
  prev=\$a
done
[ \$digest = 1 ] || exec "$RTL" "\$@"
"$RTL" "\${args[@]}"; rc=\$?
off=\$(tail -c +49 $tmp/liar.bin | od -An -v -t u4 -w120 | awk '\$3 == 256 { print 48 + 120 * (NR - 1) + 112; exit }')
b=\$(od -An -t u1 -j "\$off" -N 1 $tmp/liar.bin | tr -d ' ')
printf "\\\\\$(printf %03o \$((b ^ 1)))" | dd of=$tmp/liar.bin bs=1 seek="\$off" conv=notrunc 2>/dev/null
cat $tmp/liar.bin > "\$live"
exit \$rc
EOF
  chmod +x "$tmp/liar.sh"
  TCPA_RTL=$tmp/liar.sh "$TCPA" run "${mm22[@]}" --engine cosim >"$tmp/l.out" 2>&1
  st=$?
  [ $st -eq 2 ] && grep -q "differ but the events agree" "$tmp/l.out" && ! grep -q "verdict   pass" "$tmp/l.out"
  ok=$?; check "a digest record that disagrees with its events: exit 2 ($st), '$(grep -o 'the digests of cycle [0-9]* differ but[^(]*' "$tmp/l.out" | head -1)'" $ok
fi

# -- the rtl engine's digest stream, cut short ---------------------------------
if [ -x "$RTL" ]; then
  cat > "$tmp/cut.sh" <<EOF
#!/usr/bin/env bash
# runs the harness, then cuts its --trace-bin file 10 bytes short
prev=; for a in "\$@"; do [ "\$prev" = --trace-bin ] && out=\$a; prev=\$a; done
"$RTL" "\$@"; rc=\$?
truncate -s -10 "\$out"
exit \$rc
EOF
  chmod +x "$tmp/cut.sh"
  TCPA_RTL=$tmp/cut.sh "$TCPA" run "${mm22[@]}" --engine rtl >"$tmp/c.out" 2>&1
  st=$?
  [ $st -eq 2 ] && grep -q "ends inside record [0-9]* (110 of 120 bytes)" "$tmp/c.out"
  ok=$?; check "rtl engine: a digest stream cut inside a record is refused (exit $st): $(grep -o 'ends inside record.*' "$tmp/c.out" | head -1)" $ok
fi
exit $fail
