"""Where a store's team database is, and what dp remembers about syncing with it.

The state lives in ``team.json`` beside the store (never in the store, never
a password): the connection URL as the user gave it minus any secret, this
machine's random id, and per database how far the upload got, when it last
synced and the last error. A URL carrying a password is refused: libpq reads
the password from ``PGPASSWORD`` or ``~/.pgpass``, so nothing dp writes or
prints can leak it.

A repository can name its team's database in its committed ``.dp/rules.toml``
(``[team] url = "postgresql://…"``), but a repository never chooses where a
person's data and credentials go: the URL is only a suggestion, which ``dp
team connect`` takes when the person runs it in that repository (the file
trusted as it is). Only then, and only while the file still names that URL,
do the events captured there go to it (``accepted`` in the state); until
then no dp command, and no session start, connects to it.

Any URL is refused when it carries libpq parameters that send the
connection to another host than it names or take other credentials than
the person's own for that host (``hostaddr``, ``passfile``, ``service``,
``sslkey`` …, ``_REDIRECTING``): through ``?hostaddr=``, a URL naming the
person's real database host would hand that host's ``~/.pgpass`` password
to whoever listens at the address.
"""

from __future__ import annotations

import json
import os
import uuid
from urllib.parse import parse_qsl, urlsplit

from dp.errors import DpError
from dp.hook.session import TEAM_STATE as STATE  # the SessionStart hook looks for it

SCHEMES = ("postgresql", "postgres")
MAX_STATE_BYTES = 1 << 20
_SECRET_PARAMS = ("password", "sslpassword")
# libpq parameters that connect elsewhere than the URL's host or hand over other credentials than
# the person's own for it: an address that overrides the host name ~/.pgpass is looked up by, a
# password file or service file of the URL's choosing, a service entry (its own host, user and
# password), client certificates and keys, Kerberos credentials delegated to the server, a
# database name that libpq may read as a whole connection string. (A second `host` is checked apart.)
_REDIRECTING = ("hostaddr", "passfile", "service", "servicefile", "sslcert", "sslkey", "gssdelegation", "dbname")


def check_url(url: str) -> str:
    """``url`` if it is a PostgreSQL URL without a password and without parameters that choose
    another host or other credentials than it names; else one line saying how to fix it."""
    url = url.strip()
    try:
        parts = urlsplit(url)
        password, host = parts.password, parts.hostname
    except ValueError as exc:
        raise DpError(f"{url!r} is not a URL ({exc}); use postgresql://USER@HOST[:PORT]/DATABASE") from None
    if parts.scheme not in SCHEMES:
        raise DpError(f"{url!r} is not a PostgreSQL URL; use postgresql://USER@HOST[:PORT]/DATABASE")
    params = parse_qsl(parts.query, keep_blank_values=True)
    if password is not None or any(key in _SECRET_PARAMS for key, _ in params):
        raise DpError("the URL carries a password; dp never stores one: remove it from the URL and set "
                      "PGPASSWORD or add it to ~/.pgpass")
    for key, value in params:
        if key in _REDIRECTING or (key == "host" and host and value.lower() != host):
            raise DpError(f"the URL's {key}= would send the connection or your credentials elsewhere than "
                          f"{host or 'its host'}; dp takes a team URL as postgresql://USER@HOST[:PORT]/DATABASE"
                          f"[?sslmode=…], without {', '.join(_REDIRECTING)} or a second host")
    return url


def state_path(db_path) -> str:
    return os.path.join(os.path.dirname(os.path.abspath(os.path.expanduser(str(db_path)))), STATE)


def load(db_path) -> dict:
    """The team state of the store at ``db_path`` (``{}`` when it never connected or synced)."""
    from dp.files import read_bytes

    try:
        data = read_bytes(state_path(db_path), MAX_STATE_BYTES)
        state = json.loads(data) if data else {}
    except (OSError, ValueError, DpError):
        return {}
    return state if isinstance(state, dict) else {}


def update(db_path, change) -> dict:
    """Apply ``change(state)`` to the state and write it atomically; returns the new state.

    Creates the store's directory if need be; a concurrent writer's change is
    re-read and ``change`` applied again on top of it."""
    from dp.files import FileChanged, make_directory, read_bytes, replace_file

    path = state_path(db_path)
    make_directory(os.path.dirname(path))
    for _ in range(5):
        before = read_bytes(path, MAX_STATE_BYTES)
        state = load(db_path)
        change(state)
        try:
            replace_file(path, (json.dumps(state, indent=1, sort_keys=True) + "\n").encode(), expected=before)
            return state
        except FileChanged:
            continue
    raise DpError(f"{path} keeps changing underneath dp; run the command again")


def machine_id(db_path) -> str:
    """This store's random machine id, made once."""
    state = load(db_path)
    if state.get("machine"):
        return state["machine"]
    return update(db_path, lambda s: s.setdefault("machine", uuid.uuid4().hex))["machine"]


def accepted(state: dict) -> list[str]:
    """The repositories' team databases the person took with ``dp team connect``."""
    found = state.get("accepted")
    return [url for url in found if isinstance(url, str)] if isinstance(found, list) else []


def repository_url(db_path, directory: str) -> tuple[str | None, str]:
    """``(url, note)``: the team database the repository of ``directory`` names in its committed
    ``.dp/rules.toml`` when the person took it (``dp team connect`` there) and trusts that file as
    it is (else None), and a note when a file names one that does not act, saying why."""
    url, note = suggested_url(db_path, directory)
    if url is None or url in accepted(load(db_path)):
        return url, note
    return None, (f"this repository suggests the team database {url}; send its events there only if you "
                  "mean to, with: dp team connect")


def suggested_url(db_path, directory: str) -> tuple[str | None, str]:
    """``(url, note)``: the team database the repository of ``directory`` names in its committed
    ``.dp/rules.toml`` when the user trusts that file as it is (else None), and a note when a
    file names one but does not act. A suggestion only: ``dp team connect`` takes it."""
    from dp.layers.locate import PROJECT
    from dp.layers.view import layers_for

    project = layers_for(db_path, directory)
    if project is None:
        return None, ""
    for layer in project.layers:
        if layer.file.source != PROJECT:
            continue
        url = _team_table_url(layer.file)
        if url is None:
            return None, ""
        if not layer.acts:
            return None, (f"{layer.file.path} names a team database but is not trusted as it is; "
                          f"review it with: dp trust --show")
        try:
            return check_url(url), ""
        except DpError as exc:  # a repository's bad URL never breaks the person's own team commands
            return None, f"{layer.file.path} suggests a team database dp refuses: {exc.message}"
    return None, ""


def _team_table_url(file) -> str | None:
    """``[team] url`` of the layer file, read from the exact bytes that were hashed (else None)."""
    import hashlib

    from dp.files import read_regular
    from dp.rules.fast_toml import tomllib

    try:
        data = read_regular(file.path, 1 << 20)
    except (OSError, DpError):
        return None
    if hashlib.sha256(data).hexdigest() != file.sha256:
        return None
    try:
        team = tomllib.loads(data.decode("utf-8")).get("team")
    except (ValueError, UnicodeDecodeError):
        return None
    url = team.get("url") if isinstance(team, dict) else None
    return url if isinstance(url, str) and url else None
