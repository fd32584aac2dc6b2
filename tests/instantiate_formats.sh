#!/usr/bin/env bash
# covers: docs/instantiate.md "Output formats"
# instantiate_formats.sh: `tcpa instantiate --format` (common/
# stream_export.c). TAP. matmul (N=4 M=2 K=2 on 1x2, A = 1..8) written
# as bin, c-header and readmemh:
#   - c-header: a C program that includes it and writes matmul_4_stream
#     out byte for byte gives the .bin exactly; its length constant too;
#   - readmemh: its words, turned back into little-endian bytes, give the
#     .bin exactly; one bank file per bank the IODATA fills, listed in
#     the .banks index, each iobuf.depth lines; A's tiles in the north
#     banks of PEs (0,0) and (0,1): 1 2 3 4 and 5 6 7 8;
#   - an unknown format: exit 2 naming it; a readmemh into a directory
#     that does not exist: exit 2 and no file written.
# Environment: TCPA (default build/bin/tcpa).
set -u
. tests/tap.sh
cd "$tmp" || exit 2
"$TCPA" compile "$OLDPWD/regress/programs/matmul.pla" -o mm.sym >/dev/null
check "tcpa compile matmul" $?
echo "1 2 3 4 5 6 7 8" > A.txt
inst() { "$TCPA" instantiate mm.sym --param N=4 --param M=2 --param K=2 --pes 1x2 --in A=A.txt "$@"; }
inst -o mm.bin >/dev/null
check "--format bin (the default) writes the stream" $?

inst -o matmul-4.h --format c-header >/dev/null
check "--format c-header writes matmul-4.h" $?
cat > dump.c <<'C'
#include <stdio.h>
#include "matmul-4.h"
int main(void) {
  fwrite(matmul_4_stream, 1, matmul_4_stream_len, stdout);
  return sizeof matmul_4_stream != matmul_4_stream_len;
}
C
cc -std=c11 -Wall -Wextra -Werror dump.c -o dump 2>cc.err && ./dump > from_h.bin
st=$?; check "a C program including it compiles and runs ($(head -2 cc.err))" $st
cmp -s from_h.bin mm.bin; st=$?; check "its array is the stream byte for byte ($(stat -c %s mm.bin) bytes)" $st

inst -o mm.memh --format readmemh > out.txt
st=$?; check "--format readmemh writes mm.memh ($(tail -1 out.txt))" $st
python3 - mm.memh > from_memh.bin <<'PY'
import sys
sys.stdout.buffer.write(b"".join(int(l, 16).to_bytes(4, "little") for l in open(sys.argv[1])))
PY
cmp -s from_memh.bin mm.bin; check "its words are the stream's, in order" $?
nb=$(wc -l < mm.banks); nf=$(ls mm.r*.memh 2>/dev/null | wc -l)
check_eval "one bank file per line of mm.banks ($nb lines, $nf files)" "[ $nb -ge 2 ] && [ $nb -eq $nf ]"
bad=0
while read -r row col side bank file; do
  [ -f "$file" ] && [ "$(wc -l < "$file")" -eq 1024 ] || bad=1
done < mm.banks
check_eval "each listed bank file exists and holds iobuf.depth (1024) words" "[ $bad -eq 0 ]"
check_eval "A's first tile in PE (0,0)'s north bank 0: 1 2 3 4" \
  "[ \"\$(head -4 mm.r0.c0.n0.memh | tr '\n' ' ')\" = '00000001 00000002 00000003 00000004 ' ]"
check_eval "A's second tile in PE (0,1)'s north bank 0: 5 6 7 8" \
  "[ \"\$(head -4 mm.r0.c1.n0.memh | tr '\n' ' ')\" = '00000005 00000006 00000007 00000008 ' ]"

inst -o x.bin --format vhdl >/dev/null 2>err.txt
st=$?
check_eval "--format vhdl: exit 2 naming it ($(cat err.txt))" "[ $st -eq 2 ] && grep -q \"'vhdl'\" err.txt"
inst -o nodir/mm.memh --format readmemh >/dev/null 2>err.txt
st=$?
check_eval "readmemh into a missing directory: exit 2, nothing written ($(head -1 err.txt))" \
  "[ $st -eq 2 ] && [ ! -e nodir ]"
exit $fail
