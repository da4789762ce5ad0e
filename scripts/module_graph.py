#!/usr/bin/env python3
"""Read the module graph of src/ from its imports and check its layering.

The tree is read the way rustc reads it: from its three crate roots, `core/src/lib.rs`
(the core crate, `dominofit_core`), `src/lib.rs` (the library) and `src/main.rs` (the
binary, whose modules name the library as `dominofit::`), through their `mod`
declarations (`#[path]` included). The library re-exports core modules under their own
names (`pub use dominofit_core::{puzzle, ...}`): a path through such a name is a path into
the core crate. A file no root reaches is reported: it is not compiled, so nothing
checks it. The core crate cannot name the library (Cargo forbids the cycle), so the
crate boundary needs no check of its own here; what the core may depend on outside is
checked in CI with `cargo tree`.

Every `use` and every inline `crate::`/`super::`/`self::`/`dominofit::` path, and every
path through a module a file has imported or declared, is resolved to the file that
defines what it names: the longest module prefix that is a file of the tree, then through
that module's `use` items (a re-export, public or one a child sees) and its glob imports
until the name is found where it is defined. A folder's front (`pub use` of its own
children) is thereby no dependency of its own, and an import through it counts as an
import of the file behind it. A glob import (`use super::*`) depends on what the file
takes from it: each name the file mentions that the glob brings in, resolved the same
way. Then:

* no import circle between files (strongly connected components of one file only);
* no import that runs up a floor: each file belongs to the floor of the longest prefix
  listed below that it matches, and may import only its own floor or those beneath it
  (a child reading its parent's items is not a floor question).

`--check` exits non-zero with the offending imports; `--dot` prints the graph for
Graphviz. The floors are those of ARCHITECTURE.md.
"""
import argparse
import os
import re
import sys

# Floors, bottom first. A file's floor is the entry with the longest matching prefix
# (module paths, `::`-separated, relative to the crate root; the binary's modules are
# named from main.rs the same way).
FLOORS = [
    # 0: user text as data, the clock, memory; and the operating system: usage, signals,
    # processes
    ("escape", 0), ("time", 0), ("stop", 0), ("memory", 0), ("program", 0), ("usage", 0), ("interrupt", 0),
    ("process", 0),
    # 1: the game, and its files opened by path
    ("files", 1), ("testing", 1),
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
    # 10: one library call per user action
    ("action", 10),
    # 11: the command line
    ("cli", 11),
]
# The crate roots (lib.rs, main.rs) declare modules; nothing should import from them.
ROOT_FLOOR = 12
LIBRARY = "dominofit"
CORE = "dominofit_core"

TOKEN = re.compile(r"//[^\n]*|/\*.*?\*/|b?r(#*)\".*?\"\1|b?\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])'", re.S)
VISIBILITY = re.compile(r"\bpub\s*\(\s*(?:in\s+[^)]*|crate|super|self)\s*\)")


def strip(text):
    """Comments, literals and visibilities out (`pub(in crate::x)` names no dependency;
    lifetimes like 'a stay: the char pattern needs a close). Lengths are kept, so that
    offsets still give line numbers. `#[path = "x.rs"]` is read before this."""
    blank = lambda m: "".join(c if c == "\n" else " " for c in m.group(0))
    text = TOKEN.sub(lambda m: blank(m) if m.group(0).startswith("/") else '""' + blank(m)[2:], text)
    return VISIBILITY.sub(blank, text)


def expand_use(tree):
    """`a::{b, c::{d as e}}` -> [(a::b, b), (a::c::d, e)]: each path with the name it binds."""
    tree = re.sub(r"\s+", " ", tree).strip()
    tree = re.sub(r"\s*::\s*", "::", tree)
    tree = re.sub(r"\s*([{},])\s*", r"\1", tree)
    out = []

    def leaf(prefix, part):
        alias = None
        m = re.match(r"^(.*?) as ([A-Za-z_]\w*)$", part)
        if m:
            part, alias = m.group(1), m.group(2)
        path = (prefix + part).split("::")
        if path[-1] == "self":
            path = path[:-1]
        if not path or not path[0]:
            return
        out.append(("::".join(path), alias or path[-1]))

    def walk(prefix, s):
        i = s.find("{")
        if i < 0:
            for part in s.split(","):
                if part:
                    leaf(prefix, part)
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


