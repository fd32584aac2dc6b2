#!/usr/bin/env bash
# covers: docs/rtl.md "Generated packages"
# tier: full (two small Verilator builds and a lint, about 50 s of CPU: docs/testing.md "The budget")
# rtl_isa_layout.sh: the RTL decodes the instruction word only through the
# struct tcpa_isa_pkg::insn_t generated from common/isa.h (docs/rtl.md
# "Generated packages"), so a field's size or position changed in isa.h
# carries into the RTL's decoding with no edit in rtl/. In a scratch copy
# of the headers, isa.h gets a 7-bit opcode field (ISA_SIZE_OP 6 -> 7,
# which moves DST, SRCA and SRCB up by one bit); then:
#   - the generator still tiles the word: insn_t has a 7-bit `op` at bits
#     0..6, `dst` at 7..14, `srca` at 15..22, `srcb` at 23..30, one
#     reserved bit at 31, and the members fill 128 bits; a layout whose
#     fields overlap is refused (exit 1, nothing printed);
#   - one FU (tcpa_fu with its imem, branch unit and operation, the RTL
#     of rtl/ as it is) is built twice with Verilator, with the package of
#     isa.h and with that of the modified copy, and runs a two-word
#     program (add rd3, #21, #21 with od mask 5 ; goto 1 / sub fd1, #50,
#     #8 ; halt) whose words a C program encodes with the macros of each
#     header: each build writes the results the C encoding says (value,
#     destination, od mask, the goto's target, the halt);
#   - the build of the original package runs the modified program
#     differently (the decoding did change with the header);
#   - the whole of rtl/ is `verilator --lint-only -Wall` clean on the
#     modified package.
# The FU build takes about half a minute (-O0). Prints TAP.
set -u
BUILD=${BUILD:-build}
TCPA=${TCPA:-$BUILD/bin/tcpa}
VERILATOR=${VERILATOR:-verilator}
CC=${CC:-cc}
CXX=${CXX:-c++}
. tests/tap.sh
CFLAGS="-std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror"

# -- the modified header ------------------------------------------------------
mkdir -p "$tmp/orig" "$tmp/mod" "$tmp/bad"
sed 's/^#define ISA_SIZE_OP 6$/#define ISA_SIZE_OP 7/' common/isa.h >"$tmp/mod/isa.h"
! cmp -s common/isa.h "$tmp/mod/isa.h"
check "isa.h copy with ISA_SIZE_OP 7 (the sed found the line)" $?
# two fields on the same bits: SRCB where SRCA is
sed 's/^#define ISA_POS_SRCB (ISA_POS_SRCA + ISA_SIZE_SRC)$/#define ISA_POS_SRCB ISA_POS_SRCA/' \
  common/isa.h >"$tmp/bad/isa.h"

# gen VARIANT: builds the package generator against the variant's isa.h
# (common/ for orig) and writes $tmp/VARIANT/tcpa_isa_pkg.sv.
gen() {
  local inc=$tmp/$1
  [ "$1" = orig ] && inc=common
  $CC $CFLAGS -I"$inc" -Icommon common/gen/gen_isa_pkg.c -o "$tmp/$1/gen" 2>"$tmp/$1/gen.log" &&
    "$tmp/$1/gen" >"$tmp/$1/tcpa_isa_pkg.sv" 2>>"$tmp/$1/gen.log"
}
gen orig
check "the generator builds and runs on isa.h" $?
gen mod
st=$?
check "the generator builds and runs on the modified isa.h $(head -c 200 "$tmp/mod/gen.log")" $st
gen bad
st=$?
check_eval "overlapping SRCA and SRCB: the generator exits 1, prints no package ($(head -c 120 "$tmp/bad/gen.log"))" \
  "[ $st -eq 1 ] && [ ! -s $tmp/bad/tcpa_isa_pkg.sv ] && grep -q overlaps $tmp/bad/gen.log"

# members VARIANT: prints `name lo..hi` for each member of insn_t, from
# the generated comments, least significant first.
members() {
  sed -n '/} opnd_t;/,/} insn_t;/s/^ *[a-z_:]*\( \[[0-9]*:0\]\)\{0,1\} *\([a-z0-9]*\); *\/\/ bits \([0-9]*\)\.\.\([0-9]*\)$/\2 \3..\4/p' \
    "$tmp/$1/tcpa_isa_pkg.sv" | tac
}
members mod >"$tmp/mod/members"
exp="op 0..6
dst 7..14
srca 15..22
srcb 23..30
rsvd31 31..31
srcc 32..39
odmask 40..47
bkind 48..49
bnsel 50..51
bsel 52..63
imm 64..95
bt 96..127"
[ "$(cat "$tmp/mod/members")" = "$exp" ] && grep -q '^    opcode_e  *op;' "$tmp/mod/tcpa_isa_pkg.sv" &&
  grep -q "typedef enum logic \[6:0\] {" "$tmp/mod/tcpa_isa_pkg.sv"
