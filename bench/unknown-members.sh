#!/usr/bin/env bash
# unknown-members.sh: how the mutations that rewrite a record scale with the number of `state`
# members this tool does not know (docs/performance.md). Whole processes, one at a time.
#
#   bench/unknown-members.sh [--gentle-ai BIN] [--work DIR] [--sizes "10000 20000 40000 80000"]
#                            [--runs N]
#
# For each size N: a scratch repository with one changed file, `review start`, then the record's
# state gets N members `unknown_<i>` (integers) after `genesis_paths` and the record is re-signed
# with its revision (sha256 of "gentle-ai.review-state/v2" NUL + the compact state bytes, as
# docs/format.md defines it); `review index rebuild` records it (a sync commit). The repository is
# then copied aside, and before each timed command the copy is put back, so every command meets
# the same record. Timed (wall and CPU seconds, user + system, and peak RSS from /usr/bin/time,
# each the median of --runs):
# verdict REQUEST_CHANGES, verdict APPROVE, invalidate, revise (from correction_required: its
# verdict is in the untimed setup), burn (from approved, likewise), abandon, status --lineage.
# A measurement, not a test: nothing here asserts a time. Needs git, python3, /usr/bin/time.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
gai=$here/build/gentle-ai
work=
sizes="10000 20000 40000 80000"
runs=1
while (($#)); do
  case $1 in
    --gentle-ai) gai=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --sizes) sizes=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    *) echo "unknown flag $1" >&2; exit 2 ;;
  esac
done
if [[ -z $work ]]; then
  work=$(mktemp -d "${TMPDIR:-/tmp}/gentle-unknown-members-XXXXXX")
  trap 'rm -rf "$work"' EXIT
fi
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=$work/home LC_ALL=C
mkdir -p "$HOME"

# Adds N members to the record's state after genesis_paths and writes it back, re-signed.
inject() {
  python3 - "$1" "$2" <<'PY'
import hashlib, json, sys
path, n = sys.argv[1], int(sys.argv[2])
doc = json.load(open(path))
state = {}
for key, value in doc["state"].items():
    state[key] = value
    if key == "genesis_paths":
        for i in range(n):
            state["unknown_%d" % i] = i
compact = json.dumps(state, separators=(",", ":"), ensure_ascii=False).encode()
digest = hashlib.sha256(b"gentle-ai.review-state/v2\0" + compact).hexdigest()
out = {"schema": doc["schema"], "revision": "sha256:" + digest, "state": state}
open(path, "w").write(json.dumps(out, indent=2, ensure_ascii=False) + "\n")
PY
}

# One timed command: "<wall s> <CPU s> <max RSS MiB>", each the median over --runs runs.
timed() {
  local setup=$1 command=$2 walls=() cpus=() rsses=()
  for _ in $(seq 1 "$runs"); do
    rm -rf "$repo" && cp -a "$template" "$repo"
    bash -o pipefail -c "$setup" >/dev/null || { echo "setup failed: $setup" >&2; exit 1; }
    /usr/bin/time -f '%e %U %S %M' -o "$work/time" bash -c "$command" >/dev/null ||
      { echo "failed: $command" >&2; exit 1; }
    read -r wall user sys rss <"$work/time"
    walls+=("$wall") && cpus+=("$(python3 -c "print($user + $sys)")") && rsses+=("$rss")
  done
  python3 -c 'import statistics as s,sys; m=lambda a: s.median(map(float, a.split()));
print("%.2f | %.2f | %.0f" % (m(sys.argv[1]), m(sys.argv[2]), m(sys.argv[3]) / 1024))' \
    "${walls[*]}" "${cpus[*]}" "${rsses[*]}"
}

echo "# mutations on a record with N unknown state members ($gai; $(nproc) cores; load $(cut -d' ' -f1 /proc/loadavg))"
echo "| N | command | wall s | CPU s | max RSS MiB |"
echo "|---|---|---|---|---|"
for n in $sizes; do
  repo=$work/repo
  template=$work/template-$n
  rm -rf "$repo" "$template"
  git init -q "$repo"
  echo base >"$repo/file.txt"
  git -C "$repo" add file.txt
  git -C "$repo" -c user.name=b -c user.email=b@b commit -q -m base
  echo changed >"$repo/file.txt"
  lineage=$("$gai" review start --cwd "$repo" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["lineage"])')
  record=$(git -C "$repo" rev-parse --absolute-git-dir)/gentle-ai/review-transactions/v2/$lineage/review-state.json
  inject "$record" "$n"
  "$gai" review index rebuild --cwd "$repo" >/dev/null
  mv "$repo" "$template"
  v="$gai review verdict --cwd $repo --lineage $lineage --actor bench --role reviewer --body bench"
  approve="$v --verdict APPROVE --json | python3 -c 'import json,sys; d=json.load(sys.stdin); open(\"$work/ack\",\"w\").write(d[\"token\"]+\" \"+d[\"revision\"]+\"\\n\")'"
  burn="read -r t r <$work/ack && $gai review burn --cwd $repo --lineage $lineage --token \$t --expected-revision \$r"
  while IFS='#' read -r name setup command; do
    echo "| $n | $name | $(timed "$setup" "$command") |"
  done <<EOS
verdict REQUEST_CHANGES#true#$v --verdict REQUEST_CHANGES
verdict APPROVE#true#$v --verdict APPROVE
invalidate#true#$gai review invalidate --cwd $repo --lineage $lineage --reason bench --actor bench
revise#$v --verdict REQUEST_CHANGES && echo again >>$repo/file.txt#$gai review revise --cwd $repo --lineage $lineage
burn#$approve#$burn
abandon#true#$gai review abandon --cwd $repo --lineage $lineage --reason operator_disposition --actor bench
status --lineage#true#$gai review status --cwd $repo --lineage $lineage
EOS
  rm -rf "$template"
done
