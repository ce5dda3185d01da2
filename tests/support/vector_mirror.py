"""Helpers of the VectorGame tests: Python ``Game``s played env by env next to a ``VectorGame``, and
exact comparisons whose failure message names the scenario, env, episode seed, step and first
difference (enough to write a reproducer)."""
from __future__ import annotations

import json
from collections import Counter

import numpy as np

from atomic_africa.enums import Action, Posture, UnitKind
from atomic_africa.game.native.vector import DECISION_TRIES, no_decision_message
from atomic_africa.reference.game import Game
from atomic_africa.game.events import EVENT_TYPES
from atomic_africa.game.scenario import load_scenario
from test_game_fuzz import random_scenario

__all__ = ["episode_seed", "random_scenario", "Mirror", "check_step", "check_reset", "check_same_outputs",
           "first_event_difference", "legal_random_actions", "play_parity", "rules_exercised", "RULE_FEATURES"]


# What a parity run must have compared for its comparisons to cover every rule of the engine: every
# event type, every action declared, and the branches inside events that run different code in the
# native engine (a Joker played, confusion forcing an action, both kinds of split, a direct hit and a
# scatter, Rally and morale passing and failing, Split Fire on two targets, a second fire-support
# asset, armour-piercing and fire-support shots, each way a game ends) and issue 11's rules: light
# infantry declaring the infantry-only actions (a light-infantry spotter calling for fire) and, when
# confused with a face card, Dig-in; an attached unit given orders; a unit confused because its
# side's fixed hand ran out; a reshuffle in the middle of a confused draw; a heavy weapon's shot
# lowering a terrain feature's cover and knocking it down to none (a feature that blocked line of
# sight then no longer does).
LIGHT_INFANTRY_ACTIONS = ("DIG_IN", "MASS_FIRE", "SPLIT_FIRE", "CALL_FOR_FIRE")
RULE_FEATURES = frozenset(
    [f"event:{t}" for t in EVENT_TYPES]
    + [f"action:{a.name}" for a in Action]
    + [f"posture:{p.name}" for p in Posture]
    + ["card:joker", "confused:DIG_IN", "confused:SPRINT", "confused:joker", "confused_direction:move",
       "confused_direction:sprint", "no_reaction:no_card", "split:voluntary", "split:shattered",
       "scatter:direct_hit", "scatter:off_target", "rally:success", "rally:failure", "rally:comms",
       "morale:success", "morale:failure", "targets:two", "targets:none", "targets:second_asset",
       "fire:support", "fire:armour_piercing", "fire_result:markers", "fire_result:wounds",
       "game_over:winner", "game_over:draw"]
    + [f"game_over:{r}" for r in ("a side has no units left", "turn limit: more remaining figures")]
    + [f"light_infantry:{a}" for a in LIGHT_INFANTRY_ACTIONS]
    + ["light_infantry:confused DIG_IN", "assign:attached", "confused:hand ran out", "confused_draw:reshuffle",
       "feature_fire:cover lowered", "feature_fire:cover to none", "feature_fire:line of sight opened"])


