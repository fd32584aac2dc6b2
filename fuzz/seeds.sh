#!/usr/bin/env bash
# seeds.sh DIR: writes the seed corpora of the fuzz targets (fuzz/*.c,
# docs/fuzz.md) into DIR/parse, DIR/arch, DIR/stream and DIR/json:
#   parse:  every regress/programs/*.pla and regress/errors/pla/*.pla;
#   arch:   every configs/*.ini and regress/errors/arch/*.ini;
#   stream: the streams of the benchmarks on configs/default.ini and
#           configs/big1d.ini (the stream target loads the configuration
#           whose fingerprint the header names), made by `tcpa run --engine
#           model --out-dir` (compile + instantiate), on the regions where
#           they fit, and regress/streams/*.tasm assembled with `tcpa asm`;
#   json:   the summary.json of each of those runs, a summary.json of
#           `tcpa regress` with seeds 2^53+1, 2^63-1 and 2^64-1, and small
#           texts of every kind of value (numbers at the 64-bit limits).
# Each corpus is rebuilt in a temporary directory and renamed into place.
set -u
TCPA=${TCPA:-${BUILD:-build}/bin/tcpa}
out=${1:?usage: seeds.sh DIR}
mkdir -p "$(dirname "$out")"
tmp=$(mktemp -d "$out.tmp.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/parse" "$tmp/arch" "$tmp/stream" "$tmp/json" "$tmp/work"
for f in regress/programs/*.pla regress/errors/pla/*.pla; do
  cp "$f" "$tmp/parse/$(basename "$(dirname "$f")")-$(basename "$f")"
done
for f in configs/*.ini regress/errors/arch/*.ini; do
  [ -f "$f" ] || continue
  cp "$f" "$tmp/arch/$(basename "$(dirname "$f")")-$(basename "$f")"
done
cases=("bitextract|N=5" "fir|N=5 T=2" "matmul|N=2 M=2 K=2" "conv|CO=1 R=3 C=3 CI=1 KR=2 KC=2"
       "trimv|N=4" "maxpool|R=4 C=4" "dotprod|N=4" "jacobi|T=2 N=4" "gcd|N=3 S=4"
       "editdist|N=3 M=3" "satarith|N=4" "band|N=4 W=2")
for c in "${cases[@]}"; do
  prog=${c%%|*} args=()
  for p in ${c#*|}; do args+=(--param "$p"); done
  for run in default:1x1 default:1x2 default:1x4 default:2x1 big1d:1x1 big1d:1x3; do
    arch=${run%%:*} pes=${run#*:} d=$tmp/work/$prog-$arch-$pes
    if timeout 120 "$TCPA" run "regress/programs/$prog.pla" --engine model --pes "$pes" --seed 1 \
         --arch "configs/$arch.ini" --out-dir "$d" "${args[@]}" >/dev/null 2>&1 && [ -s "$d/config.bin" ]; then
      cp "$d/config.bin" "$tmp/stream/$prog-$arch-$pes.bin"
      [ -s "$d/summary.json" ] && cp "$d/summary.json" "$tmp/json/run-$prog-$arch-$pes.json"
    fi
  done
done
for f in regress/streams/*.tasm; do
  "$TCPA" asm "$f" -o "$tmp/stream/$(basename "$f" .tasm).bin" >/dev/null 2>&1
done
rm -rf "$tmp/work"
cat >"$tmp/json/regress-summary.json" <<'EOF'
{
  "tool": "tcpa regress", "tool_version": "0.9.0", "git_revision": "unknown", "shard": null,
  "total": 3, "not_ok": 1, "ok": false,
  "counts": {"pending": 0, "pass": 2, "fail": 1, "invalid": 0, "nofit": 0, "timeout": 0, "crash": 0},
  "buckets": [{"count": 1, "signature": {"text": "outputs @ model", "check": "outputs", "kind": "",
    "unit": "", "stage": "model", "diff": ""}, "runs": ["outs_N1_1x1_model_default_s9007199254740993"]}],
  "runs": [
    {"id": "outs_N1_1x1_model_default_s9007199254740993", "suite": "big", "program": "p/outs.pla",
     "name": "outs", "params": "N=1", "pes": "1x1", "map": null, "arch": "configs/default.ini",
     "engine": "model", "seed": 9007199254740993, "expect": "any", "timeout": 0, "window": 0, "waves": false,
     "where": "big.suite:2", "verdict": "fail", "ok": false, "exit": 1, "signal": 0, "seconds": 0.25,
     "message": "model: 3 of 13 output elements differ", "signature": null, "cycles": 41, "pes_used": 1,
     "ii": 2, "config_bytes": 1024, "instantiate_seconds": null, "dir": "out/x", "command": "tcpa run"},
    {"id": "a", "seed": 9223372036854775807, "cycles": -9223372036854775808, "seconds": 1.5e-3},
    {"id": "b", "seed": 18446744073709551615, "x": [true, false, null, "\u00e9\ud83d\ude00\n", -0, 0.5, 1E+2]}
  ]
}
EOF
printf '18446744073709551616' >"$tmp/json/num-2e64.json"
printf '[-9223372036854775809, 1e308, 2.2250738585072014e-308, 0, -0.0]' >"$tmp/json/num-limits.json"
printf '{"a": {"b": [[[{}]]]}, "": ""}' >"$tmp/json/nested.json"
n=$(ls "$tmp/stream" | wc -l)
[ "$n" -ge 3 ] || { echo "seeds.sh: only $n seed streams were made" >&2; exit 1; }
rm -rf "$out" && mv "$tmp" "$out" && trap - EXIT
echo "seeds.sh: $(ls "$out/parse" | wc -l) programs, $(ls "$out/arch" | wc -l) configurations, $n streams," \
  "$(ls "$out/json" | wc -l) JSON texts in $out"
