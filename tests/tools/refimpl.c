/*
 * refimpl.c: independent plain-C implementations of the benchmark programs
 * of regress/programs/ and of the unseen-input programs of
 * tests/programs-extra/ (tests/unseen.sh) and of diag3 (a program the
 * scripts tests/systemc_cli.sh and tests/twod_cli.sh write), used to check
 * the reference interpreter and the outputs each engine of `tcpa run`
 * writes to --out-dir.
 *
 *   refimpl PROGRAM --param NAME=VALUE... --in-dir DIR --out-dir DIR
 *   refimpl --normalize FILE
 *
 * PROGRAM is a program name (`matmul`) or the path of its .pla file. The
 * inputs are read from DIR/NAME.txt (the files `tcpa run --out-dir D` writes
 * to D/inputs/), each output is written to OUTDIR/NAME.txt. Every algorithm
 * is written the obvious way, as nested loops over its mathematical
 * definition (the header comment of each .pla file), not as a transcription
 * of the localized equations, so that the interpreter and this file are two
 * independent readings of each program. Arithmetic follows the language
 * (docs/language.md): 32-bit two's complement with wrap-around (computed in
 * uint32_t), `/` and `%` truncating with the defined results for a zero
 * divisor and INT_MIN / -1, shift amounts taken modulo 32.
 *
 * `--normalize FILE` prints the integers of a data file (decimal or 0x
 * hexadecimal) one per line in decimal, so that scripts can compare files
 * written in either notation.
 *
 * Data files: whitespace-separated integers, row-major; a scalar is one
 * value. Output files are written to a temporary name and renamed.
 * Exit status: 0 done, 2 bad usage or input (message on stderr).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int32_t i32;

#define REF_MAX_PARAMS 8

/* ---------------------------------------------------------------------- */
/* 32-bit arithmetic of the language                                       */
/* ---------------------------------------------------------------------- */

/* Returns the int32 whose two's complement bit pattern is `u` (portable). */
static i32 ref_i32(uint32_t u) {
  return u <= (uint32_t)INT32_MAX ? (i32)u : (i32)(u - 0x80000000u) + INT32_MIN;
}

/* Returns a + b modulo 2^32. */
static i32 ref_add(i32 a, i32 b) { return ref_i32((uint32_t)a + (uint32_t)b); }

/* Returns a - b modulo 2^32. */
static i32 ref_sub(i32 a, i32 b) { return ref_i32((uint32_t)a - (uint32_t)b); }

/* Returns a * b modulo 2^32. */
static i32 ref_mul(i32 a, i32 b) { return ref_i32((uint32_t)a * (uint32_t)b); }

/* Returns -a modulo 2^32. */
static i32 ref_neg(i32 a) { return ref_i32(0u - (uint32_t)a); }

/* Returns |a| modulo 2^32 (abs(INT_MIN) == INT_MIN). */
static i32 ref_abs(i32 a) { return a < 0 ? ref_neg(a) : a; }

/* Returns a / b truncated toward zero; a / 0 == -1, INT_MIN / -1 == INT_MIN. */
static i32 ref_div(i32 a, i32 b) {
  if (b == 0) return -1;
  if (a == INT32_MIN && b == -1) return INT32_MIN;
  return a / b;
}

/* Returns a % b with the sign of a; a % 0 == a, INT_MIN % -1 == 0. */
static i32 ref_mod(i32 a, i32 b) {
  if (b == 0) return a;
  if (a == INT32_MIN && b == -1) return 0;
  return a % b;
}

/* Returns a << (s mod 32). */
static i32 ref_shl(i32 a, i32 s) { return ref_i32((uint32_t)a << ((uint32_t)s & 31u)); }

/* Returns a >> (s mod 32), arithmetic (the sign bit is copied in). */
static i32 ref_sra(i32 a, i32 s) {
  unsigned n = (uint32_t)s & 31u;
  uint32_t u = (uint32_t)a >> n;
  if (a < 0 && n > 0) u |= ~(0xffffffffu >> n);
  return ref_i32(u);
}

/* Returns a >>> (s mod 32), logical (zeros shifted in). */
static i32 ref_srl(i32 a, i32 s) { return ref_i32((uint32_t)a >> ((uint32_t)s & 31u)); }

