"""The README's Python lines run as written: the first block on a file, the
second (one line or two per SDK) with the SDKs installed."""

from __future__ import annotations

import os
import re
import runpy
from pathlib import Path
from typing import List

import pytest

from conftest import REPOSITORY


def readme_blocks() -> List[str]:
    readme = (REPOSITORY / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n### Python\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)\n```", section, re.S)


@pytest.mark.parametrize("block", [0, 1], ids=["tools", "sdks"])
def test_the_readmes_python_lines_run_as_written(block: int, tmp_path: Path) -> None:
    blocks = readme_blocks()
    assert len(blocks) == 2, "the README's Python section should hold two python blocks"
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
