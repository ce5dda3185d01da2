"""What the play tests share: a served session and the look of a card's name in words."""
from __future__ import annotations

import contextlib
import re
import threading

from atomic_africa.play.server import PlayServer

#: A card named in words, as the battle log and the page write it ("Queen of Hearts", "Joker").
CARD = re.compile(r"\b(?:Ace|King|Queen|Jack|10|[2-9]) of (?:Hearts|Diamonds|Clubs|Spades)\b|\bJoker\b")


@contextlib.contextmanager
def serving(session):
    """A PlayServer for ``session`` on a free port, in a thread, for the block."""
    server = PlayServer(session, 0)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)