def rules_exercised(events, state=None, scenario=None) -> Counter:
    """How often an event list exercised each rule named in :data:`RULE_FEATURES` (and any other
    event type or action it holds).

    ``state`` (a dict, filled in here) carries over between calls on successive parts of one env's
    log: the card each unit plays (from its activate / react / reserve_card / confused event: a unit
    may declare its action a step after it got its card), each unit slot's kind and attached flag
    (from ``scenario``, the loaded Scenario, at the setup event; a split's new unit copies its
    parent's) and each side's Reserve after its Orders this turn. Without ``scenario`` the rules of
    light infantry, attached units and line-of-sight features are not counted.
    """
    out = Counter()
    state = {} if state is None else state
    cards = state.setdefault("cards", {})
    units = state.setdefault("units", {})      # slot -> (kind name, attached)
    reserve = state.setdefault("reserve", {})  # side -> cards left in its hand after its Orders
    last = state.get("last")                   # the type of the previous event of this env's log
    for e in events:
        t = e["type"]
        out[f"event:{t}"] += 1
        if t == "setup":
            cards.clear()
            units.clear()
            if scenario is not None:
                units.update({side * e["slots"] + k: (UnitKind(u.kind).name, bool(u.attached))
                              for side, spec in enumerate(scenario.sides) for k, u in enumerate(spec.units)})
        elif t == "draw":
            reserve.pop(e["player"], None)
        elif t == "orders_done":
            reserve[e["player"]] = e["reserve"]
        elif t == "assign":
            if units.get(e["unit"], ("", False))[1]:
                out["assign:attached"] += 1
        elif t == "reshuffle" and last == "confused_draw":
            out["confused_draw:reshuffle"] += 1
        if t in ("activate", "react", "reserve_card", "confused"):
            cards[e["unit"]] = e["card"]
            if e["card"].startswith("Joker"):
                out["card:joker"] += 1
                if t == "confused":
                    out["confused:joker"] += 1
            if t == "confused" and reserve.get(e["player"]) == 0:
                # Its side had no card left to give it at the Orders (a hand of 0 counts too).
                out["confused:hand ran out"] += 1
        elif t == "declare":
            out[f"action:{e['action']}"] += 1
            out[f"posture:{e['posture']}"] += 1
            joker = cards.get(e["unit"], "").startswith("Joker")
            if e["confused"] and not joker:
                out[f"confused:{e['action']}"] += 1
            if units.get(e["unit"], ("",))[0] == "LIGHT_INFANTRY":
                out[f"light_infantry:{e['action']}"] += 1
                if e["confused"] and not joker:
                    out[f"light_infantry:confused {e['action']}"] += 1
        elif t == "confused_direction":
            out["confused_direction:sprint" if e.get("sprint") else "confused_direction:move"] += 1
        elif t == "no_reaction" and "reason" in e:
            out["no_reaction:no_card"] += 1
        elif t == "split":
            out["split:voluntary" if e["voluntary"] else "split:shattered"] += 1
            if e["unit"] in units:
                units[e["new_unit"]] = units[e["unit"]]
        elif t == "scatter":
            out["scatter:direct_hit" if e["direct_hit"] else "scatter:off_target"] += 1
        elif t == "rally":
            out["rally:success" if e["success"] else "rally:failure"] += 1
            if not e["los"]:
                out["rally:comms"] += 1
        elif t == "morale":
            out["morale:success" if e["success"] else "morale:failure"] += 1
        elif t == "targets":
            if e["target2"] is not None and e["target2"] >= 0:
                out["targets:two"] += 1
            if e["target"] is not None and e["target"] < 0:
                out["targets:none"] += 1
            if e["asset"] is not None and e["asset"] > 0:
                out["targets:second_asset"] += 1
        elif t == "fire":
            if e["source"] < 0:
                out["fire:support"] += 1
            if e["ap"]:
                out["fire:armour_piercing"] += 1
        elif t == "fire_result":
            out["fire_result:markers"] += e["markers"] > 0
            out["fire_result:wounds"] += e["wounds"] > 0
        elif t == "feature_fire":
            before, after = e["cover"]
            out["feature_fire:cover lowered"] += after < before
            out["feature_fire:cover to none"] += after == 0
            if after == 0 and scenario is not None and scenario.terrain[e["feature"]].blocks_los:
                out["feature_fire:line of sight opened"] += 1
        elif t == "game_over":
            out[f"game_over:{e['reason']}"] += 1
            out["game_over:draw" if e["winner"] < 0 else "game_over:winner"] += 1
        last = t
    state["last"] = last
    return +out


def episode_seed(seed: int, env: int, episode: int) -> int:
    """The game seed of env ``env``'s episode ``episode``, written from the contract (not from the
    implementation): ``SeedSequence(seed, spawn_key=(env, episode))``'s first 64-bit word."""
    return int(np.random.SeedSequence(seed, spawn_key=(env, episode)).generate_state(1, np.uint64)[0])