/* Returns the smaller of a and b (signed). */
static i32 ref_min(i32 a, i32 b) { return a < b ? a : b; }

/* Returns the larger of a and b (signed). */
static i32 ref_max(i32 a, i32 b) { return a > b ? a : b; }

/* ---------------------------------------------------------------------- */
/* Data files                                                              */
/* ---------------------------------------------------------------------- */

/* Prints `refimpl: error: ...` and exits with status 2. */
static _Noreturn void ref_fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("refimpl: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(2);
}

/* Returns the allocation of n zeroed values (exits when out of memory). */
static i32 *ref_alloc(int64_t n) {
  i32 *v = calloc((size_t)(n > 0 ? n : 1), sizeof *v);
  if (!v) ref_fail("out of memory (%" PRId64 " values)", n);
  return v;
}

/* Returns the values of the data file `path`, storing their count in *count
 * (exits with a message naming the file on a bad token). */
static i32 *ref_file_read_all(const char *path, int64_t *count) {
  FILE *f = fopen(path, "r");
  if (!f) ref_fail("cannot read %s: %s", path, strerror(errno));
  int64_t n = 0, cap = 64;
  i32 *v = ref_alloc(cap);
  char tok[128];
  while (fscanf(f, "%127s", tok) == 1) {
    char *end;
    errno = 0;
    long long x = strtoll(tok, &end, 0);
    if (*end || errno || x < INT32_MIN || x > (long long)UINT32_MAX)
      ref_fail("%s: value %" PRId64 ": '%s' is not a 32-bit integer", path, n + 1, tok);
    if (n == cap) {
      cap *= 2;
      i32 *w = realloc(v, (size_t)cap * sizeof *v);
      if (!w) ref_fail("out of memory reading %s", path);
      v = w;
    }
    v[n++] = ref_i32((uint32_t)(x & 0xffffffffLL));
  }
  fclose(f);
  *count = n;
  return v;
}

static const char *ref_in_dir, *ref_out_dir;

/* Returns the `n` values of input NAME from the input directory (exits when
 * the file holds a different number of values). */
static i32 *ref_input(const char *name, int64_t n) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.txt", ref_in_dir, name);
  int64_t got;
  i32 *v = ref_file_read_all(path, &got);
  if (got != n)
    ref_fail("%s: %" PRId64 " values, expected %" PRId64, path, got, n);
  return v;
}

/* Returns the value of scalar input NAME. */
static i32 ref_scalar(const char *name) {
  i32 *v = ref_input(name, 1);
  i32 x = v[0];
  free(v);
  return x;
}

/* Writes the `n` values to OUTDIR/NAME.txt, `cols` per line (0: one line),
 * through a temporary file; returns nothing, exits on a write error. */
static void ref_output(const char *name, const i32 *v, int64_t n, int64_t cols) {
  char path[4096], tmp[4200];
  snprintf(path, sizeof path, "%s/%s.txt", ref_out_dir, name);
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = fopen(tmp, "w");
  if (!f) ref_fail("cannot write %s: %s", tmp, strerror(errno));
  for (int64_t k = 0; k < n; k++) {
    int last = k + 1 == n || (cols > 0 && (k + 1) % cols == 0);
    fprintf(f, "%" PRId32 "%c", v[k], last ? '\n' : ' ');
  }
  if (fclose(f) != 0 || rename(tmp, path) != 0) {
    remove(tmp);
    ref_fail("cannot write %s", path);
  }
}

/* Writes the scalar output NAME. */
static void ref_output_scalar(const char *name, i32 x) { ref_output(name, &x, 1, 0); }

/* ---------------------------------------------------------------------- */
/* The benchmarks: p[] holds the parameters in declaration order            */
/* ---------------------------------------------------------------------- */

/* bits[i] = (v >> i) & 1, arithmetic shift (the sign bit from i = 31 on). */
static void ref_bitextract(const int64_t *p) {
  int64_t N = p[0];
  i32 v = ref_scalar("v");
  i32 *bits = ref_alloc(N);
  for (int64_t i = 0; i < N; i++)
    bits[i] = ref_sra(v, (i32)(i < 31 ? i : 31)) & 1;
  ref_output("bits", bits, N, 0);
  free(bits);
}

