"""Programs whose arguments end in a command they run: where that command starts (stdlib only).

``stdbuf -oL sh -c …``, ``docker run IMAGE sh -c …``, ``kubectl exec POD -- sh
-c …``, ``uv run sh -c …``, ``busybox sh -c …``: the program named first only
launches the one after it, so a template value is judged where *that* program
reads it (``dp.shell.codeflow`` follows the tail, launcher after launcher).
Each launcher is one ``Launcher``: the options that take a separate value
(so its positional words are found), the options whose value is itself a
command string (``npx -c``, ``nix-shell --run``: code), how many positional
words precede the command (``timeout DURATION``, ``docker run IMAGE``), and
the subcommands that launch (``docker run``/``exec``, ``uv run``, ``nix
develop``). A launcher whose options dp does not all know is ``guessed``: a
shell, interpreter or launcher named anywhere in its words is judged as if
the command started there, so an unknown option that takes a value cannot
hide one.

``dp.shell.wrappers`` is the hook's smaller list of transparent wrappers
(what command word a rewrite rule sees); this table is what the template
check follows, and it is wider on purpose: a template value judged as data
must be data for every program that could receive it.
"""

from __future__ import annotations

from dp.shell.names import GNU_NAMES, known_name


class Launcher:
    """How one launcher's words are read, up to the command it runs."""

    __slots__ = ("values", "code", "positional", "assignments", "tail_options", "guessed", "subcommands", "unknown",
                 "shell_options")

    def __init__(self, values=(), code=(), positional: int = 0, *, assignments: bool = False,
                 tail_options=(), guessed: bool = False, subcommands: dict | None = None, unknown: bool = False,
                 shell_options=()):
        self.values = frozenset(values)  # options taking a separate data value
        self.code = frozenset(code)  # options whose value is a command line or program (code)
        self.positional = positional  # words before the command (timeout DURATION, docker run IMAGE)
        self.assignments = assignments  # NAME=value words may precede the command (env, sudo)
        self.tail_options = frozenset(tail_options)  # the command follows this option (nix develop -c)
        self.guessed = guessed  # options not all known: any shell or launcher in its words is judged
        self.subcommands = subcommands  # word → Launcher: only these subcommands launch (docker run)
        self.unknown = unknown  # a program dp does not know, judged a launcher by its words: its own are data
        self.shell_options = frozenset(shell_options)  # with no command, these start a shell reading stdin (sudo -s)


_DOCKER_RUN_VALUES = {
    "-a", "--attach", "--add-host", "--annotation", "--blkio-weight", "--cap-add", "--cap-drop", "--cgroup-parent",
    "--cgroupns", "--cidfile", "--cpu-period", "--cpu-quota", "--cpu-shares", "-c", "--cpus", "--cpuset-cpus",
    "--cpuset-mems", "--device", "--device-cgroup-rule", "--dns", "--dns-option", "--dns-search", "--domainname",
    "-e", "--env", "--env-file", "--expose", "--gpus", "--group-add", "--health-cmd", "--health-interval",
    "--health-retries", "--health-start-period", "--health-timeout", "-h", "--hostname", "--ip", "--ip6", "--ipc",
    "--isolation", "--kernel-memory", "-l", "--label", "--label-file", "--link", "--log-driver", "--log-opt",
    "--mac-address", "-m", "--memory", "--memory-reservation", "--memory-swap", "--memory-swappiness", "--mount",
    "--name", "--network", "--net", "--network-alias", "--oom-score-adj", "--pid", "--pids-limit", "--platform",
    "-p", "--publish", "--pull", "--restart", "--runtime", "--security-opt", "--shm-size", "--stop-signal",
    "--stop-timeout", "--storage-opt", "--sysctl", "--tmpfs", "--ulimit", "-u", "--user", "--userns", "--uts",
    "-v", "--volume", "--volume-driver", "--volumes-from", "-w", "--workdir", "--detach-keys", "--pod",
}
_DOCKER_EXEC_VALUES = {"-e", "--env", "--env-file", "-u", "--user", "-w", "--workdir", "--detach-keys"}
_DOCKER = {
    "run": Launcher(_DOCKER_RUN_VALUES, {"--entrypoint", "--health-cmd"}, 1, guessed=True),
    "create": Launcher(_DOCKER_RUN_VALUES, {"--entrypoint", "--health-cmd"}, 1, guessed=True),
    "exec": Launcher(_DOCKER_EXEC_VALUES, (), 1, guessed=True),
}
_DOCKER["container"] = Launcher(subcommands=dict(_DOCKER))
_COMPOSE = {
    "run": Launcher({"-e", "--env", "-u", "--user", "-w", "--workdir", "-l", "--label", "-p", "--publish",
                     "-v", "--volume", "--name"}, {"--entrypoint"}, 1, guessed=True),
    "exec": Launcher({"-e", "--env", "-u", "--user", "-w", "--workdir", "--index"}, (), 1, guessed=True),
}
_DOCKER["compose"] = Launcher({"-f", "--file", "-p", "--project-name", "--profile", "--env-file",
                               "--project-directory"}, subcommands=_COMPOSE)
