#!/usr/bin/env bash
# compare.sh: whole-process comparisons of gentle-ai against git, as ratios (docs/performance.md).
#
#   bench/compare.sh [--build DIR] [--data DIR] [--work DIR] [--out DIR] [--rounds N] [--runs N]
#                    [--small-runs N] [--large-runs N]
#                    [--sections small,large,export,start,verdict,fetchverify,store,bigfile,bigtree]
#                    [--sizes "1000 10000 100000"] [--tree-sizes "10000 20000 40000 80000"]
#                    [--big-mib N] [--verdict-files N] [--gen-files N]
#                    [--real-only | --gen-only] [--instructions]
#
# Each pair A/B is measured with hyperfine in --rounds rounds of --runs runs per command, the order
# of A and B swapped every round (A,B then B,A, ...), so that load from other processes on a shared
# machine hits both alike. Reported: the median over all runs of each command, the ratio A/B of
# the medians, and the spread of the per-round ratios (min..max). Exports whose patch is under
# 64 KiB (about 2 ms a run) take --small-runs runs per round (default 40) instead of --runs. The
# 1-minute load average is recorded before each pair. --instructions adds a callgrind instruction count (noise-free, one run
# each; child processes are not followed).
#
# Needs: hyperfine, git, python3 (to summarise hyperfine's JSON), /usr/bin/time, valgrind for
# --instructions. Real repositories are bare clones in --data (default /work/data): git.git and
# libgit2.git, e.g. `git clone --bare https://github.com/git/git.git`; they are only read (a
# `git clone --shared --no-checkout` of them is made in --work). Nothing fetched is committed.
#
# Sections:
#   small   (needs no hyperfine) the small pairs the harness runs most: `review export-context
#           --lineage L` and `review verify --lineage L --against HEAD` (the lineage approved, a
#           local record) against the pinned `git diff` of the same two trees, on git.git
#           v2.39.0~1..v2.39.0 (287 bytes) and on the generated base..small; bench/alternate.py
#           alternates single runs of the three commands for --small-runs rounds (the target's
#           method: ratio of medians of alternating whole-process runs). Before timing, the export's
#           bytes must equal git's and verify must accept: otherwise compare.sh stops with exit 1
#           (the CTest bench_compare_small_smoke runs this section once on a small generated
#           repository).
#   large   (needs no hyperfine) the large pair of the targets: `review export-context --lineage
#           L` of git.git v2.38.0..v2.39.0 (1.8 MB; with --gen-only the generated base..text2m)
#           against the pinned `git diff` of the same two trees, alternated single runs
#           (bench/alternate.py, --large-runs rounds, default 30), then the median peak RSS of
#           five /usr/bin/time runs of each; stops with exit 1 when the bytes differ. The small
#           and large targets together: `bench/compare.sh --data DIR --sections small,large`.
#   export  `gentle-ai review export-context --lineage L` vs the pinned `git diff` (OracleArgv of
#           export/git_flags.h, GIT_CONFIG_NOSYSTEM=1, GIT_CONFIG_GLOBAL=/dev/null, empty HOME,
#           LC_ALL=C) on the same two trees; the lineage comes from `review start --kind
#           commit-range`. The bytes are compared once (identical: yes/no). The last row repeats
#           git-small after another lineage of the store was burned (git-small-burned-store): a
#           live export then also looks its lineage up among the tombstones in the index.
#   start   `gentle-ai review start` (lineage removed before each run, so every run creates it) vs
#           `git add -A && git write-tree` on a fresh copy of the index (GIT_INDEX_FILE), on a
#           checkout of libgit2 and on the generated 30,000-file repository, each with one file
#           changed.
#   verdict (needs no --data) a scratch repository of --verdict-files files (default 200), one
#           changed: `gentle-ai review start` + `gentle-ai review verdict --verdict APPROVE` (two
#           processes; each writes its record and its history commit and moves the history ref)
#           vs `git commit-tree` of the same candidate tree + `git update-ref` (two processes: one
#           commit, one ref), store and refs removed before each run; then the verdict alone
#           (`review start` in the prepare step) against the same git pair, and against it with
#           `-c core.fsync=all` (git fsyncs no loose object or ref by default; gentle-ai makes
#           each step durable, docs/format.md "Locks and durability"); then the syncs of one run
#           of each (strace: fsync + fdatasync, and sync_file_range), and of one start.
#   fetchverify  an approved commit-range lineage in an origin clone (git.git v2.39.0~1..v2.39.0
#           and v2.38.0..v2.39.0; with --gen-only the generated base..small and base..text2m), and
#           a fresh clone of the same objects without the review objects (`git clone --shared` of the
#           data repository, HEAD at the approved commit), re-made before every run. A = fetch the
#           review refs (`gentle-ai review fetch` when the build has it, else `git fetch origin
#           '+refs/gentle-ai/reviews/*:refs/gentle-ai/remotes/origin/reviews/*'`) + `gentle-ai review
#           verify --lineage L --against HEAD`; B = `git fetch` of the same refs into refs/bench/ +
#           the pinned `git diff` of the same two trees. Then verify alone (the fetch in the prepare
#           step) against the git diff alone: docs/performance.md's target (verify <= git diff +
#           20%).
#   store   list, status --lineage, and export-context of a consumed / retired / unknown lineage
#           (exit 4 / 5 / 3), with N live records + N tombstones + N quarantine entries, for each
#           N of --sizes; wall time (hyperfine median) and peak RSS (/usr/bin/time %M).
#   bigtree (only when named in --sections; needs no --data) for each N of --tree-sizes (default
#           80000), a repository made by bench/make-big-tree.sh (N files in ~N/16 directories,
#           sizes from a few KB to 512 KB, 2% binaries; three tracked files edited and one new
#           untracked file), reused from --work when there, with one lineage started on it:
#           `review status --lineage L` vs `git status --porcelain=v2 --untracked-files=no`,
#           `review status` (all lineages) vs `git status --porcelain=v2`, and `review start` vs
#           `git add -A && git write-tree` on a scratch index (as in the start section); then one
#           /usr/bin/time run of each command for its peak RSS (KiB), and with --instructions
#           callgrind counts of the status pair (all threads; the start pair is two processes).
#   bigfile (only when named in --sections) one untracked file of --big-mib MiB (default 1024),
#           random and then sparse zeros, started with --untracked: export-context, verify
#           --lineage, status --lineage and the pinned git diff of the same trees, one
#           /usr/bin/time run each: seconds, peak RSS, exit code (9: budget_exceeded). Needs
#           twice --big-mib of free space in --work for the random file and its loose object.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build=$here/../build
data=/work/data
work=""
out=""
rounds=3
runs=5
small_runs=40
large_runs=30
sections=small,large,export,start,verdict,fetchverify,store
verdict_files=200
gen_files=30000
sizes="1000 10000 100000"
tree_sizes=80000
big_mib=1024
which_repos=both
instructions=0
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --data) data=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --small-runs) small_runs=$2; shift 2 ;;
    --large-runs) large_runs=$2; shift 2 ;;
    --sections) sections=$2; shift 2 ;;
    --sizes) sizes=$2; shift 2 ;;
    --tree-sizes) tree_sizes=$2; shift 2 ;;
    --big-mib) big_mib=$2; shift 2 ;;
    --verdict-files) verdict_files=$2; shift 2 ;;
    --gen-files) gen_files=$2; shift 2 ;;
    --real-only) which_repos=real; shift ;;
    --gen-only) which_repos=gen; shift ;;
    --instructions) instructions=1; shift ;;
    *) echo "compare.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
