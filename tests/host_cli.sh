#!/usr/bin/env bash
# covers: docs/runtime.md "Host programs"
# host_cli.sh: `tcpa host` (compiler/host/host_gen.c), the C host program
# it writes for a loop program, built against the INSTALLED runtime as a
# team's own program would be, and run. TAP.
#   - help, missing -o, a bad --param: exit 0, 2, 2;
#   - matmul on 2x2 (--map i,j, N=6 M=5 K=4): DIR/matmul_host.c,
#     DIR/Makefile and DIR/matmul.sym, the .sym the one `tcpa compile`
#     writes for the same region and values; `make` in DIR with the
#     installed tcpa_rt.pc builds it without a warning (-Wall -Wextra);
#     its C on the inputs `tcpa run --engine ref` drew equals the
#     reference's C, file for file; then with other sizes given on its
#     command line (N=8 M=6 K=3, N=7 M=4 K=5: nothing compiled again) too;
#   - fibmix (tests/programs-extra) on 1x3 of tests/configs/u28.ini: the
#     architecture's path is embedded, its outputs equal the reference's;
#   - refusals: an input without --in, an unknown --param name, a region
#     outside the array: exit 2 with the reason, no output written;
#     fibmix on tests/configs/u66.ini (no divider): exit 3 and nothing
#     left in DIR.
# Environment: TCPA (default build/bin/tcpa), BUILD (default build).
set -u
. tests/tap.sh
root=$PWD

$TCPA host --help >"$tmp/help" 2>&1
st=$?
check_eval "--help: exit 0, names -o DIR and --pes" "[ $st -eq 0 ] && grep -q -- '-o DIR' $tmp/help && grep -q -- '--pes' $tmp/help"
$TCPA host regress/programs/matmul.pla >/dev/null 2>"$tmp/err"
st=$?
check_eval "no -o: exit 2, says so" "[ $st -eq 2 ] && grep -q 'no output directory' $tmp/err"
$TCPA host regress/programs/matmul.pla --param N=x -o "$tmp/x" >/dev/null 2>"$tmp/err"
st=$?
check_eval "--param N=x: exit 2, names it ($(head -c 100 "$tmp/err"))" "[ $st -eq 2 ] && grep -q \"'x'\" $tmp/err && [ ! -e $tmp/x/Makefile ]"

# the installed runtime, as a team outside this tree would have it
make --no-print-directory -s install PREFIX="$tmp/pre" BUILD="${BUILD:-build}" >"$tmp/make.out" 2>&1
st=$?
check "make install PREFIX=... ($(tail -1 "$tmp/make.out"))" $st
export PKG_CONFIG_PATH=$tmp/pre/lib/pkgconfig

mm="--pes 2x2 --map i,j --param N=6 --param M=5 --param K=4"
$TCPA host regress/programs/matmul.pla $mm -o "$tmp/mm" >"$tmp/host.out" 2>&1
st=$?
check_eval "matmul 2x2: exit 0, DIR/matmul_host.c, Makefile, matmul.sym ($(tail -1 "$tmp/host.out"))" \
  "[ $st -eq 0 ] && [ -s $tmp/mm/matmul_host.c ] && [ -s $tmp/mm/Makefile ] && [ -s $tmp/mm/matmul.sym ]"
$TCPA compile regress/programs/matmul.pla $mm -o "$tmp/mm.sym" >/dev/null 2>&1
cmp -s "$tmp/mm.sym" "$tmp/mm/matmul.sym"
check "its matmul.sym is the one tcpa compile writes for that region and those values" $?
grep -q '^static const char sym_text\[\] =' "$tmp/mm/matmul_host.c" && grep -q '"program matmul\\n"' "$tmp/mm/matmul_host.c"
check "the host program embeds the .sym's text" $?
make --no-print-directory -C "$tmp/mm" >"$tmp/cc.out" 2>&1
st=$?
check_eval "make in DIR builds matmul_host against the installed runtime, no warning ($(grep -m2 -i 'warning\|error' "$tmp/cc.out"))" \
  "[ $st -eq 0 ] && [ -x $tmp/mm/matmul_host ] && ! grep -qi warning $tmp/cc.out"