def _diff_value(a, b, path="") -> str | None:
    """First difference between two JSON-like values; types count (1 != 1.0 != True, [1] != (1,))."""
    here = path or "value"
    if isinstance(b, dict):
        if not isinstance(a, dict):
            return f"{here}: vector {a!r} ({type(a).__name__}) != game dict {b!r}"
        if set(a) != set(b):
            return f"{here} keys: vector {sorted(a)} != game {sorted(b)}"
        for k in b:
            d = _diff_value(a[k], b[k], f"{path}[{k!r}]")
            if d:
                return d
        return None
    if isinstance(b, (list, tuple)):
        if type(a) is not type(b):
            return f"{here}: vector {a!r} ({type(a).__name__}) != game {b!r} ({type(b).__name__})"
        if len(a) != len(b):
            return f"{here} length: vector {len(a)} {a!r} != game {len(b)} {b!r}"
        for j, (x, y) in enumerate(zip(a, b)):
            d = _diff_value(x, y, f"{path}[{j}]")
            if d:
                return d
        return None
    if type(a) is not type(b) or a != b:
        return f"{here}: vector {a!r} ({type(a).__name__}) != game {b!r} ({type(b).__name__})"
    return None


def first_event_difference(got, exp) -> str | None:
    """None if the two event lists are identical (equal and the same JSON text), else a description
    of the first differing event and field."""
    if not isinstance(got, list):
        return f"events: expected a list, got {type(got).__name__}"
    if got == exp:
        try:
            if json.dumps(got, sort_keys=True) == json.dumps(exp, sort_keys=True):
                return None
        except TypeError as e:  # numpy scalars or other non-JSON values in the vector's events
            return f"events are not JSON-able: {e}; vector {got!r}"
    for j, (a, b) in enumerate(zip(got, exp)):
        d = _diff_value(a, b)
        if d:
            return f"event {j} of {len(exp)} (type {b.get('type')!r}): {d}\n  vector event: {a!r}\n  game event:   {b!r}"
    if len(got) != len(exp):
        j = min(len(got), len(exp))
        extra = got[j:] if len(got) > len(exp) else exp[j:]
        return (f"event count: vector {len(got)} != game {len(exp)}; first unmatched "
                f"{'vector' if len(got) > len(exp) else 'game'} event {j}: {extra[0]!r}")
    return "events differ in their JSON text"


