"""Redaction before storage: secrets, file contents and size."""

from __future__ import annotations

import json

import pytest

from dp.capture.redact import MAX_INPUT_BYTES, clean_error, clean_input, redact_text

SECRETS = [
    ("git push https://ghp_abcdefghijklmnopqrstuvwxyz012345@github.com/x", "ghp_abcdefghijklmnopqrstuvwxyz012345"),
    ("export GH=github_pat_11ABCDEFG0123456789_abcdefghijklmnop", "github_pat_11ABCDEFG0123456789_abcdefghijklmnop"),
    ("OPENAI_API_KEY=sk-proj-abcdefghijklmnop1234 python x.py", "sk-proj-abcdefghijklmnop1234"),
    ("curl -H 'x-api-key: sk-ant-api03-abcdefghijklmnopqrstu' api", "sk-ant-api03-abcdefghijklmnopqrstu"),
    ("aws configure set aws_access_key_id AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"),
    ("slack --token=xoxb-1234-5678-abcdefgh post", "xoxb-1234-5678-abcdefgh"),
    ("curl -H 'Authorization: Basic dXNlcjpwYXNz' https://x", "dXNlcjpwYXNz"),
    ('curl -H "authorization: token abc123def" https://x', "abc123def"),
    ("mysql -u root --password hunter2 db", "hunter2"),
    ("mysql -u root --password=hunter2 db", "hunter2"),
    ("gh auth login --token s3cr3tvalue", "s3cr3tvalue"),
    ("DB_PASSWORD=hunter2 ./run", "hunter2"),
    ("psql 'host=x password=hunter2 user=me'", "hunter2"),
    ("git clone https://me:hunter2@example.com/r.git", "hunter2"),
    ("echo '-----BEGIN RSA PRIVATE KEY-----\nMIIEabc\ndef\n-----END RSA PRIVATE KEY-----' > k", "MIIEabc"),
    ("cat <<EOF\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk", "b3BlbnNzaC1rZXk"),
]


@pytest.mark.parametrize("text, secret", SECRETS)
def test_secrets_are_redacted(text, secret):
    redacted = redact_text(text)
    assert secret not in redacted
    assert "[redacted]" in redacted


def test_text_without_secrets_is_unchanged():
    text = "git commit -m 'fix the token parser' && ls -la ~/project | grep -n passes"
    assert redact_text(text) == text


def test_the_option_name_stays_so_the_shape_is_kept():
    assert redact_text("mysql --password hunter2 -u root") == "mysql --password [redacted] -u root"


def test_secret_named_keys_are_dropped_whole():
    cleaned = clean_input({"url": "https://x", "api_key": "abc", "headers": {"Authorization": "Bearer zzz"}})
    assert cleaned == {"url": "https://x", "api_key": "[redacted]", "headers": {"Authorization": "[redacted]"}}


@pytest.mark.parametrize(
    "tool_input",
    [
        {"file_path": "/a.py", "content": "SECRET BODY"},
        {"file_path": "/a.py", "old_string": "SECRET BODY", "new_string": "other"},
        {"file_path": "/a.py", "edits": [{"old_string": "SECRET BODY", "new_string": "x"}]},
        {"notebook_path": "/a.ipynb", "new_source": "SECRET BODY"},
    ],
)
def test_write_and_edit_contents_are_never_stored(tool_input):
    cleaned = clean_input(tool_input)
    assert "SECRET BODY" not in json.dumps(cleaned)
    assert cleaned.get("file_path", cleaned.get("notebook_path"))


def test_inputs_over_4kb_are_truncated_and_say_so():
    cleaned = clean_input({"command": "echo " + "x" * 20_000, "description": "d"})
    assert len(json.dumps(cleaned, ensure_ascii=False).encode()) <= MAX_INPUT_BYTES
    assert cleaned["command"].startswith("echo xxx") and "[truncated" in cleaned["command"]
    assert cleaned["description"] == "d"


def test_a_secret_is_redacted_before_truncation_could_split_it():
    cleaned = clean_input({"command": "x" * 5000 + " --token s3cr3tvalue"})
    assert "s3cr3t" not in json.dumps(cleaned)


def test_many_small_values_still_fit():
    cleaned = clean_input({f"k{i}": "v" * 50 for i in range(200)})
    assert len(json.dumps(cleaned).encode()) <= MAX_INPUT_BYTES


def test_errors_are_redacted_and_bounded():
    assert "hunter2" not in clean_error("fatal: password=hunter2 rejected")
    assert len(clean_error("e" * 10_000)) < 4200
    assert clean_error(None) is None


def test_compiling_only_the_triggered_patterns_redacts_what_all_patterns_would():
    """Each pattern is compiled only when its trigger words occur; the result is the same as running them all."""
    import random
    import re

    from dp.capture import redact

    fragments = ["ghp_" + "a" * 20, "sk-" + "b" * 20, "AKIAABCDEFGHIJKLMNOP", "xoxb-123-abc", "Authorization: x y",
                 "Bearer abcdefghij", "--token=s3cr3t", "--password 'p w'", "api_key=\"k\"", "https://u:p@h/x",
                 "-----BEGIN RSA PRIVATE KEY-----\nMII\n-----END RSA PRIVATE KEY-----", "plain", "token", " ", "\n",
                 "SK-", "Password:", "secret"]
    rng = random.Random(5)
    for _ in range(2000):
        text = "".join(rng.choice(fragments) for _ in range(rng.randint(0, 6)))
        expected = text
        for _, pattern, flags in redact._SECRETS:
            expected = re.sub(pattern, lambda match: redact._replaced(match, None), expected, flags=flags)
        assert redact.redact_text(text) == expected, text


@pytest.mark.parametrize(
    "command, kept",
    [
        ("mysql -uroot -pHunter2Secret prod", "mysql -uroot -p[redacted] prod"),
        ("sshpass -p 'Hunter 2' ssh h", "sshpass -p [redacted] ssh h"),
        ("bash -c \"mysql -uroot -p'Hunter2Secret' -e 'select 1'\"",
         "bash -c \"mysql -uroot -p'[redacted]' -e 'select 1'\""),
        ("ssh db 'redis-cli -a Hunter2Secret ping'", "ssh db 'redis-cli -a [redacted] ping'"),
        ("AWS_SECRET_ACCESS_KEY=\"Hunter 2 Secret\" aws s3 ls", "AWS_SECRET_ACCESS_KEY=[redacted] aws s3 ls"),
        ("unzip $'-PHunter2Secret' a.zip", "unzip -P[redacted] a.zip"),
        ("mysql -p\"$DB_PASSWORD\" prod", "mysql -p\"$DB_PASSWORD\" prod"),  # a variable's name stays
    ],
)
def test_a_command_keeps_what_names_each_secret_and_loses_the_secret(command, kept):
    assert clean_input({"command": command})["command"] == kept


def test_an_error_repeating_a_secret_of_its_call_loses_it_too():
    found: set = set()
    clean_input({"command": "curl -u admin:Hunter2Secret https://x"}, found)
    assert clean_error("curl: bad credentials Hunter2Secret for admin", found) == \
        "curl: bad credentials [redacted] for admin"


def test_an_argument_list_is_read_as_a_commands_words():
    cleaned = clean_input({"argv": ["mysql", "-uroot", "-pHunter2Secret", "prod"]})
    assert cleaned == {"argv": ["mysql", "-uroot", "-p[redacted]", "prod"]}
