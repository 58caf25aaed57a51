"""The table of programs that read an argument as code: ``SINKS`` and the lists beside it, as data.

``dp.shell.sinks`` applies this table to one command's words; this module only
says, per program, which kind of reading it does (``ALL``, ``FIRST``, ``SHELL``
…), the reason and the safe way to write the step. Kept apart so the table can
grow (a program a week, as recipes meet them) without the reading code around it
growing too; every name here is read through ``dp.shell.sinks``.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

# How a program reads its arguments as code (the kinds of SINKS entries).
ALL = "all"  # every argument is code (eval, ssh, watch …)
FIRST = "first"  # the first operand is code, the rest data (trap ACTION SIGNAL, source FILE ARGS)
SHELL = "shell"  # a shell: options as the shells parse them, -c's string, the script operand, stdin
INTERPRETER = "interpreter"  # its own options and script operand are code; after those, data (argv)
PROGRAM_TEXT = "program-text"  # awk, sed, jq: the program operand (unless given as a file) and code options
OPTIONS = "options"  # options that run a program (rsync -e), operands from some index (sqlite3's SQL)
GIT = "git"  # git: -c NAME=VALUE, the subcommand, each subcommand's options that run programs
FORMAT = "format"  # printf: the format operand and -v NAME
NAMES = "names"  # declare, read …: variable names (a name's [subscript] is arithmetic, which runs $( ))
TEST_V = "test-v"  # [ -v NAME ]: the name's subscript is arithmetic

# A value in one of these places of a code position (the label's option) could be read as an option.
AS_OPTION = "--"

_ARGUMENT = "pass it as an argument of a fixed script instead"
_SHELL = ("it runs its command string (or the script it is given) as shell code",
          "pass it as an argument: sh -c '… \"$1\"' _ {{x}}")
_INLINE = ("it runs inline program text (and its own options can name code to load)",
           "pass it as an argument after the program text (python3 -c '…sys.argv[1]…' {{x}}), "
           "or in the environment")
_RUNS_COMMAND = ("it runs its arguments as a command line",
                 "run a fixed script that reads the value from a file or the environment")
_OPTION_PROGRAM = "put -- before the values (PROGRAM … -- {{x}}), so none can be read as an option"
# A script path that is the program's input: standard input, or another descriptor a redirection feeds.
_INPUT_PATH = re.compile(r"-|/dev/stdin|/dev/fd/[0-9]+|/proc/(?:self|[0-9]+)/fd/[0-9]+")


def reads_input(path: str) -> bool:
    """Whether a script operand names the program's input (``/dev/stdin``, ``/dev/fd/3``, ``-``)."""
    return bool(_INPUT_PATH.fullmatch(path))


def path_is(path: str, patterns) -> str:
    """The pattern of ``patterns`` (fnmatch, matched against the path's end: ``.git/hooks/*`` matches
    ``repo/.git/hooks/pre-commit``, ``.bashrc`` matches ``~/.bashrc``) that ``path`` is, or ''."""
    from fnmatch import fnmatchcase

    return next((pattern for pattern in patterns if fnmatchcase(path, pattern) or fnmatchcase(path, "*/" + pattern)),
                "")


def _shells(names, value_letters="oO", code_long=("--rcfile", "--init-file")):
    return {name: (SHELL, (frozenset(value_letters), frozenset(code_long)), *_SHELL) for name in names}


def _interpreters(names, code, values=(), stdin=True, magic=""):
    """INTERPRETER entries; ``magic``: option letters with which the operands are files the program opens
    with a shell (perl -n/-p: a file named ``cmd|`` runs cmd)."""
    return {name: (INTERPRETER, (set(code), set(values), stdin, magic), *_INLINE) for name in names}


def _options(code=(), values=(), operands_from=None, *, injectable=True, stdin=False, plus=False):
    """OPTIONS parameters: options whose value is code, options taking a data value, the operand index
    from which operands are code, whether a value could be read as an option, stdin, ``+cmd`` words."""
    return (frozenset(code), frozenset(values), operands_from, injectable, stdin, plus)


