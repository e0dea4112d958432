"""The report's web page, ``index.html``, checked in a real browser (headless Chromium).

The report is built once at a tiny scale; the page is opened from its ``file://`` URL. Without
Chromium the tests that open it are skipped with the line that installs it, and fail under
``CI=true`` (the ``chromium`` fixture of ``conftest.py``).
"""

from __future__ import annotations

import importlib
import io
import json
import re
import shutil
from pathlib import Path

import pytest

from cardodds.kana.policies import combos
from cardodds.report import SECTIONS, build
from cardodds.report.browser import INSTALL, open_browser, screenshots, set_viewport

from .conftest import browser_or_skip

SEED, SCALE = 7, 0.002
#: The module of the shipped tables (``from cardodds.kana import equilibrium`` is the function).
kana_equilibrium = importlib.import_module("cardodds.kana.equilibrium")
RANK_NAMES = {"T": "10"}


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("report")
    build(out, seed=SEED, scale=SCALE)
    return out


@pytest.fixture(scope="module")
def browser(chromium):
    driver = open_browser()  # installed but failing to start: an error, never a skip
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def loaded(browser, built) -> dict:
    """The page opened once; its console messages and network requests while it loaded."""
    url = (built / "index.html").as_uri()
    browser.get(url)
    console = browser.get_log("browser")
    events = [json.loads(e["message"])["message"] for e in browser.get_log("performance")]
    requests = [m["params"]["request"]["url"] for m in events if m["method"] == "Network.requestWillBeSent"]
    return {"url": url, "console": console, "requests": requests}


@pytest.fixture
def page(browser, loaded):
    """The loaded page at desktop size, its light colour scheme and screen media restored after a test."""
    set_viewport(browser, 1280, 900)
    yield browser
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": []})
    set_viewport(browser, 1280, 900)


def _data(built: Path, section: str):
    text = (built / "index.html").read_text(encoding="utf-8")
    m = re.search(rf'<script type="application/json" id="data-{section}">(.*?)</script>', text, re.S)
    return json.loads(m.group(1).replace("<\\/", "</"))


