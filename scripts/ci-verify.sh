#!/bin/sh
# The CI recipe of docs/ci.md: in a clone whose HEAD is what is about to be merged, fetch the review
# histories and verify that HEAD's tree is the candidate tree an approval names. The lineage comes
# from HEAD's `Review-Lineage:` trailer. Exit code: verify's (0 approved; 10 not_reviewed or
# untrusted; 6 wrong_state; 7 corrupted; 3 not_found); 2 when HEAD names no lineage or an option
# is wrong.
#
#   scripts/ci-verify.sh [--base-ref REF] [--allow-trivial-rebase] [REMOTE [ALLOWED_SIGNERS_FILE]]
#
# With ALLOWED_SIGNERS_FILE the approval must also be SSH-signed by a principal in it. With
# --allow-trivial-rebase (which needs --base-ref REF, the branch HEAD is merged into, e.g.
# origin/main) a HEAD whose tree is not the approved one still passes when its change since
# merge-base(REF, HEAD) (its first-parent change for a merge commit) is the approved patch at other
# line numbers. GENTLE_AI names the gentle-ai binary (default: gentle-ai on PATH).
set -eu
base_ref=
trivial_rebase=
while [ $# -gt 0 ]; do
  case $1 in
    --base-ref)
      [ $# -ge 2 ] || { echo "ci-verify: --base-ref needs REF" >&2; exit 2; }
      base_ref=$2
      shift 2
      ;;
    --allow-trivial-rebase)
      trivial_rebase=1
      shift
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

lineage=$(git log -1 --format='%(trailers:key=Review-Lineage,valueonly)' | head -n 1)
if [ -z "$lineage" ]; then
  echo "ci-verify: HEAD has no Review-Lineage trailer" >&2
  exit 2
fi
set -- --lineage "$lineage" --against HEAD --json
if [ -n "$base_ref" ]; then
  set -- "$@" --base-ref "$base_ref"
fi
if [ -n "$trivial_rebase" ]; then
  set -- "$@" --allow-trivial-rebase
fi
if [ -n "$allowed" ]; then
  set -- "$@" --require-signature --allowed-signers "$allowed"
fi
"$gentle_ai" review fetch --remote "$remote" >&2
exec "$gentle_ai" review verify "$@"