class Mirror:
    """One Python :class:`Game` per env, advanced as the VectorGame contract says.

    Parameters
    ----------
    scenario, rules
        As for ``Game``.
    num_envs : int
    label : str
        Names the scenario in failure messages.
    """

    def __init__(self, scenario, num_envs, rules=None, label="default"):
        # Parsed once: Game(None) would read and validate the packaged TOML for every episode.
        self.scenario, self.rules, self.n, self.label = load_scenario(scenario), rules, num_envs, label
        self.seed = None
        self.games = [None] * num_envs
        self.finished = [None] * num_envs
        self.episodes = np.zeros(num_envs, dtype=np.int64)
        self.step_index = 0  # VectorGame.step calls since the last reset
        self.size = None
        # The last expected (observation, mask) of each env, keyed by its game and decision count:
        # an env that was not stepped keeps them (its Python game did not change).
        self._seen = [None] * num_envs

    def _new(self, i: int, first: int) -> list:
        """Env ``i`` starts episode ``k``, or the first later one whose game is not over before its
        first decision (``DECISION_TRIES`` in a row at most); its events (skipped games leave none)."""
        for k in range(first, first + DECISION_TRIES):
            self.episodes[i] = k
            g = Game(self.scenario, episode_seed(self.seed, i, k), self.rules)
            self.games[i] = g
            if not g.is_over:
                return list(g.events)
        raise ValueError(no_decision_message(k, i))

    def _obs_mask(self, i: int):
        g, seen = self.games[i], self._seen[i]
        if seen is None or seen[0] is not g or seen[1] != len(g.history):
            seen = self._seen[i] = (g, len(g.history), g.observation(g.current_player), g.action_mask())
        return seen[2:]

    def context(self, i: int, finished: bool = False) -> str:
        """Where env ``i`` is: scenario, env, episode, episode seed, step, decision and its actions."""
        g = self.finished[i] if finished and self.finished[i] is not None else self.games[i]
        k = int(self.episodes[i]) - (1 if g is self.finished[i] else 0)
        which = "finished game" if g is self.finished[i] else "game"
        return (f"scenario {self.label}, env {i}, {which} episode {k} (episode seed {g.seed}, vector seed "
                f"{self.seed}), step {self.step_index} since reset, decision {len(g.history)} of the game, "
                f"stage {g.stage!r}; Game({self.label}, {g.seed}) actions so far: {g.history}")

    def _expected(self, events, terminated=None, rewards=None, winner=None, final=None) -> dict:
        games = self.games
        seen = [self._obs_mask(i) for i in range(self.n)]
        obs = np.stack([o for o, _ in seen])
        masks = np.stack([m for _, m in seen])
        self.size = obs.shape[1]
        return {"obs": obs, "masks": masks, "events": events, "terminated": terminated, "rewards": rewards,
                "winner": winner, "final": final,
                "current_player": np.array([g.current_player for g in games], dtype=np.int8),
                "turn": np.array([g.s.turn for g in games], dtype=np.int32),
                "episode": self.episodes.copy(),
                "episode_seeds": np.array([g.seed for g in games], dtype=np.uint64)}

    def reset(self, seed=None) -> dict:
        """``VectorGame.reset(seed)``: episode 0 of ``seed``, or every env's next episode."""
        if seed is not None:
            self.seed = seed
            ks = [0] * self.n
        else:
            ks = [int(k) + 1 for k in self.episodes]
        self.step_index = 0
        self.finished = [None] * self.n
        events = [self._new(i, k) for i, k in enumerate(ks)]
        return self._expected(events)

    def views(self, player: int) -> np.ndarray:
        """Every game seen by ``player`` (the current player's view is the expected observation)."""
        return np.stack([self._obs_mask(i)[0] if g.current_player == player else g.observation(player)
                         for i, g in enumerate(self.games)])

    def step(self, actions, active=None) -> dict:
        """``VectorGame.step(actions, active)``: apply, auto-reset finished games."""
        n = self.n
        self.step_index += 1
        self.finished = [None] * n
        rewards = np.zeros((n, 2), dtype=np.float32)
        term = np.zeros(n, dtype=bool)
        winner = np.full(n, -2, dtype=np.int8)
        final = np.zeros((n, 2, self.size), dtype=np.float32)
        events = [[] for _ in range(n)]
        for i in range(n):
            if active is not None and not active[i]:
                continue
            g = self.games[i]
            start = len(g.events)
            g.apply(int(actions[i]))
            ev = g.events[start:]
            if g.is_over:
                term[i] = True
                rewards[i] = g.returns()
                winner[i] = -1 if g.result.winner is None else g.result.winner
                final[i, 0] = g.observation(0)
                final[i, 1] = g.observation(1)
                ev = ev + self._new(i, int(self.episodes[i]) + 1)
                self.finished[i] = g
            events[i] = ev
        return self._expected(events, term, rewards, winner, final)


def _fail(msg: str):
    raise AssertionError(msg)


def _check_array(name, got, exp, mirror: Mirror, finished=False):
    """Exact equality of a batch-first array (dtype, shape, values); the message names the env."""
    if not isinstance(got, np.ndarray):
        _fail(f"{name}: expected a numpy array, got {type(got).__name__} ({mirror.label})")
    if got.dtype != exp.dtype:
        _fail(f"{name}: dtype {got.dtype} != {exp.dtype} ({mirror.label})")
    if got.shape != exp.shape:
        _fail(f"{name}: shape {got.shape} != {exp.shape} ({mirror.label})")
    if np.array_equal(got, exp):
        return
    bad = np.argwhere(~(got == exp))[0]
    i = int(bad[0])
    idx = tuple(int(x) for x in bad)
    rows = f"\n  vector row: {got[i].tolist()!r}\n  game row:   {exp[i].tolist()!r}" if got[i].size <= 16 else ""
    _fail(f"{name}{list(idx)}: vector {got[idx]!r} != game {exp[idx]!r} "
          f"({int((~(got[i] == exp[i])).sum())} entries of this env differ)\n  at {mirror.context(i, finished)}{rows}")


