"""``mhp build --watch`` as a designer runs it: a real process, real file edits, real events."""

from __future__ import annotations

import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "terra-former"
#: Generous: a loaded CI machine; the rebuild itself reports its own seconds.
WAIT = 60.0


class _Lines:
    """The process's output, line by line, read on a thread so that waiting can time out."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        assert process.stdout is not None
        self.closed = threading.Event()
        threading.Thread(target=self._read, args=(process.stdout,), daemon=True).start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            self.lines.put(line)
        self.closed.set()

    def until(self, text: str) -> str:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.5)
            except queue.Empty:
                continue
            self.seen.append(line.rstrip("\n"))
            if text in line:
                return line
        raise AssertionError(f"no line with {text!r}; saw:\n" + "\n".join(self.seen))


def test_watch_rebuilds_a_saved_deck_and_keeps_the_pdfs_of_a_broken_one(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    shutil.copytree(EXAMPLE, pack)
    out = tmp_path / "out"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "mhp_cards",
            "build",
            "--watch",
            "--catalog",
            str(pack),
            "--out",
            str(out),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    lines = _Lines(process)
    try:
        lines.until("rebuilt nature, organisms, changes in")
        lines.until("watching")
        organisms = (out / "mhp-organisms.pdf").read_bytes()
        nature = (out / "mhp-nature.pdf").read_bytes()
        path = pack / "decks.yaml"
        text = path.read_text(encoding="utf-8")
        path.write_text(
            text.replace("{ru: Волк, en: Wolf}", "{ru: Серый волк, en: Grey wolf}"), "utf-8"
        )
        lines.until("changed: decks.yaml")
        lines.until("rebuilt organisms in")
        lines.until("rebuilt the combined kit in")
        assert (out / "mhp-organisms.pdf").read_bytes() != organisms
        assert (out / "mhp-nature.pdf").read_bytes() == nature
        # A broken row: located, and the PDFs stay as they were.
        organisms = (out / "mhp-organisms.pdf").read_bytes()
        path.write_text(text.replace("role: П2, needs: Лс", "role: П7, needs: Лс", 1), "utf-8")
        lines.until("the catalog has errors; the last good PDFs are kept:")
        located = lines.until("role is 'П7'")
        assert f"{path}:" in located
        assert (out / "mhp-organisms.pdf").read_bytes() == organisms
    finally:
        process.send_signal(signal.SIGINT)
        code = process.wait(timeout=WAIT)
        lines.closed.wait(timeout=WAIT)
        assert process.stdout is not None
        process.stdout.close()
    assert code == 0


def test_watch_takes_no_partial_build(cli) -> None:
    result = cli("build", "--watch", "--only", "raw")
    assert result.exit_code == 2
    assert "--watch rebuilds the whole kit" in result.stderr