USE = re.compile(r"(\bpub\s+)?\buse\s+([^;]+);")
PATH = re.compile(r"(?<![:\w])((?:crate|super|self|" + LIBRARY + r")(?:\s*::\s*[A-Za-z_]\w*)+)")
MOD_OPEN = re.compile(r"\bmod\s+([A-Za-z_]\w*)\s*\{")
MOD_DECL = re.compile(r"(?:#\[path\s*=\s*\"([^\"]+)\"\]\s*)?(?:#\[[^\]]*\]\s*)*(?:\bpub\s+)?\bmod\s+([A-Za-z_]\w*)\s*;")
ITEM = re.compile(r"\b(?:fn|struct|enum|trait|type|const|static|union|mod)\s+([A-Za-z_]\w*)|\bmacro_rules!\s*([A-Za-z_]\w*)")
WORD = re.compile(r"[A-Za-z_]\w*")


class File:
    """One module file: its text without comments and literals, the inline module each
    offset is in, its `use` items and the names it defines."""

    def __init__(self, crate, module, path):
        self.crate, self.module, self.path = crate, module, path
        raw = open(path, encoding="utf-8").read()
        self.text = strip(raw)
        # `#[path]` values are literals, gone from the stripped text: keep them by offset.
        self.paths = {m.start(): m.group(1) for m in re.finditer(r"#\[path\s*=\s*\"([^\"]+)\"\]", raw)}
        self.where = self._scopes()
        self.uses = []  # (path, bound name, offset, public, scope)
        self.spans = []
        for m in USE.finditer(self.text):
            self.spans.append((m.start(), m.end()))
            for p, name in expand_use(m.group(2)):
                self.uses.append((p, name, m.start(), bool(m.group(1)), self.where[m.start()]))
        self.defines = set()
        for m in ITEM.finditer(self.text):
            if self.where[m.start()] == module:
                self.defines.add(m.group(1) or m.group(2))
        self.words = set(WORD.findall(self.text))

    def _scopes(self):
        scopes, depth = [], 0
        opens = {m.end() - 1: m.group(1) for m in MOD_OPEN.finditer(self.text)}
        where = [self.module] * (len(self.text) + 1)
        current = self.module
        for i, ch in enumerate(self.text):
            if ch == "{":
                depth += 1
                if i in opens:
                    scopes.append((depth, opens[i]))
                    current = self.module + tuple(n for _, n in scopes)
            elif ch == "}":
                if scopes and scopes[-1][0] == depth:
                    scopes.pop()
                    current = self.module + tuple(n for _, n in scopes)
                depth -= 1
            where[i] = current
        return where

    def line(self, at):
        return self.text.count("\n", 0, at) + 1

    def children(self, directory):
        """`(module, file)` for each `mod x;` this file declares."""
        out = []
        for m in MOD_DECL.finditer(self.text):
            name = m.group(2)
            scope = self.where[m.start(2)]
            inline = list(scope[len(self.module):])
            explicit = next((v for k, v in self.paths.items() if m.start() <= k < m.start(2)), None)
            base = os.path.join(directory, *inline)
            if explicit:  # relative to the file's own folder, whatever its name
                candidates = [os.path.join(os.path.dirname(self.path), *inline, explicit)]
            else:
                candidates = [os.path.join(base, name + ".rs"), os.path.join(base, name, "mod.rs")]
            found = next((c for c in candidates if os.path.isfile(c)), None)
            if found:
                out.append((scope + (name,), found))
        return out


def read_tree(src, core):
    """Every module file reached from the crate roots, keyed `(crate, path...)`."""
    files = {}
    roots = (("core", os.path.join(core, "lib.rs")), ("lib", os.path.join(src, "lib.rs")),
             ("bin", os.path.join(src, "main.rs")))
    for crate, start in roots:
        if not os.path.isfile(start):
            continue
        todo = [((crate,), start)]
        while todo:
            key, path = todo.pop()
            if key in files:
                continue
            f = File(crate, key, path)
            files[key] = f
            stem = os.path.basename(path)[:-3]
            here = os.path.dirname(path)
            directory = here if stem in ("mod", "lib", "main") else os.path.join(here, stem)
            todo.extend(f.children(directory))
    reached = {os.path.realpath(f.path) for f in files.values()}
    stray = []
    for root, _, names in [w for d in (core, src) if os.path.isdir(d) for w in os.walk(d)]:
        for name in sorted(names):
            p = os.path.join(root, name)
            if name.endswith(".rs") and os.path.realpath(p) not in reached:
                stray.append(p)
    return files, sorted(stray)


