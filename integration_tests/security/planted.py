"""Commands with planted secrets: a seeded generator for the secret-planting tests.

Every secret is random (so it can only be found where it was planted) and sits
in one of the places a secret is typed: attached to or following the option of
a program that takes a password (``mysql -pS``, ``sshpass -p S``, ``redis-cli
-a S``, ``docker login -p S``, ``curl -u user:S``, ``zip -P S``, ``sqlcmd -P S``
…), a long option whose name says secret (``--token S``, ``--api-key=S``), a
secret-named assignment (``AWS_SECRET_ACCESS_KEY=S cmd``, ``export``, ``env``,
``docker run -e``), a setting (``npm config set …:_authToken S``), a URL
(``https://user:S@host``), a header (``Authorization: Bearer S``), or a token
of a well-known shape anywhere (``ghp_…``, ``npm_…``, ``AKIA…``, ``sk-…``,
``sk-ant-…``, ``xoxb-…``, a JWT). Each is quoted in every way Bash allows
(plain, ``'…'``, ``"…"``, ``$'…'``), placed behind wrappers and launchers
(``sudo``, ``env``, ``timeout``, ``docker exec``, ``kubectl exec --``, ``ssh
host '…'``, ``bash -c "…"``), and joined into lists and pipelines. The error a
failed call gets often repeats the secret, as programs do (``unknown option
'-pS'``, an xtrace line, a URL in git's message).

``Call.secrets`` are the random parts a test must never find again.
"""

from __future__ import annotations

import base64
import json
import random
import string
from dataclasses import dataclass, field

ALNUM = string.ascii_letters + string.digits
# What a secret may hold, by how it is quoted: Bash must read the whole of it as one value.
_CHARS = {
    "plain": ALNUM + "_.+@%^,:",
    "single": ALNUM + " !#$&*;|()<>\"\\_.+@%^,:=/~-",
    "double": ALNUM + " !#&*;|()<>'_.+@%^,:=/~-",
    "ansi": ALNUM + " _.+@%^,:=/~-",
    "url": ALNUM + "_.~%-",
}
STYLES = ("plain", "single", "double", "ansi")


@dataclass
class Call:
    """One tool call: its command (or tool input), the error if it failed, the secrets planted in it."""

    command: str
    error: str | None = None
    secrets: list[str] = field(default_factory=list)
    tool: str = "Bash"
    tool_input: dict | None = None


