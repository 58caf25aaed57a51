"""The stamp of kept help pages and parses: it changes whenever the code that made them does."""

from __future__ import annotations

import os

from dp.cli import code_stamp


def test_every_python_file_below_a_folder_counts_and_nothing_else(tmp_path):
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "__pycache__").mkdir()
    module = tmp_path / "pkg" / "sub" / "m.py"
    module.write_text("x = 1\n")
    (tmp_path / "pkg" / "__pycache__" / "m.cpython-311.pyc").write_bytes(b"\0")
    (tmp_path / "pkg" / "notes.txt").write_text("not code")
    before = code_stamp._file_stamps(str(tmp_path / "pkg"))
    assert before == [f"{module} 6 {module.stat().st_mtime_ns}"]
    module.write_text("x = 22\n")
    assert code_stamp._file_stamps(str(tmp_path / "pkg")) != before
    stat = module.stat()
    os.utime(module, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert code_stamp._file_stamps(str(tmp_path / "pkg"))[0].endswith(str(stat.st_mtime_ns + 1_000_000))


def test_the_stamp_names_dp_typer_python_and_the_extra_words():
    import sys

    import dp

    stamp = code_stamp.code_stamp("argv ['aliases']")
    lines = stamp.splitlines()
    assert lines[0] == dp.__version__ and sys.version in stamp
    assert "argv ['aliases']" in lines
    assert any(line.startswith(os.path.dirname(dp.__file__)) for line in lines)
    assert any(f"{os.sep}typer{os.sep}" in line for line in lines)
    assert code_stamp.code_stamp("argv ['tasks']") != stamp
