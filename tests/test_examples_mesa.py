"""examples/mesa_firefight.py: a Mesa model whose step is one resolve_volley call, checked against the reference."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

import atomic_africa as aa
from atomic_africa import reference as ref

pytest.importorskip("mesa")   # the mesa extra, in the test extras

PATH = Path(__file__).resolve().parents[1] / "examples" / "mesa_firefight.py"


def _example():
    spec = importlib.util.spec_from_file_location("mesa_firefight", PATH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_each_step_is_one_volley_resolved_as_the_reference_would(monkeypatch):
    mod = _example()
    calls = []
    real = aa.batch.resolve_volley

    def checked(target, attack, band, **kw):
        got = real(target, attack, band, **kw)
        want = ref.resolve_volley(target, attack, band, **{k: v for k, v in kw.items() if k != "rules"})
        assert (got.markers.tolist(), got.wounds.tolist()) == (list(want[0]), list(want[1]))
        calls.append(len(target))
        return got

    monkeypatch.setattr(aa.batch, "resolve_volley", checked)
    model = mod.Firefight(n_squads=8, seed=5)
    steps = 0
    while model.running and steps < 30:
        model.step()
        steps += 1
    assert calls and len(calls) == model.volleys <= steps   # at most one fused call a step
    table = model.datacollector.get_model_vars_dataframe()
    assert len(table) == steps + 1 and table["alive_0"].iloc[0] == table["alive_1"].iloc[0] == 8
    # someone fell, and squads only ever leave
    assert table["alive_0"].iloc[-1] + table["alive_1"].iloc[-1] < 16
    assert (table[["alive_0", "alive_1"]].diff().dropna() <= 0).all().all()


def test_same_seed_same_battle_other_seed_another():
    mod = _example()
    a = mod.run(n_squads=6, steps=12, seed=11)
    b = mod.run(n_squads=6, steps=12, seed=11)
    c = mod.run(n_squads=6, steps=12, seed=12)
    assert a.equals(b)
    assert not a.equals(c)
