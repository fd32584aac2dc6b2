#!/usr/bin/env bash
# covers: docs/rtl.md "Harness cache",
#   docs/user-guide.md "Your own configuration"
# harness_cli.sh: the harness cache (`tcpa harness`, docs/rtl.md "Harness
# cache"), from the outside:
#   - the key is a function of the effective configuration: a copy of
#     configs/default.ini kept outside the repository, its comments and
#     key order changed, has the default's key; a file with another value
#     has another key and another directory;
#   - in a scratch copy of the tree (its own build/bin/tcpa), the key
#     changes when an RTL file changes, when a source of the generated
#     packages (common/isa.h, common/stream.h, common/trace.h and
#     trace.c, common/gen/) changes, when a harness source changes,
#     and when tb/harness.mk (the Verilator flags) or the Verilator
#     executable changes (its version is memoized), and not when a
#     document does; a harness whose key changed is not built (`--check`
#     exits 1), so the engines build it before they run it;
#   - the harness of the default configuration builds and runs, and a
#     second `tcpa harness` finds it without building;
#   - full tier: a configuration this project has never seen, in a
#     directory outside the repository, runs in `--engine cosim` against
#     the reference;
#   - bad input: an unknown --kind, an unknown option, a missing file: exit 2.
# Prints TAP.
set -u
. tests/tap.sh
TCPA_ABS=$(cd "$(dirname "$TCPA")" && pwd)/$(basename "$TCPA")

# Prints the key of harness kind $2 (default rtl) of architecture $1 with
# the tcpa binary $3 (default: the one under test).
key() { "${3:-$TCPA_ABS}" harness ${1:+--arch "$1"} --kind "${2:-rtl}" --key | sed -n 's/^key //p'; }

# -- the key follows the effective configuration ------------------------
mkdir -p "$tmp/elsewhere"
# the sections in reverse order, the comments gone
{ echo "; a team's copy of the default, reordered"
  awk '/^\[/ { k++ } k { sub(/;.*/, ""); b[k] = b[k] $0 "\n" } END { for (i = k; i >= 1; i--) printf "%s", b[i] }' \
    configs/default.ini; } > "$tmp/elsewhere/copy.ini"
k_def=$(key) k_copy=$(key "$tmp/elsewhere/copy.ini")
[ -n "$k_def" ] && [ "$k_def" = "$k_copy" ]
check "a reordered copy of default.ini outside the tree has the default's key ($k_def)" $?
printf '[pe]\nfifo_depth = 5\n' > "$tmp/elsewhere/odd.ini"
k_odd=$(key "$tmp/elsewhere/odd.ini")
[ -n "$k_odd" ] && [ "$k_odd" != "$k_def" ]
check "another fifo_depth: another key ($k_odd)" $?
[ "$(key "" mutants)" != "$k_def" ] && [ "$(key "" sc)" != "$k_def" ]
check "the kinds rtl, mutants and sc have keys of their own" $?

