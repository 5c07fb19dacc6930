"""The Python lines of the READMEs run as written: the repository's front
page (its "### Python" section) and the package's own README (its "## Quick
start"), which PyPI shows. In each, the first block works on a file, the
second (one line or two per SDK) with the SDKs installed."""

from __future__ import annotations

import os
import re
import runpy
from pathlib import Path
from typing import List

import pytest

from conftest import REPOSITORY

READMES = {
    "front-page": (REPOSITORY / "README.md", "\n### Python\n"),
    "package": (REPOSITORY / "host" / "python" / "README.md", "\n## Quick start\n"),
}


def readme_blocks(readme: str) -> List[str]:
    path, heading = READMES[readme]
    text = path.read_text(encoding="utf-8")
    section = text.split(heading, 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)\n```", section, re.S)


@pytest.mark.parametrize("readme", sorted(READMES))
@pytest.mark.parametrize("block", [0, 1], ids=["tools", "sdks"])
def test_the_readmes_python_lines_run_as_written(readme: str, block: int, tmp_path: Path) -> None:
    blocks = readme_blocks(readme)
    assert len(blocks) == 2, f"the {readme} README's Python section should hold two python blocks"
    (tmp_path / "notes.txt").write_text("alpha\nbeta\n")
    script = tmp_path / "readme.py"
    script.write_text(blocks[block])
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        runpy.run_path(str(script), run_name="__main__")
    finally:
        os.chdir(cwd)
    if block == 0:
        assert (tmp_path / "notes.txt").read_text() == "alpha\nBETA\n"
