#!/usr/bin/env bash
# bench_speed.sh: the simulator-speed table of `make bench` (docs/testing.md
# "Simulator speed"). For each case (program, parameters, configuration,
# region) it compiles and instantiates the stream once, then times, on
# that same stream, without waveforms:
#   model   `tcpa sim STREAM` (the C model, tracing off: the whole
#           process, its start and the stream's loading included);
#   model-step the same run's stepping loop alone (`tcpa sim --stats`: the
#           CPU seconds of model_run, 6 decimals), the model's own rate;
#   rtl     the Verilated RTL alone (the `tcpa-rtl` harness of the
#           configuration, from the harness cache; no trace, no FST);
#   rtl-run the same less the time of loading the stream (a run stopped
#           after cycle 0: the loader takes one word a cycle, so a stream
#           of W words costs W clock cycles before cycle 0);
#   rtl-cmd `tcpa run --engine rtl` (the RTL from the program: the
#           compile, the reference and the check of the outputs included);
#   cosim   `tcpa run --engine cosim` (model and RTL in lockstep, with the
#           compile, the reference and the comparison it includes);
#   cosim-sim the simulation part of the same runs: the `run` CPU seconds
#           of their `time` line (tcpa's own and its harness's, from the
#           start of the engines to their end: the compile, the
#           instantiation, the reference and the checks not counted);
# and prints cycles (the model's `done in N cycles`, which cosim shows the
# RTL matches), PEs, CPU seconds (the fastest of REPEAT runs), PE-cycles
# per second and cycles per second (rtl, rtl-cmd and cosim timed in turns,
# one run of each a round, so that the ratios compare runs made side by
# side on a machine whose speed drifts), the verdict against the reference
# interpreter (`tcpa run --engine model` for the model row, the cosim run
# itself for the cosim row), and cosim's time over the RTL's alone: the
# same command with the other engine (cosim / rtl-cmd, CPU and wall),
# (CPU seconds: whole, and its simulation part; and wall-clock seconds,
# the fastest of the same REPEAT runs, whole and its simulation part:
# cosim's two processes, the model and the RTL harness, overlap on two
# cores). The cases are the real problem sizes
# of docs/testing.md "Simulator speed": bitextract N = 4000 and FIR
# N = 1024 (64 taps, as the paper's tables, the taps tiled: --map 1) on
# 1x4, matmul N = M = K = 16, matmul N = M = 4 K = 1000 (a 34 KB stream,
# mostly IODATA, four times as many words as cycles: the loading's case)
# a conv layer of 16x16 pixels and matmul N = M = K = 32 (the paper's
# size: its accumulation padded, `tcpa compile --pad` as `tcpa run` does,
# and its 64-deep fd split over two fds of 32 by a chain mov,
# docs/symbolic.md "Registers") on 4x4 of configs/default.ini, matmul
# on 4x4 of configs/big1d.ini (N = M = K = 32, pe.fd_depth 64 there; N =
# M = 16 K = 250), and the same matmul N = M = 16 K = 250 on default.ini
# (8178 cycles: a longer run for the model's stepping rate; K = 1000 does
# not fit its 1024-word banks).
# A benchmark, never an assertion: it exits 0 however slow a simulator is
# (non-zero only when a run itself fails). The model row's seconds include
# the process start and the stream's loading (short runs understate its
# speed); the model-step row is its stepping alone.
#
# Environment: BUILD (default build), TCPA (default $BUILD/bin/tcpa),
# REPEAT (default 3), STEP_REPEAT (default 15: the model's runs, which
# take milliseconds and whose time swings by a third on a shared
# machine), SPEED_CASES (default: every case below).
set -u
BUILD=${BUILD:-build}
TCPA=${TCPA:-$BUILD/bin/tcpa}
REPEAT=${REPEAT:-3}
STEP_REPEAT=${STEP_REPEAT:-15}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# name|program|parameters|configuration|region|--map[|tcpa compile options]
CASES=(
  "bitextract-1x4|bitextract|N=4000|configs/default.ini|1x4|"
  "fir-1x4|fir|N=1024 T=64|configs/default.ini|1x4|1"
  "mm16-4x4|matmul|N=16 M=16 K=16|configs/default.ini|4x4|0,1"
  "mm4k-4x4|matmul|N=4 M=4 K=1000|configs/default.ini|4x4|0,1"
  "conv16-4x4|conv|CO=4 R=16 C=16 CI=2 KR=2 KC=2|configs/default.ini|4x4|0,1"
  "mm32-4x4|matmul|N=32 M=32 K=32|configs/default.ini|4x4|0,1|--pad"
  "mm32-big1d|matmul|N=32 M=32 K=32|configs/big1d.ini|4x4|2,1"
  "mm16-big1d|matmul|N=16 M=16 K=250|configs/big1d.ini|4x4|0,1"
  "mm16k-4x4|matmul|N=16 M=16 K=250|configs/default.ini|4x4|0,1"
)

