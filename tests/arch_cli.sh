#!/usr/bin/env bash
# arch_cli.sh: tests of `tcpa arch` from the outside (docs/arch.md). The
# shipped configurations load; --dump re-loads to the same fingerprint;
# linear.ini and wide.ini differ from default.ini in every section; the
# generated SystemVerilog package passes `verilator --lint-only -Wall` with
# a wrapper module that uses every parameter; -o writes atomically; bad
# options and files exit 2. Prints TAP lines.
set -u
. tests/tap.sh

# Prints the [section] block of an INI dump (keys and values only).
section_of() {
  awk -v s="[$2]" '/^\[/ { on = ($1 == s) } on && /=/ { print $1, $3 }' "$1"
}

fp_of() { "$TCPA" arch "$1" --fingerprint 2>/dev/null; }

: > "$tmp/empty.ini"
for c in default linear wide; do
  f=configs/$c.ini
  out=$("$TCPA" arch "$f"); rc=$?
  [ $rc -eq 0 ] && echo "$out" | head -n 1 | grep -Eq "^$f: OK, fingerprint 0x[0-9a-f]{16}\$"
  check "$f loads and reports OK with a fingerprint" $?
  fp=$(fp_of "$f")
  echo "$out" | head -n 1 | grep -q "$fp\$"
  check "$f: --fingerprint matches the summary line" $?
  "$TCPA" arch "$f" --dump > "$tmp/$c.dump.ini"
  [ "$(fp_of "$tmp/$c.dump.ini")" = "$fp" ]
  check "$f: --dump re-loads to the same fingerprint $fp" $?
  [ "$(grep -c '=' "$tmp/$c.dump.ini")" -eq 21 ]
  check "$f: --dump writes all 21 keys" $?
  "$TCPA" arch "$tmp/$c.dump.ini" --dump | cmp -s - "$tmp/$c.dump.ini"
  check "$f: dumping the dump gives the same text" $?
done

[ "$(fp_of configs/default.ini)" = "$(fp_of "$tmp/empty.ini")" ]
check "default.ini (every default spelled out) has the fingerprint of an empty file" $?
fd=$(fp_of configs/default.ini) fl=$(fp_of configs/linear.ini) fw=$(fp_of configs/wide.ini)
[ "$fd" != "$fl" ] && [ "$fd" != "$fw" ] && [ "$fl" != "$fw" ]
check "the three configurations have three different fingerprints" $?

for c in linear wide; do
  for s in array pe latency interconnect gc iobuf; do
    [ "$(section_of "$tmp/$c.dump.ini" $s)" != "$(section_of "$tmp/default.dump.ini" $s)" ]
    check "$c.ini differs from default.ini in [$s]" $?
  done
done
section_of "$tmp/linear.dump.ini" array | grep -qx 'rows 1'
check "linear.ini is a single row" $?
[ "$(section_of "$tmp/wide.dump.ini" pe | grep -E '^(alu|mul|div) ' | tr '\n' ' ')" = "alu 3 mul 2 div 1 " ]
check "wide.ini has 3 ALUs, 2 multipliers, 1 divider" $?
for k in alu mul div; do
  [ "$(section_of "$tmp/wide.dump.ini" latency | grep "^$k ")" != "$(section_of "$tmp/default.dump.ini" latency | grep "^$k ")" ]
  check "wide.ini: latency.$k differs from the default" $?
done

# The generated package under Verilator, with a module using every parameter.
for c in default linear wide; do
  d=$tmp/sv_$c; mkdir -p "$d"
  "$TCPA" arch configs/$c.ini --sv -o "$d/tcpa_params_pkg.sv"
  check "$c: --sv -o writes the package" $?
  [ "$(ls "$d")" = tcpa_params_pkg.sv ]
  check "$c: --sv -o leaves no temporary file" $?
  "$TCPA" arch configs/$c.ini --sv | cmp -s - "$d/tcpa_params_pkg.sv"
  check "$c: --sv to stdout equals the file" $?
  grep -q "ARCH_FINGERPRINT = 64'h$(fp_of configs/$c.ini | sed 's/^0x//');" "$d/tcpa_params_pkg.sv"
  check "$c: the package holds the fingerprint" $?
  missing=0
  for s in array pe latency interconnect gc iobuf; do
    while read -r k v; do
      p=$(echo "${s}_$k" | tr a-z A-Z)
      grep -Eq "localparam int unsigned $p += $v;" "$d/tcpa_params_pkg.sv" ||
        { echo "#   $p = $v missing"; missing=1; }
    done < <(section_of "$tmp/$c.dump.ini" $s)
  done
  check "$c: the package holds every value of the configuration" $missing
  grep -q GENERATED "$d/tcpa_params_pkg.sv"
  check "$c: the package says it is generated" $?
  names=$(sed -n 's/^ *localparam .* \([A-Z_][A-Z0-9_]*\) *=.*/\1/p' "$d/tcpa_params_pkg.sv")
  [ "$(echo "$names" | wc -l)" -eq 23 ]
  check "$c: the package has 23 parameters (21 keys, DATA_WIDTH, ARCH_FINGERPRINT)" $?
  {
    echo "module tcpa_params_use import tcpa_params_pkg::*; (output logic [63:0] sum);"
    printf "  assign sum = 64'd0"
    for p in $names; do printf " + 64'(%s)" "$p"; done
    echo ";"
    echo "endmodule"
  } > "$d/tcpa_params_use.sv"
  if command -v verilator >/dev/null; then
    (cd "$d" && verilator --lint-only -Wall tcpa_params_pkg.sv tcpa_params_use.sv) > "$d/lint.log" 2>&1
    rc=$?; [ $rc -eq 0 ] || sed 's/^/#   /' "$d/lint.log" | head -20
  else
    echo "#   verilator not found"; rc=1
  fi
  check "$c: verilator --lint-only -Wall accepts the package" $rc
done

# Options and failures.
"$TCPA" arch --help | grep -q '^usage: tcpa arch'
check "--help prints the usage and exits 0" $?
for args in "" "configs/default.ini --bogus" "configs/default.ini --sv --dump" \
            "configs/default.ini -o $tmp/x" "configs/default.ini --sv -o" \
            "configs/default.ini configs/wide.ini" "$tmp/no-such.ini"; do
  # shellcheck disable=SC2086
  "$TCPA" arch $args >/dev/null 2>"$tmp/err"; rc=$?
  [ $rc -eq 2 ] && grep -q 'error' "$tmp/err"
  check "'tcpa arch $args' exits 2 with an error" $?
done
printf '[pe]\nalu = 0\nmul = x\n[foo]\n[gc]\ndims = 9\n' > "$tmp/bad.ini"
echo keep > "$tmp/out.sv"
"$TCPA" arch "$tmp/bad.ini" --sv -o "$tmp/out.sv" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ "$(grep -c ': error: ' "$tmp/err")" -eq 4 ]
check "every error of a file is reported (4 errors, exit 2)" $?
[ "$(cat "$tmp/out.sv")" = keep ] && [ "$(ls "$tmp" | grep -c 'out.sv')" -eq 1 ]
check "an invalid file leaves the -o file untouched and no temporary" $?
"$TCPA" arch configs/default.ini --sv -o "$tmp/no/such/dir/p.sv" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "cannot write" "$tmp/err" && [ ! -e "$tmp/no" ]
check "-o into a missing directory fails with exit 2" $?
exit $fail
