"""Write the worked-analysis notebooks from their cell sources, then run them to save outputs.

Usage: python tools/make_notebooks.py [NAME...]   (default: every notebook)
The notebooks are committed with their outputs; the test suite runs them again.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parents[1] / "notebooks"


def cells_of(source: str) -> list:
    """Split a '# %% [markdown]' / '# %%' script into notebook cells."""
    cells = []
    for chunk in source.split("# %%")[1:]:
        head, _, body = chunk.partition("\n")
        body = body.strip("\n")
        if "[markdown]" in head:
            text = "\n".join(line[2:] if line.startswith("# ") else line.lstrip("#")
                             for line in body.splitlines())
            cells.append(nbformat.v4.new_markdown_cell(text))
        else:
            cells.append(nbformat.v4.new_code_cell(body))
    return cells


def build(name: str) -> Path:
    """notebooks/NAME.py (percent format) -> notebooks/NAME.ipynb, executed."""
    script = HERE / f"{name}.py"
    nb = nbformat.v4.new_notebook(cells=cells_of(script.read_text()))
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    NotebookClient(nb, timeout=900, kernel_name="python3",
                   resources={"metadata": {"path": str(HERE)}}).execute()
    out = HERE / f"{name}.ipynb"
    nbformat.write(nb, out)
    return out


if __name__ == "__main__":
    names = sys.argv[1:] or sorted(p.stem for p in HERE.glob("*.py"))
    for n in names:
        print(build(n))
