"""Take the README's pictures again: a server of its own (a throwaway database), a game of
each kind played into its middle through the API, and the table shot in headless Chromium at
a desktop's size and a phone's.

    .venv/bin/python docs/images/pictures.py

It needs the ``test`` extra (Playwright) and Debian's ``chromium``.
"""

import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from playwright.sync_api import sync_playwright

HERE = Path(__file__).parent
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def serve(folder: str) -> tuple[subprocess.Popen, str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    database = f"sqlite:///{folder}/pictures.db"
    command = [sys.executable, "-m", "azul", "serve", "--port", str(port), "--database", database]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            httpx.get(f"{url}/api/games", timeout=1)
            return server, url
        except httpx.TransportError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("the server did not start")


def game_in_play(url: str, game: str, players: int, moves: int, seed: int) -> str:
    """Ana against greedy bots; she makes her first legal move ``moves`` times, then the
    address of her page at her next turn."""
    seats = [{"kind": "human", "name": "Ana"}]
    seats += [{"kind": "bot", "bot": "greedy"}] * (players - 1)
    body = {"game": game, "options": {"players": players, "first_player": 0}, "seed": seed}
    g = httpx.post(f"{url}/api/games", json={**body, "seats": seats}).json()
    token = g["seats"][0]["token"]
    while True:
        view = httpx.get(f"{url}/api/games/{g['id']}", params={"token": token}).json()
        if view["to_move"] != 0 or not view["legal"]:
            time.sleep(0.05)
            continue
        if moves == 0:
            return f"{url}/?game={g['id']}&token={token}"
        move = {"token": token, "action": view["legal"][0]["action"], "version": view["version"]}
        httpx.post(f"{url}/api/games/{g['id']}/moves", json=move)
        moves -= 1


def main() -> None:
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as p:
        server, url = serve(folder)
        try:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            shots = [
                ("pavilion-desktop.png", "pavilion", 3, 14, DESKTOP),
                ("pavilion-phone.png", "pavilion", 3, 14, PHONE),
                ("sintra-desktop.png", "sintra", 2, 6, DESKTOP),
            ]
            for name, game, players, moves, viewport in shots:
                phone = viewport is PHONE
                page = browser.new_page(
                    viewport=viewport, has_touch=phone, is_mobile=phone, locale="en-GB"
                )
                page.goto(game_in_play(url, game, players, moves, seed=11))
                page.wait_for_selector("#board g.clickable")
                page.wait_for_timeout(1500)  # the pieces' flights, the page's scroll
                page.screenshot(path=str(HERE / name))
                page.close()
                print("wrote", HERE / name)
        finally:
            server.terminate()
            server.wait()


if __name__ == "__main__":
    main()
