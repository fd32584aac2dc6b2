#!/usr/bin/env bash
# covers: docs/user-guide.md "Linting a configuration"
# lint_cli.sh: `tcpa lint --arch FILE` (cli/cli_lint.c, docs/user-guide.md
# "Linting a configuration") and the Makefile's rtl-lint and synth targets
# with RTL_ARCH, TAP.
#
# A configuration of its own outside configs/ (a 1x2 array with a divider,
# about 5 s of Verilator), linted from another directory: exit 0, "clean",
# its parameter package in the output directory (rows 1, cols 2), the
# lint log without a warning, every waiver of rtl/lint_waivers.vlt listed
# with its reason. A bad configuration: exit 2 with FILE:LINE:COL, nothing
# linted. A verilator that warns ($VERILATOR, a stand-in printing one
# %Warning): exit 1, the warning shown. A verilator that cannot run: exit 2.
# `make -n rtl-lint|synth RTL_ARCH=FILE` use FILE (they used
# configs/default.ini whatever RTL_ARCH said), and `make synth` of a bad
# configuration stops at the configuration, before Yosys.
. "$(dirname "$0")/tap.sh"
set -u
BUILD=${BUILD:-build}
[ -x "$TCPA" ] || { echo "not ok 1 - $TCPA is not built"; exit 1; }
abs_tcpa=$(realpath "$TCPA")

"$TCPA" lint --help >"$tmp/help" 2>&1; st=$?
check_eval "lint --help: exit 0, the usage" '[ $st -eq 0 ] && grep -q "usage: tcpa lint --arch A.ini" "$tmp/help"'
"$TCPA" lint >/dev/null 2>"$tmp/e0"; st=$?
check_eval "lint without --arch: exit 2" '[ $st -eq 2 ] && grep -q -- "--arch A.ini is required" "$tmp/e0"'

# -- a configuration of its own, from another directory -----------------------
mkdir -p "$tmp/mine/cwd"
printf '%s\n' '; a 1x2 array of its own, outside configs/' '[array]' 'rows = 1' 'cols = 2' '' '[pe]' 'div = 1' \
  >"$tmp/mine/pair.ini"
(cd "$tmp/mine/cwd" && "$abs_tcpa" lint --arch ../pair.ini >"$tmp/l.out" 2>"$tmp/l.err"); st=$?
O=$tmp/mine/cwd/build/lint/pair
check_eval "lint of a configuration outside configs/, from another directory: exit 0, clean" \
  '[ $st -eq 0 ] && grep -q "^clean: 0 warnings, 0 errors" "$tmp/l.out"'
check_eval "lint: the log is in build/lint/<name>/ and has no warning" \
  'grep -q "^lint log: build/lint/pair/lint.log" "$tmp/l.out" && [ -f "$O/lint.log" ] && ! grep -q "%Warning" "$O/lint.log"'
check_eval "lint: the parameter package is that configuration's (1x2)" \
  'grep -q "ARRAY_ROWS *= 1;" "$O/tcpa_params_pkg.sv" && grep -q "ARRAY_COLS *= 2;" "$O/tcpa_params_pkg.sv"'
nw=$(grep -c '^ *lint_off' rtl/lint_waivers.vlt)
check_eval "lint: every waiver of rtl/lint_waivers.vlt listed, with its reason ($nw)" \
  'grep -q "^waivers in effect: $nw, from .*rtl/lint_waivers.vlt" "$tmp/l.out" && [ "$(wc -l <"$O/waivers.txt")" -eq "$nw" ] &&
   grep -q "UNUSEDSIGNAL  *file \*tcpa_top.sv  *match \*ag_tokv\*  *Read tokens of banks" "$tmp/l.out"'
check_eval "lint: stderr names the live log" 'grep -q "live log: build/lint/pair/lint.log" "$tmp/l.err"'

