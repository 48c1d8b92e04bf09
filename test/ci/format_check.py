#!/usr/bin/env python3
#
# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
#
# ci_format: every C++ file of the tree is formatted as .clang-format says.
#   format_check.py [clang-format]
# Another major version of clang-format than the one the tree was formatted with (14,
# Debian 12's) may lay the same code out differently: the check is skipped then (exit 77,
# ctest's SKIP_RETURN_CODE), and says so. A missing clang-format fails it (tools/setup.sh
# installs it). To format the tree: git ls-files '*.hpp' '*.cpp' | xargs clang-format -i

import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
MAJOR = 14
FOLDERS = ("include", "src", "test", "example", "bench")


def sources():
    try:
        out = subprocess.run(["git", "-C", ROOT, "ls-files", "*.hpp", "*.cpp"],
                             capture_output=True, text=True, check=True).stdout.split()
        if out:
            return out
    except (OSError, subprocess.CalledProcessError):
        pass
    found = []
    for folder in FOLDERS:  # not a git checkout (a source archive): the source folders
        for dirpath, _, names in os.walk(os.path.join(ROOT, folder)):
            found += [os.path.relpath(os.path.join(dirpath, n), ROOT)
                      for n in names if n.endswith((".hpp", ".cpp"))]
    return found


def main():
    tool = sys.argv[1] if len(sys.argv) > 1 else (
        shutil.which(f"clang-format-{MAJOR}") or shutil.which("clang-format"))
    if not tool:
        print("format_check: no clang-format (Debian: apt-get install clang-format)")
        return 1
    version = subprocess.run([tool, "--version"], capture_output=True, text=True).stdout
    major = re.search(r"version (\d+)", version)
    if not major or int(major.group(1)) != MAJOR:
        print(f"format_check: skipped: {version.strip()} is not clang-format {MAJOR}")
        return 77
    files = sources()
    result = subprocess.run([tool, "--dry-run", "--Werror", "--style=file", *files], cwd=ROOT,
                            capture_output=True, text=True)
    unformatted = sorted(set(re.findall(r"^(\S+?):\d+:\d+: error", result.stderr, re.M)))
    for name in unformatted:
        print(f"{name}: not formatted as .clang-format says (clang-format -i {name})")
    print(f"format_check: {len(files)} files, {len(unformatted)} not formatted")
    return 1 if unformatted or result.returncode != 0 else 0


if __name__ == "__main__":
    sys.exit(main())