_KUBECTL = {
    "exec": Launcher({"-c", "--container", "-n", "--namespace", "--context", "--kubeconfig", "--pod-running-timeout",
                      "-f", "--filename", "--cluster", "--user", "-s", "--server"}, (), 1, guessed=True),
    "run": Launcher({"--image", "-n", "--namespace", "--env", "--port", "--labels", "-l", "--overrides",
                     "--restart", "--context", "--kubeconfig", "--image-pull-policy", "--annotations",
                     "--pod-running-timeout", "--timeout"}, {"--overrides"}, 1, guessed=True),
    "debug": Launcher({"-c", "--container", "-n", "--namespace", "--image", "--target", "--profile",
                       "--context", "--kubeconfig", "--copy-to", "--set-image", "--env"}, (), 1, guessed=True),
}
_JS_RUN = Launcher({"-p", "--package", "--prefix", "-w", "--workspace", "--registry", "--cache", "--userconfig"},
                   {"-c", "--call"})
_UV_RUN = Launcher({"--with", "--with-editable", "--with-requirements", "-p", "--python", "--project",
                    "--directory", "--env-file", "--extra", "--group", "--only-group", "--no-group", "--package",
                    "--index", "--default-index", "--index-url", "--extra-index-url", "-f", "--find-links",
                    "--config-file", "--cache-dir", "--python-preference", "--index-strategy", "--resolution",
                    "--prerelease", "-P", "--upgrade-package", "--reinstall-package", "--exclude-newer",
                    "--link-mode", "--compile-bytecode", "--color", "--refresh-package", "--no-binary-package",
                    "--no-build-package", "--keyring-provider", "-C", "--config-setting"}, guessed=True)
_ENV_RUN = Launcher({"-e", "--environment", "-n", "--name", "-p", "--prefix", "--manifest-path", "--cwd"},
                    guessed=True)