# Prints the CPU seconds (user + system, of the command and the processes
# it waited for; 3 decimals) of the fastest of REPEAT runs of "$@": CPU
# time, as the machine may be shared; nothing, and status 1, when a run
# fails. Writes the fastest wall-clock seconds of the same runs (elapsed
# time: cosim's two processes overlap on two cores) to $tmp/wall.
best_of() {
  local best="" bestw="" i dt rc w u s
  for ((i = 0; i < REPEAT; i++)); do
    { TIMEFORMAT='%3R %3U %3S'; time { "$@" > /dev/null 2>&1; echo $? > "$tmp/rc"; }; } 2> "$tmp/time"
    read -r rc < "$tmp/rc"; [ "$rc" = 0 ] || return 1
    read -r w u s < "$tmp/time"
    dt=$(awk -v a="$u" -v b="$s" 'BEGIN { print a + b }')
    if [ -z "$best" ] || awk -v d="$dt" -v b="$best" 'BEGIN { exit !(d < b) }'; then best=$dt; fi
    if [ -z "$bestw" ] || awk -v d="$w" -v b="$bestw" 'BEGIN { exit !(d < b) }'; then bestw=$w; fi
  done
  printf '%.3f' "$bestw" > "$tmp/wall"
  printf '%.3f' "$best"
}

# Prints the CPU seconds of one run of `tcpa run "$@"` (status 1 when it
# fails), writes its elapsed seconds to $tmp/wall and the `run` CPU and
# elapsed seconds of its `time` line (the engines alone,
# docs/user-guide.md) to $tmp/run.
one_run() {
  local rc w u s r rw
  { TIMEFORMAT='%3R %3U %3S'; time { "$TCPA" run "$@" > "$tmp/out" 2>&1; echo $? > "$tmp/rc"; }; } 2> "$tmp/time"
  read -r rc < "$tmp/rc"; [ "$rc" = 0 ] || return 1
  read -r w u s < "$tmp/time"
  read -r r rw < <(sed -n 's/^time .*, run \([0-9.]*\) s (CPU.*; run \([0-9.]*\) s elapsed)$/\1 \2/p' "$tmp/out")
  [ -n "$r" ] && [ -n "$rw" ] || return 1
  printf '%.3f' "$w" > "$tmp/wall"
  printf '%.3f %.3f' "$r" "$rw" > "$tmp/run"
  awk -v a="$u" -v b="$s" 'BEGIN { printf "%.3f", a + b }'
}

