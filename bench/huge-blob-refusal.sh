#!/usr/bin/env bash
# The refusal of a blob above start's 512 MiB limit (export/blob_limit.h) against git's own work
# on the same file: a one-byte change to a file of N MiB (default 1024), written by `git add`
# packed (above core.bigFileThreshold, a pack of its own per side) and loose (the threshold
# raised). For each layout, one /usr/bin/time -v run of: `review start` of the commit range (the
# refusal; twice), `git cat-file -s` of the new blob, `git diff --numstat` and `git diff --stat` of
# the two commits (pinned configuration, no user or system config).
#
# usage: bench/huge-blob-refusal.sh [--mib N] [--work DIR] [--gai PATH] [--before PATH]
#                                   [--fill zeros|random]
#
# --before PATH also runs `review start` once with another build (e.g. one without the limit).
#
# The file is zeros (sparse in the worktree; its objects compress to about 1 MB) or, with --fill
# random, bytes of /dev/urandom (about 2x N MiB of disk per layout). The repository is deleted at
# the end. Prints one Markdown row per command: wall time, user seconds, peak RSS (MB = 10^6
# bytes), exit code, and the load average. docs/performance.md records the results.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
bench_parse gai="$here/../build/gentle-ai" mib=1024 work= fill=zeros before= -- "$@"
bench_require "$gai" /usr/bin/time
if [ -z "$work" ]; then work=$(mktemp -d /tmp/huge-blob-refusal.XXXXXX); fi
trap 'rm -rf "$work"' EXIT
bench_pinned_git "$work"

measure() {
  local out=$1
  shift
  local rc=0
  /usr/bin/time -v -o "$work/time.txt" "$@" >"$out" 2>"$work/stderr.txt" || rc=$?
  local wall user kb
  wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/time.txt")
  user=$(sed -n 's/.*User time (seconds): //p' "$work/time.txt")
  kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time.txt")
  echo "$wall / $user / $((kb * 1024 / 1000000)) / $rc"
}
load() { cut -d' ' -f1 /proc/loadavg; }

# $1: the repository, $2: core.bigFileThreshold for git add.
make_repo() {
  local repo=$1 threshold=$2
  git init -q "$repo"
  git -C "$repo" config user.name bench
  git -C "$repo" config user.email bench@invalid
  echo seed >"$repo/README"
  git -C "$repo" add README
  git -C "$repo" commit -qm seed
  if [ "$fill" = random ]; then
    head -c "$((mib * 1024 * 1024))" /dev/urandom >"$repo/big.bin"
  else
    truncate -s "$((mib * 1024 * 1024))" "$repo/big.bin"
  fi
  git -C "$repo" -c core.bigFileThreshold="$threshold" add big.bin
  git -C "$repo" commit -qm before
  printf 'x' | dd of="$repo/big.bin" bs=1 seek=$((mib * 512 * 1024)) conv=notrunc status=none
  git -C "$repo" -c core.bigFileThreshold="$threshold" add big.bin
  git -C "$repo" commit -qm after
  rm -f "$repo/big.bin"
}

echo "| $mib MiB ($fill) | command | wall / user s / peak RSS MB / exit | load |"
echo "|---|---|---|---|"
for layout in packed loose; do
  repo=$work/$layout
  if [ $layout = packed ]; then make_repo "$repo" 512m; else make_repo "$repo" 4g; fi
  blob=$(git -C "$repo" rev-parse HEAD:big.bin)
  for run in 1 2; do
    r=$(measure "$work/start.json" "$gai" review start --cwd "$repo" --kind commit-range \
          --base HEAD~1 --head HEAD --json)
    echo "| $layout | \`review start\` (run $run) | $r | $(load) |"
  done
  if [ -n "$before" ]; then
    r=$(measure "$work/before.json" "$before" review start --cwd "$repo" --kind commit-range \
          --base HEAD~1 --head HEAD --json)
    echo "| $layout | \`review start\`, $before | $r | $(load) |"
  fi
  r=$(measure "$work/out.txt" git -C "$repo" cat-file -s "$blob")
  echo "| $layout | \`git cat-file -s\` | $r | $(load) |"
  r=$(measure "$work/out.txt" git -C "$repo" diff --numstat HEAD~1 HEAD)
  echo "| $layout | \`git diff --numstat\` | $r | $(load) |"
  r=$(measure "$work/out.txt" git -C "$repo" diff --stat HEAD~1 HEAD)
  echo "| $layout | \`git diff --stat\` | $r | $(load) |"
  rm -rf "$repo"
done
