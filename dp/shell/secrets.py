"""Which words of a command hold a secret, and where in the word it starts.

Shared by redaction (``dp.capture.redact``, which replaces these parts before
anything is stored) and shapes (``dp.shell.shape``, which keeps an option's
name and never its value), so the two can never disagree about what is a
value. Three kinds of knowledge, each in one place here:

* the programs that take a password through an option, as a table of
  (program, option) pairs: ``mysql -pSECRET``, ``sshpass -p SECRET``,
  ``redis-cli -a SECRET``, ``docker login -p SECRET``, ``curl -u user:SECRET``,
  ``zip -P SECRET`` … (an option of the table is found wherever its program
  appears in the command, so ``docker exec db mysql -pSECRET`` and ``sudo
  sshpass -p SECRET`` count too);
* names that say "secret" (``--password``, ``--api-key``, ``-storepass``,
  ``AWS_SECRET_ACCESS_KEY=``, ``//registry/:_authToken=``), for any program:
  the value of such an option or assignment, and after ``config``/``set`` the
  word that follows such a name (``npm config set //registry/:_authToken TOKEN``);
* nothing about token shapes (``ghp_…``, ``sk-…``): those are found in any
  text by ``dp.capture.redact``'s patterns.

Plain string work on unquoted words (``dp.shell.shape.split_commands``), no
``re``: the capture hook imports this on every tool call. It errs toward
calling a word secret: a redacted database name costs nothing, a kept
password is the failure this module exists to prevent.
"""

from __future__ import annotations

import functools

from dp.shell.wrappers import basename

# How an option takes its secret: attached (`-pX`, `--password=X`) or, when REQUIRED, the next word
# whatever it is; when OPTIONAL, the next word only if it is not an option (`mysql -p` alone prompts).
REQUIRED, OPTIONAL = 2, 1

# (programs, the word that must come before the option or "" for none, {option: how it takes its value}).
PASSWORD_OPTIONS = (
    (("mysql", "mariadb", "mysqldump", "mysqladmin", "mysqlimport", "mysqlshow", "mysqlcheck", "mysqlpump",
      "mysqlsh", "mariadb-dump", "mariadb-admin", "mariadb-import", "mariadb-check"), "",
     {"-p": OPTIONAL, "--password": OPTIONAL}),
    (("sshpass",), "", {"-p": REQUIRED}),
    (("redis-cli", "valkey-cli", "keydb-cli"), "", {"-a": REQUIRED, "--pass": REQUIRED}),
    (("docker", "podman", "nerdctl", "buildah", "skopeo", "oras", "crane", "helm", "finch", "regctl", "az"),
     "login", {"-p": REQUIRED, "--password": REQUIRED}),
    (("curl",), "", {"-u": REQUIRED, "--user": REQUIRED, "-U": REQUIRED, "--proxy-user": REQUIRED,
                     "--oauth2-bearer": REQUIRED, "-E": REQUIRED, "--cert": REQUIRED, "--proxy-cert": REQUIRED,
                     "-b": REQUIRED, "--cookie": REQUIRED}),
    (("http", "https", "httpie", "xh", "xhs"), "", {"-a": REQUIRED, "--auth": REQUIRED}),
    (("zip", "zipcloak", "unzip", "funzip"), "", {"-P": REQUIRED, "--password": REQUIRED}),
    (("7z", "7za", "7zr", "7zz", "rar", "unrar"), "", {"-p": OPTIONAL}),
    (("sqlcmd", "bcp", "osql", "isql"), "", {"-P": REQUIRED}),
    (("ldapsearch", "ldapmodify", "ldapadd", "ldapdelete", "ldapwhoami", "ldappasswd", "ldapcompare",
      "ldapmodrdn", "ldapexop"), "", {"-w": REQUIRED}),
    (("mongo", "mongosh", "mongodump", "mongorestore", "mongoexport", "mongoimport", "mongostat", "mongotop",
      "mongofiles"), "", {"-p": REQUIRED}),
    (("smbclient", "rpcclient", "smbmap", "smbget"), "", {"-U": REQUIRED, "--user": REQUIRED}),
    (("ssh-keygen",), "", {"-N": REQUIRED, "-P": REQUIRED}),
    (("mosquitto_pub", "mosquitto_sub", "mosquitto_rr"), "", {"-P": REQUIRED, "--pw": REQUIRED}),
    (("cqlsh",), "", {"-p": REQUIRED}),
    (("influx",), "", {"-t": REQUIRED}),
    (("twine",), "", {"-p": REQUIRED}),
    (("lftp",), "", {"-u": REQUIRED}),
    (("openssl",), "", {"-k": REQUIRED, "-pass": REQUIRED, "-passin": REQUIRED, "-passout": REQUIRED,
                        "-password": REQUIRED}),
    (("gh",), "secret", {"-b": REQUIRED, "--body": REQUIRED}),
)
# Programs that take a secret as an operand: (programs, the subcommand before it or "", which operand after
# that is the secret; -1: the last, when an option cluster holds `flag`).
PASSWORD_OPERANDS = (
    (("htpasswd",), "", -1, "b"),  # htpasswd -b FILE USER PASSWORD, htpasswd -nb USER PASSWORD
    (("vault",), "login", 0, ""),  # vault login TOKEN
    (("bw",), "unlock", 0, ""),  # bw unlock MASTER_PASSWORD
    (("bw",), "login", 1, ""),  # bw login EMAIL PASSWORD
    (("rabbitmqctl",), "add_user", 1, ""),
    (("rabbitmqctl",), "change_password", 1, ""),
    (("wpa_passphrase",), "", 1, ""),  # wpa_passphrase SSID PASSPHRASE
    (("mysqladmin", "mariadb-admin"), "password", 0, ""),  # mysqladmin password NEW
)
# A bare word that names a secret and is followed by its value (`nmcli … password PW`, `mysqladmin password PW`).
_SECRET_KEYWORDS = frozenset({"password", "passwd", "passphrase", "psk"})
_BY_PROGRAM: dict[str, list[tuple[str, dict]]] = {}
for _programs, _after, _options in PASSWORD_OPTIONS:
    for _program in _programs:
        _BY_PROGRAM.setdefault(_program, []).append((_after, _options))
