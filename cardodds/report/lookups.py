"""The web page's lookups: where a player looks something up, the answer is one choice away.

Each lookup is a small form (HTML from :data:`LOOKUPS`, drawn at the top of its section) over
the section's data, which the page holds inline as JSON (``<script id="data-<section>">``);
:data:`SCRIPT`, plain JavaScript, answers from that data as the player changes a choice.
The answers print the figures exactly as the markdown does (the strings come from the data).

- Känä: variant, players and the peeked rank (peek-one) or the three cards (peek-all) ->
  the action of the equilibrium table, P(win) at that table and the margin over the next best
  action (``kana.md``'s tables, written to ``kana_equilibrium.json``; peek-all at the player
  counts the report does not compute, the tables built and shipped with the package).
- Kanalje: lineup, jack, the holder's length in its suit, trump -> P(the holder takes it).
- Canasta: each house option's paired change of side 0's score, sortable.
- Strategy tables: game, table and the situation (one choice a dimension) -> the best action,
  its margin over the next best and the positions behind it (the shipped tables).
- Game equity: the game (Kanalje with three or two players, Polish Canasta), who deals and each
  seat's (side's) total -> each one's chance to win the game, as ``cardodds <game> equity`` prints
  it (or its refusal, in one line), and a heat map of seat (side) 0's chance over its total and
  the next one's (an SVG drawn by the script).
"""

from __future__ import annotations

import html

RANK_NAMES = {"T": "10"}
SUIT_SIGNS = {"spades": "♠", "clubs": "♣", "diamonds": "♦", "hearts": "♥"}


def _options(pairs, selected=None) -> str:
    return "".join(f'<option value="{html.escape(str(v))}"{" selected" if str(v) == str(selected) else ""}>'
                   f"{html.escape(str(text))}</option>" for v, text in pairs)


def _select(name: str, label: str, pairs, selected=None, hidden: bool = False) -> str:
    return (f'<label{" hidden" if hidden else ""} data-field="{name}">{html.escape(label)}'
            f'<select name="{name}">{_options(pairs, selected)}</select></label>')


def _game_form(key: str, question: str, games, fields: str) -> str:
    """A lookup's heading and form: the game first, then ``fields``."""
    return (f'<div class="lookup" id="lookup-{key}"><h3>Look it up: {html.escape(question)}</h3>'
            f'<form autocomplete="off">{_select("game", "game", games)}{fields}</form>')


def kana(data: dict) -> str:
    """Känä: which card to känä, from the equilibrium tables.

    >>> out = kana({"ranks": ["2", "T"], "peek-one": {"4": []}, "peek-all": {"4": [], "5": []},
    ...             "built": ["peek-all/5"], "source": {}})
    >>> '<option value="T">10</option>' in out and 'id="lookup-kana"' in out and "peek-all at 5 players" in out
    True
    """
    ranks = [(r, RANK_NAMES.get(r, r)) for r in data["ranks"]]
    players = sorted(data["peek-one"], key=int)
    cards = "".join(_select(f"card{k}", f"card {k + 1}", ranks, ranks[min(7 + 2 * k, len(ranks) - 1)][0], hidden=True)
                    for k in range(3))
    return (
        '<div class="lookup" id="lookup-kana"><h3>Look it up: which card should I känä?</h3>'
        '<form autocomplete="off">'
        + _select("variant", "variant", [("peek-one", "peek-one: I see one card"),
                                         ("peek-all", "peek-all: I see all three")])
        + _select("players", "players", [(p, p) for p in players], "4")
        + _select("rank", "peeked card", ranks, "9") + cards
        + "</form>"
        '<p class="answer" aria-live="polite"><b data-out="action"></b><br>'
        'P(win) when everyone plays the table: <span data-out="win"></span><br>'
        'margin over the next best action: <span data-out="margin"></span><br>'
        '<span data-out="verdict"></span><br>'
        'table: <span data-out="source"></span></p>'
        '<p class="note">From the equilibrium tables (the same as <code>kana_equilibrium.json</code>, which the '
        "advisor uses" + _built_note(data.get("built", [])) + "): 95% intervals; the margin is a paired "
        "difference on the same deals, and an interval holding 0 means no action is better at this precision. "
        "Under the official rules nobody looks, and every choice wins 1/n.</p></div>")