class Planter:
    """Seeded: the same seed plants the same secrets in the same commands."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.planted: list[str] = []

    # -- secrets -----------------------------------------------------------

    def secret(self, style: str = "plain") -> str:
        """A random secret that can be typed in ``style``: at least 12 characters, starting with a letter."""
        rng = self.rng
        others = [c for c in _CHARS[style] if c not in ALNUM]  # mostly letters and digits, as passwords are
        body = "".join(rng.choice(others) if rng.random() < 0.2 else rng.choice(ALNUM)
                       for _ in range(rng.randint(11, 27)))
        value = rng.choice(string.ascii_letters) + body
        while value.endswith(("\\", " ")):  # a trailing backslash would escape the closing quote
            value = value[:-1] + rng.choice(ALNUM)
        self.planted.append(value)
        return value

    def quoted(self, value: str, style: str) -> str:
        if style == "plain":
            return value
        if style == "single":
            return f"'{value}'"
        if style == "double":
            return f'"{value}"'
        return f"$'{value}'"

    def typed(self, prefix: str = "", style: str | None = None) -> tuple[str, str]:
        """(the secret as typed, quoted, with ``prefix`` inside the quotes, the secret)."""
        style = style or self.rng.choice(STYLES)
        value = self.secret(style)
        return self.quoted(prefix + value, style), value

    def token(self) -> tuple[str, str]:
        """A token of a well-known shape, and its random part."""
        rng = self.rng
        pick = rng.randrange(11)
        random_part = lambda size, chars=ALNUM: "".join(rng.choice(chars) for _ in range(size))  # noqa: E731
        if pick == 0:
            core = random_part(36)
            token = rng.choice(["ghp_", "gho_", "ghu_", "ghs_", "ghr_"]) + core
        elif pick == 1:
            core = random_part(22) + "_" + random_part(59)
            token = "github_pat_" + core
        elif pick == 2:
            core = random_part(36)
            token = "npm_" + core
        elif pick == 3:
            core = random_part(16, string.ascii_uppercase + string.digits)
            token = rng.choice(["AKIA", "ASIA"]) + core
        elif pick == 4:
            core = random_part(48)
            token = rng.choice(["sk-", "sk-proj-"]) + core
        elif pick == 5:
            core = random_part(93, ALNUM + "-_")
            token = "sk-ant-api03-" + core
        elif pick == 6:
            core = random_part(24)
            token = f"xox{rng.choice('bpars')}-{rng.randint(10**9, 10**10)}-{rng.randint(10**9, 10**10)}-{core}"
        elif pick == 7:
            claims = json.dumps({"sub": random_part(12), "exp": rng.randint(1, 10**10)}).encode()
            payload = base64.urlsafe_b64encode(claims).decode().rstrip("=")
            core = random_part(43, ALNUM + "-_")
            token = f"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.{payload}.{core}"
            self.planted.append(payload)
        elif pick == 8:
            core = random_part(20, ALNUM + "-_")
            token = "glpat-" + core
        elif pick == 9:
            core = random_part(34)
            token = "hf_" + core
        else:
            core = random_part(35, ALNUM + "-_")
            token = "AIza" + core
        self.planted.append(core)
        return token, core

    # -- where secrets are typed ------------------------------------------

    def fragment(self) -> tuple[str, list[str], str]:
        """(one command with one or two secrets planted, its secrets, the word a program would echo)."""
        rng = self.rng
        makers = [self._mysql, self._sshpass, self._redis, self._login, self._curl, self._zip, self._sqlcmd,
                  self._postgres, self._git, self._ldap_mongo, self._generic_option, self._assignment,
                  self._setting, self._token_anywhere, self._others, self._operand]
        return rng.choice(makers)()

    def _mysql(self):
        program = self.rng.choice(["mysql", "mariadb", "mysqldump", "mysqladmin"])
        if self.rng.random() < 0.6:
            word, value = self.typed("-p")
        else:
            word, value = self.typed("--password=")
        tail = self.rng.choice([" prod", " -h db.internal prod -e 'select 1'", " --all-databases", " status", ""])
        return f"{program} -uroot {word}{tail}", [value], word

    def _sshpass(self):
        if self.rng.random() < 0.5:
            word, value = self.typed()
            text = f"sshpass -p {word} ssh deploy@10.0.0.5 uptime"
        else:
            word, value = self.typed("-p")
            text = f"sshpass {word} scp build.tar.gz deploy@host:/srv"
        return text, [value], word

    def _redis(self):
        option = self.rng.choice(["-a", "--pass"])
        word, value = self.typed()
        return f"redis-cli -h cache.internal {option} {word} {self.rng.choice(['ping', 'info', 'keys *'])}", [value], word

    def _login(self):
        program = self.rng.choice(["docker", "podman", "nerdctl", "helm registry"])
        option = self.rng.choice(["-p", "--password"])
        if self.rng.random() < 0.3:
            word, value = self.typed(option + "=")
            return f"{program} login -u bot {word} registry.example.com", [value], word
        word, value = self.typed()
        return f"{program} login -u bot {option} {word} registry.example.com", [value], word

    def _curl(self):
        rng = self.rng
        pick = rng.randrange(6)
        if pick == 0:
            word, value = self.typed("admin:")
            return f"curl -fsS -u {word} https://api.example.com/v1/items", [value], word
        if pick == 1:
            word, value = self.typed("Authorization: Bearer ", rng.choice(["single", "double"]))
            return f"curl -H {word} https://api.example.com/me", [value], word
        if pick == 2:
            word, value = self.typed("X-Api-Key: ", rng.choice(["single", "double"]))
            return f"curl -sS -H {word} -X POST https://api.example.com/run", [value], word
        if pick == 3:
            value = self.secret("url")
            return f"curl -sSL https://admin:{value}@api.example.com/v1/health", [value], value
        if pick == 4:
            word, value = self.typed("--oauth2-bearer ", "plain")
            return f"curl {word} https://api.example.com", [value], value
        word, value = self.typed()
        return f"wget --password {word} https://files.example.com/a.tgz", [value], word

    def _zip(self):
        rng = self.rng
        pick = rng.randrange(4)
        if pick == 0:
            word, value = self.typed()
            return f"zip -P {word} backup.zip db.sql", [value], word
        if pick == 1:
            word, value = self.typed()
            return f"zip -rP {word} site.zip public/", [value], word
        if pick == 2:
            word, value = self.typed("-P")
            return f"unzip {word} backup.zip", [value], word
        word, value = self.typed("-p")
        return f"7z x {word} archive.7z", [value], word

    def _sqlcmd(self):
        if self.rng.random() < 0.5:
            word, value = self.typed()
            return f"sqlcmd -S db,1433 -U sa -P {word} -Q \"SELECT 1\"", [value], word
        word, value = self.typed("-P")
        return f"sqlcmd -S db -U sa {word} -i schema.sql", [value], word

    def _postgres(self):
        rng = self.rng
        pick = rng.randrange(3)
        if pick == 0:
            value = self.secret("url")
            url = f"postgresql://app:{value}@db.internal:5432/prod"
            return f"{rng.choice(['psql', 'pg_dump'])} {rng.choice([url, repr(url)])} -c 'select 1'", [value], url
        if pick == 1:
            value = self.secret("plain")
            return f"psql \"host=db.internal password={value} dbname=prod\" -c '\\dt'", [value], value
        word, value = self.typed()
        return f"PGPASSWORD={word} psql -h db.internal -U app prod", [value], word

    def _git(self):
        rng = self.rng
        pick = rng.randrange(4)
        if pick == 0:
            value = self.secret("url")
            url = f"https://oauth2:{value}@gitlab.example.com/group/repo.git"
            return f"git clone {url}", [value], url
        if pick == 1:
            value = self.secret("url")
            url = f"https://x-access-token:{value}@github.com/org/repo"
            return f"git remote set-url origin {url}", [value], url
        if pick == 2:
            word, value = self.typed()
            return f"git config --global user.password {word}", [value], word
        word, value = self.typed("http.extraHeader=Authorization: Basic ", rng.choice(["single", "double"]))
        return f"git -c {word} fetch origin", [value], word

    def _ldap_mongo(self):
        if self.rng.random() < 0.5:
            word, value = self.typed()
            return f"ldapsearch -x -D cn=admin,dc=example,dc=com -w {word} -b dc=example,dc=com", [value], word
        if self.rng.random() < 0.5:
            word, value = self.typed()
            return f"mongosh --username app -p {word} mongodb://db/prod", [value], word
        word, value = self.typed("--password=")
        return f"mongodump --username app {word} --out dump/", [value], word

    def _generic_option(self):
        rng = self.rng
        program = rng.choice(["deploy", "./bin/release", "vault", "terraform", "gh", "stripe", "heroku", "fly",
                              "op", "kubectl", "uv", "poetry"])
        option = rng.choice(["--token", "--api-key", "--apikey", "--client-secret", "--password", "--passphrase",
                             "--auth-token", "--access-token", "--secret-key", "--secret", "--private-key",
                             "--db-password", "--registry-token", "--github-token"])
        if rng.random() < 0.4:
            word, value = self.typed(option + "=")
        else:
            typed, value = self.typed()
            word = f"{option} {typed}"
        return f"{program} {rng.choice(['', 'run ', 'publish ', 'login '])}{word} --verbose", [value], word

    def _assignment(self):
        rng = self.rng
        name = rng.choice(["AWS_SECRET_ACCESS_KEY", "GITHUB_TOKEN", "DB_PASSWORD", "MYSQL_PWD", "SSHPASS",
                           "REDISCLI_AUTH", "NPM_TOKEN", "OPENAI_API_KEY", "STRIPE_SECRET_KEY", "APP_SECRET",
                           "X_SECRET_Y", "VAULT_TOKEN", "API_KEY", "PGPASSWORD", "HF_TOKEN", "DOCKER_PASSWORD"])
        word, value = self.typed(name + "=")
        shape = rng.randrange(6)
        if shape == 0:
            return f"{word} aws s3 ls s3://bucket", [value], word
        if shape == 1:
            return f"export {word}", [value], word
        if shape == 2:
            return f"env {word} node scripts/migrate.js", [value], word
        if shape == 3:
            return f"docker run --rm -e {word} app:latest", [value], word
        if shape == 4:
            return f"heroku config:set {word} -a app", [value], word
        typed, value = self.typed("password=")
        return f"kubectl create secret generic db --from-literal={typed}", [value], typed

    def _setting(self):
        rng = self.rng
        pick = rng.randrange(5)
        if pick == 0:
            word, value = self.typed()
            return f"npm config set //registry.npmjs.org/:_authToken {word}", [value], word
        if pick == 1:
            word, value = self.typed("//npm.example.com/:_authToken=")
            return f"npm config set {word}", [value], word
        if pick == 2:
            value = self.secret("plain")
            return f"echo \"//registry.npmjs.org/:_authToken={value}\" >> ~/.npmrc", [value], value
        if pick == 3:
            word, value = self.typed()
            return f"aws configure set aws_secret_access_key {word}", [value], word
        word, value = self.typed()
        return f"gh secret set DEPLOY_KEY --body {word}", [value], word

    def _token_anywhere(self):
        rng = self.rng
        token, core = self.token()
        shape = rng.randrange(7)
        texts = [
            f"echo {token} | gh auth login --with-token",
            f"curl -H 'Authorization: token {token}' https://api.github.com/user",
            f"git push https://{token}@github.com/org/repo.git main",
            f"T={token} ./scripts/publish.sh",
            f"curl -d '{{\"key\": \"{token}\"}}' https://api.example.com",
            f"mytool -t {token} sync",
            f"python3 -c 'import os; os.environ[\"K\"] = \"{token}\"'",
        ]
        return texts[shape], [core], token

    def _others(self):
        rng = self.rng
        pick = rng.randrange(6)
        if pick == 0:
            word, value = self.typed()
            return f"ssh-keygen -t ed25519 -N {word} -f ~/.ssh/deploy", [value], word
        if pick == 1:
            value = self.secret("plain")
            return f"openssl pkcs12 -export -in c.pem -out c.p12 -passout pass:{value}", [value], value
        if pick == 2:
            word, value = self.typed()
            return f"keytool -importcert -keystore ks.jks -storepass {word} -file ca.crt", [value], word
        if pick == 3:
            word, value = self.typed()
            return f"mosquitto_pub -h broker -u iot -P {word} -t t -m on", [value], word
        if pick == 4:
            word, value = self.typed("admin%")
            return f"smbclient //nas/share -U {word} -c ls", [value], word
        auth, data = self.secret("plain"), self.secret("plain")
        return f"http --auth user:{auth} POST api.example.com token={data}", [auth, data], f"token={data}"

    def _operand(self):
        """A secret given as an operand, found from outside after issue 46 landed (and a URL whose user is
        empty: redis://:PASSWORD@host)."""
        rng = self.rng
        word, value = self.typed()
        texts = [
            f"htpasswd -b{rng.choice(['', 'c', 'B'])} .htpasswd alice {word}",
            f"htpasswd -nb alice {word}",
            f"vault login {word}",
            f"bw unlock {word} --raw",
            f"bw login ops@example.com {word}",
            f"rabbitmqctl add_user app {word}",
            f"rabbitmqctl change_password app {word}",
            f"wpa_passphrase HomeNet {word}",
            f"mysqladmin -u root password {word}",
            f"nmcli dev wifi connect HomeNet password {word}",
        ]
        if rng.random() < 0.15:
            value = self.secret("url")
            url = f"redis://:{value}@cache.internal:6379/0"
            return f"redis-cli -u {url} ping", [value], url
        return rng.choice(texts), [value], word

    # -- around a fragment ----------------------------------------------------

    def wrapped(self, text: str) -> str:
        """``text`` behind a wrapper or launcher, or inside a quoted command, or as it is."""
        rng = self.rng
        pick = rng.randrange(12)
        if pick < 4:
            return text
        if pick == 4:
            return f"sudo {text}"
        if pick == 5:
            return f"sudo -u app env TZ=UTC timeout 30 {text}"
        if pick == 6:
            return f"docker exec -i db {text}"
        if pick == 7:
            return f"kubectl exec -it pod/api-0 -- {text}"
        if "'" not in text and pick == 8:
            return f"ssh bastion '{text}'"
        if '"' not in text and "$" not in text and "\\" not in text and "`" not in text and pick == 9:
            return f'bash -c "{text}"'
        if pick == 10:
            return f"out=$({text})"
        return f"time nohup {text}"

    def call(self, failed: bool) -> Call:
        """One Bash call of one to three commands, with the error a failed one would get."""
        rng = self.rng
        parts, secrets, echoes = [], [], []
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            text, planted, echo = self.fragment()
            parts.append(self.wrapped(text))
            secrets += planted
            echoes.append((text, echo))
        joined = parts[0]
        for part in parts[1:]:
            joined += rng.choice([" && ", "; ", " | ", "\n", " || "]) + part
        joined = rng.choice(["", "cd /srv/app && ", "set -e; ", "echo start; "]) + joined + rng.choice(
            ["", " | tail -5", " 2>&1 | grep -v Warning", " > /tmp/out.log", "; echo $?"])
        return Call(joined, self.error(echoes) if failed else None, secrets)

    def error(self, echoes) -> str:
        """What a program prints back: the secret word, the whole command traced, a URL, or nothing of it."""
        rng = self.rng
        from dp.shell.shape import split_commands

        text, echo = rng.choice(echoes)
        unquoted = " ".join(word for words in split_commands(echo) for word in words)  # as the program got it
        program = text.split()[0].rsplit("/", 1)[-1]
        lines = [
            f"{program}: unknown option '{unquoted}'",
            f"+ {text}",
            f"{program}: invalid value for option: {unquoted}",
            "ERROR 1045 (28000): Access denied for user 'root'@'localhost' (using password: YES)",
            f"fatal: Authentication failed for '{unquoted}/'",
            f"error: {unquoted}",
            f"bash: line 1: {program}: command not found",
            "curl: (22) The requested URL returned error: 401",
        ]
        return f"Exit code {rng.choice([1, 2, 127])}\n" + "\n".join(rng.sample(lines, rng.randint(1, 3)))

    def tool_call(self) -> Call:
        """A non-Bash tool whose input holds secrets by key, in a URL and a header, and echoes one."""
        value, url_value, header_value = self.secret("single"), self.secret("url"), self.secret("plain")
        tool_input = {"url": f"https://svc:{url_value}@api.example.com/v1", "password": value,
                      "headers": {"Authorization": f"Bearer {header_value}"}, "query": "status"}
        return Call("", f"request failed for {value}: 401 ({header_value})", [value, url_value, header_value],
                    tool=self.rng.choice(["WebFetch", "mcp__api__request", "http_request"]), tool_input=tool_input)


def windows(secret: str, size: int = 8) -> list[str]:
    """The pieces of ``secret`` whose presence anywhere would mean it leaked: each run of ``size``
    characters that is mostly letters and digits (random enough to be found nowhere else)."""
    pieces = {secret[i : i + size] for i in range(max(1, len(secret) - size + 1))}
    return sorted(piece for piece in pieces if sum(c.isalnum() for c in piece) >= 5) or [secret[:size]]
