#!/usr/bin/env bash
# Configures and builds into build/ (or $BUILD_DIR) with warnings as errors. Arguments go to the
# configure step; GENTLE_BUILD_TARGETS (space-separated) builds only those targets, not all.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
# A compiler cache where one is installed (scripts/install-deps.sh installs ccache): test code is
# compiled alike in build/ and build-asan/ (tests/CMakeLists.txt), so the second tree takes the
# first one's test objects from the cache. Paths are hashed relative to the checkout, so two
# checkouts share the cache too.
launcher=()
if command -v ccache >/dev/null; then
  ccache_env="env;CCACHE_BASEDIR=$root;CCACHE_NOHASHDIR=1;ccache"
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER="$ccache_env" -DCMAKE_CXX_COMPILER_LAUNCHER="$ccache_env")
fi
cmake -S "$root" -B "$build" -G Ninja -DGENTLE_WERROR=ON "${launcher[@]}" "$@" >/dev/null
targets=()
for target in ${GENTLE_BUILD_TARGETS:-}; do targets+=(--target "$target"); done
cmake --build "$build" "${targets[@]}"
