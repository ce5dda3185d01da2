"""Generated battles: a valid scenario (table, terrain, forces, fire support, objective) from a seed
and a few knobs, balanced by construction.

:func:`scenario_dict` writes the scenario in the TOML layout; :meth:`Scenario.generate
<atomic_africa.game.scenario.Scenario.generate>` validates it into a :class:`Scenario`. Every
value comes from one stream, ``numpy.random.Generator(PCG64(SeedSequence(seed)))``, so a seed and
the knobs give the same battle on every machine.

**Balance by construction.** Side 1 is side 0 turned 180 degrees about the table centre
(``symmetry="point"``, as the packaged default battle) or reflected in the centre line
(``symmetry="mirror"``): every terrain feature, unit and asset of one side has its twin, both sides
have the same experience, and the number of turns is even, so each side activates first in as many
turns (the rules alternate the first Activating player). What remains is the rules' own turn order;
``benchmarks/balance_generated.py`` measures it (player 0's share of decided random-vs-random games
over a sample of maps) and a slow test bounds it.

**The battle.** Each side deploys along its own table edge (the bottom 6-20 % of the table for side
0): a headquarters unit (commander, spotter, comms) and ``units - 1`` more drawn from ``mix``
(infantry sections, light infantry, machine-gun teams with a dispersed heavy weapon, armoured
vehicles with a point heavy weapon; weapon teams and vehicles are attached). The terrain lies
between the deployment zones, in the side's half (and its twin in the other half), covering about
``terrain_density`` of the table: woods (light cover, block line of sight), scrub (light, open),
ruins (heavy, block) and rocks (heavy, block). The objective both sides make for is a central hill
(heavy cover, blocks line of sight) with ``objective=True``: the rules score only the figures left
at the turn limit (RULES.md section 7), so the hill matters as the ground that commands the table.

**Knobs.** Each numeric knob is a value or an inclusive ``(low, high)`` range drawn per map.

========================  ==============================================================  ==============
knob                      meaning                                                          default
========================  ==============================================================  ==============
``size``                  table: ``"small"`` 120x80, ``"medium"`` 150x100, ``"large"``     ``"medium"``
                          180x120 cm, or ``(width_cm, height_cm)``
``terrain_density``       share of the table under terrain features, 0 .. 0.4             0.12
``units``                 units per side (the headquarters included), 1 .. 12              4
``figures``               figures per infantry unit, 2 .. 12                               (3, 5)
``mix``                   weights of the other units' types: ``infantry``,                 infantry only
                          ``light_infantry``, ``weapon_team``, ``vehicle``
``experience``            both sides' level (``green`` .. ``elite``; sets the Training     ``"regular"``
                          die and the hand's bonus) or ``"random"``
``fire_support``          off-board assets per side, 0 .. 3                                1
``turns``                 turn limit, even, 2 .. 40                                       10
``objective``             a central hill                                                  True
``symmetry``              ``"point"`` or ``"mirror"``                                     ``"point"``
========================  ==============================================================  ==============

:func:`capacity` gives the most units, figures, features and assets any map of a set of knobs can
have: the fixed slot counts an environment sampling such maps pads every observation to
(:class:`~atomic_africa.game.scenarios.ScenarioSampler`).
"""
from __future__ import annotations

import math
import numbers

import numpy as np

from .._seeding import seed_sequence

__all__ = ["scenario_dict", "capacity", "KNOBS", "SIZES", "UNIT_TYPES", "GENERATED_FEATURE_SLOTS"]

#: Table sizes by name (cm).
SIZES = {"small": (120.0, 80.0), "medium": (150.0, 100.0), "large": (180.0, 120.0)}
#: The unit types ``mix`` weighs (the headquarters is always the first unit).
UNIT_TYPES = ("infantry", "light_infantry", "weapon_team", "vehicle")
_EXPERIENCE = ("green", "regular", "veteran", "elite")
_TRAINING = {"green": "d6", "regular": "d8", "veteran": "d10", "elite": "d12"}
#: The knobs and their defaults.
KNOBS = {"size": "medium", "terrain_density": 0.12, "units": 4, "figures": (3, 5), "mix": None,
         "experience": "regular", "fire_support": 1, "turns": 10, "objective": True, "symmetry": "point"}
