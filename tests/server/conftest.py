"""The databases the storage tests run on: SQLite always, PostgreSQL when it is installed."""

import pytest

from tests.server import postgres


@pytest.fixture(scope="session")
def postgres_url():
    if postgres.binaries() is None and not postgres.os.environ.get("AZUL_TEST_POSTGRES"):
        pytest.skip("PostgreSQL is not installed (.ci/run installs Debian's postgresql)")
    pytest.importorskip("psycopg")
    with postgres.server() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path):
    """An empty database's URL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    url = request.getfixturevalue("postgres_url")
    empty(url)  # every test starts from an empty database
    return url


def empty(url):
    """Drop every table of the database at ``url`` (the migrations' record too)."""
    from sqlalchemy import MetaData, create_engine

    from azul.server.store import engine_url

    engine = create_engine(engine_url(url))
    tables = MetaData()
    tables.reflect(engine)
    tables.drop_all(engine)
    engine.dispose()


@pytest.fixture
def make_client(tmp_path):
    """Clients of fresh servers (SQLite, bots in threads) with some limits changed."""
    pytest.importorskip("fastapi")
    from concurrent.futures import ThreadPoolExecutor

    from fastapi.testclient import TestClient

    from azul.server.app import create_app
    from azul.server.settings import Settings

    clients = []

    def make(**limits):
        db = tmp_path / f"games{len(clients)}.db"
        app = create_app(f"sqlite:///{db}", ThreadPoolExecutor(2), Settings(**limits))
        client = TestClient(app)
        clients.append(client.__enter__())
        return client

    yield make
    for c in clients:
        c.__exit__(None, None, None)


@pytest.fixture
def client(make_client):
    """A client of a fresh server with the default limits."""
    return make_client()
