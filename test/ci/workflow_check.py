#!/usr/bin/env python3
# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
#
# Checks .github/workflows/*.yml, which no machine here can run: each parses as YAML and has
# the shape GitHub Actions requires (on, jobs; each job runs-on and steps; each step uses or
# run), and the Windows job runs on windows-2022 (build 20348: ProcessSocketNotifications)
# and runs the suites on both Windows backends. The Windows job must also be able to run:
# no POSIX shell or path in its steps, nothing Windows' Python lacks in the scripts its tests
# run (example/servers/smoke_test.py and its package smoke/), and every test in one of its
# ctest selections, each of which .ci/windows-cross.sh runs under Wine too. Exit status 0
# when all hold.
import ast
import pathlib
import shlex
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


# Modules and names that Windows' Python does not have. The smoke tests may use others of
# POSIX's only where a launcher for POSIX runs them (class Native, out_of_descriptors).
POSIX_MODULES = {"resource", "fcntl", "termios", "pwd", "grp", "pty", "tty", "posix", "crypt",
                 "syslog"}
POSIX_NAMES = {"SIGALRM", "alarm", "setitimer", "fork", "forkpty", "killpg", "setsid",
               "setpgrp", "getpgid", "getpgrp", "SIGKILL", "SIGHUP", "SIGQUIT", "SIGUSR1",
               "SIGUSR2", "SIGCHLD"}


def check_portable_python(path):
    """No POSIX-only module imported at the top (the import alone fails on Windows), none
    of POSIX_NAMES used, no /dev path."""
    tree = ast.parse(path.read_text(), str(path))
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
            for name in names:
                if name.split(".")[0] in POSIX_MODULES:
                    fail(f"{path}:{node.lineno}: imports {name}, which Windows lacks, at the top")
    for node in ast.walk(tree):
        name = node.attr if isinstance(node, ast.Attribute) else \
            node.id if isinstance(node, ast.Name) else None
        if name in POSIX_NAMES:
            fail(f"{path}:{node.lineno}: uses {name}, which Windows lacks")
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                node.value.startswith("/dev/"):
            fail(f"{path}:{node.lineno}: names {node.value} (os.devnull is portable)")


def check_windows_job(path, job, root):
    """The Windows job's steps run in PowerShell or cmd, with no POSIX path or script; its
    ctest selections cover every test (the -E one excludes exactly what the -R ones
    include) and .ci/windows-cross.sh runs each of them under Wine."""
    default_shell = job.get("defaults", {}).get("run", {}).get("shell", "pwsh")
    selections = []
    for i, step in enumerate(job["steps"]):
        if "run" not in step:
            continue
        shell = str(step.get("shell", default_shell)).split()[0]
        if shell not in ("pwsh", "powershell", "cmd"):
            fail(f"{path}: Windows step {i} runs in {shell}, not PowerShell or cmd")
        run = str(step["run"])
        for posix in ("/dev/", ".sh ", "bash ", "sudo ", "export "):
            if posix in run + " ":
                fail(f"{path}: Windows step {i} runs {posix.strip()!r}, POSIX-only")
        for line in run.splitlines():
            words = shlex.split(line)
            if words[:1] == ["ctest"]:
                selections += [(flag, value) for flag, value in zip(words, words[1:])
                               if flag in ("-R", "-E")]
    cross = (root / ".ci" / "windows-cross.sh").read_text()
    for flag, value in selections:
        if f"{flag} '{value}'" not in cross:
            fail(f"{path}: the Windows job's ctest {flag} \"{value}\" is not run under Wine by"
                 f" .ci/windows-cross.sh (run_ctest {flag} '{value}')")
    included = {a for flag, value in selections if flag == "-R" for a in value.split("|")}
    excluded = [set(value.split("|")) for flag, value in selections if flag == "-E"]
    if not included or excluded != [included]:
        fail(f"{path}: the Windows job's ctest runs do not cover every test once: -R"
             f" {sorted(included)}, -E {[sorted(e) for e in excluded]}")


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
            check_windows_job(path, windows[0], root)
            servers = root / "example" / "servers"
            for script in [servers / "smoke_test.py", *sorted(servers.glob("smoke/*.py"))]:
                check_portable_python(script)
        print(f"workflow_check: {path.relative_to(root)}: {len(jobs)} jobs, well formed")


main()
