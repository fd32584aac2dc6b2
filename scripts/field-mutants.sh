#!/usr/bin/env bash
# field-mutants.sh: the field mutants of the RTL (docs/mutants.md "Field
# mutants"), made from the table scripts/field-mutants.tsv rather than
# written one by one: for every field the RTL decodes (loader, GC, AG,
# wrapper, PE, FU), the one-token bug that takes it from the wrong place.
#
#   field-mutants.sh list              the mutants, one line each
#   field-mutants.sh check [ROOT]      every row applies to ROOT/rtl (default:
#                                      this tree): its anchor in exactly one
#                                      line, its expression in that line;
#                                      exit 2 naming each row that does not
#   field-mutants.sh apply N DIR       DIR: a scratch copy of this tree with
#                                      mutant N applied as plain text (a clone
#                                      with the bug, to run `make test` in)
#   field-mutants.sh hooks DIR         DIR: a scratch copy of this tree and of
#                                      its build (tcpa, the generated
#                                      packages) with every mutant applied as
#                                      a hook, ((fmut == N) ? (to) : (from)),
#                                      selected by the plusarg +fmut=N (0:
#                                      none): one harness build for all
#   field-mutants.sh run [OPTIONS]     the campaign (below)
#
# The substitution is done by Perl (Verilator's own language, always
# present beside it): each row's anchor must match one line, and its `from`
# expression, as a whole token (not inside a longer name), must occur in
# that line; every occurrence there is replaced.
#
# The campaign (`run`, the full tier's tests/field_mutants.sh; minutes per
# configuration): builds the hooks tree's `mutants` harness for each
# configuration, checks that without a mutant (+fmut=0) it agrees with the
# C model on every check below, then for each mutant runs the fast tier's
# checks in turn until one catches it: the random streams of `tcpa gen
# stream --check` (seeds 1-40 on configs/default.ini, 1-60 on
# tests/configs/shape3x2.ini, in chunks of 10 seeds), then the benchmarks
# of tests/mutants.sh in lockstep (`tcpa cosim-check` of the mutant's trace
# against the C model's). It prints one line per mutant:
#   N caught-by first-divergence
# and a Markdown table with --markdown FILE. Options:
#   --only "N ..."   these mutants only
#   --default-only   configs/default.ini's harness and checks only (no
#                    shape3x2 build: the full tier's; the nightly runs both)
#   --work DIR       where the hooks tree and the logs go (kept)
# Exit status: 0 every mutant caught, 1 some mutant missed, 2 a table row
# that does not apply, a build or a clean run that fails.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
table=${FIELD_MUTANTS_TABLE:-$here/scripts/field-mutants.tsv}  # (another: the tests)

usage() { sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

# mutate MODE N ROOT: applies the table to ROOT/rtl (MODE check: nothing
# written; apply: mutant N as text; hooks: every mutant as a hook).
mutate() {
  MODE=$1 MUT=$2 ROOT=$3 TABLE=$table perl -e '
    use strict; use warnings;
    my ($mode, $mut, $root) = @ENV{qw(MODE MUT ROOT)};
    open my $t, "<", $ENV{TABLE} or die "field-mutants: $ENV{TABLE}: $!\n";
    my (%rows, @files, $bad);
    while (my $l = <$t>) {
      chomp $l;
      next if $l =~ /^#/ || $l !~ /\S/;
      my @c = split /\t/, $l, -1;
      if (@c != 8 || $c[0] !~ /^\d+$/) { print STDERR "field-mutants: table line $.: 8 tab-separated columns\n"; $bad = 1; next; }
      push @files, $c[4] unless $rows{$c[4]};
      push @{$rows{$c[4]}}, [$., @c];
    }
    for my $f (@files) {
      open my $in, "<", "$root/$f" or do { print STDERR "field-mutants: $root/$f: $!\n"; $bad = 1; next };
      my @src = <$in>;
      close $in;
      my @orig = @src;
      my $used = 0;
      for my $r (@{$rows{$f}}) {
        my ($ln, $n, $unit, $field, $kind, $file, $anchor, $from, $to) = @$r;
        my $re = $anchor =~ s/^\^// ? qr/^\s*\Q$anchor\E/ : qr/\Q$anchor\E/;
        my @at = grep { $orig[$_] =~ $re } 0 .. $#orig;
        my $tok = qr/(?<![\w.:\x27])\Q$from\E(?!\w)/;
        my $why = @at != 1 ? "its anchor is in " . scalar(@at) . " lines" : $orig[$at[0]] !~ $tok ? "its expression is not in the anchor line" : "";
        if ($why) {
          print STDERR "field-mutants: $ENV{TABLE}:$ln: mutant $n ($unit $field) does not apply to $f: $why\n";
          $bad = 1;
          next;
        }
        if ($mode eq "apply" && $n == $mut) { $src[$at[0]] =~ s/$tok/$to/g; $used = 1; }
        if ($mode eq "hooks") { $src[$at[0]] =~ s/$tok/((fmut == 32\x27d$n) ? ($to) : ($from))/g; $used = 1; }
      }
      next if !$used || $bad;
      if ($mode eq "hooks") {  # the selector, after the module header
        my ($m) = grep { $src[$_] =~ /^module\b/ } 0 .. $#src;
        my ($e) = grep { $_ > $m && $src[$_] =~ /^\s*\);\s*$/ } $m .. $#src;
        splice @src, $e + 1, 0, "  // the field mutant of scripts/field-mutants.sh: +fmut=N (0: none)\n",
          "  int unsigned fmut;\n", "  initial if (!\$value\$plusargs(\"fmut=%d\", fmut)) fmut = 0;\n";
      }
      open my $out, ">", "$root/$f" or die "field-mutants: $root/$f: $!\n";
      print $out @src;
      close $out;
    }
    exit($bad ? 2 : 0);'
}

