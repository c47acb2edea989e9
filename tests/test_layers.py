"""The import graph keeps its shape: layers point down, the pure core imports no I/O, no circles.

Every import in the project's packages counts, also those inside functions (a lazy import is
still a dependency). Importing a package's own parents (`traceroute` for
`traceroute.records.model`) is implied by Python and not counted.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("pcf", "traceroute", "graph", "mqroute")

#: The value packages of traceroute: pure functions over values, no I/O.
PURE = ("traceroute.records", "traceroute.routes", "traceroute.journeys", "traceroute.events",
        "traceroute.stats", "traceroute.display", "traceroute.smf", "traceroute.status",
        "traceroute.rest")
#: What each room may import of ours (besides itself); the longest matching prefix rules.
ALLOWED = {
    "pcf": ("pcf",),
    "traceroute": ("pcf", "traceroute"),  # the package face re-exports its rooms
    "traceroute.records": ("pcf",),
    "traceroute.routes": ("pcf", "traceroute.records"),
    "traceroute.journeys": ("pcf", "traceroute.records", "traceroute.routes",
                            "traceroute.events", "traceroute.stats"),
    "traceroute.events": ("pcf", "traceroute.records", "traceroute.routes",
                          "traceroute.journeys", "traceroute.stats", "traceroute.status"),
    "traceroute.stats": ("pcf", "traceroute.records", "traceroute.routes"),
    "traceroute.status": ("pcf",),
    "traceroute.rest": ("pcf", "traceroute.status"),
    "traceroute.display": ("pcf", *PURE),
    "traceroute.smf": (),
    "traceroute.sim": ("pcf", *PURE),
    "traceroute.readers": ("pcf", *PURE),
    "traceroute.mq": ("pcf", *PURE, "traceroute.sim", "traceroute.readers"),
    "graph": ("pcf", "traceroute"),
    "mqroute": PACKAGES,
}
#: Modules that do I/O (or talk to MQ or Spark): never imported by the pure core.
IO_MODULES = ("traceroute.readers", "traceroute.mq", "traceroute.sim", "pcf.dmpmqmsg", "graph",
              "mqroute", "pyspark", "pymqi", "ibmmq", "socket", "subprocess", "shutil")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path, module: str) -> set[str]:
    """Every module this file imports (absolute names), at any depth of the code."""
    tree = ast.parse(path.read_text(), filename=str(path))
    is_package = path.name == "__init__.py"
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".")
                anchor = anchor[: len(anchor) - node.level + (1 if is_package else 0)]
                base = ".".join([*anchor, base] if base else anchor)
            out.add(base)
            # `from pkg import sub` imports the submodule pkg.sub when there is one
            out.update(f"{base}.{alias.name}" for alias in node.names)
    return out


def _graph() -> dict[str, set[str]]:
    files = {(_module_name(p)): p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        targets = {t for t in _imports(path, module) if t in files}
        parents = {".".join(module.split(".")[:i]) for i in range(1, module.count(".") + 1)}
        graph[module] = targets - parents - {module}
    return graph


GRAPH = _graph()


def _room(module: str) -> str:
    return max((r for r in ALLOWED if module == r or module.startswith(r + ".")), key=len)


def _within(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def test_every_module_has_a_room():
    assert "traceroute.records.parse" in GRAPH and "mqroute.main" in GRAPH
    stray = [p.name for p in (ROOT / "traceroute").glob("*.py") if p.name != "__init__.py"]
    assert not stray, f"modules loose in traceroute/ (give them a subpackage): {stray}"


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_layers_point_down(module):
    room = _room(module)
    bad = sorted(t for t in GRAPH[module]
                 if not _within(t, (room, *ALLOWED[room])))
    assert not bad, f"{module} (in {room}) may not import {bad}"


@pytest.mark.parametrize("module", sorted(m for m in GRAPH if _within(m, PURE)))
def test_pure_core_imports_no_io(module):
    path = ROOT / Path(*module.split("."))
    path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    names = _imports(path, module)
    bad = sorted(n for n in names if _within(n, IO_MODULES))
    assert not bad, f"{module} is pure (sans-I/O) but imports {bad}"
    calls = [n for n in ast.walk(ast.parse(path.read_text()))
             if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "open"]
    assert not calls, f"{module} is pure (sans-I/O) but opens files (line {calls[0].lineno})"


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_import_circles():
    assert not _cycles(GRAPH), f"import circles: {_cycles(GRAPH)}"


def test_the_checker_sees_a_circle_and_a_wrong_layer():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert not _cycles({"a": {"b"}, "b": set()})
    room = _room("traceroute.records.parse")
    assert room == "traceroute.records"
    assert not _within("traceroute.sim.simulator", (room, *ALLOWED[room]))
