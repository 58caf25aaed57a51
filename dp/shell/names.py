"""The name a command word is known by: its basename, and Homebrew's g-prefixed GNU tools as GNU's (stdlib only).

macOS users get GNU's tools from Homebrew with a ``g`` in front (``gsed``,
``gtimeout``, ``gfind``, ``gxargs``, ``genv`` …) so they do not shadow the
system's: they are the same programs, and the template check (``dp.shell.sinks``,
``dp.shell.launchers``) knows them by their base names.
"""

from __future__ import annotations

GNU_NAMES = frozenset({
    "arch", "b2sum", "base32", "base64", "basename", "basenc", "cat", "chcon", "chgrp", "chmod", "chown", "chroot",
    "cksum", "comm", "cp", "csplit", "cut", "date", "dd", "df", "dir", "dircolors", "dirname", "du", "echo", "env",
    "expand", "expr", "factor", "false", "fmt", "fold", "groups", "head", "hostid", "id", "install", "join", "kill",
    "link", "ln", "logname", "ls", "md5sum", "mkdir", "mkfifo", "mknod", "mktemp", "mv", "nice", "nl", "nohup",
    "nproc", "numfmt", "od", "paste", "pathchk", "pinky", "pr", "printenv", "printf", "ptx", "pwd", "readlink",
    "realpath", "rm", "rmdir", "runcon", "seq", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum",
    "shred", "shuf", "sleep", "sort", "split", "stat", "stdbuf", "stty", "sum", "sync", "tac", "tail", "tee", "test",
    "timeout", "touch", "tr", "true", "truncate", "tsort", "tty", "uname", "unexpand", "uniq", "unlink", "uptime",
    "users", "vdir", "wc", "who", "whoami", "yes", "find", "xargs", "locate", "updatedb", "sed", "awk", "tar",
    "make", "grep", "egrep", "fgrep", "time", "m4", "indent", "diff", "diff3", "sdiff", "cmp", "patch",
})


def gnu_name(name: str) -> str:
    """``gsed`` → ``sed``, ``gtimeout`` → ``timeout``: Homebrew's prefixed GNU tools are their base names."""
    return name[1:] if name.startswith("g") and name[1:] in GNU_NAMES and name not in GNU_NAMES else name


def known_name(word: str) -> str:
    """The name a command word is known by: its basename, a GNU tool's without Homebrew's ``g``."""
    return gnu_name(word.rsplit("/", 1)[-1])
