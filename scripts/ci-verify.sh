#!/bin/sh
# The CI recipe of docs/ci.md: in a clone whose HEAD is what is about to be merged, fetch the review
# histories and verify that HEAD's tree is the candidate tree an approval names. The lineage comes
# from HEAD's `Review-Lineage:` trailer. Exit code: verify's (0 approved; 10 not_reviewed or
# untrusted; 6 wrong_state; 7 corrupted; 3 not_found); 2 when HEAD names no lineage or an option
# is not one of these.
#
#   scripts/ci-verify.sh [--min-approvals N] [--base-ref REF] [REMOTE [ALLOWED_SIGNERS_FILE]]
#
# With ALLOWED_SIGNERS_FILE the approval must also be SSH-signed by a principal in it, and that
# principal must be its recorded actor. The approval policies (docs/ci.md, "Approval policies")
# need the file:
#   --min-approvals N  at least N distinct allowed principals signed an approval of the round
#                      (two-reviewer policy: 2)
#   --base-ref REF     an approval by an author or committer (by email) of REF..HEAD does not
#                      count (no-self-approval policy; e.g. origin/main)
# The rebase policy's option goes with these (docs/ci.md). GENTLE_AI names the gentle-ai binary
# (default: gentle-ai on PATH).
set -eu
policy=""
while [ $# -gt 0 ]; do
  case $1 in
    --min-approvals | --base-ref)
      if [ $# -lt 2 ]; then
        echo "ci-verify: $1 needs a value" >&2
        exit 2
      fi
      policy="$policy $1 $2"
      shift 2
      ;;
    --)
      shift
      break
      ;;
    -*)
      echo "ci-verify: unknown option $1" >&2
      exit 2
      ;;
    *) break ;;
  esac
done
remote=${1:-origin}
allowed=${2:-}
gentle_ai=${GENTLE_AI:-gentle-ai}
if [ -n "$policy" ] && [ -z "$allowed" ]; then
  echo "ci-verify:$policy needs ALLOWED_SIGNERS_FILE: who approved is known only from a signature" >&2
  exit 2
fi

lineage=$(git log -1 --format='%(trailers:key=Review-Lineage,valueonly)' | head -n 1)
if [ -z "$lineage" ]; then
  echo "ci-verify: HEAD has no Review-Lineage trailer" >&2
  exit 2
fi
"$gentle_ai" review fetch --remote "$remote" >&2
if [ -n "$allowed" ]; then
  # $policy is word-split on purpose: option names and values without spaces.
  # shellcheck disable=SC2086
  exec "$gentle_ai" review verify --lineage "$lineage" --against HEAD --json \
    --require-signature --allowed-signers "$allowed" $policy
fi
exec "$gentle_ai" review verify --lineage "$lineage" --against HEAD --json
