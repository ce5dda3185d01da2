"""Information sets (issue 31): what each player may know of the game.

- A player's view of the event log (``Game.events(player=p)``, ``VectorGame.events(i, player=p)``,
  the C API's ``aa_game_player_events``) hides exactly what :data:`schema.HIDDEN` declares (every
  deck's order, the seed, the opponent's draws and face-down assignments) and keeps the rest; the
  three engines' views are equal event for event, and the C table is generated from the schema's.
- Two states that differ only in what a side cannot see (the opponent's Reserve against its deck,
  the opponent's face-down cards among its units) give that side the same observation, legal
  actions and event view, while the opponent's own differ.
- ``info["game_seed"]`` (the seed replays every draw) is in no env's info unless asked for with
  ``info_game_seed=True``.
"""
from __future__ import annotations

import copy
import subprocess
from pathlib import Path

import numpy as np
import pytest

import atomic_africa as aa
from atomic_africa.reference.game.agents import RandomAgent
from atomic_africa.game import VectorGame
from atomic_africa.reference.game import Game
from atomic_africa.game import schema
from atomic_africa.game.events import EventLog, hide_event, player_view
from atomic_africa.game.native.layout import decode_records
from atomic_africa.game.native.schema_c import HIDDEN_PATH, hidden_spans, render_hidden
from atomic_africa.game.schema import HIDDEN, NO_CARD
from atomic_africa.game.spec import GameSpec
from atomic_africa.game.testing import mini_scenario, unit
from support.vector_mirror import random_scenario

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "src" / "aa_core"

# Card-bearing fields shown at the table: a card played face up (activate, react), taken from the
# Reserve face up, drawn face up for a confused unit. A new card field must join HIDDEN or this list.
REVEALED = {("activate", "card"), ("react", "card"), ("reserve_card", "card"), ("confused_draw", "card"),
            ("confused", "card")}
# A deck of 4 Aces: the decks run out every turn (reshuffle events), as in test_vector_parity.
SMALL_DECK = dict(orders={"deck_cards": 4, "jokers": 0, "basic_max_rank": 1})
SMALL = mini_scenario([unit(60.0, 20.0), unit(120.0, 20.0, kind="light_infantry")],
                      [unit(60.0, 90.0), unit(120.0, 90.0, kind="vehicle", armor=3)], turns=2)


def _play(g: Game, seed: int, max_steps: int | None = None, on_decision=None) -> Game:
    agents = [RandomAgent(1000 + 2 * seed + p) for p in range(2)]
    k = 0
    while not g.is_over and (max_steps is None or k < max_steps):
        if on_decision is not None:
            on_decision(g, k)
        g.apply(agents[g.current_player].act(g))
        k += 1
    return g


def _games():
    """Finished games of the default battle and, for reshuffles, of a 4-card-deck battle."""
    out = [_play(Game(None, s), s) for s in range(3)]
    spec = GameSpec.build(random_scenario(50012), aa.Rules.default().replace(**SMALL_DECK))
    out += [_play(Game(spec, s), s) for s in (11, 12)]
    return out


@pytest.fixture(scope="module")
def games():
    return _games()


# ---------------------------------------------------------------- the table
def test_the_hidden_table_names_real_fields_and_every_card_field_is_decided():
    for t, hidden in HIDDEN.items():
        names = [f.name for f in schema.EVENT_FIELDS[t]]
        for h in hidden:
            assert h.field in names, (t, h)
            assert h.known_to in ("nobody", "player"), (t, h)
            if h.known_to == "player":
                assert "player" in names, t
    cards = {(t, f.name) for t, fields in schema.EVENTS for f in fields
             if f.kind in ("card", "game_seed") or f.name in ("cards", "deck")}
    hidden = {(t, h.field) for t, hs in HIDDEN.items() for h in hs}
    assert cards == hidden | REVEALED, f"decide (HIDDEN or REVEALED): {sorted(cards - hidden - REVEALED)}"
    assert not hidden & REVEALED


def test_the_c_table_is_generated_from_the_schema():
    committed = (ROOT / HIDDEN_PATH).read_text()
    assert committed == render_hidden(), (
        f"{HIDDEN_PATH} differs from atomic_africa.game.schema.HIDDEN; regenerate it with\n"
        "  PYTHONPATH=python python -m atomic_africa.game.native.schema_c\nthen rebuild")
    assert '#include "aa_hidden.h"' in (PKG / "csrc" / "aa_api.c").read_text()
    # every hidden field holding record values has its span (the seed is not in the records)
    spans = {(t, f) for t, f, *_ in hidden_spans()}
    assert spans == {(t, h.field) for t, hs in HIDDEN.items() for h in hs if t != "setup"}


