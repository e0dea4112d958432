"""A record that does not read (what ``cardodds GAME trace`` prints, text or JSON, read by every
game's ``review``) is refused in one line that names the file or the record's line, says what is
wrong and what to give instead; the command exits 2 with no traceback."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from cardodds.review import read_record
from cardodds.trace import Trace

KANALJE = """# cardodds trace: kanalje
players: 3
turned: 2s
0: deal Ac Kc Qc Jh Kh 9h 3d 4d 5d 6d 7d 8d 3s 4s 5s 6s 7s
0: play Ac
1: play 2c  # a note
"""


def refusal(*argv: str, cwd=None) -> str:
    """The one line ``cardodds ARGV`` refuses with (exit status 2, nothing on stdout, no traceback)."""
    p = subprocess.run([sys.executable, "-m", "cardodds.cli", *argv], capture_output=True, text=True, cwd=cwd)
    assert p.returncode == 2 and p.stdout == "" and "Traceback" not in p.stderr, p.stderr
    assert p.stderr.startswith("cardodds: error: ") and p.stderr.count("\n") == 1, p.stderr
    return p.stderr.strip()


# ---- a JSON record cut short ----------------------------------------------------------------------
@pytest.mark.parametrize("game", ["kana", "kanalje", "canasta"])
def test_a_truncated_json_record_names_the_file_the_format_where_it_broke_and_the_fix(game, tmp_path):
    text = json.dumps(Trace.parse(KANALJE.replace("kanalje", game)).to_dict(), indent=2)
    cut = tmp_path / "deal.json"
    cut.write_text(text[:text.index('"moves"') + 12])
    line = text[:text.index('"moves"') + 12].count("\n") + 1
    for message, name in ((str(_refused(cut, game)), cut), (refusal(game, "review", "deal.json", cwd=tmp_path),
                                                          "deal.json")):
        assert f"record '{name}'" in message and "read as a JSON record" in message, message
        assert f"breaks at line {line}, column " in message, message
        assert message.endswith(f"write it again with 'cardodds {game} trace --json'"), message


def _refused(record, game: str) -> ValueError:
    with pytest.raises(ValueError) as e:
        read_record(record, game)
    assert "\n" not in str(e.value)
    return e.value


# ---- comments -------------------------------------------------------------------------------------
RECORDS = {
    "kana": "# cardodds trace: kana\nplayers: 3\nvariant: official\n0: deal 9h 2c Kd\n0: känä 2c  # my note\n",
    "kanalje": KANALJE,
    "canasta": "# cardodds trace: canasta\nplayers: 4\ndealer: 3\nupcard: 5\n0: deal K K Q Q Q 9 8 7 6 4 4 3b\n"
               "0: draw J  # a note\n0: discard J\n",
}


def commented(text: str) -> str:
    """``text`` with a whole-line comment before its header, after it and after every line."""
    lines = text.splitlines()
    out = ["# written at the table, Friday", lines[0], "#"]
    for line in lines[1:]:
        out += [line, "   # a comment, indented"]
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("game", sorted(RECORDS))
def test_a_whole_line_comment_is_read_past_in_every_games_record(game, tmp_path):
    plain = read_record(RECORDS[game], game)
    path = tmp_path / "record.txt"
    path.write_text(commented(RECORDS[game]))
    got = read_record(str(path), game)
    assert got == plain and [m.note for m in got.moves] == [m.note for m in plain.moves]
    # each move keeps the line of the file it was read from
    assert [got.line_of(i) for i in range(len(got.moves))] == [2 * plain.line_of(i)
                                                               for i in range(len(plain.moves))]


@pytest.mark.parametrize("game", sorted(RECORDS))
def test_each_games_review_reads_a_commented_record(game):
    """The game's review reads past the comments to the seats (seat 3 holds no cards there)."""
    review = __import__(f"cardodds.{game}", fromlist=["review"]).review
    with pytest.raises(ValueError, match="the record does not hold its cards"):
        review(commented(RECORDS[game]), seat=2)


def test_a_record_must_begin_with_its_header_comments_aside():
    with pytest.raises(ValueError, match=r"line 2: expected '# cardodds trace: GAME'"):
        read_record("# notes\nplayers: 3\n# cardodds trace: kanalje\n", "kanalje")


# ---- the record's players ------------------------------------------------------------------------
@pytest.mark.parametrize("game, players, words", [
    ("kanalje", 5, "Kanalje is played by 3 players or 2"), ("kanalje", 4, "Kanalje is played by 3 players or 2"),
    ("kana", 18, "Känä is played by 2 to 17 players"), ("canasta", 5, "Polish Canasta is played by 4"),
])
def test_a_records_players_out_of_the_game_is_blamed_on_its_line_not_a_flag(game, players, words, tmp_path):
    text = RECORDS[game].replace("players: 4" if game == "canasta" else "players: 3", f"players: {players}")
    (tmp_path / "deal.txt").write_text(text)
    line = refusal(game, "review", "deal.txt", cwd=tmp_path)
    assert "--players" not in line and "players=" not in line, line
    assert f"record 'deal.txt', line 2 ('players: {players}'): {words}" in line, line
    assert line.endswith("; correct that line"), line
    data = Trace.parse(text).to_dict()
    (tmp_path / "deal.json").write_text(json.dumps(data))
    line = refusal(game, "review", "deal.json", cwd=tmp_path)
    assert "--players" not in line and f'record \'deal.json\', field "players": {players}: {words}' in line, line
    review = __import__(f"cardodds.{game}", fromlist=["review"]).review
    with pytest.raises(ValueError, match=r"the record, line 2 \('players: "):  # the API's names the line too
        review(text)


# ---- a folder -------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", ["kana", "kanalje", "canasta"])
def test_a_folder_given_as_a_record_is_called_a_folder(game, tmp_path):
    (tmp_path / "records").mkdir()
    line = refusal(game, "review", "records", cwd=tmp_path)
    assert line.startswith("cardodds: error: record 'records' is a folder; give the path of a record file"), line
    assert f"'cardodds {game} trace > FILE'" in line and "no such file" not in line, line
    assert "is a folder" in str(_refused(str(tmp_path), game))
