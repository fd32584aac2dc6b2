/*
 * spec_examples.h: the two example programs of docs/language.md (without
 * their comments), as string literals shared by the unit tests that parse,
 * check, lower and interpret them.
 */
#ifndef TCPA_SPEC_EXAMPLES_H
#define TCPA_SPEC_EXAMPLES_H

#define SPEC_BITEXTRACT_SRC \
  "program bitextract(N) {\n" \
  "  in  int32 v;\n" \
  "  out int32 bits[N];\n" \
  "  par (0 <= i < N) {\n" \
  "    x[i]    = v        if (i == 0);\n" \
  "    x[i]    = y[i-1]   if (i >= 1);\n" \
  "    y[i]    = x[i] >> 1;\n" \
  "    bits[i] = x[i] & 1;\n" \
  "  }\n" \
  "}\n"

#define SPEC_MATMUL_SRC \
  "program matmul(N, M, K) {\n" \
  "  in  int32 A[N, K], B[K, M];\n" \
  "  out int32 C[N, M];\n" \
  "  par (0 <= i < N, 0 <= j < M, 0 <= k < K) {\n" \
  "    a[i,j,k] = A[i,k]                       if (j == 0);\n" \
  "    a[i,j,k] = a[i,j-1,k]                   if (j >= 1);\n" \
  "    b[i,j,k] = B[k,j]                       if (i == 0);\n" \
  "    b[i,j,k] = b[i-1,j,k]                   if (i >= 1);\n" \
  "    c[i,j,k] = a[i,j,k] * b[i,j,k]          if (k == 0);\n" \
  "    c[i,j,k] = c[i,j,k-1] + a[i,j,k] * b[i,j,k] if (k >= 1);\n" \
  "    C[i,j]   = c[i,j,k]                     if (k == K-1);\n" \
  "  }\n" \
  "}\n"

#endif