/* y[i] = sum_{j<T, j<=i} a[j] * x[i-j]. */
static void ref_fir(const int64_t *p) {
  int64_t N = p[0], T = p[1];
  i32 *a = ref_input("a", T), *x = ref_input("x", N), *y = ref_alloc(N);
  for (int64_t i = 0; i < N; i++) {
    i32 acc = 0;
    for (int64_t j = 0; j < T && j <= i; j++) acc = ref_add(acc, ref_mul(a[j], x[i - j]));
    y[i] = acc;
  }
  ref_output("y", y, N, 0);
  free(a), free(x), free(y);
}

/* C = A B with A N x K, B K x M. */
static void ref_matmul(const int64_t *p) {
  int64_t N = p[0], M = p[1], K = p[2];
  i32 *A = ref_input("A", N * K), *B = ref_input("B", K * M), *C = ref_alloc(N * M);
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = 0; j < M; j++) {
      i32 acc = 0;
      for (int64_t k = 0; k < K; k++) acc = ref_add(acc, ref_mul(A[i * K + k], B[k * M + j]));
      C[i * M + j] = acc;
    }
  ref_output("C", C, N * M, M);
  free(A), free(B), free(C);
}

/* fmap[o,r,c] = sum_{ci,kr,kc} wgt[o,ci,kr,kc] * img[ci,r+kr,c+kc]. */
static void ref_conv(const int64_t *p) {
  int64_t CO = p[0], R = p[1], C = p[2], CI = p[3], KR = p[4], KC = p[5];
  int64_t H = R + KR - 1, W = C + KC - 1;
  i32 *img = ref_input("img", CI * H * W), *wgt = ref_input("wgt", CO * CI * KR * KC);
  i32 *fmap = ref_alloc(CO * R * C);
  for (int64_t o = 0; o < CO; o++)
    for (int64_t r = 0; r < R; r++)
      for (int64_t c = 0; c < C; c++) {
        i32 acc = 0;
        for (int64_t ci = 0; ci < CI; ci++)
          for (int64_t kr = 0; kr < KR; kr++)
            for (int64_t kc = 0; kc < KC; kc++)
              acc = ref_add(acc, ref_mul(wgt[((o * CI + ci) * KR + kr) * KC + kc],
                                         img[(ci * H + r + kr) * W + c + kc]));
        fmap[(o * R + r) * C + c] = acc;
      }
  ref_output("fmap", fmap, CO * R * C, C);
  free(img), free(wgt), free(fmap);
}

/* y[i] = sum_{j<=i} L[i,j] * x[j]. */
static void ref_trimv(const int64_t *p) {
  int64_t N = p[0];
  i32 *L = ref_input("L", N * N), *x = ref_input("x", N), *y = ref_alloc(N);
  for (int64_t i = 0; i < N; i++) {
    i32 acc = 0;
    for (int64_t j = 0; j <= i; j++) acc = ref_add(acc, ref_mul(L[i * N + j], x[j]));
    y[i] = acc;
  }
  ref_output("y", y, N, 0);
  free(L), free(x), free(y);
}

/* 2x2 stride-2 max pooling of img (2R x 2C) and the first argmax 2*kr+kc. */
static void ref_maxpool(const int64_t *p) {
  int64_t R = p[0], C = p[1], W = 2 * C;
  i32 *img = ref_input("img", 2 * R * W);
  i32 *pmax = ref_alloc(R * C), *parg = ref_alloc(R * C);
  for (int64_t r = 0; r < R; r++)
    for (int64_t c = 0; c < C; c++) {
      i32 best = img[(2 * r) * W + 2 * c], arg = 0;
      for (int k = 1; k < 4; k++) {
        i32 v = img[(2 * r + k / 2) * W + 2 * c + k % 2];
        if (v > best) best = v, arg = k;
      }
      pmax[r * C + c] = best;
      parg[r * C + c] = arg;
    }
  ref_output("pmax", pmax, R * C, C);
  ref_output("parg", parg, R * C, C);
  free(img), free(pmax), free(parg);
}

