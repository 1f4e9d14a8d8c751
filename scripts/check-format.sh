#!/usr/bin/env bash
# Fails when a tracked C++ file is not formatted as .clang-format says (run by CTest as
# clang_format_check). Fix with: git ls-files -z '*.cc' '*.h' | xargs -0 clang-format -i
set -euo pipefail
cd "$(dirname "$0")/.."
git ls-files -z '*.cc' '*.h' | xargs -0 clang-format --dry-run -Werror
