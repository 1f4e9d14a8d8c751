#!/usr/bin/env bash
# README command 1: install what is missing, build, and run the main job end to end on the bundled
# demo repository: a candidate change is frozen with `review start`, then inspected.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
bin=${BUILD_DIR:-$root/build}/gentle-ai
work=$(mktemp -d /tmp/gentle-ai-demo-XXXXXX)
repo=$work/demo
"$root/fixtures/make-demo-repo.sh" "$repo"
cd "$repo"

step() { printf '\n$ %s\n' "$*"; "$@"; }

# A candidate change: an edited function, a new untracked file the reviewer should see, a binary edit.
sed -i 's/return "Hi";/return "Hello";/' src/greet.c
printf 'int helper(void) { return 42; }\n' > src/helper.c
printf '\x89PNG\r\n\x1a\n\0\0\0\rIHDR-v2' > assets/logo.png

step "$bin" review start --untracked src/helper.c
lineage=$("$bin" review start --untracked src/helper.c --json | sed 's/.*"lineage":"\([^"]*\)".*/\1/')
step "$bin" review status --lineage "$lineage"
step "$bin" review list
step "$bin" review status --json
echo
echo "demo repository left at $repo"
