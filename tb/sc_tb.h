// sc_tb.h: the testbench of the SystemC engine (tcpa-sc, tb/sc_main.cpp):
// a SystemC module that drives the Verilated TCPA (verilator --sc, module
// Vtcpa_top) and checks it, cycle by cycle, against the C model module
// (sc_model.h) with the lockstep checker (tb/lockstep.h).
//
// It creates one sc_signal per port of Vtcpa_top (typed after the port, so
// any configuration's widths fit) and binds the model's run_i to the RTL's
// run_o. Its thread, clocked by the same sc_clock as both modules:
//
//   reset    rst_ni low for 3 rising edges, then high for one;
//   load     the stream through the valid/ready port, as tcpa-rtl does: at
//            each falling edge (the state settled) a word is presented
//            unless the loader raised err_o; the rising edge takes it when
//            cfg_ready_o was high; then up to 4 cycles for run_o or err_o;
//   run      at the falling edge of cycle t (run_o high from cycle 0 on)
//            the dbg_* ports are turned into trace events (rtl_collect.h,
//            the extraction tcpa-rtl uses); at the rising edge that ends
//            cycle t, the RTL's events and the model's (stepped at the same
//            falling edge) are fed to the checker and cycle t is ended; in
//            the done cycle the `leftover` faults are read after the edge,
//            as tcpa-rtl does; in the last cycle of the limit the RTL gets
//            its `fault - timeout N`;
//   stop     at the first divergence, or when the RTL is done or timed
//            out (the model's remaining events then go to the checker and
//            lockstep_finish compares them); the banks of both machines
//            are read (the RTL's through dbg_rd_addr_i / dbg_rd_data_o, in
//            delta cycles at one instant) and the simulation stops
//            (sc_stop).
//
// Both sides' events are kept per side (done, done cycles, last bank
// write, faults by kind) for the verdict, and written as trace files when
// asked.
#ifndef TCPA_SC_TB_H
#define TCPA_SC_TB_H

#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "Vtcpa_top.h"
#include "rtl_collect.h"
#include "sc_model.h"

extern "C" {
#include "lockstep.h"
}

// What one side did, from its events.
struct sc_tb_side {
  bool done = false;
  uint64_t done_cycles = 0;
  uint64_t cycles = 0;          // last bank write + 1 (0: none)
  uint64_t faults = 0;
  uint64_t fault_count[TRACE_FAULT_COUNT] = {0};
  uint64_t events = 0;
};

// How a run ended.
enum sc_tb_verdict {
  SC_TB_RUNNING,
  SC_TB_AGREE,      // the traces agree to the end
  SC_TB_DIVERGED,   // the first divergence is in lockstep_result
  SC_TB_REJECTED,   // the RTL loader refused the stream (loader_error)
  SC_TB_ERROR       // the checker refused (header) or failed; see error
};

struct sc_tb_module : sc_core::sc_module {
  SC_HAS_PROCESS(sc_tb_module);
  sc_core::sc_in<bool> clk_i;

  // Builds the testbench around rtl and mdl for the stream words (the file
  // length in bytes: bytes), cycle limit max_cycles, the model's
  // architecture fingerprint fp_model; mtrace and rtrace (NULL: none) get
  // the two traces as they run.
  sc_tb_module(sc_core::sc_module_name name, Vtcpa_top *rtl, sc_model_module *mdl,
               const std::vector<uint32_t> &words, size_t bytes, uint64_t max_cycles,
               uint64_t fp_model, FILE *mtrace, FILE *rtrace);
  ~sc_tb_module();

  sc_tb_verdict verdict = SC_TB_RUNNING;
  int loader_error = 0;        // SC_TB_REJECTED: err_code_o
  std::string error;           // SC_TB_ERROR: why
  sc_tb_side side[2];          // LOCKSTEP_MODEL, LOCKSTEP_RTL
  uint64_t cycles_run = 0;     // cycles of the RTL checked (last + 1)
  uint64_t edges_before = 0;   // rising edges before cycle 0 (reset, load):
                               // tcpa-rtl's ticks, so its FST has cycle 0
                               // at time 2 * edges_before
  lockstep *ls = nullptr;
  // banks as dbg_rd_data_o orders them ((p * 4 + side) * banks + bank)
  std::vector<std::vector<uint32_t>> rtl_banks;

 private:
  void run();
  int load();
  void check_cycle(uint64_t t, std::vector<rtl_event> &ev);
  void note(int s, const trace_event &e);
  void read_banks();
  void finish(sc_tb_verdict v);
  void edge();

  Vtcpa_top *rtl_;
  sc_model_module *mdl_;
  std::vector<uint32_t> words_;
  size_t bytes_;
  uint64_t max_;
  FILE *mtrace_, *rtrace_;
  std::vector<std::shared_ptr<void>> sigs_;  // the port signals, owned
  sc_core::sc_signal<bool> *rst_ = nullptr, *valid_ = nullptr, *last_ = nullptr;
  sc_core::sc_signal<uint32_t> *data_ = nullptr;
  std::function<void(uint32_t)> rd_addr_write_;  // dbg_rd_addr_i (its width varies)
};

// Returns the one-line description of divergence d: "cycle C, PE (R,C),
// KIND UNIT: WHAT; expected 'LINE', got 'LINE'" (as `tcpa run --engine
// cosim` prints it).
std::string sc_tb_divergence_line(const lockstep_divergence *d);

#endif
