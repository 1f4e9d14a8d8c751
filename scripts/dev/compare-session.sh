#!/usr/bin/env bash
# compare-session.sh: runs one scripted session of every verb with two builds of the test binary
# and diffs what each printed, for a change that must keep the command line byte for byte (a
# refactor of cli/). Each session starts from the same scratch repository at the same path, under
# GENTLE_FIXED_TIME and fixed git dates, so records, history commits and digests are the same;
# the random values (acknowledgement tokens, the marker nonce `post` draws, the quarantine suffix)
# and what is derived from them are numbered in order of first appearance (<hex1>, <hex2>, ...),
# so two sessions agree exactly when their outputs have the same shape. Every command's --help,
# the success paths, --json, and usage errors (an unknown flag, a missing value, another verb's
# flag) are run; each step records its arguments, exit code, stdout and stderr.
#
#   scripts/dev/compare-session.sh OLD_BIN NEW_BIN [OLD_GENERATED NEW_GENERATED]
#
# OLD_BIN, NEW_BIN: gentle-ai-test binaries (the build's test binary: GENTLE_FIXED_TIME is one of
# its hooks). OLD_GENERATED, NEW_GENERATED: the builds' generated/ directories (man pages and
# completions, cli/CMakeLists.txt target gentle_docs), compared with diff -r. The work directory
# is $COMPARE_WORK (default: a new temp directory; kept, with both transcripts, when they differ).
# Exit 0: identical; 1: a difference (printed as a unified diff); 2: usage.
# Needs: git, python3 (the Gitea fake of tests/tools/fake_forge.py for `post` and `watch`), perl.
set -euo pipefail