build=$(cd "$build" && pwd)
gai=$build/gentle-ai
make_store=$build/bench/make-store
[ -x "$gai" ] || { echo "compare.sh: no $gai (build first)" >&2; exit 2; }
[ -n "$work" ] || work=$(mktemp -d "${TMPDIR:-/tmp}/gentle-compare-XXXXXX")
mkdir -p "$work"
work=$(cd "$work" && pwd)
[ -n "$out" ] || out=$work/results
mkdir -p "$out" "$work/home"
report=$out/report.md

# The oracle's environment, for both sides (gentle-ai ignores git configuration anyway).
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=$work/home LC_ALL=C
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
oracle_pins=(-c core.quotePath=true -c diff.suppressBlankEmpty=false -c diff.interHunkContext=0
             -c core.loosecompression=1 -c diff.relative=false)
oracle_flags=(--binary --full-index --no-color --no-renames --no-ext-diff --no-textconv
              --diff-algorithm=myers --no-indent-heuristic --unified=3 --ignore-submodules=none
              --src-prefix=a/ --dst-prefix=b/ -O/dev/null)

loadavg() { cut -d' ' -f1 /proc/loadavg; }
note() { echo "$*" | tee -a "$report"; }
# section TITLE HEADER SEPARATOR INSTR_HEADER INSTR_SEPARATOR: a section's title and table head,
# with the instruction column's cells appended under --instructions.
section() {
  note ""
  note "## $1"
  note ""
  if [ "$instructions" = 1 ]; then
    note "$2$4"
    note "$3$5"
  else
    note "$2"
    note "$3"
  fi
}

{
  echo "# compare.sh run $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo
  echo "- machine: $(nproc) CPUs, $(lscpu | sed -n 's/^Model name: *//p' | head -1)"
  echo "- gentle-ai: $gai ($(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo '?'))"
  echo "- $(git --version), $(hyperfine --version 2>/dev/null || echo 'no hyperfine')"
  echo "- rounds=$rounds runs/round=$runs, A/B order alternated per round"
  echo
} >"$report"

# summarize JSON... NAME: prints "medA medB ratio rmin rmax" from hyperfine JSON files, where
# command 0 of each file is A or B as recorded in the file name (.ab.json / .ba.json).
summarize() {
  python3 - "$@" <<'PY'
import json, statistics, sys
a_all, b_all, ratios, cpu_a, cpu_b = [], [], [], [], []
for path in sys.argv[1:]:
    res = json.load(open(path))["results"]
    ia, ib = (0, 1) if path.endswith(".ab.json") else (1, 0)
    a, b = res[ia]["times"], res[ib]["times"]
    a_all += a; b_all += b
    ratios.append(statistics.median(a) / statistics.median(b))
    # hyperfine reports mean user and system time per command: CPU used, whatever the load.
    cpu_a.append(res[ia]["user"] + res[ia]["system"])
    cpu_b.append(res[ib]["user"] + res[ib]["system"])
ma, mb = statistics.median(a_all), statistics.median(b_all)
print("%.2f %.2f %.2f %.2f %.2f %.2f" % (ma * 1e3, mb * 1e3, ma / mb, min(ratios), max(ratios),
                                         statistics.mean(cpu_a) / statistics.mean(cpu_b)))
PY
}

# pair NAME "A command" "B command" [hyperfine options...]: alternated rounds, one table row.
pair() {
  local name=$1 a=$2 b=$3
  shift 3
  local load files=() r
  load=$(loadavg)
  for r in $(seq 1 "$rounds"); do
    if [ $((r % 2)) -eq 1 ]; then
      hyperfine -N --warmup 1 --runs "$runs" --style none --export-json "$out/$name.$r.ab.json" \
        "$@" "$a" "$b" >/dev/null
      files+=("$out/$name.$r.ab.json")
    else
      hyperfine -N --warmup 1 --runs "$runs" --style none --export-json "$out/$name.$r.ba.json" \
        "$@" "$b" "$a" >/dev/null
      files+=("$out/$name.$r.ba.json")
    fi
  done
  local s
  s=$(summarize "${files[@]}")
  read -r ma mb ratio rmin rmax cpu <<<"$s"
  local icount=""
  if [ "$instructions" = 1 ]; then
    icount=" $(instr "$a") / $(instr "$b") |"
  fi
  note "| $name | $ma | $mb | **$ratio** | $rmin–$rmax | $cpu | $load |$icount"
}

