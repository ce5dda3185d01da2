"""``atomic-africa play --text``: the same game in a terminal.

The battle log scrolls by; at each decision the question is printed with the numbered legal
choices (their descriptions, and the exact odds of every fire choice), and a number picks one.
``u`` shows both sides' units, ``d N`` the odds of choice N in detail, ``h`` the commands, ``q`` (or
end of input, or Ctrl-C) saves the game and stops. The game is saved after every decision, as in
the browser.
"""
from __future__ import annotations

import os
import sys

from .._atomic_write import replaced_atomically
from .._text import printable
from .session import PlayError

__all__ = ["play_text", "HELP"]

HELP = ("Type the number of a choice and press Enter.  u: both sides' units;  d N: the odds of choice N "
        "in detail;  l: the whole battle log;  h: this help;  q: save and stop (end of input and Ctrl-C "
        "save too).")


def _numbered(choices) -> list:
    """The choices in the order the page shows them, numbered from 1: grouped, the groups in order
    of first appearance, the ungrouped choices (``""``) where the first of them comes. The choices
    come in action-id order, so "Finish orders" (END ORDERS, after every ASSIGN) is the last choice
    of the orders prompt and "Stay" comes after the Destinations, as on the page."""
    groups = {}
    for c in choices:
        groups.setdefault(c["group"] or "", []).append(c)
    return [(g or None, c) for g, cs in groups.items() for c in cs]


def _print_choices(shown, out) -> None:
    group = object()
    for k, (g, c) in enumerate(shown, 1):
        if g != group:
            group = g
            if g is not None:
                print(f"  {printable(g)}:", file=out)
        indent = "    " if g is not None else "  "
        line = f"{indent}{k:>3}  {printable(c['label'])}"
        if c["summary"]:
            line += f"   [{c['summary']}]"
        print(line, file=out)


def _print_detail(c, out) -> None:
    o = c["odds"]
    print(f"  {printable(c['label'])} ({printable(c['describe'])})", file=out)
    if o is None:
        print("    no odds for this choice", file=out)
        return
    if o.get("assumes"):
        print(f"    assuming {o['assumes']}", file=out)

    def table(x, head=None):
        if head:
            print(f"    {head}", file=out)
        facts = [x.get("band_words"), x.get("cover"), f"armor {x['armor']}" if "armor" in x else None,
                 f"defends: {x['target_stance']}" if x.get("target_stance") else None]
        if any(facts):
            print("    " + "; ".join(f for f in facts if f), file=out)
        print("      markers  wounds  chance", file=out)
        for m, w, p in x["outcomes"][:8]:
            print(f"      {m:>7d}  {w:>6d}  {100 * p:6.2f}%", file=out)

    kind = o["kind"]
    if kind == "fire":
        table(o)
    elif kind == "split":
        table(o["declared"], f"declared target {o['declared']['target']} (higher Attack)")
        table(o["other"], f"{o['other']['target']} (lower Attack)")
    elif kind == "call_for_fire":
        print(f"    {o['asset']}: direct hit {100 * o['p_direct_hit']:.1f}%, within its {o['radius']:g} cm blast "
              f"{100 * o['p_within']:.1f}%", file=out)
        table(o["fire"], "on the target")
    elif kind == "rally":
        print(f"    P(success) {100 * o['p_success']:.1f}%" if o["allowed"] else "    not allowed", file=out)
    elif kind == "targets":
        from .choices import odds_summary
        for t in o["targets"]:
            print(f"    {printable(t['target'])}: {odds_summary(t)}", file=out)


def _print_forces(session, out) -> None:
    for side in session.forces():
        if side["hand"] is None:    # the other side's Reserve: face down
            reserve = f"{side['reserve']} card{'s' if side['reserve'] != 1 else ''}"
        else:
            reserve = ", ".join(side["hand"]) or "no cards"
        print(f"  {printable(side['label'])}: Reserve {reserve}", file=out)
        for u in side["units"]:
            card = u["card"] or u["status"]
            print(f"    {printable(u['name']):<22} {u['figures']:>3} figures  {u['markers']} markers  "
                  f"{u['wounds']} wounds  {card}", file=out)


