#!/usr/bin/env python3
# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
"""Checks that the documentation says what the repository holds.

  doc_check.py rules   every "rule N" cited in the sources and pages has its section
                       (anchor rule-N) in doc/port_contract.md, whose rules are 1 to 12 in
                       order; every test the page names exists, and every ruleN_* test case
                       is named in rule N's section
  doc_check.py links   every relative link and image of the Markdown pages resolves (file
                       and anchor); doc/index.md and README.md link to every doc page
  doc_check.py howto   every C++ block of doc/switching.md is the text of a file of
                       example/howto/, and each of those files is shown whole

Exits with 0 when everything holds, 1 with one line per problem otherwise.
"""
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CONTRACT = "doc/port_contract.md"
SOURCE_DIRS = ["include", "src", "test", "example", "bench", "doc", "tools", ".ci", "cmake"]
SOURCE_SUFFIXES = (".hpp", ".cpp", ".md", ".cmake", ".py", ".sh", ".txt", ".jam")
PAGES = ["README.md", "CHANGELOG.md", "bench/README.md", "example/servers/README.md"]


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


def source_files():
    for top in SOURCE_DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, top)):
            dirnames[:] = [d for d in dirnames if d != "__pycache__"]
            for name in filenames:
                if name.endswith(SOURCE_SUFFIXES) or name in ("CMakeLists.txt", "Jamfile"):
                    yield os.path.relpath(os.path.join(dirpath, name), ROOT)
    for name in ("README.md", "CHANGELOG.md", "CMakeLists.txt", "Jamfile", "Jamroot", "build.jam"):
        if os.path.exists(os.path.join(ROOT, name)):
            yield name


# ---- rules ----------------------------------------------------------------------------

CITATION = re.compile(r"\b[Rr]ules?\s+(\d+(?:\s*(?:,|and|or)\s*\d+)*)")
TEST_NAME_CITATION = re.compile(r"\brule(\d+)_\w+")
ANCHOR_LINK = re.compile(r"#rule-(\d+)\b")
RULE_HEADING = re.compile(r'^#+ <a id="rule-(\d+)"></a>Rule (\d+)\b', re.M)
TEST_CASE = re.compile(r"BOOST_(?:AUTO|DATA|FIXTURE)_TEST_CASE\(\s*(\w+)")


def test_cases():
    cases = {}
    for path in source_files():
        if path.startswith("test/") and path.endswith(".cpp"):
            for name in TEST_CASE.findall(read(path)):
                cases.setdefault(name, path)
    return cases


def rule_sections(page):
    """{N: the text of rule N's section}"""
    headings = list(RULE_HEADING.finditer(page))
    sections = {}
    for i, m in enumerate(headings):
        end = headings[i + 1].start() if i + 1 < len(headings) else page.find("\n## ", m.end())
        sections[int(m.group(1))] = page[m.start():end if end >= 0 else len(page)]
    return headings, sections


def check_rules():
    problems = []
    page = read(CONTRACT)
    headings, sections = rule_sections(page)
    numbers = [int(m.group(1)) for m in headings]
    if numbers != list(range(1, 13)):
        problems.append(f"{CONTRACT}: rule sections {numbers}, expected 1 to 12 in order")
    for m in headings:
        if m.group(1) != m.group(2):
            problems.append(f"{CONTRACT}: anchor rule-{m.group(1)} on the heading of rule {m.group(2)}")
    known = set(numbers)

    citations = 0
    for path in source_files():
        text = read(path)
        for lineno, line in enumerate(text.splitlines(), 1):
            cited = []
            for m in CITATION.finditer(line):
                cited += [int(n) for n in re.findall(r"\d+", m.group(1))]
            cited += [int(n) for n in TEST_NAME_CITATION.findall(line)]
            cited += [int(n) for n in ANCHOR_LINK.findall(line)]
            for n in cited:
                citations += 1
                if n not in known:
                    problems.append(f"{path}:{lineno}: cites rule {n}, which {CONTRACT} does not have")

    cases = test_cases()
    for n, section in sections.items():
        for block in re.findall(r"\*\*Tests\.\*\*(.*?)(?=\n- \*\*|\n#|\Z)", section, re.S):
            for name in re.findall(r"`([a-z][a-z0-9_]*_[a-z0-9_]*)`", block):
                if name not in cases:
                    problems.append(f"{CONTRACT}: rule {n} names test {name}, which no test defines")
    for name, path in sorted(cases.items()):
        m = re.match(r"rule(\d+)_", name)
        if m and f"`{name}`" not in sections.get(int(m.group(1)), ""):
            problems.append(f"{path}: test {name} is not named in rule {m.group(1)}'s section of {CONTRACT}")
    return problems, f"{citations} citations of rules, {len(cases)} test cases"


