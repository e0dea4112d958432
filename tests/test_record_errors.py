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
turned: 8c
0: deal Ac Kc
0: play Ac
1: play 2c
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
