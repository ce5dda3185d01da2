"""examples/mesa_firefight.py: a Mesa model whose step is one resolve_volley call, checked against the reference."""
from __future__ import annotations

from support.volleys import check_every_volley, load_example


def test_each_step_is_one_volley_resolved_as_the_reference_would(monkeypatch):
    mod = load_example("mesa_firefight")
    calls = check_every_volley(monkeypatch)
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
    mod = load_example("mesa_firefight")
    a = mod.run(n_squads=6, steps=12, seed=11)
    b = mod.run(n_squads=6, steps=12, seed=11)
    c = mod.run(n_squads=6, steps=12, seed=12)
    assert a.equals(b)
    assert not a.equals(c)