# Same as pair, but shell mode (for commands that need && or variables) with a prepare command.
pair_shell() {
  local name=$1 a=$2 b=$3 prep=$4
  local load files=() r
  load=$(loadavg)
  for r in $(seq 1 "$rounds"); do
    if [ $((r % 2)) -eq 1 ]; then
      hyperfine --warmup 1 --runs "$runs" --style none --prepare "$prep" \
        --export-json "$out/$name.$r.ab.json" "$a" "$b" >/dev/null
      files+=("$out/$name.$r.ab.json")
    else
      hyperfine --warmup 1 --runs "$runs" --style none --prepare "$prep" \
        --export-json "$out/$name.$r.ba.json" "$b" "$a" >/dev/null
      files+=("$out/$name.$r.ba.json")
    fi
  done
  read -r ma mb ratio rmin rmax cpu <<<"$(summarize "${files[@]}")"
  note "| $name | $ma | $mb | **$ratio** | $rmin–$rmax | $cpu | $load |"
}

# instr "command": instructions of one run under callgrind, in millions (main process only).
instr() {
  local n
  # shellcheck disable=SC2086
  n=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null $1 2>&1 >/dev/null |
      sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' | tail -1)
  [ -n "$n" ] || { echo "?"; return; }
  # Two decimals below 10M (small exports differ by tenths of a million), whole millions above.
  awk -v n="$n" 'BEGIN { if (n < 10000000) printf "%.2fM\n", n / 1e6; else printf "%dM\n", n / 1e6 }'
}

# sync_counts NAME "command" "prepare": the fsync/fdatasync and sync_file_range calls of one run.
sync_counts() {
  local name=$1 cmd=$2 prep=$3 trace
  trace=$(mktemp)
  bash -c "$prep" >/dev/null
  strace -f -qq -o "$trace" -e trace=fsync,fdatasync,sync_file_range bash -c "$cmd" >/dev/null
  note "| $name | $(grep -cE '^[0-9]+ +f(data)?sync\(' "$trace") |" \
    "$(grep -cE '^[0-9]+ +sync_file_range\(' "$trace") |"
  rm -f "$trace"
}

# ------------------------------------------------------------------------------------------------
# small

# small_pair NAME REPO BASE HEAD: an approved commit-range lineage in the non-bare clone REPO (its
# store reset first and after), the bytes checked, then export, verify and git diff alternated.
small_pair() {
  local name=$1 repo=$2 base=$3 head=$4
  "$gai" review store reset --cwd "$repo" --yes >/dev/null
  local lineage bt ct hc gd
  lineage=$("$gai" review start --cwd "$repo" --kind commit-range --base "$base" --head "$head" \
              --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["lineage"])')
  "$gai" review verdict --cwd "$repo" --lineage "$lineage" --verdict APPROVE --actor bench \
    --role reviewer --body bench >/dev/null
  bt=$(git -C "$repo" rev-parse "$base^{tree}")
  ct=$(git -C "$repo" rev-parse "$head^{tree}")
  hc=$(git -C "$repo" rev-parse "$head^{commit}")
  gd=$(git -C "$repo" rev-parse --absolute-git-dir)
  local e="$gai review export-context --cwd $repo --lineage $lineage"
  local v="$gai review verify --cwd $repo --lineage $lineage --against $hc"
  local g="git --git-dir=$gd ${oracle_pins[*]} diff ${oracle_flags[*]} $bt $ct --"
  # shellcheck disable=SC2086
  $e >"$work/small-$name.a.patch"
  # shellcheck disable=SC2086
  $g >"$work/small-$name.b.patch"
  local rc=0 size
  # shellcheck disable=SC2086
  $v >"$work/small-$name.verify" 2>&1 || rc=$?
  size=$(wc -c <"$work/small-$name.b.patch")
  if ! cmp -s "$work/small-$name.a.patch" "$work/small-$name.b.patch" || [ "$size" = 0 ]; then
    note "| $name: export-context and git diff differ (or are empty): stopped | | | | | | |"
    exit 1
  fi
  if [ "$rc" != 0 ]; then
    note "| $name: verify exits $rc ($(head -c 160 "$work/small-$name.verify")): stopped | | | | | | |"
    exit 1
  fi
  local load table
  load=$(loadavg)
  table=$(python3 "$here/alternate.py" "$small_runs" "$e" "$v" "$g")
  # alternate.py's rows: export, verify, git; columns: command, wall ms, CPU ms, wall and CPU ratios.
  local icount="" ie="" iv="" ig=""
  if [ "$instructions" = 1 ]; then
    ie=$(instr "$e"); iv=$(instr "$v"); ig=$(instr "$g")
  fi
  local row k=0 label
  while IFS='|' read -r _ _ wall cpu wr cr _; do
    k=$((k + 1))
    case $k in
      1) label="export-context"; icount=$ie ;;
      2) label="verify --lineage --against"; icount=$iv ;;
      *) label="git diff"; icount=$ig ;;
    esac
    row="| $name ($size B) | $label | ${wall// /} | ${cpu// /} | **${wr// /}** | ${cr// /} | $load |"
    [ "$instructions" = 1 ] && row="$row $icount |"
    note "$row"
  done < <(tail -n +3 <<<"$table")
  "$gai" review store reset --cwd "$repo" --yes >/dev/null
}

