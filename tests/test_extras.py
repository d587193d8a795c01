"""A missing extra is named with the install command that fits this copy of the package."""

import azul
from azul import extras


def test_a_clone_installs_in_place_and_a_wheel_from_the_index(monkeypatch, tmp_path):
    assert extras.from_a_clone()  # the tests run from this repository's src/
    assert extras.install("server") == "pip install -e '.[server]'"
    installed = tmp_path / "site-packages" / "azul"
    installed.mkdir(parents=True)
    monkeypatch.setattr(azul, "__file__", str(installed / "__init__.py"))
    assert not extras.from_a_clone()
    assert extras.install("server") == "pip install 'azul-games[server]'"