# launcher → how its words are read. Wrappers of dp.shell.wrappers are here too, with the same options.
LAUNCHERS: dict[str, Launcher] = {
    "sudo": Launcher({"-u", "-g", "-h", "-p", "-C", "-D", "-R", "-r", "-t", "-T", "-U", "--user", "--group",
                      "--host", "--prompt", "--chdir", "--chroot", "--role", "--type", "--close-from",
                      "--command-timeout", "--other-user"}, assignments=True,
                     shell_options={"-s", "--shell", "-i", "--login"}),
    "doas": Launcher({"-u", "-C"}, shell_options={"-s"}),
    "env": Launcher({"-u", "-C", "--unset", "--chdir"}, {"-S", "--split-string"}, assignments=True),
    "time": Launcher({"-f", "-o", "--format", "--output"}),
    "nice": Launcher({"-n", "--adjustment"}),
    "nohup": Launcher(),
    "command": Launcher(),
    "exec": Launcher({"-a"}),
    "builtin": Launcher(),
    "timeout": Launcher({"-s", "-k", "--signal", "--kill-after"}, (), 1),
    "stdbuf": Launcher({"-i", "-o", "-e", "--input", "--output", "--error"}),
    "unbuffer": Launcher(),
    "ionice": Launcher({"-c", "--class", "-n", "--classdata", "-p", "--pid", "-P", "--pgid", "-u", "--uid"}),
    "taskset": Launcher(positional=1),
    "chrt": Launcher(positional=1),
    "numactl": Launcher({"-C", "--physcpubind", "-N", "--cpunodebind", "-m", "--membind", "-i", "--interleave",
                         "-p", "--preferred"}),
    # strace -o '|cmd' (or '!cmd') pipes its trace to a command.
    "strace": Launcher({"-e", "-p", "-s", "-u", "-a", "-b", "-E", "-I", "-O", "-P", "-S", "-X",
                        "--trace", "--signal", "--status", "--user"}, {"-o", "--output"}, guessed=True),
    "ltrace": Launcher({"-e", "-o", "-p", "-s", "-u", "-a", "-A", "-D", "-F", "-l", "-n", "-x", "-w"}, guessed=True),
    "valgrind": Launcher(code={"--db-command"}, guessed=True),
    "chroot": Launcher({"--userspec", "--groups"}, (), 1),
    "setsid": Launcher(),
    "setpriv": Launcher(guessed=True),
    "unshare": Launcher(guessed=True),
    "nsenter": Launcher({"-t", "--target"}, guessed=True),
    "firejail": Launcher(guessed=True),
    "bwrap": Launcher(guessed=True),
    "proot": Launcher(guessed=True),
    "fakeroot": Launcher({"-l", "--lib", "--faked", "-s", "-i"}),
    "torsocks": Launcher(guessed=True),
    "proxychains": Launcher({"-f"}),
    "proxychains4": Launcher({"-f"}),
    "catchsegv": Launcher(),
    "chronic": Launcher(),
    "caffeinate": Launcher({"-t", "-w"}),
    "dbus-run-session": Launcher({"--config-file", "--dbus-daemon"}),
    "xvfb-run": Launcher({"-n", "--server-num", "-s", "--server-args", "-f", "--auth-file", "-e",
                          "--error-file", "-p", "--xauth-protocol"}),
    "systemd-run": Launcher(guessed=True),
    "pkexec": Launcher({"--user"}),
    "entr": Launcher(),
    "mpirun": Launcher(guessed=True),
    "srun": Launcher(guessed=True),
    "gdb": Launcher(tail_options={"--args"}, code={"-ex", "--eval-command", "-iex", "--init-eval-command", "-x",
                                                   "--command", "-ix", "--init-command"}, guessed=True),
    "perf": Launcher(subcommands={word: Launcher(guessed=True) for word in ("record", "stat", "trace")}),
    "flock": Launcher({"-w", "--timeout", "-E", "--conflict-exit-code"}, {"-c", "--command"}, 1),
    "direnv": Launcher(subcommands={"exec": Launcher(positional=1)}),
    "uv": Launcher(subcommands={"run": _UV_RUN, "tool": Launcher(subcommands={"run": _UV_RUN})}),
    "uvx": _UV_RUN,
    "poetry": Launcher(subcommands={"run": Launcher(guessed=True)}),
    "pdm": Launcher(subcommands={"run": Launcher(guessed=True)}),
    "hatch": Launcher(subcommands={"run": Launcher(guessed=True)}),
    "rye": Launcher(subcommands={"run": Launcher(guessed=True)}),
    "pipx": Launcher(subcommands={"run": Launcher({"--spec", "--python", "--index-url", "--pip-args"}, (), 0,
                                                  guessed=True)}),
    "pipenv": Launcher(subcommands={"run": Launcher(guessed=True)}),
    "conda": Launcher(subcommands={"run": _ENV_RUN}),
    "mamba": Launcher(subcommands={"run": _ENV_RUN}),
    "micromamba": Launcher(subcommands={"run": _ENV_RUN}),
    "pixi": Launcher(subcommands={"run": _ENV_RUN, "exec": _ENV_RUN}),
    "npx": _JS_RUN,
    "bunx": _JS_RUN,
    "npm": Launcher(subcommands={"exec": _JS_RUN, "x": _JS_RUN}),
    "pnpm": Launcher(subcommands={"dlx": _JS_RUN, "exec": _JS_RUN}),
    "yarn": Launcher(subcommands={"dlx": _JS_RUN, "exec": _JS_RUN}),
    "bun": Launcher(subcommands={"x": _JS_RUN}),
    "nix-shell": Launcher({"-p", "--packages", "-A", "--attr", "-I", "--arg", "--argstr", "-E", "--expr"},
                          {"--run", "--command", "-E", "--expr"}, guessed=True),
    "nix": Launcher(subcommands={
        "develop": Launcher(tail_options={"-c", "--command"}, guessed=True),
        "shell": Launcher(tail_options={"-c", "--command"}, guessed=True),
        "run": Launcher(guessed=True, positional=1, code={"--expr"}),
    }),
    "docker": Launcher({"-H", "--host", "--context", "--config", "-l", "--log-level"}, subcommands=_DOCKER),
    "podman": Launcher({"--url", "--connection", "--root", "--runroot"}, subcommands=_DOCKER),
    "docker-compose": Launcher({"-f", "--file", "-p", "--project-name"}, subcommands=_COMPOSE),
    "kubectl": Launcher({"-n", "--namespace", "--context", "--kubeconfig"}, subcommands=_KUBECTL),
    "oc": Launcher({"-n", "--namespace", "--context", "--kubeconfig"}, subcommands=_KUBECTL),
    "busybox": Launcher(),
    "toybox": Launcher(),
    "prlimit": Launcher({"-p", "--pid", "-o", "--output"}, guessed=True),
    "eatmydata": Launcher(),
    "gosu": Launcher(positional=1),
    "su-exec": Launcher(positional=1),
    "setpgid": Launcher(),
    "tini": Launcher({"-p", "-e"}, guessed=True),
    "dumb-init": Launcher({"-r", "--rewrite"}, guessed=True),
    "cross-env": Launcher(assignments=True),
    "cross-env-shell": Launcher(assignments=True, code={"-c"}),
    "dotenv": Launcher({"-e", "-v", "-c"}, guessed=True),
    "chpst": Launcher({"-u", "-U", "-e", "-/", "-n", "-l", "-L", "-m", "-d", "-o", "-p", "-f", "-c"}, guessed=True),
    "runcon": Launcher({"-u", "-r", "-t", "-l", "-c"}, guessed=True),
    # Terminal emulators: the command after -e (-x, --command, --) runs in the new terminal.
    **{terminal: Launcher(tail_options={"-e", "-x", "--command", "--execute"}, guessed=True)
       for terminal in ("xterm", "uxterm", "urxvt", "rxvt", "st", "alacritty", "konsole", "kitty", "foot",
                        "gnome-terminal", "xfce4-terminal", "mate-terminal", "terminator", "tilix", "lxterminal",
                        "x-terminal-emulator", "wezterm")},
}
# Search tools that run a command for each thing they find: the options that start that command, and
# the words that end it (`find … -exec sh -c … \;`, `fd … -x sh -c …`: the rest of the line).
PER_FILE = {
    "find": (frozenset({"-exec", "-execdir", "-ok", "-okdir"}), frozenset({";", "+"})),
    **dict.fromkeys(("fd", "fdfind"), (frozenset({"-x", "--exec", "-X", "--exec-batch"}), frozenset({";"}))),
}
# Programs whose arguments end in a command they run, read apart from LAUNCHERS (dp.shell.programflow).
ARGUMENT_LAUNCHERS = frozenset({"xargs", *PER_FILE})
# Programs dp knows to run nothing they are given (beyond the table of sinks): their words are data.
DATA_PROGRAMS = GNU_NAMES - set(LAUNCHERS) - ARGUMENT_LAUNCHERS - {"sort", "split", "install", "sdiff", "diff3"} | {
    "rg", "ag", "ack", "curl", "file", "which", "whereis", "gzip", "gunzip", "zcat", "bzip2", "xz", "zstd", "unzip",
    "jq", "yq", "openssl", "ps", "top", "free", "hostname", "lsof", "tree", "bat", "shasum", "md5", "column",
    "iconv", "base64", "xxd", "hexdump", "strings", "nm", "objdump", "readelf", "ldd", "git", "gh", "sqlite3",
}
XARGS_VALUES = frozenset({"-I", "-L", "-n", "-P", "-s", "-E", "-d", "-a", "--arg-file", "--delimiter", "--max-args",
                          "--max-procs", "--max-chars", "--eof", "--max-lines"})