# copy_tree DIR: DIR gets a copy of this tree's sources (no build, no git).
copy_tree() {
  mkdir -p "$1" && tar -C "$here" --exclude=./build --exclude=./.git -cf - . | tar -C "$1" -xf -
}

# list: one line per mutant, its substitutions joined.
list() {
  awk -F'\t' '!/^#/ && NF == 8 {
      s = $7 " -> " $8
      if ($1 in m) m[$1] = m[$1] "; " s
      else { order[++n] = $1; m[$1] = s; head[$1] = $1 "\t" $2 "\t" $3 "\t" $4 "\t" $5 }
    }
    END { for (i = 1; i <= n; i++) print head[order[i]] "\t" m[order[i]] }' "$table"
}

# hooks DIR: the hooks tree, with this tree's build (tcpa and what the
# harness recipe needs, their times kept so that make rebuilds nothing).
hooks() {
  local dir=$1 b=${BUILD:-build}
  copy_tree "$dir" || return 2
  mkdir -p "$dir/build" &&
    (cd "$here/$b" && tar -cf - bin lib gen obj .setup 2>/dev/null) | tar -C "$dir/build" -xf - || return 2
  mutate hooks 0 "$dir"
}

# ---- the campaign ---------------------------------------------------------------

# divergence FILE: "cycle C (R,C) KIND" of the first divergence a lockstep
# report names, or "?" (gen stream's DIVERGE line, cosim-check's report).
divergence() {
  awk '/DIVERGENCE at cycle|DIVERGE/ && !c { for (i = 1; i <= NF; i++) if ($i == "cycle") { c = $(i + 1); sub(/[,:]$/, "", c) }
         if (match($0, /\([0-9]+,[0-9]+\)/)) p = substr($0, RSTART, RLENGTH) }
       /^  event:/ && c != "" && !k { k = $2; sub(/:$/, "", k) }
       END { if (c == "") print "?"; else print "cycle " c (p != "" ? " " p : "") (k != "" ? " " k : "") }' "$1"
}

# streams NAME ARCH SEEDS SCRIPT LOG: gen stream --check with the harness
# script; prints "NAME seed S, DIVERGENCE" of the first seed that diverges
# or that the RTL refuses (a valid stream: its loader's error) and returns
# 0, or returns 1 when every seed agrees.
streams() {
  local name=$1 arch=$2 seeds=$3 script=$4 log=$5 lo hi a first
  lo=${seeds%-*} hi=${seeds#*-}
  for ((a = lo; a <= hi; a += 10)); do
    nice "$tcpa" gen stream --arch "$arch" --seeds "$a-$((a + 9 < hi ? a + 9 : hi))" --check --no-shrink \
      --max-cycles 300 --rtl "$script" --out-dir "$log.out" >"$log" 2>&1 && continue
    first=$(grep -m1 -E '^seed [0-9]+: (DIVERGE|INVALID)' "$log")
    case $first in
      *DIVERGE*) echo "$name ${first%%:*}, $(divergence "$log")" ;;
      *"rejected by the loader: "*) echo "$name ${first%%:*}, refused by the RTL's loader: ${first##*rejected by the loader: }" ;;
      *) echo "$name seeds $a..: ${first:-$(tail -1 "$log")}" ;;
    esac
    return 0
  done
  return 1
}

# bench NAME SCRIPT LOG: the benchmark NAME's clean model run in lockstep
# with the harness script (its trace against the model's); prints the
# divergence and returns 0, or returns 1 when they agree.
bench() {
  local name=$1 script=$2 log=$3 max
  max=$(($(awk '$2 == "done" { print $1 }' "$work/$name/model.trace") * 2 + 100))
  nice "$script" "$work/$name/config.bin" --trace "$log.trace" --max-cycles $max >/dev/null 2>"$log.err"
  "$tcpa" cosim-check "$work/$name/model.trace" "$log.trace" >"$log" 2>&1 && return 1
  echo "benchmark $name, $(divergence "$log")"
}