if [[ $sections == *small* ]]; then
  section "small export-context and verify vs pinned git diff (alternate.py, $small_runs rounds; ms; ratios to git)" \
    "| pair | command | wall median | CPU median | wall / git | CPU / git | load |" \
    "|---|---|---:|---:|---:|---:|---:|" " instructions |" "---:|"
  if [ "$which_repos" != gen ]; then
    [ -d "$work/git" ] || git clone -q --shared --no-checkout "$data/git.git" "$work/git"
    small_pair "git-small" "$work/git" v2.39.0~1 v2.39.0
  fi
  if [ "$which_repos" != real ]; then
    [ -d "$work/gen" ] || "$here/make-gen-repo.sh" "$work/gen" "$gen_files" >/dev/null
    small_pair "gen-small" "$work/gen" base small
  fi
fi

# ------------------------------------------------------------------------------------------------
# large

# peak_rss "command": the median peak resident set (KiB) of five /usr/bin/time runs.
peak_rss() {
  local i out=()
  for i in 1 2 3 4 5; do
    # shellcheck disable=SC2086
    /usr/bin/time -f "%M" -o "$work/rss.out" $1 >/dev/null 2>&1 || true
    out+=("$(tail -1 "$work/rss.out")")
  done
  printf '%s\n' "${out[@]}" | sort -n | sed -n 3p
}

# large_pair NAME REPO BASE HEAD: a commit-range lineage in the non-bare clone REPO (its store
# reset first and after), the bytes checked, then export and git diff alternated, then peak RSS.
large_pair() {
  local name=$1 repo=$2 base=$3 head=$4
  "$gai" review store reset --cwd "$repo" --yes >/dev/null
  local lineage bt ct gd
  lineage=$("$gai" review start --cwd "$repo" --kind commit-range --base "$base" --head "$head" \
              --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["lineage"])')
  bt=$(git -C "$repo" rev-parse "$base^{tree}")
  ct=$(git -C "$repo" rev-parse "$head^{tree}")
  gd=$(git -C "$repo" rev-parse --absolute-git-dir)
  local e="$gai review export-context --cwd $repo --lineage $lineage"
  local g="git --git-dir=$gd ${oracle_pins[*]} diff ${oracle_flags[*]} $bt $ct --"
  # shellcheck disable=SC2086
  $e >"$work/large-$name.a.patch" || true
  # shellcheck disable=SC2086
  $g >"$work/large-$name.b.patch"
  local size
  size=$(wc -c <"$work/large-$name.b.patch")
  if ! cmp -s "$work/large-$name.a.patch" "$work/large-$name.b.patch"; then
    note "| $name: export-context and git diff differ: stopped | | | | | | | | |"
    exit 1
  fi
  local load table re rg
  load=$(loadavg)
  table=$(python3 "$here/alternate.py" "$large_runs" "$e" "$g")
  re=$(peak_rss "$e")
  rg=$(peak_rss "$g")
  local k=0 label rss
  while IFS='|' read -r _ _ wall cpu wr cr _; do
    k=$((k + 1))
    if [ $k = 1 ]; then label="export-context"; rss=$re; else label="git diff"; rss=$rg; fi
    note "| $name ($((size / 1024)) KiB) | $label | ${wall// /} | ${cpu// /} | **${wr// /}** |" \
      "${cr// /} | $rss | $(awk -v a="$rss" -v b="$rg" 'BEGIN { printf "%.3f", a / b }') | $load |"
  done < <(tail -n +3 <<<"$table")
  "$gai" review store reset --cwd "$repo" --yes >/dev/null
}

if [[ $sections == *large* ]]; then
  section "large export-context vs pinned git diff (alternate.py, $large_runs rounds; ms; ratios to git; peak RSS KiB, median of 5 runs)" \
    "| pair | command | wall median | CPU median | wall / git | CPU / git | peak RSS | RSS / git | load |" \
    "|---|---|---:|---:|---:|---:|---:|---:|---:|" "" ""
  if [ "$which_repos" != gen ]; then
    [ -d "$work/git" ] || git clone -q --shared --no-checkout "$data/git.git" "$work/git"
    large_pair "git-2MB" "$work/git" v2.38.0 v2.39.0
  fi
  if [ "$which_repos" != real ]; then
    [ -d "$work/gen" ] || "$here/make-gen-repo.sh" "$work/gen" "$gen_files" >/dev/null
    large_pair "gen-text2m" "$work/gen" base text2m
  fi
fi

# ------------------------------------------------------------------------------------------------
# export

# export_pair NAME REPO BASE HEAD: a commit-range lineage in the non-bare clone REPO, then A/B.
export_pair() {
  local name=$1 repo=$2 base=$3 head=$4
  local lineage bt ct
  lineage=$("$gai" review start --cwd "$repo" --kind commit-range --base "$base" --head "$head" \
              --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["lineage"])')
  bt=$(git -C "$repo" rev-parse "$base^{tree}")
  ct=$(git -C "$repo" rev-parse "$head^{tree}")
  local gd
  gd=$(git -C "$repo" rev-parse --absolute-git-dir)
  local a="$gai review export-context --cwd $repo --lineage $lineage"
  local b="git --git-dir=$gd ${oracle_pins[*]} diff ${oracle_flags[*]} $bt $ct --"
  # shellcheck disable=SC2086
  $a >"$work/$name.a.patch" || true
  # shellcheck disable=SC2086
  $b >"$work/$name.b.patch"
  local size same engine
  size=$(wc -c <"$work/$name.b.patch")
  same=$(cmp -s "$work/$name.a.patch" "$work/$name.b.patch" && echo yes || echo NO)
  engine=$("$gai" review export-context --cwd "$repo" --lineage "$lineage" --json 2>/dev/null |
             python3 -c 'import json,sys; print(json.load(sys.stdin)["derivation"]["engine"])' ||
             echo refused)
  note "<!-- $name: ${base:0:12}..${head:0:12}, patch $size bytes, identical=$same, engine=$engine -->"
  # A run of a small diff lasts ~2 ms, where a few slow runs move a median of 15: take more.
  local saved_runs=$runs
  [ "$size" -lt 65536 ] && runs=$small_runs
  pair "$name ($((size / 1024)) KiB, identical=$same, $engine)" "$a" "$b" --output=pipe
  runs=$saved_runs
}

