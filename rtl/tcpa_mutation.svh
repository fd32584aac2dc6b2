// tcpa_mutation.svh: the fault-injection hooks of the TCPA RTL (docs/rtl.md
// "Fault injection"), one definition for every module that has a hook.
// Included (path from the source root, where every Verilator and Yosys run
// of the project starts) at the top of such a module's file.
//
// With +define+TCPA_MUTANTS (the `mutants` harness, tb/harness.mk):
//   `TCPA_MUTANT_DECL        declares `mutant`, read once from the plusarg
//                            +mutant=N (0, the correct RTL, without it)
//   `TCPA_MUTATE(N, STMT)    the statement STMT runs when mutant N is
//                            selected: a procedural override placed at the
//                            end of an always_comb (or of a loop body)
//   `TCPA_MUTANT_ONLY(TEXT)  module items that only a mutant needs (the
//                            delayed result register of mutant 5)
//   `TCPA_MUTANT_EXPR(N, MUT, EXPR)  the expression EXPR, or MUT when
//                            mutant N is selected: for continuous
//                            assignments and conditions (tcpa_top's
//                            neighbour wiring and done, the loader's checks)
// Without the define the first three expand to nothing and the fourth to
// EXPR alone, so the default build,
// lint and Yosys see the RTL without any hook (the preprocessed text of
// `verilator -E -P` equals, blank space aside, that of the RTL before the
// hooks were gathered here).
`ifndef TCPA_MUTATION_SVH
`define TCPA_MUTATION_SVH

`ifdef TCPA_MUTANTS
`define TCPA_MUTANT_DECL \
  int unsigned mutant; \
  initial begin \
    if (!$value$plusargs("mutant=%d", mutant)) mutant = 0; \
  end
`define TCPA_MUTATE(N, STMT) \
  if (mutant == 32'd``N) begin \
    STMT \
  end
`define TCPA_MUTANT_ONLY(TEXT) TEXT
`define TCPA_MUTANT_EXPR(N, MUT, EXPR) ((mutant == 32'd``N) ? (MUT) : (EXPR))
`else
`define TCPA_MUTANT_DECL
`define TCPA_MUTATE(N, STMT)
`define TCPA_MUTANT_ONLY(TEXT)
`define TCPA_MUTANT_EXPR(N, MUT, EXPR) EXPR
`endif

`endif  // TCPA_MUTATION_SVH
