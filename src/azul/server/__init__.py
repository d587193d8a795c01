"""The game server: an HTTP/JSON and WebSocket API over a database of games (``azul serve``)."""