# burn_one REPO BASE HEAD: a lineage of its own started, approved and burned, so that the store
# holds a tombstone (every live export then also asks the index whether its lineage is burned, as
# in any store that has seen a merge). Nothing to do when that candidate is already burned.
burn_one() {
  local repo=$1 base=$2 head=$3 started lineage token revision
  started=$("$gai" review start --cwd "$repo" --kind commit-range --base "$base" --head "$head" \
              --json) || return 0
  lineage=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["lineage"])' <<<"$started")
  read -r token revision <<<"$("$gai" review verdict --cwd "$repo" --lineage "$lineage" \
      --verdict APPROVE --actor bench --role reviewer --body bench --json |
      python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["token"], d["revision"])')"
  "$gai" review burn --cwd "$repo" --lineage "$lineage" --token "$token" \
    --expected-revision "$revision" >/dev/null
}

if [[ $sections == *export* ]]; then
  section "export-context vs pinned git diff (A = gentle-ai, B = git; ms)" \
    "| diff | A median | B median | A/B | per-round A/B | CPU A/B | load |" \
    "|---|---:|---:|---:|---|---:|---:|" " instructions A / B |" "---|"
  if [ "$which_repos" != gen ]; then
    for r in git libgit2; do
      [ -d "$work/$r" ] || git clone -q --shared --no-checkout "$data/$r.git" "$work/$r"
    done
    # A reused --work keeps the previous run's burn: start from an empty store, so that the rows
    # before git-small-burned-store measure a store without tombstones.
    "$gai" review store reset --cwd "$work/git" --yes >/dev/null
    export_pair "git-small" "$work/git" v2.39.0~1 v2.39.0
    export_pair "git-2MB" "$work/git" v2.38.0 v2.39.0
    export_pair "libgit2-binary" "$work/libgit2" 2ad152509^ 2ad152509
    export_pair "git-near4MiB" "$work/git" v2.37.0 2e71cbbddd64
    burn_one "$work/git" v2.39.0~2 v2.39.0~1
    export_pair "git-small-burned-store" "$work/git" v2.39.0~1 v2.39.0
  fi
  if [ "$which_repos" != real ]; then
    [ -d "$work/gen" ] || "$here/make-gen-repo.sh" "$work/gen" "$gen_files" >/dev/null
    for shape in small text2m binary near4m; do
      export_pair "gen-$shape" "$work/gen" base "$shape"
    done
  fi
fi

# ------------------------------------------------------------------------------------------------
# start

# start_pair NAME REPO: one file changed in REPO's worktree, then A/B with a fresh scratch index.
start_pair() {
  local name=$1 repo=$2
  local gd nfiles
  gd=$(git -C "$repo" rev-parse --absolute-git-dir)
  # Rewrite the index a second after the last checkout write, so that no entry is "racily clean"
  # (mtime not older than the index): otherwise both tools re-hash every such file, and the run
  # measures a freshly generated checkout instead of a working repository.
  sleep 1
  rm -f "$gd/index"
  git -C "$repo" reset -q
  nfiles=$(git -C "$repo" ls-files | wc -l)
  local f
  f=$(git -C "$repo" ls-files | sed -n '100p')
  echo "benchmark change" >>"$repo/$f"
  cat >"$work/reset-$name.sh" <<EOS
cp "$gd/index" "$work/scratch-index-$name"
rm -rf "$gd/gentle-ai"
git -C "$repo" for-each-ref --format='delete %(refname)' refs/gentle-ai | git -C "$repo" update-ref --stdin
EOS
  local a="$gai review start --cwd $repo"
  local b="cd $repo && GIT_INDEX_FILE=$work/scratch-index-$name git add -A && GIT_INDEX_FILE=$work/scratch-index-$name git write-tree"
  pair_shell "$name ($nfiles files, 1 changed)" "$a" "$b" "bash $work/reset-$name.sh"
  git -C "$repo" checkout -q -- "$f"
}

if [[ $sections == *start* ]]; then
  note ""
  note "## start vs git add -A && git write-tree on a scratch index (A = gentle-ai, B = git; ms)"
  note ""
  note "| repository | A median | B median | A/B | per-round A/B | CPU A/B | load |"
  note "|---|---:|---:|---:|---|---:|---:|"
  if [ "$which_repos" != gen ]; then
    [ -d "$work/libgit2-wt" ] || git clone -q --shared "$data/libgit2.git" "$work/libgit2-wt"
    start_pair "libgit2-checkout" "$work/libgit2-wt"
  fi
  if [ "$which_repos" != real ]; then
    [ -d "$work/gen" ] || "$here/make-gen-repo.sh" "$work/gen" "$gen_files" >/dev/null
    start_pair "generated" "$work/gen"
  fi
fi

# ------------------------------------------------------------------------------------------------
# verdict

if [[ $sections == *verdict* ]]; then
  note ""
  note "## start + verdict vs git commit-tree + git update-ref of the same tree (A = gentle-ai, B = git; ms)"
  note ""
  note "| cycle | A median | B median | A/B | per-round A/B | CPU A/B | load |"
  note "|---|---:|---:|---:|---|---:|---:|"
  repo=$work/verdict
  rm -rf "$repo"
  git init -q "$repo"
  for i in $(seq 1 "$verdict_files"); do
    printf 'file %d\nline two\n' "$i" >"$repo/f$i.txt"
  done
  git -C "$repo" add -A && git -C "$repo" commit -qm seed
  echo "benchmark change" >>"$repo/f1.txt"
  gd=$(git -C "$repo" rev-parse --absolute-git-dir)
  # The lineage id and candidate tree are the same at every run (start is deterministic for one
  # candidate in one worktree): read them once.
  lineage=$("$gai" review start --cwd "$repo" --json |
              python3 -c 'import json,sys; print(json.load(sys.stdin)["lineage"])')
  ct=$(git -C "$repo" rev-parse "refs/gentle-ai/reviews/$lineage:candidate")
  cat >"$work/reset-verdict.sh" <<EOS