# program → (kind, parameters, reason, safe alternative).
# INTERPRETER parameters: (options whose value is code and after which operands are data,
#                          options that take a separate value, whether stdin is code without a script).
# PROGRAM_TEXT parameters: (options whose value is program text, options giving the program as a file,
#                           options that take one value, options that take two values).
# FIRST parameters: options to skip. NAMES parameters: options whose value is data.
SINKS: dict[str, tuple[str, Any, str, str]] = {  # the parameters: a set or a tuple, by kind
    **_shells(("sh", "bash", "rbash", "zsh", "dash", "ksh", "ksh93", "mksh", "ash", "yash", "posh", "tcsh",
               "csh", "xonsh", "elvish")),
    **_shells(("fish",), "Cdo", ("--init-command", "--command")),
    **_shells(("nu", "nushell"), "", ("--commands", "--config", "--env-config", "--execute")),
    **_interpreters(("python", "python2", "python3", "pypy", "pypy3"), {"-c", "-m"}, {"-W", "-X", "-Q"}),
    "node": (INTERPRETER, ({"-e", "--eval", "-p", "--print"},
                           {"-r", "--require", "--import", "--loader", "--input-type", "-C", "--conditions"},
                           True, ""), *_INLINE),
    **_interpreters(("tsx", "ts-node"), {"-e", "--eval", "-p", "--print"}, {"-r", "--require"}),
    **_interpreters(("deno",), {"eval", "run"}),
    **_interpreters(("bun",), {"-e", "--eval", "-p", "--print", "run"}),
    **_interpreters(("perl", "perl5"), {"-e", "-E"}, {"-I", "-M", "-m", "-x", "-i"}, magic="npi"),
    **_interpreters(("raku", "perl6"), {"-e"}, {"-I", "-M"}),
    **_interpreters(("ruby", "jruby", "irb"), {"-e"}, {"-r", "-I", "-C", "-E"}),
    **_interpreters(("php",), {"-r", "-B", "-R", "-E"}, {"-d", "-c", "-z"}),
    **_interpreters(("lua", "luajit", "texlua"), {"-e"}, {"-l"}),
    **_interpreters(("Rscript", "R"), {"-e", "--file"}),
    **_interpreters(("julia",), {"-e", "-E", "--eval", "--print"}, {"-L", "--load", "-J", "--sysimage"}),
    **_interpreters(("osascript",), {"-e"}, {"-l", "-s"}),
    **_interpreters(("tclsh", "wish", "jimsh", "ocaml", "swift", "scala", "groovy", "kotlin", "kotlinc",
                     "elixir", "iex", "escript", "runghc", "runhaskell", "ghci", "guile", "racket", "gst",
                     "clojure", "bb", "sbcl", "ecl", "clisp", "chez", "scheme", "gjs", "qjs", "jjs"),
                    {"-e", "-c", "--eval", "-E", "--expression", "-x", "--execute"},
                    {"-l", "-L", "-r", "-I", "-f", "--load", "--require"}),
    **_interpreters(("expect",), {"-c"}, {"-f"}),
    **_interpreters(("erl",), {"-eval", "-s", "-run"}, {"-pa", "-pz", "-sname", "-name", "-setcookie"}),
    **_interpreters(("dc",), {"-e", "--expression"}, {"-f", "--file"}),
    # The program they run is the first operand (a class, a jar, a package `go run` may download).
    **_interpreters(("java",), {"-jar", "-m", "--module"}, {"-cp", "-classpath", "--class-path", "-p",
                                                           "--module-path", "--add-modules"}, stdin=False),
    **_interpreters(("go",), {"run"}, {"-C", "-o", "-tags", "-ldflags", "-gcflags", "-mod",
                                                             "-modfile", "-p", "-pkgdir", "-run", "-bench"},
                    stdin=False),
    "eval": (ALL, (), "eval runs its arguments as shell code", "run the command itself, not through eval"),
    "let": (ALL, (), "let evaluates arithmetic, and arithmetic runs $( ) in array subscripts",
            "check it is a number first: n={{x}}; case $n in ''|*[!0-9]*) exit 1;; esac; then use $n"),
    "source": (FIRST, (), "source runs the file it names as shell code", "source a fixed file"),
    ".": (FIRST, (), "source runs the file it names as shell code", "source a fixed file"),
    "trap": (FIRST, ({"-p", "-l", "-P"}), "trap runs its action string as shell code",
             "trap a fixed function that reads the value from a variable: v={{x}}; trap cleanup EXIT"),
    "su": (ALL, (), "su hands its command (and options) to the user's shell",
           "give the value as an argument of a fixed program: sudo -u USER PROGRAM {{x}}"),
    "runuser": (ALL, (), "runuser hands its command (and options) to a shell",
                "give the value as an argument of a fixed program: sudo -u USER PROGRAM {{x}}"),
    "sg": (ALL, (), "sg hands its command to a shell", "name the program in the recipe; " + _ARGUMENT),
    "newgrp": (ALL, (), "newgrp starts a shell, which reads its standard input as a script",
               "name the program in the recipe; " + _ARGUMENT),
    "ssh": (ALL, (), "ssh runs the words after the host as a remote shell command, and a value before the "
                     "host may be an option (-oProxyCommand=…)",
            "send the value as data on standard input: printf '%s' {{x}} | ssh HOST 'cat > file'"),
    "watch": (ALL, (), "watch runs its arguments through sh -c", _RUNS_COMMAND[1]),
    "parallel": (ALL, (), "parallel runs its arguments (and its input lines) through a shell", _RUNS_COMMAND[1]),
    **{name: (ALL, (), "it runs its arguments as a shell command string", _RUNS_COMMAND[1])
       for name in ("pwsh", "powershell", "hyperfine", "tmux", "screen", "sem", "tsp", "script", "at", "batch",
                    "cmd.exe")},
    **{name: (ALL, (), "make pastes its variables and targets' text into its recipes' shell code "
                       "(and --eval reads a makefile)",
              "pass it in the environment and quote it in the recipe: V={{x}} make target, with \"$$V\"")
       for name in ("make", "gmake", "bmake", "remake")},
    **{name: (ALL, (), f"{name} pastes its arguments into its recipes' shell lines (just's parameters and "
                       "VAR=value, task's CLI_ARGS)",
              f"pass it in the environment and quote it in the recipe: V={{{{x}}}} {name} recipe, with \"$V\"")
       for name in ("just", "task", "go-task")},
    **{name: (ALL, (), "ed and m4 run the commands in their input (ed's !, m4's syscmd)", _RUNS_COMMAND[1])
       for name in ("ed", "red", "m4")},
    **{awk: (PROGRAM_TEXT, (set(), {"-f", "--file"}, {"-F", "-v", "--assign", "--field-separator"}, set()),
             "awk runs its program text, which can call system()",
             "pass it as a variable: awk -v v={{x}} '{ print v }' (or read ENVIRON)")
       for awk in ("awk", "gawk", "mawk", "nawk", "busybox-awk")},
    "sed": (PROGRAM_TEXT, ({"-e", "--expression"}, {"-f", "--file"}, {"-l", "--line-length"}, set()),
            "sed runs its script, whose e and w commands run programs and write files",
            "keep the script fixed and give the value as a file operand, or use another tool for the text"),
    "jq": (PROGRAM_TEXT, (set(), {"-f", "--from-file"}, {"-L", "--indent", "--tab"},
                          {"--arg", "--argjson", "--slurpfile", "--rawfile"}),
           "jq reads its filter as a program", "pass it with --arg: jq --arg v {{x}} '.[$v]'"),
    "git": (GIT, (), "git runs programs named in its configuration (-c alias.x=!…, core.pager, core.sshCommand "
                     "…) and in some options (--upload-pack, --exec, rebase -x)",
            "give git a fixed program and the value as data (git commit -m {{x}}, git fetch origin -- {{x}})"),
    "rsync": (OPTIONS, _options({"-e", "--rsh", "--rsync-path", "-M", "--remote-option"},
                                {"-f", "--filter", "--exclude", "--include", "--exclude-from", "--include-from",
                                 "--files-from", "-T", "--temp-dir", "--log-file", "--log-file-format",
                                 "--partial-dir", "--chmod", "--chown", "-B", "--block-size", "--port",
                                 "--password-file", "--timeout", "--contimeout", "--bwlimit", "--compare-dest",
                                 "--copy-dest", "--link-dest", "--backup-dir", "--suffix", "--max-size",
                                 "--min-size", "--max-delete", "--out-format", "--usermap", "--groupmap",
                                 "--iconv", "--checksum-choice", "--compress-choice", "--compress-level",
                                 "--skip-compress", "--modify-window", "--address", "--sockopts",
                                 "--outbuf", "--info", "--debug", "--stop-after", "--stop-at"}),
              "rsync runs the program -e (--rsh) names, and any value before -- could become that option",
              _OPTION_PROGRAM.replace("PROGRAM", "rsync -a")),
    **{tar: (OPTIONS, _options({"-I", "--use-compress-program", "--to-command", "--checkpoint-action", "-F",
                                "--info-script", "--new-volume-script", "--rsh-command", "--rmt-command"},
                               {"-f", "--file", "-C", "--directory", "-T", "--files-from", "-X", "--exclude-from",
                                "-b", "--blocking-factor", "-N", "--newer", "--after-date", "-g",
                                "--listed-incremental", "-H", "--format", "-L", "--tape-length", "-V", "--label",
                                "-K", "--starting-file", "--owner", "--group", "--mode", "--mtime",
                                "--transform", "--xform", "--exclude", "--strip-components"}),
             "tar runs the programs its checkpoint actions, --to-command and -I (--use-compress-program) name, "
             "and any value before -- could become one of those options",
             _OPTION_PROGRAM.replace("PROGRAM", "tar -czf out.tgz"))
       for tar in ("tar", "gtar", "bsdtar")},
    **{sqlite: (OPTIONS, _options({"-cmd", "-init"}, {"-separator", "-nullvalue", "-newline", "-escape", "-mmap",
                                                      "-maxsize", "-vfs", "-pagecache", "-lookaside", "-A"},
                                  1, injectable=False, stdin=True),
                "sqlite3 runs its SQL and dot commands (.shell, .system, .once |cmd) from the arguments after "
                "the database and from standard input",
                "bind it as a parameter: sqlite3 -cmd \".param set :v '…'\" is code too, so write the value to a "
                "file and read it with readfile(), or use a fixed script with a host-language binding")
       for sqlite in ("sqlite3", "sqlite")},
    **{psql: (OPTIONS, _options({"-c", "--command", "-f", "--file"},
                                {"-d", "--dbname", "-h", "--host", "-p", "--port", "-U", "--username", "-v", "--set",
                                 "--variable", "-o", "--output", "-L", "--log-file", "-P", "--pset", "-F", "-R",
                                 "-T"}, stdin=True),
              "psql runs its -c and -f text and standard input as SQL and \\! shell commands",
              "pass it as a psql variable: psql -v v={{x}} -c 'select :\\'v\\''")
       for psql in ("psql",)},
    **{mysql: (OPTIONS, _options({"-e", "--execute", "--init-command"},
                                 {"-u", "--user", "-h", "--host", "-P", "--port", "-D", "--database", "-S",
                                  "--socket"}, stdin=True),
               "mysql runs its -e text and standard input as SQL and \\! / system commands",
               "use a fixed statement and pass the value through a file the statement reads")
       for mysql in ("mysql", "mariadb")},
    "zip": (OPTIONS, _options({"-TT", "--unzip-command"}, {"-b", "-t", "-tt", "-n", "-x", "-i", "-Z", "-s", "-O",
                                                           "--out"}),
            "zip runs the program -TT (--unzip-command) names, and any value before -- could become that option",
            _OPTION_PROGRAM.replace("PROGRAM", "zip out.zip")),
    "man": (OPTIONS, _options({"-P", "--pager", "-H", "--html"},
                              {"-M", "--manpath", "-S", "-s", "--sections", "-L", "--locale", "-m", "-C",
                               "--config-file", "-E", "--encoding", "-R", "-p", "--preprocessor"}),
            "man runs the pager -P names, and any value before -- could become that option",
            _OPTION_PROGRAM.replace("PROGRAM", "man")),
    **{less: (OPTIONS, _options((), {"-b", "-h", "-j", "-k", "-o", "-O", "-p", "-P", "-t", "-T", "-x", "-y", "-z"},
                                plus=True),
              "less runs the commands of a +cmd word (! runs a shell), and any value before -- could be one",
              _OPTION_PROGRAM.replace("PROGRAM", "less"))
       for less in ("less", "more", "most")},
    **{vim: (OPTIONS, _options({"-c", "--cmd", "-S", "-u", "-s", "-U", "-i"}, {"-t", "-q", "-T", "-w", "-W"},
                               plus=True, stdin=vim in ("ex", "vim.tiny")),
             "vim runs its -c, --cmd and +cmd commands (:! runs a shell), and any value before -- could be one",
             _OPTION_PROGRAM.replace("PROGRAM", "vim"))
       for vim in ("vim", "vi", "nvim", "view", "vimdiff", "gvim", "rvim", "ex", "vim.tiny", "nano")},
    "emacs": (OPTIONS, _options({"--eval", "-l", "--load", "-f", "--funcall", "--script", "-x"},
                                {"-L", "--directory", "-t", "--terminal", "-d", "--display", "--chdir"}),
              "emacs evaluates its --eval, --load and --funcall Lisp, and any value before -- could be one",
              _OPTION_PROGRAM.replace("PROGRAM", "emacs")),
    "lldb": (OPTIONS, _options({"-o", "--one-line", "-O", "--one-line-before-file", "-s", "--source", "-S",
                                "--source-before-file", "-k", "--one-line-on-crash", "-K"}, stdin=True),
             "lldb runs its -o and -s commands (platform shell runs programs)",
             _OPTION_PROGRAM.replace("PROGRAM", "lldb")),
    **{scp: (OPTIONS, _options({"-S", "-o", "-F", "-D", "-s", "-b"},
                               {"-c", "-i", "-l", "-P", "-J", "-X", "-B", "-R"}),
             f"{scp} runs the program -S names and ssh options (-oProxyCommand=…), and any value before -- "
             "could become one of those options",
             _OPTION_PROGRAM.replace("PROGRAM", scp))
       for scp in ("scp", "sftp")},
    "pandoc": (OPTIONS, _options({"-F", "--filter", "-L", "--lua-filter"},
                                 {"-o", "--output", "-f", "--from", "-r", "--read", "-t", "--to", "-w", "--write",
                                  "-M", "--metadata", "-V", "--variable", "--template", "-c", "--css"}),
               "pandoc runs the programs --filter names, and any value before -- could become that option",
               _OPTION_PROGRAM.replace("PROGRAM", "pandoc")),
    "crontab": (ALL, (), "crontab installs its input as commands cron runs", _RUNS_COMMAND[1]),
    "printf": (FORMAT, (), "printf reads its format for % directives and escapes, and -v names a variable "
                           "whose [subscript] is arithmetic",
               "use a fixed format: printf '%s\\n' {{x}}"),
    **{name: (NAMES, ({"-p", "-d", "-t", "-n", "-N", "-u", "-i"} if name == "read" else set()),
              f"{name} takes variable names, and a name's [subscript] is arithmetic, which runs $( )",
              "use a fixed variable name; give the value after = (export NAME={{x}})")
       for name in ("declare", "typeset", "local", "export", "readonly", "unset", "read", "mapfile",
                    "readarray", "getopts")},
    "[": (TEST_V, (), "-v NAME reads a variable name, whose [subscript] is arithmetic",
          "test a fixed variable name"),
    "test": (TEST_V, (), "-v NAME reads a variable name, whose [subscript] is arithmetic",
             "test a fixed variable name"),
    "wait": (TEST_V, ("-p",), "-p NAME names a variable, whose [subscript] is arithmetic",
             "use a fixed variable name"),
    # Builtins that run, evaluate or define code from their arguments.
    **{name: (ALL, (), f"{name} runs or defines code from its arguments (compgen -W and -C, bind -x, alias, "
                       "enable -f, fc -e, hash -p …)", "give the value to a program as a quoted argument")
       for name in ("compgen", "complete", "compopt", "bind", "alias", "enable", "fc", "hash")},
    # Programs that run each argument (or all of them joined) as a shell command line.
    **{name: (ALL, (), f"{name} runs its arguments as shell command lines", _RUNS_COMMAND[1])
       for name in ("pee", "concurrently", "watchexec", "npm-run-all", "run-p", "run-s")},
    "nodemon": (OPTIONS, _options({"--exec", "-x"}, {"-w", "--watch", "-e", "--ext", "-i", "--ignore", "-d",
                                                     "--delay", "--signal", "-C"}, injectable=False),
                "nodemon runs its --exec string through a shell", _RUNS_COMMAND[1]),
    # An option whose value is a program the tool runs (a value before -- could also become it).
    **{name: (OPTIONS, _options(code, values, injectable=False),
              f"{name} runs the program its {'/'.join(sorted(code))} option names",
              "give it a fixed program; a value starting with - is refused when the step runs (put -- before it)")
       for name, code, values in (
           ("sort", {"--compress-program"}, {"-k", "--key", "-t", "-o", "-S", "-T"}),
           ("split", {"--filter"}, {"-b", "-l", "-n", "-a", "--additional-suffix"}),
           ("install", {"--strip-program"}, {"-m", "-o", "-g", "-t", "-S"}),
           ("sdiff", {"--diff-program"}, {"-o", "-w"}),
           ("diff3", {"--diff-program"}, {"-L"}),
           ("wget", {"--use-askpass"}, {"-O", "-o", "-P", "-U", "--header", "-t", "-T"}),
           # The search tools dp paves to: data, but for the preprocessor and the pager they start.
           ("rg", {"--pre"}, {"-e", "--regexp", "-f", "--file", "-g", "--glob", "--iglob", "-t", "--type", "-T",
                              "--type-not", "-m", "--max-count", "-A", "-B", "-C", "--context", "-M",
                              "--max-columns", "-j", "--threads", "--pre-glob", "-r", "--replace", "-E",
                              "--encoding", "--max-depth", "-d", "--ignore-file", "--type-add", "--sort",
                              "--sortr", "--colors", "--color", "--path-separator", "--max-filesize"}),
           ("bat", {"--pager"}, {"-l", "--language", "-H", "--highlight-line", "-r", "--line-range", "--theme",
                                 "--style", "--tabs", "--wrap", "--terminal-width", "-m", "--map-syntax",
                                 "--file-name", "--color", "--italic-text", "--decorations", "--paging"}),
       )},
}

