#!/usr/bin/env bash
# covers: docs/user-guide.md "tcpa run", "Data files", "Exit status",
#   docs/symbolic.md "The mapping search"
# run_cli.sh: `tcpa run` as a command (docs/user-guide.md): exit statuses and
# messages of bad options, parameters, data files and engines; a good run
# and the files it writes to --out-dir; seeds (same seed, same inputs;
# different seed, different inputs; --in for one array leaves the random
# values of the others unchanged); and the matmul result against plain
# arithmetic done here in awk. Prints TAP lines.
#
# Environment: TCPA (default build/bin/tcpa). Runs from the repository root
# (configs/default.ini is the default architecture).
set -u
TCPA=${TCPA:-build/bin/tcpa}
MATMUL=regress/programs/matmul.pla
tmp=$(mktemp -d); trap 'echo "1..$n"; rm -rf "$tmp"' EXIT  # the TAP plan, at the end
n=0

# Records one check: ok when $1 is 0.
check() {
  n=$((n + 1))
  if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

# Runs tcpa run with the given arguments; sets $rc, $out, $err.
run() {
  timeout 20 "$TCPA" run "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
  out=$(cat "$tmp/out"); err=$(cat "$tmp/err")
}

# Checks that the last run exited with $1 and that stderr contains $2.
expect() {
  local want_rc=$1 want_msg=$2 name=$3
  [ "$rc" -eq "$want_rc" ] && grep -qF -- "$want_msg" "$tmp/err"
  local r=$?
  check $r "$name (exit $rc, want $want_rc)"
  [ $r -eq 0 ] || sed 's/^/#   /' "$tmp/err" | head -5
}

P3="--param N=3 --param M=4 --param K=5"

# --- options ---------------------------------------------------------
run --help
[ "$rc" -eq 0 ] && grep -q "usage: tcpa run" "$tmp/out"; check $? "--help prints the usage, exit 0"
run
expect 2 "no program given" "no program: exit 2"
run $MATMUL --engine ref $P3 --frobnicate
expect 2 "unknown option '--frobnicate'" "unknown option: exit 2, named"
run $MATMUL --engine ref $P3 --seed
expect 2 "--seed needs a value" "option without its value: exit 2"
run $MATMUL $MATMUL --engine ref $P3
expect 2 "more than one program" "two programs: exit 2"

# --- parameters ------------------------------------------------------
run $MATMUL --engine ref --param N=3 --param M=4
expect 2 "missing --param K=VALUE" "missing parameter: exit 2, named"
run $MATMUL --engine ref $P3 --param Q=2
expect 2 "has no parameter 'Q'" "unknown parameter: exit 2, named"
run $MATMUL --engine ref --param N=abc --param M=4 --param K=5
expect 2 "--param N=abc" "bad parameter value: exit 2, option named"
run $MATMUL --engine ref --param N --param M=4 --param K=5
expect 2 "--param: expected NAME=VALUE" "parameter without value: exit 2"
run $MATMUL --engine ref --param N=0 --param M=4 --param K=5
expect 2 "outside the parameter domain" "parameter outside the domain (N=0): exit 2"
run $MATMUL --engine ref $P3 --param N=2
expect 2 "--param N: given twice" "parameter given twice: exit 2"
printf 'program q(N) {\n  in int32 a[N];\n  out int32 r[N];\n  par (0 <= i < N, N >= 3) {\n    r[i] = a[i];\n  }\n}\n' >"$tmp/q.pla"
run "$tmp/q.pla" --engine ref --param N=2
expect 2 "outside the parameter domain" "parameter breaking a par constraint (N >= 3): exit 2"
run "$tmp/q.pla" --engine ref --param N=3
check $rc "parameter meeting the par constraint: exit 0"

# --- engines, region, map, seed ---------------------------------------
# (the engines themselves: tests/engine_cli.sh; gcd divides and the
# default architecture has no divider, pe.div = 0)
GCD="regress/programs/gcd.pla --param N=4 --param S=6"
run $GCD --engine model
expect 3 "pe.div = 0" "engine model, gcd on the default array: exit 3 naming pe.div"
# a run that does not fit writes summary.json with the no-fit record
# (docs/user-guide.md "summary.json"): gcd's two divisions, pe.div = 0
run $GCD --engine model --out-dir "$tmp/nofit"
python3 - "$tmp/nofit/summary.json" >"$tmp/nofit.txt" 2>&1 <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["nofit"]
print(d["status"], len(r), r[0]["resource"], r[0]["key"], r[0]["needed"], r[0]["available"], r[0]["where"],
      "pe.div = 0" in d["nofit_message"])
EOF2
check $([ $rc -eq 3 ] && [ "$(cat "$tmp/nofit.txt")" = "nofit 1 functional_units pe.div 2 0 div True" ]; echo $?) \
  "does not fit: summary.json says nofit, functional_units pe.div 2/0 ($(head -c 200 "$tmp/nofit.txt"))"
run $MATMUL --engine model $P3 --pes 9x1 --out-dir "$tmp/nofit2"
check $([ $rc -eq 3 ] && grep -q '"resource": "array_rows"' "$tmp/nofit2/summary.json" &&
        grep -q '"needed": 9' "$tmp/nofit2/summary.json"; echo $?) \
  "--pes larger than the array: summary.json's nofit names array_rows, 9 needed"
# an enable that is a union (band with W < N-1): the record names the
# program property and its counts, not a configuration key it cannot name
run regress/programs/band.pla --engine model --pes 1x1 --param N=5 --param W=2 --out-dir "$tmp/nofit3"
python3 - "$tmp/nofit3/summary.json" >"$tmp/nofit3.txt" 2>&1 <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["nofit"][0]
print(d["status"], r["resource"], repr(r["key"]), r["needed"], r["available"], "union of 3" in d["nofit_message"])
EOF2
check $([ $rc -eq 3 ] && [ "$(cat "$tmp/nofit3.txt")" = "nofit enable_form '' 3 1 True" ]; echo $?) \
  "band W=2: a union enable is enable_form 3/1, no key ($(head -c 200 "$tmp/nofit3.txt"))"
# the mapping search keeps the lowest II, not the first fit (docs/symbolic.md
# "The mapping search"): fir on 1x1 with pe.od = 3 first fits at II 3
# (rewrite level 2), its inputs read again at II 2, as with pe.od = 2
for od in 2 3; do
  sed "s/^od = 4 /od = $od /" configs/default.ini > "$tmp/od$od.ini"
  run regress/programs/fir.pla --arch "$tmp/od$od.ini" --param N=9 --param T=3 --pes 1x1 --engine model \
    --out-dir "$tmp/fod$od"
  check $([ $rc -eq 0 ] && grep -q '"ii": 2,' "$tmp/fod$od/summary.json"; echo $?) \
    "fir on 1x1, pe.od = $od: runs at II 2 ($(grep -o '"ii": [0-9]*' "$tmp/fod$od/summary.json" 2>/dev/null))"
done
run $GCD --engine rtl
expect 3 "does not fit" "engine rtl, gcd: exit 3 before the RTL is needed"
run $GCD
expect 3 "does not fit" "default engine (cosim), gcd: exit 3"
run $MATMUL --engine turbo $P3
expect 2 "--engine: expected ref, model, rtl, cosim or systemc" "unknown engine: exit 2"
run $MATMUL --engine ref $P3 --pes 2y3
expect 2 "--pes: expected RxC" "bad --pes: exit 2"
run $MATMUL --engine ref $P3 --pes 0x2
expect 2 "--pes: expected RxC" "--pes with zero rows: exit 2"
run $MATMUL --engine ref $P3 --pes 9x1
expect 3 "does not fit" "--pes larger than the array: exit 3"
run $MATMUL --engine ref $P3 --pes 2x2 --map i,j
check $rc "--pes 2x2 --map i,j: exit 0"
run $MATMUL --engine ref $P3 --map i,,j
expect 2 "--map: expected one or two loop indices" "bad --map syntax: exit 2"
run $MATMUL --engine ref $P3 --map i,j,k
expect 2 "--map: expected one or two" "--map with three indices: exit 2"
run $MATMUL --engine ref $P3 --map i,q
expect 2 "has no loop index 'q'" "--map with an unknown index: exit 2"
run $MATMUL --engine ref $P3 --pes 2x2 --map 0,2
check $rc "--pes 2x2 --map 0,2 (dimension numbers): exit 0"
run $MATMUL --engine ref $P3 --map 3
expect 2 "has no loop index '3'" "--map with a dimension number past the last: exit 2"
run $MATMUL --engine ref $P3 --map 1k
expect 2 "--map: expected one or two loop indices" "--map mixing digits and letters: exit 2"
run $MATMUL --engine ref $P3 --map j,j
expect 2 "named twice" "--map naming an index twice: exit 2"
run $MATMUL --engine ref $P3 --seed -3
expect 2 "--seed: expected a non-negative decimal integer" "bad --seed: exit 2"
run $MATMUL --engine ref $P3 --arch "$tmp/none.ini"
expect 2 "none.ini" "missing --arch file: exit 2, named"

# --- program errors --------------------------------------------------
printf 'program bad(N) {\n  out int32 r[N];\n  par (0 <= i < N) {\n    r[i] = ;\n  }\n}\n' >"$tmp/bad.pla"
run "$tmp/bad.pla" --engine ref --param N=2
expect 2 "bad.pla:4:" "syntax error in the program: exit 2 with file:line"
run "$tmp/missing.pla" --engine ref --param N=2
check $([ "$rc" -eq 2 ] && echo 0 || echo 1) "missing program file: exit 2"

# --- data files -------------------------------------------------------
printf '1 2 3 4 5\n6 7 8 9 10\n11 12 13 1x4 15\n' >"$tmp/A_bad.txt"
run $MATMUL --engine ref $P3 --in A="$tmp/A_bad.txt"
expect 2 "A_bad.txt:3:10: error" "bad token in a data file: exit 2 with file:line:col"
printf '1 2 3 4 5\n6 7 8 9 10\n11 12 13 14\n' >"$tmp/A_few.txt"
run $MATMUL --engine ref $P3 --in A="$tmp/A_few.txt"
expect 2 "expected 15 values, found 14" "too few values: exit 2, counts named"
printf '1 2 3 4 5\n6 7 8 9 10\n11 12 13 14 15\n16 17\n' >"$tmp/A_many.txt"
run $MATMUL --engine ref $P3 --in A="$tmp/A_many.txt"
expect 2 "A_many.txt:4:1: error: input 'A' (15 values): expected 15 values, found 17" \
  "too many values: exit 2, place and counts"
run $MATMUL --engine ref $P3 --in A="$tmp/nothere.txt"
expect 2 "nothere.txt" "missing data file: exit 2, named"
run $MATMUL --engine ref $P3 --in Z="$tmp/A_few.txt"
expect 2 "has no input array 'Z'" "--in for an unknown array: exit 2"
run $MATMUL --engine ref $P3 --in C="$tmp/A_few.txt"
expect 2 "(it is an output)" "--in for an output array: exit 2"

# --- a good run and its files -------------------------------------------
run $MATMUL --engine ref $P3 --out-dir "$tmp/o1"
check $rc "good run: exit 0"
for f in C.txt inputs/A.txt inputs/B.txt summary.json; do
  [ -s "$tmp/o1/$f" ]; check $? "out-dir holds $f"
done
[ -z "$(find "$tmp/o1" -name '*.tmp.*')" ]; check $? "no temporary file left in out-dir"
grep -q '"status": "pass"' "$tmp/o1/summary.json" && grep -q '"engine": "ref"' "$tmp/o1/summary.json" \
  && grep -q '"program": "matmul"' "$tmp/o1/summary.json"
check $? "summary.json: program, engine, status pass"
tr -d ' \n' <"$tmp/o1/summary.json" | grep -q '"pes":\[1,1\]'
check $? "summary.json: pes [1, 1]"
tr -d ' \n' <"$tmp/o1/summary.json" | grep -q '"params":{"N":3,"M":4,"K":5}'
check $? "summary.json: params"
grep -q '"instances": 192,' "$tmp/o1/summary.json"
check $? "summary.json: instances = 3NMK + NM = 192"
ver=$("$TCPA" --version)
grep -q "\"tool_version\": \"$(echo "$ver" | sed -n 's/^tcpa \([^ ]*\) .*/\1/p')\"" "$tmp/o1/summary.json" &&
  grep -q "\"git_rev\": \"$(echo "$ver" | sed -n 's/.*(git \(.*\))$/\1/p')\"" "$tmp/o1/summary.json"
check $? "summary.json: tool_version and git_rev, as tcpa --version prints them ($ver)"
grep -q '"ref_seconds": ' "$tmp/o1/summary.json" && ! grep -q '"cycles"' "$tmp/o1/summary.json"
check $? "summary.json: ref_seconds present, cycles absent for ref"
if command -v python3 >/dev/null; then
  python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/o1/summary.json"
  check $? "summary.json is valid JSON"
fi
grep -q "verdict   pass" "$tmp/out" && grep -q "192 equation instances" "$tmp/out"
check $? "stdout: instances and verdict"
! grep -q '^time ' "$tmp/out"
check $? "stdout: no time line for ref (nothing built, no engine run)"
# the values: uniform in [-1000, 1000]
awk '{ for (i = 1; i <= NF; i++) if ($i < -1000 || $i > 1000) bad = 1 } END { exit bad }' \
  "$tmp/o1/inputs/A.txt" "$tmp/o1/inputs/B.txt"
check $? "random inputs lie in [-1000, 1000]"
[ "$(cat "$tmp/o1/inputs/A.txt" | wc -w)" -eq 15 ] && [ "$(cat "$tmp/o1/C.txt" | wc -w)" -eq 12 ]
check $? "inputs/A.txt has N*K values, C.txt N*M"
# C = A * B, computed here
awk -v N=3 -v M=4 -v K=5 '
  FILENAME ~ /A.txt$/ { for (i = 1; i <= NF; i++) A[na++] = $i; next }
  FILENAME ~ /B.txt$/ { for (i = 1; i <= NF; i++) B[nb++] = $i; next }
  { for (i = 1; i <= NF; i++) C[nc++] = $i }
  END {
    for (i = 0; i < N; i++) for (j = 0; j < M; j++) {
      s = 0; for (k = 0; k < K; k++) s += A[i*K+k] * B[k*M+j]
      if (s != C[i*M+j]) bad = 1
    }
    exit bad
  }' "$tmp/o1/inputs/A.txt" "$tmp/o1/inputs/B.txt" "$tmp/o1/C.txt"
check $? "C.txt equals A * B computed in awk"

# --- seeds and --in ------------------------------------------------------
run $MATMUL --engine ref $P3 --out-dir "$tmp/o2"
cmp -s "$tmp/o1/inputs/A.txt" "$tmp/o2/inputs/A.txt" && cmp -s "$tmp/o1/C.txt" "$tmp/o2/C.txt"
check $? "same (default) seed: identical inputs and outputs"
run $MATMUL --engine ref $P3 --seed 1 --out-dir "$tmp/o3"
cmp -s "$tmp/o1/inputs/B.txt" "$tmp/o3/inputs/B.txt"; check $? "--seed 1 is the default"
run $MATMUL --engine ref $P3 --seed 2 --out-dir "$tmp/o4"
! cmp -s "$tmp/o1/inputs/A.txt" "$tmp/o4/inputs/A.txt" && ! cmp -s "$tmp/o1/inputs/B.txt" "$tmp/o4/inputs/B.txt"
check $? "different seed: different inputs"
! cmp -s "$tmp/o1/inputs/A.txt" "$tmp/o1/inputs/B.txt" 2>/dev/null
check $? "each input array has its own random stream"
printf '0x1 -2 3 4 5\n6 7 8 9 10\n11 12 13 14 0xffffffff\n' >"$tmp/A_good.txt"
run $MATMUL --engine ref $P3 --in A="$tmp/A_good.txt" --out-dir "$tmp/o5"
check $rc "--in A=FILE: exit 0"
[ "$(tr -s ' \n' ' ' <"$tmp/o5/inputs/A.txt")" = "1 -2 3 4 5 6 7 8 9 10 11 12 13 14 -1 " ]
check $? "inputs/A.txt holds the given values (hex read, written in decimal)"
cmp -s "$tmp/o1/inputs/B.txt" "$tmp/o5/inputs/B.txt"
check $? "--in for A leaves the random B unchanged"
grep -q "\"A\": \"$tmp/A_good.txt\"" "$tmp/o5/summary.json" && grep -q '"B": "random"' "$tmp/o5/summary.json"
check $? "summary.json: where each input came from"
run $MATMUL --engine ref $P3 --in A="$tmp/o5/inputs/A.txt" --in B="$tmp/o5/inputs/B.txt" --out-dir "$tmp/o6"
cmp -s "$tmp/o5/C.txt" "$tmp/o6/C.txt"; check $? "a run replayed from its inputs/ gives the same outputs"

# --- out-dir failures ---------------------------------------------------------
: >"$tmp/afile"
run $MATMUL --engine ref $P3 --out-dir "$tmp/afile"
expect 2 "--out-dir" "out-dir that is a file: exit 2"
run $MATMUL --engine ref $P3 --out-dir="$tmp/o7/deep/er"
check $rc "--out-dir=DIR creates missing parents"

# --- a scalar input and output -----------------------------------------------
echo 0x5a >"$tmp/v.txt"
run regress/programs/bitextract.pla --engine ref --param N=8 --in v="$tmp/v.txt" --out-dir "$tmp/b"
[ "$rc" -eq 0 ] && [ "$(tr -s ' \n' ' ' <"$tmp/b/bits.txt")" = "0 1 0 1 1 0 1 0 " ]
check $? "bitextract of 0x5a: bits 0 1 0 1 1 0 1 0"
echo "1 2" >"$tmp/v2.txt"
run regress/programs/bitextract.pla --engine ref --param N=8 --in v="$tmp/v2.txt"
expect 2 "v2.txt:1:3: error: input 'v' (1 value): expected 1 value, found 2" "scalar file with two values: exit 2"

# --- the embedded default architecture ---------------------------------
# Without --arch, tcpa uses configs/default.ini compiled into the binary, so
# it runs from any directory; a given --arch that does not exist is an error.
abs_tcpa=$(cd "$(dirname "$TCPA")" && pwd)/$(basename "$TCPA")
abs_prog=$PWD/$MATMUL
(cd "$tmp" && timeout 20 "$abs_tcpa" run "$abs_prog" --engine ref $P3 --out-dir emb >/dev/null 2>"$tmp/err"); rc=$?
check $(( rc != 0 )) "no --arch outside the repository: embedded default used (exit $rc)"
grep -q '"arch": "configs/default.ini"' "$tmp/emb/summary.json" 2>/dev/null
check $? "summary.json names the embedded default"
run "$MATMUL" --engine ref $P3 --arch "$tmp/no-such.ini"
expect 2 "no-such.ini" "--arch naming a missing file: exit 2, file named"
