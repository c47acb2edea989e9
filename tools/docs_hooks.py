"""MkDocs hooks (mkdocs.yml `hooks:`): the command pages' option tables from the parsers.

A page line `<!-- mqroute-options: NAME -->` becomes the usage and options of `mqroute NAME`
(mqroute.reference.options_markdown); `<!-- mqroute-commands -->` the table of commands.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MARKER = re.compile(r"<!-- mqroute-(options: *([a-z-]+)|commands) -->")


def _reference():
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from mqroute import reference

    return reference


def on_page_markdown(markdown: str, page, config, files) -> str:
    """Replace the markers with the generated reference."""
    if "<!-- mqroute-" not in markdown:
        return markdown
    reference = _reference()
    parser = reference.build_parser()

    def replace(match: re.Match) -> str:
        if match.group(2):
            return reference.options_markdown(match.group(2), parser)
        return reference.commands_markdown(parser)

    return MARKER.sub(replace, markdown)


def on_files(files, config):
    """Publish the notebooks, their pictures and the example report beside the pages, so the
    Notebooks page links and shows them (they stay in notebooks/, not copied into docs/)."""
    from mkdocs.structure.files import File

    for path in sorted((ROOT / "notebooks").glob("*")):
        if path.suffix in (".ipynb", ".png", ".svg", ".html"):
            files.append(File(f"notebooks/{path.name}", src_dir=str(ROOT),
                              dest_dir=config["site_dir"],
                              use_directory_urls=config["use_directory_urls"]))
    return files
