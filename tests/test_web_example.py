"""The browser example (issue 34, point 5): examples/web's page loads the C core built for the browser
(``make -C src/aa_core -f wasm.mk web``) through its JavaScript wrapper, in a real headless Chromium
(/usr/bin/chromium) driven by mouse clicks. A person's game against the heuristic agent is the Python
``Game`` of the same seed, action for action and event for event; two agents watched play the native
library's game; battle.json is what battle_json.py writes now."""
from __future__ import annotations

import functools
import http.server
import random
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from support.headless_chromium import CHROMIUM, INSTALL_HINT, Chromium

from atomic_africa.reference.game.agents import HeuristicAgent
from atomic_africa.reference.game import Game
from atomic_africa.game.native.layout import decode_records
from atomic_africa.game.spec import GameSpec

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("wasm")]

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "examples" / "web"
PKG = ROOT / "src" / "aa_core"
SUPPORT = Path(__file__).resolve().parent / "support"
PAGE_FILES = ("index.html", "app.js", "atomic_africa.js", "battle.json")


def _run(args, **kw) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=900, **kw)
    assert proc.returncode == 0, f"{args}:\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}"
    return proc


class _Quiet(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm",
                      ".js": "text/javascript"}

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The page's files and atomic_africa.wasm, served on the loopback interface."""
    assert CHROMIUM.exists(), INSTALL_HINT
    root = tmp_path_factory.mktemp("web")
    build = tmp_path_factory.mktemp("wasm_web")
    _run(["/usr/bin/make", "-s", "-j2", "-C", PKG, "-f", "wasm.mk", f"PYTHON={sys.executable}", f"WASM_BUILD={build}",
          "web"])
    shutil.copy(build / "atomic_africa.wasm", root)
    for name in PAGE_FILES:
        shutil.copy(WEB / name, root)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/index.html"
    server.shutdown()
    server.server_close()


def _wait_state(b: Chromium, states, timeout: float = 60.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = b.eval("document.getElementById('status').dataset.state || ''")
        if state in states:
            return state
        time.sleep(0.05)
    status = b.eval("document.getElementById('status').textContent")
    raise AssertionError(f"status: {status}; {b.errors()}")


def test_battle_json_is_current():
    sys.path.insert(0, str(WEB))
    try:
        import battle_json
    finally:
        sys.path.remove(str(WEB))
    assert (WEB / "battle.json").read_text() == battle_json.render(), "regenerate: python examples/web/battle_json.py"


def test_a_person_plays_blue_against_the_heuristic_agent(site, tmp_path):
    """Blue's choices are clicks on the page's action buttons (a fixed random pick each time); the page
    then lets the heuristic agent play Red. The game is Game(None, 42) with those choices, Red's being
    HeuristicAgent's, and the page's event records decode to the Python game's events."""
    rng = random.Random(34)
    with Chromium() as b:
        b.open(site)
        state = _wait_state(b, ("yours", "over"))
        labels = b.eval("[...document.querySelectorAll('#actions button')].map(x => x.textContent)")
        clicks = 0
        while state == "yours":
            n = b.eval("document.querySelectorAll('#actions button').length")
            b.click(f"#actions button:nth-of-type({rng.randrange(n) + 1})")
            clicks += 1
            state = _wait_state(b, ("yours", "over"))
        played = b.eval("window.atomicAfrica.played()")
        records = b.eval("window.atomicAfrica.records()")
        status = b.eval("document.getElementById('status').textContent")
        b.screenshot(tmp_path / "page.png")
        assert b.errors() == []
    g, red = Game(None, 42), HeuristicAgent()
    assert labels == [g.describe_action(a) for a in g.legal_actions()]   # the page's words are Game's
    blue = 0
    for a in played:
        if g.current_player == 1:
            assert a == red.act(g)
        else:
            blue += 1
        g.apply(a)
    assert g.is_over and blue == clicks > 20
    winner = "a draw" if g.result.winner is None else f"{('Blue', 'Red')[g.result.winner]} wins"
    assert status == f"Game over after {len(played)} decisions: {winner}"
    spec = GameSpec.build(None)
    assert decode_records(records, spec.scenario, spec.deck, spec.C, 42) == g.events


@pytest.fixture(scope="module")
def c_driver(capi_driver) -> Path:
    return capi_driver


def test_watching_two_agents_is_the_native_game(site, c_driver):
    """Watch mode, greedy (Blue) against doctrine (Red), seed 5: a click on "Next decision", then on
    "Play to the end"; the actions are the native library's (capi_driver agents 2 3 5), agent seeds 1
    and 2 as the page gives them."""
    with Chromium() as b:
        b.open(site)
        _wait_state(b, ("yours", "over"))
        b.eval("document.getElementById('mode').value = 'watch'; document.getElementById('agent0').value = 'greedy';"
               "document.getElementById('agent1').value = 'doctrine'; document.getElementById('seed').value = '5'")
        b.click("#new")
        assert _wait_state(b, ("watching",)) == "watching"
        assert b.eval("window.atomicAfrica.played().length") == 0
        b.click("#step")
        assert b.eval("window.atomicAfrica.played().length") == 1
        b.click("#finish")
        _wait_state(b, ("over",))
        played = b.eval("window.atomicAfrica.played()")
        assert b.errors() == []
    native = [int(x) for x in _run([c_driver, "agents", "2", "3", "5", "100000"]).stdout.split()]
    assert played == native and len(native) > 50
