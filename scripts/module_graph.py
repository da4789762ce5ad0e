#!/usr/bin/env python3
"""Read the module graph of src/ from its imports and check its layering.

Every `use` and every inline `crate::`/`super::`/`self::` path of each file is resolved to
the module file it names (the longest module prefix that is a file of the tree; items
inside a module count as the module). Then:

* no import circle between files (strongly connected components of one file only);
* no import that runs up a layer: each file belongs to the lowest layer listed below
  whose prefix it matches, and may import only its own layer or those beneath it.

`--check` exits non-zero with the offending imports; `--dot` prints the graph for
Graphviz. The floors are those of ARCHITECTURE.md.
"""
import argparse
import os
import re
import sys

# Floors, bottom first. A file's floor is the entry with the longest matching prefix
# (module paths, `::`-separated, relative to the crate root).
FLOORS = [
    # 0: the operating system: user text as data, memory, usage, signals, processes
    ("escape", 0), ("memory", 0), ("usage", 0), ("interrupt", 0), ("process", 0),
    # 1: the game
    ("puzzle", 1),
    # 2: the model
    ("model", 2),
    # 3: encodings and lowerings
    ("encode", 3), ("lower", 3),
    # 4: the backend contract
    ("backend", 4),
    # 5: the engines
    ("backend::native", 5), ("backend::dp", 5), ("backend::sat", 5), ("backend::ilp", 5),
    ("backend::external", 5), ("backend::worker", 5),
    # 6: the engines that combine engines, the registry
    ("backend::portfolio", 6), ("backend::registry", 7),
    # 8: running a backend on a board: compile, solve, decode, verify, report
    ("driver", 8),
    # 9: what is built on running: certificates, designed boards, races
    ("certify", 9), ("design", 9), ("race", 9),
    # 10: the command line and the crate root
    ("cli", 10), ("", 11),
]

TOKEN = re.compile(r"//[^\n]*|/\*.*?\*/|b?r(#*)\".*?\"\1|b?\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])'", re.S)


VISIBILITY = re.compile(r"\bpub\s*\(\s*(?:in\s+[^)]*|crate|super|self)\s*\)")


def strip(text):
    """Comments, literals and visibilities out (`pub(in crate::x)` names no dependency;
    lifetimes like 'a stay: the char pattern needs a close). Lengths are kept, so that
    offsets still give line numbers."""
    blank = lambda m: "".join(c if c == "\n" else " " for c in m.group(0))
    text = TOKEN.sub(lambda m: blank(m) if m.group(0).startswith("/") else '""' + blank(m)[2:], text)
    return VISIBILITY.sub(blank, text)


def module_files(src):
    files = {}
    for root, _, names in os.walk(src):
        for name in names:
            if not name.endswith(".rs"):
                continue
            rel = os.path.relpath(os.path.join(root, name), src)[:-3].split(os.sep)
            if rel[-1] in ("mod", "lib", "main"):
                rel = rel[:-1]
            files[tuple(rel)] = os.path.join(root, name)
    return files


def expand_use(tree):
    """`a::{b, c::{d, e}}` -> [a::b, a::c::d, a::c::e]."""
    tree = re.sub(r"\s+as\s+[A-Za-z_]\w*", "", tree)  # `x as y` names x
    tree = re.sub(r"\s+", "", tree)
    out = []

    def walk(prefix, s):
        i = s.find("{")
        if i < 0:
            for part in s.split(","):
                if part:
                    out.append(prefix + part)
            return
        head, body = s[:i], s[i + 1:]
        depth, j = 1, 0
        while depth:
            depth += {"{": 1, "}": -1}.get(body[j], 0)
            j += 1
        inner, rest = body[: j - 1], body[j:]
        items, depth, cur = [], 0, ""
        for ch in inner:
            if ch == "," and depth == 0:
                items.append(cur)
                cur = ""
                continue
            depth += {"{": 1, "}": -1}.get(ch, 0)
            cur += ch
        items.append(cur)
        for item in items:
            if item:
                walk(prefix + head, item)
        if rest.startswith(","):
            walk(prefix, rest[1:])

    walk("", tree)
    return out


USE = re.compile(r"(\bpub(?:\([^)]*\))?\s+)?\buse\s+([^;]+);")
PATH = re.compile(r"\b((?:crate|super|self)(?:\s*::\s*[A-Za-z_]\w*)+)")
MOD_OPEN = re.compile(r"\bmod\s+([A-Za-z_]\w*)\s*\{")


