#!/usr/bin/env bash
# covers: docs/fuzz.md "Random programs"
# gen_program_cosim.sh: the cosim part of the full tier's random programs
# (`tcpa gen program --check --engine cosim`, regress/gen_run.c; docs/fuzz.md
# "Random programs"): 6 seeds on random regions of configs/default.ini,
# 4 on configs/big1d.ini (its dividers); the nightly tier also random
# configurations of at most 4 PEs (each that fits: a harness built, once
# per change of the RTL; the others stop at the model). None may FAIL. A script of its
# own beside gen_program.sh (the model's seeds, the fast checks) so that
# the test runner runs the two on two cores; the cosim seeds were the
# longest part of the full tier. Seeds fixed. Two shards (tests/run.sh):
# each runs its half of every seed range (tap.sh shard_range), so the two
# run side by side. Each random configuration that fits builds a harness
# of its own (minutes): the nightly tier runs 60 such seeds (about 16
# fit) and 40 and 80 of the others
# (docs/testing.md "The nightly campaigns").
# tier: full
# shards: 2
set -u
BUILD=${BUILD:-build}
TCPA=${TCPA:-$BUILD/bin/tcpa}
. tests/tap.sh

# seeds NIGHTLY FULL: this shard's part of the range of this tier
seeds() { if nightly_tier; then shard_range "$1"; else shard_range "$2"; fi; }


harness >"$tmp/harness.log" 2>&1
if [ $? -ne 0 ]; then
  unbuilt "gen program in cosim on configs/default.ini"
else
  r=$(seeds 3000-3039 3000-3005)
  [ -z "$r" ] || run_seeds "seeds $r, cosim, default.ini random regions" --seeds "$r" --engine cosim
fi
harness configs/big1d.ini >"$tmp/harness-big1d.log" 2>&1
if [ $? -ne 0 ]; then
  unbuilt "gen program in cosim on configs/big1d.ini"
else
  r=$(seeds 6000-6079 6000-6003)
  [ -z "$r" ] || run_seeds "seeds $r, cosim, big1d.ini (dividers) random regions" --seeds "$r" --engine cosim \
    --arch configs/big1d.ini
fi
# random configurations: the nightly tier (each that fits is a harness
# build of its own; the full tier builds one random configuration's
# harness in lint_sweep.sh)
nightly_tier || exit $fail
r=$(shard_range 50000-50059)
run_seeds "seeds $r, cosim, random configurations of at most 4 PEs" --seeds "$r" \
  --arch random --max-pes 4 --engine cosim
rlog="$tmp/run.$((n - 1)).log"
first_shard && check_eval "random configurations in cosim: some seeds fit and pass ($(tail -n 1 "$rlog"))" \
  '[ "$(grep -c ": pass (.*cosim .* on .*/arch.ini)" "$rlog")" -gt 0 ]'
exit $fail
