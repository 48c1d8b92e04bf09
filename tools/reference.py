#!/usr/bin/env python3
# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
"""Writes doc/reference.md from the public headers' declarations and doc comments.

  tools/reference.py          write doc/reference.md
  tools/reference.py --check  exit 1, saying why, when doc/reference.md is not what the
                              headers give, or when the doc comments break a rule below
                              (the ctest test ci_doc_reference)
  tools/reference.py --list   print every public name found and the first line of its doc

The public headers are include/boost/asio_notify.hpp and include/boost/asio_notify/**.hpp
outside detail/. Their public names are everything they declare in namespace
boost::asio_notify outside `detail`: classes, enums and their values, functions, type
aliases, variables and constants, and the public and protected members of those classes,
nested classes included. Members a public class inherits from a class in `detail` (the
sockets' common base) are public names of that class too, and are shown with it.

The rules --check enforces:
  - every public name has a doc comment (`/** ... */`, `///`, or `///<` after it). A doc
    comment before `#if` serves each declaration of that name in the group's branches;
  - a member declared in detail/ may be documented in a public header by a comment block
    that starts with Doxygen's `@fn <declaration>`, which replaces the declaration's own
    (internal) comment in the reference; each such block names exactly one declaration, and
    no declaration has two;
  - each public header has a `@file` comment;
  - `@param NAME` names a parameter of its function;
  - only the Doxygen commands this script renders are used (see COMMANDS).

Standard library only; nothing is hard-coded about what the headers hold, so whatever they
declare appears. Doxygen can read the same comments.
"""
import difflib
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
INCLUDE = os.path.join(ROOT, "include")
OUTPUT = "doc/reference.md"
REGENERATE = "python3 tools/reference.py"
ASIO_REFERENCE = "https://www.boost.org/doc/libs/release/doc/html/boost_asio/reference/"

COMMANDS = {"param", "tparam", "returns", "return", "throws", "throw", "par", "code",
            "endcode", "note", "see", "li", "c", "p", "fn", "file", "brief"}


class ParseError(Exception):
    pass


# ---- lexer ------------------------------------------------------------------------------

class Tok:
    __slots__ = ("kind", "text", "space", "line", "style")

    def __init__(self, kind, text, space, line, style=None):
        self.kind = kind    # id, num, str, punct, doc, pp
        self.text = text
        self.space = space  # whitespace (or a comment) before it
        self.line = line    # where it starts; for a doc comment, where it ends
        self.style = style  # doc comments: "line" (///), "block" (/** */), "trailing" (///<)

    def __repr__(self):
        return f"{self.kind}:{self.text!r}@{self.line}"


PUNCT = ["...", "::", "->", "&&", "||", "==", "!=", "<=", ">=", "+=", "-=", "|=", "&=",
         "<<=", ">>="]
IDENT = re.compile(r"[A-Za-z_]\w*")
NUMBER = re.compile(r"\.?[0-9](?:[0-9A-Za-z_.']|[eEpP][+-])*")


