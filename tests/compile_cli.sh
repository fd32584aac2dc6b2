#!/usr/bin/env bash
# compile_cli.sh: `tcpa compile` end to end: the bounds and II printed for
# the running example, the .sym header, exit 3 with the resource named,
# exit 2 for bad input, no half-written output. Prints TAP lines.
set -u
. tests/tap.sh
out=$($TCPA compile regress/programs/bitextract.pla -o "$tmp/b.sym"); st=$?
check_eval "bitextract compiles (exit 0)" '[ $st -eq 0 ]'
check_eval "prints ResMII, RecMII and II" 'echo "$out" | grep -q "ResMII 2 (alu: 4 ops / 2 units), RecMII 2, II 2"'
check_eval ".sym starts with its version" '[ "$(head -1 "$tmp/b.sym")" = "tcpa-sym 1" ]'
fp=$($TCPA arch configs/default.ini --fingerprint 2>/dev/null | head -1)
check_eval ".sym holds the architecture fingerprint" 'grep -q "^arch-fingerprint" "$tmp/b.sym" && { [ -z "$fp" ] || grep -q "$fp" "$tmp/b.sym"; }'
check_eval ".sym ends with end" '[ "$(tail -1 "$tmp/b.sym")" = "end" ]'
printf '[pe]\nmul = 0\n' > "$tmp/nomul.ini"
err=$($TCPA compile regress/programs/matmul.pla --arch "$tmp/nomul.ini" -o "$tmp/m.sym" 2>&1); st=$?
check_eval "matmul with pe.mul = 0: exit 3" '[ $st -eq 3 ]'
check_eval "names the resource" 'echo "$err" | grep -q "functional units: .* pe.mul = 0"'
check_eval "no output left behind" '[ ! -e "$tmp/m.sym" ] && [ ! -e "$tmp/m.sym.tmp" ]'
printf '[pe]\nrd = 1\n' > "$tmp/rd1.ini"
err=$($TCPA compile regress/programs/fir.pla --arch "$tmp/rd1.ini" -o "$tmp/f.sym" 2>&1); st=$?
check_eval "fir with pe.rd = 1: exit 3, registers rd named" '[ $st -eq 3 ] && echo "$err" | grep -q "registers rd: needs [0-9]*, pe.rd = 1"'
$TCPA compile regress/programs/bitextract.pla --map z -o "$tmp/x.sym" 2>/dev/null; st=$?
check_eval "--map of an unknown dimension: exit 2" '[ $st -eq 2 ]'
$TCPA compile regress/programs/bitextract.pla 2>/dev/null; st=$?
check_eval "no -o: exit 2" '[ $st -eq 2 ]'
$TCPA compile "$tmp/none.pla" -o "$tmp/y.sym" 2>/dev/null; st=$?
check_eval "missing program: exit 2" '[ $st -eq 2 ]'
$TCPA compile --help | grep -q "usage: tcpa compile"; st=$?
check_eval "--help" '[ $st -eq 0 ]'
out=$($TCPA compile regress/programs/matmul.pla --map k -o "$tmp/mk.sym"); st=$?
check_eval "matmul --map k compiles" '[ $st -eq 0 ] && grep -q "^mapped 2 " "$tmp/mk.sym"'
echo "1..$n"