def _built_note(built) -> str:
    """Which tables come from the package's built file (``["peek-all/5", ...]``), in words."""
    by_variant: dict[str, list[str]] = {}
    for key in built:
        variant, players = key.split("/")
        by_variant.setdefault(variant, []).append(players)
    if not by_variant:
        return ""
    parts = []
    for variant, players in by_variant.items():
        players = sorted(players, key=int)
        words = players[0] if len(players) == 1 else ", ".join(players[:-1]) + " and " + players[-1]
        parts.append(f"{variant} at {words} players")
    return ("; " + " and ".join(parts) + " from the tables shipped with the package, "
            "<code>cardodds/kana/equilibrium_built.json</code>, which the report does not compute")


def kanalje(data: dict) -> str:
    """Kanalje: P(the dealt holder of a jack takes it in a trick), by its holding.

    >>> out = kanalje({"jacks": [["hearts", "Jh", 1]], "lineups": {"heuristic": {"deals": 9, "rows": []}}})
    >>> 'J♥ (−1)' in out
    True
    """
    jacks = [(suit, f"J{SUIT_SIGNS.get(suit, suit)} (−{penalty})") for suit, _, penalty in data["jacks"]]
    lineups = [(p, f"all {p}") for p in data["lineups"]]
    return (
        '<div class="lookup" id="lookup-kanalje"><h3>Look it up: will I be stuck with my own jack?</h3>'
        '<form autocomplete="off">'
        + _select("jack", "my jack", jacks, "hearts")
        + _select("held", "cards of its suit I hold (the jack too)", [(n, n) for n in range(1, 14)], 3)
        + _select("trump", "its suit is trump", [(0, "no"), (1, "yes")], 0)
        + _select("lineup", "players", lineups, "heuristic")
        + "</form>"
        '<p class="answer" aria-live="polite">P(I take my own jack): <b data-out="p"></b><br>'
        '<span data-out="deals"></span></p>'
        '<p class="note">Three players, from the section\'s jack-risk runs (95% intervals): among the deals where '
        "the jack was dealt with that holding, the share in which its holder won it in a trick.</p></div>")


def canasta_play(data: dict) -> str:
    """Canasta: the house options' paired effects, sortable by tapping a column.

    >>> out = canasta_play({"samples": 10, "options": [["jokers=6", "-1.0 [-2.0, -0.1]", -1.0, True]]})
    >>> 'data-value="-1.0"' in out and "sortable" in out
    True
    """
    rows = "".join(
        f'<tr data-name="{html.escape(name)}" data-value="{"" if value is None else value}">'
        f'<td data-label="house option">{html.escape(name)}</td>'
        f'<td data-label="side 0 score change" class="r{" better" if differs else ""}">{html.escape(text)}'
        f'{"" if differs else " (no difference at this precision)"}</td></tr>'
        for name, text, value, differs in data["options"])
    return (
        '<div class="lookup" id="lookup-canasta_play"><h3>House options: what each one changes</h3>'
        '<table class="co-table sortable"><thead><tr>'
        '<th aria-sort="none"><button type="button" data-key="name">house option</button></th>'
        '<th class="r" aria-sort="none"><button type="button" data-key="value">side 0 score change a hand'
        "</button></th></tr></thead>"
        f"<tbody>{rows}</tbody></table>"
        f'<p class="note">Each option against the default rules on the same deals ({data["samples"]:,} hands each, '
        "heuristic players): the change of side 0's score a hand, option minus defaults, with its 95% interval. "
        "Tap a column to sort; tap again to reverse.</p></div>")


def strategy(data: dict) -> str:
    """Strategy tables: pick the game, the table and the situation; the script fills the
    situation's choices from the data (as many as the table has dimensions).

    >>> out = strategy({"dims": 2, "games": [{"game": "kanalje", "name": "Kanalje", "tables": []}]})
    >>> '<option value="kanalje">Kanalje</option>' in out and 'name="d1"' in out
    True
    """
    games = [(g["game"], g["name"]) for g in data["games"]]
    dims = "".join(f'<label data-field="d{i}"><span data-label="d{i}"></span><select name="d{i}"></select></label>'
                   for i in range(data["dims"]))
    return (
        _game_form("strategy", "the best action in my situation", games, _select("table", "table", []) + dims)
        + '<p class="answer" aria-live="polite"><b data-out="action"></b><br><span data-out="margin"></span><br>'
        '<span data-out="verdict"></span><br><span data-out="positions"></span></p>'
        '<p class="note">From the tables shipped for the default rules: the best action (or the actions equal '
        "within the table's margin, or not told apart), its margin over the next best on the same deals "
        "(simultaneous 95% interval) and the positions drawn in this situation.</p></div>")


