#!/usr/bin/env bash
# covers: docs/user-guide.md "Progress of long steps", docs/rtl.md "Harness cache"
# progress_cli.sh: long steps are not silent (docs/user-guide.md "Progress
# of long steps"), TAP. In a scratch copy of the tree (its own
# build/bin/tcpa and harness cache), with a fake Verilator that takes 2.5 s
# to "build" a harness (it copies the default configuration's real one)
# and heartbeats every second (TCPA_HEARTBEAT=1):
#   - a cosim run whose harness is missing builds it with a heartbeat
#     naming the build's live log, reports the build apart from the run
#     (the `harness` line, summary.json harness_build_seconds), and a
#     second run finds it cached (0, no line);
#   - `tcpa regress` builds the missing harness before its runs and
#     reports its build time on stdout and in summary.json;
#   - `tcpa lint` with a slow Verilator heartbeats naming lint.log.
set -u
. tests/tap.sh
TCPA_ABS=$(cd "$(dirname "$TCPA")" && pwd)/$(basename "$TCPA")
ROOT=$(pwd)

REAL=$(harness)
check "the default configuration's harness builds ($REAL)" $?

S=$tmp/scratch
mkdir -p "$S/build/bin" "$S/build/lib"
# sources and build with their times, so that make rebuilds nothing
git ls-files -z --cached --others --exclude-standard | xargs -0 cp -a --parents -t "$S" 2>/dev/null
B=$(dirname "$TCPA_ABS")/..
cp -a "$TCPA_ABS" "$S/build/bin/tcpa"
cp -a "$B/lib" "$B/obj" "$B/gen" "$S/build/"
# the fake Verilator: a version of its own (another harness key), a build
# of 2.5 s writing to its log, then the real harness as the output
mkdir -p "$tmp/vbin"
cat >"$tmp/vbin/verilator" <<EOF2
#!/bin/sh
case "\$1" in --version) echo "Verilator 5.006 fake \${FAKE_V:-1}"; exit 0 ;; esac
out=
while [ \$# -gt 0 ]; do [ "\$1" = -o ] && out=\$2; shift; done
echo "fake verilator: building \$out"
sleep 2.5
cp "$REAL" "\$out"
EOF2
chmod +x "$tmp/vbin/verilator"
export TCPA_HEARTBEAT=1
unset TCPA_RTL TCPA_SC TCPA_RTL_COV TCPA_RTL_MUTANTS

# -- a run that builds its harness ---------------------------------------
cosim() {
  VERILATOR=$tmp/vbin/verilator "$S/build/bin/tcpa" run regress/programs/bitextract.pla --engine cosim --pes 1x2 \
    --param N=9 --out-dir "$tmp/$1" >"$tmp/$1.out" 2>"$tmp/$1.err"
}
cosim r1; st=$?
hb=$(grep -c "^tcpa: building tcpa-rtl (rtl): still running, [0-9]*s; live log: $S/build/harness/rtl-[0-9a-f]*/build.log$" "$tmp/r1.err")
check_eval "run: a missing harness is built with heartbeats naming its build.log (exit $st, $hb heartbeats)" \
  '[ $st -eq 0 ] && [ "$hb" -ge 2 ] && grep -q "^tcpa: built $S/build/harness/rtl-.*/tcpa-rtl in [0-9ms]*$" "$tmp/r1.err"'
d=$(sed -n 's/^tcpa: built \(.*\)\/tcpa-rtl in.*/\1/p' "$tmp/r1.err")
check_eval "run: the live log named is the one the build wrote" 'grep -q "fake verilator: building" "$d/build.log"'
# Prints summary.json $1's harness_build_seconds and run_wall_seconds.
secs() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["harness_build_seconds"], d["run_wall_seconds"])' "$1"; }
read -r hs rw <<<"$(secs "$tmp/r1/summary.json")"
check_eval "run: the harness build (${hs} s) is reported apart from the run (${rw} s elapsed)" \
  'grep -q "^harness   built for this run in [0-9.]* s elapsed (not counted in the run.s time)$" "$tmp/r1.out" &&
   python3 -c "import sys; h, r = map(float, sys.argv[1:]); sys.exit(not (h >= 2.5 and r < h))" "$hs" "$rw"'
cosim r2; st=$?
read -r hs rw <<<"$(secs "$tmp/r2/summary.json")"
check_eval "run: a second run finds the harness cached: harness_build_seconds 0, no harness line, no build" \
  '[ $st -eq 0 ] && [ "$hs" = 0 ] && ! grep -q "^harness" "$tmp/r2.out" && ! grep -q "building" "$tmp/r2.err"'

# -- tcpa regress builds before its runs ------------------------------------
printf '%s\n' 'suite p' "run $ROOT/regress/programs/bitextract.pla N=9 engine=cosim pes=1x2" >"$tmp/p.suite"
# (another Verilator executable, another version: another key; the
# version is memoized per executable)
mkdir -p "$tmp/vbin2" && cp "$tmp/vbin/verilator" "$tmp/vbin2/verilator"
FAKE_V=2 VERILATOR=$tmp/vbin2/verilator "$S/build/bin/tcpa" regress "$tmp/p.suite" --out-dir "$tmp/reg" \
  >"$tmp/reg.out" 2>"$tmp/reg.err"; st=$?
hs=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["harness_build_seconds"])' "$tmp/reg/summary.json")
check_eval "regress: the missing harness built before the runs, with heartbeats; its time apart ($hs s)" \
  '[ $st -eq 0 ] && grep -q "^tcpa regress: 1 harness built in [0-9ms]*, before the runs (not counted in their times)$" "$tmp/reg.out" &&
   grep -q "^tcpa: building tcpa-rtl (rtl): still running, 2s; live log: " "$tmp/reg.err" &&
   python3 -c "import sys; sys.exit(float(sys.argv[1]) < 2.5)" "$hs"'

# -- tcpa lint with a slow Verilator ----------------------------------------
printf '#!/bin/sh\nsleep 2.5\n' >"$tmp/vbin/slow-verilator"
chmod +x "$tmp/vbin/slow-verilator"
VERILATOR=$tmp/vbin/slow-verilator "$TCPA" lint --arch configs/default.ini --out-dir "$tmp/lint" \
  >"$tmp/lint.out" 2>"$tmp/lint.err"; st=$?
check_eval "lint: a slow Verilator heartbeats with the elapsed time and lint.log (exit $st)" \
  '[ $st -eq 0 ] && grep -q "^tcpa: lint: still running, 1s; live log: $tmp/lint/lint.log$" "$tmp/lint.err" &&
   grep -q "^tcpa: lint: still running, 2s; live log: $tmp/lint/lint.log$" "$tmp/lint.err"'
cd "$ROOT" || exit 1
exit $fail