# Program text that runs commands (awk's system() and pipes, sed's e command and s///e, an interpreter's
# system/exec/eval/subprocess): what such a fixed program reads on stdin is code, and so is every value
# it is given (arguments, variables, environment) for the programs that can read those.
_AWK_RUNS_INPUT = re.compile(r"system\s*\(|\|\s*getline|\|&|print[^;}\n]*\|")
_PYTHON_RUNS = re.compile(r"\bos\s*\.\s*(?:system|popen|exec|spawn|posix_spawn)|subprocess|\bpty\b|\bcommands\b|"
                          r"\b(?:exec|eval|compile|__import__|breakpoint)\s*\(|importlib|runpy|\bctypes\b")
_PERL_RUNS = re.compile(r"\b(?:system|exec|eval|qx|readpipe|open|do|require|fork)\b|`")
_RUBY_RUNS = re.compile(r"\b(?:system|exec|spawn|eval|instance_eval|class_eval|module_eval|send|public_send|"
                        r"open|popen|popen3|load|require|fork|syscall)\b|`|%x")
_JS_RUNS = re.compile(r"child_process|\b(?:exec|execSync|execFile|execFileSync|spawn|spawnSync|fork|eval|Function|"
                      r"require|import)\s*\(|\bvm\b|Deno\s*\.\s*(?:run|Command)|Bun\s*\.\s*(?:spawn|\$)|\$`")
