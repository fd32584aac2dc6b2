// signoff-coverage.cpp: writes the Verilator coverage counters of the RTL
// harness (tb/rtl_main.cpp, built with --coverage for `tcpa signoff`) to
// $TCPA_COVERAGE_DIR/cov-<pid>.dat, without changing the harness: linked
// with -Wl,--wrap=_ZN13VerilatedSymsD2Ev (the base-object destructor the
// model's symbol table calls), so that destroying the
// model (`delete top`, which destroys its symbol table, whose base class is
// VerilatedSyms) first writes the counters, while their storage is still
// there, then runs the real destructor. Nothing is written when
// TCPA_COVERAGE_DIR is unset or empty (the harness then behaves as the
// plain one). Runs of the same model write different files; `verilator_coverage
// --write` merges them.
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

#include "verilated.h"
#include "verilated_cov.h"

extern "C" {
void __real__ZN13VerilatedSymsD2Ev(VerilatedSyms *self);
}

// Writes the counters of self's context once per process.
static void signoff_coverage_write(VerilatedSyms *self) {
  static bool written = false;
  const char *dir = std::getenv("TCPA_COVERAGE_DIR");
  if (written || !dir || !*dir) return;
  written = true;
  char path[4096];
  std::snprintf(path, sizeof path, "%s/cov-%ld.dat", dir, (long)getpid());
  self->_vm_contextp__->coveragep()->write(path);
}

extern "C" void __wrap__ZN13VerilatedSymsD2Ev(VerilatedSyms *self) {
  signoff_coverage_write(self);
  __real__ZN13VerilatedSymsD2Ev(self);
}