# Prints the stepping seconds (`step_seconds` of `tcpa sim --stats`, 6
# decimals) of the fastest of STEP_REPEAT runs of `tcpa sim "$@" --stats`;
# nothing, and status 1, when a run fails.
best_step() {
  local best="" i dt
  for ((i = 0; i < STEP_REPEAT; i++)); do
    dt=$("$TCPA" sim "$@" --stats 2>/dev/null | sed -n 's/^stats:.* step_seconds \([0-9.]*\) .*/\1/p')
    [ -n "$dt" ] || return 1
    if [ -z "$best" ] || awk -v d="$dt" -v b="$best" 'BEGIN { exit !(d < b) }'; then best=$dt; fi
  done
  printf '%s' "$best"
}

# Prints the lesser of two numbers of seconds, $2 when $1 is empty.
lesser() {
  awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b + 0 < a + 0) print b; else print a }'
}

# Prints the seconds (3 decimals) the fastest of REPEAT runs of "$@" took
# when each exits with status $1 or 0 (a run stopped on purpose).
best_of_status() {
  local ok=$1; shift
  best_of sh -c '"$@"; rc=$?; [ $rc -eq 0 ] || [ $rc -eq '"$ok"' ]' sh "$@"
}

# Prints one row: engine, case, cycles, PEs, seconds, verdict.
row() {
  awk -v e="$1" -v n="$2" -v c="$3" -v p="$4" -v s="$5" -v v="$6" \
    'BEGIN { printf "%-10s %-16s %8d %4d %9s %14.0f %11.0f  %s\n", e, n, c, p, s, (s > 0 ? c * p / s : 0), (s > 0 ? c / s : 0), v }'
}

