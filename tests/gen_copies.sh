#!/usr/bin/env bash
# covers: docs/rtl.md "Generated packages"
# gen_copies.sh: the copies of C contracts in other languages are generated
# from their one C definition (common/gen/, docs/rtl.md "Generated
# packages") and agree with it:
#   - build/gen/tcpa_stream_pkg.sv has, for each enumerator of
#     common/stream.h (packet kinds, error codes, AG modes, constraint
#     kinds) and for STREAM_MAGIC and STREAM_VERSION, its member with the C
#     value, and nothing else (the names are read from stream.h, the values
#     printed by a C program compiled against it);
#   - build/gen/tcpa_isa_pkg.sv has OP_<X> and OPC_<X> (opcode_e) for every
#     ISA_OP_<X> of common/isa.h, with its value;
#   - build/gen/tcpa_trace_events.h, compiled alone as C and as C++, gives
#     every event and fault kind of common/trace.h the value and the name
#     that trace.h and common/trace.c give it; with trace.h it compiles in
#     either order;
#   - build/gen/tcpa_stream_errors.h names every error code of the RTL
#     loader as common/stream.c's stream_error_name does, BUSY (14) too;
#   - a changed C constant changes the generated file (each generator run
#     on an edited copy of its header);
#   - no hand-written copy is back in rtl/ or tb/: the magic number,
#     localparams or enum members named after packet kinds, error codes,
#     AG modes or opcodes, a trace-kind enum or name table, a table of the
#     loader's error names, tb/rtl_events.h
#     (the same search finds the copies this project used to keep, so it
#     can fail).
# Prints TAP.
set -u
BUILD=${BUILD:-build}
CC=${CC:-cc}
CXX=${CXX:-c++}
. tests/tap.sh
G=$BUILD/gen
CFLAGS="-std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror"

make -s "BUILD=$BUILD" gen >"$tmp/make.log" 2>&1
st=$?
check "make gen builds the generated copies $(tail -1 "$tmp/make.log")" $st
[ $st -eq 0 ] || exit 1

# sv_items FILE: prints `NAME VALUE` (decimal) for every `NAME = W'dV` or
# `NAME = W'hV` of a SystemVerilog package, sorted.
sv_items() {
  sed -n "s/^ *\(localparam [^=]* \)\{0,1\}\([A-Z][A-Z0-9_]*\) = [0-9]*'\([dh]\)\([0-9a-fA-F]*\)[,;]\{0,1\}$/\2 \3 \4/p" "$1" |
    while read -r name base v; do
      if [ "$base" = h ]; then echo "$name $((16#$v))"; else echo "$name $((10#$v))"; fi
    done | sort
}

# c_items HEADER SED_MAP: prints `NAME VALUE` for every identifier the
# extended regex $3 finds in HEADER, NAME mapped by the sed script $2 and
# the value printed by a C program that includes HEADER (sorted).
c_items() {
  local hdr=$1 map=$2 re=$3 prog=$tmp/items_$RANDOM
  {
    echo "#include <stdio.h>"
    echo "#include \"$(basename "$hdr")\""
    echo "int main(void) {"
    grep -oE "$re" "$hdr" | sort -u | while read -r id; do
      echo "  printf(\"%s %ld\\n\", \"$(echo "$id" | sed -e "$map")\", (long)($id));"
    done
    echo "  return 0;"
    echo "}"
  } >"$prog.c"
  $CC $CFLAGS -Icommon "$prog.c" -o "$prog" 2>"$prog.log" && "$prog" | sort
}

# -- the stream package ----------------------------------------------------
c_items common/stream.h 's/^STREAM_OK$/E_NONE/; s/^STREAM_ERR_/E_/; s/^STREAM_\(PKT_\|AG_\|CONS_\)/\1/' \
  '\bSTREAM_(PKT_[A-Z]+|ERR_[A-Z]+|OK|AG_[A-Z]+|CONS_[A-Z]+|MAGIC|VERSION)\b' |
  sed 's/^\(E_[A-Z]*\) -\([0-9]*\)$/\1 \2/' >"$tmp/stream.c.txt"
sv_items "$G/tcpa_stream_pkg.sv" >"$tmp/stream.sv.txt"
[ -s "$tmp/stream.c.txt" ] && [ "$(wc -l <"$tmp/stream.c.txt")" -ge 20 ] &&
  diff "$tmp/stream.c.txt" "$tmp/stream.sv.txt" >"$tmp/stream.diff"