_RANGES = {"terrain_density": (0.0, 0.4), "units": (1, 12), "figures": (2, 12), "fire_support": (0, 3),
           "turns": (2, 40)}
#: Terrain features of one map at most: its half's features, their twins and the objective.
GENERATED_FEATURE_SLOTS = 2 * 8 + 1
_ASSETS = ({"name": "60 mm mortar", "dice": ["d8", "d8", "d8"], "ap": 0, "blast_radius_cm": 6.0},
           {"name": "81 mm mortar", "dice": ["d10", "d8", "d8"], "ap": -1, "blast_radius_cm": 8.0})


def _range(name, value, integer: bool):
    """A knob as (lo, hi), checked against its allowed range."""
    lo_ok, hi_ok = _RANGES[name]
    pair = tuple(value) if isinstance(value, (tuple, list)) else (value, value)
    if len(pair) != 2:
        raise ValueError(f"{name}: expected a number or a (low, high) pair, got {value!r}")
    for x in pair:
        if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Real) \
                or (integer and not isinstance(x, numbers.Integral)) or not math.isfinite(float(x)):
            kind = "an int" if integer else "a finite number"
            raise TypeError(f"{name}: expected {kind} or a (low, high) pair of them, got {value!r}")
        if not lo_ok <= x <= hi_ok:
            raise ValueError(f"{name}: {x!r} is out of range; allowed {lo_ok} .. {hi_ok}")
    if pair[0] > pair[1]:
        raise ValueError(f"{name}: low {pair[0]!r} > high {pair[1]!r}")
    return (int(pair[0]), int(pair[1])) if integer else (float(pair[0]), float(pair[1]))


def _knobs(knobs: dict) -> dict:
    """The knobs checked (unknown names refused), numeric ones as (lo, hi)."""
    unknown = sorted(set(knobs) - set(KNOBS))
    if unknown:
        raise TypeError(f"unknown knob(s) {', '.join(map(repr, unknown))}; allowed {', '.join(KNOBS)}")
    k = {**KNOBS, **knobs}
    size = k["size"]
    if isinstance(size, str):
        if size not in SIZES:
            raise ValueError(f"size: {size!r} is not a table size; allowed {', '.join(map(repr, SIZES))} "
                             f"or (width_cm, height_cm)")
        size = SIZES[size]
    else:
        try:
            w, h = (float(x) for x in size)
        except (TypeError, ValueError):
            raise ValueError(f"size: expected a size name or (width_cm, height_cm), got {size!r}") from None
        if not (60 <= w <= 400 and 40 <= h <= 400):
            raise ValueError(f"size: {size!r} is out of range; allowed 60..400 x 40..400 cm")
        size = (w, h)
    mix = k["mix"] if k["mix"] is not None else {"infantry": 1.0}
    if not isinstance(mix, dict) or not mix:
        raise TypeError(f"mix: expected a dict of weights by unit type ({', '.join(UNIT_TYPES)}), got {mix!r}")
    bad = sorted(set(mix) - set(UNIT_TYPES))
    if bad:
        raise ValueError(f"mix: unknown unit type(s) {', '.join(map(repr, bad))}; allowed {', '.join(UNIT_TYPES)}")
    weights = []
    for t in UNIT_TYPES:
        x = mix.get(t, 0.0)
        if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Real) or not math.isfinite(x) or x < 0:
            raise ValueError(f"mix[{t!r}]: expected a finite weight >= 0, got {x!r}")
        weights.append(float(x))
    if sum(weights) <= 0:
        raise ValueError("mix: at least one weight must be > 0")
    exp = k["experience"]
    if exp != "random" and exp not in _EXPERIENCE:
        raise ValueError(f"experience: {exp!r}; allowed {', '.join(map(repr, _EXPERIENCE))} or 'random'")
    if k["symmetry"] not in ("point", "mirror"):
        raise ValueError(f"symmetry: {k['symmetry']!r}; allowed 'point', 'mirror'")
    if not isinstance(k["objective"], (bool, np.bool_)):
        raise TypeError(f"objective: expected a bool, got {k['objective']!r}")
    turns = _range("turns", k["turns"], True)
    if turns[0] % 2 or turns[1] % 2:
        raise ValueError(f"turns: {k['turns']!r}; allowed even numbers only (each side then activates "
                         f"first in as many turns)")
    return {"size": size, "terrain_density": _range("terrain_density", k["terrain_density"], False),
            "units": _range("units", k["units"], True), "figures": _range("figures", k["figures"], True),
            "mix": np.array(weights) / sum(weights), "experience": exp,
            "fire_support": _range("fire_support", k["fire_support"], True), "turns": turns,
            "objective": bool(k["objective"]), "symmetry": k["symmetry"]}


