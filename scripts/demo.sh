#!/usr/bin/env bash
# README command 1: install what is missing, build, and run the main job end to end on the bundled
# demo repository: a candidate change is frozen with `review start`, inspected, sent back for
# changes, revised into a second round, approved, verified by CI and burned.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
# Only the binary it runs: the test suite and the benchmarks are scripts/test.sh's.
GENTLE_BUILD_TARGETS=gentle-ai "$root/scripts/build.sh"
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
step "$bin" review status --lineage "$lineage" --role reviewer
step "$bin" review list
step "$bin" review status --json

# What exactly was reviewed: the frozen diff, re-derived and verified against the record.
step "$bin" review export-context --lineage "$lineage"

# Round 1: the reviewer asks for changes; `review comment` prints exactly what the harness posts.
json_field() { sed -n "s/.*\"$1\":\"\([^\"]*\)\".*/\1/p"; }
revision=$("$bin" review status --lineage "$lineage" --json | json_field revision)
step "$bin" review verdict --lineage "$lineage" --verdict REQUEST_CHANGES --actor demo-reviewer \
  --role reviewer --body "Say hello to the name, not to the world." --expected-revision "$revision"
step "$bin" review comment --lineage "$lineage" --round 1 --model demo-model

# The author fixes it; round 2 re-captures the live candidate with the lineage's own selector.
sed -i 's/return "Hello";/return "Hello, friend";/' src/greet.c
step "$bin" review revise --lineage "$lineage"
step "$bin" review status --lineage "$lineage"
# What changed since round 1: the interdiff between the two rounds' candidate trees.
step "$bin" review export-context --lineage "$lineage" --since-round 1

# Round 2: the decision is approve (a one-time token comes back).
revision=$("$bin" review status --lineage "$lineage" --json | json_field revision)
verdict=$("$bin" review verdict --lineage "$lineage" --verdict APPROVE --actor demo-reviewer \
  --role reviewer --body "Looks right." --expected-revision "$revision" --json)
echo; echo "$ gentle-ai review verdict --lineage $lineage --verdict APPROVE ... --json"; echo "$verdict"
token=$(echo "$verdict" | json_field token)
approved=$(echo "$verdict" | json_field revision)
step "$bin" review comment --lineage "$lineage"

# The approved context, as an envelope for CI.
"$bin" review export-context --lineage "$lineage" --json --output "$work/envelope.json"
echo "(envelope of the approved lineage written to $work/envelope.json)"

# CI: the candidate is committed; a fresh clone with no store verifies the envelope against it.
git -c user.name=Demo -c user.email=demo@example.com add -A
git -c user.name=Demo -c user.email=demo@example.com commit -q -m "Greet a friend"
git clone -q "$repo" "$work/ci-clone"
step "$bin" review verify --cwd "$work/ci-clone" --envelope "$work/envelope.json" --against HEAD
echo "... and against a tree that was not reviewed:"
set +e
step "$bin" review verify --cwd "$work/ci-clone" --envelope "$work/envelope.json" --against HEAD~1
echo "exit code: $? (not_reviewed)"
set -e

# The acknowledgement is burned: the approval is spent.
step "$bin" review burn --lineage "$lineage" --token "$token" --expected-revision "$approved"
set +e
step "$bin" review export-context --lineage "$lineage"
echo "exit code: $? (consumed)"
set -e

# Another candidate, abandoned: it is retired, with an audit record.
printf '/* scratch */\n' >> src/greet.c
second=$("$bin" review start --json | json_field lineage)
step "$bin" review abandon --lineage "$second" --reason operator_disposition --actor demo-operator
set +e
step "$bin" review export-context --lineage "$second"
echo "exit code: $? (retired)"
set -e
step "$bin" review list
step "$bin" review fsck
echo
echo "demo repository left at $repo"