echo "Simulator speed (no waveforms, no trace; CPU seconds, fastest of $REPEAT runs, of $STEP_REPEAT for the model)"
echo
printf '%-10s %-16s %8s %4s %9s %14s %11s  %s\n' engine case cycles PEs seconds PE-cycles/s cycles/s verdict
printf '%-10s %-16s %8s %4s %9s %14s %11s  %s\n' ---------- ---------------- -------- ---- --------- -------------- ----------- -------
status=0
ratios=()
for c in "${CASES[@]}"; do
  IFS='|' read -r name prog params cfg pes map copts <<< "$c"
  case " ${SPEED_CASES:-$name} " in *" $name "*) ;; *) continue ;; esac
  args=(); for p in $params; do args+=(--param "$p"); done
  margs=(); [ -n "$map" ] && margs=(--map "$map")
  sym=$tmp/$name.sym bin=$tmp/$name.bin
  # shellcheck disable=SC2086
  if ! "$TCPA" compile "regress/programs/$prog.pla" --arch "$cfg" "${margs[@]}" $copts -o "$sym" > "$tmp/log" 2>&1 ||
     ! "$TCPA" instantiate "$sym" --arch "$cfg" "${args[@]}" --pes "$pes" -o "$bin" >> "$tmp/log" 2>&1; then
    echo "$name ($prog $params, $pes): does not build: $(tail -n 1 "$tmp/log")"; status=1; continue
  fi
  cycles=$("$TCPA" sim "$bin" --arch "$cfg" 2>/dev/null | sed -n 's/.*done in \([0-9]*\) cycles.*/\1/p')
  npe=$(( ${pes%x*} * ${pes#*x} ))
  if [ -z "$cycles" ]; then echo "$name: the model does not reach done"; status=1; continue; fi
  rtl=$("$TCPA" harness --arch "$cfg" 2>"$tmp/log") || { echo "$name: no RTL harness: $(tail -n 1 "$tmp/log")"; status=1; continue; }
  tm=$(REPEAT=$STEP_REPEAT best_of "$TCPA" sim "$bin" --arch "$cfg") || { echo "$name: model run failed"; status=1; continue; }
  tms=$(best_step "$bin" --arch "$cfg") || { echo "$name: model --stats run failed"; status=1; continue; }
  vm=pass
  "$TCPA" run "regress/programs/$prog.pla" --arch "$cfg" "${margs[@]}" "${args[@]}" --pes "$pes" \
    --engine model > "$tmp/log" 2>&1 || { vm="FAIL (exit $?)"; status=1; }
  tl=$(best_of_status 1 "$rtl" "$bin" --max-cycles 1) || { echo "$name: RTL load run failed"; status=1; continue; }
  # the RTL alone, rtl-cmd and cosim in turns, one run of each a round:
  # a machine whose speed drifts (other jobs, a shared host) slows the
  # three alike, and the ratios compare runs made side by side
  tr="" trw="" tq="" tqw="" tc="" tcw="" ts="" tsw="" failed=""
  for ((round = 0; round < REPEAT; round++)); do
    x=$(REPEAT=1 best_of "$rtl" "$bin" --max-cycles $((cycles * 2 + 1000))) || { failed="RTL run failed"; break; }
    read -r xw < "$tmp/wall"
    tr=$(lesser "$tr" "$x") trw=$(lesser "$trw" "$xw")
    x=$(one_run "regress/programs/$prog.pla" --arch "$cfg" "${margs[@]}" "${args[@]}" --pes "$pes" \
        --engine rtl) || { failed="rtl run failed"; break; }
    read -r xw < "$tmp/wall"
    tq=$(lesser "$tq" "$x") tqw=$(lesser "$tqw" "$xw")
    x=$(one_run "regress/programs/$prog.pla" --arch "$cfg" "${margs[@]}" "${args[@]}" --pes "$pes" \
        --engine cosim) || { failed="cosim run failed"; break; }
    read -r xw < "$tmp/wall"
    read -r xs xsw < "$tmp/run"
    tc=$(lesser "$tc" "$x") tcw=$(lesser "$tcw" "$xw") ts=$(lesser "$ts" "$xs") tsw=$(lesser "$tsw" "$xsw")
  done
  if [ -n "$failed" ]; then echo "$name: $failed"; status=1; continue; fi
  row model "$name" "$cycles" "$npe" "$tm" "$vm"
  row model-step "$name" "$cycles" "$npe" "$tms" -
  row rtl "$name" "$cycles" "$npe" "$tr" -
  row rtl-run "$name" "$cycles" "$npe" "$(awk -v a="$tr" -v b="$tl" 'BEGIN { printf "%.3f", (a > b ? a - b : 0) }')" -
  row rtl-cmd "$name" "$cycles" "$npe" "$tq" pass
  row cosim "$name" "$cycles" "$npe" "$tc" pass
  row cosim-sim "$name" "$cycles" "$npe" "$ts" -
  ratios+=("$(awk -v n="$name" -v c="$tc" -v s="$ts" -v r="$tr" -v cw="$tcw" -v rw="$trw" -v sw="$tsw" \
              -v q="$tq" -v qw="$tqw" \
              'BEGIN { printf "%-16s %5.2f %5.2f   %6.2f  (simulation part %4.2f)   wall %6.3f / %6.3f s = %5.2f  (simulation part %4.2f)", n,
                       (q > 0 ? c / q : 0), (qw > 0 ? cw / qw : 0),
                       (r > 0 ? c / r : 0), (r > 0 ? s / r : 0), cw, rw, (rw > 0 ? cw / rw : 0), (rw > 0 ? sw / rw : 0) }')")
done
echo
echo "cosim time over RTL-alone time (goal <= 1.3). First two columns: \`tcpa run --engine cosim\` over"
echo "\`tcpa run --engine rtl\` (the same command, the other engine), CPU and wall seconds. Then over"
echo "tcpa-rtl alone: CPU seconds (whole, simulation part: the run of the engines, the \`time\` line's"
echo "\`run\`); wall: elapsed seconds of cosim / rtl, fastest of $REPEAT, and the ratio (whole, simulation"
echo "part: the \`run\` elapsed seconds); cosim's model and RTL overlap:"
printf '  %-16s %5s %5s   %s\n' case cpu wall "over tcpa-rtl alone"
for r in "${ratios[@]}"; do echo "  $r"; done
exit $status