def equity(data: dict) -> str:
    """Game equity: the game, who deals and each seat's (side's) total -> each one's chance to win
    the game, and a heat map of seat (side) 0's chance over its total and the next one's (the
    script fills the dealers, the totals and the heat map from the data).

    >>> out = equity({"games": [{"key": "kanalje3", "name": "Kanalje, three players", "n": 3, "example": [12, 17, 5]}]})
    >>> '<option value="kanalje3">Kanalje, three players</option>' in out and 'name="s2"' in out
    True
    """
    games = [(g["key"], g["name"]) for g in data["games"]]
    first = data["games"][0]
    most = max(g["n"] for g in data["games"])
    totals = "".join(
        f'<label data-field="s{k}"><span data-label="s{k}">seat {k}\'s total</span>'
        f'<input name="s{k}" type="number" inputmode="numeric" step="1" '
        f'value="{first["example"][k] if k < len(first["example"]) else 0}"></label>' for k in range(most))
    rows = "".join(f'<tr data-row="{k}"><td data-label="who" data-out="who{k}"></td>'
                   f'<td data-label="total" class="r" data-out="total{k}"></td>'
                   f'<td data-label="wins the game" class="r" data-out="win{k}"></td></tr>' for k in range(most))
    return (
        _game_form("equity", "my chance to win the game from the score", games,
                   _select("dealer", "who deals", []) + totals)
        + '<p class="answer" aria-live="polite"><span data-out="head"></span><span data-out="message"></span></p>'
        '<table class="co-table equity"><thead><tr><th>who</th><th class="r">total</th>'
        f'<th class="r">wins the game</th></tr></thead><tbody>{rows}</tbody></table>'
        '<p class="note" data-out="read"></p>'
        '<figure class="chart heat" data-heat></figure>'
        '<p class="note">From the game equity tables shipped with the package (95% intervals: a bootstrap of the '
        "measured deals), printed as <code>cardodds kanalje equity</code> and <code>cardodds canasta equity</code> "
        "print them. The page holds each table on a box of scores (below the target; Canasta every 100 points, "
        "its heat map every 200); the commands read the whole table. The heat map: seat (side) 0's chance over "
        "its total and the next one's, the others as above.</p></div>")


#: The section each lookup belongs to, and its HTML from that section's data.
LOOKUPS = {"kana": kana, "kanalje": kanalje, "canasta_play": canasta_play, "strategy": strategy, "equity": equity}