# ---------------------------------------------------------------- the views
def _check_view(full: list, view: list, p: int) -> None:
    assert len(full) == len(view)
    for e, w in zip(full, view):
        assert list(e) == list(w), e["type"]
        t = e["type"]
        if t == "setup":
            assert w["seed"] is None and {**w, "seed": e["seed"]} == e
        elif t in ("shuffle", "reshuffle"):
            assert w["deck"] == [NO_CARD] * len(e["deck"]) and w["player"] == e["player"]
        elif t == "draw" and e["player"] != p:
            assert w["cards"] == [NO_CARD] * len(e["cards"]) and w["player"] == e["player"]
        elif t == "assign" and e["player"] != p:
            assert w["card"] == NO_CARD and (w["player"], w["unit"]) == (e["player"], e["unit"])
        else:   # the player's own draws and assignments, and everything shown at the table
            assert w == e, t


def test_the_view_hides_exactly_the_hidden_fields(games):
    seen = set()
    for g in games:
        for p in (0, 1):
            full = list(g.events)
            view = g.events(player=p)
            _check_view(full, view, p)
            assert view == player_view(g.events, p) == [hide_event(e, p) for e in g.events]
            assert list(g.events) == full                 # the log itself is unchanged
            seen |= {(e["type"], e.get("player") == p) for e in g.events}
    assert {("shuffle", True), ("reshuffle", True), ("draw", True), ("draw", False), ("assign", True),
            ("assign", False)} <= seen
    g = games[0]
    assert g.events(player=None) == list(g.events) and type(g.events(None)) is list
    assert g.events() is not g.events and isinstance(g.events, EventLog)


def test_the_view_of_a_saved_game_is_the_same():
    g = _play(Game(None, 5), 5, max_steps=60)
    h = Game.from_json(g.to_json())
    for p in (0, 1):
        assert h.events(player=p) == g.events(player=p)


@pytest.mark.parametrize("bad,exc,msg", [(2, ValueError, r"player: 2 is not a player; allowed None, 0, 1"),
                                         (-1, ValueError, r"allowed None, 0, 1"),
                                         ("0", TypeError, r"player: expected None, 0 or 1, got str"),
                                         (True, TypeError, r"player: expected None, 0 or 1, got bool"),
                                         (0.0, TypeError, r"player: expected None, 0 or 1, got float")])
def test_bad_player(bad, exc, msg):
    g = Game(None, 1)
    before = copy.deepcopy(g.events)
    with pytest.raises(exc, match=msg):
        g.events(player=bad)
    vg = VectorGame.from_games(None, [1], record_events=True)
    with pytest.raises(exc, match=msg):
        vg.events(0, player=bad)
    assert g.events == before
    with pytest.raises((TypeError, ValueError), match="player"):
        player_view(g.events, None)
    assert g.events(player=np.int64(1)) == g.events(player=1)


def test_the_native_view_equals_the_python_view_step_by_step():
    """VectorGame(record_events=True) playing Game's actions: each step's slice of its view is the
    same slice of Game.events(player=p), in the default battle and the 4-card-deck one."""
    cases = [(None, None, 3), (random_scenario(50012), aa.Rules.default().replace(**SMALL_DECK), 11)]
    seen = set()
    for scenario, rules, seed in cases:
        g = Game(scenario, seed, rules=rules)
        vg = VectorGame.from_games(scenario, [seed], rules=rules, record_events=True)
        got = {p: vg.events(0, player=p) for p in (0, 1)}
        full = vg.events(0)
        agents = [RandomAgent(seed + q) for q in range(2)]
        while not g.is_over:
            a = agents[g.current_player].act(g)
            g.apply(a)
            vg.step([a])
            if g.is_over:   # the native env starts its next game in the same step: keep this one's
                n = len(g.events) - len(full)
                full += vg.events(0)[:n]
                for p in (0, 1):
                    got[p] += vg.events(0, player=p)[:n]
                break
            full += vg.events(0)
            for p in (0, 1):
                got[p] += vg.events(0, player=p)
        assert full == list(g.events)
        for p in (0, 1):
            assert got[p] == g.events(player=p), (seed, p)
        seen |= {e["type"] for e in g.events}
    assert {"shuffle", "reshuffle", "draw", "assign"} <= seen


