"""Bounded reads of input files; atomic outputs, replaced whole or not at all, no leftovers."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from mhp_cards.errors import InputFileError, MhpError, OutputFileError
from mhp_cards.fileio import (
    MAX_DEPTH,
    MAX_FILE_BYTES,
    MAX_ITEMS,
    atomic_output,
    json_limit_issue,
    read_bytes_limited,
    read_text_limited,
    write_bytes_atomic,
    write_files_atomic,
    write_text_atomic,
)
from mhp_cards.issues import Issue


def _leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(".tmp"))


def test_a_new_file_is_written_with_its_parents(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "kit.pdf"
    write_bytes_atomic(target, b"%PDF-1.4")
    assert target.read_bytes() == b"%PDF-1.4"
    assert _leftovers(target.parent) == []


def test_text_is_utf8_with_newlines_as_given(tmp_path: Path) -> None:
    target = tmp_path / "state.json"
    write_text_atomic(target, "Склад\r\n")
    assert target.read_bytes() == "Склад\r\n".encode()


def test_a_failure_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "kit.pdf"
    target.write_bytes(b"old")

    def half_a_build() -> None:
        with atomic_output(target) as stream:
            stream.write(b"half of the new")
            raise RuntimeError("the build failed half-way")

    with pytest.raises(RuntimeError):
        half_a_build()
    assert target.read_bytes() == b"old"
    assert _leftovers(tmp_path) == []


def test_an_interrupt_is_handled_like_a_failure(tmp_path: Path) -> None:
    target = tmp_path / "kit.pdf"

    def interrupted() -> None:
        with atomic_output(target) as stream:
            stream.write(b"x")
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        interrupted()
    assert not target.exists()
    assert _leftovers(tmp_path) == []


def test_the_new_file_gets_the_umask_permissions(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        write_bytes_atomic(tmp_path / "out.bin", b"1")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "out.bin").stat().st_mode) == 0o640


def test_the_old_file_is_replaced_not_appended(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    write_text_atomic(target, "a long first version\n")
    write_text_atomic(target, "short\n")
    assert target.read_text(encoding="utf-8") == "short\n"


# Bounded reading --------------------------------------------------------------------------------


def _refusal(path: Path, **kwargs: object) -> Issue:
    with pytest.raises(InputFileError) as caught:
        read_text_limited(path, **kwargs)  # type: ignore[arg-type]
    return caught.value.issue


def test_a_missing_file_is_refused_by_name(tmp_path: Path) -> None:
    issue = _refusal(tmp_path / "game.json", file="game.json", what="state file")
    assert issue.file == "game.json"
    assert issue.message == f"no state file {tmp_path / 'game.json'}"


def test_a_directory_is_refused(tmp_path: Path) -> None:
    assert "is a directory, not a file" in _refusal(tmp_path).message


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_device_is_refused_without_reading_it(device: str) -> None:
    if not Path(device).exists():
        pytest.skip(f"no {device} here")
    assert "is not a regular file" in _refusal(Path(device)).message


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "state.json"
    os.mkfifo(fifo)
    assert "is not a regular file" in _refusal(fifo).message


def test_a_file_past_the_limit_is_refused_where_the_limit_is_reached(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_bytes(b"ab\n" * 10 + b"xyz" * 10)  # 60 bytes
    issue = _refusal(path, limit=37)
    assert issue.check == "limits"
    assert (issue.line, issue.column) == (11, 8)  # byte 38 is line 11, column 8
    assert "limit of 37 bytes" in issue.message
    assert "60 bytes" in issue.message


def test_at_most_the_limit_and_one_byte_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "huge.yaml"
    with path.open("wb") as stream:
        stream.truncate(50 * 1024 * 1024)  # a sparse 50 MB file
    asked: list[int] = []
    real_read = os.read

    def counting_read(descriptor: int, size: int) -> bytes:
        asked.append(size)
        return real_read(descriptor, size)

    monkeypatch.setattr(os, "read", counting_read)
    issue = _refusal(path)
    assert issue.check == "limits"
    assert sum(asked) == MAX_FILE_BYTES + 1


def test_exactly_the_limit_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "edge.yaml"
    path.write_bytes("Склад\n".encode())  # 11 bytes
    assert read_text_limited(path, limit=11) == "Склад\n"
    assert _refusal(path, limit=10).check == "limits"


def test_text_that_is_not_utf8_is_located_at_the_first_bad_byte(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes("name:\n  ru: Вода\n  fr: é\n".encode()[:-2] + "é\n".encode("latin-1"))
    issue = _refusal(path, file="latin1.yaml")
    assert (issue.file, issue.line, issue.column) == ("latin1.yaml", 3, 7)
    assert "not UTF-8" in issue.message


def test_read_bytes_returns_the_file(tmp_path: Path) -> None:
    path = tmp_path / "a.bin"
    path.write_bytes(bytes(range(256)) * 300)
    assert read_bytes_limited(path) == bytes(range(256)) * 300


@pytest.mark.parametrize(
    ("text", "limit", "where"),
    [
        ("[" * 20_000, "MAX_DEPTH", (1, MAX_DEPTH + 1)),
        ('{"a": [\n  ' + "[" * 40 + "]" * 40 + "]}", "MAX_DEPTH", (2, MAX_DEPTH + 1)),
        ("[" + "0," * MAX_ITEMS + "0]", "MAX_ITEMS", (1, 2 * MAX_ITEMS + 1)),
    ],
)
def test_json_past_a_limit_is_located(text: str, limit: str, where: tuple[int, int]) -> None:
    issue = json_limit_issue(text, "game.json")
    assert issue is not None
    assert limit in issue.message
    assert (issue.line, issue.column) == where


def test_brackets_and_commas_inside_json_strings_do_not_count() -> None:
    text = '{"a": "' + "[" * 100 + "," * 5000 + '\\"[", "b": [1, 2]}'
    assert json_limit_issue(text, "game.json") is None


# Directory flush and sets of files --------------------------------------------------------------


def test_the_directory_is_flushed_after_the_rename(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    flushed: list[bool] = []
    real_fsync = os.fsync

    def recording_fsync(descriptor: int) -> None:
        flushed.append(stat.S_ISDIR(os.fstat(descriptor).st_mode))
        real_fsync(descriptor)

    monkeypatch.setattr(os, "fsync", recording_fsync)
    write_bytes_atomic(tmp_path / "kit.pdf", b"%PDF")
    assert flushed == [False, True]  # the file, then its directory


def _snapshot(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


def test_a_set_of_files_is_replaced_together(tmp_path: Path) -> None:
    (tmp_path / "a.pdf").write_bytes(b"old a")
    write_files_atomic({tmp_path / "a.pdf": b"new a", tmp_path / "b.pdf": b"new b"})
    assert _snapshot(tmp_path) == {"a.pdf": b"new a", "b.pdf": b"new b"}


def test_a_failed_write_in_a_set_changes_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("a.pdf", "b.pdf"):
        (tmp_path / name).write_bytes(f"old {name}".encode())
    before = _snapshot(tmp_path)
    calls: list[int] = []
    real_fsync = os.fsync

    def failing_fsync(descriptor: int) -> None:
        calls.append(descriptor)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        real_fsync(descriptor)

    monkeypatch.setattr(os, "fsync", failing_fsync)
    files = {tmp_path / "a.pdf": b"new a", tmp_path / "b.pdf": b"new b", tmp_path / "c.pdf": b"c"}
    with pytest.raises(OutputFileError, match="No space left"):
        write_files_atomic(files)
    assert _snapshot(tmp_path) == before


def test_a_failed_rename_in_a_set_puts_back_the_files_already_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("a.pdf", "b.pdf"):
        (tmp_path / name).write_bytes(f"old {name}".encode())
    before = _snapshot(tmp_path)
    calls: list[str] = []
    real_replace = os.replace

    def failing_replace(source: str, target: str) -> None:
        calls.append(str(target))
        if len(calls) == 3:
            raise OSError(5, "Input/output error")
        real_replace(source, target)

    monkeypatch.setattr(os, "replace", failing_replace)
    files = {tmp_path / "a.pdf": b"new a", tmp_path / "new.pdf": b"n", tmp_path / "b.pdf": b"b"}
    with pytest.raises(OutputFileError, match="Input/output error"):
        write_files_atomic(files)
    assert _snapshot(tmp_path) == before  # a.pdf back to its old bytes, new.pdf gone


def test_a_directory_in_the_way_is_refused_before_any_file_changes(tmp_path: Path) -> None:
    (tmp_path / "a.pdf").write_bytes(b"old a")
    (tmp_path / "b.pdf").mkdir()
    with pytest.raises(OutputFileError, match="a directory is in the way"):
        write_files_atomic({tmp_path / "a.pdf": b"new a", tmp_path / "b.pdf": b"new b"})
    assert (tmp_path / "a.pdf").read_bytes() == b"old a"
    assert _leftovers(tmp_path) == []


def test_an_output_that_cannot_be_written_is_an_mhp_error(tmp_path: Path) -> None:
    (tmp_path / "blocker").write_bytes(b"a file where a directory is expected")
    with pytest.raises(OutputFileError) as caught:
        write_text_atomic(tmp_path / "blocker" / "game.json", "{}")
    assert isinstance(caught.value, MhpError)
    assert str(tmp_path / "blocker" / "game.json") in str(caught.value)
    (tmp_path / "folder").mkdir()
    with pytest.raises(OutputFileError):
        write_text_atomic(tmp_path / "folder", "{}")
    assert _leftovers(tmp_path) == []


def test_an_unreadable_file_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "secret.yaml"
    path.write_text("a: 1\n", encoding="utf-8")

    def denied(*args: object) -> int:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "open", denied)  # chmod 000 does not stop root, who runs CI here
    assert "permission denied" in _refusal(path).message
