#!/usr/bin/env bash
# covers: docs/fuzz.md "Random programs"
# gen_program_cosim.sh: the cosim part of the full tier's random programs
# (`tcpa gen program --check --engine cosim`, regress/gen_run.c; docs/fuzz.md
# "Random programs"): 20 seeds on random regions of configs/default.ini,
# 40 on configs/big1d.ini (its dividers), and 43 on random configurations
# of at most 4 PEs (three fit: three harnesses built, each once per change
# of the RTL; the others stop at the model). None may FAIL. A script of its
# own beside gen_program.sh (the model's seeds, the fast checks) so that
# the test runner runs the two on two cores; the cosim seeds were the
# longest part of the full tier. Seeds fixed.
# tier: full
set -u
BUILD=${BUILD:-build}
TCPA=${TCPA:-$BUILD/bin/tcpa}
. tests/tap.sh


harness >"$tmp/harness.log" 2>&1
if [ $? -ne 0 ]; then
  unbuilt "gen program in cosim on configs/default.ini"
else
  run_seeds "seeds 3000-3019, cosim, default.ini random regions" --seeds 3000-3019 --engine cosim
fi
harness configs/big1d.ini >"$tmp/harness-big1d.log" 2>&1
if [ $? -ne 0 ]; then
  unbuilt "gen program in cosim on configs/big1d.ini"
else
  run_seeds "seeds 6000-6039, cosim, big1d.ini (dividers) random regions" --seeds 6000-6039 --engine cosim \
    --arch configs/big1d.ini
fi
run_seeds "seeds 50000-50042, cosim, random configurations of at most 4 PEs" --seeds 50000-50042 \
  --arch random --max-pes 4 --engine cosim
rlog="$tmp/run.$((n - 1)).log"
check_eval "random configurations in cosim: some seeds fit and pass ($(tail -n 1 "$rlog"))" \
  '[ "$(grep -c ": pass (.*cosim .* on .*/arch.ini)" "$rlog")" -gt 0 ]'
exit $fail