PROGRAMS = frozenset(_BY_PROGRAM)
_OPERAND_PROGRAMS = frozenset(name for programs, *_ in PASSWORD_OPERANDS for name in programs)

# Words a name says is secret when it holds one of them (separators dropped: `api_key`, `api-key`).
_SECRET_WORDS = ("password", "passwd", "passphrase", "secret", "token", "apikey", "accesskey", "privatekey",
                 "credential")
# …or has one of these as a word of its own (`--pass`, `REDISCLI_AUTH`, `--key`, `-pw`, `MYSQL_PWD`).
_SECRET_PARTS = frozenset({"pass", "pwd", "pw", "auth", "key", "otp", "pat"})
_NOT_SECRETS = frozenset({"pwd", "oldpwd"})  # the shell's working directories
# Option names that say secret but take no value (`--password-stdin`, `--no-password`, `--ask-pass`).
_VALUELESS_PARTS = frozenset({"no", "stdin", "ask", "with", "prompt"})
# After one of these words, a secret-named word is followed by its value (`npm config set NAME VALUE`).
_SETTING_WORDS = frozenset({"config", "configure", "set", "config:set", "secret"})
_SECRET_HEADERS = frozenset({"authorization", "proxy-authorization", "cookie", "set-cookie"})
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")


@functools.lru_cache(maxsize=4096)
def secret_name(name: str) -> bool:
    """Whether ``name`` (an option, a variable, a setting) says its value is a secret."""
    lowered = name.lower()
    squeezed = lowered.replace("-", "").replace("_", "").replace(".", "")
    if any(word in squeezed for word in _SECRET_WORDS):
        return True
    if lowered.strip("-_") in _NOT_SECRETS:
        return False
    parts = _parts(name)
    return any(part in _SECRET_PARTS for part in parts) or squeezed.endswith("pass") or squeezed.startswith("pass")