# run SIZES...: the host program's C against the reference's for those sizes
run_mm() {
  local pa=() p
  for p in "$@"; do pa+=(--param "$p"); done
  rm -rf "$tmp/ref" "$tmp/out"
  $TCPA run regress/programs/matmul.pla --engine ref "${pa[@]}" --out-dir "$tmp/ref" >/dev/null 2>&1
  (cd "$tmp" && ./mm/matmul_host "${pa[@]}" --in A=ref/inputs/A.txt --in B=ref/inputs/B.txt --out-dir out) \
    >"$tmp/run.out" 2>&1
  local st=$?
  check_eval "matmul_host $*: exit 0, C equals the reference's ($(tail -1 "$tmp/run.out"))" \
    "[ $st -eq 0 ] && cmp -s $tmp/out/C.txt $tmp/ref/C.txt && grep -q 'done in [0-9]* cycles on 2x2@0,0' $tmp/run.out"
}
run_mm N=6 M=5 K=4
run_mm N=8 M=6 K=3
run_mm N=7 M=4 K=5

# refusals of the host program: the reason, nothing written
rm -rf "$tmp/out"
(cd "$tmp" && ./mm/matmul_host --param N=7 --param M=4 --param K=5 --in A=ref/inputs/A.txt --out-dir out) \
  >/dev/null 2>"$tmp/err"
st=$?
check_eval "no --in for B: exit 2, names B ($(head -c 100 "$tmp/err"))" \
  "[ $st -eq 2 ] && grep -q 'input B has no data file' $tmp/err && [ ! -e $tmp/out/C.txt ]"
(cd "$tmp" && ./mm/matmul_host --param Q=3) >/dev/null 2>"$tmp/err"
st=$?
check_eval "--param Q=3: exit 2, no such name ($(head -c 100 "$tmp/err"))" "[ $st -eq 2 ] && grep -q 'no such name' $tmp/err"
(cd "$tmp" && ./mm/matmul_host --pes 2x2@3,3 --in A=ref/inputs/A.txt --in B=ref/inputs/B.txt --out-dir out) \
  >/dev/null 2>"$tmp/err"
st=$?
check_eval "--pes 2x2@3,3 on the 4x4 array: exit 2, the runtime's refusal ($(head -c 120 "$tmp/err"))" \
  "[ $st -eq 2 ] && grep -q 'error: region: nofit: region 2x2@3,3 leaves the array' $tmp/err && [ ! -e $tmp/out/C.txt ]"

# another architecture: its path embedded
fib="tests/programs-extra/fibmix.pla"
$TCPA host $fib --arch tests/configs/u28.ini --pes 1x3 --param N=12 -o "$tmp/fib" >/dev/null 2>&1
st=$?
check_eval "fibmix on 1x3 of u28.ini: exit 0, the architecture's path embedded" \
  "[ $st -eq 0 ] && grep -q '^static const char \*arch_default = \"$root/tests/configs/u28.ini\";' $tmp/fib/fibmix_host.c"
make --no-print-directory -C "$tmp/fib" >"$tmp/cc.out" 2>&1
st=$?
check "fibmix_host builds ($(grep -m1 -i error "$tmp/cc.out"))" $st
$TCPA run $fib --arch tests/configs/u28.ini --param N=12 --engine ref --out-dir "$tmp/fref" >/dev/null 2>&1
ins=()
for f in "$tmp"/fref/inputs/*.txt; do ins+=(--in "$(basename "$f" .txt)=$f"); done
"$tmp/fib/fibmix_host" "${ins[@]}" --out-dir "$tmp/fout" >"$tmp/run.out" 2>&1
st=$?
same=1
for f in "$tmp"/fref/*.txt; do cmp -s "$f" "$tmp/fout/$(basename "$f")" || same=0; done
check_eval "fibmix_host: exit 0, every output equals the reference's ($(tail -1 "$tmp/run.out"))" \
  "[ $st -eq 0 ] && [ $same -eq 1 ] && ls $tmp/fref/*.txt >/dev/null"

# does not fit: exit 3, nothing left
$TCPA host $fib --arch tests/configs/u66.ini --pes 1x3 -o "$tmp/nofit" >/dev/null 2>"$tmp/err"
st=$?
check_eval "fibmix on u66.ini (no divider): exit 3, the resource named, nothing left in DIR" \
  "[ $st -eq 3 ] && grep -q 'div' $tmp/err && [ -z \"\$(ls -A $tmp/nofit 2>/dev/null)\" ]"
exit $fail
