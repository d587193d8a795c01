"""Every test here runs on both engines (see the ``engine`` fixture)."""

import pytest


@pytest.fixture(autouse=True)
def on_both_engines(engine):
    return engine
