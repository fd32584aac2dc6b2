#!/usr/bin/env bash
# covers: docs/user-guide.md "Options, --help and --version"
# options_cli.sh: the option syntax every `tcpa` subcommand shares
# (cli/cli_opt.h, docs/user-guide.md "Options"), table-driven. For
# each command: --help and -h print its usage on stdout, exit 0; an unknown
# option exits 2 naming it and pointing to 'tcpa CMD --help'; a valued
# option without its value exits 2 naming it. Then, per command, one
# valued option given as `--opt=VALUE` and as `--opt VALUE` gives the same
# result (output and exit status), with a value the command can tell from
# its default. Also: `tcpa --version` / `-V` print `tcpa X.Y.Z (git REV)`;
# `--` ends the options; a flag given a value, an ambiguous abbreviation
# and a bad integer value exit 2. Prints TAP lines.
#
# Environment: TCPA (default build/bin/tcpa). Runs from the repository root.
. "$(dirname "$0")/tap.sh"
set -u
[ -x "$TCPA" ] || { echo "not ok 1 - $TCPA is not built"; exit 1; }

# Runs tcpa with the given arguments; sets $rc and the files out, err.
t() { timeout 60 "$TCPA" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }

# --- --help, unknown option, missing value: every command ---------------
# COMMAND | an option that takes a value ("-" when none does) | first argument
while IFS='|' read -r cmd valued first; do
  t "$cmd" --help
  check_eval "$cmd --help: exit 0, usage on stdout" \
    '[ $rc -eq 0 ] && grep -q "^usage: tcpa $cmd" "$tmp/out" && [ ! -s "$tmp/err" ]'
  t "$cmd" -h
  check_eval "$cmd -h: exit 0, usage on stdout" '[ $rc -eq 0 ] && grep -q "^usage: tcpa $cmd" "$tmp/out"'
  t "$cmd" "$first" --frobnicate
  check_eval "$cmd --frobnicate: exit 2, named, points to --help" \
    "[ \$rc -eq 2 ] && grep -qF \"$cmd: unknown option '--frobnicate' (see 'tcpa $cmd --help')\" \"\$tmp/err\""
  t "$cmd" "$first" -Z
  check_eval "$cmd -Z: exit 2, named" "[ \$rc -eq 2 ] && grep -qF \"unknown option '-Z'\" \"\$tmp/err\""
  [ "$valued" = - ] && continue
  t "$cmd" "$first" "$valued"
  check_eval "$cmd $valued without its value: exit 2, named, points to --help" \
    "[ \$rc -eq 2 ] && grep -qF -- \"$cmd: $valued needs a value (see 'tcpa $cmd --help')\" \"\$tmp/err\""
done <<'EOF'
check|-|x.in
run|--seed|x.in
compile|--map|x.in
instantiate|--pes|x.in
sim|--max-cycles|x.in
arch|-o|x.in
asm|--arch|x.in
disasm|-o|x.in
cosim-check|--window|x.in
signoff|--timeout|--arch=x.ini
wave|-|x.in
stream-poke|--word|x.in
harness|--kind|--check
regress|--timeout|x.suite
EOF

# --- `--opt=VALUE` and `--opt VALUE` agree ------------------------------
M=regress/programs/matmul.pla B=regress/programs/bitextract.pla
"$TCPA" compile $B -o "$tmp/b.sym" >/dev/null &&
  "$TCPA" instantiate "$tmp/b.sym" --param N=13 --pes 1x2 -o "$tmp/b.bin" >/dev/null &&
  "$TCPA" sim "$tmp/b.bin" --trace "$tmp/b.trace" >/dev/null &&
  "$TCPA" disasm "$tmp/b.bin" -o "$tmp/b.tasm"
check "set-up: bitextract compiled, instantiated on 1x2, simulated, disassembled" $?

# both NAME WANT EQ SP ARGS...: runs `tcpa ARGS...` twice, with the
# placeholder @ in ARGS replaced by EQ ("--opt=V", one argument), then by
# the words of SP ("--opt V"); records ok when both exit with WANT and
# print the same stdout and stderr.
both() {
  local name=$1 want=$2 eq=$3 sp=$4 i; shift 4
  local a1=() a2=()
  for i in "$@"; do
    if [ "$i" = @ ]; then a1+=("$eq"); read -r -a w <<<"$sp"; a2+=("${w[@]}"); else a1+=("$i"); a2+=("$i"); fi
  done
  t "${a1[@]}"; local r1=$rc; same_text "$tmp/o1" "$tmp/e1"
  t "${a2[@]}"; local r2=$rc; same_text "$tmp/o2" "$tmp/e2"
  check_eval "$name: '$eq' and '$sp' (exit $r1 and $r2, want $want)" \
    '[ $r1 -eq $want ] && [ $r2 -eq $want ] && cmp -s "$tmp/o1" "$tmp/o2" && cmp -s "$tmp/e1" "$tmp/e2"'
}

