// sc_model.h: the cycle-accurate C model (cmodel/model.h) wrapped as a
// SystemC module, for the SystemC engine (tcpa-sc, tb/sc_main.cpp).
//
// The module owns a configured machine (model_new, done by the caller) and
// steps it once per clock period: at every falling edge of clk_i while
// run_i is high (the RTL's run_o: high from cycle 0 on), one model_step,
// that is, the events of the cycle whose rising edge came half a period
// before. The events go to a buffer, in the canonical order the model
// emits them, which the checker (sc_tb.h) takes at the next rising edge,
// together with the RTL's events of the same cycle. In the last cycle of
// the cycle limit the step is model_run(max), which adds the `fault -
// timeout N` event exactly as `tcpa sim` does. After done the module does
// nothing.
#ifndef TCPA_SC_MODEL_H
#define TCPA_SC_MODEL_H

#include <cstdint>
#include <vector>

#include <systemc>

#define _Static_assert static_assert /* isa.h is C11 */
extern "C" {
#include "model.h"
}
#undef _Static_assert

struct sc_model_module : sc_core::sc_module {
  SC_HAS_PROCESS(sc_model_module);
  sc_core::sc_in<bool> clk_i;
  sc_core::sc_in<bool> run_i;

  // Wraps machine m (owned by the caller), with the cycle limit max_cycles.
  sc_model_module(sc_core::sc_module_name name, model *m, uint64_t max_cycles);

  // Returns the events emitted since the last call and forgets them.
  std::vector<trace_event> events_take();

  // Returns whether the model is done or reached the cycle limit.
  bool finished() const { return finished_; }

  // Returns the number of cycles stepped.
  uint64_t cycles() const { return t_; }

 private:
  void step();
  static void sink(const trace_event *e, void *ctx);

  model *m_;
  uint64_t max_, t_ = 0;
  bool finished_ = false;
  std::vector<trace_event> buf_;
};

#endif