st=$?
check "tcpa_stream_pkg.sv: every constant of stream.h with its C value, no other ($(wc -l <"$tmp/stream.c.txt") items; $(head -c 200 "$tmp/stream.diff" | tr '\n' ' '))" $st
grep -q "typedef enum logic \[2:0\] {" "$G/tcpa_stream_pkg.sv" && grep -q "} pkt_kind_e;" "$G/tcpa_stream_pkg.sv" &&
  grep -q "} err_e;" "$G/tcpa_stream_pkg.sv" && grep -q "STREAM_MAGIC = 32'h41504354;" "$G/tcpa_stream_pkg.sv"
check "tcpa_stream_pkg.sv: typed enums pkt_kind_e (3 bits) and err_e, the magic as a localparam" $?

# -- the ISA package -------------------------------------------------------
c_items common/isa.h 's/^ISA_OP_/OPC_/' '\bISA_OP_[A-Z]+\b' | grep -v '^OPC_COUNT ' >"$tmp/isa.c.txt"
sv_items "$G/tcpa_isa_pkg.sv" | grep '^OPC_' >"$tmp/isa.sv.txt"
[ "$(wc -l <"$tmp/isa.c.txt")" -ge 20 ] && diff "$tmp/isa.c.txt" "$tmp/isa.sv.txt" >"$tmp/isa.diff"
st=$?
check "tcpa_isa_pkg.sv: opcode_e has OPC_<X> = ISA_OP_<X> for every opcode of isa.h ($(wc -l <"$tmp/isa.c.txt"))" $st
sed 's/^OPC_/OP_/' "$tmp/isa.c.txt" >"$tmp/isa.op.txt"
sed -n 's/^ *localparam int unsigned \(OP_[A-Z]*\) = \([0-9]*\);$/\1 \2/p' "$G/tcpa_isa_pkg.sv" | sort >"$tmp/isa.opsv.txt"
diff "$tmp/isa.op.txt" "$tmp/isa.opsv.txt" >/dev/null && grep -q "} opcode_e;" "$G/tcpa_isa_pkg.sv"
check "tcpa_isa_pkg.sv: the OP_<X> localparams the RTL uses are still there, same values" $?

# -- the trace events header -----------------------------------------------
# the enumerators of trace.h's two enums, in its order
ids=$(sed -n '/^typedef enum {/,/} trace_fault_kind;/p' common/trace.h | grep -oE '\bTRACE_[A-Z_]+\b')
{
  echo '#include <stdio.h>'
  echo '#ifdef GEN'
  echo '#include "tcpa_trace_events.h"'
  echo '#define KN(k) trace_events_kind_name(k)'
  echo '#define FN(k) trace_events_fault_name(k)'
  echo '#else'
  echo '#include "trace.h"'
  echo '#define KN(k) trace_kind_name((trace_kind)(k))'
  echo '#define FN(k) trace_fault_name((trace_fault_kind)(k))'
  echo '#endif'
  echo 'int main(void) {'
  for id in $ids; do echo "  printf(\"$id %d\\n\", (int)$id);"; done
  echo '  for (int k = 0; k < TRACE_KIND_COUNT; k++) printf("kind %d %s\n", k, KN(k));'
  echo '  for (int f = 0; f < TRACE_FAULT_COUNT; f++) printf("fault %d %s\n", f, FN(f));'
  echo '  return 0;'
  echo '}'
} >"$tmp/ev.c"
$CC $CFLAGS -Icommon "$tmp/ev.c" "common/trace.c" -o "$tmp/ev_c" 2>"$tmp/ev_c.log" &&
  "$tmp/ev_c" >"$tmp/ev_c.txt"
check "the trace program builds against common/trace.h and trace.c" $?
$CC $CFLAGS -DGEN -I"$G" "$tmp/ev.c" -o "$tmp/ev_g" 2>"$tmp/ev_g.log" && "$tmp/ev_g" >"$tmp/ev_g.txt" &&
  [ "$(wc -l <"$tmp/ev_c.txt")" -ge 40 ] && diff "$tmp/ev_c.txt" "$tmp/ev_g.txt" >"$tmp/ev.diff"
st=$?
check "tcpa_trace_events.h (as C): every kind of trace.h, same value, same name ($(cat "$tmp/ev_g.log" "$tmp/ev.diff" | head -c 200 | tr '\n' ' '))" $st
$CXX -Wall -Wextra -Werror -x c++ -DGEN -I"$G" "$tmp/ev.c" -o "$tmp/ev_gxx" 2>"$tmp/ev_gxx.log" &&
  "$tmp/ev_gxx" | diff "$tmp/ev_c.txt" - >/dev/null
