#!/usr/bin/env bash
# watch-cycle.sh BUILD_DIR [PRS] [CYCLES]: the PR daemon's cost (docs/watch.md, docs/performance.md).
#
# Starts tests/tools/fake_forge.py as a Gitea forge on 127.0.0.1 (port chosen by the OS) holding
# PRS open PRs (default 100), lets `review watch --once --json` record them (the baseline cycle),
# then measures one cycle over the unchanged PRs: requests, 304s and the process's CPU time
# (user + system). Then runs CYCLES more cycles (default 1000), one process each with the clock
# moved 30 s per cycle (the test build's GENTLE_FIXED_TIME, so every PR is due every cycle), and
# reports the largest resident set of any of them (flat: no state grows in memory across cycles,
# it is all in review-loop.sqlite). Uses BUILD_DIR/gentle-ai-test (the fixed clock is a test hook).
set -euo pipefail
build=$(cd "${1:?usage: watch-cycle.sh BUILD_DIR [PRS] [CYCLES]}" && pwd)
prs=${2:-100}
cycles=${3:-1000}
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$build/gentle-ai-test
work=$(mktemp -d /tmp/gentle-ai-watch-bench-XXXXXX)
pid=
cleanup() { [[ -n "$pid" ]] && kill "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null LC_ALL=C GITEA_TOKEN=bench

python3 - "$prs" >"$work/world.json" <<'PY'
import json, sys
n = int(sys.argv[1])
pulls = {f"acme/webapp#{i}": {"number": i, "state": "open", "draft": False, "mergeable": True,
         "head": {"sha": "a" * 40, "ref": f"topic-{i}"}, "updated_at": "2026-12-01T09:00:00Z"}
         for i in range(1, n + 1)}
print(json.dumps({"pulls": pulls}))
PY
coproc FORGE { exec python3 "$root/tests/tools/fake_forge.py" --kind gitea --world "$work/world.json" --log "$work/requests.log"; }
pid=$FORGE_PID
read -r port <&"${FORGE[0]}"

git init -q "$work/repo"
git -C "$work/repo" remote add origin "http://127.0.0.1:$port/acme/webapp.git"
args=()
for ((i = 1; i <= prs; i++)); do args+=(--pr "gitea:acme/webapp#$i"); done

at() { date -u -d "@$((1796000000 + $1))" +%Y-%m-%dT%H:%M:%SZ; }
run() {  # run SECONDS: one cycle at that time; prints "user sys maxrss_kb" on fd 3
  GENTLE_FIXED_TIME=$(at "$1") /usr/bin/time -f '%U %S %M' -o "$work/time" \
    "$bin" review watch --once --json --cwd "$work/repo" "${args[@]}" >"$work/out.json"
  cat "$work/time"
}
run 0 >/dev/null
read -r user sys rss < <(run 30)
python3 - "$work/out.json" "$user" "$sys" "$prs" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
cpu_ms = (float(sys.argv[2]) + float(sys.argv[3])) * 1000
print(f"one cycle over {sys.argv[4]} unchanged PRs: {d['requests']} requests, "
      f"{d['not_modified']} answered 304, {len(d['hints'])} hints, CPU {cpu_ms:.0f} ms")
PY
max=0
for ((c = 2; c <= cycles + 1; c++)); do
  read -r _ _ rss < <(run $((30 * c)))
  ((rss > max)) && max=$rss
done
echo "$cycles further cycles: largest resident set ${max} KB"
