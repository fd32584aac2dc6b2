/* covers: docs/tiling.md "Running the chunks", docs/runtime.md "Problems larger than the banks" */
/*
 * test_rt_tiled.c: tcpa_rt_run_tiled (runtime/rt_tile_api.c) as a host
 * program calls it, on the model and configs/default.ini: matmul
 * N = M = 4, K = 1100 on 4x4, whose instantiation is refused for want of
 * bank words, runs in chunks along k, its C equal to the reference
 * interpreter's on the whole problem (interp.h, run here), the verdict
 * per loop and the chunks as data; fir N = 3000, T = 4 on 1x4 is refused
 * (no loop may be cut: the delay line), why and line per loop, its output
 * untouched; bad calls each a status: NULL arguments, a program that
 * cannot be read, one that is not the kernel's, a parameter not set.
 */
#include "check.h"
#include "interp.h"
#include "parse.h"
#include "rt_fixture.h"
#include "test.h"

/* Returns the program at path with arrays made for params, inputs filled
 * (i * 37 mod 199 - 99) and the reference run (outputs in ref); NULL. */
static ast_program *tiled_reference(const char *path, const int64_t *params, interp_array *ref) {
  ast_program *p = parse_file(path);
  if (!p || check_program(p) || interp_arrays_init(p, params, ref)) return NULL;
  for (int a = 0; a < p->narrays; a++)
    for (size_t i = 0; p->arrays[a].kind == AST_ARRAY_IN && i < ref[a].n; i++)
      ref[a].data[i] = (int32_t)(((long)i * 37 + a) % 199) - 99;
  interp_stats st;
  return interp_program_run(p, params, ref, &st) ? NULL : p;
}