/* dot = bias + sum a[i] b[i]; maxdiff = max |a[i] - b[i]|. */
static void ref_dotprod(const int64_t *p) {
  int64_t N = p[0];
  i32 *a = ref_input("a", N), *b = ref_input("b", N);
  i32 dot = ref_scalar("bias"), maxdiff = INT32_MIN;
  for (int64_t i = 0; i < N; i++) {
    dot = ref_add(dot, ref_mul(a[i], b[i]));
    maxdiff = ref_max(maxdiff, ref_abs(ref_sub(a[i], b[i])));
  }
  ref_output_scalar("dot", dot);
  ref_output_scalar("maxdiff", maxdiff);
  free(a), free(b);
}

/* T-1 steps of the 3-point average with fixed ends, starting from x. */
static void ref_jacobi(const int64_t *p) {
  int64_t T = p[0], N = p[1];
  i32 *u = ref_input("x", N), *next = ref_alloc(N);
  for (int64_t t = 1; t < T; t++) {
    next[0] = u[0];
    next[N - 1] = u[N - 1];
    for (int64_t i = 1; i < N - 1; i++)
      next[i] = ref_div(ref_add(ref_add(u[i - 1], u[i]), u[i + 1]), 3);
    i32 *swap = u;
    u = next, next = swap;
  }
  ref_output("y", u, N, 0);
  free(u), free(next);
}

/* S-1 Euclid steps on (|a[i]|, |b[i]|): g, the remainder left, the lcm. */
static void ref_gcd(const int64_t *p) {
  int64_t N = p[0], S = p[1];
  i32 *a = ref_input("a", N), *b = ref_input("b", N);
  i32 *g = ref_alloc(N), *r = ref_alloc(N), *l = ref_alloc(N);
  for (int64_t i = 0; i < N; i++) {
    i32 x = ref_abs(a[i]), y = ref_abs(b[i]);
    for (int64_t s = 1; s < S && y != 0; s++) {
      i32 t = ref_mod(x, y);
      x = y, y = t;
    }
    g[i] = x, r[i] = y;
    l[i] = ref_mul(ref_div(ref_abs(a[i]), x), ref_abs(b[i]));
  }
  ref_output("g", g, N, 0);
  ref_output("r", r, N, 0);
  ref_output("l", l, N, 0);
  free(a), free(b), free(g), free(r), free(l);
}

/* Levenshtein distance of a and b over letters (v & 3); the last DP row. */
static void ref_editdist(const int64_t *p) {
  int64_t N = p[0], M = p[1];
  i32 *a = ref_input("a", N), *b = ref_input("b", M);
  i32 *row = ref_alloc(M + 1), *prev = ref_alloc(M + 1);
  for (int64_t j = 0; j <= M; j++) row[j] = (i32)j;
  for (int64_t i = 1; i <= N; i++) {
    i32 *swap = prev;
    prev = row, row = swap;
    row[0] = (i32)i;
    for (int64_t j = 1; j <= M; j++) {
      i32 subst = prev[j - 1] + ((a[i - 1] & 3) != (b[j - 1] & 3));
      row[j] = ref_min(ref_min(prev[j] + 1, row[j - 1] + 1), subst);
    }
  }
  ref_output_scalar("dist", row[M]);
  ref_output("last", row, M + 1, 0);
  free(a), free(b), free(row), free(prev);
}

/* Saturating a + b, clamp of a >> sh to [lo, hi] (min after max), bit mix. */
static void ref_satarith(const int64_t *p) {
  int64_t N = p[0];
  i32 *a = ref_input("a", N), *b = ref_input("b", N);
  i32 sh = ref_scalar("sh"), lo = ref_scalar("lo"), hi = ref_scalar("hi");
  i32 *sat = ref_alloc(N), *clip = ref_alloc(N), *mix = ref_alloc(N);
  for (int64_t i = 0; i < N; i++) {
    int64_t wide = (int64_t)a[i] + b[i];
    sat[i] = wide > INT32_MAX ? INT32_MAX : wide < INT32_MIN ? INT32_MIN : (i32)wide;
    clip[i] = ref_min(ref_max(ref_sra(a[i], sh), lo), hi);
    mix[i] = (ref_srl(a[i], sh) ^ ref_shl(b[i], sh)) | (~a[i] & 0xff);
  }
  ref_output("sat", sat, N, 0);
  ref_output("clip", clip, N, 0);
  ref_output("mix", mix, N, 0);
  free(a), free(b), free(sat), free(clip), free(mix);
}

