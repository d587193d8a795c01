"""The README's Python examples run as they are, and every link of the README and the docs
leads to a file of the repository."""

import re
import runpy
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]


def _blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", text, flags=re.M | re.S)


@pytest.mark.parametrize("number", range(len(_blocks((ROOT / "README.md").read_text(), "python"))))
def test_the_readmes_python_examples_run(number, tmp_path, monkeypatch, capsys):
    code = _blocks((ROOT / "README.md").read_text(encoding="utf-8"), "python")[number]
    monkeypatch.chdir(tmp_path)  # whatever an example writes goes to a temporary folder
    script = tmp_path / "example.py"
    script.write_text(code, encoding="utf-8")
    runpy.run_path(str(script), run_name="__main__")
    assert capsys.readouterr().out or "print(" not in code


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_every_link_leads_to_a_file(page):
    text = page.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)\s]+)\)", text) + re.findall(r'src="([^"]+)"', text)
    for target in targets:
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue  # a web address, or a place on the same page
        path = (page.parent / target.split("#")[0]).resolve()
        assert path.exists(), f"{page.name} links to {target}, which is not in the repository"
