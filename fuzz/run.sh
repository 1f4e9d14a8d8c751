#!/usr/bin/env bash
# Runs one libFuzzer target of build-fuzz/ (configure and build first: `cmake --preset fuzz &&
# cmake --build build-fuzz`) for SECONDS, starting from its committed seed corpus
# fixtures/fuzz/<target>/ plus what earlier runs found (build-fuzz/corpus/<target>/, not committed).
# Crashes land in build-fuzz/artifacts/<target>/; the final stats line is what docs/reliability.md
# records. Usage: fuzz/run.sh record_codec|envelope_reader|lineage_id|cli_arguments|hint_line|posted_comment|worktree_index
# SECONDS
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
target=${1:?target}
seconds=${2:?seconds}
build=${FUZZ_BUILD_DIR:-$root/build-fuzz}
exe=$build/fuzz/fuzz-${target//_/-}
corpus=$build/corpus/$target
artifacts=$build/artifacts/$target/
mkdir -p "$corpus" "$artifacts"
max_len=8192
[[ $target == cli_arguments ]] && max_len=512
args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
  -artifact_prefix="$artifacts" -max_len=$max_len)
if [[ -f $root/fuzz/$target.dict ]]; then args+=(-dict="$root/fuzz/$target.dict"); fi
# The CLI prints on every run: keep libFuzzer's own output (sanitizer reports still show).
if [[ $target == cli_arguments ]]; then args+=(-close_fd_mask=3); fi
exec "$exe" "${args[@]}" "$corpus" "$root/fixtures/fuzz/$target"
