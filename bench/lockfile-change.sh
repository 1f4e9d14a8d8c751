#!/usr/bin/env bash
# A dependency bump whose lockfile dwarfs the code beside it (docs/performance.md, "The
# reviewer's view of a lockfile bump"): a package-lock.json of about N MB (default 5) rewritten
# by a bump, beside a few small code edits, as a commit range. One /usr/bin/time -v run each of: `review start` of the range (the
# lockfile is generated, so it is accepted and summarised; its store reset before), `review
# export-context --view review` (the whole review view) and `--max-bytes 524288 --part 1`,
# against git's own `git diff --numstat` of the range and `git diff -- <code paths>` (pinned
# configuration, no user or system config).
#
# usage: bench/lockfile-change.sh [--mb N] [--work DIR] [--gai PATH]
#
# The lockfile is generated deterministically (awk): about 330 bytes per package, every package's
# version, URL and checksum bumped. The repository is deleted at the end unless --work names it.
# Prints one Markdown row per command: wall time, user seconds, peak RSS (MB = 10^6 bytes), exit
# code, and the load average, plus the sizes of the full diff and of the review view.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
bench_parse mb=5 work= gai="$here/../build/gentle-ai" -- "$@"
bench_require "$gai" /usr/bin/time
keep=1
if [ -z "$work" ]; then
  work=$(mktemp -d /tmp/lockfile-change.XXXXXX)
  keep=0
fi
[ "$keep" = 1 ] || trap 'rm -rf "$work"' EXIT
bench_pinned_git "$work"
packages=$((mb * 1000000 / 330))

# $1: packages, $2: generation (each one bumps every package's version and checksum).
lockfile() {
  awk -v n="$1" -v g="$2" 'BEGIN {
    printf "{\n  \"name\": \"app\",\n  \"version\": \"1.0.0\",\n  \"lockfileVersion\": 3,\n"
    printf "  \"requires\": true,\n  \"packages\": {\n"
    for (i = 0; i < n; i++) {
      v = sprintf("%d.%d.%d", 1 + i % 4, i % 13 + g, i % 10)
      h = ""
      for (k = 0; k < 8; k++) h = h sprintf("%08x", (i * 2654435761 + k * 40503 + g * 97) % 4294967296)
      printf "    \"node_modules/pkg-%05d\": {\n      \"version\": \"%s\",\n", i, v
      printf "      \"resolved\": \"https://registry.npmjs.org/pkg-%05d/-/pkg-%05d-%s.tgz\",\n", i, i, v
      printf "      \"integrity\": \"sha512-%s\",\n      \"dev\": %s\n    }%s\n", h, (i % 3 ? "false" : "true"), (i + 1 < n ? "," : "")
    }
    printf "  }\n}\n"
  }'
}

repo=$work/repo
git init -q -b main "$repo"
git -C "$repo" config user.name bench
git -C "$repo" config user.email bench@invalid
mkdir -p "$repo/src"
lockfile "$packages" 0 >"$repo/package-lock.json"
for f in app util api; do printf 'export const %s = 1;\n' "$f" >"$repo/src/$f.js"; done
git -C "$repo" add .
git -C "$repo" commit -qm base
git -C "$repo" checkout -qb pr
lockfile "$packages" 1 >"$repo/package-lock.json"
for f in app util api; do printf 'export const %s = 2;\n' "$f" >"$repo/src/$f.js"; done
git -C "$repo" commit -qam bump
git -C "$repo" checkout -q main

range=(--kind commit-range --base main --head pr)
"$gai" review store reset --yes --cwd "$repo" >/dev/null
full=$(git -C "$repo" diff main pr | wc -c)
echo "| ${mb} MB lockfile, $packages packages; full diff $full bytes | command | wall / user s / peak RSS MB / exit | load |"
echo "|---|---|---|---|"
echo "| | review start (commit range) | $(bench_measure "$work/start.json" "$gai" review start "${range[@]}" --cwd "$repo" --json) | $(bench_load) |"
lineage=$(sed -n 's/.*"lineage":"\([^"]*\)".*/\1/p' "$work/start.json")
[ -n "$lineage" ] || { echo "start failed: $(cat "$work/start.json")" >&2; exit 1; }
echo "| | review export-context --view review | $(bench_measure "$work/review.patch" "$gai" review export-context --lineage "$lineage" --view review --cwd "$repo") | $(bench_load) |"
echo "| | review export-context --view review --max-bytes 524288 --part 1 | $(bench_measure "$work/part.patch" "$gai" review export-context --lineage "$lineage" --view review --max-bytes 524288 --part 1 --cwd "$repo") | $(bench_load) |"
echo "| | git diff --numstat | $(bench_measure "$work/numstat.txt" git -C "$repo" diff --numstat main pr) | $(bench_load) |"
echo "| | git diff -- src/ | $(bench_measure "$work/code.patch" git -C "$repo" diff main pr -- src/) | $(bench_load) |"
echo
echo "review view: $(wc -c <"$work/review.patch") bytes; code diff: $(wc -c <"$work/code.patch") bytes"