def _parts(name: str) -> list[str]:
    """``keyStorePassword`` → key, store, password; ``REDIS_CLI-auth`` → redis, cli, auth."""
    parts: list[str] = []
    part: list[str] = []
    for i, c in enumerate(name):
        if not c.isalnum():
            if part:
                parts.append("".join(part))
            part = []
            continue
        if c.isupper() and part and name[i - 1].islower():
            parts.append("".join(part))
            part = []
        part.append(c.lower())
    if part:
        parts.append("".join(part))
    return parts


def _option_takes_secret(name: str) -> bool:
    """A generic option (``--api-key``, ``-storepass``) whose name says it takes a secret."""
    return secret_name(name) and not _VALUELESS_PARTS.intersection(_parts(name))


def is_reference(value: str) -> bool:
    """``$NAME`` or ``${NAME}``: a variable's name, not a secret (``mysql -p"$DB_PASSWORD"``)."""
    name = value[2:-1] if value.startswith("${") and value.endswith("}") else value[1:] if value[:1] == "$" else ""
    return bool(name) and (name[0].isalpha() or name[0] == "_") and all(c.isalnum() or c == "_" for c in name)


def _first_space(word: str) -> int:
    """Where a word's first blank is: a name before it can be the word's own (``TOKEN="a b"``); one after
    it belongs to a command quoted in the word (``bash -c "… TOKEN=x"``), which is read on its own."""
    found = [at for at in (word.find(" "), word.find("\t"), word.find("\n")) if at >= 0]
    return min(found) if found else len(word)


def assigned_secret(word: str) -> int | None:
    """Where the value starts in ``NAME=value`` (anywhere in the word: ``-Dpassword=…``,
    ``--from-literal=token=…``, ``//registry/:_authToken=…``) when NAME says secret; else None."""
    at = word.find("=")
    blank = _first_space(word) if at > 0 else 0
    while 0 < at < blank:
        start = at
        while start > 0 and word[start - 1] in _NAME_CHARS:
            start -= 1
        name = word[start:at].lstrip("-")
        if name and secret_name(name):
            return at + 1
        at = word.find("=", at + 1)
    return None


def header_secret(word: str) -> int | None:
    """Where the value starts in ``Authorization: Bearer …``, ``Cookie: …``, ``X-Api-Key: …`` (a header
    anywhere in the word: ``http.extraHeader=Authorization: Basic …``); else None."""
    colon = word.find(": ")
    blank = _first_space(word) if colon > 0 else 0
    while 0 < colon < blank:
        start = colon
        while start > 0 and (word[start - 1].isalnum() or word[start - 1] in "-_"):
            start -= 1
        name = word[start:colon]
        if name and (name.lower() in _SECRET_HEADERS or secret_name(name)):
            at = colon + 1
            while at < len(word) and word[at] == " ":
                at += 1
            return at if at < len(word) else None
        colon = word.find(": ", colon + 1)
    return None


def secret_parts(words: list[str]) -> dict[int, int]:
    """``{index of a word holding a secret: where its secret starts}`` (0: the whole word) for one
    simple command's unquoted words. A value that is only a variable (``$PW``) is no secret."""
    found: dict[int, int] = {}
    program = _Program()
    next_is = 0  # REQUIRED / OPTIONAL: how the previous word wants the next one as its value
    for index, word in enumerate(words):
        if next_is and (next_is == REQUIRED or not word.startswith("-")):
            next_is = 0
            if word and not is_reference(word) and word[0] not in "<>":
                found[index] = 0
                continue
        if len(word) > 1 and word[0] == "-":
            at, next_is = _option(word, program.options)
        else:
            at, next_is = program.read(word)
        if at is not None and at < len(word) and not is_reference(word[at:]):
            found[index] = at
    for index in operand_secrets(words):
        found.setdefault(index, 0)
    return found


