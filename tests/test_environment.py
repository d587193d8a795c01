"""The settings and data folders can be moved, and the tests pass whatever the developer's
language: their locale, AZUL_LANG and a remembered choice are all overridden."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from azul import i18n

ROOT = Path(__file__).resolve().parents[1]


def test_the_settings_folder_can_be_moved(monkeypatch, tmp_path):
    monkeypatch.setenv("AZUL_CONFIG_DIR", str(tmp_path / "settings"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    i18n.remember("pt")
    assert json.loads((tmp_path / "settings" / "settings.json").read_text()) == {"language": "pt"}
    assert i18n.remembered() == "pt"
    assert not (tmp_path / "xdg").exists()


def test_the_servers_data_folder_can_be_moved(monkeypatch, tmp_path):
    pytest.importorskip("sqlalchemy")
    from azul.server.store import default_url

    monkeypatch.setenv("AZUL_DATA_DIR", str(tmp_path / "data"))
    assert default_url() == f"sqlite:///{tmp_path / 'data' / 'azul.sqlite3'}"


def test_tests_never_use_the_users_folders():
    home = Path.home().resolve()
    assert home not in i18n.settings_file().resolve().parents
    assert os.environ["AZUL_DATA_DIR"] and home not in Path(os.environ["AZUL_DATA_DIR"]).parents
    assert i18n.detect() == "en"


@pytest.mark.parametrize(
    "env,remembered",
    [
        ({"LANG": "fr_FR.UTF-8"}, "fr"),
        ({"LANG": "pt_PT.UTF-8", "AZUL_LANG": "fr", "LC_ALL": "pt_PT.UTF-8"}, "pt"),
    ],
)
def test_tests_pass_in_another_language(tmp_path, env, remembered):
    # a developer's French or Portuguese locale, and a language remembered by 'azul --lang'
    home = tmp_path / "home"
    settings = home / ".config" / "azul-games" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"language": remembered}))
    environment = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("AZUL_", "LC_", "LANG", "XDG_CONFIG"))
    }
    environment.update(env, HOME=str(home))
    tests = [
        "tests/test_cli.py::test_replay_command",
        "tests/test_cli.py::test_console_script_plays_in_a_terminal",
        "tests/test_cli.py::test_end_of_input_leaves_cleanly",
    ]
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", *tests],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        env=environment,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert json.loads(settings.read_text()) == {"language": remembered}
