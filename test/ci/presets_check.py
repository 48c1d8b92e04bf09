#!/usr/bin/env python3
# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
"""Checks CMakePresets.json against CMake and against the test command that uses it.

  presets_check.py <cmake>

- `cmake --list-presets=all` accepts the file (JSON, schema, inheritance, macros);
- every configure preset that is not hidden has a build and a test preset of its name;
- every preset tools/test.sh and .ci/windows-cross.sh name exists (boost-$version for each
  version test.sh builds);
- test.sh's list of stages (all_stages: what `--list` prints, what it runs, in order) has
  one stage function each, defined in that order.
Exits with 0 when all hold, 1 with one line per problem otherwise.
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


def stage_list_problems(script):
    """test.sh's all_stages (what `--list` prints, what it runs, in order) against its stage
    functions: stage_<name>, with '-' and '.' as '_'."""
    listed = re.search(r"^all_stages=\(([^)]*)\)", script, re.M)
    if not listed:
        return ["tools/test.sh: no all_stages"]
    listed = [re.sub(r"[-.]", "_", n) for n in listed.group(1).split()]
    defined = re.findall(r"^stage_(\w+)\(\)", script, re.M)
    if listed != defined:
        return [f"tools/test.sh: all_stages {listed}, but its stage functions are {defined}"]
    return []


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    problems = []
    listed = subprocess.run([sys.argv[1], "--list-presets=all"], cwd=ROOT, capture_output=True, text=True)
    if listed.returncode != 0:
        problems.append(f"cmake --list-presets=all failed: {listed.stderr.strip()}")

    presets = json.loads(read("CMakePresets.json"))
    configure = {p["name"]: p for p in presets.get("configurePresets", [])}
    build = {p["name"]: p for p in presets.get("buildPresets", [])}
    test = {p["name"]: p for p in presets.get("testPresets", [])}
    visible = [n for n, p in configure.items() if not p.get("hidden")]
    for name in visible:
        for kind, table in (("build", build), ("test", test)):
            if name not in table:
                problems.append(f"CMakePresets.json: configure preset {name} has no {kind} preset")

    script = read("tools/test.sh")
    used = set(re.findall(r"--preset[ =]\"?([\w.-]+)", script))
    used |= set(re.findall(r"ctest_build ([\w.-]+) ", script))
    used |= set(re.findall(r"^\s*configure ([\w.-]+) ", script, re.M))
    used |= set(re.findall(r"--preset[ =]\"?([\w.-]+)", read(".ci/windows-cross.sh")))
    versions = re.findall(r"boost_build (\d+\.\d+)", script)
    for loop in re.findall(r"for version in ([\d. ]+);", script):
        versions += loop.split()
    if "boost-$version" in script:
        used |= {f"boost-{v}" for v in versions}
    used = {u for u in used if "$" not in u}
    if not used:
        problems.append("tools/test.sh names no preset")
    for name in sorted(used):
        if name not in configure or configure[name].get("hidden"):
            problems.append(f"a script uses preset {name}, which CMakePresets.json does not have")

    problems += stage_list_problems(script)
    for p in problems:
        print(p)
    print(f"presets_check: {len(configure)} configure presets, {len(used)} used by the scripts, "
          f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