_PHP_RUNS = re.compile(r"\b(?:system|exec|passthru|shell_exec|popen|proc_open|pcntl_exec|eval|assert|"
                       r"create_function|include|include_once|require|require_once|call_user_func\w*|mail)\b|`")
_LUA_RUNS = re.compile(r"\bos\s*\.\s*execute|\bio\s*\.\s*popen|\b(?:load|loadstring|loadfile|dofile|require)\b")
RUNS_INPUT = {
    **{awk: _AWK_RUNS_INPUT for awk in ("awk", "gawk", "mawk", "nawk", "busybox-awk")},
    **{python: _PYTHON_RUNS for python in ("python", "python2", "python3", "pypy", "pypy3")},
    **{perl: _PERL_RUNS for perl in ("perl", "perl5")},
    **{ruby: _RUBY_RUNS for ruby in ("ruby", "jruby")},
    **{js: _JS_RUNS for js in ("node", "tsx", "ts-node", "deno", "bun")},
    "php": _PHP_RUNS,
    **{lua: _LUA_RUNS for lua in ("lua", "luajit", "texlua")},
    "sed": re.compile(r"(?:^|[;{}\n'\"0-9$/])\s*e(?:[\s;}'\"]|$)|s(.)(?:(?!\1).)*\1(?:(?!\1).)*\1[gpIiMm0-9w]*e"),
}

