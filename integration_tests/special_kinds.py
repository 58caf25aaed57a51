"""Making the special files the hardening tests put where dp expects a regular file."""

from __future__ import annotations

import os
import socket
from pathlib import Path


def make_fifo(path: Path) -> None:
    os.mkfifo(path)


def make_socket(path: Path) -> None:
    server = socket.socket(socket.AF_UNIX)
    here = os.getcwd()
    os.chdir(path.parent)  # a relative name: tmp paths can exceed AF_UNIX's 108 bytes
    try:
        server.bind(path.name)
    finally:
        os.chdir(here)
        server.close()  # the socket file stays


def make_directory(path: Path) -> None:
    path.mkdir()