class Graph:
    def __init__(self, files):
        self.files = files
        # The core modules the library re-exports under their own names.
        lib = files.get(("lib",))
        self.mounts = set()
        if lib:
            for p, bound, _, public, scope in lib.uses:
                parts = p.split("::")
                if public and scope == ("lib",) and parts[0] == CORE and len(parts) == 2:
                    self.mounts.add(bound)

    def locate(self, scope, parts):
        """An absolute module key and the rest of the path, or None (an external crate or
        a name only in scope). `scope` is the inline module the path is written in."""
        crate = scope[0]
        if parts[0] == "crate":
            base, rest = [crate], parts[1:]
        elif parts[0] == LIBRARY and crate == "bin":
            base, rest = ["lib"], parts[1:]
        elif parts[0] == CORE and crate != "core":
            base, rest = ["core"], parts[1:]
        elif parts[0] in ("super", "self"):
            base, rest = list(scope), parts
            while rest and rest[0] in ("super", "self"):
                if rest[0] == "super":
                    base = base[:-1]
                rest = rest[1:]
        elif tuple(scope) + (parts[0],) in self.files:
            base, rest = list(scope), parts  # a child module named relative to this one
        else:
            return None
        full = base + rest
        if full[0] == "lib" and len(full) > 1 and full[1] in self.mounts:
            full = ["core"] + full[1:]
        for n in range(len(full), 0, -1):
            if tuple(full[:n]) in self.files:
                return tuple(full[:n]), full[n:]
        return None

    def owner(self, key):
        """The file a module key lives in (inline modules live in their file)."""
        for n in range(len(key), 0, -1):
            if key[:n] in self.files:
                return key[:n]
        return key[:1]

    def resolve(self, key, rest, seen=None):
        """The file that defines `key::rest[0]`, through `use` items and globs."""
        if not rest or rest[0] == "*":
            return key
        seen = seen or set()
        if (key, rest[0]) in seen:
            return key
        seen.add((key, rest[0]))
        f = self.files[key]
        name = rest[0]
        for p, bound, _, _, scope in f.uses:
            if bound == name and scope == key:
                hit = self.locate(scope, p.split("::"))
                if hit:
                    return self.resolve(hit[0], hit[1] + rest[1:], seen)
        if key + (name,) in self.files:
            return self.resolve(key + (name,), rest[1:], seen)
        if name in f.defines:
            return key
        for p, bound, _, _, scope in f.uses:
            if bound == "*" and scope == key:
                hit = self.locate(scope, p.split("::"))
                if hit and hit[1] in ([], ["*"]):
                    g = self.files[hit[0]]
                    child = hit[0] + (name,) in self.files  # a module a glob brings in
                    if child or name in g.defines or any(b == name for _, b, *_ in g.uses):
                        return self.resolve(hit[0], rest, seen)
        return key

    def glob_targets(self, f, key, scope):
        """What a file takes from `use key::*`: its defining file for each name brought in
        that the file mentions."""
        return self.glob_names(f, key, set()) or {key}

    def glob_names(self, f, key, seen):
        """The defining files of the names `key::*` brings in that `f` mentions: what
        `key` defines, what it imports by name, and through its own glob imports
        (`pub use a::*;` in a front), followed the same way."""
        if key in seen:
            return set()
        seen.add(key)
        g = self.files[key]
        out = set()
        if f.words & g.defines:
            out.add(key)
        for p, bound, _, _, s in g.uses:
            if s != key:
                continue
            hit = self.locate(s, p.split("::"))
            if not hit:
                continue
            if bound == "*":
                if hit[1] in ([], ["*"]):
                    out |= self.glob_names(f, hit[0], seen)
            elif bound in f.words:
                out.add(self.resolve(hit[0], hit[1]))
        return out

    def imports(self, f):
        """(target file, offset) for one file."""
        out = []
        aliases = {}  # a name bound to a module: paths through it are resolved below
        for p, bound, at, public, scope in f.uses:
            hit = self.locate(scope, p.split("::"))
            if not hit:
                continue
            key, rest = hit
            if bound == "*":
                if public and key[: len(scope)] == scope:
                    continue  # a front re-exporting its child wholesale
                if self.owner(key) == f.module:
                    continue  # an inline `mod tests { use super::*; }`: the file itself
                out.extend((t, at) for t in self.glob_targets(f, key, scope))
                continue
            target = self.resolve(key, rest)
            if not rest:
                aliases[(scope, bound)] = key  # a module: what depends is the path through it
                continue
            if public and target[: len(scope)] == scope:
                continue  # a folder's front naming what is inside it: not a dependency
            out.append((target, at))
        used = set()
        for m in PATH.finditer(f.text):
            if any(a <= m.start() < b for a, b in f.spans):
                continue
            hit = self.locate(f.where[m.start()], re.sub(r"\s+", "", m.group(1)).split("::"))
            if hit:
                out.append((self.resolve(*hit), m.start()))
        # Paths through a bound module or a declared child (`registry::builtin(..)`), not
        # preceded by `::` (then they are part of a longer path, seen above).
        heads = {name for (_, name) in aliases}
        heads |= {k[-1] for k in self.files if k[:-1] == f.module}
        if heads:
            head = re.compile(r"(?<![:\w])(" + "|".join(map(re.escape, sorted(heads))) + r")\s*::\s*([A-Za-z_]\w*)")
            for m in head.finditer(f.text):
                if any(a <= m.start() < b for a, b in f.spans):
                    continue
                scope = f.where[m.start()]
                key = next((aliases[(scope[:n], m.group(1))] for n in range(len(scope), 0, -1)
                            if (scope[:n], m.group(1)) in aliases), None)
                if key is None:
                    key = f.module + (m.group(1),)
                    if key not in self.files:
                        continue
                used.update((scope[:n], m.group(1)) for n in range(len(scope), 0, -1))
                out.append((self.resolve(key, [m.group(2)]), m.start()))
        for (scope, name), key in aliases.items():
            if (scope, name) not in used:
                at = next(a for p, b, a, _, s in f.uses if (s, b) == (scope, name))
                out.append((key, at))  # a module bound and used otherwise (a macro, a type)
        return out