def lex(text, path):
    toks = []
    i, n, line = 0, len(text), 1
    space, line_start = True, True
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
            space = line_start = True
            continue
        if c in " \t\r\f\v":
            i += 1
            space = True
            continue
        if c == "#" and line_start:
            start_line = line
            parts = []
            while True:
                end = text.find("\n", i)
                end = n if end < 0 else end
                segment = text[i:end]
                if segment.endswith("\\"):
                    parts.append(segment[:-1])
                    i = end + 1
                    line += 1
                    continue
                parts.append(segment)
                i = end
                break
            directive = " ".join(parts)
            directive = re.sub(r"/\*.*?\*/", " ", directive)
            directive = re.sub(r"//.*", "", directive).strip()
            toks.append(Tok("pp", directive, True, start_line))
            space = True
            continue
        line_start = False
        if text.startswith("///<", i) or text.startswith("//!<", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            toks.append(Tok("doc", text[i + 4:end], True, line, "trailing"))
            i = end
            space = True
            continue
        if (text.startswith("///", i) and not text.startswith("////", i)) or text.startswith("//!", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            body = text[i + 3:end]
            prev = toks[-1] if toks else None
            if prev is not None and prev.kind == "doc" and prev.style == "line" and prev.line == line - 1:
                prev.text += "\n" + body
                prev.line = line
            else:
                toks.append(Tok("doc", body, True, line, "line"))
            i = end
            space = True
            continue
        if (text.startswith("/**", i) and not text.startswith("/**/", i)) or text.startswith("/*!", i):
            end = text.find("*/", i + 3)
            if end < 0:
                raise ParseError(f"{path}:{line}: unterminated comment")
            body = text[i + 3:end]
            line += body.count("\n")
            toks.append(Tok("doc", body, True, line, "block"))
            i = end + 2
            space = True
            continue
        if text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
            space = True
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                raise ParseError(f"{path}:{line}: unterminated comment")
            line += text.count("\n", i, end)
            i = end + 2
            space = True
            continue
        m = IDENT.match(text, i)
        if m:
            word = m.group(0)
            if word in ("R", "LR", "uR", "UR", "u8R") and text.startswith('"', m.end()):
                open_end = text.index("(", m.end())
                delim = text[m.end() + 1:open_end]
                close = text.index(")" + delim + '"', open_end)
                literal = text[i:close + len(delim) + 2]
                toks.append(Tok("str", literal, space, line))
                line += literal.count("\n")
                i += len(literal)
                space = False
                continue
            if word in ("L", "u", "U", "u8") and text.startswith(('"', "'"), m.end()):
                i = m.end()  # the prefix goes with the literal below
                c = text[i]
            else:
                toks.append(Tok("id", word, space, line))
                i = m.end()
                space = False
                continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            toks.append(Tok("str", text[i:j + 1], space, line))
            i = j + 1
            space = False
            continue
        m = NUMBER.match(text, i)
        if m:
            toks.append(Tok("num", m.group(0), space, line))
            i = m.end()
            space = False
            continue
        for p in sorted(PUNCT, key=len, reverse=True):
            if text.startswith(p, i):
                toks.append(Tok("punct", p, space, line))
                i += len(p)
                break
        else:
            toks.append(Tok("punct", c, space, line))
            i += 1
        space = False
    return toks


def join(toks):
    """The tokens as source text, whitespace collapsed to single spaces."""
    out = []
    for t in toks:
        if t.kind in ("doc", "pp"):
            continue
        if out and t.space:
            out.append(" ")
        out.append(t.text)
    return "".join(out).strip()


# ---- doc comment text ---------------------------------------------------------------------

def dedent(lines):
    indents = [len(l) - len(l.lstrip()) for l in lines if l.strip()]
    cut = min(indents) if indents else 0
    return [l[cut:].rstrip() for l in lines]


def clean_doc(tok):
    """The text of a doc comment without its comment markers, common indentation removed."""
    if tok.style in ("line", "trailing"):
        return "\n".join(dedent(tok.text.split("\n"))).strip("\n")
    lines = tok.text.split("\n")
    first, rest = lines[0].strip(), lines[1:]
    if rest and rest[-1].strip() == "":
        rest = rest[:-1]
    if rest and all(re.match(r"\s*\*", l) for l in rest if l.strip()):
        rest = [re.sub(r"^\s*\* ?", "", l) for l in rest]
    rest = dedent(rest)
    return "\n".join([first] + rest).strip("\n")


# ---- parser -------------------------------------------------------------------------------

class Entity:
    def __init__(self, kind, name, scope, header, line):
        self.kind = kind          # class, enum, enumerator, function, alias, variable, using
        self.name = name
        self.scope = scope        # enclosing namespaces and classes, outermost first
        self.header = header      # path relative to include/
        self.line = line
        self.doc = None           # the cleaned doc comment
        self.doc_from = None      # where a doc given elsewhere (`@fn`) came from
        self.declared_in = None   # a detail header that declares a public name
        self.access = "public"
        self.signature = ""
        self.template = ""
        self.params = []          # parameter names (functions)
        self.param_text = ""      # the parameter list, normalised (functions)
        self.const = False
        self.deleted = False
        self.conditions = []      # the #if conditions around it: (group, branch, text)
        self.members = []         # classes and enums
        self.bases = []           # classes: (access, text)
        self.class_key = ""       # class or struct
        self.value = ""           # enumerators
        self.forward = False      # a class declared, not defined

    @property
    def qualified(self):
        return "::".join(self.scope + [self.name])

    @property
    def is_public_scope(self):
        return self.scope[:2] == ["boost", "asio_notify"] and "detail" not in self.scope \
            and "" not in self.scope


SPECIFIERS = {"static", "constexpr", "inline", "explicit", "virtual", "extern", "mutable",
              "BOOST_ASIO_NOTIFY_DECL", "BOOST_ASIO_NODISCARD", "consteval", "constinit"}
NOT_NAMES = {"decltype", "alignas", "noexcept", "sizeof", "alignof", "__attribute__",
             "BOOST_ASIO_COMPLETION_TOKEN_FOR", "static_assert", "requires"}
BUILTIN_TYPES = {"int", "long", "short", "char", "bool", "unsigned", "signed", "float",
                 "double", "void", "auto", "wchar_t", "char8_t", "char16_t", "char32_t"}


def matching(toks, i, open_, close):
    """Index of the token closing the bracket opened at toks[i]."""
    depth = 0
    for j in range(i, len(toks)):
        t = toks[j]
        if t.kind != "punct":
            continue
        if t.text == open_:
            depth += 1
        elif t.text == close:
            depth -= 1
            if depth == 0:
                return j
    raise ParseError(f"line {toks[i].line}: no closing '{close}'")


def matching_angle(toks, i):
    """Index of the `>` closing the `<` at toks[i] (brackets inside parentheses are skipped)."""
    depth = 0
    j = i
    while j < len(toks):
        t = toks[j]
        if t.kind == "punct":
            if t.text in ("(", "[", "{"):
                j = matching(toks, j, t.text, {"(": ")", "[": "]", "{": "}"}[t.text])
            elif t.text == "<":
                depth += 1
            elif t.text == ">":
                depth -= 1
                if depth == 0:
                    return j
        j += 1
    raise ParseError(f"line {toks[i].line}: no closing '>'")


def split_top(toks, sep=","):
    """Splits tokens at `sep` outside brackets (angle brackets included)."""
    parts, current, depth = [], [], 0
    for t in toks:
        if t.kind == "punct":
            if t.text in ("(", "[", "{", "<"):
                depth += 1
            elif t.text in (")", "]", "}", ">"):
                depth -= 1
            elif t.text == sep and depth == 0:
                parts.append(current)
                current = []
                continue
        current.append(t)
    if current:
        parts.append(current)
    return parts


def param_name(param):
    """The name a parameter declares, or None."""
    toks = [t for t in param if t.kind not in ("doc", "pp")]
    for k, t in enumerate(toks):  # drop a default argument
        if t.kind == "punct" and t.text == "=":
            toks = toks[:k]
            break
    if len(toks) < 2:
        return None
    last = toks[-1]
    if last.kind == "punct" and last.text == "]":  # an array: the name is before `[`
        k = max(k for k, t in enumerate(toks) if t.text == "[")
        toks = toks[:k]
        last = toks[-1]
    if last.kind == "punct" and last.text == ")":  # (&name)[N]
        inner = [t for t in toks if t.kind == "id"]
        return inner[-1].text if inner else None
    if last.kind != "id" or last.text in BUILTIN_TYPES or last.text in ("const", "volatile"):
        return None
    if toks[-2].kind == "punct" and toks[-2].text == "::":
        return None
    return last.text


def normalise_params(toks):
    """A parameter list as a key: no default arguments, no whitespace."""
    out = []
    for param in split_top(toks):
        kept = []
        depth = 0
        for t in param:
            if t.kind == "punct" and t.text in ("(", "[", "{", "<"):
                depth += 1
            elif t.kind == "punct" and t.text in (")", "]", "}", ">"):
                depth -= 1
            elif t.kind == "punct" and t.text == "=" and depth == 0:
                break
            kept.append(t.text)
        out.append("".join(kept))
    return ",".join(out)


class Header:
    def __init__(self, path):
        self.path = path          # relative to include/
        self.file_doc = None
        self.entities = []        # namespace-scope entities, in order
        self.fn_docs = []         # (doc text, line) of `@fn` blocks
        self.foreign = []         # public names a detail header it includes declares
        self.includes = []
        self.docs = []            # every doc comment: (text, line), for the command check


class Parser:
    def __init__(self, header, toks):
        self.h = header
        self.toks = toks
        self.conditions = []      # [(group, branch, text)]
        self.groups = 0
        self.last = None          # the last entity made, for a trailing doc

    def error(self, i, what):
        line = self.toks[i].line if i < len(self.toks) else "end"
        raise ParseError(f"include/{self.h.path}:{line}: {what}")

    # -- preprocessor --
    def directive(self, tok):
        m = re.match(r"#\s*(\w+)\s*(.*)", tok.text)
        if not m:
            return
        word, rest = m.group(1), m.group(2).strip()
        if word in ("if", "ifdef", "ifndef"):
            self.groups += 1
            text = {"if": rest, "ifdef": f"defined({rest})", "ifndef": f"!defined({rest})"}[word]
            guard = word == "ifndef" and rest.endswith("_HPP")
            self.conditions.append((self.groups, 0, None if guard else text, []))
        elif word in ("elif", "else") and self.conditions:
            group, branch, text, previous = self.conditions.pop()
            previous = previous + [text]
            if word == "elif":
                shown = " && ".join([f"!({p})" for p in previous if p] + [rest])
            else:
                shown = " && ".join(f"!({p})" for p in previous if p)
            self.conditions.append((group, branch + 1, shown, previous))
        elif word == "endif" and self.conditions:
            self.conditions.pop()
        elif word == "include":
            m = re.match(r"<(boost/asio_notify[^>]*)>", rest)
            if m:
                self.h.includes.append(m.group(1))

    def condition_list(self):
        return [(g, b, t) for g, b, t, _ in self.conditions if t]

    # -- doc comments --
    def take_doc(self, tok):
        text = clean_doc(tok)
        self.h.docs.append((text, tok.line))
        if re.match(r"@file\b", text):
            if self.h.file_doc is not None:
                raise ParseError(f"include/{self.h.path}:{tok.line}: a second @file comment")
            self.h.file_doc = re.sub(r"^@file\b[^\n]*\n?", "", text)
            return None
        if re.match(r"@fn\b", text):
            self.h.fn_docs.append((text, tok.line))
            return None
        return text

    # -- scopes --
    def parse(self):
        self.scope(0, len(self.toks), [], None, self.h.entities)

    def scope(self, i, end, path, cls, out):
        """Parses declarations in toks[i:end] of the namespace or class `path`."""
        access = None if cls is None else ("private" if cls.class_key == "class" else "public")
        doc = None
        template = ""
        while i < end:
            t = self.toks[i]
            if t.kind == "pp":
                self.directive(t)
                i += 1
                continue
            if t.kind == "doc":
                if t.style == "trailing":
                    if self.last is not None and self.last.doc is None:
                        self.last.doc = clean_doc(t)
                        self.h.docs.append((self.last.doc, t.line))
                else:
                    doc = self.take_doc(t)
                i += 1
                continue
            if t.kind == "punct" and t.text == ";":
                i += 1
                continue
            if t.kind == "punct" and t.text == "}":
                self.error(i, "unexpected '}'")
            if cls is not None and t.kind == "id" and t.text in ("public", "protected", "private") \
                    and i + 1 < end and self.toks[i + 1].text == ":":
                access = t.text
                i += 2
                doc = None
                continue
            if t.kind == "id" and t.text == "namespace" or \
                    (t.kind == "id" and t.text == "inline" and self.toks[i + 1].text == "namespace"):
                i = self.namespace(i, path)
                doc = None
                continue
            if t.kind == "id" and t.text == "template" and self.toks[i + 1].text == "<":
                close = matching_angle(self.toks, i + 1)
                template = join(self.toks[i:close + 1])
                i = close + 1
                continue
            if t.kind == "id" and t.text == "extern" and self.toks[i + 1].kind == "str":
                i += 2  # extern "C" { ... } is parsed as the enclosing scope
                if self.toks[i].text == "{":
                    close = matching(self.toks, i, "{", "}")
                    self.scope(i + 1, close, path, cls, out)
                    i = close + 1
                continue
            i, entity = self.declaration(i, end, path, cls)
            if entity is not None:
                entity.template = template
                entity.conditions = self.condition_list()
                if cls is not None:
                    entity.access = access
                if doc is not None:
                    entity.doc = doc
                out.append(entity)
                self.last = entity
            doc = None
            template = ""
        return i

    def namespace(self, i, path):
        j = i + 1 if self.toks[i].text == "namespace" else i + 2
        names = []
        while self.toks[j].text != "{":
            if self.toks[j].kind == "id":
                names.append(self.toks[j].text)
            elif self.toks[j].text == "=":  # a namespace alias
                while self.toks[j].text != ";":
                    j += 1
                return j + 1
            j += 1
        close = matching(self.toks, j, "{", "}")
        self.scope(j + 1, close, path + (names or [""]), None, self.h.entities)
        return close + 1

    def statement_end(self, i, end):
        """Reads one declaration from toks[i]: returns (head end, body (open, close) or None,
        index after it)."""
        j = i
        head_kind = None
        seen_params = False
        in_init = False
        while j < end:
            t = self.toks[j]
            if t.kind in ("doc", "pp"):
                if t.kind == "pp":
                    self.directive(t)
                j += 1
                continue
            if t.kind == "id" and head_kind is None:
                if t.text in ("class", "struct", "union", "enum"):
                    head_kind = "class"
                elif t.text not in SPECIFIERS and t.text not in ("typename", "friend", "using", "typedef"):
                    head_kind = "other"
            if t.kind == "punct":
                if t.text == "(":
                    close = matching(self.toks, j, "(", ")")
                    if head_kind != "class" and self.toks[j - 1].text not in NOT_NAMES:
                        seen_params = True
                    j = close + 1
                    continue
                if t.text == "[":
                    j = matching(self.toks, j, "[", "]") + 1
                    continue
                if t.text == "<" and head_kind == "class":
                    j = matching_angle(self.toks, j) + 1
                    continue
                if t.text == "=" and not seen_params and head_kind != "class" \
                        and self.toks[j - 1].text != "operator":
                    head_kind = "variable"
                if t.text == ":" and seen_params and head_kind != "class":
                    in_init = True
                if t.text == ";":
                    return j, None, j + 1
                if t.text == "{":
                    close = matching(self.toks, j, "{", "}")
                    prev = self.toks[j - 1]
                    if head_kind == "class":
                        k = close + 1  # a declarator may follow: struct {...} name;
                        while k < end and self.toks[k].text != ";":
                            k += 1
                        return j, (j, close), k + 1
                    if seen_params and head_kind != "variable" and not (
                            in_init and (prev.kind == "id" or prev.text == ">")):
                        return j, (j, close), close + 1
                    j = close + 1  # a brace initialiser
                    continue
            j += 1
        self.error(i, "declaration without an end")

    def declaration(self, i, end, path, cls):
        head_end, body, after = self.statement_end(i, end)
        head = [t for t in self.toks[i:head_end] if t.kind not in ("doc", "pp")]
        if not head:
            return after, None
        words = [t.text for t in head]
        first = next((w for w in words if w not in SPECIFIERS), words[0])
        line = head[0].line
        if first in ("friend", "static_assert") or (first == "using" and len(words) > 1 and words[1] == "namespace"):
            return after, None
        if first in ("class", "struct", "union"):
            return after, self.class_decl(head, body, path, line)
        if first == "enum":
            return after, self.enum_decl(head, body, path, line)
        if first == "using":
            k = words.index("using")
            if k + 2 < len(words) and words[k + 2] == "=":
                e = Entity("alias", words[k + 1], path, self.h.path, line)
            else:
                ids = [t.text for t in head if t.kind == "id" and t.text not in ("using", "typename")]
                e = Entity("using", ids[-1], path, self.h.path, line)
                if len(ids) >= 2 and ids[-1] == ids[-2]:
                    e.kind = "inheriting"  # using Base::Base: the base's constructors
                    e.name = path[-1] if path else ids[-1]
            e.signature = join(head) + ";"
            return after, e
        if first == "typedef":
            e = Entity("alias", [t.text for t in head if t.kind == "id"][-1], path, self.h.path, line)
            e.signature = join(head) + ";"
            return after, e
        return after, self.function_or_variable(head, body, path, line, i, after)

    def class_decl(self, head, body, path, line):
        k = next(n for n, t in enumerate(head) if t.text in ("class", "struct", "union"))
        key = head[k].text
        j = k + 1
        while j < len(head) and head[j].kind == "punct" and head[j].text == "[":
            j = matching(head, j, "[", "]") + 1  # attributes
        name = head[j].text if j < len(head) else ""
        if j + 1 < len(head) and head[j + 1].text == "<":  # a specialisation
            close = matching_angle(head, j + 1)
            name = join(head[j:close + 1])
            j = close
        e = Entity("class", name, path, self.h.path, line)
        e.class_key = key
        colon = next((n for n in range(j + 1, len(head)) if head[n].text == ":"), None)
        e.signature = join(head[k:colon] if colon is not None else head[k:])
        if colon is not None:
            for base in split_top(head[colon + 1:]):
                words = [t.text for t in base]
                access = "private" if key == "class" else "public"
                if words and words[0] in ("public", "protected", "private"):
                    access = words[0]
                    base = base[1:]
                if base and base[0].text == "virtual":
                    base = base[1:]
                e.bases.append((access, join(base)))
            e.signature += " : " + ", ".join(f"{a} {b}" for a, b in e.bases)
        if body is None:
            e.forward = True
        else:
            self.scope(body[0] + 1, body[1], path + [name.split("<")[0]], e, e.members)
        return e

    def enum_decl(self, head, body, path, line):
        ids = [t for t in head if t.kind == "id" and t.text not in ("enum", "class", "struct")]
        colon = next((n for n, t in enumerate(head) if t.text == ":"), None)
        name_tok = [t for t in (head[:colon] if colon is not None else head)
                    if t.kind == "id" and t.text not in ("enum", "class", "struct")]
        e = Entity("enum", name_tok[-1].text if name_tok else "", path, self.h.path, line)
        e.signature = join(head)
        if body is not None:
            self.enumerators(body, e, path + [e.name])
        del ids
        return e

    def enumerators(self, body, enum, path):
        toks = self.toks[body[0] + 1:body[1]]
        pending = None
        current = None
        k = 0
        while k < len(toks):
            t = toks[k]
            if t.kind == "doc":
                if t.style == "trailing":
                    if current is not None and current.doc is None:
                        current.doc = clean_doc(t)
                        self.h.docs.append((current.doc, t.line))
                else:
                    pending = self.take_doc(t)
                k += 1
                continue
            if t.kind == "pp":
                self.directive(t)
                k += 1
                continue
            if t.kind == "id":
                current = Entity("enumerator", t.text, path, self.h.path, t.line)
                current.doc = pending
                current.conditions = self.condition_list()
                pending = None
                k += 1
                value = []
                depth = 0
                while k < len(toks) and not (toks[k].text == "," and depth == 0 and toks[k].kind == "punct"):
                    if toks[k].kind == "punct" and toks[k].text in "([{":
                        depth += 1
                    elif toks[k].kind == "punct" and toks[k].text in ")]}":
                        depth -= 1
                    if toks[k].kind in ("doc", "pp"):
                        break
                    value.append(toks[k])
                    k += 1
                if value and value[0].text == "=":
                    current.value = join(value[1:])
                current.signature = join([t] + value)
                enum.members.append(current)
                continue
            k += 1

    def function_or_variable(self, head, body, path, line, start, after):
        # The parameter list: the first top-level "(" not after decltype and the like.
        paren = None
        j = 0
        while j < len(head):
            t = head[j]
            if t.kind == "punct" and t.text == "=" and (j == 0 or head[j - 1].text != "operator"):
                break
            if t.kind == "punct" and t.text == "(":
                before = head[j - 1].text if j else ""
                if before in NOT_NAMES:
                    j = matching(head, j, "(", ")") + 1
                    continue
                if before == "operator":  # operator()
                    j += 2
                    continue
                paren = j
                break
            if t.kind == "punct" and t.text in ("[", "{"):
                break
            j += 1
        if paren is None:
            return self.variable(head, path, line)
        close = matching(head, paren, "(", ")")
        # The name: identifiers (and an operator) right before the parameters.
        k = paren - 1
        if k >= 0 and head[k].text == ")" and k >= 2 and head[k - 2].text == "operator":
            name = "operator()"
        elif "operator" in [t.text for t in head[:paren]]:
            o = max(n for n in range(paren) if head[n].text == "operator")
            name = "operator" + ("" if head[o + 1].kind == "punct" else " ") + join(head[o + 1:paren])
        else:
            name = head[k].text
            if k >= 1 and head[k - 1].text == "~":
                name = "~" + name
        e = Entity("function", name, path, self.h.path, line)
        params = head[paren + 1:close]
        e.params = [n for n in (param_name(p) for p in split_top(params)) if n]
        e.param_text = normalise_params(params)
        rest = head[close + 1:]
        words = [t.text for t in rest]
        e.const = "const" in words[:words.index("->")] if "->" in words else "const" in words
        # What follows the parameters: qualifiers, a trailing return type, = default/delete,
        # a constructor's initialisers.
        tail = []
        m = 0
        while m < len(rest):
            t = rest[m]
            if t.kind == "punct" and t.text == ":":
                break  # initialisers
            if t.kind == "punct" and t.text == "=":
                value = rest[m + 1].text if m + 1 < len(rest) else ""
                e.deleted = value == "delete"
                break
            if t.kind == "punct" and t.text == "->":
                tail.append(Tok("punct", "->", True, t.line))
                tail.append(Tok("id", "DEDUCED", True, t.line))
                break
            if t.kind == "id" and t.text in ("override", "final"):
                m += 1
                continue
            tail.append(t)
            m += 1
        front = [t for t in head[:paren] if t.text != "BOOST_ASIO_NOTIFY_DECL"]
        if front:
            front[0] = Tok(front[0].kind, front[0].text, False, front[0].line)
        e.signature = format_function(join(front), join(params), join(tail))
        return e

    def variable(self, head, path, line):
        cut = len(head)
        for j, t in enumerate(head):
            if t.kind == "punct" and t.text in ("=", "{", "[", ":"):
                cut = j
                break
        names = [t for t in head[:cut] if t.kind == "id"]
        if not names:
            self.error(0, "a declaration without a name")
        e = Entity("variable", names[-1].text, path, self.h.path, line)
        e.signature = join([t for t in head if t.text != "BOOST_ASIO_NOTIFY_DECL"]) + ";"
        return e


def format_function(front, params, tail):
    text = f"{front}({params})" + (f" {tail}" if tail else "") + ";"
    if len(text) <= 92:
        return text
    parts = [join(p) for p in split_top(lex(params, "signature"))]
    inner = ",\n".join("    " + p for p in parts)
    return f"{front}(\n{inner})" + (f" {tail}" if tail else "") + ";"


def format_template(template):
    if len(template) <= 92:
        return template
    toks = lex(template, "template")
    open_ = next(n for n, t in enumerate(toks) if t.text == "<")
    close = matching_angle(toks, open_)
    parts = [join(p) for p in split_top(toks[open_ + 1:close])]
    return "template <\n" + ",\n".join("    " + p for p in parts) + ">"


# ---- the model ------------------------------------------------------------------------------

def public_headers():
    paths = []
    top = os.path.join(INCLUDE, "boost", "asio_notify.hpp")
    if os.path.exists(top):
        paths.append("boost/asio_notify.hpp")
    base = os.path.join(INCLUDE, "boost", "asio_notify")
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = sorted(d for d in dirnames if d != "detail")
        for name in sorted(filenames):
            if name.endswith(".hpp"):
                paths.append(os.path.relpath(os.path.join(dirpath, name), INCLUDE).replace(os.sep, "/"))
    return paths


def detail_headers():
    base = os.path.join(INCLUDE, "boost", "asio_notify", "detail")
    out = []
    for dirpath, _, filenames in os.walk(base):
        for name in sorted(filenames):
            if name.endswith(".hpp"):
                out.append(os.path.relpath(os.path.join(dirpath, name), INCLUDE).replace(os.sep, "/"))
    return sorted(out)


def parse_header(path):
    with open(os.path.join(INCLUDE, path), encoding="utf-8") as f:
        text = f.read()
    h = Header(path)
    Parser(h, lex(text, "include/" + path)).parse()
    return h


def walk(entities):
    for e in entities:
        yield e
        yield from walk(e.members)


def share_branch_docs(entities):
    """A declaration without a doc in another branch of an #if group gets its sibling's."""
    seen = {}
    for e in entities:
        key = (tuple(e.scope), e.name, e.kind)
        if e.doc is None and e.conditions and key in seen:
            other = seen[key]
            if other.conditions and other.conditions[-1][0] == e.conditions[-1][0]:
                e.doc = other.doc
        if e.doc is not None:
            seen.setdefault(key, e)
        share_branch_docs(e.members)


class Model:
    def __init__(self):
        self.headers = [parse_header(p) for p in public_headers()]
        self.problems = []
        for h in self.headers:
            share_branch_docs(h.entities)
        # Classes in detail/ that public classes derive from: their public members are shown.
        wanted = set()
        for h in self.headers:
            for e in walk(h.entities):
                if e.kind == "class" and e.is_public_scope:
                    for _, base in e.bases:
                        if re.match(r"(::)?(boost::asio_notify::)?detail::", base):
                            wanted.add(base_name(base))
        # Detail headers: the classes public ones derive from, and whatever they declare in a
        # public namespace (shown with the public header that includes them).
        self.detail_classes = {}
        self.foreign = []
        for path in detail_headers():
            h = parse_header(path)
            share_branch_docs(h.entities)
            for e in walk(h.entities):
                if e.kind == "class" and not e.forward and e.name in wanted and "detail" in e.scope:
                    self.detail_classes[e.name] = e
            public = [e for e in h.entities if e.is_public_scope]
            if not public:
                continue
            owner = next((p for p in self.headers if path in p.includes), None)
            if owner is None:
                owner = next((p for p in self.headers if p.path == "boost/asio_notify.hpp"), self.headers[0])
            for e in public:
                e.declared_in = path
                owner.foreign.append(e)
                self.foreign.append(e)
        self.apply_fn_docs()

    def apply_fn_docs(self):
        """Gives the `@fn` blocks' docs to the members of detail classes they name."""
        for h in self.headers:
            for text, line in h.fn_docs:
                first, _, body = text.partition("\n")
                decl = first[3:].strip()
                while body and not body.startswith("\n") and body.split("\n", 1)[0].strip() \
                        and not body.split("\n", 1)[0].strip().startswith("@") \
                        and decl.count("(") > decl.count(")"):
                    more, _, body = body.partition("\n")
                    decl += " " + more.strip()
                where = f"include/{h.path}:{line}"
                target = self.fn_target(decl)
                if target is None:
                    self.problems.append(f"{where}: @fn {decl}: no declaration in detail/ matches it")
                    continue
                if target.doc_from is not None:
                    self.problems.append(f"{where}: @fn {decl}: documented at {target.doc_from} "
                                         f"already; keep one of the two")
                    continue
                target.doc = body.strip("\n")
                target.doc_from = where

    def fn_target(self, decl):
        """The declaration an `@fn` line names: a member of a class in detail/, or a function
        a detail header declares in a public namespace."""
        toks = [t for t in lex(decl + ";", "@fn")]
        if toks and toks[0].text == "template" and len(toks) > 1 and toks[1].text == "<":
            toks = toks[matching_angle(toks, 1) + 1:]
        parser = Parser(Header("@fn"), toks)
        try:
            head_end, _, _ = parser.statement_end(0, len(toks))
            e = parser.function_or_variable(toks[:head_end], None, [], 0, 0, 0)
        except (ParseError, IndexError, StopIteration):
            return None
        if e.kind != "function":
            return None
        # The qualifier: `a::b::` right before the name.
        first = next(n for n, t in enumerate(toks) if t.text == e.name.split(" ")[0].split("(")[0]
                     or (e.name.startswith("operator") and t.text == "operator")
                     or (e.name.startswith("~") and t.text == "~"))
        qualifier = []
        k = first
        while k >= 2 and toks[k - 1].text == "::" and toks[k - 2].kind == "id":
            qualifier.insert(0, toks[k - 2].text)
            k -= 2
        name = e.name
        candidates = []
        if qualifier and qualifier[-1] in self.detail_classes:
            candidates = self.detail_classes[qualifier[-1]].members
        elif not qualifier or qualifier[-1] not in self.detail_classes:
            candidates = self.foreign
        for m in candidates:
            if m.kind == "function" and m.name == name and m.param_text == e.param_text \
                    and m.const == e.const:
                return m
        return None


def base_name(text):
    """The unqualified class name of a base-specifier such as `detail::x<A, B>`."""
    return re.sub(r"<.*", "", text).split("::")[-1].strip()


# ---- Markdown ---------------------------------------------------------------------------------

def anchor_part(name):
    if name.startswith("~"):
        return "destructor"
    for op, word in (("operator()", "operator_call"), ("operator=", "operator_assign"),
                     ("operator==", "operator_eq"), ("operator!=", "operator_ne")):
        if name == op:
            return word
    return re.sub(r"[^A-Za-z0-9_]+", "_", name).strip("_").lower()


def first_sentence(doc):
    if not doc:
        return ""
    para = re.split(r"\n\s*\n|\n\s*@", doc.strip(), maxsplit=1)[0]
    para = " ".join(para.split())
    ticks = False
    for k, ch in enumerate(para):
        if ch == "`":
            ticks = not ticks
        elif ch == "." and not ticks and (k + 1 == len(para) or para[k + 1] == " "):
            return para[:k + 1]
    return para


def inline(text):
    """Doxygen's inline commands as Markdown."""
    text = re.sub(r"[@\\](?:c|p)\s+([\w:<>,.()~]+)", r"`\1`", text)
    return text


def render_doc(doc):
    """A doc comment as Markdown."""
    lines = doc.split("\n")
    main, params, tparams, returns, throws, sections = [], [], [], [], [], []
    target = main
    k = 0
    while k < len(lines):
        line = lines[k]
        stripped = line.strip()
        code = re.match(r"[@\\]code\b(.*)", stripped)
        if code:
            rest = code.group(1)
            block = []
            if "@endcode" in rest:
                block = [rest.split("@endcode")[0].strip()]
            else:
                if rest.strip():
                    block.append(rest.strip())
                k += 1
                while k < len(lines) and not lines[k].strip().startswith(("@endcode", "\\endcode")):
                    block.append(lines[k])
                    k += 1
                block = dedent(block)
            target.append("")
            target.append("```cpp")
            target.extend(block)
            target.append("```")
            target.append("")
            k += 1
            continue
        m = re.match(r"[@\\](param|tparam)(?:\[[a-z,]+\])?\s+(\w+)\s*(.*)", stripped)
        if m:
            item = [m.group(2), [m.group(3)]]
            (params if m.group(1) == "param" else tparams).append(item)
            target = item[1]
            k += 1
            continue
        m = re.match(r"[@\\](returns?)\s*(.*)", stripped)
        if m:
            returns.append(m.group(2))
            target = returns
            k += 1
            continue
        m = re.match(r"[@\\](throws?)\s+(\S+)\s*(.*)", stripped)
        if m:
            item = [m.group(2), [m.group(3)]]
            throws.append(item)
            target = item[1]
            k += 1
            continue
        m = re.match(r"[@\\](par|note|see)\b\s*(.*)", stripped)
        if m:
            title = {"note": "Note", "see": "See also"}.get(m.group(1), m.group(2).strip())
            body = [m.group(2)] if m.group(1) != "par" else []
            sections.append((title, body))
            target = body
            k += 1
            continue
        m = re.match(r"[@\\]li\s+(.*)", stripped)
        if m:
            target.append("- " + m.group(1))
            k += 1
            continue
        if re.match(r"[@\\]brief\b", stripped):
            line = re.sub(r"[@\\]brief\s*", "", line)
        target.append(line)
        k += 1

    def text(ls):
        out = "\n".join(ls).strip("\n")
        out = re.sub(r"\n{3,}", "\n\n", out)
        return inline(out)

    out = []
    body = text(main)
    if body:
        out.append(body)
    if tparams:
        out.append("**Template parameters**\n\n" + "\n".join(
            f"- `{n}`: " + " ".join(text(d).split()) for n, d in tparams))
    if params:
        out.append("**Parameters**\n\n" + "\n".join(
            f"- `{n}`: " + " ".join(text(d).split()) for n, d in params))
    if returns:
        out.append("**Returns:** " + " ".join(text(returns).split()))
    for what, d in throws:
        out.append(f"**Throws:** `{what}`: " + " ".join(text(d).split()))
    for title, d in sections:
        content = text(d)
        block = content.startswith(("```", "- ")) or "\n\n" in content or "```" in content
        out.append(f"**{title}.**" + ("\n\n" + content if block else " " + content))
    return "\n\n".join(out)


def conditions_note(e):
    texts = [t for _, _, t in e.conditions]
    return f"*Only where `{' && '.join(texts)}`.*" if texts else ""


class Writer:
    def __init__(self, model):
        self.model = model
        self.out = []
        self.anchors = set()
        self.class_anchor = {}     # qualified class name -> anchor
        self.header_anchor = {}

    def unique(self, base):
        a = base
        n = 2
        while a in self.anchors:
            a = f"{base}-{n}"
            n += 1
        self.anchors.add(a)
        return a

    def emit(self, text=""):
        self.out.append(text)

    def public_entities(self, h):
        return [e for e in h.entities if e.is_public_scope] + h.foreign

    def run(self):
        m = self.model
        # Anchors first, so that links can go forward.
        for h in m.headers:
            stem = h.path[len("boost/"):-len(".hpp")] if h.path != "boost/asio_notify.hpp" else "asio_notify"
            self.header_anchor[h.path] = self.unique("header-" + anchor_part(stem.replace("asio_notify/", "")))
            for e in self.public_entities(h):
                if e.kind == "class" and not e.forward:
                    self.class_anchor[e.qualified] = self.unique(self.scoped_anchor(e))
        self.emit("# Reference")
        self.emit()
        self.emit(f"<!-- Generated by tools/reference.py from the public headers: do not edit. "
                  f"Change the headers' doc comments and run `{REGENERATE}`. -->")
        self.emit()
        self.emit("Every public name of the library, generated from the doc comments of the public "
                  "headers by `tools/reference.py`; the test `ci_doc_reference` fails when this page "
                  f"is not what the headers give (run `{REGENERATE}` to regenerate it) and when a "
                  "public name has no doc comment. The [README](../README.md) is the quick start; "
                  "[index.md](index.md) lists the other pages.")
        self.emit()
        self.emit("Conventions, as in Asio's reference: `DEDUCED` is the return type an initiating "
                  "function gets from `boost::asio::async_initiate` for its completion token (`void` "
                  "for a callback, a `std::future` for `use_future`, an awaitable for "
                  "`use_awaitable`, ...); `BOOST_ASIO_SYNC_OP_VOID` is Asio's result of the "
                  "`error_code&` overloads (that `error_code`, or `void` with "
                  "`BOOST_ASIO_NO_DEPRECATED`). Names in `boost::asio` (buffers, endpoints, error "
                  "codes, `socket_base`) are Asio's: see "
                  f"[Asio's reference]({ASIO_REFERENCE}reference.html).")
        self.emit()
        self.emit("## Contents")
        self.emit()
        for h in m.headers:
            names = []
            for e in self.public_entities(h):
                if e.kind == "class" and not e.forward:
                    names.append(f"[`{self.display(e)}`](#{self.class_anchor[e.qualified]})")
            listed = f": {', '.join(names)}" if names else ""
            self.emit(f"- [`<{h.path}>`](#{self.header_anchor[h.path]}){listed}")
        self.emit()
        for h in m.headers:
            self.header(h)
        return "\n".join(self.out).rstrip("\n") + "\n"

    def display(self, e):
        """A namespace-scope name as users write it after boost::asio_notify::."""
        scope = [s for s in e.scope if s not in ("boost", "asio_notify")]
        return "::".join(scope + [e.name])

    def scoped_anchor(self, e):
        scope = [s for s in e.scope if s not in ("boost", "asio_notify")]
        return "-".join(anchor_part(s) for s in scope + [e.name])

    def header(self, h):
        self.emit(f'## <a id="{self.header_anchor[h.path]}"></a>`<{h.path}>`')
        self.emit()
        if h.file_doc:
            self.emit(render_doc(h.file_doc))
            self.emit()
        entities = self.public_entities(h)
        if not entities and h.includes:
            self.emit("Includes " + ", ".join(
                f"[`<{i}>`](#{self.header_anchor[i]})" if i in self.header_anchor else f"`<{i}>`"
                for i in h.includes) + ".")
            self.emit()
        groups = self.group(entities)
        for name, members in groups:
            first = members[0]
            if first.kind == "class":
                for c in members:
                    if not c.forward:
                        self.klass(c)
                continue
            anchor = self.unique(self.scoped_anchor(first))
            self.emit(f'### <a id="{anchor}"></a>`{self.display(first)}`')
            self.emit()
            self.entries(members, anchor)

    @staticmethod
    def group(entities):
        groups = []
        index = {}
        for e in entities:
            key = (e.kind == "class", e.name)
            if e.kind == "class" and not e.forward:
                key = (True, e.name, len(groups))
            if key in index:
                groups[index[key]][1].append(e)
            else:
                index[key] = len(groups)
                groups.append((e.name, [e]))
        return groups

    def entries(self, members, anchor):
        """The declarations and docs of one name (its overloads, or its #if branches)."""
        if len(members) > 1 and all(e.kind not in ("function", "enum", "class") for e in members):
            # One name declared in several #if branches: each declaration, then the doc.
            for e in members:
                self.emit("```cpp")
                self.emit(e.signature)
                self.emit("```")
                self.emit()
                note = conditions_note(e)
                if note:
                    self.emit(note)
                    self.emit()
            docs = []
            for e in members:
                if e.doc and e.doc not in docs:
                    docs.append(e.doc)
            for d in docs:
                self.emit(render_doc(d))
                self.emit()
            return
        shown_doc = None
        overload = 0
        for e in members:
            if e.kind == "enum":
                self.enum(e)
                continue
            overload += 1
            if len(members) > 1 and e.kind == "function":
                self.emit(f'<a id="{self.unique(f"{anchor}-{overload}")}"></a>')
                self.emit()
            self.emit("```cpp")
            if e.template:
                self.emit(format_template(e.template))
            self.emit(e.signature if e.kind != "class" else e.signature + ";")
            self.emit("```")
            self.emit()
            note = conditions_note(e)
            if note:
                self.emit(note)
                self.emit()
            if e.doc and not (e.kind != "function" and e.doc == shown_doc):
                self.emit(render_doc(e.doc))
                self.emit()
                shown_doc = e.doc
            if e.declared_in:
                self.emit(f"*Declared in `<{e.declared_in}>`, which this header includes.*")
                self.emit()

    def enum(self, e):
        self.emit("```cpp")
        if e.template:
            self.emit(e.template)
        self.emit(e.signature + ";")
        self.emit("```")
        self.emit()
        note = conditions_note(e)
        if note:
            self.emit(note)
            self.emit()
        if e.doc:
            self.emit(render_doc(e.doc))
            self.emit()
        if e.members:
            has_values = any(v.value for v in e.members)
            self.emit("| value | " + ("| " if not has_values else "number | ") + "meaning |"
                      if False else ("| value | number | meaning |" if has_values else "| value | meaning |"))
            self.emit("|---|---|---|" if has_values else "|---|---|")
            for v in e.members:
                doc = " ".join(render_doc(v.doc).split()).replace("|", "\\|") if v.doc else ""
                a = self.unique(self.scoped_anchor(v))
                cells = [f'<a id="{a}"></a>`{v.name}`']
                if has_values:
                    cells.append(f"`{v.value}`" if v.value else "")
                cells.append(doc)
                self.emit("| " + " | ".join(cells) + " |")
            self.emit()

    def members_of(self, c):
        """(own members, members shown from detail bases, public bases, other bases)."""
        own = [m for m in c.members if m.access in ("public", "protected") and not m.deleted
               and not (m.kind == "class" and m.forward and False)]
        own_names = {m.name for m in own} | {m.name for m in c.members}
        shown, ours, asio = [], [], []
        for access, base in c.bases:
            name = base_name(base)
            if name in self.model.detail_classes and re.match(r"(boost::asio_notify::)?detail::", base):
                d = self.model.detail_classes[name]
                for m in d.members:
                    if m.access == "public" and not m.deleted and m.name not in own_names \
                            and m.kind != "inheriting" and m.name != d.name and m.name != "~" + d.name:
                        shown.append(m)
                asio += [b for _, b in d.bases if b.startswith(("boost::asio::", "::boost::asio::"))]
            elif base.startswith(("boost::asio::", "::boost::asio::")):
                asio.append(base)
            else:
                ours.append(base)
        return own, shown, ours, asio

    def klass(self, c):
        anchor = self.class_anchor[c.qualified]
        self.emit(f'### <a id="{anchor}"></a>`{self.display(c)}`')
        self.emit()
        self.emit("```cpp")
        if c.template:
            self.emit(format_template(c.template))
        self.emit(c.signature + ";")
        self.emit("```")
        self.emit()
        note = conditions_note(c)
        if note:
            self.emit(note)
            self.emit()
        if c.doc:
            self.emit(render_doc(c.doc))
            self.emit()
        own, shown, ours, asio = self.members_of(c)
        deleted = [m for m in c.members if m.deleted and m.access == "public"]
        everything = own + shown
        groups = self.group(everything)
        # The member table.
        rows = []
        member_anchor = {}
        for name, ms in groups:
            a = self.unique(f"{anchor}-{anchor_part(name if name != c.name else 'constructor')}")
            member_anchor[name] = a
            first = ms[0]
            kind = {"function": "function", "alias": "type", "using": "type", "class": "type",
                    "enum": "type", "variable": "data", "inheriting": "function"}.get(first.kind, first.kind)
            if name == c.name or first.kind == "inheriting":
                kind = "constructor"
            elif name.startswith("~"):
                kind = "destructor"
            access = "protected " if first.access == "protected" else ""
            brief = first_sentence(next((m.doc for m in ms if m.doc), "")).replace("|", "\\|")
            rows.append((access, kind, name, a, brief))
        if rows:
            order = {"constructor": 0, "destructor": 1, "type": 2, "function": 3, "data": 4}
            rows.sort(key=lambda r: (r[0] != "", order.get(r[1], 5),
                                     r[2] if r[1] != "data" else ""))
            self.emit("| member | kind | description |")
            self.emit("|---|---|---|")
            for access, kind, name, a, brief in rows:
                self.emit(f"| [`{name}`](#{a}) | {access}{kind} | {inline(brief)} |")
            self.emit()
        if shown:
            bases = sorted({base_name(b) for _, b in c.bases if base_name(b) in self.model.detail_classes})
            self.emit("Members declared by the library's common base of this class ("
                      + ", ".join(f"`detail::{b}`" for b in bases)
                      + ") are listed and documented here as this class's own.")
            self.emit()
        for base in ours:
            target = self.find_class(base, c)
            if target is None:
                self.emit(f"Inherits the members of `{base}`.")
            else:
                names = self.inherited_names(target, {m.name for m in c.members})
                links = ", ".join(f"[`{n}`](#{self.class_anchor[target.qualified]}-{anchor_part(n)})"
                                  for n in names)
                self.emit(f"Inherits from [`{base}`](#{self.class_anchor[target.qualified]})"
                          + (f": {links}." if links else "."))
            self.emit()
        for base in asio:
            page = re.sub(r"<.*", "", base).replace("::boost::", "boost::")
            page = page[len("boost::asio::"):].replace("::", "__")
            self.emit(f"Inherits the members of [`{base}`]({ASIO_REFERENCE}{page}.html) (Asio's).")
            self.emit()
        if deleted:
            self.emit("Not copyable: " + ", ".join(f"`{m.signature[:-1]}`" for m in deleted)
                      + " are deleted.")
            self.emit()
        for name, ms in groups:
            a = member_anchor[name]
            title = f"{self.display(c)}::{name}"
            self.emit(f'#### <a id="{a}"></a>`{title}`')
            self.emit()
            if ms[0].kind == "class":
                for nested in ms:
                    self.nested(nested)
                continue
            self.entries(ms, a)

    def nested(self, c):
        self.emit("```cpp")
        if c.template:
            self.emit(format_template(c.template))
        self.emit(c.signature + (" {" if c.members else ";"))
        for m in c.members:
            if m.access in ("public", "protected") and not m.deleted:
                sig = (format_template(m.template) + "\n" if m.template else "") + m.signature
                self.emit("\n".join("  " + s for s in sig.split("\n")))
        if c.members:
            self.emit("};")
        self.emit("```")
        self.emit()
        if c.doc:
            self.emit(render_doc(c.doc))
            self.emit()
        for m in c.members:
            if m.access in ("public", "protected") and not m.deleted and m.doc:
                self.emit(f"- `{m.name}`: " + " ".join(render_doc(m.doc).split()))
        self.emit()

    def find_class(self, base, context):
        name = base_name(base)
        for h in self.model.headers:
            for e in walk(h.entities):
                if e.kind == "class" and not e.forward and e.name == name and e.is_public_scope \
                        and e.qualified in self.class_anchor:
                    return e
        return None

    def inherited_names(self, target, hidden):
        own, shown, ours, _ = self.members_of(target)
        names = []
        for m in own + shown:
            if m.access != "public" or m.name in hidden or m.name == target.name \
                    or m.name.startswith("~") or m.kind == "inheriting" or m.name in names:
                continue
            names.append(m.name)
        for base in ours:
            t = self.find_class(base, target)
            if t is not None:
                names += [n for n in self.inherited_names(t, hidden | set(names)) if n not in names]
        return sorted(names)


# ---- checks -----------------------------------------------------------------------------------

def check_docs(model):
    problems = list(model.problems)
    count = 0
    for h in model.headers:
        if h.file_doc is None:
            problems.append(f"include/{h.path}: no @file comment saying what the header is for")
        for text, line in h.docs:
            for cmd in re.findall(r"(?<![\w`])[@\\]([a-z]+)\b", strip_code(text)):
                if cmd not in COMMANDS:
                    problems.append(f"include/{h.path}:{line}: unknown command @{cmd} "
                                    f"(tools/reference.py renders {', '.join(sorted(COMMANDS))})")
        for e in walk([x for x in h.entities if x.is_public_scope] + h.foreign):
            if e.access not in ("public", "protected") or e.deleted or e.forward and e.kind != "class":
                continue
            count += 1
            where = f"include/{e.header}:{e.line}"
            if not e.doc:
                also = " (or an @fn block in a public header)" if e.declared_in else ""
                problems.append(f"{where}: {e.qualified} ({e.kind}) has no doc comment{also}")
                continue
            problems += check_params(e, e.doc_from or where)
    writer = Writer(model)
    for c in (e for h in model.headers for e in walk(h.entities) if e.kind == "class" and e.is_public_scope):
        _, shown, _, _ = writer.members_of(c)
        for m in shown:
            count += 1
            where = f"include/{m.header}:{m.line}"
            if not m.doc:
                problems.append(f"{where}: {m.qualified} ({m.kind}), a public member of "
                                f"{c.qualified}, has no doc comment (write one there, or an "
                                f"@fn block in a public header)")
            else:
                problems += check_params(m, m.doc_from or where)
    return sorted(set(problems)), count


def strip_code(text):
    return re.sub(r"@code\b.*?@endcode", "", text, flags=re.S)


def check_params(e, where):
    out = []
    if e.kind != "function" or not e.doc:
        return out
    for name in re.findall(r"[@\\]param(?:\[[a-z,]+\])?\s+(\w+)", strip_code(e.doc)):
        if name not in e.params:
            out.append(f"{where}: {e.qualified}: @param {name} is not a parameter "
                       f"({', '.join(e.params) or 'none'})")
    return out


def main():
    args = sys.argv[1:]
    if args not in ([], ["--check"], ["--list"]):
        print(__doc__)
        return 2
    try:
        model = Model()
    except ParseError as e:
        print(f"reference.py: cannot parse {e}")
        return 1
    text = Writer(model).run()
    path = os.path.join(ROOT, OUTPUT)
    if args == ["--list"]:
        for h in model.headers:
            for e in walk([x for x in h.entities if x.is_public_scope]):
                if e.access in ("public", "protected"):
                    print(f"{e.header}:{e.line}: {e.kind} {e.qualified}: {first_sentence(e.doc or '-')}")
        return 0
    if args == ["--check"]:
        problems, count = check_docs(model)
        try:
            with open(path, encoding="utf-8") as f:
                current = f.read()
        except FileNotFoundError:
            current = ""
        if current != text:
            diff = list(difflib.unified_diff(current.splitlines(), text.splitlines(),
                                             OUTPUT + " (committed)", OUTPUT + " (from the headers)",
                                             lineterm="", n=1))
            shown = diff[:40]
            problems.append(f"{OUTPUT} is not what the headers give: run `{REGENERATE}` and commit "
                            f"the result. Differences ({len(diff)} diff lines):\n  "
                            + "\n  ".join(shown) + ("\n  ..." if len(diff) > len(shown) else ""))
        for p in problems:
            print(p)
        print(f"reference.py --check: {len(model.headers)} public headers, {count} public names, "
              f"{len(problems)} problem(s)")
        return 1 if problems else 0
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {OUTPUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
