"""The tables a process keeps stay equal to the store when another process writes (notices)."""

import asyncio
from concurrent.futures import ThreadPoolExecutor

from azul.server.service import Lobby
from azul.server.settings import Settings
from azul.server.store import Store

HUMANS = [{"kind": "human"}, {"kind": "human"}]


def test_a_write_noticed_while_the_table_loads_is_not_missed(tmp_path):
    """Process B is reading a game when process A's move is committed and noticed: the copy B
    read is older than the notice, so B catches up once it holds the table."""

    async def scenario():
        url = f"sqlite:///{tmp_path / 'games.db'}"
        a = Lobby(Store(url), ThreadPoolExecutor(1), Settings())
        b = Lobby(Store(url), ThreadPoolExecutor(1), Settings())
        made = await a.create("sintra", {"players": 2}, HUMANS)
        gid = made["id"]
        async with a.tables.use(gid) as table:
            token = made["seats"][table.state.current_player()]["token"]
            action = table.state.legal_actions()[0]
        read, release = asyncio.Event(), asyncio.Event()
        reading = b.tables._read

        async def slow_read(game_id):
            table = await reading(game_id)  # the store as it was before A's move
            read.set()
            await release.wait()
            return table

        b.tables._read = slow_read
        viewing = asyncio.ensure_future(b.view(gid, token))
        await read.wait()
        table, _ = await a.play(gid, token, action=action)
        b.tables.notice(gid, table.stored.version)  # as B's listener hears it
        release.set()
        await viewing
        for _ in range(50):  # B's catching up runs as a task of its own
            await asyncio.sleep(0.01)
        assert b.tables.kept[gid].stored.version == table.stored.version
        assert b.tables.kept[gid].notation == table.notation
        for lobby in (a, b):
            lobby.close()

    asyncio.run(scenario())