_UNKNOWN = Launcher(guessed=True, unknown=True)


def launcher_for(word: str, values: list[str]) -> tuple[Launcher, int] | None:
    """(the launcher a command word runs as, where its own words start), or None when it launches
    nothing: a listed launcher (after its subcommands: ``docker run``), or a program dp does not know
    that carries a shell, an interpreter or a launcher among its words (``prlimit … sh -c …``)."""
    name = known_name(word)
    launcher = LAUNCHERS.get(name)
    if launcher is not None:
        spec, at = tail_start(launcher, values)
        return (spec, at) if spec is not None else None
    if _unknown(name) and any(is_followed(value) for value in values if not value.startswith("-")):
        return _UNKNOWN, 0
    return None


def is_followed(word: str) -> bool:
    """Whether a word names a shell, an interpreter, a program that runs its arguments, or a launcher."""
    from dp.shell import sinks

    entry = sinks.SINKS.get(sinks.program_name(word))
    return (entry is not None and entry[0] in (sinks.SHELL, sinks.INTERPRETER, sinks.ALL)) or \
        known_name(word) in LAUNCHERS or known_name(word) in ARGUMENT_LAUNCHERS


def _unknown(name: str) -> bool:
    from dp.shell import sinks
    from dp.shell.programs import BUILTINS

    return not (name in DATA_PROGRAMS or name in BUILTINS or sinks.program_name(name) in sinks.SINKS)


def tail_start(launcher: Launcher, values: list[str]) -> tuple[Launcher | None, int]:
    """(the launcher that applies after subcommands, where its own words start), or (None, 0)
    when these words do not launch (``docker ps``, ``uv pip install``): then the program is just a program."""
    at = 0
    while launcher.subcommands is not None:
        at = _skip_options(launcher, values, at)
        if at >= len(values) or values[at] not in launcher.subcommands:
            return None, 0
        launcher = launcher.subcommands[values[at]]
        at += 1
    return launcher, at


def _skip_options(launcher: Launcher, values: list[str], at: int) -> int:
    while at < len(values) and values[at].startswith("-") and values[at] != "--":
        at += 2 if values[at] in launcher.values or values[at] in launcher.code else 1
    return at