# ---------------------------------------------------------------- the C API
def _c_lines(driver, *args) -> list:
    out = subprocess.run([str(driver), *map(str, args)], capture_output=True, text=True, timeout=600, check=True)
    return out.stdout.split()


# The C API's test host of conftest.py, built once on the worker of the C API's tests (their xdist group).
@pytest.mark.xdist_group("c_api")
def test_the_c_view_equals_the_python_view(capi_driver):
    """capi_driver plays Game(default battle, seed) with RandomAgent(10000 + 2 seed + side) (as
    test_c_api.py's `play`); aa_game_player_events' records are the decoded Game.events(player=p),
    the same length as aa_game_events' and equal to them but at the hidden values."""
    spec = GameSpec.build(None)
    for seed in (0, 3):
        g = Game(None, seed)
        agents = [RandomAgent(10000 + 2 * seed + p) for p in range(2)]
        while not g.is_over:
            g.apply(agents[g.current_player].act(g))
        full = np.array([float(x) for x in _c_lines(capi_driver, "events", seed)])
        for p in (0, 1):
            view = np.array([float(x) for x in _c_lines(capi_driver, "pevents", seed, p)])
            assert view.shape == full.shape
            assert decode_records(view, spec.scenario, spec.deck, spec.C, None) == g.events(player=p), (seed, p)
            changed = view != full
            assert changed.any() and (view[changed] == NO_CARD).all()


# ---------------------------------------------------------------- invariance
def _latest(events, pred):
    for e in reversed(events):
        if pred(e):
            return e
    return None


def _swap_reserve_and_deck(g: Game, q: int, rng) -> Game | None:
    """A copy of ``g`` where a card of q's Reserve and a card of q's deck have changed places, the
    raw log rewritten to match (the draw that gave the Reserve card gives the deck card, and the
    deck listing of q's last shuffle swaps the two); None when q has no such pair."""
    pl = g.s.players[q]
    if not pl.hand or not pl.deck:
        return None
    h = copy.deepcopy(g)
    hp = h.s.players[q]
    i, j = int(rng.integers(len(hp.hand))), int(rng.integers(len(hp.deck)))
    a, b = hp.hand[i], hp.deck[j]
    draw = _latest(h.events, lambda e: e["type"] == "draw" and e["player"] == q and a in e["cards"])
    shuffle = _latest(h.events, lambda e: e["type"] in ("shuffle", "reshuffle") and e["player"] == q)
    if draw is None or shuffle is None:
        return None
    hp.hand[i], hp.deck[j] = b, a
    draw["cards"] = [b if c == a else c for c in draw["cards"]]
    shuffle["deck"] = [b if c == a else a if c == b else c for c in shuffle["deck"]]
    return h


def _permute_face_down(g: Game, q: int, rng) -> Game | None:
    """A copy of ``g`` where q's face-down order cards are given to q's units in another order, their
    assign events rewritten; None when q has fewer than two face-down cards."""
    units = [u.uid for u in g.s.units if u.alive and u.side == q and u.card != NO_CARD and not u.revealed]
    if len(units) < 2:
        return None
    h = copy.deepcopy(g)
    cards = [h.s.units[k].card for k in units]
    turned = cards[1:] + cards[:1]     # a cyclic shift: every unit gets another card
    for k, c in zip(units, turned):
        h.s.units[k].card = c
        ev = _latest(h.events, lambda e, k=k: e["type"] == "assign" and e["unit"] == k)
        ev["card"] = h.deck.name(c)
    return h


def _same_for(p: int, g: Game, h: Game) -> None:
    np.testing.assert_array_equal(g.observation(p), h.observation(p))
    if not g.is_over and g.current_player == p:
        assert g.legal_actions() == h.legal_actions()
        np.testing.assert_array_equal(g.action_mask(), h.action_mask())
    assert g.events(player=p) == h.events(player=p)


def _differs_for(q: int, g: Game, h: Game) -> bool:
    """q knows the cards moved: its view of the log differs; whether its observation does (two
    Jokers look alike)."""
    assert g.events(player=q) != h.events(player=q)
    return not np.array_equal(g.observation(q), h.observation(q))


