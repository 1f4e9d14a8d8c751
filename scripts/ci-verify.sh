#!/bin/sh
# The CI recipe of docs/ci.md: in a clone whose HEAD is what is about to be merged, fetch the review
# histories and verify that HEAD's tree is the candidate tree an approval names. The lineage comes
# from HEAD's `Review-Lineage:` trailer. Exit code: verify's (0 approved; 10 not_reviewed or
# untrusted; 6 wrong_state; 7 corrupted; 3 not_found); 2 when HEAD names no lineage or an option
# is not one of these.
#
#   scripts/ci-verify.sh [--min-approvals N] [--base-ref REF] [--allow-trivial-rebase]
#                        [--require-signed-commits] [REMOTE [ALLOWED_SIGNERS]]
#
# ALLOWED_SIGNERS is a file path or, as CI should give it, REF:PATH read from a commit of the
# base branch (e.g. origin/main:.github/allowed_signers), never from the pull request's worktree
# (docs/ci.md, "Whose signers file"). With it the approval must also be SSH-signed by a principal
# in it, and that principal must be its recorded actor. The approval policies (docs/ci.md,
# "Approval policies"):
#   --min-approvals N       at least N persons of the file signed an approval of the round
#                           (two-reviewer policy: 2); needs ALLOWED_SIGNERS
#   --base-ref REF          the branch HEAD is merged into (e.g. origin/main); with
#                           ALLOWED_SIGNERS an approval by an author or committer (by email)
#                           of REF..HEAD does not count (no-self-approval policy)
#   --require-signed-commits  with --base-ref and ALLOWED_SIGNERS: every commit of REF..HEAD
#                           must be SSH-signed by a key of the file, and its signer's person is
#                           an author for the no-self-approval policy
#   --allow-trivial-rebase  with --base-ref: a HEAD whose tree is not the approved one still
#                           passes when its change since merge-base(REF, HEAD) is the approved
#                           patch at other line numbers (docs/ci.md, "Rebased changes"); a merge
#                           HEAD's first parent must be on REF (else not_reviewed,
#                           first_parent_off_base), and a consumed (burned) approval passes only
#                           for its exact tree, never through a rebase (not_reviewed, consumed)
# GENTLE_AI names the gentle-ai binary (default: gentle-ai on PATH).
set -eu
min_approvals=
base_ref=
trivial_rebase=
signed_commits=
while [ $# -gt 0 ]; do
  case $1 in
    --min-approvals | --base-ref)
      if [ $# -lt 2 ]; then
        echo "ci-verify: $1 needs a value" >&2
        exit 2
      fi
      if [ "$1" = --min-approvals ]; then min_approvals=$2; else base_ref=$2; fi
      shift 2
      ;;
    --allow-trivial-rebase)
      trivial_rebase=1
      shift
      ;;
    --require-signed-commits)
      signed_commits=1
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
if [ -n "$min_approvals" ] && [ -z "$allowed" ]; then
  echo "ci-verify: --min-approvals needs ALLOWED_SIGNERS: who approved is known only from a signature" >&2
  exit 2
fi
if [ -n "$signed_commits" ] && [ -z "$allowed" ]; then
  echo "ci-verify: --require-signed-commits needs ALLOWED_SIGNERS: it names the keys that may sign" >&2
  exit 2
fi
# --base-ref and --allow-trivial-rebase go to verify as given: it answers a wrong combination
# with its own usage error (JSON).

lineage=$(git log -1 --format='%(trailers:key=Review-Lineage,valueonly)' | head -n 1)
if [ -z "$lineage" ]; then
  echo "ci-verify: HEAD has no Review-Lineage trailer" >&2
  exit 2
fi
set -- --lineage "$lineage" --against HEAD --json
if [ -n "$allowed" ]; then
  set -- "$@" --require-signature --allowed-signers "$allowed"
fi
if [ -n "$min_approvals" ]; then
  set -- "$@" --min-approvals "$min_approvals"
fi
if [ -n "$base_ref" ]; then
  set -- "$@" --base-ref "$base_ref"
fi
if [ -n "$trivial_rebase" ]; then
  set -- "$@" --allow-trivial-rebase
fi
if [ -n "$signed_commits" ]; then
  set -- "$@" --require-signed-commits
fi
"$gentle_ai" review fetch --remote "$remote" >&2
exec "$gentle_ai" review verify "$@"
