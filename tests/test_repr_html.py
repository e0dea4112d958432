"""Every result renders in Jupyter in the report page's table style (one result of each class)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

from cardodds._html import TABLE_CSS
from cardodds.results import Result



def _public_modules() -> list:
    """Every public module of cardodds."""
    import cardodds

    found = []
    for info in pkgutil.walk_packages(cardodds.__path__, "cardodds."):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        found.append(importlib.import_module(info.name))
    return found

HAND = "Ac Kc 4c 2d 5d 9d Qd 3h 6h Th Qs Js 8s 7s 5s 3s 2s"


def _one_of_each(tmp_path) -> dict:
    """A small result of every public result class, by ``module.Class``."""
    from cardodds import canasta, kana, kanalje
    from cardodds.canasta.advise import advise as canasta_advise
    from cardodds.canasta.play import tune
    from cardodds.kana.session import session_table
    from cardodds.sweep import sweep
    from cardodds.warmup import WarmUpResult

    made = [
        kana.odds(3, samples=2_000, rng=1),
        kana.compare("blind-first", "blind-third", players=3, samples=2_000, rng=1),
        kana.strategy_table("peek-one", 2, samples=2_000, rng=1),
        kana.advise(kana.Position("9h ? ?"), rules=kana.KanaRules(3, "peek-one"), samples=2_000, rng=1),
        kana.session("blind", players=3, rounds=5, samples=200, rng=1),
        session_table(3, rounds=3, samples=100, rng=1, max_iterations=1),
        kanalje.jack_risk("heuristic", samples=2_000, rng=1),
        kanalje.evaluate_hand(kanalje.Hand(HAND, "7h"), samples=200, rng=1),
        kanalje.strength("heuristic", "random", samples=200, rng=1),
        kanalje.game("heuristic", samples=20, rng=1),
        kanalje.advise(kanalje.Position(seat=0, hand=HAND, turned="7c"), samples=200, rng=1),
        canasta.melds(12, exact=True, turns=2),
        canasta.hand_odds("Kh Kd 9c 4d 5s 6h 7c 8d Th Js Qc 3h", 2, exact=True),
        canasta_advise(canasta.Position("K K Q 9 5 7 3b", melds="us: A A A", pile="K", pile_size=5), samples=60,
                       rng=2),
        tune(samples=60, grid={"keep_wilds": (2,)}, rng=1),
        canasta.play("heuristic", samples=100, rng=1),
        canasta.game("heuristic", samples=5, rng=1),
        canasta.house_options("heuristic", options=["jokers=6"], samples=100, rng=1),
        canasta.strength("heuristic", "random", samples=50, rng=1),
        canasta.game_strength("heuristic", "random", rules=canasta.CanastaRules(target=1500), samples=2, rng=1),
        kanalje.trace("random", rng=1),
        kanalje.strategy_table("jack"),  # the shipped tables
        kanalje.equity((12, 17, 5)),  # the shipped equity table
        kana.review(kana.trace("threshold:8", players=3, variant="peek-one", rounds=2, first=0, rng=2),
                    samples=2_000, rng=1),
        sweep(tmp_path / "s.sqlite", "canasta.melds", {"jokers": [4]}, samples=2_000, rng=1),
        # what cardodds warm-up reports (running one would compile every kernel again)
        WarmUpResult(rules=None, tasks=(("kana odds", "compiled", 1.5), ("kana advise", "already warm", 0.0)),
                     jobs=2, wall=1.6, cache=str(tmp_path)),
    ]
    return {f"{type(r).__module__}.{type(r).__name__}": r for r in made}


def test_every_result_class_renders_in_the_page_table_style(tmp_path):
    public = {f"{m.__name__}.{name}" for m in _public_modules()
              for name, cls in vars(m).items()
              if inspect.isclass(cls) and issubclass(cls, Result) and cls is not Result and not name.startswith("_")
              and cls.__module__ == m.__name__}
    results = _one_of_each(tmp_path)
    assert set(results) == public
    for name, r in results.items():
        out = r._repr_html_()
        assert out.startswith(f'<div class="cardodds"><style>{TABLE_CSS}</style>'), name
        assert '<table class="co-table">' in out and "<td" in out and out.endswith("</div>"), name


@pytest.mark.parametrize("text", ["<script>", "a & b"])
def test_result_text_is_escaped(text):
    import pandas as pd

    from cardodds._html import result_html

    out = result_html(text, pd.DataFrame({text: [text]}))
    assert text not in out.replace(TABLE_CSS, "")
