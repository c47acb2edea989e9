"""The documentation site builds cleanly, covers every command and public name, and every
snippet marked runnable in the README and docs/ runs as written."""

from __future__ import annotations

import importlib
import inspect
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mqroute.main import COMMANDS

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
#: `<!-- runnable -->` (exit status 0 expected) or `<!-- runnable: status N -->`, then a fence.
RUNNABLE = re.compile(r"^<!-- runnable(?:: status (\d+))? -->\n```(\w+)\n(.*?)^```$",
                      re.M | re.S)


def test_site_builds_strict(tmp_path):
    """`mkdocs build --strict`: no broken link or anchor, every API page resolves."""
    pytest.importorskip("mkdocs", reason="mkdocs is in the test extra: pip install -e '.[test]'")
    pytest.importorskip("mkdocstrings_handlers.python", reason="mkdocstrings[python] missing")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
                             "--site-dir", str(tmp_path / "site")], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    show = (tmp_path / "site" / "commands" / "show" / "index.html").read_text()
    assert "--json" in show and "mqroute-options" not in show  # the marker was replaced


def _tables(text: str):
    """(line number, rows) of each run of table lines ('| ...') outside code fences."""
    run, start, fenced = [], 0, False
    for n, line in enumerate([*text.splitlines(), ""], 1):
        if line.startswith("```"):
            fenced = not fenced
        if not fenced and line.startswith("|"):
            start = start or n
            run.append(line)
            continue
        if run:
            yield start, run
        run, start = [], 0


def test_every_table_has_its_header():
    """A table's second line separates its header (a paragraph or a blank line in the middle
    of a table leaves its rest as text: the exit-status table once lost its 3-6 row so)."""
    for page in [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]:
        for line, rows in _tables(page.read_text()):
            assert len(rows) >= 2 and re.fullmatch(r"\|(\s*:?-+:?\s*\|)+", rows[1].strip()), \
                f"{page.relative_to(ROOT)}:{line}: a table without its header row"


def test_every_command_has_a_page_in_the_nav():
    nav = (ROOT / "mkdocs.yml").read_text()
    for name in COMMANDS:
        page = DOCS / "commands" / f"{name}.md"
        assert page.is_file(), f"{name}: no docs/commands/{name}.md"
        text = page.read_text()
        assert f"<!-- mqroute-options: {name} -->" in text, f"{page}: no options marker"
        assert "## Exit statuses" in text, f"{page}: no exit statuses"
        assert f"commands/{name}.md" in nav, f"{name}: not in mkdocs.yml's nav"


def test_pages_and_help_give_the_same_exit_statuses():
    """Each command's EXIT_STATUS (its --help) and its page's table name the same codes."""
    import importlib as il

    for name in COMMANDS:
        statuses = getattr(il.import_module(f"mqroute.commands.{name}"), "EXIT_STATUS", None)
        if statuses is None:
            continue
        said = {int(n) for n in re.findall(r"(?:^|[;:] |\belse )(\d)\b", statuses)}
        table = (DOCS / "commands" / f"{name}.md").read_text().split("## Exit statuses")[1]
        shown = {int(n) for n in re.findall(r"^\| (\d+) \|", table, re.M)}
        assert said and said <= shown | {130, 141}, (name, said, shown)
        assert shown - {130, 141} <= said, (name, said, shown)


def test_generated_options_are_the_parsers():
    from mqroute.reference import options_markdown, subparsers

    for name, parser in subparsers().items():
        text = options_markdown(name)
        for action in parser._actions:
            if action.help and action.help != "==SUPPRESS==":
                for flag in action.option_strings:
                    if flag not in ("-h", "--help"):
                        assert f"`{flag}" in text or f", {flag}" in text, (name, flag)


@pytest.mark.parametrize("face", ["pcf", "traceroute", "graph"])
def test_public_faces_are_documented(face):
    """Every name a public face exports has a docstring (the API pages are made of them)."""
    module = importlib.import_module(face)
    missing = []
    for name in module.__all__:
        try:
            obj = getattr(module, name)  # graph's face imports its module on first use
        except ImportError:  # an optional extra not installed
            continue
        if (inspect.isfunction(obj) or inspect.isclass(obj)) and not inspect.getdoc(obj):
            missing.append(name)
    assert not missing, f"{face}: no docstring: {missing}"


def _snippets() -> list[tuple[Path, list[tuple[str, str, int]]]]:
    pages = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
    found = []
    for page in pages:
        blocks = [(lang, body, int(status or 0))
                  for status, lang, body in RUNNABLE.findall(page.read_text())]
        if blocks:
            found.append((page, blocks))
    return found


def test_runnable_snippets_are_found():
    pages = {p.name for p, _ in _snippets()}
    assert {"README.md", "getting-started.md"} <= pages


@pytest.mark.parametrize("page,blocks", _snippets(),
                         ids=[str(p.relative_to(ROOT)) for p, _ in _snippets()])
def test_runnable_snippets_run(page, blocks, tmp_path):
    """Each page's runnable snippets, in order, in one empty folder (a snippet may use what
    an earlier one made), with `mqroute` on PATH as this checkout's command."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "mqroute"
    shim.write_text(f"#!/bin/sh\nexec {sys.executable} -m mqroute \"$@\"\n")
    shim.chmod(0o755)
    work = tmp_path / "work"
    work.mkdir()
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
           "PYTHONPATH": str(ROOT), "PYTHONWARNINGS": "ignore"}
    for n, (lang, body, status) in enumerate(blocks, start=1):
        if lang in ("sh", "bash", "console"):
            command = [shutil.which("bash") or "/bin/bash", "-c", body]
        elif lang == "python":
            command = [sys.executable, "-c", body]
        else:
            pytest.fail(f"{page.name}: snippet {n}: cannot run {lang}")
        result = subprocess.run(command, cwd=work, env=env, capture_output=True, text=True,
                                timeout=300, check=False)
        said = result.stdout + result.stderr
        where = f"{page.name}: snippet {n} ({body.splitlines()[0][:60]})"
        assert result.returncode == status, f"{where}: status {result.returncode}\n{said}"
        assert "Traceback" not in said and "internal error" not in said, f"{where}\n{said}"
