# Shared helpers of the bench/ scripts (source it: `. "$(dirname "$0")/lib.sh"`).
#
#   bench_parse NAME=DEFAULT ... -- "$@"
#       sets each NAME to DEFAULT, then to VALUE for every `--name VALUE` given (a NAME's
#       underscores are dashes on the command line); any other argument exits 2.
#   bench_require PROGRAM ...    exits 2 naming the first program that is not executable.
#   bench_pinned_git WORK        runs git with no system or user configuration from then on.
#   bench_measure OUT COMMAND... runs COMMAND once under /usr/bin/time -v, its stdout to OUT,
#                                and prints "wall / user s / peak RSS MB / exit" (MB = 10^6 bytes).
#   bench_load                   the 1-minute load average.

bench_parse() {
  local spec=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do spec+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  local s
  for s in "${spec[@]}"; do printf -v "${s%%=*}" '%s' "${s#*=}"; done
  while [ $# -gt 0 ]; do
    local flag=$1 name known=0
    name=${flag#--}
    name=${name//-/_}
    for s in "${spec[@]}"; do [ "--${s%%=*}" = "--$name" ] && [ "$flag" != "$name" ] && known=1; done
    if [ $known = 0 ] || [ $# -lt 2 ]; then
      echo "unknown argument or missing value: $flag" >&2
      exit 2
    fi
    printf -v "$name" '%s' "$2"
    shift 2
  done
}

bench_require() {
  local p
  for p in "$@"; do
    [ -x "$p" ] || { echo "needs $p" >&2; exit 2; }
  done
}

bench_pinned_git() {
  export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=$1
}

bench_measure() {
  local out=$1
  shift
  local rc=0 dir
  dir=$(mktemp -d)
  /usr/bin/time -v -o "$dir/time.txt" "$@" >"$out" 2>"$dir/stderr.txt" || rc=$?
  local wall user kb
  wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$dir/time.txt")
  user=$(sed -n 's/.*User time (seconds): //p' "$dir/time.txt")
  kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$dir/time.txt")
  rm -rf "$dir"
  echo "$wall / $user / $((kb * 1024 / 1000000)) / $rc"
}

bench_load() { cut -d' ' -f1 /proc/loadavg; }
