#!/usr/bin/env bash
# Configures and builds into build/ (or $BUILD_DIR) with warnings as errors. Arguments go to the
# configure step; GENTLE_BUILD_TARGETS (space-separated) builds only those targets, not all.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
cmake -S "$root" -B "$build" -G Ninja -DGENTLE_WERROR=ON "$@" >/dev/null
targets=()
for target in ${GENTLE_BUILD_TARGETS:-}; do targets+=(--target "$target"); done
cmake --build "$build" "${targets[@]}"