st=$?
check "modified isa.h: insn_t has a 7-bit op, dst/srca/srcb one bit up, 128 bits ($(tr '\n' ' ' <"$tmp/mod/members"))" $st
members orig | head -2 | tr '\n' ' ' >"$tmp/orig/members"
[ "$(cat "$tmp/orig/members")" = "op 0..5 dst 6..13 " ]
st=$?
check "isa.h: insn_t has the 6-bit op at 0..5, dst at 6..13 ($(cat "$tmp/orig/members"))" $st

# -- the program, encoded by each header ---------------------------------------
cat >"$tmp/enc.c" <<'EOF'
/* Prints the two words of the test program as 8 hex stream words, then
 * the expected FU results, with the macros of the isa.h it is built with. */
#include <stdio.h>
#include "isa.h"
static void set_src(isa_word *w, int k, uint32_t o) {
  if (k == 0) ISA_SET_SRCA(w, o);
  else ISA_SET_SRCB(w, o);
}
int main(int argc, char **argv) {
  (void)argv;
  isa_word p[2] = {{{0}}};
  for (int k = 0; k < 2; k++) {
    set_src(&p[0], k, ISA_OPND(ISA_CLS_IMM, 0));
    set_src(&p[1], k, ISA_OPND(ISA_CLS_IMM, 0));
  }
  ISA_SET_OP(&p[0], ISA_OP_ADD);
  ISA_SET_DST(&p[0], ISA_OPND(ISA_CLS_RD, 3));
  ISA_SET_ODMASK(&p[0], 5);
  ISA_SET_IMM(&p[0], 21);
  ISA_SET_BKIND(&p[0], ISA_BR_GOTO);
  ISA_SET_BT(&p[0], 0, 1);
  ISA_SET_OP(&p[1], ISA_OP_SUB);
  ISA_SET_DST(&p[1], ISA_OPND(ISA_CLS_FD, 1));
  ISA_SET_IMM(&p[1], 50);
  ISA_SET_BKIND(&p[1], ISA_BR_HALT);
  if (argc > 1) {  /* the expected lines of the testbench */
    printf("wb dst=%02x odm=%02x val=42 pc=0 halt=0\n", ISA_OPND(ISA_CLS_RD, 3), 5u);
    printf("wb dst=%02x odm=00 val=0 pc=1 halt=1\n", ISA_OPND(ISA_CLS_FD, 1));
    return 0;
  }
  for (int i = 0; i < 2; i++)
    for (int k = 0; k < ISA_WORDS; k++) printf("%08x\n", (unsigned)p[i].w[k]);
  return 0;
}
EOF
for v in orig mod; do
  inc=$tmp/$v
  [ $v = orig ] && inc=common
  $CC $CFLAGS -I"$inc" -Icommon "$tmp/enc.c" -o "$tmp/$v/enc" 2>"$tmp/$v/enc.log" &&
    "$tmp/$v/enc" >"$tmp/$v/prog.hex" && "$tmp/$v/enc" expect >"$tmp/$v/expect"
  st=$?
  check "$v: the program encodes ($(head -c 200 "$tmp/$v/enc.log"))" $st
done
! cmp -s "$tmp/orig/prog.hex" "$tmp/mod/prog.hex"
check "the two headers encode the program differently" $?