/* Banded y = A x (|i-j| <= W), count of entries with A & 7 == 0, sign, -|y|. */
static void ref_band(const int64_t *p) {
  int64_t N = p[0], W = p[1];
  i32 *A = ref_input("A", N * N), *x = ref_input("x", N);
  i32 *y = ref_alloc(N), *cnt = ref_alloc(N), *sgn = ref_alloc(N), *nabs = ref_alloc(N);
  for (int64_t i = 0; i < N; i++) {
    i32 acc = 0, zeros = 0;
    for (int64_t j = 0; j < N; j++) {
      if (j - i > W || i - j > W) continue;
      acc = ref_add(acc, ref_mul(A[i * N + j], x[j]));
      zeros += (A[i * N + j] & 7) == 0;
    }
    y[i] = acc, cnt[i] = zeros;
    sgn[i] = acc > 0 ? 1 : acc < 0 ? -1 : 0;
    nabs[i] = acc < 0 ? acc : -acc; /* -acc cannot overflow for acc >= 0 */
  }
  ref_output("y", y, N, 0);
  ref_output("cnt", cnt, N, 0);
  ref_output("sgn", sgn, N, 0);
  ref_output("nabs", nabs, N, 0);
  free(A), free(x), free(y), free(cnt), free(sgn), free(nabs);
}

/* ---------------------------------------------------------------------- */
/* The unseen-input programs (tests/programs-extra/, tests/unseen.sh)     */
/* ---------------------------------------------------------------------- */

/* f (f[i] = f[i-1] + c f[i-2] + a[i]), the prefix maximum of a - b,
 * f / d - f % d and the dot product of a and b. */
static void ref_fibmix(const int64_t *p) {
  int64_t N = p[0];
  i32 *a = ref_input("a", N), *b = ref_input("b", N);
  i32 c = ref_scalar("c"), d = ref_scalar("d");
  i32 *f = ref_alloc(N), *pm = ref_alloc(N), *q = ref_alloc(N);
  i32 dot = 0, best = INT32_MIN;
  for (int64_t i = 0; i < N; i++) {
    f[i] = i < 2 ? a[i] : ref_add(ref_add(f[i - 1], ref_mul(c, f[i - 2])), a[i]);
    dot = ref_add(dot, ref_mul(a[i], b[i]));
    best = ref_max(best, ref_sub(a[i], b[i]));
    pm[i] = best;
    q[i] = ref_sub(ref_div(f[i], d), ref_mod(f[i], d));
  }
  ref_output("f", f, N, 0);
  ref_output("pm", pm, N, 0);
  ref_output("q", q, N, 0);
  ref_output_scalar("tot", dot);
  free(a), free(b), free(f), free(pm), free(q);
}

/* T-1 steps of the 5-point stencil with two fixed cells at each end; the
 * last state and the xor of every state. */
static void ref_stencil5(const int64_t *p) {
  int64_t T = p[0], N = p[1];
  i32 *u = ref_input("x", N), *next = ref_alloc(N), *e = ref_alloc(T);
  for (int64_t t = 0; t < T; t++) {
    if (t > 0) {
      for (int64_t i = 0; i < N; i++) {
        if (i < 2 || i >= N - 2) {
          next[i] = u[i];
          continue;
        }
        i32 v = ref_sub(u[i - 2], u[i + 2]);
        v = ref_add(v, ref_mul(2, u[i - 1]));
        v = ref_add(v, ref_mul(3, u[i]));
        v = ref_sub(v, u[i + 1]);
        next[i] = ref_sra(v, 2);
      }
      i32 *swap = u;
      u = next, next = swap;
    }
    i32 x = 0;
    for (int64_t i = 0; i < N; i++) x ^= u[i];
    e[t] = x;
  }
  ref_output("y", u, N, 0);
  ref_output("e", e, T, 0);
  free(u), free(next), free(e);
}