# -- a bad configuration ------------------------------------------------------
printf '[array]\nrows = 0\ncols = 2\n' >"$tmp/bad.ini"
"$TCPA" lint --arch "$tmp/bad.ini" --out-dir "$tmp/bad" >"$tmp/b.out" 2>"$tmp/b.err"; st=$?
check_eval "lint of a bad configuration: exit 2, FILE:LINE:COL, nothing linted" \
  '[ $st -eq 2 ] && grep -q "bad.ini:2:8: error: value 0 of .array.rows. is out of range" "$tmp/b.err" && [ ! -e "$tmp/bad/lint.log" ]'
"$TCPA" lint --arch "$tmp/none.ini" >/dev/null 2>"$tmp/n.err"; st=$?
check_eval "lint of a missing file: exit 2" '[ $st -eq 2 ]'

# -- warnings and a verilator that cannot run ---------------------------------
cat >"$tmp/fake-verilator" <<'EOF'
#!/usr/bin/env bash
echo "%Warning-WIDTH: rtl/tcpa_fu.sv:10:5: Operator ASSIGN expects 32 bits"
echo "%Error: Exiting due to 1 warning(s)"
exit 1
EOF
chmod +x "$tmp/fake-verilator"
VERILATOR=$tmp/fake-verilator "$TCPA" lint --arch "$tmp/mine/pair.ini" --out-dir "$tmp/w" >"$tmp/w.out" 2>&1; st=$?
check_eval "lint with warnings: exit 1, the count and the warning shown" \
  '[ $st -eq 1 ] && grep -q "^NOT CLEAN: 1 warning, 1 error, verilator exit 1" "$tmp/w.out" && grep -q "%Warning-WIDTH: rtl/tcpa_fu.sv:10:5" "$tmp/w.out"'
VERILATOR=$tmp/no-such-verilator "$TCPA" lint --arch "$tmp/mine/pair.ini" --out-dir "$tmp/v" >/dev/null 2>"$tmp/v.err"; st=$?
check_eval "lint without a verilator: exit 2, named" '[ $st -eq 2 ] && grep -q "cannot run .*no-such-verilator" "$tmp/v.err"'

# -- make rtl-lint / synth RTL_ARCH=FILE -----------------------------------------
make -n -s rtl-lint RTL_ARCH="$tmp/mine/pair.ini" BUILD="$BUILD" >"$tmp/mk1" 2>&1
check_eval "make -n rtl-lint RTL_ARCH=FILE lints FILE" \
  'grep -q "tcpa lint --arch $tmp/mine/pair.ini" "$tmp/mk1" && ! grep -q "configs/default.ini" "$tmp/mk1"'
make -n -s synth RTL_ARCH="$tmp/mine/pair.ini" BUILD="$BUILD" >"$tmp/mk2" 2>&1
check_eval "make -n synth RTL_ARCH=FILE synthesizes FILE's parameter package" \
  'grep -q "tcpa arch $tmp/mine/pair.ini --sv -o $BUILD/synth/tcpa_params_pkg.sv" "$tmp/mk2" &&
   grep -q "SYNTH_PARAMS=$BUILD/synth/tcpa_params_pkg.sv bash scripts/synth.sh" "$tmp/mk2" && ! grep -q "configs/default.ini" "$tmp/mk2"'
make -s synth RTL_ARCH="$tmp/bad.ini" BUILD="$BUILD" >"$tmp/mk3" 2>&1; st=$?
check_eval "make synth RTL_ARCH=bad.ini: fails at the configuration, before Yosys" \
  '[ $st -ne 0 ] && grep -q "bad.ini:2:8: error" "$tmp/mk3" && ! grep -q "Yosys" "$tmp/mk3"'
make -s rtl-lint RTL_ARCH="$tmp/bad.ini" BUILD="$BUILD" >"$tmp/mk4" 2>&1; st=$?
check_eval "make rtl-lint RTL_ARCH=bad.ini: fails with the configuration's error" \
  '[ $st -ne 0 ] && grep -q "bad.ini:2:8: error" "$tmp/mk4"'
exit $fail
