"""Atomic outputs: a file is replaced whole or not at all, and nothing is left behind."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from mhp_cards.fileio import atomic_output, write_bytes_atomic, write_text_atomic


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
