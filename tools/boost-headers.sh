#!/usr/bin/env bash
# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
#
# Unpacks the headers of a newer Boost from Debian's own archive into a build folder,
# without installing anything into the system:
#
#   tools/boost-headers.sh VERSION DEST     e.g. tools/boost-headers.sh 1.88 build/boost
#
# VERSION is 1.83, 1.88 or 1.90: the Debian suite that carries libboostVERSION-dev is chosen
# below. apt runs with a private sources list and state directory under DEST, with the
# archive address and keyring this machine's own sources use, and `apt-get download` +
# `dpkg -x` unpack the package: DEST/VERSION/usr/include holds boost/, and the package's
# relocatable CMake configuration lies beside it. Prints the folder of BoostConfig.cmake,
# for `cmake -DBoost_DIR=...`. Idempotent: an unpacked version is reused.
set -euo pipefail

version=${1:?usage: boost-headers.sh VERSION DEST}
dest=${2:?usage: boost-headers.sh VERSION DEST}
case $version in
  1.83 | 1.88) suite=trixie ;;
  1.90) suite=sid ;;
  *) echo "boost-headers: no Debian suite known for Boost $version" >&2; exit 2 ;;
esac
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
include=$dest/$version/usr/include
config_dir() { ls -d "$dest/$version"/usr/lib/*/cmake/Boost-"$version".* 2>/dev/null | head -n 1; }
if [[ -f $include/boost/version.hpp && -n $(config_dir) ]]; then
  config_dir
  exit 0
fi

# The archive this machine already uses (deb822 or one-line sources), never a new one.
archive=$(grep -hE '^\s*URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null |
  awk '{print $2}' | grep -v -- '-security' | head -n 1)
if [[ -z $archive ]]; then
  archive=$(grep -hE '^\s*deb\s' /etc/apt/sources.list 2>/dev/null |
    grep -v -- '-security' | sed -E 's/^\s*deb\s+(\[[^]]*\]\s+)?(\S+).*/\2/' | head -n 1)
fi
[[ -n $archive ]] || { echo "boost-headers: no Debian archive in /etc/apt sources" >&2; exit 2; }
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

state=$dest/apt-$suite
mkdir -p "$state/lists/partial" "$state/cache/archives/partial" "$state/etc/preferences.d"
echo "deb [signed-by=$keyring] $archive $suite main" >"$state/etc/sources.list"
apt_options=(
  -o "Dir::Etc::SourceList=$state/etc/sources.list"
  -o "Dir::Etc::SourceParts=-"
  -o "Dir::Etc::Preferences=$state/etc/preferences"
  -o "Dir::Etc::PreferencesParts=$state/etc/preferences.d"
  -o "Dir::State=$state"
  -o "Dir::State::Lists=$state/lists"
  -o "Dir::State::status=/dev/null"
  -o "Dir::Cache=$state/cache"
  -o "APT::Get::List-Cleanup=0"
  -o "APT::Sandbox::User=root" # private folders the _apt user cannot write
)
if [[ ! -f $state/updated ]]; then
  apt-get "${apt_options[@]}" -qq update >&2
  touch "$state/updated"
fi
package=libboost$version-dev
(cd "$state/cache/archives" && apt-get "${apt_options[@]}" -qq download "$package" >&2)
deb=$(ls "$state/cache/archives/${package}"_*.deb | head -n 1)
dpkg -x "$deb" "$dest/$version"
rm -f "$deb"
[[ -f $include/boost/version.hpp && -n $(config_dir) ]] ||
  { echo "boost-headers: $deb has no boost/version.hpp or BoostConfig.cmake" >&2; exit 1; }
config_dir