#: Plain JavaScript: every lookup on the page, answered from the inline data.
SCRIPT = r"""
(function () {
  "use strict";
  function data(name) {
    var el = document.getElementById("data-" + name);
    return el ? JSON.parse(el.textContent) : null;
  }
  function show(box, name, text) { box.querySelector('[data-out="' + name + '"]').textContent = text; }
  function rankName(r) { return r === "T" ? "10" : r; }
  function each(list, fn) { Array.prototype.forEach.call(list, fn); }

  function kana(d) {
    var box = document.getElementById("lookup-kana");
    if (!box || !d) return;
    var f = box.querySelector("form").elements;
    var order = {};
    d.ranks.forEach(function (r, i) { order[r] = i; });
    function fillPlayers() {
      var keep = f.players.value, keys = Object.keys(d[f.variant.value]).sort(function (a, b) { return a - b; });
      f.players.innerHTML = "";
      keys.forEach(function (p) { f.players.add(new Option(p, p)); });
      f.players.value = keys.indexOf(keep) >= 0 ? keep : (keys.indexOf("4") >= 0 ? "4" : keys[0]);
    }
    function update() {
      var all = f.variant.value === "peek-all";
      box.querySelector('[data-field="rank"]').hidden = all;
      each(box.querySelectorAll('[data-field^="card"]'), function (el) { el.hidden = !all; });
      var rows = d[f.variant.value][f.players.value], action, key, row;
      if (all) {
        var hand = [f.card0.value, f.card1.value, f.card2.value].sort(function (a, b) { return order[a] - order[b]; });
        key = hand.join("");
        row = rows.filter(function (r) { return r[0] === key; })[0];
        action = row && "känä the " + rankName(hand[{low: 0, middle: 1, high: 2}[row[1]]]);
      } else {
        key = f.rank.value;
        row = rows.filter(function (r) { return r[0] === key; })[0];
        action = row && (row[1] === "känä" ? "känä the peeked " + rankName(key)
                                           : "keep the peeked " + rankName(key) + ", känä an unseen card");
      }
      show(box, "action", row ? action : "no table row for this hand");
      show(box, "win", row ? row[2] : "");
      show(box, "margin", row ? row[3] : "");
      show(box, "verdict", !row ? "" : row[4] ? "better than the next best at this precision"
                                              : "no action is better at this precision: either will do");
      show(box, "source", ((d.source || {})[f.variant.value] || {})[f.players.value] || "");
    }
    f.variant.addEventListener("change", function () { fillPlayers(); update(); });
    each(box.querySelectorAll("select"), function (s) {
      if (s.name !== "variant") s.addEventListener("change", update);
    });
    fillPlayers();
    update();
  }

  function kanalje(d) {
    var box = document.getElementById("lookup-kanalje");
    if (!box || !d) return;
    var f = box.querySelector("form").elements;
    function update() {
      var lineup = d.lineups[f.lineup.value];
      var want = [f.jack.value, +f.trump.value, +f.held.value];
      var row = lineup.rows.filter(function (r) {
        return r[0] === want[0] && r[1] === want[1] && r[2] === want[2];
      })[0];
      show(box, "p", row ? row[4] : "not seen");
      show(box, "deals", row ? "from " + row[3].toLocaleString("en") + " deals with this holding"
                                : "no deal among " + lineup.deals.toLocaleString("en") + " had this holding");
    }
    each(box.querySelectorAll("select"), function (s) { s.addEventListener("change", update); });
    update();
  }

  function strategy(d) {
    var box = document.getElementById("lookup-strategy");
    if (!box || !d) return;
    var f = box.querySelector("form").elements;
    function game() { return d.games.filter(function (g) { return g.game === f.game.value; })[0]; }
    function table() {
      var g = game();
      return g.tables.filter(function (t) { return t.name === f.table.value; })[0] || g.tables[0];
    }
    function fill(select, values, keep) {
      select.innerHTML = "";
      values.forEach(function (v) { select.add(new Option(v[1], v[0])); });
      var ok = values.some(function (v) { return v[0] === keep; });
      select.value = ok ? keep : (values.length ? values[0][0] : "");
    }
    function fillTables() {
      fill(f.table, game().tables.map(function (t) { return [t.name, t.title]; }), f.table.value);
      fillDims();
    }
    function fillDims() {
      var t = table();
      for (var i = 0; i < d.dims; i++) {
        var field = box.querySelector('[data-field="d' + i + '"]'), dim = t.dims[i];
        field.hidden = !dim;
        if (!dim) continue;
        box.querySelector('[data-label="d' + i + '"]').textContent = dim[0];
        fill(f["d" + i], dim[1].map(function (v) { return [v, v]; }), f["d" + i].value);
      }
      update();
    }
    function update() {
      var t = table(), index = 0;
      t.dims.forEach(function (dim, i) { index = index * dim[1].length + dim[1].indexOf(f["d" + i].value); });
      var c = t.cells[index];
      show(box, "action", c[0]);
      show(box, "margin", c[1]);
      show(box, "verdict", c[2]);
      show(box, "positions", c[3]);
    }
    f.game.addEventListener("change", fillTables);
    f.table.addEventListener("change", fillDims);
    for (var i = 0; i < d.dims; i++) f["d" + i].addEventListener("change", update);
    fillTables();
  }

  function equity(d) {
    var box = document.getElementById("lookup-equity");
    if (!box || !d) return;
    var f = box.querySelector("form").elements, figure = box.querySelector("[data-heat]");
    var digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", at = {};
    for (var i = 0; i < digits.length; i++) at[digits.charAt(i)] = i;
    // viridis: a chance's colour, darkest at 0, lightest at 1
    var stops = ["#440154", "#482475", "#414487", "#355f8d", "#2a788e", "#21918c", "#22a884", "#44bf70",
                 "#7ad151", "#bddf26", "#fde725"];
    function rgb(h) { return [1, 3, 5].map(function (k) { return parseInt(h.substr(k, 2), 16); }); }
    function colour(p) {
      var x = Math.max(0, Math.min(1, p)) * 10, k = Math.min(Math.floor(x), 9), t = x - k;
      var a = rgb(stops[k]), b = rgb(stops[k + 1]);
      return "rgb(" + a.map(function (v, j) { return Math.round(v + (b[j] - v) * t); }).join(",") + ")";
    }
    function game() { return d.games.filter(function (g) { return g.key === f.game.value; })[0]; }
    function who(g, k) { return g.who + " " + k + (g.game === "canasta" ? " (seats " + k + "+" + (k + 2) + ")" : ""); }
    function num(v) { return v.toLocaleString("en"); }
    function fmt(v) { return (v / 1000).toFixed(3); }
    function est(x) { return fmt(x[0]) + " [" + fmt(x[1]) + ", " + fmt(x[2]) + "]"; }
    // a state's figures, seat by seat in the frame of the leader (see cardodds/report/equity.py)
    function state(g, frame) {
      var idx = 0, per = 2 * g.n - 1, out = [], total = 0;
      frame.forEach(function (x) { idx = idx * g.size + x; });
      var code = g.codes.substr(idx * per, per);
      for (var j = 0; j < g.n - 1; j++) {
        var c = at[code.charAt(2 * j)] * 64 + at[code.charAt(2 * j + 1)], v = c >> 2;
        total += v;
        out.push([v, v - (c >> 1 & 1), v + (c & 1)]);
      }
      var last = at[code.charAt(per - 1)], w = 1000 - total + (last >> 2) - 1;
      out.push([w, w - (last >> 1 & 1), w + (last & 1)]);
      return out;
    }
    // each seat's figures at page grid indices q (seat order), dealer dealing
    function figures(g, q, dealer) {
      var lead = (dealer + g.shift) % g.n, frame = [];
      for (var j = 0; j < g.n; j++) frame.push(q[(lead + j) % g.n]);
      var s = state(g, frame);
      return q.map(function (_, k) { return s[(k - lead + g.n) % g.n]; });
    }
    function reachable(total, totals) {
      if (total < 0) return false;
      var can = [true];
      for (var v = 1; v <= total; v++) can.push(totals.some(function (t) { return v >= t && can[v - t]; }));
      return can[total];
    }
    // the totals read on the page's grid, or the refusal in one line (the command's where it refuses too)
    function check(g, s) {
      var cmd = g.command + " --score " + s.join(",");
      if (s.some(function (v) { return !isFinite(v) || v !== Math.round(v); }))
        return {error: "each " + g.who + "'s total must be a whole number, e.g. " + g.example.join(",")};
      if (s.some(function (v) { return v % g.multiple !== 0; }))
        return {error: "no game reaches " + s.join(",") + ": every Canasta score is a multiple of " + g.multiple};
      var top = Math.max.apply(null, s), at_top = s.filter(function (v) { return v === top; }).length;
      if (top >= g.target && at_top === 1)
        return {error: "the game is over at " + s.join(",") + ": " + g.who + " " + s.indexOf(top) + " has reached " +
                g.target + g.over};
      var low = Math.min.apply(null, s), page_top = g.lo + (g.size - 1) * g.step;
      if (low < g.table_lo)
        return {error: "a total below " + g.table_lo + " is outside the equity table (it holds " + g.table_lo + ".." +
                g.table_top + ")"};
      if (top > g.table_hi)
        return {error: "a tie at " + top + " is outside the equity table (it holds ties up to " + g.table_hi + ")"};
      if (low < g.lo)
        return {error: "a total below " + g.lo + " is outside the page's table (it holds " + g.lo + ".." + page_top +
                "): " + cmd + " reads it"};
      if (top > page_top)
        return {error: "a tie at " + top + " is past the page's table (it holds totals up to " + page_top + "): " +
                cmd + " reads it"};
      var sum = s.reduce(function (a, b) { return a + b; }, 0);
      if (g.totals.length && !reachable(sum, g.totals))
        return {error: "no game reaches a score sum of " + sum + ": a deal adds " + g.totals[0] + ".." +
                g.totals[g.totals.length - 1] + " points in all (" + g.totals.join(", ") + ")"};
      var q = s.map(function (v) { return Math.round((v - g.lo) / g.step); });
      var grid = q.map(function (x) { return g.lo + x * g.step; });
      var off = grid.some(function (v, k) { return v !== s[k]; });
      return {q: q, read: off ? "read at " + grid.join(",") + ", the page's nearest scores (it holds every " + g.step +
              " points): " + cmd + " reads between the table's scores" : ""};
    }
    function fillGame() {
      var g = game();
      f.dealer.innerHTML = "";
      for (var k = 0; k < g.n; k++)
        f.dealer.add(new Option(g.who + " " + k + " (" + g.who + " " + ((k + g.shift) % g.n) +
                                (g.game === "canasta" ? " moves first)" : " leads)"), String(k)));
      f.dealer.value = String(g.dealer);
      each(box.querySelectorAll("[data-field^=s]"), function (el) {
        var k = +el.getAttribute("data-field").substr(1);
        el.hidden = k >= g.n;
        el.querySelector("[data-label]").textContent = who(g, k) + "'s total";
        if (k < g.n) f["s" + k].value = String(g.example[k]);
        f["s" + k].step = String(g.multiple);
      });
      update();
    }
    function update() {
      var g = game(), dealer = +f.dealer.value, s = [];
      for (var k = 0; k < g.n; k++) s.push(f["s" + k].value.trim() === "" ? NaN : Number(f["s" + k].value));
      var c = check(g, s);
      show(box, "head", c.error ? "" : g.name + " to " + num(g.target) + ": " + g.who + " " + dealer + " deals (" +
           g.who + " " + ((dealer + g.shift) % g.n) + (g.game === "canasta" ? " moves first)" : " leads)"));
      show(box, "message", c.error || "");
      show(box, "read", c.read || "");
      var x = c.error ? null : figures(g, c.q, dealer);
      each(box.querySelectorAll("tr[data-row]"), function (tr) {
        var k = +tr.getAttribute("data-row");
        tr.hidden = k >= g.n || !x;
        show(box, "who" + k, k < g.n ? who(g, k) : "");
        show(box, "total" + k, x && k < g.n ? String(s[k]) : "");
        show(box, "win" + k, x && k < g.n ? est(x[k]) : "");
      });
      box.querySelector("table.equity").hidden = !x;
      heat(g, s, dealer);
    }
    // P(seat 0 wins) over seat 0's and seat 1's totals on the page's grid (every g.heat-th), the others as given
    function heat(g, s, dealer) {
      var rest = [], why = "";
      for (var k = 2; k < g.n; k++) {
        var v = s[k];
        if (!(v >= g.lo && v <= g.lo + (g.size - 1) * g.step && (v - g.lo) % g.step === 0))
          why = "The heat map needs " + g.who + " " + k + "'s total on the page's table (" + g.lo + ".." +
                (g.lo + (g.size - 1) * g.step) + ").";
        rest.push((v - g.lo) / g.step);
      }
      if (why) { figure.innerHTML = "<figcaption>" + why + "</figcaption>"; return; }
      var idx = [];
      for (var a = 0; a < g.size; a += g.heat) idx.push(a);
      var m = idx.length, W = 360, L = 54, T = 8, P = 270, cw = P / m, svg = [];
      var scores = idx.map(function (a) { return g.lo + a * g.step; });
      var others = rest.map(function (r, j) { return ", " + g.who + " " + (j + 2) + " at " + s[j + 2]; }).join("");
      var title = "P(" + g.who + " 0 wins the game) over " + g.who + " 0's and " + g.who + " 1's totals, " + g.who +
                  " " + dealer + " deals" + others;
      svg.push('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ' + W + ' 368" role="img" aria-label="' + title +
               '" font-family="sans-serif" font-size="12" shape-rendering="crispEdges"><title>' + title + "</title>");
      idx.forEach(function (a, i) {
        idx.forEach(function (b, j) {
          var p = figures(g, [a, b].concat(rest), dealer)[0][0];
          svg.push('<rect class="cell" x="' + (L + i * cw).toFixed(2) + '" y="' + (T + P - (j + 1) * cw).toFixed(2) +
                   '" width="' + (cw + 0.3).toFixed(2) + '" height="' + (cw + 0.3).toFixed(2) + '" fill="' +
                   colour(p / 1000) + '" data-me="' + scores[i] + '" data-them="' + scores[j] + '" data-p="' + p +
                   '"/>');
        });
      });
      var every = g.step === 1 ? 5 : 2000;
      scores.forEach(function (v, i) {
        if (v % every !== 0) return;
        var c = (i + 0.5) * cw;
        svg.push('<text x="' + (L + c).toFixed(1) + '" y="' + (T + P + 14) + '" text-anchor="middle">' + num(v) +
                 "</text>");
        svg.push('<text x="' + (L - 4) + '" y="' + (T + P - c + 4).toFixed(1) + '" text-anchor="end">' + num(v) +
                 "</text>");
      });
      svg.push('<text x="' + (L + P / 2) + '" y="' + (T + P + 28) + '" text-anchor="middle">' + who(g, 0) +
               "'s total (me)</text>");
      svg.push('<text transform="translate(11 ' + (T + P / 2) + ') rotate(-90)" text-anchor="middle">' + who(g, 1) +
               "'s total</text>");
      var in0 = (s[0] - g.lo) / g.step, in1 = (s[1] - g.lo) / g.step;
      if (in0 >= 0 && in1 >= 0 && in0 < g.size && in1 < g.size)
        svg.push('<circle class="here" cx="' + (L + (in0 / g.heat + 0.5) * cw).toFixed(1) + '" cy="' +
                 (T + P - (in1 / g.heat + 0.5) * cw).toFixed(1) + '" r="4" fill="#fff" stroke="#000"/>');
      // the legend: the colours from 0 to 1
      for (var n = 0; n < 20; n++)
        svg.push('<rect class="legend" x="' + (L + n * P / 20).toFixed(1) + '" y="' + (T + P + 38) + '" width="' +
                 (P / 20 + 0.1).toFixed(1) + '" height="10" fill="' + colour((n + 0.5) / 20) + '"/>');
      ["0", "0.5", "1"].forEach(function (t, k) {
        svg.push('<text x="' + (L + k * P / 2) + '" y="' + (T + P + 60) + '" text-anchor="middle">' + t + "</text>");
      });
      svg.push('<text x="' + (L + P / 2) + '" y="' + (T + P + 74) + '" text-anchor="middle">P(' + g.who +
               " 0 wins the game)</text></svg>");
      figure.innerHTML = svg.join("") + "<figcaption>" + title + "</figcaption>";
    }
    f.game.addEventListener("change", fillGame);
    f.dealer.addEventListener("change", update);
    each(box.querySelectorAll("input"), function (el) {
      el.addEventListener("input", update);
      el.addEventListener("change", update);
    });
    fillGame();
  }

  function sortable(table) {
    var body = table.tBodies[0];
    each(table.querySelectorAll("th button"), function (button) {
      button.addEventListener("click", function () {
        var th = button.parentNode, key = button.getAttribute("data-key"), now = th.getAttribute("aria-sort");
        // first tap: the biggest effect first (names A to Z); a second tap reverses
        var first = key === "value" ? "descending" : "ascending";
        var down = (now === "none" ? first : now === "ascending" ? "descending" : "ascending") === "descending";
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = a.getAttribute("data-" + key), y = b.getAttribute("data-" + key);
          var c = key === "value" ? (parseFloat(x) || 0) - (parseFloat(y) || 0) : (x < y ? -1 : x > y ? 1 : 0);
          return down ? -c : c;
        });
        rows.forEach(function (r) { body.appendChild(r); });
        each(table.querySelectorAll("th"), function (h) { h.setAttribute("aria-sort", "none"); });
        th.setAttribute("aria-sort", down ? "descending" : "ascending");
      });
    });
  }

  kana(data("kana"));
  kanalje(data("kanalje"));
  strategy(data("strategy"));
  equity(data("equity"));
  each(document.querySelectorAll("table.sortable"), sortable);
})();
"""