def _check_events(vg, mirror: Mirror, exp: dict):
    if not vg.record_events:
        return
    for i in range(mirror.n):
        d = first_event_difference(vg.events(i), exp["events"][i])
        if d:
            fin = exp["terminated"] is not None and exp["terminated"][i]
            _fail(f"events({i}) {'(terminated: finished game tail + new game start) ' if fin else ''}"
                  f"differ: {d}\n  at {mirror.context(i, finished=fin)}"
                  + (f"\n  new game: {mirror.context(i)}" if fin else ""))


def _check_common(vg, mirror: Mirror, exp: dict, *, views: bool):
    _check_array("action_masks()", vg.action_masks(), exp["masks"], mirror)
    _check_array("current_player", np.asarray(vg.current_player), exp["current_player"], mirror)
    _check_array("episodes", np.asarray(vg.episodes), exp["episode"], mirror)
    _check_array("episode_seeds", np.asarray(vg.episode_seeds), exp["episode_seeds"], mirror)
    if views:
        _check_array("observations(None)", vg.observations(None), exp["obs"], mirror)
        for p in (0, 1):
            _check_array(f"observations({p})", vg.observations(p), mirror.views(p), mirror)


def check_reset(vg, mirror: Mirror, out, exp: dict, *, views: bool = True):
    """Exact comparison of ``vg.reset(...)``'s output and state with the mirror's."""
    assert isinstance(out, tuple) and len(out) == 2, f"reset must return (obs, info), got {type(out)}"
    obs, info = out
    assert isinstance(info, dict), f"reset info: expected a dict, got {type(info).__name__}"
    _check_events(vg, mirror, exp)
    _check_array("reset obs", obs, exp["obs"], mirror)
    for key in ("current_player", "turn", "episode"):
        if key in info:
            _check_array(f"reset info[{key!r}]", info[key], exp[key], mirror)
    _check_common(vg, mirror, exp, views=views)


def _check_final(fo, exp: dict, mirror: Mirror):
    """``info['final_observation']``: an object array, shape (num_envs,), holding at each env whose game
    ended a float32 (2, observation_size) array (the finished game seen by player 0 and by player 1),
    None elsewhere (as Gymnasium's ``final_obs``)."""
    if not (isinstance(fo, np.ndarray) and fo.dtype == object and fo.shape == (mirror.n,)):
        _fail(f"info['final_observation']: expected an object array of shape ({mirror.n},), got "
              f"{type(fo).__name__} {getattr(fo, 'dtype', '')} {getattr(fo, 'shape', '')} ({mirror.label})")
    for i in range(mirror.n):
        x = fo[i]
        if not exp["terminated"][i]:
            if x is not None:
                _fail(f"info['final_observation'][{i}]: expected None (no game ended), got {type(x).__name__}"
                      f"\n  at {mirror.context(i)}")
            continue
        want = exp["final"][i]
        if not (isinstance(x, np.ndarray) and x.dtype == np.float32 and x.shape == want.shape):
            _fail(f"info['final_observation'][{i}]: expected a float32 array of shape {want.shape}, got "
                  f"{type(x).__name__} {getattr(x, 'dtype', '')} {getattr(x, 'shape', '')}"
                  f"\n  at {mirror.context(i, finished=True)}")
        if not np.array_equal(x, want):
            p, k = (int(t) for t in np.argwhere(~(x == want))[0])
            _fail(f"info['final_observation'][{i}][player {p}][{k}]: vector {x[p, k]!r} != game {want[p, k]!r} "
                  f"({int((~(x == want)).sum())} entries differ)\n  at {mirror.context(i, finished=True)}")


