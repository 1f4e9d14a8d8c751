#!/usr/bin/env bash
# README command 2: install what is missing, build, and run the whole test suite through CTest,
# twice: the normal build in build/ (or $BUILD_DIR), then the same suite built with
# AddressSanitizer + UndefinedBehaviorSanitizer in build-asan/ (or $ASAN_BUILD_DIR; the `asan`
# preset of CMakePresets.json). A sanitizer report aborts the process, so the test that ran it
# fails. GENTLE_SKIP_ASAN=1 runs only the normal pass (for a quick local loop; CI runs both).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"

echo "== normal build and test =="
"$root/scripts/build.sh"
(cd "${BUILD_DIR:-$root/build}" && ctest --output-on-failure -j2)

if [[ "${GENTLE_SKIP_ASAN:-0}" == 1 ]]; then
  exit 0
fi
echo "== ASan+UBSan build and test =="
asan_build=${ASAN_BUILD_DIR:-$root/build-asan}
BUILD_DIR=$asan_build "$root/scripts/build.sh" -DGENTLE_SANITIZE=ON -DGENTLE_BENCH=OFF
# The sanitizers' options are compiled into each executable (cmake/sanitizer_options.cc).
(cd "$asan_build" && ctest --output-on-failure -j2)
