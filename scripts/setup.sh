#!/usr/bin/env bash
# setup.sh: installs, through apt-get, every Debian package the project
# needs to build, test and run. Idempotent: packages already installed are
# skipped, and nothing is done when all are present. Run by `make`,
# `make test` and `make demo` before anything else.
set -euo pipefail

# Every dependency of the project, with what it is for.
packages=(
  build-essential   # gcc, make: the C11 compiler, instantiator and model
  pkg-config        # locates the libraries below
  libisl-dev        # integer sets: the checks of the language rules, mapping
  libgmp-dev        # isl's arithmetic
  libinih-dev       # INI parser for architecture configurations
  libyaml-dev       # YAML parser for the testplan (docs/testplan.yml)
  verilator         # the RTL simulator (5.006)
  ccache            # compiler cache for the Verilated harnesses (tb/harness.mk, OBJCACHE)
  libsystemc-dev    # SystemC kernel for the SystemC engine
  gtkwave           # waveform viewer (FST) for mismatch debugging
  yosys             # synthesis of the RTL (cells per module)
  zlib1g-dev        # FST writer compression
  python3           # regression reports
  parallel          # GNU parallel: regression shards on several hosts (scripts/regress-parallel.sh)
  xvfb              # headless X for the GTKWave test
  xauth             # xvfb-run needs it (only a Recommends of xvfb)
  x11-apps          # xwd: the screenshot of GTKWave in tests/wave_cli.sh
  netpbm            # xwdtopnm, pnmtopng: that screenshot as a PNG (docs/img/)
  clang             # libFuzzer targets (make fuzz, tests/fuzz.sh)
  libclang-rt-14-dev # libFuzzer and sanitizer runtimes of clang 14
  lcov              # genhtml: the sign-off's line and toggle coverage as HTML (verilator_coverage --write-info)
  gnuplot-nox       # tcpa explore: the Pareto front's picture (docs/explore.md)
  graphviz          # dot: tcpa instantiate --dot renders processor classes and CFGs (docs/instantiate.md)
  chromium          # headless browser: tests/regress_cli.sh renders report.html and takes its screenshot
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
