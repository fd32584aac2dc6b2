#!/usr/bin/env bash
# covers: docs/trace.md "Binary event stream", "Lockstep protocol",
#   docs/mutants.md
# cosim_binary.sh: the binary event stream between the harness and tcpa in
# cosim (docs/trace.md "Binary event stream", "Lockstep protocol"):
#   - rtl.trace of a cosim run (--out-dir), written by tcpa from the
#     records it read, is byte for byte the text `tcpa-rtl --trace` writes
#     for the same stream: a clean run (matmul on 4x4; bitextract N=4000 on
#     1x4, 8 MB of records, eight times the pipe), and runs stopped
#     at a divergence (the mutants below: the start of that text);
#   - (full tier) a mutant (the mutants harness, +mutant=N: docs/mutants.md) is caught
#     at the same cycle, place and event by cosim over the binary stream
#     as by `tcpa cosim-check` on the harness's text trace: mutant 9 (the
#     ALU's `and` computes a | b) and mutant 24 (tests/mutants.sh);
#   - a stream cut inside a record, a record with an unknown kind, a
#     header of another version, text where records were expected that is
#     not a trace, and a harness that does not know --trace-bin (as one
#     built before it: its error on stderr, no stream) each end the run
#     with exit 2, at once, and a message naming the harness and what is
#     wrong.
# Prints TAP lines.
set -u
. "$(dirname "$0")/tap.sh"
TCPA_ABS=$(cd "$(dirname "$TCPA")" && pwd)/$(basename "$TCPA")

# Prints the first divergence of the lockstep report in file $1: its
# cycle and PE, the event (kind, unit, how it differs), the model's and
# the RTL's event, on one line; "none" without one.
divergence() {
  awk '/lockstep: DIVERGENCE at cycle/ && !c { c = $5 " " $6 " " $7 }
       /^  (event|expected \(model\)|actual \(RTL\)):/ && c != "" && k < 3 { k++; sub(/^  */, ""); e = e " | " $0 }
       END { if (c == "") print "none"; else print c e }' "$1"
}

RTL=$(harness)
check "the rtl harness builds" $?
# the mutants harness in the full tier (a build of its own)
MUT=""
if full_tier; then
  MUT=$(harness "" mutants)
  check "the mutants harness builds" $?
fi

# -- rtl.trace of cosim = the harness's text ----------------------------------
mm=(regress/programs/matmul.pla --param N=4 --param M=4 --param K=5 --pes 4x4 --map 0,1)
if [ -x "$RTL" ]; then
  "$TCPA" run "${mm[@]}" --engine cosim --out-dir "$tmp/c" >"$tmp/c.out" 2>&1
  st=$?
  "$RTL" "$tmp/c/config.bin" --trace "$tmp/text.trace" >/dev/null 2>&1
  [ $st -eq 0 ] && [ -s "$tmp/c/rtl.trace" ] && cmp -s "$tmp/c/rtl.trace" "$tmp/text.trace" &&
    [ "$(grep -cv '^#' "$tmp/c/rtl.trace")" -gt 1000 ]
  ok=$?; check "cosim matmul 4x4: rtl.trace from the records = tcpa-rtl --trace, byte for byte ($(wc -l < "$tmp/c/rtl.trace") lines)" $ok
fi

# a long run: 8 MB of records through cosim's 1 MB pipe, each cycle's
# records one write(2) of the harness (past stdio), read back in pieces
# that cut records
be=(regress/programs/bitextract.pla --param N=4000 --pes 1x4)
if [ -x "$RTL" ]; then
  "$TCPA" run "${be[@]}" --engine cosim --out-dir "$tmp/l" >"$tmp/l.out" 2>&1
  st=$?
  "$RTL" "$tmp/l/config.bin" --trace "$tmp/long.trace" --trace-bin "$tmp/long.bin" >/dev/null 2>&1
  [ $st -eq 0 ] && cmp -s "$tmp/l/rtl.trace" "$tmp/long.trace" && [ "$(wc -c < "$tmp/long.bin")" -gt 4200000 ]
  ok=$?; check "cosim bitextract N=4000 1x4: $(wc -c < "$tmp/long.bin") bytes of records through the pipe, rtl.trace = tcpa-rtl --trace" $ok