# (scenario, rules, game seeds, a state checked every `every` decisions, at least (Reserve swaps,
# face-down permutations, states with the side to move) checked); the default battle's (2-3 s) is left to
# the full suite to keep the fast subset under 2 minutes
@pytest.mark.parametrize("scenario,rules,seeds,every,least", [
    pytest.param(None, None, (0, 1, 2), 3, (5, 5, 5), marks=pytest.mark.slow),
    # 4-card decks: never a Reserve and a deck at once, but face-down cards after reshuffles
    (random_scenario(50012), SMALL_DECK, (11, 12, 13), 1, (0, 5, 1)),
    (SMALL, None, (4, 5, 6), 1, (3, 3, 3)),
])
def test_what_a_side_cannot_see_changes_nothing_it_sees(scenario, rules, seeds, every, least):
    """Mid-game copies of Game where the opponent q's hidden cards moved (a Reserve card swapped with
    a deck card; its face-down cards cycled among its units; the raw log rewritten to match): the
    other side p sees the same observation, legal actions (p to move) and event view; q's view
    differs."""
    rules = None if rules is None else aa.Rules.default().replace(**rules)
    rng = np.random.default_rng(0)
    checked = {"reserve": 0, "face_down": 0, "to_move": 0, "q_sees": 0}
    stages = set()

    def check(g: Game, k: int) -> None:
        if k % every:
            return
        for p in (0, 1):
            q = 1 - p
            for kind, make in (("reserve", _swap_reserve_and_deck), ("face_down", _permute_face_down)):
                h = make(g, q, rng)
                if h is None:
                    continue
                _same_for(p, g, h)
                checked["q_sees"] += _differs_for(q, g, h)
                checked[kind] += 1
                checked["to_move"] += int(g.current_player == p)
                stages.add(g.stage)

    for seed in seeds:
        _play(Game(scenario, seed, rules=rules), seed, on_decision=check)
    assert all(x >= m for x, m in zip((checked["reserve"], checked["face_down"], checked["to_move"]), least)), checked
    assert checked["q_sees"] >= (checked["reserve"] + checked["face_down"]) // 2, checked
    assert len(stages) >= 2, stages


def _native_card_rows():
    card = next(f for f in schema.UNIT_FIELDS if f.name == "card")
    revealed = next(f for f in schema.UNIT_FIELDS if f.name == "revealed")
    alive = next(f for f in schema.UNIT_FIELDS if f.name == "alive")
    return card.row, revealed.row, alive.row


def test_native_states_that_differ_only_in_hidden_cards_look_the_same():
    """VectorGame snapshots: a card of q's Reserve swapped with one of q's deck (``piles``), and q's
    face-down cards cycled among its units (the ``card`` row): p's observations (and masks when p is
    to move) are unchanged; q's observation changes."""
    n = 16
    vg = VectorGame(None, n, 7)
    rng = np.random.default_rng(1)
    card_row, rev_row, alive_row = _native_card_rows()
    C = vg.spec.C
    checked = 0
    for step in range(120):
        vg.step(vg.random_actions())
        if step % 5:
            continue
        state = vg.__getstate__()
        a = state["arrays"]
        for q in (0, 1):
            p = 1 - q
            twin = copy.deepcopy(state)
            b = twin["arrays"]
            touched = np.zeros(n, dtype=bool)
            for e in range(n):
                n_deck, n_hand = int(b["counts"][e, q, 0]), int(b["counts"][e, q, 1])
                if n_deck and n_hand:
                    i, j = int(rng.integers(n_hand)), int(rng.integers(n_deck))
                    pile = b["piles"][e, q]
                    pile[1, i], pile[0, j] = pile[0, j], pile[1, i]
                    touched[e] = True
                slots = np.arange(q * C, (q + 1) * C)
                cards = b["unit_i32"][e, card_row, slots]
                down = slots[(cards != NO_CARD) & (b["unit_i8"][e, rev_row, slots] == 0)
                             & (b["unit_i8"][e, alive_row, slots] == 1)]
                if down.size >= 2:
                    b["unit_i32"][e, card_row, down] = np.roll(b["unit_i32"][e, card_row, down], 1)
                    touched[e] = True
            if not touched.any():
                continue
            other = VectorGame.__new__(VectorGame)
            other.__setstate__(twin)
            np.testing.assert_array_equal(vg.observations(player=p), other.observations(player=p))
            mover = vg.current_player == p
            np.testing.assert_array_equal(vg.action_masks()[mover], other.action_masks()[mover])
            diff = (vg.observations(player=q) != other.observations(player=q)).any(axis=1)
            assert diff[touched].all() and not diff[~touched].any()
            checked += int(touched.sum())
        assert (vg.__getstate__()["arrays"]["piles"] == a["piles"]).all()   # the original is untouched
    assert checked >= 50