def check_step(vg, mirror: Mirror, out, exp: dict, *, views: bool = False):
    """Exact comparison of ``vg.step(...)``'s output and state with the mirror's."""
    assert isinstance(out, tuple) and len(out) == 5, "step must return (obs, rewards, terminated, truncated, info)"
    obs, rewards, term, trunc, info = out
    n = mirror.n
    # Events first: they show the earliest divergence (a roll, a card) in readable form.
    _check_events(vg, mirror, exp)
    _check_array("terminated", term, exp["terminated"], mirror, finished=True)
    _check_array("rewards", rewards, exp["rewards"], mirror, finished=True)
    _check_array("info['winner']", info["winner"], exp["winner"], mirror, finished=True)
    _check_array("truncated", trunc, np.zeros(n, dtype=bool), mirror)
    _check_array("obs", obs, exp["obs"], mirror)
    for key in ("current_player", "turn", "episode"):
        _check_array(f"info[{key!r}]", info[key], exp[key], mirror)
    if exp["terminated"].any():
        assert "final_observation" in info and "_final_observation" in info, \
            f"info lacks final_observation at step {mirror.step_index} ({mirror.label}) though envs terminated"
        _check_array("info['_final_observation']", info["_final_observation"], exp["terminated"], mirror, True)
        _check_final(info["final_observation"], exp, mirror)
    else:
        assert "final_observation" not in info and "_final_observation" not in info, \
            f"final_observation in info at step {mirror.step_index} ({mirror.label}) with no terminated env"
    _check_common(vg, mirror, exp, views=views)


def _same_array(x, y) -> bool:
    if not (isinstance(x, np.ndarray) and isinstance(y, np.ndarray)):
        return type(x) is type(y) and (x is None or _same_array(np.asarray(x), np.asarray(y)))
    if x.dtype != y.dtype or x.shape != y.shape:
        return False
    if x.dtype == object:  # e.g. per-env arrays or None
        return all(_same_array(p, q) for p, q in zip(x.ravel().tolist(), y.ravel().tolist()))
    return np.array_equal(x, y)


def check_same_outputs(a, b, what: str):
    """Two VectorGame outputs (tuples of arrays and info dicts) are bit-identical."""
    assert len(a) == len(b), what
    for j, (x, y) in enumerate(zip(a, b)):
        if isinstance(x, dict):
            assert sorted(x) == sorted(y), f"{what}: info keys {sorted(x)} != {sorted(y)}"
            for k in x:
                assert _same_array(x[k], y[k]), f"{what}: info[{k!r}] differs"
        else:
            assert x.dtype == y.dtype and x.shape == y.shape, f"{what}: output {j} dtype/shape differ"
            if not np.array_equal(x, y):
                i = int(np.argwhere(~(x == y))[0][0])
                raise AssertionError(f"{what}: output {j} differs first at env {i}")


def check_same_state(a, b, what: str, events: bool = True):
    """Two VectorGames hold the same state: masks, views, players, episodes (and the last events)."""
    for name in ("action_masks",):
        assert np.array_equal(getattr(a, name)(), getattr(b, name)()), f"{what}: {name}() differ"
    for p in (None, 0, 1):
        assert np.array_equal(a.observations(p), b.observations(p)), f"{what}: observations({p}) differ"
    for name in ("current_player", "episodes", "episode_seeds"):
        assert np.array_equal(np.asarray(getattr(a, name)), np.asarray(getattr(b, name))), f"{what}: {name} differ"
    if events and a.record_events and b.record_events:
        for i in range(a.num_envs):
            assert a.events(i) == b.events(i), f"{what}: events({i}) differ"