fi
# -- a mutant is caught at the same cycle and event, binary and text ---------
bx=(regress/programs/bitextract.pla --param N=8 --pes 1x2)
if [ -n "$MUT" ] && [ -x "$MUT" ]; then
  for m in 9 24; do
    printf '#!/bin/sh\nexec "%s" "$@" +mutant=%s\n' "$MUT" "$m" > "$tmp/mut$m.sh"
    chmod +x "$tmp/mut$m.sh"
    TCPA_RTL=$tmp/mut$m.sh "$TCPA" run "${bx[@]}" --engine cosim --out-dir "$tmp/m$m" >"$tmp/m$m.out" 2>&1
    st=$?
    "$TCPA" sim "$tmp/m$m/config.bin" --trace "$tmp/m$m.model" >/dev/null 2>&1
    "$tmp/mut$m.sh" "$tmp/m$m/config.bin" --trace "$tmp/m$m.text" --max-cycles 10000 >/dev/null 2>&1
    "$TCPA" cosim-check "$tmp/m$m.model" "$tmp/m$m.text" >"$tmp/m$m.check" 2>&1
    cst=$?
    bin=$(divergence "$tmp/m$m/divergence.txt") txt=$(divergence "$tmp/m$m.check")
    [ $st -eq 1 ] && [ $cst -eq 1 ] && [ "$bin" != none ] && [ "$bin" = "$txt" ]
    check "mutant $m: cosim over records and cosim-check over text agree: $bin" $?
    size=$(wc -c < "$tmp/m$m/rtl.trace")
    [ "$(grep -cv '^#' "$tmp/m$m/rtl.trace")" -gt 0 ] && head -c "$size" "$tmp/m$m.text" | cmp -s - "$tmp/m$m/rtl.trace"
    check "mutant $m: rtl.trace of the diverged run ($size bytes) = the start of the harness's text, byte for byte" $?
  done
fi

# -- broken streams: exit 2 at once, the harness named ------------------------
# fake.sh MODE: runs the real harness with its records into a file, then
# writes them to --trace-bin broken as MODE says.
if [ -x "$RTL" ]; then
  cat > "$tmp/fake.sh" <<EOF
#!/usr/bin/env bash
mode=\$(cat "$tmp/mode")
args=() live= prev=
for a in "\$@"; do
  if [ "\$prev" = --trace-bin ]; then live=\$a; args[\${#args[@]}-1]=--trace-bin; args+=("$tmp/rec.bin")
  else args+=("\$a"); fi
  prev=\$a
done
case \$mode in
  old) echo "tcpa-rtl: unknown or incomplete argument: --trace-bin" >&2; exit 3 ;;
esac
"$RTL" "\${args[@]}"; rc=\$?
case \$mode in
  cut) head -c \$((48 + 120 * 9 + 50)) "$tmp/rec.bin" > "\$live" ;;
  kind) { head -c \$((48 + 120 * 4 + 8)) "$tmp/rec.bin"; printf '\\143\\000\\000\\000'; tail -c +\$((48 + 120 * 4 + 13)) "$tmp/rec.bin"; } > "\$live" ;;
  version) { head -c 8 "$tmp/rec.bin"; printf '\\002\\000\\000\\000'; tail -c +13 "$tmp/rec.bin"; } > "\$live" ;;
  garbage) printf 'hello, world: no trace here, only some text, more than a header long\\n' > "\$live" ;;
esac
exit \$rc
EOF
  chmod +x "$tmp/fake.sh"
  for c in "cut|ends inside record 10 (50 of 120 bytes)" \
           "kind|binary event stream record 5: unknown event kind 99" \
           "version|binary event stream version 2 with 120-byte records" \
           "garbage|does not start with the binary event stream's header" \
           "old|unknown or incomplete argument: --trace-bin (exit 3, usage or I/O: if the harness was built before the binary event stream, rebuild it"; do
    mode=${c%%|*} want=${c#*|}
    echo "$mode" > "$tmp/mode"
    TCPA_RTL=$tmp/fake.sh timeout 120 "$TCPA" run "${bx[@]}" --engine cosim >"$tmp/b.out" 2>"$tmp/b.err"
    st=$?
    [ $st -eq 2 ] && grep -qF "$tmp/fake.sh" "$tmp/b.err" && grep -qF -- "$want" "$tmp/b.err"
    check "$mode stream: exit $st (2), names the harness and says '$want'" $?
  done
fi
exit $fail
