#!/usr/bin/env bash
# The peak memory of a one-byte change to a large random binary: `review start` (which measures
# the frozen patch before writing), `review export-context` and the pinned `git diff --binary` of
# the same two commits, each run once under /usr/bin/time -v; then `review start` of the same file
# added, twice (refused by the budget, with the same details each time).
#
# usage: bench/big-binary-edit.sh [--mib N] [--work DIR] [--gai PATH] [--only git|ours]
#
# The repository (--work, default a temporary directory under /tmp) holds a seed commit and two
# commits whose only difference is one byte in the middle of a file of N MiB (default 1024) of
# /dev/urandom bytes: two loose objects, or above core.bigFileThreshold (512 MiB) two packs, as
# `git add` writes them. It needs about 3x N MiB of free disk and is deleted at the end. Prints one
# Markdown row per command: wall time, user seconds, peak RSS (MB = 10^6 bytes), exit code, and
# whether our patch is byte-identical to git's. docs/performance.md records the results.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
bench_parse gai="$here/../build/gentle-ai" mib=1024 work= only= -- "$@"
bench_require "$gai" /usr/bin/time
if [ -z "$work" ]; then work=$(mktemp -d /tmp/big-binary-edit.XXXXXX); fi
repo=$work/repo
trap 'rm -rf "$work"' EXIT

# The pinned git diff (docs/commands.md, export-context), with no user or system configuration.
bench_pinned_git "$work"
oracle_pins=(-c core.quotePath=true -c diff.suppressBlankEmpty=false -c diff.interHunkContext=0
             -c core.loosecompression=1 -c diff.relative=false)
oracle_flags=(--binary --full-index --no-color --no-renames --no-ext-diff --no-textconv
              --diff-algorithm=myers --no-indent-heuristic --unified=3 --ignore-submodules=none
              --src-prefix=a/ --dst-prefix=b/ -O/dev/null)

git init -q "$repo"
git -C "$repo" config user.name bench
git -C "$repo" config user.email bench@invalid
echo seed >"$repo/README"
git -C "$repo" add README
git -C "$repo" commit -qm seed
head -c "$((mib * 1024 * 1024))" /dev/urandom >"$repo/big.bin"
git -C "$repo" add big.bin
git -C "$repo" commit -qm before
# One byte in the middle, flipped.
middle=$((mib * 512 * 1024))
byte=$(dd if="$repo/big.bin" bs=1 skip="$middle" count=1 status=none | od -An -tu1 | tr -d ' ')
printf "\\$(printf '%03o' $(((byte + 1) % 256)))" |
  dd of="$repo/big.bin" bs=1 seek="$middle" conv=notrunc status=none
git -C "$repo" commit -qam after
rm -f "$repo/big.bin"  # the worktree copy is not needed: the candidate is the commit range
seed=$(git -C "$repo" rev-parse HEAD~2)
base=$(git -C "$repo" rev-parse HEAD~1)
head=$(git -C "$repo" rev-parse HEAD)

# One run of "${@:2}" under /usr/bin/time -v, its stdout to the file $1: "wall user peakMB rc".
measure() {
  local out=$1
  shift
  local rc=0
  /usr/bin/time -v -o "$work/time.txt" "$@" >"$out" 2>"$work/stderr.txt" || rc=$?
  local wall user kb
  wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/time.txt")
  user=$(sed -n 's/.*User time (seconds): //p' "$work/time.txt")
  kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time.txt")
  echo "$wall $user $((kb * 1024 / 1000000)) $rc"
}

echo "| $mib MiB | command | wall / user s / peak RSS MB / exit | patch | load |"
echo "|---|---|---|---|---|"
load() { cut -d' ' -f1 /proc/loadavg; }
if [ "$only" != ours ]; then
  r=$(measure "$work/git.patch" git --git-dir="$repo/.git" "${oracle_pins[@]}" diff \
        "${oracle_flags[@]}" "$base" "$head" --)
  echo "| | \`git diff --binary\` | $r | $(wc -c <"$work/git.patch") B | $(load) |"
fi
if [ "$only" != git ]; then
  r=$(measure "$work/start.json" "$gai" review start --cwd "$repo" --kind commit-range \
        --base "$base" --head "$head" --json)
  echo "| | \`review start\` | $r | | $(load) |"
  lineage=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["lineage"])' \
              "$work/start.json")
  r=$(measure "$work/ours.patch" "$gai" review export-context --cwd "$repo" --lineage "$lineage")
  same="differs"
  if [ -f "$work/git.patch" ] && cmp -s "$work/git.patch" "$work/ours.patch"; then same=same; fi
  echo "| | \`review export-context\` | $r | $(wc -c <"$work/ours.patch") B, $same | $(load) |"
  # The same file added (seed..after): over the budget, refused from the first 4 MiB of its
  # literal; twice, to show the answer is the same.
  for run in 1 2; do
    r=$(measure "$work/added$run.json" "$gai" review start --cwd "$repo" --kind commit-range \
          --base "$seed" --head "$head" --json)
    details=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["error"]["details"])' \
                "$work/added$run.json")
    echo "| | \`review start\`, the file added (run $run) | $r | $details | $(load) |"
  done
fi
