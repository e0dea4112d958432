"""The trace every game's ``trace`` returns: text, JSON and a frame, each read back the same."""

from __future__ import annotations

import json

import pytest

from cardodds import canasta, kana, kanalje
from cardodds.cli import main as cli
from cardodds.trace import Move, Trace

TRACES = {
    "kana": lambda: kana.trace("threshold:8,blind,blind", players=3, variant="peek-one", rounds=4, rng=2),
    "kanalje": lambda: kanalje.trace("heuristic", rng=3),
    "kanalje two": lambda: kanalje.trace("random", rules=kanalje.KanaljeRules(players=2), rng=4),
    "canasta": lambda: canasta.trace("heuristic", rng=5),
}


@pytest.mark.parametrize("name", list(TRACES))
def test_a_trace_reads_back_from_its_text_and_its_json(name, tmp_path):
    t = TRACES[name]()
    back = Trace.parse(str(t))
    assert (back.game, back.players, back.moves, back.info, back.result, back.seed) == \
           (t.game, t.players, t.moves, t.info, t.result, t.seed)
    from_json = Trace.from_dict(json.loads(json.dumps(t.to_dict())))
    assert from_json.rules == t.rules.to_dict()  # the rules as their dict: the game's own object builds from it
    assert from_json == Trace(t.game, t.players, t.moves, info=t.info, result=t.result, rules=from_json.rules,
                              seed=t.seed)
    t.save(tmp_path / "t.txt")
    (tmp_path / "t.json").write_text(json.dumps(t.to_dict()))
    assert Trace.read(tmp_path / "t.txt").moves == Trace.read(tmp_path / "t.json").moves == t.moves
    frame = t.to_frame()
    assert len(frame) == len(t.moves) and list(frame.columns) == ["move", "seat", "action", "cards", "note"]
    assert all(0 <= m.seat < t.players for m in t.moves)


def test_every_card_of_a_kanalje_deal_is_dealt_once_and_played_once():
    for rules in (kanalje.KanaljeRules(), kanalje.KanaljeRules(players=2)):
        t = kanalje.trace("heuristic", rules=rules, rng=11)
        dealt = [c for m in t.moves if m.action in ("deal", "take", "draw") for c in m.cards]
        played = [c for m in t.moves if m.action == "play" for c in m.cards]
        held = {s: [c for m in t.moves if m.seat == s and m.action in ("deal", "take", "draw") for c in m.cards]
                for s in range(rules.players)}
        assert sorted(played) == sorted(dealt)
        assert len(set(played)) == len(played) == (51 if rules.players == 3 else 52)
        assert all(sorted(c for m in t.moves if m.seat == s and m.action == "play" for c in m.cards) == sorted(h)
                   for s, h in held.items())  # a seat plays the cards it was dealt or took or drew
        tricks = sum(t.result["tricks"])
        wins = sum(m.action == "win" for m in t.moves)  # two players: 13 tricks of phase 1, 13 that score
        assert (tricks, wins) == ((17, 17) if rules.players == 3 else (13, 26))
        assert sum(t.result["score"]) == tricks - sum(t.result["penalty"])


def test_a_given_kanalje_deal_is_played_as_given():
    t = kanalje.trace("random", hands=["Ac Kc", "Qc 2d", "3c 4d"], turned="2h", leader=1)
    assert t.moves[:3] == (Move(0, "deal", ("Kc", "Ac")), Move(1, "deal", ("2d", "Qc")), Move(2, "deal", ("3c", "4d")))
    assert t.moves[3].seat == 1 and t.info == {"policies": "random, random, random", "leader": "1", "turned": "2h"}
    with pytest.raises(ValueError, match="turned= and stock= come with hands="):
        kanalje.trace("random", turned="2h")


@pytest.mark.parametrize("text,message", [
    ("", "line 1: expected '# cardodds trace: GAME'"),
    ("# cardodds trace: chess\nplayers: 2", "game 'chess': a trace is of one of kana, kanalje, canasta"),
    ("# cardodds trace: kanalje\n0: play Ac", "no 'players: N' line"),
    ("# cardodds trace: kanalje\nplayers: three", "line 2: players is a whole number, got 'three'"),
    ("# cardodds trace: kanalje\nplayers: 3\n0 play Ac", "line 3: expected 'seat: action cards'"),
    ("# cardodds trace: kanalje\nplayers: 3\n3: play Ac", "seat 3 moves at a table of 3 players"),
    ("# cardodds trace: kanalje\nplayers: 3\n1:", "line 3: seat 1 has no action"),
    ("# cardodds trace: kanalje\nplayers: 3\nresult score: 1 x 0", "line 3: a result is numbers, got '1 x 0'"),
    ("# cardodds trace: kanalje\nplayers: 3\nseed: -4", "line 3: the seed is a whole number, got '-4'"),
])
def test_a_text_that_is_not_a_trace_is_one_line_naming_the_line(text, message):
    with pytest.raises(ValueError) as e:
        Trace.parse(text)
    assert str(e.value).startswith(message) and "\n" not in str(e.value)


def test_json_that_is_not_a_trace_says_so():
    with pytest.raises(ValueError, match="not a cardodds trace"):
        Trace.from_dict({"game": "kanalje"})


@pytest.mark.parametrize("argv,call", [
    (["kanalje", "trace", "--policies", "random", "--seed", "6"], lambda: kanalje.trace("random", rng=6)),
    (["kanalje", "trace", "--players", "2", "--seed", "6"],
     lambda: kanalje.trace(rules=kanalje.KanaljeRules(players=2), rng=6)),
    (["kanalje", "trace", "--hands", "Ac Kc; Qc 2d; 3c 4d", "--turned", "2h", "--seed", "1"],
     lambda: kanalje.trace(hands=["Ac Kc", "Qc 2d", "3c 4d"], turned="2h", rng=1)),
    (["canasta", "trace", "--policies", "random", "--seed", "6"], lambda: canasta.trace("random", rng=6)),
    (["kana", "trace", "--players", "3", "--rounds", "5", "--first-player", "0", "--seed", "6"],
     lambda: kana.trace(players=3, rounds=5, first=0, rng=6)),
])
def test_every_games_trace_command_prints_the_trace_and_its_json(argv, call, capsys):
    want = call()
    assert cli(argv) == 0
    assert Trace.parse(capsys.readouterr().out) == Trace.parse(str(want))
    assert cli(argv + ["--json"]) == 0
    assert Trace.from_dict(json.loads(capsys.readouterr().out)).moves == want.moves


def test_a_bad_deal_is_one_line_naming_the_flag(capsys):
    assert cli(["kanalje", "trace", "--hands", "Ac Kc; Qc"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "give 3 hands" in err