st=$?
check "tcpa_trace_events.h (as C++): the same ($(head -c 200 "$tmp/ev_gxx.log" | tr '\n' ' '))" $st
for order in '"tcpa_trace_events.h" "trace.h"' '"trace.h" "tcpa_trace_events.h"'; do
  { for h in $order; do echo "#include $h"; done
    echo 'int main(void) { return TRACE_DONE + TRACE_FAULT_TIMEOUT == 27 && trace_events_kind_name(TRACE_HOP) ? 0 : 1; }'
  } >"$tmp/both.cpp"
  $CXX -Wall -Wextra -Werror -I"$G" -Icommon "$tmp/both.cpp" -o "$tmp/both" 2>"$tmp/both.log" && "$tmp/both"
  check "C++ includes both headers in the order $order" $?
done

# -- the loader's error names ----------------------------------------------
# tcpa_stream_errors.h names every code the RTL loader reports as
# common/stream.c's stream_error_name names the same error (as C and C++)
{
  echo '#include <stdio.h>'
  echo '#include <string.h>'
  echo '#include "stream.h"'
  echo '#include "tcpa_stream_errors.h"'
  echo 'int main(void) {'
  echo '  int bad = TCPA_STREAM_ERRORS != 1 - STREAM_ERR_BUSY || strcmp(stream_errors_name(TCPA_STREAM_ERRORS), "?") ||'
  echo '            strcmp(stream_errors_name(14), "region busy");'
  echo '  for (int c = 0; c < TCPA_STREAM_ERRORS; c++)'
  echo '    if (strcmp(stream_errors_name(c), stream_error_name(-c))) bad = 1, printf("%d: %s\n", c, stream_errors_name(c));'
  echo '  return bad;'
  echo '}'
} >"$tmp/se.c"
libs="$BUILD/lib/libtcpa.a $(pkg-config --libs isl 2>/dev/null || echo -lisl) -lgmp -linih -lz -lm"
$CC $CFLAGS -Icommon -I"$G" "$tmp/se.c" $libs -o "$tmp/se_c" 2>"$tmp/se_c.log" && "$tmp/se_c" >"$tmp/se_c.txt"
ok=$?; check "tcpa_stream_errors.h (as C): codes 0..$(( $(sed -n 's/^#define TCPA_STREAM_ERRORS //p' "$G/tcpa_stream_errors.h") - 1 )) named as stream_error_name names them ($(cat "$tmp/se_c.log" "$tmp/se_c.txt" | head -c 200 | tr '\n' ' '))" $ok
$CXX -Wall -Wextra -Werror -fsyntax-only -x c++ -I"$G" - <<<'#include "tcpa_stream_errors.h"
int main() { return stream_errors_name(6)[0] == 0; }' 2>"$tmp/se_xx.log"
ok=$?; check "tcpa_stream_errors.h compiles as C++ ($(head -c 200 "$tmp/se_xx.log" | tr '\n' ' '))" $ok

# -- a changed C constant changes the generated file -------------------------
mkdir -p "$tmp/inc"
sed 's/^#define STREAM_VERSION 3u/#define STREAM_VERSION 9u/' common/stream.h >"$tmp/inc/stream.h"
$CC $CFLAGS -I"$tmp/inc" -Icommon common/gen/gen_stream_pkg.c -o "$tmp/gen_stream" 2>"$tmp/gs.log" &&
  "$tmp/gen_stream" >"$tmp/stream9.sv" && ! cmp -s "$tmp/stream9.sv" "$G/tcpa_stream_pkg.sv" &&
  grep -q "STREAM_VERSION = 32'd9;" "$tmp/stream9.sv"
check "STREAM_VERSION 9 in stream.h: the stream package says 32'd9" $?
sed 's/TRACE_HOP, TRACE_PUSH,/TRACE_PUSH, TRACE_HOP,/' common/trace.h >"$tmp/inc/trace.h"
cp common/trace.c "$tmp/inc/trace.c"
! cmp -s common/trace.h "$tmp/inc/trace.h" &&
  $CC $CFLAGS -I"$tmp/inc" -Icommon common/gen/gen_trace_events.c "$tmp/inc/trace.c" -o "$tmp/gen_ev" 2>"$tmp/ge.log" &&
  "$tmp/gen_ev" >"$tmp/ev_swapped.h" && grep -q '^  TRACE_PUSH = 12,$' "$tmp/ev_swapped.h" &&
  grep -q '^  TRACE_HOP = 13,$' "$tmp/ev_swapped.h"
