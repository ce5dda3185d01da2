"""The documentation's shell blocks run as written.

Every ```` ```sh ````, ```` ```bash ```` and ```` ```console ```` block of the README and of the pages
under ``docs/`` runs here, page by page and in page order, in one temporary working directory per
page (so the files an earlier block writes are there for a later one), each block under
``bash -e``. A block does not run when the line before it is the comment ``<!-- synopsis -->``: it
shows a command's shape, or a command that needs the network, apt, a person at the keyboard or a
long run (the page then says where each name in it comes from, and shows the small runnable variant
next to a long run). A code block preceded by ``<!-- file: NAME -->`` is written to ``NAME`` when
the page reaches it, as the page asks the reader to save it (docs/contributing.md, "About these
docs").

No program is found on ``PATH``: the words ``atomic-africa``, ``python``/``python3``, ``cc``,
``cmake`` and ``taskset`` are shell functions running ``sys.executable -m atomic_africa.cli``,
``sys.executable``, the system compilers and ``/usr/bin/cmake``; ``pip`` fails (it would need the
network: a block that installs is a synopsis). In a ```` ```console ```` block the commands are the
lines starting with ``$ `` (and their ``\\`` continuations); the other lines are their output.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
SHELLS = ("sh", "bash", "console")
SYNOPSIS = "<!-- synopsis -->"
FILE = re.compile(r"<!-- file: (\S+) -->")

#: Pages whose blocks run from a checkout's root: the paths of the repository they use, copied into
#: the working directory before the first block.
CHECKOUT = {
    "guide/c_api.md": ["src/aa_core/csrc", "src/aa_core/include", "src/aa_core/Makefile",
                       "src/aa_core/CMakeLists.txt", "src/aa_core/sources.txt", "src/aa_core/atomic_africa.pc.in",
                       "src/aa_core/atomic_africaConfig.cmake.in", "src/aa_core/wasm.mk", "examples/rust"],
    "guide/league.md": ["examples/league_policy.py"],
    "guide/rl.md": ["examples/train_selfplay.py", "examples/selfplay_policy.py", "examples/alphazero.py"],
}

#: Pages whose blocks take more than a couple of seconds (C builds, thousands of games, a training, many
#: commands: guide/play.md runs seven, 14 s; quickstart.md and guide/spec_files.md 3-4 s).
SLOW_PAGES = {"README.md", "quickstart.md", "guide/c_api.md", "guide/league.md", "guide/play.md", "guide/rl.md",
              "guide/learned_search.md", "guide/spec_files.md"}

C_COMPILER = next((c for c in ("/usr/bin/gcc", "/usr/bin/clang", "/usr/bin/cc") if os.access(c, os.X_OK)), None)


def _text(page: str) -> str:
    return (ROOT / page if page == "README.md" else DOCS / page).read_text(encoding="utf-8")


def blocks(page: str) -> list[tuple[str, str, int, str]]:
    """The page's fenced blocks that matter here, in order: ``(kind, language, line, body)`` with kind
    ``"run"``, ``"synopsis"`` or ``"file:NAME"``; other blocks are left out."""
    lines = _text(page).split("\n")
    out, i = [], 0
    while i < len(lines):
        m = re.match(r"^(`{3,}|~{3,})\s*([\w{}-]*)", lines[i])
        if not m:
            i += 1
            continue
        fence, lang = m.groups()
        end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith(fence))
        prev = next((lines[j].strip() for j in range(i - 1, -1, -1) if lines[j].strip()), "")
        body = "\n".join(lines[i + 1:end])
        if FILE.fullmatch(prev):
            out.append((f"file:{FILE.fullmatch(prev).group(1)}", lang, i + 1, body))
        elif lang in SHELLS:
            out.append(("synopsis" if prev == SYNOPSIS else "run", lang, i + 1, body))
        i = end + 1
    return out


def commands(lang: str, body: str) -> str:
    """The script a block stands for: a console block's ``$`` lines (with continuations), or the
    whole block."""
    if lang != "console":
        return body
    out, going_on = [], False
    for line in body.split("\n"):
        if going_on or line.startswith("$ "):
            out.append(line if going_on else line[2:])
            going_on = line.rstrip().endswith("\\")
    return "\n".join(out)


PRELUDE = """\
set -e -o pipefail
atomic-africa() { "$AA_PYTHON" -m atomic_africa.cli "$@"; }
python() { "$AA_PYTHON" "$@"; }
python3() { "$AA_PYTHON" "$@"; }
cc() { "$AA_CC" "$@"; }
cmake() { /usr/bin/cmake "$@"; }
taskset() { shift 2; "$@"; }
pip() { echo "docs test: pip is not run (a block that installs is a synopsis)" >&2; return 1; }
"""


def _pages() -> list[str]:
    pages = ["README.md"] + sorted(str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md")
                                   if "_build" not in p.parts and "generated" not in p.parts)
    return [p for p in pages if any(kind == "run" for kind, *_ in blocks(p))]


def run_page(page: str, cwd: Path) -> None:
    for rel in CHECKOUT.get(page, []):
        src, dst = ROOT / rel, cwd / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(src, dst) if src.is_dir() else shutil.copy(src, dst)
    env = dict(os.environ, AA_PYTHON=sys.executable, AA_CC=C_COMPILER or "false", MPLBACKEND="Agg")
    for kind, lang, line, body in blocks(page):
        if kind.startswith("file:"):
            (cwd / kind[5:]).write_text(body + "\n", encoding="utf-8")
        elif kind == "run":
            proc = subprocess.run(["/bin/bash", "-c", PRELUDE + commands(lang, body)], cwd=cwd, env=env,
                                  capture_output=True, text=True, timeout=900, stdin=subprocess.DEVNULL)
            assert proc.returncode == 0, (f"{page}:{line}: exit status {proc.returncode}\n{commands(lang, body)}\n"
                                          f"--- stderr\n{proc.stderr[-4000:]}\n--- stdout\n{proc.stdout[-2000:]}")


@pytest.mark.parametrize("page", [pytest.param(p, marks=pytest.mark.slow) if p in SLOW_PAGES else p
                                  for p in _pages()])
def test_the_shell_blocks_run_as_written(page, tmp_path):
    run_page(page, tmp_path)


def test_every_shell_block_runs_or_is_a_synopsis():
    """The blocks are recognised (a fence with another language is not taken for a shell block), and
    the convention is the one docs/contributing.md documents."""
    kinds = [kind for p in ["README.md"] + [str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md")]
             for kind, *_ in blocks(p)]
    assert kinds.count("run") >= 9 and kinds.count("synopsis") >= 1
    contributing = _text("contributing.md")
    assert SYNOPSIS in contributing and "<!-- file: NAME -->" in contributing


def test_a_console_block_runs_its_dollar_lines_only():
    body = "$ atomic-africa odds \\\n    --exact\nsome output\n$ ls"
    assert commands("console", body) == "atomic-africa odds \\\n    --exact\nls"


@pytest.mark.slow
def test_the_play_synopsis_commands_each_start_in_turn(tmp_path):
    """guide/play.md's first block is a synopsis (each command waits for a person), but each of its
    commands starts in turn in one directory: none is refused because an earlier one's save file
    exists. A browser game runs with --no-browser until it prints its address; the text game ends
    at once on its closed input (and saves)."""
    (kind, lang, line, body), = [b for b in blocks("guide/play.md") if b[0] == "synopsis"]
    lines = commands(lang, body).split("\n")
    assert len(lines) == 6 and all(c.startswith("atomic-africa play") for c in lines)
    for i, command in enumerate(lines):
        args = shlex.split(command, comments=True)[2:]
        args += [] if "--text" in args else ["--no-browser"]
        out, err = tmp_path / f"out{i}.log", tmp_path / f"err{i}.log"
        with out.open("w") as o, err.open("w") as e:
            proc = subprocess.Popen([sys.executable, "-u", "-m", "atomic_africa.cli", "play", *args], cwd=tmp_path,
                                    stdin=subprocess.DEVNULL, stdout=o, stderr=e)
        try:
            deadline = time.monotonic() + 60
            while proc.poll() is None and "http://127.0.0.1:" not in out.read_text() and time.monotonic() < deadline:
                time.sleep(0.1)
            status = proc.poll()
        finally:
            proc.kill()
            proc.wait()
        # the text game ends on its closed input (status 0); a browser game is still serving its page
        assert status == 0 if "--text" in args else status is None and "http://127.0.0.1:" in out.read_text(), \
            (command, status, out.read_text()[-1000:], err.read_text()[-2000:])
    assert {p.name for p in tmp_path.glob("*.json")} >= {"meeting.json", "text.json"}