/* The LCS table of a and b over letters v & 7: its last row. */
static void ref_lcs(const int64_t *p) {
  int64_t N = p[0], M = p[1];
  i32 *a = ref_input("a", N), *b = ref_input("b", M);
  /* L has a zero row and column in front: L[(i+1)*(M+1) + j+1] */
  i32 *L = ref_alloc((N + 1) * (M + 1));
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = 0; j < M; j++) {
      i32 *cell = &L[(i + 1) * (M + 1) + j + 1];
      if ((a[i] & 7) == (b[j] & 7)) *cell = L[i * (M + 1) + j] + 1;
      else *cell = ref_max(L[i * (M + 1) + j + 1], L[(i + 1) * (M + 1) + j]);
    }
  ref_output("row", &L[N * (M + 1) + 1], M, 0);
  free(a), free(b), free(L);
}

/* w times the prefix sums over both dimensions of A. */
static void ref_sat2(const int64_t *p) {
  int64_t N = p[0], M = p[1];
  i32 *A = ref_input("A", N * M), w = ref_scalar("w");
  i32 *S = ref_alloc(N * M);
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = 0; j < M; j++) {
      i32 sum = 0; /* the plain double sum, not the recurrence */
      for (int64_t ii = 0; ii <= i; ii++)
        for (int64_t jj = 0; jj <= j; jj++) sum = ref_add(sum, A[ii * M + jj]);
      S[i * M + j] = ref_mul(w, sum);
    }
  ref_output("S", S, N * M, M);
  free(A), free(S);
}

/* y[b] = bias + W x[b] for each batch b, and the largest element of y[b]. */
static void ref_bmv3(const int64_t *p) {
  int64_t B = p[0], N = p[1], K = p[2];
  i32 *W = ref_input("W", N * K), *x = ref_input("x", B * K), *bias = ref_input("bias", N);
  i32 *y = ref_alloc(B * N), *ymax = ref_alloc(B);
  for (int64_t b = 0; b < B; b++) {
    for (int64_t i = 0; i < N; i++) {
      i32 acc = bias[i];
      for (int64_t k = 0; k < K; k++) acc = ref_add(acc, ref_mul(W[i * K + k], x[b * K + k]));
      y[b * N + i] = acc;
      ymax[b] = i == 0 ? acc : ref_max(ymax[b], acc);
    }
  }
  ref_output("y", y, B * N, N);
  ref_output("ymax", ymax, B, 0);
  free(W), free(x), free(bias), free(y), free(ymax);
}

/* The min-plus product of A and B and the first k reaching each minimum. */
static void ref_minplus3(const int64_t *p) {
  int64_t N = p[0], M = p[1], K = p[2];
  i32 *A = ref_input("A", N * K), *B = ref_input("B", K * M);
  i32 *D = ref_alloc(N * M), *arg = ref_alloc(N * M);
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = 0; j < M; j++) {
      i32 best = 0, at = 0;
      for (int64_t k = 0; k < K; k++) {
        i32 v = ref_add(A[i * K + k], B[k * M + j]);
        if (k == 0 || v < best) best = v, at = (i32)k;
      }
      D[i * M + j] = best, arg[i * M + j] = at;
    }
  ref_output("D", D, N * M, M);
  ref_output("arg", arg, N * M, M);
  free(A), free(B), free(D), free(arg);
}

/* y[o,t] = max(0, sum_{c,k} w[o,c,k] x[c,t+k]). */
static void ref_conv4(const int64_t *p) {
  int64_t O = p[0], T = p[1], C = p[2], K = p[3], X = T + K - 1;
  i32 *x = ref_input("x", C * X), *w = ref_input("w", O * C * K), *y = ref_alloc(O * T);
  for (int64_t o = 0; o < O; o++)
    for (int64_t t = 0; t < T; t++) {
      i32 acc = 0;
      for (int64_t c = 0; c < C; c++)
        for (int64_t k = 0; k < K; k++) acc = ref_add(acc, ref_mul(w[(o * C + c) * K + k], x[c * X + t + k]));
      y[o * T + t] = ref_max(acc, 0);
    }
  ref_output("y", y, O * T, T);
  free(x), free(w), free(y);
}