check "hop and push swapped in trace.h: swapped in the generated header" $?
sed 's/^#define ISA_SIZE_OP 6$/#define ISA_SIZE_OP 7/' common/isa.h >"$tmp/inc/isa.h"
$CC $CFLAGS -I"$tmp/inc" -Icommon common/gen/gen_isa_pkg.c -o "$tmp/gen_isa" 2>"$tmp/gi.log" &&
  "$tmp/gen_isa" >"$tmp/isa7.sv" && grep -q 'typedef enum logic \[6:0\] {' "$tmp/isa7.sv" &&
  grep -q "OPC_ABS = 7'd25" "$tmp/isa7.sv"
check "ISA_SIZE_OP 7 in isa.h: opcode_e is 7 bits wide" $?

# -- no hand-written copy in rtl/ or tb/ -------------------------------------
# hand_copies DIR...: prints the lines of DIR that copy a contract by hand
hand_copies() {
  local f
  grep -rnIiE '41504354|54435041' "$@"
  grep -rnIE '\b(localparam|parameter)\b[^;]*\b(PKT_[A-Z]+|E_(NONE|SHORT|MAGIC|VERSION|FINGERPRINT|LENGTH|CRC|TRUNCATED|TYPE|RECT|PAYLOAD|ORDER)|STREAM_(MAGIC|VERSION)|AG_(OFF|READ|WRITE)|OPC?_[A-Z]+)\s*=' "$@"
  grep -rnIE '^\s*(PKT_[A-Z]+|E_[A-Z]+|AG_(OFF|READ|WRITE)|OPC_[A-Z]+)\s*=' "$@"
  grep -rnIE '\bEV_(START|SIG|ISSUE|HALT|POP|FDRD|WR|HOP|PUSH|BANK|FAULT|DONE)\b' "$@"
  for f in $(grep -rlI . "$@"); do
    perl -0777 -ne 'print "$ARGV: an enum of trace kinds\n" if /enum\b[^;{]*\{[^}]*\b\w*START\b[^}]*\b\w*ISSUE\b/s;
                    print "$ARGV: a table of trace kind names\n"
                      if /"start"\s*,\s*"sig"\s*,\s*"issue"\s*,\s*"halt"\s*,\s*"pop"|"underflow"\s*,\s*"overflow"\s*,\s*"wconflict"/;
                    print "$ARGV: a table of loader error names\n" if /"stream too short"/' "$f"
  done
  find "$@" -name rtl_events.h
}
hand_copies rtl tb >"$tmp/copies"
[ ! -s "$tmp/copies" ]
st=$?
check "rtl/ and tb/ hold no hand-written copy of a contract ($(head -3 "$tmp/copies" | tr '\n' ' '))" $st
# the copies this project kept by hand before the generators: found
mkdir -p "$tmp/old/rtl" "$tmp/old/tb"
printf '  localparam logic [2:0] PKT_GC      = 3'"'"'d4;\n' >"$tmp/old/rtl/a.sv"
printf '  localparam logic [31:0] STREAM_MAGIC   = 32'"'"'h41504354;\n' >"$tmp/old/rtl/b.sv"
printf '  localparam logic [3:0] E_CRC         = 4'"'"'d6;\n' >"$tmp/old/rtl/c.sv"
printf 'enum rtl_event_kind {\n  EV_START, EV_SIG, EV_ISSUE, EV_HALT\n};\n' >"$tmp/old/tb/d.h"
printf 'static const char *const n[] = {"start", "sig",  "issue", "halt",\n  "pop", "fdrd"};\n' >"$tmp/old/tb/e.h"
printf 'static const char *const names[] = {\n  "ok", "stream too short", "bad magic"};\n' >"$tmp/old/tb/f.h"
for f in a.sv b.sv c.sv; do
  hand_copies "$tmp/old/rtl/$f" >"$tmp/found" 2>/dev/null
  [ -s "$tmp/found" ]
  st=$?
  check "the search finds an old hand copy ($(cat "$tmp/old/rtl/$f"))" $st
done
hand_copies "$tmp/old/tb/d.h" | grep -q 'an enum of trace kinds'
check "the search finds an old enum of trace kinds" $?
hand_copies "$tmp/old/tb/e.h" | grep -q 'a table of trace kind names'
check "the search finds an old table of trace kind names" $?
hand_copies "$tmp/old/tb/f.h" | grep -q 'a table of loader error names'
check "the search finds an old table of the loader's error names (tb/rtl_collect.h kept one)" $?
exit $fail
