// sc_tb.cpp: the testbench module of the SystemC engine (sc_tb.h): port
// signals, the reset / load / run thread, and the per-cycle feeding of
// both sides' events to the lockstep checker.
#include "sc_tb.h"

#include <inttypes.h>
#include <type_traits>
#include <utility>

#include "rtl_collect.h"

namespace {

// The sc_signal type matching port type P (sc_in<T> / sc_out<T>).
template <typename P>
using sc_tb_signal_for = sc_core::sc_signal<typename std::remove_reference<P>::type::data_type>;

}  // namespace

// Creates a signal for port `port` of rtl_, keeps it in sigs_, binds it,
// and yields the signal.
#define SC_TB_BIND(port)                                                       \
  ([this]() {                                                                  \
    auto *s_ = new sc_tb_signal_for<decltype(rtl_->port)>(#port);             \
    sigs_.emplace_back(std::shared_ptr<void>(s_));                            \
    rtl_->port(*s_);                                                           \
    return s_;                                                                 \
  }())

sc_tb_module::sc_tb_module(sc_core::sc_module_name name, Vtcpa_top *rtl, sc_model_module *mdl,
                           const std::vector<uint32_t> &words, size_t bytes, uint64_t max_cycles,
                           uint64_t fp_model, FILE *mtrace, FILE *rtrace)
    : sc_core::sc_module(name), clk_i("clk_i"), rtl_(rtl), mdl_(mdl), words_(words),
      bytes_(bytes), max_(max_cycles), mtrace_(mtrace), rtrace_(rtrace) {
  static_assert(std::is_same<decltype(rtl_->cfg_data_i.read()), const uint32_t &>::value,
                "cfg_data_i is 32 bits");
  rst_ = SC_TB_BIND(rst_ni);
  valid_ = SC_TB_BIND(cfg_valid_i);
  last_ = SC_TB_BIND(cfg_last_i);
  data_ = SC_TB_BIND(cfg_data_i);
  auto *addr = SC_TB_BIND(dbg_rd_addr_i);
  rd_addr_write_ = [addr](uint32_t a) { addr->write(a); };
  SC_TB_BIND(cfg_ready_o);
  SC_TB_BIND(err_o);
  SC_TB_BIND(err_code_o);
  mdl_->run_i(*SC_TB_BIND(run_o));
  SC_TB_BIND(done_o);
  SC_TB_BIND(dbg_start_o);
  SC_TB_BIND(dbg_sig_o);
  SC_TB_BIND(dbg_issue_o);
  SC_TB_BIND(dbg_pc_o);
  SC_TB_BIND(dbg_halt_o);
  SC_TB_BIND(dbg_wr_o);
  SC_TB_BIND(dbg_wr_dst_o);
  SC_TB_BIND(dbg_wr_odmask_o);
  SC_TB_BIND(dbg_wr_val_o);
  SC_TB_BIND(dbg_idrd_o);
  SC_TB_BIND(dbg_idempty_o);
  SC_TB_BIND(dbg_idhead_o);
  SC_TB_BIND(dbg_push_o);
  SC_TB_BIND(dbg_drop_o);
  SC_TB_BIND(dbg_push_val_o);
  SC_TB_BIND(dbg_fdrd_o);
  SC_TB_BIND(dbg_fdval_o);
  SC_TB_BIND(dbg_hop_o);
  SC_TB_BIND(dbg_hop_val_o);
  SC_TB_BIND(dbg_stray_o);
  SC_TB_BIND(dbg_bank_o);
  SC_TB_BIND(dbg_bank_wr_o);
  SC_TB_BIND(dbg_bank_addr_o);
  SC_TB_BIND(dbg_bank_val_o);
  SC_TB_BIND(dbg_agmiss_o);
  SC_TB_BIND(dbg_agrange_o);
  SC_TB_BIND(dbg_rd_data_o);
  // the state ports (docs/trace.md "State events")
  SC_TB_BIND(dbg_step_o);
  SC_TB_BIND(dbg_word_o);
  SC_TB_BIND(dbg_flag_o);
  SC_TB_BIND(dbg_rfwe_o);
  SC_TB_BIND(dbg_rfwd_o);
  SC_TB_BIND(dbg_fdwe_o);
  SC_TB_BIND(dbg_fdwd_o);
  SC_TB_BIND(dbg_odwe_o);
  SC_TB_BIND(dbg_odwd_o);
  SC_TB_BIND(dbg_fifocnt_o);
  SC_TB_BIND(dbg_bankwe_o);
  SC_TB_BIND(dbg_bankwa_o);
  SC_TB_BIND(dbg_bankwd_o);
  SC_TB_BIND(dbg_gc_begin_o);
  SC_TB_BIND(dbg_gc_step_o);
  SC_TB_BIND(dbg_gc_sig_o);
  // the regions' ports (docs/rtl.md "Several regions"): bound, not read
  // (this harness runs one stream)
  SC_TB_BIND(dbg_gc_rstart_o);
  SC_TB_BIND(dbg_gc_rdone_o);
  SC_TB_BIND(dbg_gc_cycles_o);
  SC_TB_BIND(dbg_gc_rect_o);
  SC_TB_BIND(dbg_phide_o);
  SC_TB_BIND(dbg_pclear_o);
  SC_TB_BIND(dbg_cfg_io_o);
  // `mem` (the bank words written since reset) is not collected here: this
  // harness does not watch the loader's bank writes (docs/trace.md), so the
  // model's mem events are not fed (feed_model)
  ls = lockstep_new(LOCKSTEP_KINDS_ALL, LOCKSTEP_WINDOW_DEFAULT);
  if (ls) {
    lockstep_header(ls, LOCKSTEP_MODEL, TRACE_VERSION, fp_model);
    lockstep_header(ls, LOCKSTEP_RTL, TRACE_VERSION, TCPA_ARCH_FINGERPRINT);
  }
  if (mtrace_) fprintf(mtrace_, "# tcpa-trace %d fp=0x%016" PRIx64 "\n# engine tcpa-sc model\n",
                       TRACE_VERSION, fp_model);
  if (rtrace_) fprintf(rtrace_, "# tcpa-trace %d fp=0x%016llx\n# engine tcpa-sc rtl\n", TRACE_VERSION,
                       (unsigned long long)TCPA_ARCH_FINGERPRINT);
  SC_THREAD(run);
}

sc_tb_module::~sc_tb_module() { lockstep_free(ls); }

// Ends the run with verdict v (unless one is already set) and stops the
// simulation.
void sc_tb_module::finish(sc_tb_verdict v) {
  if (verdict == SC_TB_RUNNING) verdict = v;
  sc_core::sc_stop();
}

// Waits for the next rising edge before cycle 0, counting it.
void sc_tb_module::edge() {
  wait(clk_i.posedge_event());
  edges_before++;
}

// Returns the loader's error code after feeding the stream (0: started,
// run_o is high in the current, settled state: cycle 0). At a falling
// edge on return.
int sc_tb_module::load() {
  const sc_core::sc_event &neg = clk_i.negedge_event();
  size_t i = 0, n = words_.size();
  long guard = 0;
  for (;;) {
    wait(neg);  // the state after the last edge, settled
    if (!(i < n && !rtl_->err_o.read() && guard++ < (long)n * 4 + 16)) break;
    valid_->write(true);
    data_->write(words_[i]);
    last_->write(i + 1 == n);
    edge();  // the edge takes the word when the loader was ready for it
    if (rtl_->cfg_ready_o.read()) i++;
  }
  valid_->write(false);
  last_->write(false);
  // the loader raises start one cycle after the last word, run the next
  for (int k = 0; k < 4 && !rtl_->run_o.read() && !rtl_->err_o.read(); k++) {
    edge();
    wait(neg);
  }
  if (rtl_->err_o.read()) return (int)rtl_->err_code_o.read();
  return rtl_->run_o.read() ? 0 : 5;  // no start without an error: a length problem
}

// Notes event e of side s in its statistics and trace file.
void sc_tb_module::note(int s, const trace_event &e) {
  sc_tb_side &d = side[s];
  d.events++;
  if (e.kind == TRACE_BANK && e.bank_write && e.cycle + 1 > d.cycles) d.cycles = e.cycle + 1;
  if (e.kind == TRACE_DONE) {
    d.done = true;
    d.done_cycles = e.cycles;
  }
  if (e.kind == TRACE_FAULT && e.fault < TRACE_FAULT_COUNT) {
    d.fault_count[e.fault]++;
    d.faults++;
  }
  if (s == LOCKSTEP_MODEL && mtrace_) trace_event_write(mtrace_, &e);
}

// Feeds the RTL's events ev of cycle t and the model's buffered events to
// the checker and ends cycle t; sets the verdict on a divergence or error.
void sc_tb_module::check_cycle(uint64_t t, std::vector<rtl_event> &ev) {
  rtl_event_sort(ev);
  char msg[160];
  for (const rtl_event &re : ev) {
    std::string line = rtl_event_format((long)t, re);
    if (rtrace_) fputs(line.c_str(), rtrace_);
    trace_event e;
    line.pop_back();  // the newline
    if (trace_line_parse(line.c_str(), &e, msg, sizeof msg) != TRACE_LINE_EVENT) {
      error = "the RTL's event '" + line + "' is not canonical: " + msg;
      return finish(SC_TB_ERROR);
    }
    note(LOCKSTEP_RTL, e);
    lockstep_feed_rtl(ls, &e);
  }
  for (const trace_event &e : mdl_->events_take()) {
    note(LOCKSTEP_MODEL, e);
    if (e.kind != TRACE_MEM) lockstep_feed_model(ls, &e);
  }
  lockstep_status st = lockstep_end_cycle(ls, t);
  cycles_run = t + 1;
  if (st == LOCKSTEP_DIVERGED) finish(SC_TB_DIVERGED);
  if (st == LOCKSTEP_ERROR || st == LOCKSTEP_REFUSED) {
    error = st == LOCKSTEP_ERROR ? lockstep_error_message(ls)
                                 : "the model's and the RTL's fingerprints differ";
    finish(SC_TB_ERROR);
  }
}

// Reads every bank word of the RTL into rtl_banks: one address after the
// other, each settled in delta cycles, so the time does not advance.
void sc_tb_module::read_banks() {
  rtl_banks.assign(rtl_collect_nbanks(), std::vector<uint32_t>());
  for (int addr = 0; addr < TCPA_IOBUF_DEPTH; addr++) {
    rd_addr_write_((uint32_t)addr);
    wait(sc_core::SC_ZERO_TIME);  // the address reaches the RTL
    wait(sc_core::SC_ZERO_TIME);  // its eval's outputs are updated
    for (size_t a = 0; a < rtl_banks.size(); a++)
      rtl_banks[a].push_back(rtl_port_bits(rtl_->dbg_rd_data_o, (unsigned)(a * 32), 32));
  }
}

// The testbench thread: reset, load, run in lockstep, read the banks.
void sc_tb_module::run() {
  const sc_core::sc_event &pos = clk_i.posedge_event(), &neg = clk_i.negedge_event();
  if (!ls) {
    error = "out of memory";
    return finish(SC_TB_ERROR);
  }
  if (lockstep_status_get(ls) != LOCKSTEP_RUNNING) {
    error = "the model's and the RTL's fingerprints differ";
    return finish(SC_TB_ERROR);
  }
  rst_->write(false);
  valid_->write(false);
  for (int k = 0; k < 3; k++) edge();
  rst_->write(true);
  edge();
  int code = (bytes_ % 4 != 0 || bytes_ < 24) ? 1 : load();
  if (code) {
    loader_error = code;
    return finish(SC_TB_REJECTED);
  }
  const int npe = TCPA_ARRAY_ROWS * TCPA_ARRAY_COLS;
  std::vector<uint32_t> prev_sig(npe, 0);
  rtl_collect_state state;  // the state events' last values (docs/trace.md)
  bool fault = false;
  for (uint64_t t = 0; verdict == SC_TB_RUNNING; t++) {
    // at the falling edge of cycle t: the state and events of cycle t
    std::vector<rtl_event> ev;
    for (int p = 0; p < npe; p++) {
      rtl_collect_pe(rtl_, p, ev, prev_sig, &fault);
      rtl_collect_ag(rtl_, p, ev, &fault);
      rtl_collect_state_pe(rtl_, p, ev, state);
    }
    rtl_collect_gc(rtl_, ev);
    bool done = rtl_->done_o.read();
    wait(pos);  // the edge that ends cycle t; the model has stepped it
    if (done) {
      wait(neg);  // FIFO contents at the end of the done cycle
      rtl_collect_leftover(rtl_, ev);
      rtl_event_add(ev, TRACE_DONE, -1, -1, 0, 0).cycles = t + 1;
    } else if (t + 1 == max_) {
      rtl_event_fault(ev, -1, -1, nullptr, TRACE_FAULT_TIMEOUT, "%" PRIu64, max_);
    }
    check_cycle(t, ev);
    if (verdict != SC_TB_RUNNING) return;
    if (done || t + 1 == max_) {
      if (!done) wait(neg);
      for (const trace_event &e : mdl_->events_take()) {  // the model's cycle after
        note(LOCKSTEP_MODEL, e);
        if (e.kind != TRACE_MEM) lockstep_feed_model(ls, &e);
      }
      lockstep_status st = lockstep_finish(ls);
      read_banks();
      return finish(st == LOCKSTEP_DIVERGED ? SC_TB_DIVERGED : SC_TB_AGREE);
    }
    wait(neg);
  }
}

std::string sc_tb_divergence_line(const lockstep_divergence *d) {
  static const char *const what[] = {"none", "different values", "missing in the RTL",
                                     "extra in the RTL", "version", "fingerprint"};
  char ev[128] = "", ea[128] = "", line[512];
  if (d->has_model) trace_event_format(&d->model, ev, sizeof ev);
  if (d->has_rtl) trace_event_format(&d->rtl, ea, sizeof ea);
  snprintf(line, sizeof line, "cycle %" PRIu64 ", PE (%d,%d), %s%s%s: %s; expected '%s', got '%s'",
           d->cycle, d->row, d->col, trace_kind_name(d->kind), d->unit[0] ? " " : "", d->unit,
           what[d->diff <= LOCKSTEP_DIFF_FINGERPRINT ? d->diff : 0], d->has_model ? ev : "(nothing)",
           d->has_rtl ? ea : "(nothing)");
  return line;
}
