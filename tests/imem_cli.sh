#!/bin/bash
# covers: docs/symbolic.md "What fits", docs/instantiate.md "Waits"
# imem_cli.sh: instruction memory is checked against the emitted programs
# (after runs of nops became `nop N` words), not against an estimate of
# II + 1 words per FU; TAP. Checks:
#   - bitextract N=16 on 1x4 of default.ini with ALU latency 20 and MUL
#     latency 40 (RecMII 40, above pe.imem 32): `tcpa compile --pes 1x4
#     --param N=16` maps at II 40 and its .sym instantiates with every
#     unit within pe.imem (13 words at most); `tcpa run` on the model maps
#     at the same II and passes against the reference; the cosim in the
#     nightly tier (its harness is a Verilator build of its own);
#   - bitextract on default.ini with pe.imem 4, where every mapping's
#     programs are over: `tcpa run` and `tcpa compile --pes --param` exit
#     3 with the same message, naming instruction memory and each unit
#     over with its words; summary.json's nofit items are one per unit
#     (resource instruction_memory, key pe.imem, where, needed > available
#     = 4), two or more units named.
cd "$(dirname "$0")/.." || exit 1
. tests/tap.sh
BE=regress/programs/bitextract.pla

python3 -c "
import re, sys
s = open('configs/default.ini').read()
s = re.sub(r'(\[latency\]\nalu = )1', r'\g<1>20', s)
s = re.sub(r'(\nmul = )2\n', r'\g<1>40\n', s)
open('$tmp/lat.ini', 'w').write(s)"
grep -A2 '^\[latency\]' "$tmp/lat.ini" | tr -s ' ' | grep -q '^alu = 20 ' && grep -qx 'mul = 40' "$tmp/lat.ini"
check "the long-latency copy of default.ini: ALU 20, MUL 40" $?

# II of a .sym ($1)
sym_ii() { awk '$1 == "ii" { print $2 }' "$1"; }
# the largest unit's words of listing $1 (0: none)
max_words() { awk '/ kernel classes, epilog / { w = $0; sub(/ words \(unreduced.*/, "", w); sub(/.* /, "", w)
                                               if (w + 0 > m) m = w + 0 } END { print m + 0 }' "$1"; }

$TCPA compile $BE --arch "$tmp/lat.ini" --pes 1x4 --param N=16 -o "$tmp/be.sym" > "$tmp/c.out" 2> "$tmp/c.err"
st=$?
ii=$(sym_ii "$tmp/be.sym" 2>/dev/null)
check_eval "latency 20/40: compile --pes 1x4 --param N=16 maps at II 40 (exit $st, II ${ii:-none})" \
  "[ $st -eq 0 ] && [ '$ii' = 40 ]"
$TCPA run $BE --arch "$tmp/lat.ini" --pes 1x4 --param N=16 --engine model --out-dir "$tmp/run" > "$tmp/r.out" 2>&1
st=$?
rii=$(python3 -c "import json; print(json.load(open('$tmp/run/summary.json'))['ii'])" 2>/dev/null)
check_eval "latency 20/40: tcpa run on the model passes at the II of compile (exit $st, II ${rii:-none})" \
  "[ $st -eq 0 ] && [ '$rii' = '$ii' ] && grep -q '^verdict *pass' '$tmp/r.out'"
$TCPA instantiate "$tmp/be.sym" --arch "$tmp/lat.ini" --param N=16 --pes 1x4 -o "$tmp/be.bin" \
  --in v="$tmp/run/inputs/v.txt" --listing "$tmp/be.lst" > /dev/null 2> "$tmp/i.err"
st=$?
w=$(max_words "$tmp/be.lst" 2>/dev/null)
check_eval "latency 20/40: the .sym instantiates, every unit within pe.imem 32 (exit $st, largest ${w:-?} words)" \
  "[ $st -eq 0 ] && [ '${w:-0}' -gt 0 ] && [ '${w:-99}' -le 32 ]"
cmp -s "$tmp/be.bin" "$tmp/run/config.bin"
check "latency 20/40: tcpa run's stream is the one tcpa instantiate writes from compile's .sym" $?

# A program over pe.imem in every mapping: pe.imem 4.
printf '[pe]\nimem = 4\n' > "$tmp/imem4.ini"
$TCPA run $BE --arch "$tmp/imem4.ini" --pes 1x3 --param N=16 --engine model --out-dir "$tmp/r4" > /dev/null 2> "$tmp/r4.err"
st=$?
check_eval "pe.imem 4: tcpa run exits 3 naming instruction memory and a unit's words (exit $st)" \
  "[ $st -eq 3 ] && grep -Eq 'does not fit: instruction memory: processor class [0-9]+, alu[0-9]: the program needs [0-9]+ instruction words, pe.imem is 4' '$tmp/r4.err'"
$TCPA compile $BE --arch "$tmp/imem4.ini" --pes 1x3 --param N=16 -o "$tmp/c4.sym" > /dev/null 2> "$tmp/c4.err"
st=$?
check_eval "pe.imem 4: tcpa compile --pes --param exits 3 with tcpa run's message, writes no .sym (exit $st)" \
  "[ $st -eq 3 ] && [ ! -e '$tmp/c4.sym' ] && [ \"\$(sed 's/.*does not fit: //' '$tmp/c4.err')\" = \"\$(sed 's/.*does not fit: //' '$tmp/r4.err')\" ]"
# every unit over pe.imem 4 is one item (test_inst_emit checks the words)
python3 - "$tmp/r4/summary.json" > "$tmp/items.txt" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))
items = s.get("nofit", [])
where = [i.get("where") for i in items]
ok = s.get("status") == "nofit" and len(items) >= 2 and len(set(where)) == len(where)
ok = ok and all(i["resource"] == "instruction_memory" and i["key"] == "pe.imem" and i["available"] == 4
                and i["needed"] > 4 and i["where"].startswith("processor class ") for i in items)
print(len(items), "items:", "; ".join("%s %d/%d" % (i.get("where"), i.get("needed", -1), i.get("available", -1))
                                       for i in items))
sys.exit(0 if ok else 1)
EOF
st=$?
check "pe.imem 4: summary.json has one instruction_memory item per unit over: $(cat "$tmp/items.txt")" $st

if nightly_tier; then
  RTL=$(harness "$tmp/lat.ini")
  if [ $? -ne 0 ]; then
    unbuilt "latency 20/40: bitextract in cosim"
  else
    TCPA_RTL=$RTL $TCPA run $BE --arch "$tmp/lat.ini" --pes 1x4 --param N=16 --engine cosim \
      --out-dir "$tmp/cos" > "$tmp/cos.out" 2>&1
    st=$?
    check_eval "latency 20/40: bitextract on 1x4 in cosim (model and RTL in lockstep) passes (exit $st)" \
      "[ $st -eq 0 ] && grep -q '^verdict *pass' '$tmp/cos.out'"
  fi
fi
exit $fail
