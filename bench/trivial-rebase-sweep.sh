#!/usr/bin/env bash
# trivial-rebase-sweep.sh: `verify --allow-trivial-rebase` against git patch-id on a real history
# (docs/ci.md, "Rebased changes", where the numbers of the last run are).
#
#   bench/trivial-rebase-sweep.sh --repo GIT_DIR [--build DIR] [--work DIR] [--commits N]
#                                 [--offsets "1 3 10"]
#
# For N first-parent, non-merge commits C of GIT_DIR's HEAD (evenly spaced), and for each offset k,
# C is cherry-picked onto B = C~(k+1), an older base, in a scratch clone (`git clone --shared`;
# GIT_DIR is only read, nothing fetched is committed anywhere but the scratch clone). A pick that
# conflicts or comes out empty is skipped. For every pick C': `review start --kind commit-range
# --base C^ --head C`, `review verdict APPROVE`, then `review verify --against C' --base-ref B
# --allow-trivial-rebase`. The oracle is `git patch-id --stable` of the pinned diffs (OracleArgv of
# export/git_flags.h) of C^..C and B..C'. Printed: pairs tried, skipped, accepted, refused
# (split by whether the patch ids are equal, and by verify's `details.difference` kind), and
# disagreements: an accepted pair whose patch ids differ. The exit code is 1 when there is any
# disagreement or a verify answer other than 0 / not_reviewed.
set -euo pipefail
repo= build=build work= commits=100 offsets="1 3 10"
while [ $# -gt 0 ]; do
  case $1 in
    --repo) repo=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --commits) commits=$2; shift 2 ;;
    --offsets) offsets=$2; shift 2 ;;
    *) echo "usage: $0 --repo GIT_DIR [--build DIR] [--work DIR] [--commits N] [--offsets LIST]" >&2
       exit 2 ;;
  esac
done
[ -n "$repo" ] || { echo "$0: --repo GIT_DIR is required" >&2; exit 2; }
gentle_ai=$(cd "$build" && pwd)/gentle-ai
[ -x "$gentle_ai" ] || { echo "$0: no $gentle_ai (build first)" >&2; exit 2; }
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null LC_ALL=C
export GIT_AUTHOR_NAME=Sweep GIT_AUTHOR_EMAIL=sweep@example.invalid GIT_COMMITTER_NAME=Sweep
export GIT_COMMITTER_EMAIL=sweep@example.invalid
if [ -z "$work" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
clone=$work/clone
rm -rf "$clone"
git clone -q --shared "$repo" "$clone"
cd "$clone"
empty_home=$work/home
mkdir -p "$empty_home"

patch_id() {  # the patch id of the pinned diff between two commits' trees
  HOME=$empty_home git -c core.quotePath=true -c diff.suppressBlankEmpty=false \
    -c diff.interHunkContext=0 -c core.loosecompression=1 -c diff.relative=false diff --binary \
    --full-index --no-color --no-renames --no-ext-diff --no-textconv --diff-algorithm=myers \
    --no-indent-heuristic --unified=3 --ignore-submodules=none --src-prefix=a/ --dst-prefix=b/ \
    -O/dev/null "$1^{tree}" "$2^{tree}" -- | git patch-id --stable | cut -c1-40
}

mapfile -t all < <(git rev-list --first-parent --no-merges HEAD)
step=$(( ${#all[@]} / commits ))
[ "$step" -ge 1 ] || step=1
tried=0 skipped=0 accepted=0 refused_same_id=0 refused_other_id=0 disagreements=0 unexpected=0
declare -A kinds=()
for (( i = 0; i < ${#all[@]} && i / step < commits; i += step )); do
  c=${all[$i]}
  lineage=
  for k in $offsets; do
    b=$(git rev-parse -q --verify "$c~$((k + 1))^{commit}" 2>/dev/null) || continue
    tried=$((tried + 1))
    git checkout -q --detach "$b"
    if ! git cherry-pick --allow-empty "$c" >/dev/null 2>&1 ||
       [ "$(git rev-parse HEAD^{tree})" = "$(git rev-parse "$b^{tree}")" ]; then
      git cherry-pick --abort >/dev/null 2>&1 || true
      git reset -q --hard
      skipped=$((skipped + 1))
      continue
    fi
    picked=$(git rev-parse HEAD)
    if [ -z "$lineage" ]; then  # one approved lineage per commit, for all its picks
      if ! started=$("$gentle_ai" review start --kind commit-range --base "$c^" --head "$c" \
                     --json); then
        skipped=$((skipped + 1))  # e.g. a patch above the budget
        continue
      fi
      lineage=$(printf '%s' "$started" |
                python3 -c 'import json,sys; print(json.load(sys.stdin)["lineage"])')
      "$gentle_ai" review verdict --lineage "$lineage" --verdict APPROVE --actor sweep \
        --role reviewer --body "sweep" --json >/dev/null
    fi
    set +e
    out=$("$gentle_ai" review verify --lineage "$lineage" --against "$picked" --base-ref "$b" \
      --allow-trivial-rebase --json)
    rc=$?
    set -e
    same_id=no
    [ "$(patch_id "$c^" "$c")" = "$(patch_id "$b" "$picked")" ] && same_id=yes
    if [ $rc -eq 0 ]; then
      accepted=$((accepted + 1))
      if [ $same_id = no ]; then
        disagreements=$((disagreements + 1))
        echo "DISAGREEMENT: $c onto $b accepted, patch ids differ" >&2
      fi
    elif [ $rc -eq 10 ] && printf '%s' "$out" | grep -q '"code":"not_reviewed"'; then
      kind=$(printf '%s' "$out" | python3 -c 'import json,re,sys
d=json.load(sys.stdin)["error"]["details"].get("difference","")
print(re.sub(r"hunk [0-9]+", "hunk N", d.rsplit(": ", 1)[-1]) if ": " in d else (d.split(":")[0] or "none"))')
      kinds["$same_id:$kind"]=$(( ${kinds["$same_id:$kind"]:-0} + 1 ))
      if [ $same_id = yes ]; then
        refused_same_id=$((refused_same_id + 1))
        echo "STRICTER THAN PATCH-ID: $c onto $b: $kind" >&2
      else
        refused_other_id=$((refused_other_id + 1))
      fi
    else
      unexpected=$((unexpected + 1))
      echo "UNEXPECTED: $c onto $b: exit $rc: $out" >&2
    fi
  done
done
echo "repository: $repo ($(git -C "$repo" rev-parse HEAD))"
echo "pairs tried: $tried, skipped (conflict, empty or over budget): $skipped"
echo "accepted: $accepted (patch ids equal on all but $disagreements)"
echo "refused: $((refused_same_id + refused_other_id)) ($refused_other_id with other patch ids," \
  "$refused_same_id with equal ones)"
for key in "${!kinds[@]}"; do
  echo "  refused, patch ids equal=${key%%:*}, first difference: ${key#*:}: ${kinds[$key]}"
done | sort
echo "disagreements: $disagreements, unexpected answers: $unexpected"
[ "$disagreements" -eq 0 ] && [ "$unexpected" -eq 0 ]