int main(void) {
  char dir[] = "/tmp/test_rt_tiled.XXXXXX", mm[256], fir[256];
  if (!mkdtemp(dir) || rt_fixture_compile(dir, "matmul", "0,1", mm, sizeof mm) ||
      rt_fixture_compile(dir, "fir", NULL, fir, sizeof fir)) {
    TEST_CHECK(0, "matmul and fir compile");
    return test_done();
  }
  tcpa_rt_array *a;
  tcpa_rt_region *r4, *r1;
  tcpa_rt_kernel *k, *kf;
  int ok = !tcpa_rt_open(NULL, TCPA_RT_ENGINE_MODEL, &a) && !tcpa_rt_region_alloc(a, 4, 4, 0, 0, &r4) &&
           !tcpa_rt_kernel_load(a, mm, &k) && !tcpa_rt_param_set(k, "N", 4) && !tcpa_rt_param_set(k, "M", 4);
  if (!TEST_CHECK(ok, "the model, a 4x4 region, matmul loaded")) return test_done();

  /* matmul 4x4x1100: too large for a bank, in chunks along k */
  int32_t *none[3] = {NULL, NULL, NULL};
  TEST_CHECK(tcpa_rt_run_tiled(k, r4, "regress/programs/matmul.pla", none, NULL) == TCPA_RT_INVALID,
             "K not set: invalid");
  TEST_CHECK(!tcpa_rt_param_set(k, "K", 1100) && tcpa_rt_instantiate(k, r4) == TCPA_RT_NOFIT,
             "matmul 4x4x1100 does not instantiate on 4x4 (%s)", tcpa_rt_message(a));
  interp_array ref[3], got[3];
  int64_t params[3] = {4, 4, 1100};
  ast_program *p = tiled_reference("regress/programs/matmul.pla", params, ref);
  if (!TEST_CHECK(p && !interp_arrays_init(p, params, got), "the reference on the whole problem")) return test_done();
  memcpy(got[0].data, ref[0].data, ref[0].n * sizeof *got[0].data);
  memcpy(got[1].data, ref[1].data, ref[1].n * sizeof *got[1].data);
  int32_t *data[3] = {got[0].data, got[1].data, got[2].data};
  TEST_CHECK(tcpa_rt_run_tiled(k, r4, NULL, data, NULL) == TCPA_RT_INVALID, "no program: invalid");
  TEST_CHECK(tcpa_rt_run_tiled(k, r4, "no/such.pla", data, NULL) == TCPA_RT_FILE, "a missing program: file");
  TEST_CHECK(tcpa_rt_run_tiled(k, r4, "regress/programs/fir.pla", data, NULL) == TCPA_RT_INVALID,
             "another program than the kernel's: invalid (%s)", tcpa_rt_message(a));
  tcpa_rt_tile_info in;
  tcpa_rt_status s = tcpa_rt_run_tiled(k, r4, "regress/programs/matmul.pla", data, &in);
  TEST_CHECK(s == TCPA_RT_OK, "matmul 4x4x1100 runs in chunks (%s)", tcpa_rt_message(a));
  size_t bad = 0;
  for (size_t i = 0; i < ref[2].n; i++) bad += got[2].data[i] != ref[2].data[i];
  TEST_CHECK(!s && bad == 0 && ref[2].n == 16, "its C equals the reference's on the whole problem (%zu of %zu differ)",
             bad, ref[2].n);
  TEST_CHECK(in.ndims == 3 && in.kind[0] == TCPA_RT_TILE_FREE && in.kind[1] == TCPA_RT_TILE_FREE &&
                 in.kind[2] == TCPA_RT_TILE_ACCUM,
             "loops i, j free, k an accumulation");
  TEST_CHECK(in.chunk[0] == 4 && in.chunk[1] == 4 && in.extent[2] == 1100 && in.chunk[2] < 1100 &&
                 in.chunk[2] * 4 >= 1100 / 2 && in.chunks == (1100 + in.chunk[2] - 1) / in.chunk[2],
             "cut along k only: chunks of %lld, %lld of them", in.chunk[2], in.chunks);
  TEST_CHECK(in.cycles > 1100 && in.max_cycles < in.cycles && in.instantiations >= 1 && in.tries >= 2,
             "cycles %llu summed over the chunks, the longest %llu", in.cycles, in.max_cycles);
  interp_arrays_free(p, ref);
  interp_arrays_free(p, got);
  ast_program_free(p);

  /* fir: no loop may be cut, nothing run */
  tcpa_rt_kernel_free(k);
  ok = !tcpa_rt_region_free(r4) && !tcpa_rt_region_alloc(a, 1, 4, 0, 0, &r1) && !tcpa_rt_kernel_load(a, fir, &kf) &&
       !tcpa_rt_param_set(kf, "N", 3000) && !tcpa_rt_param_set(kf, "T", 4);
  int64_t fp[2] = {3000, 4};
  p = ok ? tiled_reference("regress/programs/fir.pla", fp, ref) : NULL;
  if (!TEST_CHECK(p != NULL, "fir loaded on 1x4, its reference")) return test_done();
  for (size_t i = 0; i < ref[2].n; i++) ref[2].data[i] = 12345;
  int32_t *fd[3] = {ref[0].data, ref[1].data, ref[2].data};
  s = tcpa_rt_run_tiled(kf, r1, "regress/programs/fir.pla", fd, &in);
  tcpa_rt_error e;
  tcpa_rt_last_error(a, &e);
  TEST_CHECK(s == TCPA_RT_NOFIT && e.why == TCPA_RT_WHY_DEPENDENCE, "fir: refused, why dependence (%s)",
             tcpa_rt_message(a));
  TEST_CHECK(in.kind[0] == TCPA_RT_TILE_FIXED && in.why[0] == TCPA_RT_TILE_WHY_CARRIED && in.line[0] == 18 &&
                 in.why[1] == TCPA_RT_TILE_WHY_CARRIED && in.chunks == 0,
             "fir: loops i and j carried at line 18, no chunk");
  int untouched = 1;
  for (size_t i = 0; i < ref[2].n; i++) untouched &= ref[2].data[i] == 12345;
  TEST_CHECK(untouched && strstr(tcpa_rt_message(a), "nothing run"), "fir: its output untouched, 'nothing run'");
  interp_arrays_free(p, ref);
  ast_program_free(p);
  tcpa_rt_close(a);
  remove(mm), remove(fir), remove(dir);
  return test_done();
}
