"""Which words of a command hold a secret (dp.shell.secrets), and what a shape keeps of them."""

from __future__ import annotations

import pytest

from dp.desires.hints import shape_hints
from dp.shell.secrets import secret_name, secret_parts
from dp.shell.shape import Shape, option_name, shapes, split_commands, split_words


def parts(command: str) -> dict[str, str]:
    """``{word: its secret}`` for the first simple command of ``command``."""
    [words] = split_commands(command)
    return {words[index]: words[index][at:] for index, at in secret_parts(words).items()}


@pytest.mark.parametrize(
    "command, expected",
    [
        ("mysql -uroot -pHunter2 prod", {"-pHunter2": "Hunter2"}),
        ("mariadb --password=Hunter2 prod", {"--password=Hunter2": "Hunter2"}),
        ("mysql -u root -p prod", {"prod": "prod"}),  # -p prompts: the word after it may be typed as the password
        ("mysql -pass", {"-pass": "ass"}),  # glued: mysql's -p, not a --pass option
        ("sshpass -p -Hunter2 ssh h", {"-Hunter2": "-Hunter2"}),  # a required value, whatever it looks like
        ("redis-cli -h c -a Hunter2 ping", {"Hunter2": "Hunter2"}),
        ("docker login -u bot -p Hunter2 r", {"Hunter2": "Hunter2"}),
        ("docker login -p=Hunter2 r", {"-p=Hunter2": "Hunter2"}),
        ("curl -su admin:Hunter2 https://x", {"admin:Hunter2": "admin:Hunter2"}),
        ("zip -rP Hunter2 out.zip dir", {"Hunter2": "Hunter2"}),
        ("sqlcmd -S db -P Hunter2", {"Hunter2": "Hunter2"}),
        ("docker exec -i db mysql -uroot -pHunter2", {"-pHunter2": "Hunter2"}),
        ("AWS_SECRET_ACCESS_KEY=Hunter2 aws s3 ls", {"AWS_SECRET_ACCESS_KEY=Hunter2": "Hunter2"}),
        ("npm config set //registry.npmjs.org/:_authToken Hunter2", {"Hunter2": "Hunter2"}),
        ("npm config set //r.example.com/:_authToken=Hunter2", {"//r.example.com/:_authToken=Hunter2": "Hunter2"}),
        ("git config --global user.password Hunter2", {"Hunter2": "Hunter2"}),
        ("gh secret set API_TOKEN --body Hunter2", {"Hunter2": "Hunter2"}),
        ("kubectl --token Hunter2 get pods", {"Hunter2": "Hunter2"}),
        ("tool --api-key=Hunter2 --client-secret Hunter3", {"--api-key=Hunter2": "Hunter2", "Hunter3": "Hunter3"}),
        ("keytool -storepass Hunter2 -list", {"Hunter2": "Hunter2"}),
        ("openssl pkcs12 -passout pass:Hunter2", {"pass:Hunter2": "pass:Hunter2"}),
        ("java -Djavax.net.ssl.keyStorePassword=Hunter2 -jar a.jar", {"-Djavax.net.ssl.keyStorePassword=Hunter2": "Hunter2"}),
        ("curl -H 'X-Api-Key: Hunter2' https://x", {"X-Api-Key: Hunter2": "Hunter2"}),
        ("curl -H 'Authorization: Bearer Hunter2' https://x", {"Authorization: Bearer Hunter2": "Bearer Hunter2"}),
        ("mysql -p\"$DB_PASSWORD\" prod", {}),  # a variable's name is no secret
        ("docker login --password-stdin -u bot r", {}),
        ("docker run -p 8080:80 img", {}),  # docker's -p is a password only after `login`
        ("ls -la /tmp", {}),
        ("git commit -m 'fix the token parser'", {}),
        ("bash -c \"mysql -pHunter2\"", {}),  # a quoted command is read on its own (dp.capture.redact)
    ],
)
def test_secret_parts(command, expected):
    assert parts(command) == expected


@pytest.mark.parametrize("name", ["password", "DB_PASSWORD", "AWS_SECRET_ACCESS_KEY", "_authToken", "api-key",
                                  "apiKey", "SSHPASS", "MYSQL_PWD", "REDISCLI_AUTH", "storepass", "passin", "pw",
                                  "client_secret", "keyStorePassword", "otp", "key"])
def test_names_that_say_secret(name):
    assert secret_name(name)


@pytest.mark.parametrize("name", ["PWD", "OLDPWD", "author", "user", "verbose", "monkey", "path"])
def test_names_that_do_not(name):
    assert not secret_name(name)


def test_split_words_reports_each_words_place_as_typed():
    text = "mysql -p'a b' $'-Px' \"c\\\"d\" e\\ f"
    [words] = split_words(text)
    assert [(value, text[start:end]) for value, start, end in words] == [
        ("mysql", "mysql"), ("-pa b", "-p'a b'"), ("-Px", "$'-Px'"), ('c"d', '"c\\"d"'), ("e f", "e\\ f")]


@pytest.mark.parametrize(
    "command, expected",
    [
        ("mysql -uroot -pHunter2 prod", Shape("mysql", "", ("-uroot", "-p"))),
        ("sshpass -p -Hunter2 ssh h", Shape("sshpass", "", ("-p",))),
        ("kubectl --token Hunter2 get pods", Shape("kubectl", "get", ("--token",))),  # never a subcommand
        ("docker login -p=Hunter2 r", Shape("docker", "login", ("-p",))),
        ("tool --token=Hunter2", Shape("tool", "", ("--token",))),
        ("grep -rP x src", Shape("grep", "", ("-rP",))),  # a cluster stays whole locally: dp.learn reads -rP → -rE
    ],
)
def test_a_shape_keeps_an_options_name_never_its_secret(command, expected):
    assert shapes(command) == [expected]


@pytest.mark.parametrize(
    "program, flag, name",
    [
        ("mytool", "-pHunter2", "-p"),  # a glued value the table does not know: the first letter only
        ("grep", "-rP", "-r"),
        ("ls", "-la", "-l"),
        ("mysql", "-uroot", "-u"),
        ("grep", "-P", "-P"),
        ("rg", "--max-count", "--max-count"),
        ("find", "-name", "-name"),  # a program whose options are single-dash words
        ("java", "-jar", "-jar"),
        ("x", "-x'y", ""),
        ("x", "--a=b", "--a"),
    ],
)
def test_option_name_is_what_leaves_the_machine(program, flag, name):
    assert option_name(program, flag) == name


@pytest.mark.parametrize(
    "error, command, subcommand, flags, expected",
    [
        ("mysql: unknown option '-pHunter2Secret'", "mysql", "", ["-u", "-p"], ["unknown option: -p"]),
        ("grep: invalid option -- 'P'", "grep", "", ["-r"], ["unknown option: -P"]),
        ("git: 'comit' is not a git command.\n\nThe most similar command is\n\tcommit\n", "git", "comit", ["-m"],
         ["The most similar command is commit"]),
        ("Did you mean this?\n    Hunter2Secret", "npm", "isntall", [], []),  # not a correction of the subcommand
        ("error: did you mean --force-with-lease", "git", "push", ["--force", "-v"],
         ["did you mean --force-with-lease"]),
        ("unknown option: --Hunter2Secret=x y", "tool", "", [], []),  # not one of the shape's options
        ("error: Hunter2Secret is wrong", "tool", "", [], []),
    ],
)
def test_hints_are_fixed_phrases_around_names(error, command, subcommand, flags, expected):
    assert shape_hints(error, command, subcommand, flags) == expected