run() {
  local only="" md="" m archs="configs/default.ini tests/configs/shape3x2.ini"
  work=${TMPDIR:-/tmp}/field-mutants.$$
  while [ $# -gt 0 ]; do
    case $1 in
      --only) only=$2; shift 2 ;;
      --default-only) archs=configs/default.ini; shift ;;
      --work) work=$2; shift 2 ;;
      --markdown) md=$2; shift 2 ;;
      *) echo "field-mutants: run: unknown option '$1'" >&2; return 2 ;;
    esac
  done
  mkdir -p "$work" || return 2
  work=$(cd "$work" && pwd)
  echo "# field mutants: work in $work"
  [ -x "$work/tree/build/bin/tcpa" ] || hooks "$work/tree" || return 2
  tcpa=$work/tree/build/bin/tcpa
  local -A harn
  local arch
  for arch in $archs; do
    echo "# building the hooks tree's mutants harness of $arch (minutes)"
    harn[$arch]=$(nice "$tcpa" harness --arch "$here/$arch" --kind mutants) || return 2
    printf '#!/bin/sh\nexec "%s" "$@" +fmut="${FMUT:-0}"\n' "${harn[$arch]}" >"$work/$(basename "$arch" .ini).sh"
    chmod +x "$work/$(basename "$arch" .ini).sh"
  done
  # the benchmarks' clean model runs (their arguments: tests/mutants.sh's)
  local b args
  for b in bx mm22 mm44; do
    case $b in
      bx) args="regress/programs/bitextract.pla --param N=8 --pes 1x2 --seed 3" ;;
      mm22) args="regress/programs/matmul.pla --param N=3 --param M=3 --param K=3 --pes 2x2 --seed 1" ;;
      mm44) args="regress/programs/matmul.pla --param N=4 --param M=4 --param K=3 --pes 4x4 --seed 1" ;;
    esac
    [ -f "$work/$b/model.trace" ] ||
      (cd "$here" && "$tcpa" run $args --engine model --out-dir "$work/$b" >"$work/$b.log" 2>&1) ||
      { echo "field-mutants: the clean model run of $b failed ($work/$b.log)" >&2; return 2; }
  done
  # without a mutant: every check agrees
  export FMUT=0
  if streams default "$here/configs/default.ini" 1-40 "$work/default.sh" "$work/clean-d.log" ||
     { [[ $archs == *shape3x2* ]] && streams shape3x2 "$here/tests/configs/shape3x2.ini" 1-60 "$work/shape3x2.sh" "$work/clean-s.log"; } ||
     bench bx "$work/default.sh" "$work/clean-bx" || bench mm22 "$work/default.sh" "$work/clean-mm22" ||
     bench mm44 "$work/default.sh" "$work/clean-mm44"; then
    echo "field-mutants: the hooks harness without a mutant diverges (above)" >&2
    return 2
  fi
  echo "# without a mutant (+fmut=0): every check agrees"
  local missed=0 n unit field kind file subst got
  [ -n "$md" ] && printf '| N | unit | field | kind | file | mutation | caught by | first divergence |\n|---|---|---|---|---|---|---|---|\n' >"$md"
  while IFS=$'\t' read -r n unit field kind file subst; do
    [ -n "$only" ] && ! [[ " $only " == *" $n "* ]] && continue
    export FMUT=$n
    got=$(streams default "$here/configs/default.ini" 1-40 "$work/default.sh" "$work/m$n-d.log" ||
          { [[ $archs == *shape3x2* ]] && streams shape3x2 "$here/tests/configs/shape3x2.ini" 1-60 "$work/shape3x2.sh" "$work/m$n-s.log"; } ||
          bench bx "$work/default.sh" "$work/m$n-bx" || bench mm22 "$work/default.sh" "$work/m$n-mm22" ||
          bench mm44 "$work/default.sh" "$work/m$n-mm44") || { got="MISSED"; missed=$((missed + 1)); }
    printf '%s\t%s %s (%s)\t%s\n' "$n" "$unit" "$field" "$kind" "$got"
    if [ -n "$md" ]; then
      local by=${got%%,*} at=${got#*, }
      [ "$got" = MISSED ] && at=-
      printf '| %s | %s | `%s` | %s | `%s` | `%s` | %s | %s |\n' "$n" "$unit" "$field" "$kind" "${file#rtl/}" \
        "$(printf '%s' "$subst" | sed 's/|/\\|/g')" "$by" "$at" >>"$md"
    fi
  done < <(list)
  echo "# $missed missed"
  [ $missed -eq 0 ]
}

case ${1:-} in
  list) list ;;
  check) mutate check 0 "${2:-$here}" ;;
  apply)
    [ $# -eq 3 ] || { usage >&2; exit 2; }
    list | awk -F'\t' -v n="$2" '$1 == n { f = 1 } END { exit !f }' ||
      { echo "field-mutants: no mutant $2 in $table" >&2; exit 2; }
    copy_tree "$3" && mutate apply "$2" "$3" ;;
  hooks) [ $# -eq 2 ] || { usage >&2; exit 2; }; hooks "$2" ;;
  run) shift; run "$@" ;;
  -h|--help) usage ;;
  *) usage >&2; exit 2 ;;
esac