def legal_random_actions(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """One uniformly random legal action per row of ``masks``."""
    counts = masks.sum(axis=1)
    assert (counts > 0).all(), "an env has no legal action"
    picks = (rng.random(len(masks)) * counts).astype(np.int64)
    out = np.empty(len(masks), dtype=np.int64)
    for i in range(len(masks)):
        out[i] = np.flatnonzero(masks[i])[picks[i]]
    return out


def play_parity(scenario, label, *, num_envs, seed, min_games, rng_seed, rules=None, threads=1,
                twin_threads=None, active_p=None, views=0, resets=(), vector_actions=False, policy=None,
                until=frozenset(), max_steps=200_000):
    """Play a VectorGame (record_events=True) and its Python mirror with the same random legal actions
    until at least ``min_games`` games finished and the compared events exercised every rule named in
    ``until`` (see :func:`rules_exercised`), comparing every output of every step exactly.

    ``twin_threads``: a second VectorGame with that thread count steps the same actions and must give
    bit-identical outputs. ``views``: every ``views`` steps (0: never; always at resets) also compare
    ``observations(None/0/1)`` with both players' views of the Python games.
    ``active_p``: each env is stepped with this probability per step.
    ``resets``: step numbers at which ``reset()`` (None) or ``reset(seed)`` is called on both sides.
    ``vector_actions``: actions come from ``vg.random_actions()`` (checked legal on the Python masks).
    ``policy``: ``policy(game, rng) -> action`` picks each env's action from its Python game instead.

    Returns
    -------
    (int, int, Counter)
        Games finished (by termination), steps played, and :func:`rules_exercised` of all the
        events compared (those of the resets included).
    """
    from atomic_africa.game import VectorGame

    vg = VectorGame(scenario, num_envs, seed, rules=rules, threads=threads, record_events=True)
    twin = None
    if twin_threads is not None:
        twin = VectorGame(scenario, num_envs, seed, rules=rules, threads=twin_threads, record_events=True)
    mirror = Mirror(scenario, num_envs, rules, label)
    rng = np.random.default_rng(rng_seed)
    resets = dict(resets)

    seen, states = Counter(), [{} for _ in range(num_envs)]

    def do_reset(s):
        exp = mirror.reset(s)
        for i, ev in enumerate(exp["events"]):
            seen.update(rules_exercised(ev, states[i], mirror.scenario))
        out = vg.reset(seed=s) if s is not None else vg.reset()
        check_reset(vg, mirror, out, exp, views=True)
        if twin is not None:
            out2 = twin.reset(seed=s) if s is not None else twin.reset()
            check_same_outputs(out, out2, f"{label}: reset on threads={threads} vs threads={twin_threads}")
        return exp

    exp = do_reset(seed)
    done = steps = 0
    while done < min_games or not until <= set(seen):
        assert steps < max_steps, (f"{label}: {done} games after {steps} steps; not yet exercised: "
                                   f"{sorted(until - set(seen))}")
        if steps in resets:
            exp = do_reset(resets[steps])
        if vector_actions:
            actions = vg.random_actions()
            if twin is not None:
                assert np.array_equal(actions, twin.random_actions()), \
                    f"{label}: random_actions() differ between threads={threads} and {twin_threads} at step {steps}"
            ok = exp["masks"][np.arange(num_envs), actions]
            assert ok.all(), (f"random_actions() gave illegal action {actions[~ok][0]} at "
                              f"{mirror.context(int(np.flatnonzero(~ok)[0]))}")
        elif policy is not None:
            actions = np.array([policy(g, rng) for g in mirror.games], dtype=np.int64)
        else:
            actions = legal_random_actions(rng, exp["masks"])
        active = None if active_p is None else rng.random(num_envs) < active_p
        exp = mirror.step(actions, active)
        out = vg.step(actions) if active is None else vg.step(actions, active=active)
        check_step(vg, mirror, out, exp, views=bool(views) and steps % views == 0)
        if twin is not None:
            out2 = twin.step(actions) if active is None else twin.step(actions, active=active)
            check_same_outputs(out, out2, f"{label}: step {steps} on threads={threads} vs threads={twin_threads}")
            for i in range(num_envs):
                assert twin.events(i) == vg.events(i), \
                    f"{label}: events({i}) at step {steps} differ between threads={threads} and {twin_threads}"
        done += int(exp["terminated"].sum())
        steps += 1
        for i, ev in enumerate(exp["events"]):
            seen.update(rules_exercised(ev, states[i], mirror.scenario))
    return done, steps, seen
