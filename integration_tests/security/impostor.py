"""A PostgreSQL impostor: a plain TCP listener on 127.0.0.1 that records every connection and the
password the client hands over.

It speaks just enough of the protocol to be taken for a server: it declines SSL and GSS
encryption (``N``), reads the startup message (the user and database asked for), asks for the
password in clear (``AuthenticationCleartextPassword``) and records what comes back, then hangs
up. libpq sends whatever password it has for the host it *thinks* it reached — ``PGPASSWORD``, or
the ``~/.pgpass`` line of the host name the URL gives — so a record here is the evidence that a
person's credentials went where a repository chose.
"""

from __future__ import annotations

import socket
import struct
import threading

_ENCRYPTION_REQUESTS = (80877103, 80877104)  # SSLRequest, GSSENCRequest


class Impostor:
    """``port``; ``connections``: one dict per connection (``user``, ``database``, ``password``)."""

    def __init__(self):
        self._server = socket.create_server(("127.0.0.1", 0))
        self.port = self._server.getsockname()[1]
        self.connections: list[dict] = []
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                client, _ = self._server.accept()
            except OSError:
                return  # closed
            record: dict = {}
            with self._lock:
                self.connections.append(record)
            threading.Thread(target=self._answer, args=(client, record), daemon=True).start()

    def _answer(self, client: socket.socket, record: dict) -> None:
        client.settimeout(30)
        try:
            with client:
                while True:
                    length, code = struct.unpack("!ii", _exactly(client, 8))
                    body = _exactly(client, length - 8)
                    if code not in _ENCRYPTION_REQUESTS:
                        break
                    client.sendall(b"N")
                words = body.split(b"\0")
                startup = dict(zip(words[0::2], words[1::2]))
                record.update(user=startup.get(b"user", b"").decode(), database=startup.get(b"database", b"").decode())
                client.sendall(b"R" + struct.pack("!ii", 8, 3))  # AuthenticationCleartextPassword
                kind = _exactly(client, 1)
                length = struct.unpack("!i", _exactly(client, 4))[0]
                if kind == b"p":
                    record["password"] = _exactly(client, length - 4).rstrip(b"\0").decode()
        except (OSError, struct.error, ValueError):
            return

    def close(self) -> None:
        self._server.close()


def _exactly(client: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = client.recv(size - len(data))
        if not chunk:
            raise ValueError("the client hung up")
        data += chunk
    return data