# Programs that read a script on standard input though their arguments are all data.
STDIN_SCRIPTS = frozenset({"ssh", "su", "runuser", "sg", "newgrp", "script", "at", "batch", "parallel", "pwsh", "powershell", "ed",
                            "red", "m4", "crontab", "cmd.exe"})

# git subcommands with an option that runs a program (everything else git does with a value is data).
GIT_SUBCOMMANDS = {
    "fetch": _options({"--upload-pack"}, {"--depth", "--deepen", "--shallow-since", "--shallow-exclude", "--refmap",
                                         "-o", "--server-option", "-j", "--jobs", "--negotiation-tip", "--filter"}),
    "pull": _options({"--upload-pack"}, {"--depth", "-s", "--strategy", "-X", "--strategy-option"}),
    "clone": _options({"-u", "--upload-pack", "--template", "-c", "--config"},
                      {"-o", "--origin", "-b", "--branch", "--depth", "--reference", "--separate-git-dir", "-j",
                       "--jobs", "--filter", "--shallow-since", "--shallow-exclude", "--server-option"}),
    "ls-remote": _options({"--upload-pack", "-u"}, {"-o", "--server-option", "--sort"}),
    "push": _options({"--receive-pack", "--exec"}, {"--repo", "-o", "--push-option"}),
    "archive": _options({"--exec"}, {"--format", "-o", "--output", "--prefix", "--remote", "--add-file"}),
    "rebase": _options({"-x", "--exec"}, {"--onto", "-s", "--strategy", "-X", "--strategy-option", "-C",
                                          "--whitespace", "--empty"}),
    "difftool": _options({"-x", "--extcmd", "-t", "--tool"}, ()),
    "mergetool": _options({"-t", "--tool"}, ()),
    "grep": _options({"-O", "--open-files-in-pager"}, {"-e", "-f", "-A", "-B", "-C", "--max-depth", "-m",
                                                      "--max-count", "--threads", "--context", "--after-context",
                                                      "--before-context"}),
    "send-email": _options({"--sendmail-cmd", "--smtp-server", "--to-cmd", "--cc-cmd", "--header-cmd"}, ()),
    "filter-branch": _options({"--env-filter", "--tree-filter", "--index-filter", "--parent-filter",
                               "--msg-filter", "--commit-filter", "--tag-name-filter"}, ()),
    "bisect": _options((), (), 1),  # bisect run CMD …
    "submodule": _options((), (), 1),  # submodule foreach CMD
    "instaweb": _options({"-b", "--browser", "-d", "--httpd"}, ()),
}
# git configuration names whose value is a program, a command or a file of more configuration.
GIT_PROGRAM_KEYS = (
    "alias.*", "core.pager", "core.editor", "core.sshcommand", "core.askpass", "core.fsmonitor", "core.hookspath",
    "core.gitproxy", "core.attributesfile", "pager.*", "diff.external", "diff.*.command", "diff.*.textconv",
    "difftool.*", "merge.*.driver", "mergetool.*", "filter.*", "credential.helper", "credential.*.helper",
    "gpg.program", "gpg.*.program", "sequence.editor", "web.browser", "browser.*", "man.*", "sendemail.*",
    "uploadpack.packobjectshook", "remote.*.uploadpack", "remote.*.receivepack", "remote.*.vcs", "include.*",
    "includeif.*", "init.templatedir", "interactive.difffilter", "instaweb.*", "protocol.*", "url.*",
    "submodule.*.update", "trailer.*", "tar.*", "ssh.variant", "http.*.proxy", "core.sshcommand",
)