if [[ $# -ne 2 && $# -ne 4 ]]; then
  sed -n '12,20p' "$0" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
old_bin=$(realpath "$1")
new_bin=$(realpath "$2")
work=${COMPARE_WORK:-$(mktemp -d /tmp/compare-session.XXXXXX)}
mkdir -p "$work"
fixtures=$root/fixtures/forge

export LC_ALL=C TZ=UTC GIT_CONFIG_NOSYSTEM=1 NO_COLOR=1
export GENTLE_FIXED_TIME=2026-12-06T09:00:00Z
export GIT_AUTHOR_NAME=ana GIT_AUTHOR_EMAIL=ana@example.com
export GIT_COMMITTER_NAME=ana GIT_COMMITTER_EMAIL=ana@example.com
export GIT_AUTHOR_DATE="2026-12-06T08:00:00Z" GIT_COMMITTER_DATE="2026-12-06T08:00:00Z"
unset GITEA_TOKEN GH_TOKEN GITHUB_TOKEN GH_HOST

bin=
transcript=
repo=

# run [--in DIR] [--stdin FILE] ARGS...: one step of the session, recorded.
run() {
  local dir=$repo input=/dev/null
  while [[ ${1:-} == --in || ${1:-} == --stdin ]]; do
    if [[ $1 == --in ]]; then dir=$2; else input=$2; fi
    shift 2
  done
  local code=0
  (cd "$dir" && "$bin" "$@" <"$input" >"$work/out" 2>"$work/err") || code=$?
  {
    printf '$ gentle-ai'
    printf ' %q' "$@"
    printf '\n[exit %d]\n--- stdout\n' "$code"
    cat "$work/out"
    printf '\n--- stderr\n'
    cat "$work/err"
    printf '\n'
  } >>"$transcript"
  last_out=$(cat "$work/out")
  return 0
}

# json_field KEY: a top-level string member of the last step's stdout.
json_field() {
  python3 -c 'import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$last_out" "$1"
}

# record FILE: a file a step wrote, into the transcript.
record() {
  printf '=== file %s\n' "${1#"$work"/}" >>"$transcript"
  if [[ -f $1 ]]; then cat "$1" >>"$transcript"; else echo "(absent)" >>"$transcript"; fi
  printf '\n' >>"$transcript"
}

# Every command's --help, walking the Subcommands: sections as tests/verb_registry_test.cc does.
help_tree() {
  local path=("$@")
  run --in "$work" "${path[@]}" --help
  local subs
  subs=$(printf '%s\n' "$last_out" | awk '/^[^ ].*:$/ {s = ($0 == "Subcommands:")} s && /^  [a-z]/ {print $1}')
  local sub
  for sub in $subs; do help_tree "${path[@]}" "$sub"; done
}

# The fake Gitea the post and watch steps talk to (tests/tools/fake_forge.py), on 127.0.0.1.
start_forge() {
  mkdir -p "$work/s/forge"
  cat >"$work/s/forge/world.json" <<'EOF'
{"me": "gentle-bot",
 "pulls": {"acme/webapp#47": {"number": 47, "state": "open", "merged": false, "draft": false,
   "mergeable": true, "head": {"sha": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "ref": "feature"},
   "updated_at": "2026-12-01T09:00:00Z", "labels": [], "user": {"login": "ana"},
   "title": "t", "html_url": "http://x/acme/webapp/pulls/47"}},
 "issue_comments": {"acme/webapp#47": []}, "review_comments": {"acme/webapp#47": []},
 "reviews": {"acme/webapp#47": []}}
EOF
  python3 "$root/tests/tools/fake_forge.py" --kind gitea --world "$work/s/forge/world.json" \
    --log "$work/s/forge/requests.log" >"$work/s/forge/port" 2>"$work/s/forge/stderr" &
  forge_pid=$!
  local tries=0
  while [[ ! -s $work/s/forge/port ]]; do
    tries=$((tries + 1))
    if ((tries > 500)); then
      echo "compare-session: the fake forge did not start" >&2
      exit 1
    fi
    sleep 0.01
  done
  forge_port=$(head -1 "$work/s/forge/port")
}

session() {
  bin=$1
  transcript=$2
  rm -rf "$work/s"
  mkdir -p "$work/s/home"
  export HOME=$work/s/home
  : >"$transcript"
  repo=$work/s/repo
  git init -q -b main "$repo"
  printf 'one\ntwo\nthree\n' >"$repo/a.txt"
  printf 'keep\n' >"$repo/b.txt"
  git -C "$repo" add -A
  git -C "$repo" commit -q -m base
  printf 'one\n2\nthree\n' >"$repo/a.txt"
  printf 'new\n' >"$repo/c.txt"

  # The command tree, the version and the root's own errors.
  help_tree
  run --in "$work" --version
  run --in "$work" version
  run --in "$work" version --json
  run --in "$work" version --help
  run --in "$work"
  run --in "$work" review
  run --in "$work" review bogus
  run --in "$work" review --json bogus
  run --in "$work" bogus --json
  run --in "$work" version --bogus
  run --in "$work" version --json --cwd x

  # start, status, list, export-context.
  run review status
  run review list --json
  run review start --json --untracked c.txt
  local lineage
  lineage=$(json_field lineage)
  run review start --untracked c.txt
  run review start --kind bogus
  run review start --kind
  run review start --context
  run review start --context "$work/missing.json" --json
  run review start --token x
  run review status
  run review status --json
  run review status --lineage "$lineage"
  run review status --lineage "$lineage" --json
  run review status --kind current-changes --untracked c.txt --json
  run review status --lineage
  run review status --yes
  run review list
  run review list --json
  run review list --lineage x
  run review export-context --lineage "$lineage"
  run review export-context --lineage "$lineage" --json
  run review export-context --lineage "$lineage" --engine git
  run review export-context --lineage "$lineage" --output "$work/s/export.patch"
  record "$work/s/export.patch"
  run review export-context --lineage "$lineage" --round 1
  run review export-context --lineage "$lineage" --round 0
  run review export-context --lineage "$lineage" --since-round 1 --json
  run review export-context --lineage "$lineage" --round 1 --since-round 1
  run review export-context
  run review export-context --lineage
  run review export-context --lineage "$lineage" --engine bogus --json
  run review export-context --lineage "$lineage" --actor x
  run review export-context --lineage nope --json

  # A round's verdict, comment, revise, show.
  run review verdict --lineage "$lineage" --verdict REQUEST_CHANGES --actor ana --role reviewer \
    --body "please rename x" --json
  run review verdict --lineage "$lineage" --verdict APPROVE --actor ana --role reviewer
  run review verdict --lineage "$lineage" --verdict APPROVE --actor ana --role reviewer \
    --body x --body-file y
  run review verdict --lineage "$lineage" --verdict MAYBE --actor ana --role reviewer --body x
  run review verdict --lineage "$lineage" --verdict APPROVE --role reviewer --body x --json
  run review verdict --lineage "$lineage" --verdict APPROVE --actor ana --role reviewer \
    --body x --expected-revision ""
  run review verdict --lineage "$lineage" --verdict APPROVE --actor ana --role reviewer \
    --body x --token t
  run review verdict --lineage
  run review comment --lineage "$lineage"
  run review comment --lineage "$lineage" --round 1 --role reviewer --model m-1 --session s1 \
    --nonce 0123456789abcdef0123456789abcdef
  printf '%s\n' "$last_out" >"$work/s/comment.md"
  run review comment --lineage "$lineage" --round 2
  run review comment --lineage "$lineage" --role bogus --json
  run review comment --lineage "$lineage" --model "bad model"
  run review comment --lineage "$lineage" --pr x
  run review comment
  run review parse-comment "$work/s/comment.md"
  run --stdin "$work/s/comment.md" review parse-comment
  run --stdin "$work/s/comment.md" review parse-comment -
  run review parse-comment "$work/s/missing.md" --json
  run review parse-comment a b
  run review parse-comment --lineage x
  printf 'one\nTWO\nthree\n' >"$repo/a.txt"
  run review revise --lineage "$lineage" --json
  run review revise --lineage "$lineage"
  run review revise --lineage "$lineage" --context-unavailable
  run review revise --lineage "$lineage" --verdict APPROVE
  run review export-context --lineage "$lineage" --since-round 1
  run review export-context --lineage "$lineage" --round 1 --json
  run review show --lineage "$lineage"
  run review show --lineage "$lineage" --round 1 --color always
  run review show --lineage "$lineage" --json
  run review show --lineage "$lineage" --html --output "$work/s/show.html"
  record "$work/s/show.html"
  run review show --lineage "$lineage" --html
  run review show --lineage "$lineage" --color sometimes
  run review show --lineage "$lineage" --round x
  run review show --lineage "$lineage" --allowed-signers "$work/s/none" --json
  run review show --lineage "$lineage" --token x
  run review show
  run review status --lineage "$lineage"

  # Approval, verify, attest, burn.
  printf 'looks right\n' >"$work/s/body.md"
  run review verdict --lineage "$lineage" --verdict APPROVE --actor ana --role reviewer \
    --body-file "$work/s/body.md" --json
  local token revision
  token=$(json_field token)
  revision=$(json_field revision)
  run review verdict --lineage "$lineage" --verdict APPROVE --actor bo --role reviewer --body ok
  run review verdict --lineage "$lineage" --verdict FIXED --actor doc --role docs-reviewer \
    --body "docs fixed"
  run review verdict --lineage "$lineage" --verdict APPROVE --actor ana --role author --body x
  run review verdict --lineage "$lineage" --verdict APPROVE --role reviewer --body x --sign --json
  run review verify --lineage "$lineage"
  run review verify --lineage "$lineage" --json
  run review verify --lineage "$lineage" --against HEAD --json
  run review verify --lineage "$lineage" --against HEAD --base-ref main --allow-trivial-rebase
  run review verify --lineage "$lineage" --min-approvals 2 --json
  run review verify --lineage "$lineage" --min-approvals x
  run review verify --lineage "$lineage" --require-signature
  run review verify --lineage "$lineage" --allowed-signers "$work/s/none" --min-approvals 1
  run review verify --lineage "$lineage" --envelope x
  run review verify
  run review verify --json
  run review verify --against
  run review verify --lineage "$lineage" --token x
  run review export-context --lineage "$lineage" --json
  printf '%s\n' "$last_out" >"$work/s/envelope.json"
  run review verify --envelope "$work/s/envelope.json"
  run review verify --envelope "$work/s/envelope.json" --json
  run review verify --envelope "$work/s/missing.json" --json
  run review attest --lineage "$lineage"
  run review attest --lineage "$lineage" --json --output "$work/s/attest.json"
  record "$work/s/attest.json"
  run review attest --lineage "$lineage" --allowed-signers "$work/s/none" --base-ref main
  run review attest --lineage "$lineage" --base-ref main
  run review attest
  run review attest --lineage "$lineage" --against HEAD
  run review comment --lineage "$lineage" --json
  run review show --lineage "$lineage" --json

  # Sharing: push, fetch, import.
  git init -q --bare "$work/s/remote.git"
  git -C "$repo" remote add origin "$work/s/remote.git"
  git -C "$repo" push -q origin main
  run review push
  run review push --json
  run review push --remote origin --lineage "$lineage" --json
  run review push --remote nowhere
  run review push --lineage
  run review push --token x
  git clone -q "$work/s/remote.git" "$work/s/clone"
  run --in "$work/s/clone" review fetch
  run --in "$work/s/clone" review fetch --json
  run --in "$work/s/clone" review fetch --remote nowhere --json
  run --in "$work/s/clone" review fetch --lineage x
  run --in "$work/s/clone" review import --lineage "$lineage" --json
  run --in "$work/s/clone" review import --lineage "$lineage"
  run --in "$work/s/clone" review import --lineage "$lineage" --remote nowhere
  run --in "$work/s/clone" review import --lineage "$lineage" --accept-terminal --remote origin
  run --in "$work/s/clone" review import
  run --in "$work/s/clone" review import --lineage "$lineage" --yes
  run --in "$work/s/clone" review verify --lineage "$lineage" --json
  run --in "$work/s/clone" review status --json

  # Maintenance: fsck, index rebuild, repair.
  run review fsck
  run review fsck --json
  run review fsck --lineage x
  run review index rebuild
  run review index rebuild --json
  run review index
  run review index rebuild --yes
  run review repair
  run review repair --lineage "$lineage" --json
  run review repair --lineage
  run review repair --yes

  run review burn --lineage "$lineage" --token "$token"
  run review burn --lineage "$lineage" --token "$token" --expected-revision "$revision" --yes
  run review burn --lineage "$lineage" --token bogus --expected-revision "$revision" --json
  run review burn --lineage "$lineage" --token "$token" --expected-revision "$revision" --json
  run review burn --lineage "$lineage" --token "$token" --expected-revision "$revision"
  run review export-context --lineage "$lineage"
  run review export-context --lineage "$lineage" --json
  run review verify --lineage "$lineage" --json
  run review list
  run review status --json

  # Invalidate, abandon, reclaim.
  printf 'four\n' >"$repo/d.txt"
  run review start --untracked d.txt --json
  local second
  second=$(json_field lineage)
  run review invalidate --lineage "$second" --reason "wrong base" --actor ana --json
  run review invalidate --lineage "$second" --reason again --actor ana
  run review invalidate --lineage "$second"
  run review invalidate --lineage "$second" --reason x --actor ana --token y
  run review start --untracked d.txt --staged
  run review start --kind commit-range --base HEAD --head HEAD --json
  run review start --kind base-diff --base HEAD --json
  local third
  third=$(json_field lineage)
  run review abandon --lineage "$third" --reason operator_disposition --actor ana \
    --expected-revision bogus --json
  run review abandon --lineage "$third" --reason operator_disposition --actor ana
  run review abandon --lineage "$third" --reason boredom --actor ana --json
  run review abandon --lineage "$third"
  run review abandon --lineage "$third" --reason operator_disposition --actor ana --token x
  run review reclaim --lineage "$third" --reason gone --actor ana --json
  run review reclaim --lineage nope --reason gone --actor ana
  run review reclaim --lineage nope --reason gone --actor ana --expected-revision x
  run review reclaim --lineage nope
  run review list --json
  run review fsck --json

  # The review context, the ledger, hints.
  local gh=$fixtures/github
  run review context import --forge github --pr-view "$gh/pr-view.json" \
    --issue-comments "$gh/issue-comments-1.json" --issue-comments "$gh/issue-comments-2.json" \
    --reviews "$gh/reviews-1.json" --reviews "$gh/reviews-2.json" \
    --review-comments "$gh/review-comments-1.json" --review-comments "$gh/review-comments-2.json"
  run review context import --forge github --pr-view "$gh/pr-view.json" \
    --issue-comments "$gh/issue-comments-1.json" --reviews "$gh/reviews-1.json" \
    --review-comments "$gh/review-comments-1.json" --output "$work/s/context.json" --json
  record "$work/s/context.json"
  local ae=$fixtures/aone
  run review context import --forge aone --mr-view "$ae/mr-view.json" \
    --comments "$ae/comments.json" --resolved-comments "$ae/resolved-comments.json"
  local ga=$fixtures/gitea
  run review context import --forge gitea --pr-view "$ga/pull.json" \
    --issue-comments "$ga/issue-comments-1.json" --reviews "$ga/reviews-1.json" \
    --review-comments "$ga/review-301-comments.json" \
    --review-comments "$ga/review-302-comments.json" \
    --review-comments "$ga/review-303-comments.json" --json
  run review context import --forge github --mr-view "$ae/mr-view.json"
  run review context import --forge bogus --json
  run review context import --forge github --pr-view
  run review context import
  run review context import --forge github --lineage x
  run review context
  run review ledger --context "$work/s/context.json" --me review-bot
  run review ledger --context "$work/s/context.json" --me ""
  run --stdin "$work/s/context.json" review ledger --context - --me review-bot --json
  run review ledger --context "$work/s/missing.json" --me x --json
  run review ledger --context "$work/s/context.json"
  run review ledger --context "$work/s/context.json" --me x --forge github
  run review hint parse "[pr-daemon] gitea:acme/webapp#47 reason=comments,ci skill=review-pr updated=2026-12-01T09:00:00Z"
  run review hint parse "hello" --json
  run review hint parse
  run review hint parse a b
  run review hint

  # The seen ledger and the PR state.
  local pr=gitea:acme/webapp#47
  run review seen baseline --pr "$pr" --id 1 --id review:2 --json
  run review seen baseline --pr "$pr" --id 3
  run review seen baseline --pr "$pr" --id 3 --force
  printf '4\nreview:5\n' >"$work/s/ids"
  run review seen add --pr "$pr" --ids-file "$work/s/ids" --json
  run --stdin "$work/s/ids" review seen add --pr "$pr" --ids-file - --posted
  run review seen add --pr "$pr" --id x
  run review seen check --pr "$pr" --id 1
  run review seen check --pr "$pr" --id 99 --json
  run review seen check --pr "$pr"
  run review seen check --pr "$pr" --id 1 --force
  run review seen list --pr "$pr"
  run review seen list --pr "$pr" --json
  run review seen list --pr bogus
  run review seen list --pr "$pr" --id 1
  run review seen new --pr "$pr" --context "$work/s/context.json"
  run review seen new --pr "$pr" --context "$work/s/context.json" --json
  run review seen new --pr "$pr"
  run review seen
  run review seen bogus
  run review pr-state set --pr "$pr" --phase "fixing round 1" --head-sha aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa --blocked-on ci \
    --round 1 --asked "rename x" --json
  run review pr-state set --pr "$pr" --blocked-on ""
  run review pr-state set --pr "$pr" --round 0 --asked x
  run review pr-state show --pr "$pr"
  run review pr-state show --pr "$pr" --json
  run review pr-state show --pr "$pr" --phase x
  run review pr-state show
  run review pr-state

  # post and watch, against the Gitea fake.
  start_forge
  git -C "$repo" remote add gitea "http://127.0.0.1:$forge_port/acme/webapp.git"
  git -C "$repo" remote remove origin
  git -C "$repo" remote rename gitea origin
  export GITEA_TOKEN=compare-session-token
  printf 'five\n' >"$repo/e.txt"
  run review start --untracked e.txt --json
  local fourth
  fourth=$(json_field lineage)
  run review verdict --lineage "$fourth" --verdict REQUEST_CHANGES --actor ana --role reviewer \
    --body "split this"
  run review post --lineage "$fourth" --pr "$pr" --json
  run review post --lineage "$fourth" --pr "$pr" --as comment
  run review post --lineage "$fourth" --pr "$pr" --as bogus --json
  run review post --lineage "$fourth" --pr bogus
  run review post --lineage "$fourth" --pr "$pr" --nonce 0123456789abcdef0123456789abcdef
  run review post --lineage "$fourth"
  run review seen list --pr "$pr" --json
  run review watch --once --pr "$pr"
  run review watch --once --pr "$pr" --json
  run review watch --once --pr "$pr" --exec /bin/true --on-new /bin/true
  run review watch --once --pr bogus
  run review watch --once --repo
  run review watch --once --lineage x
  kill "$forge_pid" 2>/dev/null || true
  wait "$forge_pid" 2>/dev/null || true
  unset GITEA_TOKEN

  # The store as a whole.
  run review store reset
  run review store reset --json
  run review store reset --yes --json
  run review store reset --lineage x
  run review store
  run review list --json
  run --in "$work" review status --cwd "$work/s/nowhere" --json
  run --in "$work" review list --cwd "$repo"
}

# The random values and what derives from them (hex runs, the quarantine entry's number),
# numbered by first appearance; the fake forge's port; the build's `git describe`.
normalize() {
  perl -pe '
    BEGIN { our %seen; our $n = 0; }
    s/127\.0\.0\.1:\d+/127.0.0.1:PORT/g;
    s/^gentle-ai (\d+\.\d+\.\d+) \([^)]*\)$/gentle-ai $1 (<describe>)/;
    s/"git_describe":"[^"]*"/"git_describe":"<describe>"/;
    s/\b([0-9a-f]{16,})\b/exists $seen{$1} ? $seen{$1} : ($seen{$1} = "<hex" . ++$n . ">")/ge;
    s/(quarantine\/[^\/"\s]*-)(\d{6,})/$1 . (exists $seen{$2} ? $seen{$2} : ($seen{$2} = "<n" . ++$n . ">"))/ge;
  ' "$1"
}

status=0
session "$old_bin" "$work/old.raw"
session "$new_bin" "$work/new.raw"
normalize "$work/old.raw" >"$work/old.txt"
normalize "$work/new.raw" >"$work/new.txt"
steps=$(grep -c '^\$ gentle-ai' "$work/old.txt" || true)
if diff -u "$work/old.txt" "$work/new.txt"; then
  echo "compare-session: $steps steps, stdout, stderr and exit codes identical"
else
  status=1
fi
if [[ $# -eq 4 ]]; then
  if diff -r "$3" "$4"; then
    echo "compare-session: man pages and completions identical ($(find "$3" -type f | wc -l) files)"
  else
    status=1
  fi
fi
if [[ $status -eq 0 && -z ${COMPARE_WORK:-} ]]; then rm -rf "$work"; else echo "transcripts in $work"; fi
exit "$status"