rm -rf "$gd/gentle-ai"
git -C "$repo" for-each-ref --format='delete %(refname)' refs/gentle-ai refs/bench | git -C "$repo" update-ref --stdin
EOS
  printf 'bash %s && %s review start --cwd %s >/dev/null\n' "$work/reset-verdict.sh" "$gai" \
    "$repo" >"$work/reset-started.sh"
  start="$gai review start --cwd $repo >/dev/null"
  verdict="$gai review verdict --cwd $repo --lineage $lineage --verdict APPROVE --actor bench --role reviewer --body bench >/dev/null"
  gitpair="c=\$(git -C $repo commit-tree $ct -p HEAD -m bench) && git -C $repo update-ref refs/bench/verdict \$c"
  pair_shell "start + verdict ($verdict_files files, 1 changed)" "$start && $verdict" "$gitpair" \
    "bash $work/reset-verdict.sh"
  pair_shell "verdict alone" "$verdict" "$gitpair" "bash $work/reset-started.sh"
  # git fsyncs neither loose objects nor refs by default; gentle-ai makes every step durable. The
  # same pair with git told to fsync everything it writes:
  durable="c=\$(git -C $repo -c core.fsync=all commit-tree $ct -p HEAD -m bench) && git -C $repo -c core.fsync=all update-ref refs/bench/verdict \$c"
  pair_shell "verdict alone, git with core.fsync=all" "$verdict" "$durable" \
    "bash $work/reset-started.sh"
  # The syncs each side waits for, counted by strace over one run (children included): the count
  # does not depend on the machine's load, the wall time above mostly does.
  if command -v strace >/dev/null; then
    note ""
    note "| one run | fsync + fdatasync | sync_file_range (writeback, no cache flush) |"
    note "|---|---:|---:|"
    sync_counts "verdict" "$verdict" "bash $work/reset-started.sh"
    sync_counts "git commit-tree + update-ref, core.fsync=all" "$durable" "true"
    sync_counts "start ($verdict_files files, 1 changed)" "$start" "bash $work/reset-verdict.sh"
  fi
fi

# ------------------------------------------------------------------------------------------------
# fetchverify

# fetchverify_pair NAME DATAREPO BASE HEAD: the origin (a --shared clone of DATAREPO holding the
# approved lineage and its history objects) and a fresh clone re-made before each run.
fetchverify_pair() {
  local name=$1 data_repo=$2 base=$3 head=$4
  local origin=$work/fv-origin-$name clone=$work/fv-clone-$name
  rm -rf "$origin"
  git clone -q --shared --no-checkout "$data_repo" "$origin"
  # A clone has its source's branches only as origin/*: name both commits by id.
  base=$(git -C "$data_repo" rev-parse "$base^{commit}")
  head=$(git -C "$data_repo" rev-parse "$head^{commit}")
  local lineage
  lineage=$("$gai" review start --cwd "$origin" --kind commit-range --base "$base" --head "$head" \
              --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["lineage"])')
  "$gai" review verdict --cwd "$origin" --lineage "$lineage" --verdict APPROVE --actor bench \
    --role reviewer --body bench >/dev/null
  local headc bt ct
  headc=$(git -C "$origin" rev-parse "$head^{commit}")
  bt=$(git -C "$origin" rev-parse "$base^{tree}")
  ct=$(git -C "$origin" rev-parse "$head^{tree}")
  # The fresh clone shares the data repository's objects, not the origin's: the history commits,
  # their trees and blobs come over the fetch, as in CI.
  cat >"$work/reset-fv-$name.sh" <<EOS
rm -rf "$clone"
git clone -q --shared --no-checkout "$data_repo" "$clone"
git -C "$clone" remote set-url origin "$origin"
git -C "$clone" update-ref --no-deref HEAD $headc
EOS
  local fetch_a
  if "$gai" review --help 2>/dev/null | grep -q "^  fetch "; then
    fetch_a="$gai review fetch --cwd $clone >/dev/null"
  else
    fetch_a="git -C $clone fetch -q origin '+refs/gentle-ai/reviews/*:refs/gentle-ai/remotes/origin/reviews/*'"
  fi
  local fetch_b="git -C $clone fetch -q origin '+refs/gentle-ai/reviews/*:refs/bench/reviews/*'"
  local verify="$gai review verify --cwd $clone --lineage $lineage --against HEAD >/dev/null"
  local diff="git --git-dir=$clone/.git ${oracle_pins[*]} diff ${oracle_flags[*]} $bt $ct -- >/dev/null"
  # Once, outside the timing: verify must accept, and the sizes.
  bash "$work/reset-fv-$name.sh"
  local rc=0 size
  bash -c "$fetch_a" && { "$gai" review verify --cwd "$clone" --lineage "$lineage" --against HEAD \
    >"$work/fv-$name.verify" 2>&1 || rc=$?; }
  size=$(git --git-dir="$origin/.git" "${oracle_pins[@]}" diff "${oracle_flags[@]}" "$bt" "$ct" -- |
           wc -c)
  note "<!-- $name: ${base:0:12}..${head:0:12}, patch $size bytes, verify exit $rc, fetch: ${fetch_a%% *} -->"
  local saved_runs=$runs
  if [ "$rc" != 0 ]; then
    # A build without fetched-history reads (docs/format.md) answers not_found in the fresh clone.
    note "| $name: verify in the fresh clone exits $rc ($(head -c 120 "$work/fv-$name.verify")): skipped | | | | | | |"
  else
    pair_shell "$name: fetch + verify vs git fetch + git diff ($((size / 1024)) KiB)" \
    "$fetch_a && $verify" "$fetch_b && $diff" "bash $work/reset-fv-$name.sh"
    # Without a shell (a ~2 ms run is below what hyperfine can subtract for one); a small patch
    # takes --small-runs runs per round, as in the export section.
    [ "$size" -lt 65536 ] && runs=$small_runs
    pair "$name: verify alone vs git diff alone" "${verify% >/dev/null}" "${diff% >/dev/null}" \
      --output=pipe --prepare "bash -c \"bash $work/reset-fv-$name.sh && $fetch_a && $fetch_b\""
  fi
  [ "$size" -lt 65536 ] && runs=$small_runs
  # For reference: the same verify in the origin, where the lineage is a local record.
  pair "$name: verify in the origin (local record) vs git diff" \
    "$gai review verify --cwd $origin --lineage $lineage --against $headc" \
    "git --git-dir=$origin/.git ${oracle_pins[*]} diff ${oracle_flags[*]} $bt $ct --" --output=pipe
  runs=$saved_runs
}

