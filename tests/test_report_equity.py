"""The game equity section's data (``cardodds/report/equity.py``): every state the page holds
decodes to the figures ``equity(...)`` prints, and the heat map's chances rise with a seat's own
total. The page itself (the lookup and the heat map in a browser) is checked in
``tests/test_report_html.py``."""

from __future__ import annotations

import json

import numpy as np
import pytest

from cardodds.report import equity as E


@pytest.fixture(scope="module")
def data() -> dict:
    return E.lookup_data()


def _figures(d: dict, score, dealer: int) -> list[str]:
    """Each seat's figures at ``score`` (on the page's grid) decoded as the page's script does."""
    n, m, lo, step = d["n"], d["size"], d["lo"], d["step"]
    leader = (dealer + d["shift"]) % n
    idx = 0
    for j in range(n):
        idx = idx * m + (score[(leader + j) % n] - lo) // step
    per = 2 * n - 1
    figs = E.decode(d["codes"][idx * per:(idx + 1) * per], n)
    seats = (figs[(k - leader) % n] for k in range(n))
    return [f"{v / 1000:.3f} [{a / 1000:.3f}, {b / 1000:.3f}]" for v, a, b in seats]


def test_encode_and_decode_a_state_by_hand():
    figs = [(0, 0, 1), (1000, 999, 1000), (0, 0, 0)]
    assert E.decode(E.encode(figs), 3) == figs
    assert E.decode(E.encode([(500, 499, 501), (501, 500, 501)]), 2) == [(500, 499, 501), (501, 500, 501)]
    assert len(E.encode(figs)) == 5 and set(E.encode(figs)) <= set(E.ALPHABET)
    with pytest.raises(ValueError, match="more than 0.001"):
        E.encode([(500, 498, 500), (500, 500, 500)])
    with pytest.raises(ValueError, match="do not sum to 1"):
        E.encode([(500, 500, 500), (502, 502, 502)])


def test_every_table_covers_its_box_below_the_target(data):
    keys = [d["key"] for d in data["games"]]
    assert keys == [g.key for g in E.GAMES] == ["kanalje3", "kanalje2", "canasta"]
    for g, d in zip(E.GAMES, data["games"]):
        assert d["n"] == g.players and d["lo"] == g.lo and d["step"] == g.step
        assert d["lo"] + (d["size"] - 1) * d["step"] < d["target"] <= d["lo"] + d["size"] * d["step"]
        assert len(d["codes"]) == d["size"] ** d["n"] * (2 * d["n"] - 1)
        assert set(d["codes"]) <= set(E.ALPHABET)
    assert [d["shift"] for d in data["games"]] == [1, 1, 1]  # the seat after the dealer leads (moves first)
    assert [d["dealer"] for d in data["games"]] == [2, 1, 0]


def test_the_data_stays_small(data):
    """Inline on the page: well under the room the page's 2 MB leave (measured: 138 KB)."""
    assert len(json.dumps(data, separators=(",", ":"))) < 150_000


@pytest.mark.parametrize("key", ["kanalje3", "kanalje2", "canasta"])
def test_states_decode_to_the_figures_equity_prints(data, key):
    """Scores drawn at random from the box (and the corners), every dealer: the decoded figures are
    ``equity(score, dealer=...).win[k].format(3)``, as ``cardodds <game> equity`` prints them."""
    g = next(g for g in E.GAMES if g.key == key)
    d = next(d for d in data["games"] if d["key"] == key)
    rng = np.random.default_rng(5)
    grid = d["lo"] + d["step"] * np.arange(d["size"])
    scores = [tuple(int(v) for v in rng.choice(grid, g.players)) for _ in range(240)]
    scores += [(int(grid[0]),) * g.players, (int(grid[-1]),) * g.players, g.example]
    checked = 0
    for score in scores:
        for dealer in range(g.players):
            try:
                r = E.result(g, score, dealer)
            except ValueError as e:  # a score sum no game reaches: the page refuses it as well
                assert "no game reaches a score sum" in str(e) and key.startswith("kanalje")
                continue
            assert _figures(d, score, dealer) == [e.format(3) for e in r.win], (score, dealer)
            checked += 1
    assert checked >= 60


def test_the_heat_map_rises_with_my_total_and_falls_with_theirs(data):
    for d in data["games"]:
        for dealer in range(d["n"]):
            for fixed in ([None] if d["n"] == 2 else [{2: d["lo"]}, {2: 5}, {2: 20}]):
                m = E.box(d, dealer=dealer, fixed=fixed)
                assert (np.diff(m, axis=0) >= 0).all() and (np.diff(m, axis=1) <= 0).all(), (d["key"], dealer)
                assert m[-1, 0] - m[0, -1] > 400, (d["key"], dealer, fixed)


def test_the_section_prints_the_scores_as_the_command(tmp_path):
    md = E.write(tmp_path, seed=1, scale=0.01, progress=False).read_text(encoding="utf-8")
    for g in E.GAMES:
        for score in g.scores:
            row = f"| {','.join(map(str, score))} | " + " | ".join(e.format(3) for e in E.result(g, score).win) + " |"
            assert row in md, row
    assert "![P(seat or side 0 wins the game) against its total](equity_chances.png)" in md
    assert (tmp_path / "equity_chances.png").exists() and not list(tmp_path.glob("*.json"))