# -- a scratch copy: every input changes the key -------------------------
S=$tmp/scratch
mkdir -p "$S/build/bin"
git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$S" 2>/dev/null
mkdir -p "$S/build/lib"
cp "$TCPA_ABS" "$S/build/bin/tcpa"
cp "$(dirname "$TCPA_ABS")/../lib/libtcpa.a" "$S/build/lib/"
k0=$(key "" rtl "$S/build/bin/tcpa")
[ -n "$k0" ] && [ "$k0" = "$k_def" ]
check "the scratch copy of the tree gives the same key" $?
# Prints the scratch key after appending line $2 to file $1, then undoes it.
key_after() {
  cp "$S/$1" "$tmp/saved"
  echo "$2" >> "$S/$1"
  key "" "${3:-rtl}" "$S/build/bin/tcpa"
  cp "$tmp/saved" "$S/$1"
}
for edit in "rtl/tcpa_fu.sv|// an edit" "common/isa.h|/* an edit */" "tb/rtl_main.cpp|// an edit" \
            "tb/harness.mk|# an edit" "rtl/lint_waivers.vlt|// an edit" \
            "common/stream.h|/* an edit */" "common/trace.h|/* an edit */" "common/trace.c|/* an edit */" \
            "common/gen/gen_stream_pkg.c|/* an edit */" "common/gen/gen_trace_events.c|/* an edit */"; do
  f=${edit%%|*} line=${edit#*|}
  k=$(key_after "$f" "$line")
  [ -n "$k0" ] && [ -n "$k" ] && [ "$k" != "$k0" ]
  check "an edit of $f changes the key ($k0 -> $k)" $?
done
k=$(key_after docs/rtl.md "an edit")
[ -n "$k0" ] && [ "$k" = "$k0" ]
check "an edit of docs/rtl.md does not" $?
k=$(key_after tb/sc_tb.cpp "// an edit" sc)
[ -n "$k" ] && [ "$k" != "$(key "" sc "$S/build/bin/tcpa")" ]
check "an edit of tb/sc_tb.cpp changes the sc harness's key" $?
# the Verilator version is memoized (BUILD/harness/verilator.key) for the
# executable: another executable, or the same one changed, is asked again
mkdir -p "$tmp/vbin"
printf '#!/bin/sh\necho "Verilator 9.999 a test double"\n' > "$tmp/vbin/verilator"
chmod +x "$tmp/vbin/verilator"
k_v1=$(VERILATOR="$tmp/vbin/verilator" key "" rtl "$S/build/bin/tcpa")
k_v0=$(key "" rtl "$S/build/bin/tcpa")
printf '#!/bin/sh\necho "Verilator 9.998 another test double"\n' > "$tmp/vbin/verilator"
touch -d '2001-01-01' "$tmp/vbin/verilator"
k_v2=$(VERILATOR="$tmp/vbin/verilator" key "" rtl "$S/build/bin/tcpa")
[ -n "$k_v1" ] && [ "$k_v1" != "$k0" ] && [ "$k_v0" = "$k0" ] && [ -n "$k_v2" ] && [ "$k_v2" != "$k_v1" ] &&
  grep -q "verilator" "$S/build/harness/verilator.key"
check "another Verilator changes the key, through the memo of its version too ($k_v1, $k_v2)" $?
echo "// an edit" >> "$S/rtl/tcpa_fu.sv"
"$S/build/bin/tcpa" harness --check >/dev/null 2>&1
[ $? -eq 1 ]
check "after an RTL edit the harness is not built (--check exits 1): it is rebuilt before use" $?
echo "/* an edit */" >> "$S/common/isa.h"
"$S/build/bin/tcpa" harness --check >"$tmp/chk" 2>&1
[ $? -eq 1 ] && grep -q "not built" "$tmp/chk"
check "after an edit of common/isa.h too" $?

# -- the default configuration's harness builds once and is found --------
RTL=$(harness)
check "the rtl harness of the default configuration builds ($RTL)" $?
"$TCPA" harness --check >/dev/null 2>&1
check "tcpa harness --check finds it built" $?
"$TCPA" harness >"$tmp/again" 2>"$tmp/again.err"
[ $? -eq 0 ] && [ "$(cat "$tmp/again")" = "$RTL" ] && ! grep -q building "$tmp/again.err"
check "a second tcpa harness prints the same path without building" $?
d=$(dirname "$RTL")
[ -s "$d/inputs.txt" ] && grep -q ' rtl/tcpa_fu.sv$' "$d/inputs.txt" && grep -q ' common/isa.h$' "$d/inputs.txt" &&
  grep -q ' tb/rtl_main.cpp$' "$d/inputs.txt" && grep -q 'verilator --version' "$d/inputs.txt" &&
  grep -q 'fifo_depth' "$d/arch.ini" && grep -q '#define TCPA_PE_FIFO_DEPTH 8' "$d/tcpa_params.h"
check "the harness directory lists its inputs, the effective INI and the generated header" $?

# -- a configuration never seen, outside the tree, in cosim (full tier) ---
if full_tier; then
  printf '[array]\nrows = 3\ncols = 2\n[pe]\nfifo_depth = 5\nrd = 6\n[interconnect]\nports = 3\n' > "$tmp/elsewhere/team.ini"
  "$TCPA" run regress/programs/bitextract.pla --engine cosim --arch "$tmp/elsewhere/team.ini" --pes 1x2 \
    --param N=9 --out-dir "$tmp/team" >"$tmp/team.out" 2>"$tmp/team.err"
  rc=$?
  [ $rc -eq 0 ] && grep -q '"divergence": null' "$tmp/team/summary.json"
  check "cosim on $tmp/elsewhere/team.ini (3x2, never seen): passes (exit $rc)" $?
fi

# -- bad input -------------------------------------------------------------
"$TCPA" harness --kind nope >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "expected rtl, mutants, sc or cov" "$tmp/err"
check "--kind nope: exit 2 naming the kinds" $?
"$TCPA" harness --bogus >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "unknown option '--bogus'" "$tmp/err"
check "an unknown option: exit 2 naming it" $?
"$TCPA" harness --arch "$tmp/none.ini" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "none.ini" "$tmp/err"
check "a missing architecture file: exit 2 naming it" $?
exit $fail
