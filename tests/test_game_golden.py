"""Golden traces: fixed seeds played by the built-in agents must reproduce the stored trace exactly.

The traces pin the rules, so they play one fixed battle whatever the packaged scenarios become:
``tests/support/lopsided_meeting.toml``, the packaged ``meeting_engagement`` as it was when they were
recorded (the default battle then; issue 35 made the packaged one balanced, and the traces did not
change, since the rules did not).
Each trace is played twice: by the reference engine (``atomic_africa.reference.game`` and its Python
agents), which judges, and by the product's ``Game`` on the C core with the native agents; both must
reproduce it. Regenerate (after an intended rules change) with
``AA_REGEN_GOLDEN=1 pytest tests/test_game_golden.py`` (the reference engine writes the files).
"""
import hashlib
import json
import os
from pathlib import Path

import pytest

from atomic_africa import agents as native_agents
from atomic_africa import game as product
from atomic_africa.reference import game as reference
from atomic_africa.reference.game import agents as reference_agents
from support import LOPSIDED_MEETING

ENGINES = {"reference": (reference.Game, reference_agents), "c core": (product.Game, native_agents)}

GOLDEN = Path(__file__).parent / "golden"
SCENARIO = LOPSIDED_MEETING
CASES = [(0, "random", "random"), (1, "random", "heuristic"), (2, "heuristic", "random"),
         (7, "heuristic", "heuristic")]


def digest(obj) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True).encode()).hexdigest()


def trace(seed, a, b, engine="reference"):
    Game, ag = ENGINES[engine]
    agents = [{"random": ag.RandomAgent, "heuristic": ag.HeuristicAgent}[n](seed + i) for i, n in enumerate((a, b))]
    g = Game(SCENARIO, seed)
    while not g.is_over:
        g.apply(agents[g.current_player].act(g))
    return {
        "seed": seed, "agents": [a, b], "actions": g.history,
        "result": {"winner": g.result.winner, "reason": g.result.reason, "figures": list(g.result.figures)},
        "turn_ends": [e for e in g.events if e["type"] == "turn_end"],
        "n_events": len(g.events), "events_sha256": digest(g.events),
        "state_sha256": digest(g.s.to_dict()),
    }


@pytest.mark.parametrize("engine", list(ENGINES))
@pytest.mark.parametrize("seed,a,b", CASES)
def test_golden_trace(seed, a, b, engine):
    path = GOLDEN / f"game_seed{seed}_{a}_{b}.json"
    got = trace(seed, a, b, engine)
    Game = ENGINES[engine][0]
    if os.environ.get("AA_REGEN_GOLDEN") and engine == "reference":
        path.write_text(json.dumps(got, indent=1) + "\n")
    want = json.loads(path.read_text())
    assert got["actions"] == want["actions"]
    assert got["turn_ends"] == want["turn_ends"]
    assert got["result"] == want["result"]
    assert (got["n_events"], got["events_sha256"], got["state_sha256"]) == \
        (want["n_events"], want["events_sha256"], want["state_sha256"])
    # The stored actions replay to the same final state.
    g = Game.replay(SCENARIO, seed, want["actions"])
    assert digest(g.s.to_dict()) == want["state_sha256"]
