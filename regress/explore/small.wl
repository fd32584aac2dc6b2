# small.wl: a small workload for `tcpa explore` (docs/explore.md "The workload").
# One entry a line: PROGRAM (relative to this file) PARAMS RxC WEIGHT.
../programs/dotprod.pla   N=16        1x1  2
../programs/fir.pla       N=16,T=4    1x2  1
../programs/trimv.pla     N=7         1x1  1