def capacity(**knobs) -> dict:
    """The most any map of these knobs can hold, per side: ``units``, ``figures`` (all units'),
    ``fire_support``; and ``features`` (both halves and the objective).

    Raises
    ------
    TypeError, ValueError
        On an unknown or invalid knob (the message names it).
    """
    k = _knobs(knobs)
    n = k["units"][1]
    most_figures = 4 + (n - 1) * max(k["figures"][1], 3)
    return {"units": n, "figures": most_figures, "fire_support": k["fire_support"][1],
            "features": GENERATED_FEATURE_SLOTS}


def _draw(rng, pair, integer: bool):
    lo, hi = pair
    if lo == hi:
        return lo
    return int(rng.integers(lo, hi + 1)) if integer else float(rng.uniform(lo, hi))


def _twin(symmetry: str, w: float, h: float):
    if symmetry == "point":
        return lambda x, y: (round(w - x, 3), round(h - y, 3))
    return lambda x, y: (round(x, 3), round(h - y, 3))


_FEATURES = (  # kind, shape, cover, blocks line of sight, weight
    ("Wood", "polygon", "light", True, 0.35),
    ("Scrub", "circle", "light", False, 0.3),
    ("Ruin", "polygon", "heavy", True, 0.2),
    ("Rocks", "circle", "heavy", True, 0.15),
)


def _terrain(rng, w, h, density, objective, twin) -> list:
    """The features of side 0's half (between its deployment zone and the centre line), each with its
    twin, and the central objective."""
    cx, cy = w / 2, h / 2
    out, boxes = [], []
    obj_r = round(0.07 * min(w, h), 1)
    if objective:
        out.append({"name": "Objective: the hill", "shape": "circle", "center": [cx, cy], "radius": obj_r,
                    "cover": "heavy", "blocks_los": True})
        boxes.append((cx - obj_r, cy - obj_r, cx + obj_r, cy + obj_r))
    target = density * w * h / 2          # area of one half's features
    area, tries, placed = 0.0, 0, 0
    y_lo, y_hi = 0.27 * h, 0.5 * h - 1.0
    weights = np.array([f[4] for f in _FEATURES])
    while area < target and placed < (GENERATED_FEATURE_SLOTS - 1) // 2 and tries < 200:
        tries += 1
        kind, shape, cover, blocks, _ = _FEATURES[int(rng.choice(len(_FEATURES), p=weights / weights.sum()))]
        if shape == "circle":
            r = float(rng.uniform(0.04, 0.07) * min(w, h))
            x, y = float(rng.uniform(r + 2, w - r - 2)), float(rng.uniform(y_lo + r, y_hi - r))
            box = (x - r, y - r, x + r, y + r)
        else:
            fw, fh = float(rng.uniform(0.08, 0.18) * w), float(rng.uniform(0.08, 0.16) * h)
            x, y = float(rng.uniform(2, w - fw - 2)), float(rng.uniform(y_lo, y_hi - fh))
            box = (x, y, x + fw, y + fh)
        if box[3] > y_hi or any(not (box[2] + 3 < b[0] or b[2] + 3 < box[0] or box[3] + 3 < b[1]
                                     or b[3] + 3 < box[1]) for b in boxes):
            continue
        boxes.append(box)
        placed += 1
        name = f"{kind} {placed}"
        if shape == "circle":
            area += math.pi * r * r
            first = {"shape": "circle", "center": [round(x, 3), round(y, 3)], "radius": round(r, 3)}
            second = {"shape": "circle", "center": list(twin(x, y)), "radius": round(r, 3)}
        else:
            area += (box[2] - box[0]) * (box[3] - box[1])
            # a slightly irregular quadrilateral (a wood's edge, a ruin's walls)
            j = rng.uniform(-0.15, 0.15, size=(4, 2)) * np.array([box[2] - box[0], box[3] - box[1]]) / 2
            corners = [(box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])]
            pts = [(min(max(px + dx, box[0]), box[2]), min(max(py + dy, box[1]), box[3]))
                   for (px, py), (dx, dy) in zip(corners, j)]
            first = {"shape": "polygon", "points": [[round(px, 3), round(py, 3)] for px, py in pts]}
            second = {"shape": "polygon", "points": [list(twin(px, py)) for px, py in pts]}
        for tag, f in ((" (side 0's half)", first), (" (side 1's half)", second)):
            out.append({"name": name + tag, **f, "cover": cover, "blocks_los": blocks})
    return out


