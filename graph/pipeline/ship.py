"""The job ships itself: its packages, native code included, for executors without mqroute.

Two forms, both built from wherever this process imports `pcf`, `traceroute`, `graph`,
`mqroute` and the `ebcdic` codecs:

* a packed environment, `mqroute-env.tar.gz` (`build_environment`): `site/` holds the
  packages as folders, so the compiled decoder (`pcf._cdecode`) and the compiled column
  maker (`graph.pipeline._ccolumns`) load on the executor, and `bin/python` runs the base
  Python with `site/` first on its path. Spark unpacks it on every node (`--archives`, as
  PySpark's package-management guide does with venv-pack). `--with-deps` also packs the
  installed distributions executors need (pyarrow, pandas, numpy and what they require), so
  a node needs only the same CPython; the native code is for this machine's platform and
  Python (`MQROUTE_ENV.json` names them) and anything that cannot load falls back to the
  pure-Python path, never to an error.
* a zip of the pure-Python packages (`build_zip`), for `--py-files` and clusters that
  cannot take archives: executors then decode in pure Python (extensions cannot load from
  a zip).

`ship` does it for a session `mqroute analyze --master URL` starts: it adds the environment
(`SparkContext.addArchive`, unpacked as `mqroute_env/` in each executor's working folder)
and puts its `site/` first on the executors' Python path. `python -m graph.pipeline.ship DIR
[--with-deps]` writes both forms and the launcher `mqroute_analyze.py` for `spark-submit`.
"""

from __future__ import annotations

import argparse
import atexit
import importlib
import importlib.metadata as metadata
import io
import json
import os
import re
import shutil
import sys
import sysconfig
import tarfile
import tempfile
import zipfile
from collections.abc import Iterable, Iterator
from pathlib import Path

#: The packages executors need (the decoder, the ordering code, the job, its codecs).
PACKAGES = ("pcf", "traceroute", "graph", "mqroute", "ebcdic")
#: The distributions an executor imports besides mqroute (`--with-deps` packs them and what
#: they require; pyspark itself comes from the Spark installation).
EXECUTOR_DISTRIBUTIONS = ("pyarrow", "pandas", "ebcdic")
#: The environment's file name and the folder executors unpack it into.
ARCHIVE, UNPACKED = "mqroute-env.tar.gz", "mqroute_env"

LAUNCHER = '''"""spark-submit entry point of `mqroute analyze` (its code comes in mqroute.zip)."""
import sys

from graph.pipeline.job import main

sys.exit(main())
'''

#: `bin/python` of the environment: the base Python with `site/` first on its path. The
#: base is MQROUTE_BASE_PYTHON, else the interpreter that built the environment when a node
#: has it at the same place, else python3.X from PATH.
_RUNNER = """#!/bin/sh
# mqroute's packed environment (graph.pipeline.ship): site/ first, then the base Python.
here=$(cd "$(dirname "$0")/.." && pwd)
PYTHONPATH="$here/site${{PYTHONPATH:+:$PYTHONPATH}}"
MQROUTE_SHIPPED=$here
export PYTHONPATH MQROUTE_SHIPPED
base=${{MQROUTE_BASE_PYTHON:-{built}}}
[ -x "$base" ] || base=python{version}
exec "$base" "$@"
"""

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def _package_dir(name: str) -> Path | None:
    """The folder a package is imported from, or None when it is not a folder (a zip)."""
    module = importlib.import_module(name)
    folder = Path(module.__file__).parent
    return folder if folder.is_dir() else None


def _skipped(rel: Path) -> bool:
    return "__pycache__" in rel.parts or rel.suffix in (".pyc", ".o")


def package_files() -> list[tuple[Path, str]] | None:
    """(file, name inside `site/`) of every package file, native code included; None when
    the packages are imported from a zip already."""
    folders = [_package_dir(name) for name in PACKAGES]
    if any(folder is None for folder in folders):
        return None
    files = []
    for folder in folders:
        for file in sorted(folder.rglob("*")):
            rel = file.relative_to(folder.parent)
            if file.is_file() and not _skipped(rel):
                files.append((file, rel.as_posix()))
    return files


def _required(dist: metadata.Distribution) -> Iterator[str]:
    """The names of the distributions `dist` requires unconditionally (no extras)."""
    for line in dist.requires or ():
        requirement, _, marker = line.partition(";")
        if "extra" in marker:
            continue
        match = _NAME.match(requirement.strip())
        if match:
            yield match.group(0)


def dependency_files(names: Iterable[str] = EXECUTOR_DISTRIBUTIONS) -> list[tuple[Path, str]]:
    """(file, name inside `site/`) of the installed distributions `names` and of all they
    require, as their RECORDs list them (files outside site-packages, scripts, are left)."""
    seen: set[str] = set()
    todo = list(names)
    files: dict[str, Path] = {}
    while todo:
        name = todo.pop()
        key = re.sub(r"[-_.]+", "-", name).lower()
        if key in seen:
            continue
        seen.add(key)
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        todo.extend(_required(dist))
        root = Path(dist.locate_file("")).resolve()
        for entry in dist.files or ():
            rel = Path(entry)
            if ".." in rel.parts or rel.is_absolute() or _skipped(rel):
                continue
            file = root / rel
            if file.is_file():
                files.setdefault(rel.as_posix(), file)
    return [(file, rel) for rel, file in sorted(files.items())]