if [[ $sections == *fetchverify* ]]; then
  note ""
  note "## fetch + verify --lineage L --against HEAD in a fresh clone vs git fetch + git diff of the same trees (A = gentle-ai, B = git; ms)"
  note ""
  note "| pair | A median | B median | A/B | per-round A/B | CPU A/B | load |"
  note "|---|---:|---:|---:|---|---:|---:|"
  if [ "$which_repos" != gen ]; then
    fetchverify_pair "git-small" "$data/git.git" v2.39.0~1 v2.39.0
    fetchverify_pair "git-2MB" "$data/git.git" v2.38.0 v2.39.0
  fi
  if [ "$which_repos" != real ]; then
    [ -d "$work/gen" ] || "$here/make-gen-repo.sh" "$work/gen" "$gen_files" >/dev/null
    fetchverify_pair "gen-small" "$work/gen" base small
    fetchverify_pair "gen-text2m" "$work/gen" base text2m
  fi
fi

# ------------------------------------------------------------------------------------------------
# store

# timed NAME EXPECTED_EXIT command...: one /usr/bin/time run; prints "seconds peakKB exit".
timed() {
  local rc=0
  /usr/bin/time -f "%e %M" -o "$work/time.out" "$@" >/dev/null 2>"$work/time.err" || rc=$?
  echo "$(cat "$work/time.out" | tail -1) $rc"
}

if [[ $sections == *store* ]]; then
  note ""
  note "## store size: N live records + N tombstones + N quarantine entries (ms median of hyperfine; peak RSS KiB)"
  note ""
  hdr="| N | generate s | list ms | list RSS | status --lineage ms | status RSS | consumed ms (exit) | retired ms (exit) | unknown ms (exit) | classify RSS | load |"
  sep="|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  if [ "$instructions" = 1 ]; then
    hdr="$hdr instructions status / consumed / retired / unknown |"
    sep="$sep---|"
  fi
  note "$hdr"
  note "$sep"
  for n in $sizes; do
    repo=$work/store-$n
    rm -rf "$repo"
    git init -q "$repo"
    echo seed >"$repo/README.md"
    git -C "$repo" add -A && git -C "$repo" commit -qm seed
    t0=$(date +%s.%N)
    "$make_store" --git-common-dir "$repo/.git" --worktree-root "$repo" --live "$n" \
      --burned "$n" --retired "$n" >"$work/ids-$n"
    t1=$(date +%s.%N)
    gen_s=$(python3 -c "print('%.1f' % ($t1 - $t0))")
    live=$(sed -n 's/^live=//p' "$work/ids-$n")
    consumed=$(sed -n 's/^consumed=//p' "$work/ids-$n")
    retired=$(sed -n 's/^retired=//p' "$work/ids-$n")
    unknown=$(sed -n 's/^unknown=//p' "$work/ids-$n")
    load=$(loadavg)
    med() {  # med "command": hyperfine median in ms (non-zero exits allowed)
      local r=$runs
      [ "$n" -ge 100000 ] && r=3
      hyperfine -N -i --warmup 1 --runs "$r" --style none --output=pipe \
        --export-json "$work/med.json" "$1" >/dev/null 2>&1
      python3 -c "import json; print('%.1f' % (json.load(open('$work/med.json'))['results'][0]['median'] * 1e3))"
    }
    list_ms=$(med "$gai review list --cwd $repo")
    read -r _ list_kb _ <<<"$(timed "$gai" review list --cwd "$repo")"
    st_ms=$(med "$gai review status --cwd $repo --lineage $live")
    read -r _ st_kb _ <<<"$(timed "$gai" review status --cwd "$repo" --lineage "$live")"
    c_ms=$(med "$gai review export-context --cwd $repo --lineage $consumed")
    read -r _ c_kb c_rc <<<"$(timed "$gai" review export-context --cwd "$repo" --lineage "$consumed")"
    r_ms=$(med "$gai review export-context --cwd $repo --lineage $retired")
    read -r _ r_kb r_rc <<<"$(timed "$gai" review export-context --cwd "$repo" --lineage "$retired")"
    u_ms=$(med "$gai review export-context --cwd $repo --lineage $unknown")
    read -r _ u_kb u_rc <<<"$(timed "$gai" review export-context --cwd "$repo" --lineage "$unknown")"
    kb=$(printf '%s\n' "$c_kb" "$r_kb" "$u_kb" | sort -n | tail -1)
    icount=""
    if [ "$instructions" = 1 ]; then
      icount=" $(instr "$gai review status --cwd $repo --lineage $live") / $(instr "$gai review export-context --cwd $repo --lineage $consumed") / $(instr "$gai review export-context --cwd $repo --lineage $retired") / $(instr "$gai review export-context --cwd $repo --lineage $unknown") |"
    fi
    note "| $n | $gen_s | $list_ms | $list_kb | $st_ms | $st_kb | $c_ms ($c_rc) | $r_ms ($r_rc) | $u_ms ($u_rc) | $kb | $load |$icount"
  done