# ---------------------------------------------------------------- the env option
def _vector_infos(env, on: bool, steps=40):
    """Every info of ``steps`` steps; with ``on``, each holds the games' seeds."""
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=3)
    infos = [info]
    for _ in range(steps):
        acts = [int(rng.choice(np.flatnonzero(m))) for m in info["action_mask"]]
        _, _, _, _, info = env.step(acts)
        infos.append(info)
        if on:
            np.testing.assert_array_equal(info["game_seed"], env.vector_game.episode_seeds)
    return infos


def _keys(d) -> set:
    out = set()
    for k, v in d.items():
        out.add(k)
        if isinstance(v, dict):
            out |= _keys(v)
    return out


@pytest.mark.parametrize("on", [False, True])
def test_the_game_seed_is_in_an_envs_info_only_when_asked_for(on):
    from atomic_africa.env.gymnasium_env import AtomicAfricaEnv
    from atomic_africa.env.gymnasium_vector import AtomicAfricaVectorEnv
    from atomic_africa.env.pettingzoo_env import raw_env
    kw = {"info_game_seed": True} if on else {}
    # the single-agent env: every info of two episodes
    e = AtomicAfricaEnv(scenario=SMALL, **kw)
    rng = np.random.default_rng(0)
    for seed in (5, None):
        _, info = e.reset(seed=seed)
        infos = [info]
        while not e.game.is_over:
            _, _, _, _, info = e.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            infos.append(info)
        for info in infos:
            assert ("game_seed" in info) == on and (not on or info["game_seed"] == e.game.seed)
    # the vector env: its info and final_info, with the masks
    v = AtomicAfricaVectorEnv(num_envs=3, scenario=SMALL, **kw)
    infos = _vector_infos(v, on)
    assert any("final_info" in i for i in infos)
    for info in infos:
        assert ("game_seed" in _keys(info)) == on and ("_game_seed" in _keys(info)) == on
        if on and "final_info" in info:
            assert "game_seed" in info["final_info"]
    # stable-baselines3's per-env dicts
    import stable_baselines3  # noqa: F401 (a test extra: fail, never skip, without it)
    from atomic_africa.env.sb3 import AtomicAfricaSB3VecEnv
    s = AtomicAfricaSB3VecEnv(num_envs=2, scenario=SMALL, seed=4, **kw)
    s.reset()
    dicts = list(s.reset_infos)
    for _ in range(40):
        _, _, _, infos = s.step(np.array([int(np.flatnonzero(m)[0]) for m in s.action_masks()]))
        dicts += infos
    assert all(("game_seed" in _keys(d)) == on for d in dicts)
    assert any("final_info" in d for d in dicts)
    # PettingZoo's infos never hold it
    z = raw_env(scenario=SMALL)
    z.reset(seed=2)
    assert not any("game_seed" in _keys(i) for i in z.infos.values())


@pytest.mark.parametrize("on", [False, True])
def test_the_rllib_env_gives_the_game_seed_only_when_asked_for(on):
    import ray.rllib  # noqa: F401 (a test extra: fail, never skip, without it)
    from atomic_africa.env.rllib import AtomicAfricaMultiAgentEnv
    env = AtomicAfricaMultiAgentEnv(scenario=SMALL, info_game_seed=on)
    rng = np.random.default_rng(0)
    obs, infos = env.reset(seed=9)
    seen = [infos]
    ended = 0
    for _ in range(400):
        (agent, o), = obs.items()
        obs, _, terms, _, infos = env.step({agent: int(rng.choice(np.flatnonzero(o["action_mask"])))})
        seen.append(infos)
        if terms["__all__"]:
            ended += 1
            seen.append(infos)
            obs, infos = env.reset()
            seen.append(infos)
    assert ended >= 1
    for infos in seen:
        for info in infos.values():
            assert ("game_seed" in info) == on
            if on:
                assert isinstance(info["game_seed"], int)


def test_bad_info_game_seed():
    from atomic_africa.env.gymnasium_env import AtomicAfricaEnv
    from atomic_africa.env.gymnasium_vector import AtomicAfricaVectorEnv
    for cls, kw in ((AtomicAfricaEnv, {}), (AtomicAfricaVectorEnv, {"num_envs": 2})):
        for bad in ("yes", 1, None):
            with pytest.raises(TypeError, match=r"info_game_seed: expected a bool"):
                cls(scenario=SMALL, info_game_seed=bad, **kw)
