"""Optional dependencies: a missing one is one line saying which extra installs it.

    mqroute: analyze needs Spark: pip install 'mqroute[spark]' (and Java 17+)

`need(command, module...)` checks before any work is done; `missing_extra(command, error)`
turns a ModuleNotFoundError that escaped anyway into the same line (mqroute.main does,
for every command), never "internal error: ModuleNotFoundError".
"""

from __future__ import annotations

import importlib.util

from mqroute.errors import FatalError

#: Top-level module -> (what it gives, the extra that installs it, what else is needed).
EXTRAS: dict[str, tuple[str, str, str]] = {
    "pyspark": ("Spark", "spark", " (and Java 17+)"),
    "graphframes": ("GraphFrames", "spark", ""),
    "pandas": ("pandas", "spark", ""),
    "numpy": ("numpy", "spark", ""),
    "pyarrow": ("pyarrow", "spark", ""),
    "pygraphviz": ("pictures (Graphviz through pygraphviz)", "pictures", ""),
    "networkx": ("networkx", "pictures", ""),
    "opentelemetry": ("the OpenTelemetry OTLP exporter", "otel", ""),
    "ibmmq": ("IBM's MQ client (ibmmq)", "mq", " and IBM's MQ client libraries"),
    "pymqi": ("pymqi", "pymqi", " and IBM's MQ client libraries"),
    "prometheus_client": ("prometheus_client", "metrics", ""),
    "tqdm": ("tqdm (progress bars)", "spark", ""),
    "httpx": ("httpx (MQ's REST API)", "rest", ""),
}


def message(command: str, module: str, extra: str | None = None) -> str:
    """`COMMAND needs WHAT: pip install 'mqroute[EXTRA]'...` for a missing module (`extra`:
    the command's own extra, where it has one that brings the module too)."""
    top = module.split(".")[0]
    what, default, tail = EXTRAS.get(top, (top, "", ""))
    extra = extra or default
    install = f"pip install 'mqroute[{extra}]'" if extra else f"pip install {top}"
    return f"{command} needs {what}: {install}{tail}"


def available(module: str) -> bool:
    """Whether a module can be imported (without importing it; a parent that is missing or
    blocked counts as missing)."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def need(command: str, *modules: str, extra: str | None = None) -> None:
    """FatalError (one line, exit 2) naming the extra of the first module missing (`extra`
    when given: the one that installs all of them)."""
    for module in modules:
        if not available(module):
            raise FatalError(message(command, module, extra))


def missing_extra(command: str, error: ModuleNotFoundError) -> FatalError | None:
    """The one-line error of a ModuleNotFoundError of an optional dependency (None for any
    other module: that is a bug, reported as one)."""
    name = (error.name or "").split(".")[0]
    return FatalError(message(command, name)) if name in EXTRAS else None