def display(key):
    name = "::".join(key[1:]) or {"lib": "crate", "bin": "main", "core": ""}[key[0]]
    return f"{CORE}::{name}".rstrip(":") if key[0] == "core" else name


def floor(key):
    if len(key) == 1:
        return ROOT_FLOOR
    name = "::".join(key[1:])
    best, level = -1, ROOT_FLOOR
    for prefix, lvl in FLOORS:
        if name == prefix or name.startswith(prefix + "::"):
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
    ap.add_argument("--core", default=os.path.join(os.path.dirname(__file__), "..", "core", "src"))
    ap.add_argument("--check", action="store_true", help="fail on a circle, an upward import or a stray file")
    ap.add_argument("--dot", action="store_true", help="print the file graph for Graphviz")
    args = ap.parse_args()
    files, stray = read_tree(args.src, args.core)
    graph = Graph(files)
    edges, where = {}, {}
    for key, f in files.items():
        for target, at in graph.imports(f):
            target = graph.owner(target)
            if target == key:
                continue  # its own items
            edges.setdefault(key, set()).add(target)
            where.setdefault((key, target), f.line(at))
    if args.dot:
        print("digraph modules {")
        for a in sorted(edges):
            for b in sorted(edges[a]):
                print(f'  "{display(a)}" -> "{display(b)}";')
        print("}")
        return 0
    problems = [f"stray file: {p} is declared by no module of a crate root" for p in stray]
    for comp in sccs(files.keys(), edges):
        if len(comp) > 1:
            inside = set(comp)
            links = [
                f"{display(a)} -> {display(b)} (line {where[(a, b)]})"
                for a in comp for b in sorted(edges.get(a, ())) if b in inside
            ]
            problems.append("import circle: " + ", ".join(display(m) for m in comp)
                            + "\n    " + "\n    ".join(links))
    for a in sorted(edges):
        for b in sorted(edges[a]):
            if a[: len(b)] == b:
                continue  # a child reading its parent's items is not a floor question
            if floor(b) > floor(a):
                problems.append(
                    f"upward import: {files[a].path}:{where[(a, b)]} ({display(a)}, floor {floor(a)}) "
                    f"imports {display(b)} (floor {floor(b)})"
                )
    for p in problems:
        print(p)
    if not problems:
        n = sum(len(v) for v in edges.values())
        print(f"module graph: {len(files)} files, {n} imports, no circle, none upward")
    return 1 if problems and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
