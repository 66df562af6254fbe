#!/usr/bin/env python3
"""The layer check: which part of Sandbench may include which.

    check_layers.py SOURCE_DIR

Reads every #include of core/, app/ and ui/ and fails (exit 1, one line per finding, FILE:LINE: why) when:
- a core module includes a module that LAYERS below does not allow it;
- anything outside a module includes that module's private header (a header outside
  core/MODULE/include/MODULE/), except the tests, benchmarks and fuzzers that check the module's parts;
- core includes the Qt layer, an application, or a Qt header, or a core CMake file names Qt (core is Qt-free);
- the command line includes the Qt layer;
- a quoted include names no file of the tree (it could hide any of the above).
docs/ARCHITECTURE.md draws the same table.
"""

import pathlib
import re
import sys

# Module: the modules it may include. The order is the order of the layers; nothing includes upward.
LAYERS = {
    "util": set(),
    "cel": {"util"},
    "isolation": {"util"},
    "store": {"util", "isolation"},
    "checkpoints": {"util", "store"},
    "promotion": {"util", "isolation", "checkpoints"},
    "sandboxes": {"util", "isolation", "store", "checkpoints", "promotion"},
    "rules": {"util", "cel", "store", "checkpoints", "promotion"},
    "demo": {"util", "isolation", "store", "checkpoints", "promotion", "sandboxes"},
    # Cluster backends: the scheduler's client commands and the backends' configuration.
    "cluster": {"util"},
    # The application layer: the use cases the command line, the window and the MCP gateway call.
    "usecases": {"util", "cel", "isolation", "store", "checkpoints", "promotion", "sandboxes", "rules", "demo",
                 "cluster"},
    # Agent sessions behind the MCP gateway, on the use cases (core/agents, when it exists).
    "agents": {"util", "cel", "isolation", "store", "checkpoints", "sandboxes", "rules", "demo", "usecases", "cluster"},
}

# Headers the build generates, by their spelling: the module whose target makes them.
GENERATED = {"isolation/policy_presets.h": "isolation", "demo/worked_example_files.h": "demo"}

# Front ends: what they may include besides every module's public headers.
FRONT_ENDS = {
    "app/cli": {"app/cli"},
    "app/gui": {"app/gui", "ui"},
    "ui": {"ui"},
}

# Parts that check modules from inside: they may include private headers too.
CHECKERS = ("tests", "bench", "fuzz")

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]')
QT_HEADER = re.compile(r"^(Q[A-Za-z]+|Qt[A-Za-z]*/)")
QT_CMAKE = re.compile(r"Qt[56]?::|find_package\(Qt")


def part_of(root, path):
    """('core', MODULE), ('front', NAME), ('checker', NAME) or None for a file of the tree."""
    rel = path.relative_to(root).parts
    if rel[0] == "core" and len(rel) > 2:
        return ("core", rel[1])
    if rel[0] == "app" and len(rel) > 2:
        return ("front", "app/" + rel[1])
    if rel[0] == "ui":
        return ("front", "ui")
    if rel[0] in CHECKERS:
        return ("checker", rel[0])
    return None


def resolve(root, source, spelling):
    """(kind, owner) of what a quoted include names: ('public'|'private', MODULE), ('front', NAME) or None."""
    if spelling in GENERATED:
        return ("private", GENERATED[spelling])
    local = (source.parent / spelling).resolve()
    candidates = []
    if local.is_file():
        candidates.append(local)
    first = spelling.split("/")[0]
    if first in ("ui", "app"):
        candidates.append(root / spelling)
    else:
        candidates.append(root / "core" / first / "include" / spelling)
        # A module's private header spelled with its folder: only a checker's include path reaches it.
        candidates.append(root / "core" / spelling)
    for candidate in candidates:
        if not candidate.is_file():
            continue
        rel = candidate.relative_to(root).parts
        if rel[0] == "core":
            module = rel[1]
            public = len(rel) > 3 and rel[2] == "include" and rel[3] == module
            return ("public" if public else "private", module)
        if rel[0] == "ui":
            return ("front", "ui")
        if rel[0] == "app":
            return ("front", "app/" + rel[1])
        if rel[0] in CHECKERS:
            return ("checker", rel[0])
    return None


def check(root):
    findings = []
    for module in sorted(p.name for p in (root / "core").iterdir() if p.is_dir()):
        if module not in LAYERS:
            findings.append(f"core/{module}: a module the layer table (tests/check_layers.py) does not know")
    sources = [p for top in ("core", "app", "ui", *CHECKERS) for p in sorted((root / top).rglob("*"))
               if p.suffix in (".h", ".cpp") and "node_modules" not in p.parts]
    for source in sources:
        part = part_of(root, source)
        if part is None:
            continue
        kind, name = part
        rel = source.relative_to(root)
        for number, line in enumerate(source.read_text(errors="replace").splitlines(), 1):
            match = INCLUDE.match(line)
            if not match:
                continue
            quote, spelling = match.groups()
            where = f"{rel}:{number}"
            if quote == "<":
                if kind == "core" and QT_HEADER.match(spelling):
                    findings.append(f"{where}: core must not use Qt: <{spelling}>")
                continue
            target = resolve(root, source, spelling)
            if target is None:
                if kind != "checker":
                    findings.append(f'{where}: "{spelling}" names no file of the tree')
                continue
            what, owner = target
            if kind == "checker":
                continue
            if what == "private" and not (kind == "core" and owner == name):
                findings.append(f'{where}: "{spelling}" is private to core/{owner} (its public headers are in '
                                f"core/{owner}/include/{owner}/)")
            elif what == "public" and kind == "core" and owner != name and owner not in LAYERS.get(name, set()):
                findings.append(f'{where}: core/{name} may not include core/{owner} ("{spelling}"); it may '
                                f"include: {', '.join(sorted(LAYERS.get(name, set()))) or 'no other module'}")
            elif what == "front" and kind == "core":
                findings.append(f'{where}: core must not include the front ends ("{spelling}")')
            elif what == "front" and kind == "front" and owner not in FRONT_ENDS[name]:
                findings.append(f'{where}: {name} may not include {owner} ("{spelling}")')
            elif what == "checker":
                findings.append(f'{where}: "{spelling}" belongs to the {owner}, not to the product')
    for cmake in sorted((root / "core").rglob("CMakeLists.txt")) + sorted((root / "core").rglob("*.cmake")):
        for number, line in enumerate(cmake.read_text(errors="replace").splitlines(), 1):
            if QT_CMAKE.search(line):
                findings.append(f"{cmake.relative_to(root)}:{number}: core must not use Qt: {line.strip()}")
    return findings, len(sources)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check_layers.py SOURCE_DIR")
    root = pathlib.Path(sys.argv[1]).resolve()
    findings, count = check(root)
    if findings:
        print(f"the layers are crossed ({len(findings)} finding{'s' if len(findings) != 1 else ''}):",
              file=sys.stderr)
        for finding in findings:
            print("  " + finding, file=sys.stderr)
        sys.exit(1)
    print(f"layers hold: {count} files of core/, app/, ui/, tests/, bench/ and fuzz/ include only what "
          f"their layer allows; core/ is Qt-free")


if __name__ == "__main__":
    main()
