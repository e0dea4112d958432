"""Same seed, same figures: public calls of every game and every analysis give the JSON
recorded in ``tests/data/same_counts.json``.

A change that moves or renames code (not one that means to change a figure) must leave every
entry as it is. ``python tests/test_same_counts.py --update`` rewrites the file from the current
code: only do that for a change that changes a random stream on purpose, and say so in its commit.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from cardodds import canasta, kana, kanalje
from cardodds.canasta import CanastaRules
from cardodds.kana import KanaRules
from cardodds.kanalje import KanaljeRules

DATA = Path(__file__).parent / "data" / "same_counts.json"

HAND17 = "Ac Kc 4c 2d 5d 9d Qd 3h 6h Th Qs Js 8s 7s 5s 3s 2s"
#: 13 tricks and one card of the 14th, played at random (seat 2 to play, 9s turned).
ADVISE_PLAYED = ("0: 2d 6d 5d; 1: Ac Tc 9c; 1: 6s 3s 8s; 0: Jc 2c 5c; 0: 7s Qs Js; 1: 4c Kc 8c; 2: 8d 7d Ad; "
                 "1: Kd Td 3c; 1: Qc 3d 7c; 1: 9h Qh Jh; 2: 5h Th 3h; 0: 4s Ks As; 2: Kh 2h Ah; 1: 8h")

#: name -> the call. Small runs: the point is every kernel and every wrapper, not precision.
CALLS = {
    "kana.odds": lambda: kana.odds(4, samples=20_000, rng=1),
    "kana.odds random känä": lambda: kana.odds(rules=KanaRules(players=3, extra_round="all"), kana="random",
                                               samples=20_000, rng=2),
    "kana.exact_odds": lambda: kana.exact_odds(5),
    "kana.live_odds": lambda: kana.live_odds("0: 9h", 3, method="monte carlo", samples=20_000, rng=3),
    "kana.compare": lambda: kana.compare("threshold:8", "blind", players=4, variant="peek-one",
                                         samples=20_000, rng=4),
    "kana.strategy_table": lambda: kana.strategy_table("peek-one", 3, samples=5_000, rng=5),
    "kana.expected_value": lambda: kana.expected_value("threshold:8", 4, "peek-one", samples=20_000, rng=6),
    "kana.advise": lambda: kana.advise(kana.Position("9h ? ?"), rules=KanaRules(4, "peek-one"), samples=20_000,
                                       rng=7),
    "kana.advise peek-all": lambda: kana.advise(kana.Position("9h 5c Kd"), policies="blind",
                                                rules=KanaRules(3, "peek-all"), samples=20_000, rng=8),
    "kana.session": lambda: kana.session("threshold:8,blind,blind,blind", 4, "peek-one", rounds=20,
                                         samples=2_000, rng=9),
    "kanalje.jack_risk heuristic": lambda: kanalje.jack_risk("heuristic", samples=5_000, rng=10),
    "kanalje.jack_risk random 2p": lambda: kanalje.jack_risk("random", rules=KanaljeRules(players=2),
                                                             samples=5_000, rng=11),
    "kanalje.jack_risk lookahead": lambda: kanalje.jack_risk("lookahead,heuristic,random", samples=100,
                                                             lookahead_samples=4, rng=12),
    "kanalje.evaluate_hand": lambda: kanalje.evaluate_hand(kanalje.Hand(HAND17, "7h"), samples=2_000, rng=13),
    "kanalje.strength": lambda: kanalje.strength("heuristic", "random", samples=2_000, rng=14),
    "kanalje.game": lambda: kanalje.game("heuristic", samples=40, rng=15),
    "kanalje.advise": lambda: kanalje.advise(kanalje.Position(seat=2, hand="Ah 2h Qs 3c 4c 5c 6c 7c 8c 9c Tc Qc Kc "
                                                               "Ac 2d 3d 4d", turned="Td", played="0: Kh 3h"),
                                             policies="heuristic", samples=2_000, rng=26),
    "kanalje.advise infer": lambda: kanalje.advise(kanalje.Position(seat=2, hand="4d 5s 9d Qd", turned="9s",
                                                                    played=ADVISE_PLAYED, infer=True),
                                                   policies="random", samples=2_000, rng=27),
    "kanalje.trace": lambda: kanalje.trace("random", hands=["Ac", "2c", "Kc"], turned="5d", leader=1, rng=0),
    "canasta.melds": lambda: canasta.melds(12, samples=20_000, rng=16),
    "canasta.melds weakest": lambda: canasta.melds(11, turns=5, discard="weakest", samples=20_000, rng=17),
    "canasta.hand_odds": lambda: canasta.hand_odds("Kh Kd 9c 4d 5s 6h 7c 8d Th Js Qc 3h", samples=20_000,
                                                   rng=18),
    "canasta.play": lambda: canasta.play("heuristic", samples=300, rng=19),
    "canasta.play mixed": lambda: canasta.play("random,heuristic,heuristic,random",
                                               rules=CanastaRules(wild_limit="three"), samples=300, rng=20),
    "canasta.game": lambda: canasta.game("heuristic", samples=10, rng=21),
    "canasta.strength": lambda: canasta.strength("heuristic", "random", samples=100, rng=22),
    "canasta.house_options": lambda: canasta.house_options(options=["swap_twos=True"], samples=100, rng=23),
    "canasta.advise": lambda: canasta.advise(canasta.Position("K K 9 9 5 7 Q Jk 3b", melds="us: A A A; them: 8 8 8",
                                                              top="K", pile_size=4), samples=100, rng=24),
    "canasta.trace": lambda: canasta.trace("heuristic", rng=25),
}


def as_json(value) -> object:
    """What a call answered, as JSON (a result's ``to_dict()``; a trace as it is)."""
    if hasattr(value, "to_dict"):
        value = value.to_dict()
    return json.loads(json.dumps(value, default=str, sort_keys=True))


def run(name: str) -> object:
    return as_json(CALLS[name]())


def recorded() -> dict:
    return json.loads(DATA.read_text(encoding="utf-8"))


def test_at_least_twenty_calls_over_every_game():
    assert len(CALLS) >= 20
    assert {name.split(".")[0] for name in CALLS} == {"kana", "kanalje", "canasta"}
    assert set(recorded()) == set(CALLS), "tests/data/same_counts.json does not list the same calls"


@pytest.mark.parametrize("name", list(CALLS))
def test_same_seed_same_json(name):
    assert run(name) == recorded()[name]


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit("usage: python tests/test_same_counts.py --update")
    DATA.write_text(json.dumps({name: run(name) for name in CALLS}, indent=1, sort_keys=True) + "\n",
                    encoding="utf-8")
    print(f"wrote {DATA}")
