// sc_model.cpp: the C model as a SystemC module (sc_model.h): a method
// sensitive to the falling clock edge steps the machine and buffers the
// cycle's events.
#include "sc_model.h"

sc_model_module::sc_model_module(sc_core::sc_module_name name, model *m, uint64_t max_cycles)
    : sc_core::sc_module(name), clk_i("clk_i"), run_i("run_i"), m_(m), max_(max_cycles) {
  model_set_trace(m_, sink, this);
  SC_METHOD(step);
  sensitive << clk_i.neg();
  dont_initialize();
}

// Appends one event of the model to the buffer (a model_trace_fn).
void sc_model_module::sink(const trace_event *e, void *ctx) {
  static_cast<sc_model_module *>(ctx)->buf_.push_back(*e);
}

// Runs one cycle of the model when the machine runs and is not finished.
void sc_model_module::step() {
  if (!run_i.read() || finished_) return;
  if (t_ + 1 >= max_) {
    model_run(m_, max_);  // the last cycle: done, or the timeout fault
    finished_ = true;
  } else if (model_step(m_)) {
    finished_ = true;
  }
  t_++;
}

// Returns the buffered events (see sc_model.h) and empties the buffer.
std::vector<trace_event> sc_model_module::events_take() {
  std::vector<trace_event> out;
  out.swap(buf_);
  return out;
}