# Files a program runs by convention, found where it starts (fnmatch patterns of a path's end): a value
# written to one and then that program started runs the value (`echo {{v}} >> Makefile; make`). Keyed by
# the program, or by the module `python -m` runs.
CONVENTIONAL_SCRIPTS = {
    **dict.fromkeys(("make", "gmake", "bmake", "remake"), ("Makefile", "makefile", "GNUmakefile", "*.mk")),
    "just": ("justfile", "Justfile", ".justfile"),
    "rake": ("Rakefile", "rakefile"),
    **dict.fromkeys(("npm", "pnpm", "yarn", "bun", "npx", "bunx", "corepack"),
                    ("package.json", ".npmrc", ".yarnrc", ".yarnrc.yml", ".pnpmfile.cjs")),
    **dict.fromkeys(("pytest", "py.test"), ("conftest.py", "test_*.py", "*_test.py", "pytest.ini", "pyproject.toml",
                                           "setup.cfg", "tox.ini")),
    "tox": ("tox.ini", "pyproject.toml", "setup.py", "setup.cfg"),
    "nox": ("noxfile.py",),
    **dict.fromkeys(("pip", "pip3", "build"), ("setup.py", "pyproject.toml", "setup.cfg")),
    "cargo": ("build.rs", "Cargo.toml", ".cargo/config.toml", ".cargo/config"),
    **dict.fromkeys(("gradle", "gradlew"), ("build.gradle", "build.gradle.kts", "settings.gradle",
                                            "settings.gradle.kts", "gradle.properties", "init.gradle")),
    **dict.fromkeys(("mvn", "mvnw"), ("pom.xml", "maven.config", "jvm.config")),
}
# Files that run in later sessions, whatever the step does next (fnmatch patterns of a path's end: a shell's
# startup files, git's hooks and configuration, npm's, Python's site hooks): a value written to one is code
# for every later shell or program.
STARTUP_FILES = (".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zshenv",
                 ".zprofile", ".zlogin", ".zlogout", ".kshrc", ".mkshrc", ".cshrc", ".tcshrc", ".envrc", ".gitconfig",
                 ".npmrc", ".yarnrc", ".yarnrc.yml", ".vimrc", ".exrc", ".gvimrc", ".emacs", ".emacs.d/init.el",
                 ".pythonrc", ".pythonrc.py", "sitecustomize.py", "usercustomize.py", "*.pth", ".ssh/config", ".ssh/rc",
                 ".git/config", ".git/hooks/*", ".config/git/config", ".tmux.conf", ".screenrc", ".xinitrc",
                 ".xsession", ".config/autostart/*")