def operand_secrets(words: list[str]) -> list[int]:
    """The indexes of words that are secrets by their place: an operand of ``PASSWORD_OPERANDS`` (``vault
    login TOKEN``, ``htpasswd -b FILE USER PW``), and the word after a bare secret keyword (``password PW``)."""
    found = [index + 1 for index, word in enumerate(words[:-1]) if word.lower() in _SECRET_KEYWORDS]
    for start, word in enumerate(words):
        for programs, subcommand, place, flag in PASSWORD_OPERANDS if basename(word) in _OPERAND_PROGRAMS else ():
            if basename(word) in programs:
                found += _operand(words[start + 1:], subcommand, place, flag, start + 1)
    return [index for index in found if not is_reference(words[index])]


def _not_redirections(words: list[str]) -> list[int]:
    """The indexes of the words that are not redirections the word splitter kept (``2>&1``, ``>out.log``,
    ``<in``, and ``>`` or ``2>`` with its file as the next word)."""
    kept, target = [], False
    for i, word in enumerate(words):
        bare = word.lstrip("0123456789&")
        if target or bare[:1] in ("<", ">"):
            target = not target and bare.rstrip("<>&|") == ""
            continue
        kept.append(i)
    return kept


def _operand(words: list[str], subcommand: str, place: int, flag: str, offset: int) -> list[int]:
    """Where the secret operand is among one program's ``words`` (from ``offset`` in the command)."""
    if subcommand:
        if subcommand not in words:
            return []
        offset += words.index(subcommand) + 1
        words = words[words.index(subcommand) + 1:]
    if flag and not any(word[:1] == "-" and word[1:2] != "-" and flag in word for word in words):
        return []
    kept = _not_redirections(words)
    if place < 0:  # the last word, whatever it looks like (a password may start with -)
        return [offset + kept[-1]] if kept else []
    operands = [i for i in kept if not words[i].startswith("-")]
    return [offset + operands[place]] if place < len(operands) else []


class _Program:
    """What ``secret_parts`` knows of the command so far, from its words that are not options: the
    table's options in force (those of the last table program seen), the options that need a word
    first (``docker login``), and whether a ``config set``-like word came (then the name of the
    setting says whether the next word is secret)."""

    def __init__(self) -> None:
        self.options: dict[str, int] = {}
        self.waiting: list[tuple[str, dict]] = []
        self.setting = False

    def read(self, word: str) -> tuple[int | None, int]:
        """(where ``word``'s own secret starts or None, how the next word is its value: 0 or OPTIONAL)."""
        at = assigned_secret(word)
        at = header_secret(word) if at is None else at
        self._follow(word, at)
        next_is = OPTIONAL if self.setting and at is None and _setting_name(word) else 0
        self.setting = self.setting or word in _SETTING_WORDS
        return at, next_is

    def _follow(self, word: str, at: int | None) -> None:
        name = basename(word)
        if name in PROGRAMS and at is None:
            self.options, self.waiting = {}, list(_BY_PROGRAM[name])
        for required, more in self.waiting:
            if word == required or not required:
                self.options = {**self.options, **more}
        self.waiting = [(required, more) for required, more in self.waiting if required and required != word]


def _setting_name(word: str) -> bool:
    """``//registry.npmjs.org/:_authToken``, ``user.password``: the last name in the word says secret."""
    tail = word
    for separator in ":/":
        tail = tail.rsplit(separator, 1)[-1]
    return bool(tail) and secret_name(tail)


def _option(word: str, options: dict[str, int]) -> tuple[int | None, int]:
    """(where an attached secret starts or None, how the next word is its value: 0, OPTIONAL, REQUIRED)."""
    name, equals, _ = word.partition("=")
    long = word.startswith("--")
    if not long and word[:2] in options and name not in options:  # `-pSECRET` (mysql's `-pass` too)
        return 2, 0
    if name in options or _option_takes_secret(name.lstrip("-")) and (long or len(name) > 2):
        return (len(name) + 1, 0) if equals else (None, options.get(name, OPTIONAL))
    if not long and "-" + word[-1] in options and word[1:].isalpha():
        return None, options["-" + word[-1]]  # `zip -rP SECRET`: a cluster's last option takes the next word
    return assigned_secret(word), 0