def _add_bytes(tar: tarfile.TarFile, name: str, data: bytes, mode: int = 0o644) -> None:
    info = tarfile.TarInfo(name)
    info.size, info.mode = len(data), mode
    tar.addfile(info, io.BytesIO(data))


def build_environment(dest: str | os.PathLike, *, with_deps: bool = False) -> Path | None:
    """Write the packed environment `dest` (a .tar.gz); None when the packages are
    imported from a zip (there is no native code to pack then)."""
    files = package_files()
    if files is None:
        return None
    if with_deps:
        ours = {rel for _f, rel in files}
        files += [(f, rel) for f, rel in dependency_files() if rel not in ours]
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    about = {"python": version, "implementation": sys.implementation.cache_tag,
             "platform": sysconfig.get_platform(),
             "native": sorted(rel for _f, rel in files if rel.endswith(suffix)),
             "with_deps": with_deps, "packages": list(PACKAGES)}
    dest = Path(dest)
    part = dest.with_name(dest.name + ".part")
    with tarfile.open(part, "w:gz", compresslevel=1 if with_deps else 6) as tar:
        runner = _RUNNER.format(built=sys.executable, version=version)
        _add_bytes(tar, "bin/python", runner.encode(), 0o755)
        _add_bytes(tar, "MQROUTE_ENV.json", json.dumps(about, indent=1).encode() + b"\n")
        for file, rel in files:
            tar.add(file, f"site/{rel}", recursive=False)
    part.replace(dest)
    return dest


def build_zip(dest: str | os.PathLike) -> Path | None:
    """Write the packages to the zip `dest`; None when they are already imported from a zip."""
    files = package_files()
    if files is None:
        return None
    dest = Path(dest)
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as z:
        for file, rel in files:
            if not rel.endswith((".so", ".pyd")):  # cannot load from a zip
                z.write(file, rel)
    return dest


def is_local(spark) -> bool:
    """True when the session runs in local mode (executors share this interpreter's files)."""
    return spark.sparkContext.master.startswith("local")


def ship(spark, *, force: bool = False) -> Path | None:
    """Give a cluster session's executors mqroute: the packed environment (native code
    intact), or the pure-Python zip where Spark cannot add archives; None in local mode or
    when the packages come from a zip already (spark-submit `--py-files`) or this driver
    runs in the environment (`bin/python` sets MQROUTE_SHIPPED: spark-submit `--archives`)."""
    if (is_local(spark) and not force) or os.environ.get("MQROUTE_SHIPPED"):
        return None
    sc = spark.sparkContext
    folder = tempfile.mkdtemp(prefix="mqroute-ship-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)  # served until the driver ends
    if hasattr(sc, "addArchive"):
        path = build_environment(Path(folder) / ARCHIVE)
        if path is not None:
            sc.addArchive(f"{path}#{UNPACKED}")
            # relative: each Python worker starts in its executor's working folder, where
            # Spark unpacks the archive; first, before anything the node has installed
            before = sc.environment.get("PYTHONPATH", "")
            sc.environment["PYTHONPATH"] = os.pathsep.join(
                p for p in (f"{UNPACKED}/site", before) if p)
            return path
    path = build_zip(Path(folder) / "mqroute.zip")
    if path is not None:
        sc.addPyFile(str(path))
    return path


def main(argv: list[str] | None = None) -> int:
    """Write mqroute-env.tar.gz, mqroute.zip and mqroute_analyze.py into a folder."""
    parser = argparse.ArgumentParser(
        prog="python -m graph.pipeline.ship",
        description="Write what spark-submit needs to run `mqroute analyze` on executors "
                    "without mqroute: a packed environment with native code "
                    f"({ARCHIVE}), the pure-Python zip (mqroute.zip) and the launcher.")
    parser.add_argument("folder", metavar="DIR", help="where to write them (made if missing)")
    parser.add_argument("--with-deps", action="store_true",
                        help="also pack pyarrow, pandas, numpy and what they require, so "
                             "nodes need only the same CPython")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    folder = Path(args.folder)
    folder.mkdir(parents=True, exist_ok=True)
    env = build_environment(folder / ARCHIVE, with_deps=args.with_deps)
    if env is None or build_zip(folder / "mqroute.zip") is None:
        print("mqroute: the packages are imported from a zip already", file=sys.stderr)
        return 2
    (folder / "mqroute_analyze.py").write_text(LAUNCHER, encoding="utf-8")
    print(f"{env}\n{folder / 'mqroute.zip'}\n{folder / 'mqroute_analyze.py'}")
    print(f"spark-submit --archives {env}#{UNPACKED} "
          f"--conf spark.pyspark.python=./{UNPACKED}/bin/python "
          f"--conf spark.pyspark.driver.python={sys.executable} "
          f"{folder / 'mqroute_analyze.py'} INPUT... --out OUT", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
