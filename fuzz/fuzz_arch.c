/*
 * fuzz_arch.c: libFuzzer target for the architecture INI reader. The input
 * bytes (cut at the first NUL) are loaded as an INI text with
 * arch_config_load_text() (docs/arch.md: sections, keys, ranges); when the
 * configuration is accepted, its fingerprint, the RTL parameter package
 * and the INI written back are produced too (to a null stream), and the
 * INI written back must load again with the same fingerprint. Errors are
 * expected; a crash, a leak, undefined behaviour or a disagreement between
 * the writer and the reader is a bug. Built by `make fuzz` (docs/fuzz.md).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "diag.h"

static FILE *fuzz_null;

/* Returns 0 (libFuzzer's contract); loads data[0..size) as an INI text. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!fuzz_null) fuzz_null = fopen("/dev/null", "w");
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  arch_config cfg;
  if (arch_config_load_text("fuzz.ini", text, &cfg) == 0) {
    uint64_t fp = arch_config_fingerprint(&cfg);
    if (fuzz_null) arch_config_write_sv(&cfg, fuzz_null);
    char *back = NULL;
    size_t blen = 0;
    FILE *m = open_memstream(&back, &blen);
    if (m) {
      arch_config_write_ini(&cfg, m);
      fclose(m);
      arch_config again;
      if (arch_config_load_text("back.ini", back, &again) != 0 ||
          arch_config_fingerprint(&again) != fp)
        abort(); /* the INI written back must read back the same */
      free(back);
    }
  }
  diag_reset();
  free(text);
  return 0;
}