/* C[b] = A[b] B[b] for each batch b; R = C % md elementwise. */
static void ref_bmm4(const int64_t *p) {
  int64_t Q = p[0], N = p[1], M = p[2], K = p[3];
  i32 *A = ref_input("A", Q * N * K), *B = ref_input("B", Q * K * M), md = ref_scalar("md");
  i32 *C = ref_alloc(Q * N * M), *R = ref_alloc(Q * N * M);
  for (int64_t b = 0; b < Q; b++)
    for (int64_t i = 0; i < N; i++)
      for (int64_t j = 0; j < M; j++) {
        i32 acc = 0;
        for (int64_t k = 0; k < K; k++)
          acc = ref_add(acc, ref_mul(A[(b * N + i) * K + k], B[(b * K + k) * M + j]));
        C[(b * N + i) * M + j] = acc;
        R[(b * N + i) * M + j] = ref_mod(acc, md);
      }
  ref_output("C", C, Q * N * M, M);
  ref_output("R", R, Q * N * M, M);
  free(A), free(B), free(C), free(R);
}

/* The last row of Pascal's triangle with every inner sum reduced % md,
 * and its sum. */
static void ref_pascal(const int64_t *p) {
  int64_t N = p[0];
  i32 md = ref_scalar("md");
  i32 *row = ref_alloc(N), *prev = ref_alloc(N);
  for (int64_t i = 0; i < N; i++) {
    i32 *swap = prev;
    prev = row, row = swap;
    for (int64_t j = 0; j <= i; j++)
      row[j] = j == 0 || j == i ? 1 : ref_mod(ref_add(prev[j - 1], prev[j]), md);
  }
  i32 tot = 0;
  for (int64_t j = 0; j < N; j++) tot = ref_add(tot, row[j]);
  ref_output("row", row, N, 0);
  ref_output_scalar("tot", tot);
  free(row), free(prev);
}

/* diag3, the 2-D program of tests/systemc_cli.sh and tests/twod_cli.sh (no
 * .pla file of its own): u is 1 on the first row and column and grows by 3
 * along each diagonal step, so B[i][j] = 1 + 3 * min(i, j). */
static void ref_diag3(const int64_t *p) {
  int64_t N = p[0], M = p[1];
  i32 *B = ref_alloc(N * M);
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = 0; j < M; j++) {
      i32 u = 1;
      for (int64_t d = 1; d <= i && d <= j; d++) u = ref_add(u, 3);
      B[i * M + j] = u;
    }
  ref_output("B", B, N * M, M);
  free(B);
}

typedef struct {
  const char *name;
  const char *params[REF_MAX_PARAMS]; /* NULL-terminated, declaration order */
  int64_t min[REF_MAX_PARAMS];        /* smallest accepted value (0: 1) */
  void (*run)(const int64_t *p);
} ref_program;

static const ref_program ref_programs[] = {
    {"bitextract", {"N"}, {0}, ref_bitextract},
    {"fir", {"N", "T"}, {0}, ref_fir},
    {"matmul", {"N", "M", "K"}, {0}, ref_matmul},
    {"conv", {"CO", "R", "C", "CI", "KR", "KC"}, {0}, ref_conv},
    {"trimv", {"N"}, {0}, ref_trimv},
    {"maxpool", {"R", "C"}, {0}, ref_maxpool},
    {"dotprod", {"N"}, {0}, ref_dotprod},
    {"jacobi", {"T", "N"}, {0, 3}, ref_jacobi},
    {"gcd", {"N", "S"}, {0}, ref_gcd},
    {"editdist", {"N", "M"}, {0}, ref_editdist},
    {"satarith", {"N"}, {0}, ref_satarith},
    {"band", {"N", "W"}, {0}, ref_band},
    /* the unseen-input programs */
    {"fibmix", {"N"}, {0}, ref_fibmix},
    {"stencil5", {"T", "N"}, {0}, ref_stencil5},
    {"lcs", {"N", "M"}, {0}, ref_lcs},
    {"sat2", {"N", "M"}, {0}, ref_sat2},
    {"bmv3", {"B", "N", "K"}, {0}, ref_bmv3},
    {"minplus3", {"N", "M", "K"}, {0}, ref_minplus3},
    {"conv4", {"O", "T", "C", "K"}, {0}, ref_conv4},
    {"bmm4", {"Q", "N", "M", "K"}, {0}, ref_bmm4},
    {"pascal", {"N"}, {0}, ref_pascal},
    /* test programs written by the test scripts themselves */
    {"diag3", {"N", "M"}, {0}, ref_diag3},
};