fi

# ------------------------------------------------------------------------------------------------
# bigtree

# rss "command": peak RSS in KiB of one run (the command's exit status is ignored).
rss() {
  # shellcheck disable=SC2086
  /usr/bin/time -f "%M" -o "$work/rss.out" bash -c "$1" >/dev/null 2>&1 || true
  tail -1 "$work/rss.out"
}

if [[ $sections == *bigtree* ]]; then
  note ""
  note "## Linux-kernel-sized generated trees: status and start vs git (A = gentle-ai, B = git; ms; peak RSS KiB)"
  note ""
  hdr="| files | pair | A median | B median | A/B | per-round A/B | CPU A/B | load | RSS A / B |"
  sep="|---:|---|---:|---:|---:|---|---:|---:|---|"
  [ "$instructions" = 1 ] && { hdr="$hdr instructions A / B |"; sep="$sep---|"; }
  note "$hdr"
  note "$sep"
  for n in $tree_sizes; do
    repo=$work/bigtree-$n
    if [ ! -f "$repo/.git/bench-shape" ]; then
      "$here/make-big-tree.sh" "$repo" "$n" >"$work/bigtree-$n.shape"
      cp "$work/bigtree-$n.shape" "$repo/.git/bench-shape"
    fi
    note "<!-- bigtree-$n: $(cat "$repo/.git/bench-shape") -->"
    gd=$repo/.git
    rm -rf "$gd/gentle-ai"
    git -C "$repo" for-each-ref --format='delete %(refname)' refs/gentle-ai |
      git -C "$repo" update-ref --stdin
    lineage=$("$gai" review start --cwd "$repo" --json |
                python3 -c 'import json,sys; print(json.load(sys.stdin)["lineage"])')
    row() {  # row NAME "A" "B": one table row, with peak RSS and (with --instructions) counts
      local name=$1 a=$2 b=$3 line
      pair "$name" "$a" "$b" --output=pipe >/dev/null
      line=$(tail -1 "$report")
      sed -i '$ d' "$report"
      line="| $n | ${line#| }"
      line="$line $(rss "$a") / $(rss "$b") |"
      # $instructions is 0 while pair runs (below); the section's own setting is $saved_instr.
      [ "${saved_instr:-0}" = 1 ] && line="$line $(instr "$a") / $(instr "$b") |"
      note "$line"
    }
    # pair's own instruction column is added by row; keep pair from adding it.
    saved_instr=$instructions
    instructions=0
    row "status --lineage vs git status --untracked-files=no" \
      "$gai review status --cwd $repo --lineage $lineage" \
      "git -C $repo status --porcelain=v2 --untracked-files=no"
    row "status (all lineages) vs git status" "$gai review status --cwd $repo" \
      "git -C $repo status --porcelain=v2"
    instructions=$saved_instr
    cat >"$work/reset-bigtree-$n.sh" <<EOS
cp "$gd/index" "$work/scratch-index-bigtree-$n"
rm -rf "$gd/gentle-ai"
git -C "$repo" for-each-ref --format='delete %(refname)' refs/gentle-ai | git -C "$repo" update-ref --stdin
EOS
    a="$gai review start --cwd $repo"
    b="cd $repo && GIT_INDEX_FILE=$work/scratch-index-bigtree-$n git add -A && GIT_INDEX_FILE=$work/scratch-index-bigtree-$n git write-tree"
    pair_shell "start vs git add -A && git write-tree" "$a >/dev/null" "$b >/dev/null" \
      "bash $work/reset-bigtree-$n.sh" >/dev/null
    line=$(tail -1 "$report")
    sed -i '$ d' "$report"
    bash "$work/reset-bigtree-$n.sh"
    ra=$(rss "$a")
    bash "$work/reset-bigtree-$n.sh"
    rb=$(rss "$b")
    line="| $n | ${line#| } $ra / $rb |"
    note "$line"
  done
fi

# ------------------------------------------------------------------------------------------------
# bigfile

if [[ $sections == *bigfile* ]]; then
  note ""
  note "## one untracked file of $big_mib MiB (seconds / peak RSS KiB / exit; one run each)"
  note ""
  note "| file | export-context | verify --lineage | status --lineage | pinned git diff | load |"
  note "|---|---|---|---|---|---|"
  for kind in random zeros; do
    repo=$work/bigfile-$kind
    rm -rf "$repo"
    git init -q "$repo"
    echo seed >"$repo/README.md"
    git -C "$repo" add -A && git -C "$repo" commit -qm seed
    if [ "$kind" = random ]; then
      head -c "$((big_mib * 1024 * 1024))" /dev/urandom >"$repo/big.bin"
    else
      truncate -s "$((big_mib * 1024 * 1024))" "$repo/big.bin"
    fi
    lineage=$("$gai" review start --cwd "$repo" --untracked big.bin --json |
                python3 -c 'import json,sys; print(json.load(sys.stdin)["lineage"])')
    record=$repo/.git/gentle-ai/review-transactions/v2/$lineage/review-state.json
    read -r bt ct <<<"$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["state"]["initial_snapshot"]; print(s["base_tree"], s["candidate_tree"])' "$record")"
    load=$(loadavg)
    cell() { timed "$@" | sed "s# # / #g"; }
    e=$(cell "$gai" review export-context --cwd "$repo" --lineage "$lineage")
    v=$(cell "$gai" review verify --cwd "$repo" --lineage "$lineage")
    st=$(cell "$gai" review status --cwd "$repo" --lineage "$lineage")
    g=$(cell git --git-dir="$repo/.git" "${oracle_pins[@]}" diff "${oracle_flags[@]}" "$bt" "$ct" --)
    note "| $kind | $e | $v | $st | $g | $load |"
    rm -rf "$repo"
  done
fi

echo
echo "report: $report"