def imports(path, module, files):
    """(target module, line) pairs for one file, inline `mod x { }` scopes resolved."""
    text = strip(open(path, encoding="utf-8").read())
    # The module each offset is in: a stack of inline modules by brace depth.
    scopes = []  # (depth at open, name)
    depth = 0
    opens = {m.end() - 1: m.group(1) for m in MOD_OPEN.finditer(text)}
    where = [module] * (len(text) + 1)
    current = module
    for i, ch in enumerate(text):
        if ch == "{":
            depth += 1
            if i in opens:
                scopes.append((depth, opens[i]))
                current = module + tuple(n for _, n in scopes)
        elif ch == "}":
            if scopes and scopes[-1][0] == depth:
                scopes.pop()
                current = module + tuple(n for _, n in scopes)
            depth -= 1
        where[i] = current
    found = []
    spans = []
    for m in USE.finditer(text):
        spans.append((m.start(), m.end()))
        for p in expand_use(m.group(2)):
            found.append((p, m.start(), bool(m.group(1))))
    for m in PATH.finditer(text):
        if any(a <= m.start() < b for a, b in spans):
            continue
        found.append((re.sub(r"\s+", "", m.group(1)), m.start(), False))
    # Paths that start with a child module's name (`registry::builtin(..)`), not
    # preceded by `::` (then they are part of a longer path, seen above).
    children = {m[len(module)] for m in files if len(m) == len(module) + 1 and m[: len(module)] == module}
    if children:
        child = re.compile(r"(?<![:\w])(" + "|".join(map(re.escape, sorted(children))) + r")\s*::\s*[A-Za-z_]")
        for m in child.finditer(text):
            if any(a <= m.start() < b for a, b in spans):
                continue
            found.append(("self::" + m.group(1), m.start(), False))
    out = []
    for p, at, reexport in found:
        parts = p.split("::")
        here = list(where[at])
        if parts[0] == "crate":
            base, rest = [], parts[1:]
        elif parts[0] in ("super", "self"):
            base = here
            rest = parts
            while rest and rest[0] in ("super", "self"):
                if rest[0] == "super":
                    base = base[:-1]
                rest = rest[1:]
        elif tuple(here) + (parts[0],) in files:
            base, rest = here, parts  # a child module named relative to this one
        else:
            continue  # an external crate, or a name in scope
        full = base + [r for r in rest if r not in ("*", "self")]
        # The longest prefix that is a module file.
        for n in range(len(full), -1, -1):
            if tuple(full[:n]) in files:
                target = tuple(full[:n])
                break
        line = text.count("\n", 0, at) + 1
        if reexport and target[: len(here)] == tuple(here):
            continue  # a folder's front naming what is inside it: not a dependency
        out.append((target, line))
    return out


def floor(module):
    name = "::".join(module)
    best, level = -1, None
    for prefix, lvl in FLOORS:
        if prefix == "" or name == prefix or name.startswith(prefix + "::"):
            if len(prefix) > best:
                best, level = len(prefix), lvl
    return level


def sccs(nodes, edges):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--src", default=os.path.join(os.path.dirname(__file__), "..", "src"))
    ap.add_argument("--check", action="store_true", help="fail on a circle or an upward import")
    ap.add_argument("--dot", action="store_true", help="print the file graph for Graphviz")
    args = ap.parse_args()
    files = module_files(args.src)
    edges, where = {}, {}
    for module, path in files.items():
        for target, line in imports(path, module, files):
            if target == module:
                continue  # its own items
            edges.setdefault(module, set()).add(target)
            where.setdefault((module, target), line)
    name = lambda m: "::".join(m) or "crate"
    if args.dot:
        print("digraph modules {")
        for a in sorted(edges):
            for b in sorted(edges[a]):
                print(f'  "{name(a)}" -> "{name(b)}";')
        print("}")
        return 0
    problems = []
    for comp in sccs(files.keys(), edges):
        if len(comp) > 1:
            inside = set(comp)
            links = [
                f"{name(a)} -> {name(b)} (line {where[(a, b)]})"
                for a in comp for b in sorted(edges.get(a, ())) if b in inside
            ]
            problems.append("import circle: " + ", ".join(name(m) for m in comp)
                            + "\n    " + "\n    ".join(links))
    for a in sorted(edges):
        for b in sorted(edges[a]):
            if a[: len(b)] == b:
                continue  # a child reading its parent's items is not a floor question
            if floor(b) > floor(a):
                problems.append(
                    f"upward import: {files[a]}:{where[(a, b)]} ({name(a)}, floor {floor(a)}) "
                    f"imports {name(b)} (floor {floor(b)})"
                )
    for p in problems:
        print(p)
    if not problems:
        n = sum(len(v) for v in edges.values())
        print(f"module graph: {len(files)} files, {n} imports, no circle, none upward")
    return 1 if problems and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