# Environment variables whose value is a program, code, or where programs and code are found.
PROGRAM_VARIABLES = frozenset({
    "PAGER", "MANPAGER", "SYSTEMD_PAGER", "EDITOR", "VISUAL", "BROWSER", "LESSOPEN", "LESSCLOSE", "LESS",
    "SHELL", "BASH_ENV", "ENV", "PROMPT_COMMAND", "PS0", "PS1", "PS2", "PS4", "SHELLOPTS", "BASHOPTS", "ZDOTDIR",
    "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "DYLD_INSERT_LIBRARIES", "PATH", "PYTHONSTARTUP", "PYTHONPATH",
    "PYTHONHOME", "NODE_OPTIONS", "PERL5OPT", "PERL5LIB", "PERLLIB", "RUBYOPT", "RUBYLIB", "JAVA_TOOL_OPTIONS",
    "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "GIT_SSH", "GIT_EXEC_PATH", "GIT_CONFIG", "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_SYSTEM", "GIT_CONFIG_PARAMETERS", "GIT_TEMPLATE_DIR", "GIT_EXTERNAL_DIFF", "RSYNC_RSH",
    "RSYNC_CONNECT_PROG", "CVS_RSH", "TAR_OPTIONS", "MAKEFLAGS", "MAKEFILES", "CC", "CXX", "LD", "CPP",
    "KUBECONFIG", "DOCKER_HOST", "TERMINAL", "XDG_CONFIG_HOME", "IFS",
})
# …and any name ending like these (GIT_SSH_COMMAND, GIT_EDITOR, SUDO_ASKPASS, GIT_CONFIG_KEY_0 …).
PROGRAM_SUFFIXES = ("_COMMAND", "_CMD", "_EDITOR", "_PAGER", "_ASKPASS", "_SHELL", "_PROGRAM", "_RSH", "_PROXY",
                     "_HOOK")
