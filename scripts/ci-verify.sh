#!/bin/sh
# The CI recipe of docs/ci.md: in a clone whose HEAD is what is about to be merged, fetch the review
# histories and verify that HEAD's tree is the candidate tree an approval names. The lineage comes
# from HEAD's `Review-Lineage:` trailer. Exit code: verify's (0 approved; 10 not_reviewed or
# untrusted; 6 wrong_state; 7 corrupted; 3 not_found); 2 when HEAD names no lineage.
#
#   scripts/ci-verify.sh [REMOTE [ALLOWED_SIGNERS_FILE]]
#
# With ALLOWED_SIGNERS_FILE the approval must also be SSH-signed by a principal in it. GENTLE_AI
# names the gentle-ai binary (default: gentle-ai on PATH).
set -eu
remote=${1:-origin}
allowed=${2:-}
gentle_ai=${GENTLE_AI:-gentle-ai}

lineage=$(git log -1 --format='%(trailers:key=Review-Lineage,valueonly)' | head -n 1)
if [ -z "$lineage" ]; then
  echo "ci-verify: HEAD has no Review-Lineage trailer" >&2
  exit 2
fi
"$gentle_ai" review fetch --remote "$remote" >&2
if [ -n "$allowed" ]; then
  exec "$gentle_ai" review verify --lineage "$lineage" --against HEAD --json \
    --require-signature --allowed-signers "$allowed"
fi
exec "$gentle_ai" review verify --lineage "$lineage" --against HEAD --json
