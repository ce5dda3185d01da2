"""Writes battle.json beside this file: what the page (app.js) needs to label the default battle's
action ids and events, from the Python package (the action space's segments, card and unit names,
the actions, postures, distance fractions and event names). tests/test_web_example.py checks that the
committed file is current. Run: python examples/web/battle_json.py"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from atomic_africa.enums import Action, Posture
from atomic_africa.game.actions import SEGMENTS
from atomic_africa.game.schema import EVENTS
from atomic_africa.game.spec import GameSpec

PATH = Path(__file__).resolve().parent / "battle.json"


def battle() -> dict:
    spec = GameSpec.build(None)
    sc, C = spec.scenario, spec.C
    units = [""] * (2 * C)
    for side, s in enumerate(sc.sides):
        for k, u in enumerate(s.units):
            units[side * C + k] = u.name
    return {
        "C": C,
        "sides": [s.name for s in sc.sides],
        "units": units,
        "segments": [[name, spec.space.base[name], spec.space.size[name]] for name in SEGMENTS],
        "cards": [spec.deck.name(k) for k in range(spec.deck.size)],
        "actions": [a.name for a in Action],
        "postures": [p.name for p in Posture],
        "fractions": list(spec.rules.movement.distance_fractions),
        "events": [name for name, _ in EVENTS],
    }


def render() -> str:
    return json.dumps(battle(), indent=1) + "\n"


if __name__ == "__main__":
    tmp = PATH.with_suffix(".json.tmp")
    tmp.write_text(render())
    os.replace(tmp, PATH)
    sys.stdout.write(f"wrote {PATH}\n")
