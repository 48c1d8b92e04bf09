#!/usr/bin/env python3
# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
#
# Checks .github/workflows/*.yml, which no machine here can run: each parses as YAML and has
# the shape GitHub Actions requires (on, jobs; each job runs-on and steps; each step uses or
# run), and the Windows job runs on windows-2022 (build 20348: ProcessSocketNotifications)
# and runs the suites on both Windows backends. Exit status 0 when all hold.
import pathlib
import sys

import yaml


def fail(message):
    print("workflow_check: " + message)
    sys.exit(1)


def check(path):
    doc = yaml.safe_load(path.read_text())
    if not isinstance(doc, dict):
        fail(f"{path}: not a mapping")
    # YAML 1.1 reads the key `on` as the boolean True.
    if "on" not in doc and True not in doc:
        fail(f"{path}: no 'on' triggers")
    jobs = doc.get("jobs")
    if not isinstance(jobs, dict) or not jobs:
        fail(f"{path}: no jobs")
    for name, job in jobs.items():
        if "runs-on" not in job:
            fail(f"{path}: job {name} has no runs-on")
        steps = job.get("steps")
        if not isinstance(steps, list) or not steps:
            fail(f"{path}: job {name} has no steps")
        for i, step in enumerate(steps):
            if ("uses" in step) == ("run" in step):
                fail(f"{path}: job {name} step {i} needs exactly one of uses/run")
    return jobs


def main():
    root = pathlib.Path(__file__).resolve().parents[2]
    files = sorted((root / ".github" / "workflows").glob("*.yml"))
    if not files:
        fail("no workflow files")
    for path in files:
        jobs = check(path)
        windows = [j for j in jobs.values() if j.get("runs-on") == "windows-2022"]
        if windows:
            runs = " ".join(str(s.get("run", "")) for s in windows[0]["steps"])
            for needle in ("_psn$", "_afd$", "ctest"):
                if needle not in runs:
                    fail(f"{path}: the Windows job does not run '{needle}'")
        print(f"workflow_check: {path.relative_to(root)}: {len(jobs)} jobs, well formed")


main()
