/* covers: docs/instantiate.md "Output formats" */
/*
 * test_stream_export.c: the pure parts of common/stream_export.c, table
 * driven: format names (and the ones refused), and the C identifier made
 * of a file name. The files themselves are tested by
 * tests/instantiate_formats.sh.
 */
#include "stream_export.h"
#include "test.h"

int main(void) {
  static const struct {
    const char *name;
    int want;
  } formats[] = {{"bin", STREAM_EXPORT_BIN},   {"c-header", STREAM_EXPORT_C_HEADER}, {"readmemh", STREAM_EXPORT_READMEMH},
                 {"memh", -1},                 {"C-HEADER", -1},                      {"", -1},
                 {NULL, -1}};
  for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
    TEST_CHECK(stream_export_format_parse(formats[i].name) == formats[i].want, "format '%s' -> %d",
               formats[i].name ? formats[i].name : "(NULL)", formats[i].want);
  static const struct {
    const char *path, *want;
  } syms[] = {{"mm.h", "mm"},           {"out/mm-4.h", "mm_4"},   {"a/b.c/4x4.h", "_4x4"},
              {"dir/.h", "config"},     {"x y.z.h", "x_y"},       {"/abs/Name_2", "Name_2"}};
  for (size_t i = 0; i < sizeof syms / sizeof *syms; i++) {
    char buf[64];
    TEST_CHECK(!strcmp(stream_export_symbol(syms[i].path, buf, sizeof buf), syms[i].want), "symbol of %s: %s (got %s)",
               syms[i].path, syms[i].want, buf);
  }
  char small[4];
  TEST_CHECK(!strcmp(stream_export_symbol("abcdefgh.h", small, sizeof small), "abc"), "a symbol cut to its buffer");
  return test_done();
}
