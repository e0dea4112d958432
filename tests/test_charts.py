"""Every chart has a title and axis labels, and nothing is clipped: the tight bounding box of
everything drawn lies inside the figure. Charts are rendered from small runs."""

from __future__ import annotations

import importlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from cardodds.report import _common  # noqa: E402


def check_figure(fig, name: str) -> None:
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    tight = fig.get_tightbbox(renderer)
    w, h = fig.get_size_inches()
    eps = 0.02  # inches
    assert tight.x0 >= -eps and tight.y0 >= -eps and tight.x1 <= w + eps and tight.y1 <= h + eps, \
        (name, tight.bounds, (w, h))
    titled = bool(fig._suptitle and fig._suptitle.get_text())
    for ax in fig.axes:
        assert ax.get_xlabel(), f"{name}: an axis without an x label"
        if ax.get_ylabel() == "" and ax is not fig.axes[0]:
            continue  # a shared y axis is labelled once
        assert ax.get_ylabel(), f"{name}: an axis without a y label"
        titled = titled or bool(ax.get_title())
    assert titled, f"{name}: no title"
    # Every legend lies inside the figure and covers no data point (line vertices, bar tops).
    legends = [(ax, ax.get_legend()) for ax in fig.axes if ax.get_legend() is not None]
    legends += [(ax, leg) for leg in fig.legends for ax in fig.axes]
    for ax, leg in legends:
        box = leg.get_window_extent(renderer)
        fb = fig.bbox
        assert box.x0 >= fb.x0 - 1 and box.x1 <= fb.x1 + 1 and box.y0 >= fb.y0 - 1 and box.y1 <= fb.y1 + 1, name
        points = [line.get_transform().transform(line.get_xydata()) for line in ax.lines if len(line.get_xydata())]
        points += [ax.transData.transform([(p.get_x() + p.get_width() / 2, p.get_y() + p.get_height())])
                   for p in ax.patches if hasattr(p, "get_width")]
        for xy in points:
            inside = ((xy[:, 0] > box.x0) & (xy[:, 0] < box.x1) & (xy[:, 1] > box.y0) & (xy[:, 1] < box.y1))
            assert not inside.any(), f"{name}: the legend covers data"


def _integer_ticks(ax) -> bool:
    return all(float(t).is_integer() for t in ax.get_xticks())


@pytest.fixture
def saved(monkeypatch):
    """Charts a report section writes, checked before they are saved."""
    names = []
    real = _common.save

    def checking_save(fig, path, dpi=110):
        check_figure(fig, path.name)
        names.append(path.name)
        real(fig, path, dpi)

    monkeypatch.setattr(_common, "save", checking_save)  # what write_section saves with
    for mod in ("kana", "kana_session", "kanalje", "canasta", "canasta_play", "canasta_advice"):
        module = importlib.import_module(f"cardodds.report.{mod}")
        if hasattr(module, "save"):  # sections that save their charts themselves
            monkeypatch.setattr(module, "save", checking_save)
    return names


@pytest.mark.parametrize("section,charts", [
    ("canasta", {"canasta_by_turn.png", "canasta_best_value.png", "canasta_wilds_red3.png"}),
    ("kanalje", {"kanalje_holder_takes.png", "kanalje_holder_by_length.png", "kanalje_scores.png",
                 "kanalje_game.png", "kanalje2_faceup.png"}),
    ("kana", {"kana_official.png", "kana_hand_values.png", "kana_peek_one.png"}),
    ("kana_session", {"kana_session_net.png"}),
    ("canasta_play", {"canasta_play_by_round.png", "canasta_play_canastas_pile.png", "canasta_play_scores.png",
                      "canasta_play_house_options.png"}),
    ("canasta_advice", {"canasta_advice_ladder.png"}),
])
def test_report_charts_are_labelled_and_unclipped(tmp_path, saved, capsys, section, charts):
    import importlib

    module = importlib.import_module(f"cardodds.report.{section}")
    module.write(tmp_path, seed=3, scale=0.0005, progress=False, log=True)
    assert set(saved) == charts
    # Every stage of the section is named on stderr, numbered up to the last.
    stages = capsys.readouterr().err.splitlines()
    assert stages and all(line.startswith(f"{section} [") for line in stages), stages
    assert stages[-1].startswith(f"{section} [{len(stages)}/{len(stages)}] "), stages


def test_result_plots_are_labelled_and_unclipped():
    from cardodds import canasta, kana, kanalje
    from cardodds.kana import policies as strategies

    # A long strategy name: the session chart's title must still fit.
    context = strategies.kana_ranks({None: "2-8", "Q": "2-9", "K": "2-9", "A": "2-10"},
                                    name="context(8; 9 after Q/K; 10 after A)")
    plots = {
        "kana odds": kana.odds(players=3, samples=2_000, rng=1),
        "kana table": kana.strategy_table("peek-one", 3, opponents="blind", samples=2_000, rng=1),
        "kanalje risk": kanalje.jack_risk("random", samples=500, rng=1),
        "kanalje hand": kanalje.evaluate_hand(kanalje.Hand("Ac Kc 4c 2d 5d 9d Qd 3h 6h Th Qs Js 8s 7s 5s 3s 2s",
                                                           "7h"), samples=500, rng=1),
        "kanalje game": kanalje.game("random", samples=200, rng=1),
        "canasta melds": canasta.melds(12, turns=5, samples=2_000, rng=1),
        "canasta hand": canasta.hand_odds("Kh Kd 9c 4d 5s 6h 7c 8d Th Js Qc 3h", 3, samples=2_000, rng=1),
        "kana session": kana.session([context] + ["blind"] * 3, variant="peek-one", rounds=50, samples=1_000, rng=1),
        "canasta play": canasta.play("heuristic", samples=300, rng=1),
    }
    for name, result in plots.items():
        ax = result.plot()
        check_figure(ax.figure, name)
        if name in ("kanalje hand", "kanalje game", "canasta melds", "canasta hand", "kana session", "canasta play"):
            assert _integer_ticks(ax), f"{name}: ticks between whole turns, cards or points"
        plt.close(ax.figure)


def test_report_charts_have_whole_number_ticks_where_they_count(tmp_path, saved, monkeypatch):
    """Nets in antes, rounds and pile sizes are whole numbers: no tick between two of them."""
    from cardodds.report import _common, canasta_play, kana_session

    ticks = {}
    real = _common.save

    def ticks_then_save(fig, path, dpi=110):
        fig.canvas.draw()
        ticks[path.name] = [_integer_ticks(ax) for ax in fig.axes]
        real(fig, path, dpi)

    monkeypatch.setattr(_common, "save", ticks_then_save)
    monkeypatch.setattr(kana_session, "save", ticks_then_save)
    kana_session.write(tmp_path, seed=3, scale=0.0005, progress=False)
    canasta_play.write(tmp_path, seed=3, scale=0.0005, progress=False)
    assert ticks["kana_session_net.png"] == [True]
    assert ticks["canasta_play_by_round.png"] == [True, True]
    assert ticks["canasta_play_canastas_pile.png"][1]


def test_session_plots_share_an_axis_with_a_legend_beside_it():
    from cardodds import kana

    a = kana.session("threshold:8,blind,blind", variant="peek-one", rounds=20, samples=300, rng=1)
    b = kana.session("blind", players=3, rounds=20, samples=300, rng=2)
    ax = a.plot(label="threshold 8")
    b.plot(ax=ax, label="blind")
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["threshold 8", "blind"]
    check_figure(ax.figure, "two sessions")
    plt.close(ax.figure)
