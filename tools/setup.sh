#!/usr/bin/env bash
# Installs the Debian 12 packages that the build, tests, examples and benchmarks need.
# Idempotent: asks apt only for what is missing. Run as root.
# Usage: tools/setup.sh [main-job]
#   main-job  only what tools/main-job.sh needs: the compilers, CMake, Ninja, Boost's headers,
#             curl, wrk, MinGW-w64 and Wine (no Clang, Doxygen, Beast's examples, test
#             libraries or tools: about 100 MB less to download)
set -euo pipefail

main_job_packages=(
  cmake ninja-build g++ libboost1.81-dev curl wrk
  g++-mingw-w64-x86-64-posix wine64
)
packages=(
  "${main_job_packages[@]}"
  python3 python3-yaml
  libboost-test1.81-dev libboost-context1.81-dev libboost1.81-tools-dev
  libssl-dev openssl libcurl4-openssl-dev
  libboost1.81-doc libboost-coroutine1.81-dev python3-websockets patch
  strace linux-perf valgrind gnuplot-nox ccache
  clang libclang-rt-14-dev clang-format
  doxygen
)
case ${1:-} in
  "") ;;
  main-job) packages=("${main_job_packages[@]}") ;;
  *) echo "usage: $0 [main-job]" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
echo "setup: all packages present"