#define REF_NPROGRAMS (int)(sizeof ref_programs / sizeof ref_programs[0])

/* ---------------------------------------------------------------------- */
/* Command line                                                            */
/* ---------------------------------------------------------------------- */

/* Returns the benchmark named by `arg` (a name or a path to NAME.pla). */
static const ref_program *ref_program_find(const char *arg) {
  const char *base = strrchr(arg, '/');
  base = base ? base + 1 : arg;
  size_t len = strlen(base);
  if (len > 4 && !strcmp(base + len - 4, ".pla")) len -= 4;
  for (int i = 0; i < REF_NPROGRAMS; i++)
    if (strlen(ref_programs[i].name) == len && !strncmp(ref_programs[i].name, base, len))
      return &ref_programs[i];
  ref_fail("unknown program '%s'", arg);
  return NULL;
}

/* Stores the value of `--param NAME=VALUE` into `vals` at the parameter's
 * position in `prog`; returns nothing, exits on an unknown name or value. */
static void ref_param_set(const ref_program *prog, const char *arg, int64_t *vals) {
  const char *eq = strchr(arg, '=');
  if (!eq) ref_fail("--param %s: expected NAME=VALUE", arg);
  for (int k = 0; k < REF_MAX_PARAMS && prog->params[k]; k++) {
    if (strlen(prog->params[k]) != (size_t)(eq - arg) || strncmp(prog->params[k], arg, (size_t)(eq - arg)))
      continue;
    char *end;
    errno = 0;
    long long v = strtoll(eq + 1, &end, 10);
    int64_t least = prog->min[k] > 0 ? prog->min[k] : 1;
    if (*end || errno || eq[1] == '\0' || v < least || v > 1000000)
      ref_fail("--param %s: the value must be an integer in [%" PRId64 ", 1000000]", arg, least);
    vals[k] = v;
    return;
  }
  ref_fail("--param %s: %s has no such parameter", arg, prog->name);
}

/* Prints each value of the data file one per line, in decimal; returns 0. */
static int ref_normalize(const char *path) {
  int64_t n;
  i32 *v = ref_file_read_all(path, &n);
  for (int64_t k = 0; k < n; k++) printf("%" PRId32 "\n", v[k]);
  free(v);
  return 0;
}

/* Prints the usage to `f`. */
static void ref_usage(FILE *f) {
  fputs("usage: refimpl PROGRAM --param NAME=VALUE... --in-dir DIR --out-dir DIR\n"
        "       refimpl --normalize FILE\n"
        "programs:", f);
  for (int i = 0; i < REF_NPROGRAMS; i++) fprintf(f, " %s", ref_programs[i].name);
  fputc('\n', f);
}

int main(int argc, char **argv) {
  if (argc == 3 && !strcmp(argv[1], "--normalize")) return ref_normalize(argv[2]);
  if (argc < 2 || !strcmp(argv[1], "--help")) {
    ref_usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  const ref_program *prog = ref_program_find(argv[1]);
  int64_t vals[REF_MAX_PARAMS] = {0};
  for (int i = 2; i < argc; i++) {
    if (i + 1 >= argc) ref_fail("%s needs a value", argv[i]);
    if (!strcmp(argv[i], "--param")) ref_param_set(prog, argv[++i], vals);
    else if (!strcmp(argv[i], "--in-dir")) ref_in_dir = argv[++i];
    else if (!strcmp(argv[i], "--out-dir")) ref_out_dir = argv[++i];
    else ref_fail("unknown option '%s'", argv[i]);
  }
  if (!ref_in_dir || !ref_out_dir) ref_fail("--in-dir and --out-dir are required");
  for (int k = 0; k < REF_MAX_PARAMS && prog->params[k]; k++)
    if (!vals[k]) ref_fail("missing --param %s=VALUE", prog->params[k]);
  prog->run(vals);
  return 0;
}
