// sc_main.cpp: tcpa-sc, the SystemC engine (`tcpa run --engine systemc`,
// docs/rtl.md "SystemC"): the Verilated TCPA (verilator --sc) and the C
// model (sc_model.h) side by side under the SystemC kernel, one sc_clock
// driving both, compared cycle by cycle by the testbench (sc_tb.h).
//
//   tcpa-sc STREAM.bin [--arch FILE] [--max-cycles N] [--report FILE]
//           [--verdict FILE] [--trace-model FILE] [--trace-rtl FILE]
//           [--dump-banks DIR] [--dump-model-banks DIR] [--model-stream FILE]
//
// The model loads the stream with model_new (the architecture: --arch, by
// default the embedded configs/default.ini; it must be the one the RTL was
// built for: same fingerprint), the RTL through its loader port.
// --model-stream gives the model another stream than the RTL: fault
// injection, the RTL running a corrupted stream (tcpa stream-poke) checked
// against the model running the clean one (tests/systemc_cli.sh). The run
// stops at the first divergence (the lockstep report, the format of `tcpa
// cosim-check`, on stdout and in --report), or when the RTL is done or
// timed out (the agreement summary). --verdict writes what the `tcpa`
// driver reads back (tb/engine_systemc.c), one `KEY VALUE...` line
// each:
//
//   tcpa-sc-verdict 1
//   status agree|diverged
//   cycles N                        cycles compared (the last + 1)
//   stop CYCLE MODEL RTL            the last cycle compared (at a divergence
//                                   its cycle), the cycles each side ran
//   fst T0 PERIOD                   where cycle 0 lies in tcpa-rtl's FST of
//                                   the same stream (its `# fst` line)
//   side model|rtl DONE DONE_CYCLES CYCLES FAULTS   (DONE 0/1; CYCLES: last
//                                   bank write + 1; FAULTS: their number)
//   faults model|rtl TEXT           "underflow 2, stray 1" (when FAULTS > 0)
//   divergence CYCLE ROW COL        (diverged) the first divergence
//   what KIND UNIT                  (diverged) e.g. "wr FU 1 -> rd3"
//   line TEXT                       (diverged) the one-line description
//
// --dump-banks / --dump-model-banks: the border banks of the RTL / the
// model after the run, in tcpa-rtl's format (rtl_bank_files_write). Trace
// files are the two sides' events up to where the run stopped. Every file
// is written to a temporary name and renamed.
//
// Exit: 0 the traces agree and the machine is done without a fault; 1 a
// divergence, or agreement on a timeout or a fault; 2 the stream is
// rejected (by the model or the RTL's loader) or the architecture is not
// the RTL's; 3 usage or I/O.
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <systemc>

#include "Vtcpa_top.h"
#include "rtl_collect.h"
#include "sc_model.h"
#include "sc_tb.h"
#include "verilated.h"

namespace {

// No SystemC banner on stdout: the kernel prints it from main(), before
// sc_main, unless this is set (a static initializer runs before main).
const int sc_main_quiet = setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);

struct sc_main_opts {
  const char *stream = nullptr, *arch = nullptr, *report = nullptr, *verdict = nullptr,
             *mtrace = nullptr, *rtrace = nullptr, *banks = nullptr, *model_banks = nullptr,
             *model_stream = nullptr;
  uint64_t max_cycles = 100000;
};

// Returns 0 and fills o from argv, or 3 after printing why.
int sc_main_args(int argc, char **argv, sc_main_opts &o) {
  const char *const names[] = {"--arch", "--max-cycles", "--report", "--verdict", "--trace-model",
                               "--trace-rtl", "--dump-banks", "--dump-model-banks", "--model-stream"};
  const char **slots[] = {&o.arch, nullptr, &o.report, &o.verdict, &o.mtrace, &o.rtrace, &o.banks,
                          &o.model_banks, &o.model_stream};
  const int nnames = (int)(sizeof names / sizeof *names);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] == '+') continue;  // a plusarg, read by the RTL
    int k = 0;
    while (k < nnames && strcmp(a, names[k])) k++;
    if (k < nnames && i + 1 < argc) {
      const char *v = argv[++i];
      if (slots[k]) {
        *slots[k] = v;
        continue;
      }
      char *end;
      errno = 0;
      unsigned long long n = strtoull(v, &end, 10);
      if (errno || *end || !n || v[0] == '-') {
        fprintf(stderr, "tcpa-sc: --max-cycles: not a positive number: %s\n", v);
        return 3;
      }
      o.max_cycles = n;
    } else if (a[0] != '-' && !o.stream) {
      o.stream = a;
    } else {
      fprintf(stderr, "tcpa-sc: unknown or incomplete argument: %s\n", a);
      return 3;
    }
  }
  if (!o.stream) {
    fprintf(stderr, "usage: tcpa-sc STREAM.bin [--arch FILE] [--max-cycles N] [--report FILE] "
                    "[--verdict FILE] [--trace-model FILE] [--trace-rtl FILE] [--dump-banks DIR] "
                    "[--dump-model-banks DIR] [--model-stream FILE]\n");
    return 3;
  }
  return 0;
}

