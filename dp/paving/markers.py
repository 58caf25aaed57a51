"""Which project files are where, and the detection cache keyed by them.

On the hook's path detection reads only what it must: one ``stat`` per
marker file, from the command's directory up to the repository root (the
directory holding ``.git``). The markers' paths and mtimes are the key of the
cache entry (``paving-cache.json`` in the user's dp directory) that holds the
decision ``dp.paving.detect`` made for that directory; any change to a
marker — a new lockfile, an edited package.json, a created ``.venv`` —
misses the cache and detection runs again. Stdlib-only.
"""

import json
import os

from dp.paths import walk_up_text

# Every file whose presence or content changes a paving decision. A test keeps
# this in step with the names dp.runners looks for.
MARKERS = (
    "package.json", "bun.lock", "bun.lockb", "deno.lock", "pnpm-lock.yaml", "pnpm-workspace.yaml",
    "yarn.lock", "package-lock.json", "npm-shrinkwrap.json", ".yarnrc.yml", "deno.json", "deno.jsonc",
    "pyproject.toml", "uv.lock", "poetry.lock", "pdm.lock", "hatch.toml", ".venv",
    "GNUmakefile", "makefile", "Makefile", "justfile", "Justfile", "JUSTFILE", ".justfile",
    "Cargo.toml", "Taskfile.yml", "taskfile.yml", "Taskfile.yaml", "taskfile.yaml",
    "Taskfile.dist.yml", "taskfile.dist.yml", "Taskfile.dist.yaml", "taskfile.dist.yaml",
    ".yarnrc", ".pnpmfile.cjs", ".pnpmfile.mjs", ".npmrc", "bunfig.toml",
)
CACHE_FILE = "paving-cache.json"
CACHE_VERSION = 3
MAX_ENTRIES = 64


def fingerprint(start: str) -> list:
    """``[[path, mtime_ns], …]`` of the markers from ``start`` up to the repository root.

    Asks ``os.access`` whether each marker is there and ``stat``s only those that are: most are
    not, and a ``stat`` that fails raises, which cost the hook three times as much (a millisecond
    for a call four directories deep in no project, where the walk goes up to ``/``).
    """
    found = []
    for folder in walk_up_text(start):
        prefix = os.path.join(folder, "")
        for name in MARKERS:
            path = prefix + name
            if os.access(path, os.F_OK):
                try:
                    found.append([path, os.stat(path).st_mtime_ns])
                except OSError:  # gone since
                    pass
        if os.access(prefix + ".git", os.F_OK):
            found.append([prefix + ".git", 0])
            break
    return found


class Cache:
    """The detection cache file: ``{start directory: {"fp": …, "decision": …}}``."""

    def __init__(self, dp_dir: str):
        self.path = os.path.join(dp_dir, CACHE_FILE)
        self.entries = self._read()
        self.dirty = False

    def _read(self) -> dict:
        from dp.cachedir import read_json_object

        data = read_json_object(self.path, 4 << 20)
        if data.get("version") != CACHE_VERSION:
            return {}
        entries = data.get("entries")
        return entries if isinstance(entries, dict) else {}

    def get(self, start: str, fp: list):
        entry = self.entries.get(start)
        if isinstance(entry, dict) and entry.get("fp") == fp:
            return entry.get("decision")
        return None

    def put(self, start: str, fp: list, decision: dict) -> None:
        self.entries.pop(start, None)
        self.entries[start] = {"fp": fp, "decision": decision}
        while len(self.entries) > MAX_ENTRIES:
            del self.entries[next(iter(self.entries))]
        self.dirty = True

    def save(self) -> None:
        if not self.dirty or not os.path.isdir(os.path.dirname(self.path)):
            return  # no dp directory yet (no store): the hook creates nothing there
        from dp.cachedir import write_atomically

        try:
            data = json.dumps({"version": CACHE_VERSION, "entries": self.entries})
            write_atomically(self.path, data.encode())
        except OSError:
            pass  # a cache that cannot be written only costs a detection next time
        self.dirty = False
