#!/usr/bin/env bash
#
# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
#
# Loads the HTTP example server with wrk on the notify reactor (http_server) and on stock
# Boost.Asio (http_server_default), in turn, and prints the two side by side.
#
#   compare_http.sh <build-dir> [wrk options]      (default options: -t2 -c64 -d5s)
#
# Environment (all optional):
#   COMPARE_HTTP_NOTIFY_SERVER, COMPARE_HTTP_DEFAULT_SERVER   the two binaries
#                                      (default: <build-dir>/example/servers/http_server[_default],
#                                      with .exe where the build made Windows programs)
#   COMPARE_HTTP_RUNNER                a program that runs the servers: wine64 for the Windows
#                                      builds (MinGW-w64) under Wine, whose figures are Wine's,
#                                      not Windows performance, and are headed so
#   COMPARE_HTTP_SERVER_THREADS        threads running each server's io_context (default 1)
#   COMPARE_HTTP_FILE_SIZE             size in bytes of the file requested (default 1024)
#   COMPARE_HTTP_ROUNDS                rounds, each loading both servers in turn (default 3);
#                                      the table shows each figure's median over the rounds
#
# Exits 0 when both runs completed with requests and without errors. Both servers are
# stopped on every exit path.

set -euo pipefail

if [[ $# -lt 1 ]]; then
  echo "usage: $0 <build-dir> [wrk options]" >&2
  exit 2
fi
build_dir=$1
shift
wrk_options=("$@")
[[ ${#wrk_options[@]} -gt 0 ]] || wrk_options=(-t2 -c64 -d5s)

runner=${COMPARE_HTTP_RUNNER:-}
run_with=()
[[ -z $runner ]] || run_with=("$runner")
suffix=
[[ -e $build_dir/example/servers/http_server.exe ]] && suffix=.exe
notify_server=${COMPARE_HTTP_NOTIFY_SERVER:-$build_dir/example/servers/http_server$suffix}
default_server=${COMPARE_HTTP_DEFAULT_SERVER:-$build_dir/example/servers/http_server_default$suffix}
server_threads=${COMPARE_HTTP_SERVER_THREADS:-1}
file_size=${COMPARE_HTTP_FILE_SIZE:-1024}
rounds=${COMPARE_HTTP_ROUNDS:-3}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "compare_http: COMPARE_HTTP_ROUNDS must be a positive integer" >&2; exit 2; }

for tool in wrk curl "${run_with[@]}"; do
  command -v "$tool" >/dev/null || { echo "compare_http: $tool is not installed" >&2; exit 1; }
done
# A Windows program under Wine takes seconds to start where the wineserver is not running
# yet or the machine is busy.
start_limit=10
[[ -z $runner ]] || start_limit=45
for server in "$notify_server" "$default_server"; do
  [[ -x $server ]] || { echo "compare_http: no executable $server (build it first)" >&2; exit 1; }
done

# How long wrk runs (-d N / -dN / --duration N, in s or m; wrk's default is 10s), so that
# a wrk that does not end by itself is stopped well after that.
duration=10
for ((i = 0; i < ${#wrk_options[@]}; ++i)); do
  option=${wrk_options[i]}
  value=
  case $option in
    -d|--duration) value=${wrk_options[i+1]:-} ;;
    -d*) value=${option#-d} ;;
    --duration=*) value=${option#--duration=} ;;
  esac
  if [[ $value =~ ^([0-9]+)(s?)$ ]]; then duration=${BASH_REMATCH[1]}
  elif [[ $value =~ ^([0-9]+)m$ ]]; then duration=$((BASH_REMATCH[1] * 60))
  fi
done
wrk_time_limit=$((duration + 30))

work_dir=$(mktemp -d "${TMPDIR:-/tmp}/compare_http.XXXXXX")
server_pid=
server_port=

stop_server() {
  [[ -n $server_pid ]] || return 0
  # Wine turns SIGINT into the console's Ctrl-C, which stops the servers on Windows; SIGTERM
  # it lets kill the process unseen.
  kill "-$([[ -n $runner ]] && echo INT || echo TERM)" "$server_pid" 2>/dev/null || true
  for _ in $(seq 50); do                       # up to 5 s for a clean exit
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  server_pid=
}
cleanup() {
  stop_server
  rm -rf "$work_dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p "$work_dir/www"
printf '%*s' "$file_size" '' | tr ' ' 'x' > "$work_dir/www/page.txt"

# Starts <server> (in this shell, so that server_pid is ours to stop), waits for its
# "listening on port N" line and sets server_port to N.
start_server() {
  local binary=$1 log=$work_dir/server.out
  # Emptied here, not by the redirection below: that one happens in the background job, and
  # until it has, this shell would read the previous server's port.
  : > "$log"
  # Under Wine the Windows program takes "/a/b" as a path on the current drive, and Wine puts
  # the host's "/" on Z:, its current drive here: no translation is needed.
  "${run_with[@]}" "$binary" 0 "$work_dir/www" "$server_threads" > "$log" 2> "$work_dir/server.err" &
  server_pid=$!
  for _ in $(seq $((start_limit * 10))); do
    # The number is whole once the space after it has been written.
    server_port=$(sed -n 's/^listening on port \([0-9][0-9]*\) .*/\1/p' "$log")
    [[ -n $server_port ]] && return 0
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "compare_http: $binary did not start:" >&2
  cat "$work_dir/server.err" >&2
  return 1
}

# A wrk latency like 812.34us, 1.20ms or 2.00s, in milliseconds.
to_ms() {
  awk -v v="$1" 'BEGIN {
    n = v + 0; u = v; sub(/^[0-9.]+/, "", u)
    if (u == "us") n /= 1000; else if (u == "s") n *= 1000; else if (u == "m") n *= 60000
    printf "%.3f", n }'
}

# run <label> <binary>: loads one server and appends its figures to <label>_rps, _p50,
# _p99 and _requests (arrays, one entry per round).
run() {
  local label=$1 binary=$2 url out
  start_server "$binary"
  url=http://127.0.0.1:$server_port/page.txt

  # Before measuring anything: the server must answer correctly.
  if ! curl -sS --max-time 5 "$url" | cmp -s - "$work_dir/www/page.txt"; then
    echo "compare_http: $label server returned wrong content for $url" >&2
    return 1
  fi

  echo "loading $label ($(head -n1 "$work_dir/server.out" | tr -d '\r' | sed 's/^listening on port [0-9]* //'))..." >&2
  out=$work_dir/wrk-$label.txt
  if ! timeout "$wrk_time_limit" wrk "${wrk_options[@]}" --latency "$url" > "$out" 2>&1; then
    echo "compare_http: wrk failed or timed out against $label:" >&2
    cat "$out" >&2
    return 1
  fi
  stop_server

  local requests rps p50 p99
  requests=$(sed -n 's/^ *\([0-9]*\) requests in .*/\1/p' "$out")
  rps=$(sed -n 's/^Requests\/sec: *\([0-9.]*\).*/\1/p' "$out")
  p50=$(awk '$1 == "50%" { print $2 }' "$out")
  p99=$(awk '$1 == "99%" { print $2 }' "$out")
  if [[ -z $requests || $requests -eq 0 || -z $rps || -z $p50 || -z $p99 ]]; then
    echo "compare_http: no requests completed against $label:" >&2
    cat "$out" >&2
    return 1
  fi
  if grep -Eq 'Socket errors|Non-2xx' "$out"; then
    echo "compare_http: wrk reported errors against $label:" >&2
    grep -E 'Socket errors|Non-2xx' "$out" >&2
    return 1
  fi
  local -n requests_of=${label}_requests rps_of=${label}_rps p50_of=${label}_p50 p99_of=${label}_p99
  requests_of+=("$requests")
  rps_of+=("$rps")
  p50_of+=("$(to_ms "$p50")")
  p99_of+=("$(to_ms "$p99")")
}

# The median of its arguments (the lower middle one of an even count).
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# Both servers in turn, round after round, which of them goes first alternating: what drifts
# on the machine meanwhile (another program, glibc's heap trimming, which makes either
# server's figures swing by several percent from one run to the next) reaches both alike, and
# the medians keep single outliers out.
notify_requests=() notify_rps=() notify_p50=() notify_p99=()
default_requests=() default_rps=() default_p50=() default_p99=()
for ((round = 1; round <= rounds; ++round)); do
  echo "round $round of $rounds" >&2
  if ((round % 2)); then
    run notify "$notify_server"
    run default "$default_server"
  else
    run default "$default_server"
    run notify "$notify_server"
  fi
done
for label in notify default; do
  for figure in requests rps p50 p99; do
    declare -n values=${label}_${figure}
    printf -v "${label}_${figure}_median" '%s' "$(median "${values[@]}")"
    unset -n values
  done
done

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }'; }

echo
if [[ -n $runner ]]; then
  echo "Windows builds ($(basename "$notify_server"), $(basename "$default_server")) run by $runner:"
  echo "Wine's figures (its emulation of IOCP, AFD and the sockets), not Windows performance"
fi
echo "HTTP GET of a $file_size-byte file, wrk ${wrk_options[*]} --latency, $server_threads server thread(s)"
echo "medians of $rounds round(s), each loading both servers in turn, the first one alternating"
echo
printf '%-18s %14s %14s %16s\n' "" notify default notify/default
printf '%-18s %14.1f %14.1f %16s\n' "requests/s" "$notify_rps_median" "$default_rps_median" \
  "$(ratio "$notify_rps_median" "$default_rps_median")"
printf '%-18s %14.3f %14.3f %16s\n' "latency p50 (ms)" "$notify_p50_median" "$default_p50_median" \
  "$(ratio "$notify_p50_median" "$default_p50_median")"
printf '%-18s %14.3f %14.3f %16s\n' "latency p99 (ms)" "$notify_p99_median" "$default_p99_median" \
  "$(ratio "$notify_p99_median" "$default_p99_median")"
printf '%-18s %14s %14s\n' "requests" "$notify_requests_median" "$default_requests_median"
echo
echo "requests/s of each round: notify ${notify_rps[*]}; default ${default_rps[*]}"
echo "(requests/s: higher is better; latency: lower is better)"