# ---- links ----------------------------------------------------------------------------

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def slug(heading):
    text = re.sub(r"<[^>]+>", "", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    text = re.sub(r"```.*?```", "", read(path), flags=re.S)
    found = set(re.findall(r'<a (?:id|name)="([^"]+)"', text))
    seen = {}
    for heading in re.findall(r"^#+ (.+)$", text, re.M):
        s = slug(heading)
        found.add(s if s not in seen else f"{s}-{seen[s]}")
        seen[s] = seen.get(s, 0) + 1
    return found


def markdown_pages():
    pages = [p for p in PAGES if os.path.exists(os.path.join(ROOT, p))]
    pages += sorted("doc/" + n for n in os.listdir(os.path.join(ROOT, "doc")) if n.endswith(".md"))
    return pages


def check_links():
    problems = []
    links = 0
    for page in markdown_pages():
        text = re.sub(r"```.*?```", "", read(page), flags=re.S)
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target):
                continue  # http:, https:, mailto:
            links += 1
            path, _, anchor = target.partition("#")
            resolved = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
            if not os.path.exists(os.path.join(ROOT, resolved)):
                problems.append(f"{page}: link to {target}: no file {resolved}")
            elif anchor and resolved.endswith(".md") and anchor not in anchors(resolved):
                problems.append(f"{page}: link to {target}: no heading or anchor '{anchor}' in {resolved}")

    doc_pages = sorted(n for n in os.listdir(os.path.join(ROOT, "doc")) if n.endswith(".md"))
    index = read("doc/index.md")
    readme = read("README.md")
    for name in doc_pages:
        if name != "index.md" and f"]({name}" not in index:
            problems.append(f"doc/index.md: no link to doc/{name}")
        if f"](doc/{name}" not in readme:
            problems.append(f"README.md: no link to doc/{name}")
    return problems, f"{links} relative links in {len(markdown_pages())} pages"


# ---- howto ----------------------------------------------------------------------------

def check_howto():
    problems = []
    page = read("doc/switching.md")
    blocks = [b.rstrip("\n") for b in re.findall(r"^```cpp\n(.*?)^```$", page, re.S | re.M)]
    folder = "example/howto"
    sources = {n: read(f"{folder}/{n}").rstrip("\n")
               for n in sorted(os.listdir(os.path.join(ROOT, folder))) if n.endswith(".cpp")}
    if not sources:
        problems.append(f"{folder}: no examples")
    for i, block in enumerate(blocks, 1):
        lines = block.split("\n")
        if not any(("\n" + s + "\n").find("\n" + "\n".join(lines) + "\n") >= 0 for s in sources.values()):
            problems.append(f"doc/switching.md: C++ block {i} ({lines[0]!r}...) is not the text of any "
                            f"file of {folder}")
    for name, text in sources.items():
        if text not in blocks:
            problems.append(f"doc/switching.md: {folder}/{name} is not shown whole")
    return problems, f"{len(blocks)} C++ blocks, {len(sources)} examples"


def main():
    checks = {"rules": check_rules, "links": check_links, "howto": check_howto}
    if len(sys.argv) != 2 or sys.argv[1] not in checks:
        print(__doc__)
        return 2
    problems, summary = checks[sys.argv[1]]()
    for p in problems:
        print(p)
    print(f"doc_check {sys.argv[1]}: {summary}, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
