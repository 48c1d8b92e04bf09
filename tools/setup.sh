#!/usr/bin/env bash
# Installs the Debian 12 packages that the build, tests, examples and benchmarks need.
# Idempotent: asks apt only for what is missing. Run as root.
set -euo pipefail

packages=(
  cmake ninja-build g++ python3 python3-yaml
  libboost1.81-dev libboost-test1.81-dev libboost-context1.81-dev libboost1.81-tools-dev
  libssl-dev openssl libcurl4-openssl-dev curl wrk
  libboost1.81-doc libboost-coroutine1.81-dev python3-websockets patch
  strace gnuplot-nox ccache
  clang libclang-rt-14-dev clang-format
  doxygen
  g++-mingw-w64-x86-64-posix wine64
)

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
