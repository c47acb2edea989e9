"""The job ships itself: a zip of mqroute's pure-Python packages for bare executors.

`build_zip` packs `pcf`, `traceroute`, `graph`, `mqroute` and the pure-Python `ebcdic`
codec package from wherever this process imports them; `ship` adds that zip to a cluster
session (`SparkContext.addPyFile`), so executors need only Python with pyspark, pyarrow and
pandas. When the packages already come from a zip (spark-submit `--py-files`), nothing is
built. `python -m graph.pipeline.ship DIR` writes `mqroute.zip` and the launcher
`mqroute_analyze.py` for `spark-submit` on YARN or Kubernetes.
"""

from __future__ import annotations

import atexit
import importlib
import os
import shutil
import sys
import tempfile
import zipfile
from pathlib import Path

#: The packages executors need (the decoder, the ordering code, the job, its codecs).
PACKAGES = ("pcf", "traceroute", "graph", "mqroute", "ebcdic")

LAUNCHER = '''"""spark-submit entry point of `mqroute analyze` (its code comes in mqroute.zip)."""
import sys

from graph.pipeline.job import main

sys.exit(main())
'''


def _package_dir(name: str) -> Path | None:
    """The folder a package is imported from, or None when it is not a folder (a zip)."""
    module = importlib.import_module(name)
    folder = Path(module.__file__).parent
    return folder if folder.is_dir() else None


def build_zip(dest: str | os.PathLike) -> Path | None:
    """Write the packages to the zip `dest`; None when they are already imported from a zip."""
    folders = {name: _package_dir(name) for name in PACKAGES}
    if any(folder is None for folder in folders.values()):
        return None
    dest = Path(dest)
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as z:
        for folder in folders.values():
            for file in sorted(folder.rglob("*")):
                rel = file.relative_to(folder.parent)
                if not file.is_file() or "__pycache__" in rel.parts or file.suffix == ".pyc":
                    continue
                z.write(file, rel.as_posix())
    return dest


def is_local(spark) -> bool:
    """True when the session runs in local mode (executors share this interpreter's files)."""
    return spark.sparkContext.master.startswith("local")


def ship(spark, *, force: bool = False) -> Path | None:
    """Add the packages' zip to a cluster session; None in local mode or when already shipped."""
    if is_local(spark) and not force:
        return None
    folder = tempfile.mkdtemp(prefix="mqroute-ship-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)  # served until the driver ends
    path = build_zip(Path(folder) / "mqroute.zip")
    if path is not None:
        spark.sparkContext.addPyFile(str(path))
    return path


def main(argv: list[str] | None = None) -> int:
    """Write mqroute.zip and mqroute_analyze.py into a folder, for spark-submit."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m graph.pipeline.ship DIR", file=sys.stderr)
        return 2
    folder = Path(args[0])
    folder.mkdir(parents=True, exist_ok=True)
    if build_zip(folder / "mqroute.zip") is None:
        print("mqroute: the packages are imported from a zip already", file=sys.stderr)
        return 2
    (folder / "mqroute_analyze.py").write_text(LAUNCHER, encoding="utf-8")
    print(f"{folder / 'mqroute.zip'}\n{folder / 'mqroute_analyze.py'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