# ---- the file ------------------------------------------------------------------------------------
def test_page_is_one_small_self_contained_file(built):
    text = (built / "index.html").read_text(encoding="utf-8")
    assert (built / "index.html").stat().st_size < 2_000_000
    # Nothing to fetch: no external source, link, stylesheet or font (SVG namespaces are names, not requests).
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)|@import|url\(\s*["']?(https?:|//)|@font-face""", text)
    assert not re.search(r"<(img|link|iframe|object|embed)\b", text)
    assert not list(built.glob("*.svg")) and not list(built.glob("*.lookup.json"))  # parts only inside the page


def test_page_has_every_section_chart_and_figure_of_the_markdown(built):
    text = (built / "index.html").read_text(encoding="utf-8")
    for name in SECTIONS:
        md = (built / f"{name}.md").read_text(encoding="utf-8")
        assert f'<section id="{name}"' in text and f'href="#{name}"' in text
        charts = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", md)
        part = (built / f"{name}.part.html").read_text(encoding="utf-8")
        assert part.count("<svg ") == len(charts) > 0, name
        # every interval printed in the markdown is printed on the page
        for interval in set(re.findall(r"[-+]?\d[\d.,]*%? \[[-+]?[\d.]+, [-+]?[\d.]+\]", md)):
            assert interval in text, (name, interval)


def test_every_id_is_unique_and_every_in_page_link_has_its_target(built):
    """Headings, sections, lookups and every chart's own SVG ids: one element an id, so that a
    link (the strategy section's "Kanalje" among them) jumps where it says."""
    text = (built / "index.html").read_text(encoding="utf-8")
    ids = re.findall(r"""\sid\s*=\s*["']([^"']+)["']""", text)
    repeated = sorted({i for i in ids if ids.count(i) > 1})
    assert len(ids) > 100 and repeated == [], repeated[:20]
    links = set(re.findall(r"""href\s*=\s*["']#([^"']*)["']""", text)) | set(re.findall(r"url\(#([^)]+)\)", text))
    assert links and sorted(links - set(ids)) == []
    strategy = (built / "strategy.part.html").read_text(encoding="utf-8")
    assert all(h.startswith("strategy") for h in re.findall(r'<h\d id="([^"]+)"', strategy))


def test_page_rebuilds_byte_for_byte_and_a_section_updates_its_part(built, tmp_path):
    same, other = tmp_path / "same", tmp_path / "other"
    shutil.copytree(built, same)
    shutil.copytree(built, other)
    build(same, seed=SEED, scale=SCALE, sections=["kana"])
    assert (same / "index.html").read_bytes() == (built / "index.html").read_bytes()
    build(other, seed=SEED + 1, scale=SCALE, sections=["kana"])
    page = (other / "index.html").read_text(encoding="utf-8")
    assert f"seed {SEED + 1}" in (other / "kana.part.html").read_text(encoding="utf-8")
    for name in SECTIONS:
        part = (other / f"{name}.part.html").read_text(encoding="utf-8")
        assert part in page
        assert (part == (built / f"{name}.part.html").read_text(encoding="utf-8")) == (name != "kana"), name


# ---- in the browser ------------------------------------------------------------------------------
def test_no_console_errors_and_no_network_requests(loaded):
    assert [e for e in loaded["console"] if e["level"] in ("SEVERE", "WARNING")] == []
    assert set(loaded["requests"]) == {loaded["url"]}  # the page itself, nothing more


def test_every_section_is_shown(page):
    shown = page.execute_script(
        "return Array.from(document.querySelectorAll('section.report'), s => [s.id, s.getBoundingClientRect().height,"
        " s.querySelectorAll('svg').length])")
    assert [s[0] for s in shown] == list(SECTIONS)
    assert all(h > 300 and charts > 0 for _, h, charts in shown), shown


_LOOKUP = """
const [id, inputs] = arguments, box = document.getElementById(id), f = box.querySelector("form").elements;
const set = (name, value) => { f[name].value = String(value); f[name].dispatchEvent(new Event("change")); };
return inputs.map(input => {
  for (const [name, value] of input) set(name, value);
  return Object.fromEntries(Array.from(box.querySelectorAll("[data-out]"), el => [el.dataset.out, el.textContent]));
});
"""


def _options(page, box: str, name: str) -> list[str]:
    return page.execute_script(f"return Array.from(document.querySelector('#{box} select[name={name}]').options,"
                               " o => o.value)")


def test_kana_lookup_answers_every_input_as_the_equilibrium_tables(page, built):
    """Every input of the Känä lookup (both variants, 2..8 players, every rank and every
    three-card hand) answers as the tables: the report's (``kana_equilibrium.json``) and, for
    the peek-all player counts the report does not compute, the built ones shipped with the
    package (their actions, and their rows as ``built_table`` gives them)."""
    report = json.loads((built / "kana_equilibrium.json").read_text())
    shipped = json.loads((Path(kana_equilibrium.__file__).with_name(kana_equilibrium.BUILT_FILE)).read_text())
    tables = {**shipped, **report}
    data = _data(built, "kana")
    ranks, keys = data["ranks"], ["".join(c) for c in combos()]
    assert sorted(data["built"]) == sorted(shipped) and not set(shipped) & set(report)
    for key in data["built"]:  # the page's rows of a built table are the package's, printed as the report prints
        variant, p = key.split("/")
        b = kana_equilibrium.built_table(variant, int(p))
        assert data[variant][p] == [[k, a, w.format(4), m.format(4, sign=True), not m.contains_zero()]
                                    for k, a, w, m in b.rows], key
        assert data["source"][variant][p].startswith(f"the table shipped with the package (seed {b.seed}, ")
    assert _options(page, "lookup-kana", "variant") == ["peek-one", "peek-all"]
    inputs, expected = [], []
    for variant in ("peek-one", "peek-all"):
        players = sorted(int(k.split("/")[1]) for k in tables if k.startswith(variant + "/"))
        assert players == list(range(2, 9)), variant
        inputs.append([("variant", variant)])
        expected.append(None)
        for p in players:
            actions, rows = tables[f"{variant}/{p}"]["actions"], {r[0]: r for r in data[variant][str(p)]}
            for i, key in enumerate(ranks if variant == "peek-one" else keys):
                name = RANK_NAMES.get(key, key)
                if variant == "peek-one":
                    inputs.append([("players", p), ("rank", key)])
                    action = (f"känä the peeked {name}" if actions[i] == 0
                              else f"keep the peeked {name}, känä an unseen card")
                else:  # the cards in another order than the table's: high, low, middle
                    inputs.append([("players", p), ("card0", key[2]), ("card1", key[0]), ("card2", key[1])])
                    card = key[actions[i]]
                    action = f"känä the {RANK_NAMES.get(card, card)}"
                better = rows[key][4]
                bounds = re.search(r"\[(\S+), (\S+)\]", rows[key][3])  # nan when no deal had the key
                lo, hi = (float(x) for x in bounds.groups()) if bounds else (float("nan"),) * 2
                assert better if (lo > 0 or hi < 0) else (not better or lo == 0 or hi == 0), rows[key]
                expected.append({"action": action, "win": rows[key][2], "margin": rows[key][3],
                                 "verdict": "better than the next best at this precision" if better
                                 else "no action is better at this precision: either will do",
                                 "source": data["source"][variant][str(p)]})
    got = page.execute_script(_LOOKUP, "lookup-kana", inputs)
    assert len(got) == len(expected) == 1 + 7 * 13 + 1 + 7 * 455
    for i, (g, e) in enumerate(zip(got, expected)):
        assert e is None or g == e, (inputs[i], g, e)
    for variant in ("peek-one", "peek-all"):  # the player counts offered are those of the tables
        page.execute_script(_LOOKUP, "lookup-kana", [[("variant", variant)]])
        offered = [int(p) for p in _options(page, "lookup-kana", "players")]
        assert offered == sorted(int(k.split("/")[1]) for k in tables if k.startswith(variant + "/"))
    # The 4-player peek-one answers are those of kana.md's detail table.
    md = (built / "kana.md").read_text(encoding="utf-8")
    for key, row in {r[0]: r for r in data["peek-one"]["4"]}.items():
        assert re.search(rf"^\| {key} \| {row[1]} \| [^|]+ \| {re.escape(row[2])} \| {re.escape(row[3])} \|$", md, re.M)


def test_kanalje_lookup_answers_every_holding(page, built):
    data = _data(built, "kanalje")
    inputs, expected = [], []
    for lineup, d in data["lineups"].items():
        rows = {(r[0], r[1], r[2]): r for r in d["rows"]}
        for suit, _, _ in data["jacks"]:
            for length in range(1, 14):
                for trump in (0, 1):
                    inputs.append([("lineup", lineup), ("jack", suit), ("held", length), ("trump", trump)])
                    r = rows.get((suit, trump, length))
                    expected.append({"p": r[4], "deals": f"from {r[3]:,} deals with this holding"} if r else
                                    {"p": "not seen", "deals": f"no deal among {d['deals']:,} had this holding"})
    got = page.execute_script(_LOOKUP, "lookup-kanalje", inputs)
    assert got == expected
    assert sum(1 for e in expected if e["p"] != "not seen") == sum(len(d["rows"]) for d in data["lineups"].values())


def page_verdict(c, unit: str) -> str:
    """A strategy cell's verdict as the lookup words it."""
    return {"none": "", "too few": "no action was seen on 20 positions or more here",
            "only": "the only action seen on 20 positions or more here",
            "best": "better than every other action at this precision",
            "equal": f"equal within {c.equal_within:g} {unit}: any of them will do",
            "undecided": "no action is better at this precision"}[c.kind]


def test_strategy_lookup_answers_every_cell_as_the_shipped_tables(page, built):
    """Every game, table and situation of the strategy lookup answers as the shipped tables
    (``strategy_table()``, read in Python), with the positions each cell rests on, and the
    situation's choices follow the table."""
    from cardodds.report.strategy import GAMES, shipped_tables

    inputs, expected, choices = [], [], []
    for (game, _), result in zip(GAMES, shipped_tables()):
        for t in result.tables:
            choices.append(([("game", game), ("table", t.name)], [list(v) for _, v in t.spec.dims]))
            for c in t.cells:
                inputs.append([("game", game), ("table", t.name)] + [(f"d{i}", v) for i, v in enumerate(c.key)])
                margin = ("" if c.margin is None or c.kind in ("only", "too few", "none")
                          else f"{c.margin.format(2, sign=True)} {t.spec.unit} against {c.next}")
                action = {"none": "no position of this kind was drawn", "too few": "too few positions to say",
                          "best": c.best, "only": c.best}.get(c.kind) or " or ".join(c.group)
                few = "".join(f"{'; too few to count: ' if i == 0 else ', '}{a} ({c.values[a].n:,})"
                              for i, a in enumerate(c.too_few))
                expected.append({"action": action, "margin": margin, "verdict": page_verdict(c, t.spec.unit),
                                 "positions": f"from {c.positions:,} positions{few}"})
    assert page.execute_script(_LOOKUP, "lookup-strategy", inputs) == expected
    assert any(e["verdict"].startswith("better") for e in expected)
    jack = inputs.index([("game", "kanalje"), ("table", "jack"), ("d0", "3rd"), ("d1", "4+"), ("d2", "both")])
    assert expected[jack]["action"] == "duck" and expected[jack]["positions"].startswith("from 1,098 positions")
    data_dims = _data(built, "strategy")["dims"]
    for setting, values in choices:
        page.execute_script(_LOOKUP, "lookup-strategy", [setting])
        shown = [_options(page, "lookup-strategy", f"d{i}") for i in range(len(values))]
        hidden = page.execute_script("return Array.from({length: arguments[0]}, (_, i) => document.querySelector("
                                     "'#lookup-strategy [data-field=d' + i + ']').hidden)", data_dims)
        assert shown == values and hidden == [i >= len(values) for i in range(data_dims)], setting


def test_canasta_house_options_sort_by_their_effect(page, built):
    options = _data(built, "canasta_play")["options"]
    read = ("return Array.from(document.querySelectorAll('#lookup-canasta_play tbody tr'),"
            " r => [r.dataset.name, r.cells[1].textContent])")
    click = "document.querySelector('#lookup-canasta_play button[data-key=' + arguments[0] + ']').click()"

    def shown(o):
        return [o[0], o[1] + ("" if o[3] else " (no difference at this precision)")]

    assert page.execute_script(read) == [shown(o) for o in options]
    page.execute_script(click, "value")
    assert page.execute_script(read) == [shown(o) for o in sorted(options, key=lambda o: -(o[2] or 0))]
    page.execute_script(click, "value")
    assert page.execute_script(read) == [shown(o) for o in sorted(options, key=lambda o: o[2] or 0)]
    page.execute_script(click, "name")
    assert page.execute_script(read) == [shown(o) for o in sorted(options)]


def _equity_game(key: str):
    from cardodds.report.equity import GAMES

    return next(g for g in GAMES if g.key == key)


def _equity_inputs(key: str, score, dealer: int) -> list:
    return [("game", key), ("dealer", dealer)] + [(f"s{k}", v) for k, v in enumerate(score)]


#: Scores of each table on the page's grid (three or more a game, every dealer asked).
EQUITY_SCORES = {"kanalje3": [(12, 17, 5), (0, 0, 0), (18, 18, 15), (-3, 20, 10), (20, 19, 19)],
                 "kanalje2": [(12, 18), (0, 0), (20, 19), (-4, 10)],
                 "canasta": [(6200, 5400), (0, 0), (9900, 9800), (-2000, 3500)]}


def test_equity_lookup_answers_as_the_api(page, built):
    """Each seat's chance is ``equity(score, dealer=...)``'s, printed as the command prints it
    (computed here by the Python API), with who deals and who leads."""
    from cardodds.report.equity import result

    inputs, expected = [], []
    for key, scores in EQUITY_SCORES.items():
        g = _equity_game(key)
        for score in scores:
            for dealer in range(g.players):
                r = result(g, score, dealer)
                first = "moves first" if g.game == "canasta" else "leads"
                inputs.append(_equity_inputs(key, score, dealer))
                expected.append({
                    "head": f"{g.name} to {r.table.target:,}: {r.label} {dealer} deals ({r.label} {r.leader} {first})",
                    "message": "", "read": "",
                    **{f"who{k}": f"{r.label} {k}" + (f" (seats {k}+{k + 2})" if g.game == "canasta" else "")
                       for k in range(3) if k < g.players},
                    **{f"total{k}": str(score[k]) if k < g.players else "" for k in range(3)},
                    **{f"win{k}": r.win[k].format(3) if k < g.players else "" for k in range(3)}})
    got = page.execute_script(_LOOKUP, "lookup-equity", inputs)
    for i, (g_, e) in enumerate(zip(got, expected)):
        assert {k: v for k, v in g_.items() if k in e} == e, inputs[i]
    assert len(got) == 5 * 3 + 4 * 2 + 4 * 2
    # the dealers offered are the game's seats (sides), the lookup opens on the game's example
    assert _options(page, "lookup-equity", "game") == ["kanalje3", "kanalje2", "canasta"]
    page.execute_script(_LOOKUP, "lookup-equity", [[("game", "canasta")]])
    assert _options(page, "lookup-equity", "dealer") == ["0", "1"]
    shown = page.execute_script(_LOOKUP, "lookup-equity", [[("game", "kanalje3")]])[0]
    assert shown["win1"] == result(_equity_game("kanalje3"), (12, 17, 5)).win[1].format(3)
    # a Canasta score between the page's grid points is read at the nearest, and says so
    off = page.execute_script(_LOOKUP, "lookup-equity", [_equity_inputs("canasta", (6230, 5390), 0)])[0]
    on = result(_equity_game("canasta"), (6200, 5400), 0)
    assert [off["win0"], off["win1"]] == [e.format(3) for e in on.win]
    assert off["read"].startswith("read at 6200,5400, the page's nearest scores") and "--score 6230,5390" in off["read"]


def test_equity_lookup_refuses_as_the_command(page, built):
    """A decided game, a score sum no game reaches, a total that is not a Canasta score: the
    API's refusal, word for word; a total past the page's box: the command that reads it."""
    from cardodds.report.equity import result

    cases = [("kanalje3", (21, 17, 5), 2), ("kanalje3", (12, 25, 5), 0), ("kanalje2", (21, 9), 1),
             ("kanalje3", (2, 0, 0), 2), ("kanalje2", (12, 17), 1), ("canasta", (10100, 5400), 0),
             ("canasta", (6000, 10000), 1), ("canasta", (6203, 5400), 0), ("kanalje3", (12, -30, 5), 2)]
    inputs, expected = [], []
    for key, score, dealer in cases:
        with pytest.raises(ValueError) as refused:
            result(_equity_game(key), score, dealer)
        inputs.append(_equity_inputs(key, score, dealer))
        expected.append(str(refused.value))
    assert "the game is over at 21,17,5: seat 0 has reached 21 alone at the top" in expected
    past = [_equity_inputs("kanalje3", (12, -8, 5), 2), _equity_inputs("kanalje3", (21, 21, 5), 2),
            _equity_inputs("canasta", (-2500, 0), 0)]
    got = page.execute_script(_LOOKUP, "lookup-equity", inputs + past)
    assert [g["message"] for g in got[:len(cases)]] == expected
    assert all(g["head"] == "" and g["win0"] == "" for g in got)
    assert [g["message"] for g in got[len(cases):]] == [
        "a total below -5 is outside the page's table (it holds -5..20): cardodds kanalje equity --score 12,-8,5 "
        "reads it",
        "a tie at 21 is past the page's table (it holds totals up to 20): cardodds kanalje equity --score 21,21,5 "
        "reads it",
        "a total below -2000 is outside the page's table (it holds -2000..9900): cardodds canasta equity --score "
        "-2500,0 reads it"]
    assert page.execute_script("return document.querySelector('#lookup-equity table.equity').hidden")


_HEAT = """
return Array.from(document.querySelectorAll('#lookup-equity svg rect.cell'),
                  r => [+r.dataset.me, +r.dataset.them, +r.dataset.p, r.getAttribute('fill')]);
"""


def _luminance(fill: str) -> float:
    r, g, b = (int(v) for v in re.findall(r"\d+", fill))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def test_equity_heat_map_has_a_cell_a_score_its_colour_rising_with_my_total(page, built):
    """The heat map has one cell for every pair of the page's totals (Canasta every 200 points),
    each cell's chance is the API's (seat 0's, at the cell's totals, the third seat's and the
    dealer as in the form), and the colour lightens as my total rises; axis labels and legend."""
    from cardodds.report.equity import result

    data = {d["key"]: d for d in _data(built, "equity")["games"]}
    for key, score, dealer in [("kanalje3", (12, 17, 5), 2), ("kanalje3", (0, 0, 14), 0), ("kanalje2", (12, 18), 1),
                               ("canasta", (6200, 5400), 0)]:
        d, g = data[key], _equity_game(key)
        page.execute_script(_LOOKUP, "lookup-equity", [_equity_inputs(key, score, dealer)])
        cells = page.execute_script(_HEAT)
        side = len(range(0, d["size"], d["heat"]))
        assert len(cells) == side * side, key
        totals = sorted({c[0] for c in cells})
        assert totals == [d["lo"] + k * d["step"] for k in range(0, d["size"], d["heat"])]
        rows: dict = {}
        for me, them, p, fill in cells:
            rows.setdefault(them, []).append((me, p, _luminance(fill)))
        for them, row in rows.items():
            row.sort()
            assert all(a[1] <= b[1] and a[2] <= b[2] + 1e-9 for a, b in zip(row, row[1:])), (key, them)
            assert row[-1][1] > row[0][1] and row[-1][2] > row[0][2], (key, them)
        by_cell = {(me, them): p for me, them, p, _ in cells}
        for me, them in [(totals[0], totals[-1]), (totals[len(totals) // 2], totals[1]), (totals[-1], totals[0])]:
            s = (me, them, *score[2:])
            try:
                want = result(g, s, dealer).win[0].format(3).split(" ")[0]
            except ValueError:  # a sum no game reaches: the heat map shows the table there, as heat() does
                continue
            assert f"{by_cell[(me, them)] / 1000:.3f}" == want, (key, s)
        text = page.execute_script("return document.querySelector('#lookup-equity svg').textContent")
        who = "side" if g.game == "canasta" else "seat"
        assert f"{who} 1's total" in text and f"P({who} 0 wins the game)" in text and "0.5" in text
        assert page.execute_script("return document.querySelectorAll('#lookup-equity svg rect.legend').length") == 20
    # the third seat's total off the page's box: no heat map, said in words
    page.execute_script(_LOOKUP, "lookup-equity", [_equity_inputs("kanalje3", (12, 17, -9), 2)])
    assert page.execute_script(_HEAT) == []
    assert "seat 2's total" in page.execute_script("return document.querySelector('#lookup-equity figure').textContent")


def test_equity_heat_map_fits_a_375_px_phone(page, built):
    set_viewport(page, 375, 812)
    for key in ("kanalje3", "kanalje2", "canasta"):
        page.execute_script(_LOOKUP, "lookup-equity", [[("game", key)]])
        width, svg = page.execute_script("return [document.documentElement.scrollWidth, document.querySelector("
                                         "'#lookup-equity svg').getBoundingClientRect().right]")
        assert width <= 375 and svg <= 375, (key, width, svg)


def _not_blank(png: bytes) -> bool:
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("L")
    low, high = image.getextrema()
    return high - low > 100 and sum(1 for n in image.histogram() if n) > 20


def test_phone_width_needs_no_horizontal_scroll(page):
    set_viewport(page, 375, 812)
    width, inner = page.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    wide = page.execute_script("""return Array.from(document.querySelectorAll('main *:not(svg *)'))
        .filter(e => e.getBoundingClientRect().right > window.innerWidth + 0.5).slice(0, 5)
        .map(e => e.tagName + ' ' + e.textContent.slice(0, 40))""")
    assert inner == 375 and width <= inner, wide
    assert _not_blank(page.get_screenshot_as_png())


def test_the_page_opened_on_a_375_px_phone_fits_its_width(browser, built):
    """Opened at 375 px from the start (a phone), no element reaches past the screen's right edge:
    the strategy lookup's long situation names once made the page 391 px wide."""
    set_viewport(browser, 375, 812)
    try:
        browser.get((built / "index.html").as_uri())
        width = browser.execute_script("return document.documentElement.scrollWidth")
        wide = browser.execute_script("""return Array.from(document.querySelectorAll('body *:not(svg *)'))
            .filter(e => e.getBoundingClientRect().right > 375.5).slice(0, 5)
            .map(e => e.tagName + ' ' + e.textContent.slice(0, 40))""")
        assert width <= 375 and wide == [], (width, wide)
    finally:
        set_viewport(browser, 1280, 900)
        browser.get((built / "index.html").as_uri())


def test_colour_scheme_follows_the_system_and_the_page_prints(page):
    background = "return getComputedStyle(document.body).backgroundColor"

    def scheme(value):
        page.execute_cdp_cmd("Emulation.setEmulatedMedia",
                             {"features": [{"name": "prefers-color-scheme", "value": value}]})

    scheme("light")
    assert page.execute_script(background) == "rgb(255, 255, 255)"
    scheme("dark")
    dark = page.execute_script(background)
    assert dark != "rgb(255, 255, 255)" and sum(map(int, re.findall(r"\d+", dark))) < 150
    assert _not_blank(page.get_screenshot_as_png())
    page.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print", "features": []})
    assert page.execute_script("return getComputedStyle(document.querySelector('header.top nav')).display") == "none"
    assert page.execute_script("return getComputedStyle(document.querySelector('#kanalje svg')).display") == "block"


def test_charts_are_titled_with_labelled_axes(page):
    charts = page.execute_script("return Array.from(document.querySelectorAll('figure.chart'),"
                                 " f => [f.querySelector('svg').getAttribute('aria-label'),"
                                 " f.querySelector('svg').textContent.length])")
    assert charts and all(label and chars > 20 for label, chars in charts), charts


def test_screenshots_of_every_section_at_desktop_and_phone_width(chromium, built, tmp_path):
    files = screenshots(built / "index.html", tmp_path / "shots")
    assert sorted(p.name for p in files) == sorted(f"{s}-{k}.png" for s in SECTIONS for k in ("desktop", "phone"))
    assert all(_not_blank(p.read_bytes()) for p in files)


def test_screenshots_without_chromium_is_a_one_line_usage_error(tmp_path):
    import os
    import subprocess
    import sys

    bin_dir = Path(sys.executable).parent  # cardodds and python, but no chromium on this PATH
    run = subprocess.run([str(bin_dir / "cardodds"), "report", "--out", str(tmp_path), "--screenshots"],
                         capture_output=True, text=True, env={**os.environ, "PATH": str(bin_dir)}, timeout=120)
    assert run.returncode == 2 and run.stdout == "", run.stderr
    assert run.stderr.count("\n") == 1 and "--screenshots" in run.stderr and "apt-get install chromium" in run.stderr
    assert list(tmp_path.iterdir()) == []  # refused before building anything


@pytest.mark.parametrize("ci", [None, "true"], ids=["no CI", "CI=true"])
def test_without_chromium_a_browser_test_skips_with_the_install_line_but_fails_under_ci(ci, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty folder: no chromium, no chromedriver
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    with pytest.raises(pytest.skip.Exception if ci is None else pytest.fail.Exception) as stop:
        browser_or_skip()
    assert f"chromium and chromedriver not found: {INSTALL}" in str(stop.value)
