#!/usr/bin/env bash
# seeds.sh DIR: writes the seed corpora of the fuzz targets (fuzz/*.c,
# docs/fuzz.md) into DIR/parse, DIR/arch and DIR/stream:
#   parse:  every regress/programs/*.pla and regress/errors/pla/*.pla;
#   arch:   every configs/*.ini and regress/errors/arch/*.ini;
#   stream: the streams of the benchmarks on configs/default.ini and
#           configs/big1d.ini (the stream target loads the configuration
#           whose fingerprint the header names), made by `tcpa run --engine
#           model --out-dir` (compile + instantiate), on the regions where
#           they fit, and regress/streams/*.tasm assembled with `tcpa asm`.
# Each corpus is rebuilt in a temporary directory and renamed into place.
set -u
TCPA=${TCPA:-${BUILD:-build}/bin/tcpa}
out=${1:?usage: seeds.sh DIR}
mkdir -p "$(dirname "$out")"
tmp=$(mktemp -d "$out.tmp.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/parse" "$tmp/arch" "$tmp/stream" "$tmp/work"
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
    fi
  done
done
for f in regress/streams/*.tasm; do
  "$TCPA" asm "$f" -o "$tmp/stream/$(basename "$f" .tasm).bin" >/dev/null 2>&1
done
rm -rf "$tmp/work"
n=$(ls "$tmp/stream" | wc -l)
[ "$n" -ge 3 ] || { echo "seeds.sh: only $n seed streams were made" >&2; exit 1; }
rm -rf "$out" && mv "$tmp" "$out" && trap - EXIT
echo "seeds.sh: $(ls "$out/parse" | wc -l) programs, $(ls "$out/arch" | wc -l) configurations, $n streams in $out"