def play_text(session, stdin=None, stdout=None, replay=None) -> int:
    """Play ``session`` in a terminal until the game ends or the person stops.

    Parameters
    ----------
    session : PlaySession
    stdin, stdout : file, optional
        Where the commands are read and everything is printed (default ``sys.stdin``,
        ``sys.stdout``).
    replay : str or PathLike, optional
        Where the replay page of the finished game is written (default: beside the save file,
        ``.html`` instead of ``.json``; none without a save file).

    Returns
    -------
    int
        0.
    """
    inp = sys.stdin if stdin is None else stdin
    out = sys.stdout if stdout is None else stdout
    shown_log = 0

    def flush_log():
        nonlocal shown_log
        for line in session.log[shown_log:]:
            print(line, file=out)
        shown_log = len(session.log)

    def stop() -> int:
        whole = session.save()
        where = ""
        if session.save_path:
            when = "" if whole else " as of the last whole decision"
            where = (f"; the game is saved in {printable(session.save_path)}{when} (resume: atomic-africa play "
                     f"--text --load {printable(session.save_path)})")
        print(f"Stopped{where}.", file=out, flush=True)
        return 0

    print(HELP, file=out)
    try:
        while session.human_to_play:
            flush_log()
            shown = _numbered(session.choices())
            print(f"\n{printable(session.prompt())}", file=out)
            _print_choices(shown, out)
            while True:
                print(f"Choice (1-{len(shown)}; u, d N, l, h, q): ", end="", file=out, flush=True)
                line = inp.readline()
                if not line:
                    print(file=out)
                    return stop()
                cmd = line.strip().lower()
                if cmd in ("q", "quit", "exit"):
                    return stop()
                if cmd in ("h", "help", "?"):
                    print(HELP, file=out)
                elif cmd in ("u", "units"):
                    _print_forces(session, out)
                elif cmd in ("l", "log"):
                    print("\n".join(session.log), file=out)
                elif cmd.startswith("d") and cmd[1:].strip().isascii() and cmd[1:].strip().isdigit():
                    k = int(cmd[1:].strip())
                    if 1 <= k <= len(shown):
                        _print_detail(shown[k - 1][1], out)
                    else:
                        print(f"d: no choice {k}; choose 1-{len(shown)}", file=out)
                elif cmd.isascii() and cmd.isdigit():
                    k = int(cmd)
                    if not 1 <= k <= len(shown):
                        print(f"no choice {k}; choose 1-{len(shown)}", file=out)
                        continue
                    try:
                        session.act(shown[k - 1][1]["id"], len(session.game.history))
                    except PlayError as exc:   # pragma: no cover - the choices are the legal actions
                        print(f"refused: {exc}", file=out)
                        continue
                    break
                elif cmd:
                    print(f"unknown command {printable(cmd)[:20]!r}. {HELP}", file=out)
    except KeyboardInterrupt:
        print(file=out)
        return stop()
    flush_log()
    if session.game.is_over:
        print(session.result_text(), file=out)
        print("\n".join(session.closing()), file=out)
        if replay is None and session.save_path:
            base, ext = os.path.splitext(session.save_path)
            replay = (base if ext.lower() == ".json" else session.save_path) + ".html"
        if replay is not None:
            page = session.replay_page()
            with replaced_atomically(os.fspath(replay)) as tmp, open(tmp, "w", encoding="utf-8") as fh:
                fh.write(page)
            print(f"Replay page written to {printable(os.fspath(replay))} (open it in a web browser)", file=out)
        if session.save_path:
            print(f"The finished game is saved in {printable(session.save_path)}", file=out)
    return 0
