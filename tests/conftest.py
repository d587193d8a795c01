"""Every test runs in English and away from the user's own files, whatever the developer's
locale or remembered settings: the language, the settings folder and the server's data folder
are set here, for the tests and for the programs they start. The session fails if a program a
test started is still running at its end (``tests.leftovers``)."""

import contextlib
import os
import secrets
import signal

import pytest

from azul import i18n
from tests import leftovers

LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANGUAGE")


@pytest.fixture(scope="session", autouse=True)
def english_and_private_folders(tmp_path_factory):
    with pytest.MonkeyPatch.context() as env:
        for name in LOCALE_VARIABLES:
            env.delenv(name, raising=False)
        env.setenv("LANG", "C.UTF-8")
        env.setenv("AZUL_LANG", "en")
        env.setenv("AZUL_CONFIG_DIR", str(tmp_path_factory.mktemp("config")))
        env.setenv("AZUL_DATA_DIR", str(tmp_path_factory.mktemp("data")))
        mark = secrets.token_hex(8)
        env.setenv(leftovers.MARK, mark)
        yield
    left = leftovers.left_running(mark)
    for pid in left:
        with contextlib.suppress(OSError):  # ended meanwhile
            os.kill(pid, signal.SIGKILL)
    assert not left, "the tests left these processes running: " + "; ".join(
        f"{pid}: {command[:200]}" for pid, command in left.items()
    )


@pytest.fixture(autouse=True)
def english(english_and_private_folders):
    """In-process output in English before each test, and again after it."""
    i18n.use("en")
    yield
    i18n.use("en")
