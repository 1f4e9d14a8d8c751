#!/usr/bin/env bash
# Configures and builds into build/ (or $BUILD_DIR) with warnings as errors.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
cmake -S "$root" -B "$build" -G Ninja -DGENTLE_WERROR=ON "$@" >/dev/null
cmake --build "$build"