PROGRAM_PREFIXES = ("GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_", "LD_", "DYLD_")

# Not programs: where a value sits makes it code whatever reads it.
COMMAND_WORD_SINK = "a wrapped command word"
COMMAND_WORD = ("a wrapper (sudo, timeout, nice, nohup, env, xargs, find -exec …) would run the program it names",
                "name the program in the recipe; " + _ARGUMENT)
UNNAMED_SINK = "a program dp cannot name"
UNNAMED = ("the command word is not a literal name ($SHELL, $S, \"$(which sh)\", a value), so the program that "
           "receives the value is decided when it runs, and may be a shell",
           "name the program in the recipe (sh, python3 …) and give it the value as data")
LAUNCHED = ("it runs the command (or program) this option names",
            "name the command in the recipe; " + _ARGUMENT)
SHELL_ALTERNATIVE = _SHELL[1]
WRAPPER_OPTION = ("it could become an option of the wrapper (env -S splits and runs a string)",
                  "give the value to the program the wrapper runs, not to the wrapper")
PROGRAM_VARIABLE = ("the variable names a program (or code) that programs run",
                    "give the value in a variable no program runs, and pass it to a fixed program as data")
STDIN_SCRIPT = ("it reads its standard input as a script",
                "write the value to a file and give the program a fixed script that reads it")
DESCRIPTOR_SINK = "a descriptor dp cannot name"
DESCRIPTOR = ("the descriptor is chosen when the step runs (a coprocess's, or one opened to a process "
              "substitution), and may be a program's input",
              "write it to a file named literally, or to standard output")
CONVENTIONAL_SCRIPT = ("{program} runs {file} by convention, and the value was written to it",
                       "write the value to a data file and have the file read it (an include, an environment "
                       "variable)")
STARTUP_FILE = ("later shells and programs run this file, and the value would be written to it",
                "write the value to a data file; a file that runs later is the person's to edit")
RUNS_GIVEN = ("its program text runs commands (system, exec, eval, subprocess …), and it is given the value",
              "give the value to a program that only reads it, or keep the program text free of commands that run "
              "what they are given")
FILE_SCRIPT = ("the file it runs was written from the value",
               "write the value to a data file and give the program a fixed script that reads it")
SUBSCRIPT = ("an array subscript is arithmetic, which runs $( )", "use a fixed subscript")
ARITHMETIC = ("arithmetic evaluates it, and runs $( ) in array subscripts",
              "check it is a number first: n={{x}}; case $n in ''|*[!0-9]*) exit 1;; esac; then use $n")
PROMPT = ("${V@P} expands the value as a prompt, which runs $( )", "expand it plainly: \"$V\"")