// Returns 0 and the bytes of file path, or 3 with a message.
int sc_main_read(const char *path, std::vector<uint8_t> &b) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "tcpa-sc: %s: %s\n", path, strerror(errno));
    return 3;
  }
  uint8_t buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) b.insert(b.end(), buf, buf + n);
  int bad = ferror(f);
  fclose(f);
  if (bad) fprintf(stderr, "tcpa-sc: %s: read error\n", path);
  return bad ? 3 : 0;
}

// An output file written to PATH.tmp and renamed at close.
struct sc_main_file {
  std::string path, tmp;
  FILE *f = nullptr;
};

// Returns 0 after opening PATH.tmp for writing (nothing when path is
// NULL), or 3 with a message.
int sc_main_open(const char *path, sc_main_file &o) {
  if (!path) return 0;
  o.path = path;
  o.tmp = o.path + ".tmp";
  if (!(o.f = fopen(o.tmp.c_str(), "w"))) {
    fprintf(stderr, "tcpa-sc: %s: %s\n", o.tmp.c_str(), strerror(errno));
    return 3;
  }
  return 0;
}

// Returns 0 after closing and renaming o into place (or removing it when
// keep is false), or 3 with a message.
int sc_main_close(sc_main_file &o, bool keep) {
  if (!o.f) return 0;
  int bad = fclose(o.f) != 0;
  o.f = nullptr;
  if (!keep || bad || rename(o.tmp.c_str(), o.path.c_str()) != 0) {
    if (keep) fprintf(stderr, "tcpa-sc: %s: %s\n", o.path.c_str(), strerror(errno));
    remove(o.tmp.c_str());
    return keep ? 3 : 0;
  }
  return 0;
}

// Writes the verdict lines of tb (model m) to f.
void sc_main_verdict(const sc_tb_module &tb, const model *m, FILE *f) {
  bool div = tb.verdict == SC_TB_DIVERGED;
  uint64_t stop = div ? lockstep_result(tb.ls)->cycle : tb.cycles_run ? tb.cycles_run - 1 : 0;
  fprintf(f, "tcpa-sc-verdict 1\nstatus %s\ncycles %" PRIu64 "\nstop %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
          div ? "diverged" : "agree", tb.cycles_run, stop, model_cycles(m), tb.cycles_run);
  // tcpa-rtl's FST: cycle t at t ns, 1000 ps per cycle (docs/trace.md)
  fprintf(f, "fst 0 1000\n");
  const char *const who[] = {"model", "rtl"};
  for (int s = 0; s < 2; s++) {
    const sc_tb_side &d = tb.side[s];
    fprintf(f, "side %s %d %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", who[s], d.done ? 1 : 0, d.done_cycles,
            d.cycles, d.faults);
    if (!d.faults) continue;
    fprintf(f, "faults %s", who[s]);
    const char *sep = " ";
    for (int k = 0; k < TRACE_FAULT_COUNT; k++)
      if (d.fault_count[k]) {
        fprintf(f, "%s%s %" PRIu64, sep, trace_fault_name((trace_fault_kind)k), d.fault_count[k]);
        sep = ", ";
      }
    fprintf(f, "\n");
  }
  if (tb.verdict != SC_TB_DIVERGED) return;
  const lockstep_divergence *d = lockstep_result(tb.ls);
  fprintf(f, "divergence %" PRIu64 " %d %d\nwhat %s%s%s\nline %s\n", d->cycle, d->row, d->col,
          trace_kind_name(d->kind), d->unit[0] ? " " : "", d->unit, sc_tb_divergence_line(d).c_str());
}

// Returns 0 after writing the model's border banks to dir, or 3.
int sc_main_model_banks(const model *m, const char *dir) {
  std::vector<std::vector<uint32_t>> data(rtl_collect_nbanks());
  for (size_t a = 0; a < data.size(); a++) {
    int p = (int)(a / (4 * rtl_collect_nbank)), side = (int)(a / rtl_collect_nbank % 4),
        b = (int)(a % rtl_collect_nbank);
    for (int addr = 0; addr < TCPA_IOBUF_DEPTH; addr++) {
      uint32_t v = 0;
      if (rtl_collect_border(p, side))
        model_bank_read(m, p / TCPA_ARRAY_COLS, p % TCPA_ARRAY_COLS, side, b, (uint32_t)addr, &v);
      data[a].push_back(v);
    }
  }
  return rtl_bank_files_write(dir, data, "tcpa-sc");
}