def _units(rng, k, w, h, experience) -> list:
    """Side 0's units along its deployment edge."""
    n = _draw(rng, k["units"], True)
    kinds = ["hq"] + [UNIT_TYPES[int(i)] for i in rng.choice(len(UNIT_TYPES), size=n - 1, p=k["mix"])]
    # x positions spread over the table's width, each in its own column (no two units on one spot)
    cols = np.sort(rng.permutation(n)) if n else []
    xs = [(c + 0.5 + float(rng.uniform(-0.25, 0.25))) * w / n for c in cols]
    order = rng.permutation(n)
    training = _TRAINING[experience]
    out = []
    for j, kind in enumerate(kinds):
        x = round(float(np.clip(xs[order[j]], 3.0, w - 3.0)), 3)
        y = round(float(rng.uniform(0.06, 0.2) * h), 3)
        figs = _draw(rng, k["figures"], True)
        if kind == "hq":
            u = {"name": "HQ", "kind": "infantry", "figures": 4, "dice": [training, "d8", "d10"], "armor": 2,
                 "commander": True, "spotter": True, "comms": True}
        elif kind == "infantry":
            u = {"name": f"Section {j}", "kind": "infantry", "figures": figs, "dice": [training, "d10", "d6"],
                 "armor": 2}
        elif kind == "light_infantry":
            u = {"name": f"Scouts {j}", "kind": "light_infantry", "figures": figs, "dice": [training, "d8", "d8"],
                 "armor": 1}
        elif kind == "weapon_team":
            u = {"name": f"MG team {j}", "kind": "infantry", "figures": 3, "dice": ["d8", "d10", "d8"], "armor": 2,
                 "attached": True, "heavy_weapon": {"dispersed": -1}}
        else:
            u = {"name": f"Armoured car {j}", "kind": "vehicle", "figures": 1, "dice": [training, "d10", "d8"],
                 "armor": 3, "heavy_weapon": {"point": -1, "dispersed": 0}}
        u["position"] = [x, y]
        out.append(u)
    return out


def scenario_dict(seed, **knobs) -> dict:
    """A generated battle in the scenario TOML layout (see the module notes for the knobs).

    Parameters
    ----------
    seed : int
        Non-negative.
    **knobs
        :data:`KNOBS` (any subset).

    Returns
    -------
    dict
        For :meth:`Scenario.from_dict <atomic_africa.game.scenario.Scenario.from_dict>`.

    Raises
    ------
    TypeError, ValueError
        On a bad seed or an unknown or invalid knob (the message names it and the allowed values).
    """
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValueError(f"seed: expected a non-negative int, got {seed!r}")
    k = _knobs(knobs)
    rng = np.random.Generator(np.random.PCG64(seed_sequence(int(seed), "seed")))
    w, h = k["size"]
    density = _draw(rng, k["terrain_density"], False)
    turns = _draw(rng, k["turns"], True)
    turns += turns % 2
    experience = k["experience"] if k["experience"] != "random" else _EXPERIENCE[int(rng.integers(4))]
    twin = _twin(k["symmetry"], w, h)
    terrain = _terrain(rng, w, h, density, k["objective"], twin)
    units = _units(rng, k, w, h, experience)
    assets = [dict(_ASSETS[int(rng.integers(len(_ASSETS)))]) for _ in range(_draw(rng, k["fire_support"], True))]
    assets = [{**a, "name": f"{a['name']} {i}"} for i, a in enumerate(assets)]
    red = [{**u, "position": list(twin(*u["position"]))} for u in units]
    return {"name": f"Generated battle {int(seed)}", "table": {"width_cm": w, "height_cm": h}, "turns": turns,
            "terrain": terrain,
            "sides": [{"name": "Blue", "experience": experience, "units": units, "fire_support": assets},
                      {"name": "Red", "experience": experience, "units": red,
                       "fire_support": [dict(a) for a in assets]}]}