# -- one FU, built on each package ----------------------------------------------
# the testbench: loads the program over the FU's bus ports, runs it and
# prints each write-back (sub with #50, #8: the second word's IMM is 50
# and both sources read it, so 50 - 50 = 0)
cat >"$tmp/fu_tb.sv" <<'EOF'
module fu_tb (input logic clk_i);
  localparam int unsigned NW = 2 * tcpa_isa_pkg::ISA_WORDS;
  logic [31:0] prog [NW];
  logic [7:0]  cyc = 8'd0;
  logic        we, hdr, run;
  logic [31:0] addr, data;
  logic        wb, halt;
  logic [tcpa_isa_pkg::ISA_SIZE_OPND-1:0]   dst;
  logic [tcpa_isa_pkg::ISA_SIZE_ODMASK-1:0] odm;
  logic [31:0] val;
  logic [tcpa_pkg::PC_W-1:0] pc;
  string file;
  initial begin
    if (!$value$plusargs("prog=%s", file)) $fatal(1, "no +prog=FILE");
    $readmemh(file, prog);
  end
  always_comb begin
    hdr = (cyc == 8'd2);
    we = (cyc >= 8'd3) && (cyc < 8'd3 + 8'(NW));
    addr = 32'(cyc) - 32'd3;
    data = hdr ? NW : (we ? prog[addr[$clog2(NW)-1:0]] : 32'd0);
    run = (cyc >= 8'd16);
  end
  tcpa_fu #(.IDX(8'd0), .LAT(1)) u_fu (
    .clk_i       (clk_i),
    .rst_ni      (cyc != 8'd0),
    .bus_we_i    (we),
    .bus_begin_i (hdr),
    .bus_type_i  (tcpa_stream_pkg::PKT_PROGRAM),
    .bus_index_i (8'd0),
    .bus_addr_i  (addr),
    .bus_data_i  (data),
    .run_i       (run),
    .sig_i       ('0),
    .flag_i      ('0),
    .src_o       (),
    .src_val_i   ('0),
    .issue_o     (),
    .pc_o        (pc),
    .halt_o      (halt),
    .loaded_o    (),
    .halted_o    (),
    .inflight_o  (),
    .wb_o        (wb),
    .wb_dst_o    (dst),
    .wb_odmask_o (odm),
    .wb_val_o    (val),
    .flag_o      (),
    .word_o      ()
  );
  always_ff @(posedge clk_i) begin
    cyc <= cyc + 8'd1;
    if (wb) $display("wb dst=%02x odm=%02x val=%0d pc=%0d halt=%0d", dst, odm, val, pc, halt);
    if (cyc == 8'd24) $finish;
  end
endmodule
EOF
cat >"$tmp/fu_main.cpp" <<'EOF'
#include "Vfu_tb.h"
#include "verilated.h"
int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  Vfu_tb top;
  while (!Verilated::gotFinish()) {
    top.clk_i = !top.clk_i;
    top.eval();
  }
  return 0;
}
EOF
"$TCPA" arch configs/default.ini --sv -o "$tmp/tcpa_params_pkg.sv" >"$tmp/arch.log" 2>&1
check "tcpa arch --sv writes the parameter package" $?
# the whole RTL (the PE's operand decoding, the register file, the debug
# ports) is lint clean on the modified package as it is on isa.h's
sv="rtl/tcpa_pkg.sv $(ls rtl/tcpa_*.sv | grep -v tcpa_pkg.sv | sort)"
# shellcheck disable=SC2086
nice "$VERILATOR" --lint-only -Wall --top-module tcpa_top rtl/lint_waivers.vlt \
  "$tmp/tcpa_params_pkg.sv" "$tmp/mod/tcpa_isa_pkg.sv" "$BUILD/gen/tcpa_stream_pkg.sv" $sv \
  >"$tmp/mod/lint.log" 2>&1
st=$?
check "mod: verilator --lint-only -Wall of rtl/ is clean $(grep -m1 '^%' "$tmp/mod/lint.log")" $st

built=()
for v in orig mod; do
  # shellcheck disable=SC2086
  nice "$VERILATOR" --cc --exe --build -O0 -Wno-fatal -Wno-lint -Wno-style --top-module fu_tb \
    -Mdir "$tmp/$v/obj" -CFLAGS -O0 \
    "$tmp/tcpa_params_pkg.sv" "$tmp/$v/tcpa_isa_pkg.sv" "$BUILD/gen/tcpa_stream_pkg.sv" \
    rtl/tcpa_pkg.sv rtl/tcpa_fu.sv rtl/tcpa_imem.sv rtl/tcpa_branch_unit.sv rtl/tcpa_op_eval.sv \
    "$tmp/fu_tb.sv" "$tmp/fu_main.cpp" >"$tmp/$v/build.log" 2>&1
  st=$?
  check "$v: tcpa_fu builds on its package $(grep -m1 '%Error' "$tmp/$v/build.log")" $st
  [ $st -eq 0 ] && built+=($v)
done
[ ${#built[@]} -eq 2 ] || { unbuilt "the FU runs"; exit 1; }
for v in orig mod; do
  "$tmp/$v/obj/Vfu_tb" "+prog=$tmp/$v/prog.hex" 2>&1 | grep -v 'Verilog \$finish' >"$tmp/$v/out"
  diff "$tmp/$v/expect" "$tmp/$v/out" >"$tmp/$v/diff"
  st=$?
  check "$v: the FU runs its program as its isa.h encodes it ($(head -c 200 "$tmp/$v/diff" | tr '\n' ' '))" $st
done
"$tmp/orig/obj/Vfu_tb" "+prog=$tmp/mod/prog.hex" 2>&1 | grep -v 'Verilog \$finish' >"$tmp/cross.out"
[ -s "$tmp/cross.out" ] && ! cmp -s "$tmp/cross.out" "$tmp/mod/expect"
st=$?
check "the FU of the original package runs the modified program otherwise ($(head -1 "$tmp/cross.out"))" $st
exit $fail