// Returns the exit status after writing the report, verdict, traces and
// banks of a finished run.
int sc_main_outputs(const sc_main_opts &o, sc_tb_module &tb, const model *m, sc_main_file &mt,
                    sc_main_file &rt) {
  int rc = 0;
  if (tb.verdict == SC_TB_ERROR) {
    fprintf(stderr, "tcpa-sc: %s: %s\n", o.stream, tb.error.c_str());
    rc = 3;
  }
  if (tb.verdict == SC_TB_REJECTED) {
    fprintf(stderr, "tcpa-sc: %s: stream rejected by the RTL loader: error %d (%s)\n", o.stream,
            tb.loader_error, rtl_collect_error_name(tb.loader_error));
    rc = 2;
  }
  bool ran = tb.verdict == SC_TB_AGREE || tb.verdict == SC_TB_DIVERGED;
  if (sc_main_close(mt, ran) || sc_main_close(rt, ran)) rc = 3;
  if (!ran) return rc;
  lockstep_report_write(tb.ls, stdout);
  sc_main_file rep, ver;
  if (sc_main_open(o.report, rep) || sc_main_open(o.verdict, ver)) return 3;
  if (rep.f) lockstep_report_write(tb.ls, rep.f);
  if (ver.f) sc_main_verdict(tb, m, ver.f);
  if (sc_main_close(rep, true) | sc_main_close(ver, true)) return 3;
  if (o.banks && rtl_bank_files_write(o.banks, tb.rtl_banks, "tcpa-sc")) return 3;
  if (o.model_banks && sc_main_model_banks(m, o.model_banks)) return 3;
  const sc_tb_side &r = tb.side[LOCKSTEP_RTL];
  return tb.verdict == SC_TB_AGREE && r.done && !r.faults ? 0 : 1;
}

}  // namespace

// Returns the exit status (see the top of the file).
int sc_main(int argc, char **argv) {
  (void)sc_main_quiet;
  // sc_stop's "simulation stopped by user" is how every run ends: not news
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sc_main_opts o;
  int rc = sc_main_args(argc, argv, o);
  if (rc) return rc;
  std::vector<uint8_t> bytes;
  if ((rc = sc_main_read(o.stream, bytes))) return rc;
  std::vector<uint32_t> words;
  for (size_t i = 0; i + 4 <= bytes.size(); i += 4)
    words.push_back((uint32_t)bytes[i] | (uint32_t)bytes[i + 1] << 8 | (uint32_t)bytes[i + 2] << 16 |
                    (uint32_t)bytes[i + 3] << 24);
  arch_config cfg;
  if (o.arch ? arch_config_load(o.arch, &cfg) : arch_config_load_default(&cfg)) return 2;
  uint64_t fp = arch_config_fingerprint(&cfg);
  if (fp != TCPA_ARCH_FINGERPRINT) {
    fprintf(stderr, "tcpa-sc: %s: fingerprint 0x%016" PRIx64 ", but this tcpa-sc was built for 0x%016llx "
            "(tcpa harness --kind sc --arch FILE builds another configuration's)\n",
            o.arch ? o.arch : "the default architecture", fp, (unsigned long long)TCPA_ARCH_FINGERPRINT);
    return 2;
  }
  std::vector<uint8_t> mbytes;
  if (o.model_stream && (rc = sc_main_read(o.model_stream, mbytes))) return rc;
  const std::vector<uint8_t> &ms = o.model_stream ? mbytes : bytes;
  model_error err;
  model *m = model_new(&cfg, ms.data(), ms.size(), &err);
  if (!m) {
    fprintf(stderr, "tcpa-sc: %s: the model refuses the stream: %s\n",
            o.model_stream ? o.model_stream : o.stream, err.msg);
    return 2;
  }
  sc_main_file mt, rt;
  if (sc_main_open(o.mtrace, mt) || sc_main_open(o.rtrace, rt)) {
    sc_main_close(mt, false);
    model_free(m);
    return 3;
  }
  Verilated::commandArgs(argc, argv);  // +plusargs for the RTL
  sc_core::sc_clock clk("clk", 10, sc_core::SC_NS);
  Vtcpa_top *rtl = new Vtcpa_top("tcpa_top");
  sc_model_module *mdl = new sc_model_module("model", m, o.max_cycles);
  sc_tb_module *tb = new sc_tb_module("tb", rtl, mdl, words, bytes.size(), o.max_cycles, fp, mt.f, rt.f);
  rtl->clk_i(clk);
  mdl->clk_i(clk);
  tb->clk_i(clk);
  sc_core::sc_start();
  rc = sc_main_outputs(o, *tb, m, mt, rt);
  rtl->final();
  delete tb;
  delete mdl;
  delete rtl;
  model_free(m);
  return rc;
}