# Copies the last stdout and stderr to $1 and $2 without what changes from
# run to run: wall times (decimal fractions).
same_text() {
  sed -E 's/[0-9]+\.[0-9]+/N/g' "$tmp/out" >"$1"
  sed -E 's/[0-9]+\.[0-9]+/N/g' "$tmp/err" >"$2"
}
P3="--param N=3 --param M=4 --param K=5"
both "run --engine" 0 --engine=ref "--engine ref" run $M $P3 @
t run $M $P3 --engine=ref --seed=7 --out-dir="$tmp/r7"
check_eval "run --seed=7 --out-dir=DIR: summary.json has seed 7" \
  '[ $rc -eq 0 ] && grep -q "\"seed\": *7" "$tmp/r7/summary.json"'
both "run --pes (region past the array: exit 3)" 3 --pes=9x1 "--pes 9x1" run $M $P3 --engine ref @
both "compile --map" 0 --map=0 "--map 0" compile $B -o "$tmp/c.sym" @
both "compile --map (unknown dimension: exit 2)" 2 --map=z "--map z" compile $B -o "$tmp/c.sym" @
both "instantiate --pes" 0 --pes=1x2 "--pes 1x2" instantiate "$tmp/b.sym" --param N=13 -o "$tmp/i.bin" @
both "instantiate --param" 0 --param=N=13 "--param N=13" instantiate "$tmp/b.sym" --pes 1x2 -o "$tmp/i.bin" @
both "sim --max-cycles (timeout: exit 1)" 1 --max-cycles=5 "--max-cycles 5" sim "$tmp/b.bin" @
grep -q "not done within 5 cycles" "$tmp/out"; check "sim --max-cycles 5: not done within 5 cycles" $?
both "arch -o (attached and separate)" 0 "-o$tmp/p.sv" "-o $tmp/p.sv" arch configs/default.ini --sv @
both "asm --arch" 0 --arch=configs/default.ini "--arch configs/default.ini" asm "$tmp/b.tasm" -o "$tmp/a.bin" @
cmp -s "$tmp/a.bin" "$tmp/b.bin"; check "asm of disasm: the same stream" $?
both "disasm --arch (another architecture: exit 2)" 2 --arch=configs/big1d.ini "--arch configs/big1d.ini" disasm "$tmp/b.bin" @
both "cosim-check --window" 0 --window=3 "--window 3" cosim-check "$tmp/b.trace" "$tmp/b.trace" @
both "cosim-check --window (out of range: exit 2)" 2 --window=0 "--window 0" cosim-check "$tmp/b.trace" "$tmp/b.trace" @
both "signoff --timeout (0: exit 2)" 2 --timeout=0 "--timeout 0" signoff --arch configs/default.ini @
both "stream-poke --word" 0 --word=6 "--word 6" stream-poke "$tmp/b.bin" --xor 1 -o "$tmp/p.bin" @
both "stream-poke --xor" 0 --xor=0x10 "--xor 0x10" stream-poke "$tmp/b.bin" --word 7 -o "$tmp/p.bin" @

# --- values, flags, abbreviations, `--` ----------------------------------
t cosim-check "$tmp/b.trace" "$tmp/b.trace" --window 12x
check_eval "--window 12x: exit 2, the range and the value" \
  "[ \$rc -eq 2 ] && grep -qF \"cosim-check: --window: expected a number from 1 to 100000, got '12x'\" \"\$tmp/err\""
t stream-poke "$tmp/b.bin" --word 010 --xor 1 -o "$tmp/p.bin"
check_eval "--word 010 (octal-looking): exit 2" '[ $rc -eq 2 ] && grep -q "got .010." "$tmp/err"'
t check $B --dot=yes
check_eval "check --dot=yes: exit 2, the flag takes no value" \
  "[ \$rc -eq 2 ] && grep -qF \"option '--dot' takes no value\" \"\$tmp/err\""
t run $M $P3 --eng=ref
check_eval "run --eng=ref (an unambiguous abbreviation): exit 0" '[ $rc -eq 0 ]'
t run $M $P3 --p=3
check_eval "run --p=3 (--param or --pes): exit 2, ambiguous" \
  "[ \$rc -eq 2 ] && grep -qF \"option '--p' is ambiguous\" \"\$tmp/err\""
t check -- -dash.pla
check_eval "check -- -dash.pla: after --, an argument is a program, not an option" \
  '[ $rc -eq 2 ] && grep -q -- "-dash.pla" "$tmp/err" && ! grep -q "unknown option" "$tmp/err"'
t check --dot $B
check_eval "check --dot PROG (option before the program): exit 0, DOT" '[ $rc -eq 0 ] && grep -q "^digraph" "$tmp/out"'
t arch configs/default.ini configs/big1d.ini
check_eval "arch with two files: exit 2, both named" \
  '[ $rc -eq 2 ] && grep -q "default.ini" "$tmp/err" && grep -q "big1d.ini" "$tmp/err"'

# --- tcpa --version --------------------------------------------------------
re='^tcpa [0-9]+\.[0-9]+\.[0-9]+ \(git ([0-9a-f]{7,}(-dirty)?|unknown)\)$'
for v in --version -V; do
  t $v
  check_eval "tcpa $v: exit 0, 'tcpa X.Y.Z (git REV)' ($(cat "$tmp/out"))" \
    '[ $rc -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] && grep -Eq "$re" "$tmp/out"'
done
t --frobnicate
check_eval "tcpa --frobnicate: exit 2, unknown option" "[ \$rc -eq 2 ] && grep -qF \"unknown option '--frobnicate'\" \"\$tmp/err\""
exit $fail
