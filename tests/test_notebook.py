"""In a real Jupyter kernel: a call that compiles says so in one line (a warm one says nothing),
``progress=True`` draws a notebook's progress bar (no ipywidgets needed), and a user's own
``@njit`` function compiles and caches as without cardodds. Outside a notebook: a script's call
says nothing of its compiling."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from cardodds._interactive import COMPILE_NOTICE

ROOT = Path(__file__).resolve().parents[1]

#: A small question: its kernels compile in seconds on an empty cache.
ODDS = "kana.odds(3, samples=2_000, rng={seed}, threads=2)"

_USER = '''
from numba import njit


@njit(cache=True)
def norm2(a):
    s = 0.0
    for x in a:
        s += x * x
    return s
'''


class _Recorder(NotebookClient):
    """A notebook client keeping every message of the kernel, by cell."""

    def __init__(self, nb, **kw):
        super().__init__(nb, **kw)
        self.messages: dict[int, list[dict]] = {}

    def process_message(self, msg, cell, cell_index):
        self.messages.setdefault(cell_index, []).append(msg)
        return super().process_message(msg, cell, cell_index)


def _run(cells: list[str], tmp_path: Path, cache: Path) -> tuple[nbformat.NotebookNode, _Recorder]:
    """``cells`` run in a fresh kernel whose cardodds compiles into ``cache``, beside a user's
    module ``user_mod`` in ``tmp_path``."""
    (tmp_path / "user_mod.py").write_text(_USER)
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(textwrap.dedent(c)) for c in cells])
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "CARDODDS_"))}
    env.update(NUMBA_CACHE_DIR=str(cache), PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]),
               IPYTHONDIR=str(tmp_path / "ipython"))
    client = _Recorder(nb, kernel_name="python3", timeout=600, resources={"metadata": {"path": str(tmp_path)}})
    client.execute(env=env, cwd=str(tmp_path))
    return nb, client


def _streams(cell, name: str | None = None) -> str:
    return "".join(o["text"] for o in cell.outputs if o["output_type"] == "stream" and name in (None, o["name"]))


def test_a_first_call_in_a_notebook_says_once_that_it_compiles_a_later_or_warm_one_does_not(tmp_path):
    cache = tmp_path / "cache"
    nb, _ = _run([
        """
        import numba.core.event as event
        listeners = {k: list(v) for k, v in event._registered.items() if v}
        from cardodds import kana
        """,
        f"print({ODDS.format(seed=1)}.samples)",
        f"print({ODDS.format(seed=2)}.samples)",
        """
        import numpy as np
        import user_mod
        print(user_mod.norm2(np.arange(6.0)), len(user_mod.norm2.signatures))
        print({k: list(v) for k, v in event._registered.items() if v} == listeners)
        """,
        # a public function that neither runs the engine nor takes backend=: once in its cell
        """
        from cardodds import canasta
        print(canasta.best_first_meld("Kh Kd Ks 9c 9d 9h Jk 3h").value)
        print(canasta.best_first_meld("Kh Kd Ks 9c 9d 4h Jk 3h").value)
        """,
        'print(canasta.best_first_meld("Kh Kd Ks 9c 9d 9h 3h").value)',
    ], tmp_path, cache)
    first, second, user = nb.cells[1], nb.cells[2], nb.cells[3]
    assert (_streams(nb.cells[4], "stderr"), _streams(nb.cells[5], "stderr")) == (COMPILE_NOTICE + "\n", "")
    assert (_streams(nb.cells[4], "stdout"), _streams(nb.cells[5], "stdout")) == ("80\n80\n", "30\n")
    assert _streams(first, "stderr") == COMPILE_NOTICE + "\n"  # one line, however many kernels
    assert _streams(first, "stdout") == "2000\n"
    assert _streams(second) == "2000\n"  # compiled in this kernel already
    # the user's own function: no line of cardodds, compiled, cached beside its module, and numba
    # without a listener more than before cardodds was imported
    assert _streams(user) == "55.0 1\nTrue\n"
    cached = list(cache.rglob("user_mod.norm2-*"))  # where numba puts it: NUMBA_CACHE_DIR is set
    assert sorted(p.suffix for p in cached) == [".nbc", ".nbi"]
    assert not any(p.relative_to(cache).parts[0].startswith("cardodds") for p in cached)
    # a fresh kernel on the warm cache loads every kernel: nothing said
    nb, _ = _run([f"from cardodds import kana\nprint({ODDS.format(seed=3)}.samples)"], tmp_path, cache)
    assert _streams(nb.cells[0]) == "2000\n"


def test_progress_in_a_notebook_is_a_notebooks_progress_bar(tmp_path):
    nb, client = _run([
        "from cardodds import kana\nkana.odds(3, samples=2_000, rng=1, threads=1)",  # compiled here
        "print(kana.odds(3, samples=300_000, rng=1, threads=1, progress=True).samples)",
        "print(kana.odds(3, target_halfwidth=0.01, rng=1, threads=1, progress=True).samples > 0)",
    ], tmp_path, tmp_path / "cache")
    assert "ipywidgets" not in "".join(_streams(c) for c in nb.cells)
    for index, answer in ((1, "300000\n"), (2, "True\n")):
        messages = client.messages[index]
        shown = [m["content"] for m in messages if m["msg_type"] == "display_data"]
        assert len(shown) == 1, messages
        bar = shown[0]
        assert "<progress" in bar["data"]["text/html"] and "rounds" in bar["data"]["text/plain"]
        updates = [m["content"] for m in messages if m["msg_type"] == "update_display_data"]
        assert updates and all(u["transient"] == bar["transient"] for u in updates)
        assert updates[-1]["data"] == {"text/plain": "", "text/html": ""}  # cleared once the run is over
        # nothing on stderr: neither tqdm's "IProgress not found" nor a terminal's bar
        assert _streams(nb.cells[index], "stderr") == ""
        assert _streams(nb.cells[index], "stdout") == answer


def test_a_script_says_nothing_of_its_compiling(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "CARDODDS_"))}
    env.update(NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=str(ROOT))
    code = f"from cardodds import kana\nprint({ODDS.format(seed=1)}.samples)"
    script = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    assert (script.returncode, script.stdout, script.stderr) == (0, "2000\n", "")
    # the same at Python's prompt (a fresh cache): the line
    prompt = subprocess.run([sys.executable, "-i", "-q"], input=code + "\n", env={**env, "NUMBA_CACHE_DIR": str(
        tmp_path / "cache2")}, capture_output=True, text=True, timeout=600)
    assert prompt.returncode == 0 and prompt.stdout == "2000\n"
    assert prompt.stderr.count(COMPILE_NOTICE) == 1, prompt.stderr


class _Display:
    """IPython's ``display`` as a notebook would receive it: every output and update, by display id."""

    def __init__(self, monkeypatch):
        import IPython.display

        self.shown: list[tuple[int, dict]] = []
        monkeypatch.setattr(IPython.display, "display", self)

    def __call__(self, data, raw=False, display_id=None):
        assert raw and display_id is True
        number = len({i for i, _ in self.shown})
        self.shown.append((number, data))
        display = self

        class Handle:
            def update(self, data, raw=False):
                assert raw
                display.shown.append((number, data))

        return Handle()


def test_a_notebooks_bar_waits_its_delay_and_clears_or_stays(monkeypatch):
    from cardodds._interactive import HtmlBar

    shown = _Display(monkeypatch)
    monkeypatch.setattr(HtmlBar, "EVERY", 0.0)
    late = HtmlBar(10, "decision", unit_scale=False, delay=3600)
    late.update(5)
    late.close()
    assert shown.shown == []  # a short run: no bar at all
    bar = HtmlBar(3, "task", unit_scale=False, desc="compiling", leave=True)
    for _ in range(3):
        bar.update(1)
    bar.close()
    texts = [data["text/plain"] for _, data in shown.shown]
    assert [t.split(" [")[0] for t in texts] == ["compiling:   0% 0/3 tasks", "compiling:  33% 1/3 tasks",
                                                 "compiling:  67% 2/3 tasks", "compiling: 100% 3/3 tasks",
                                                 "compiling: 100% 3/3 tasks"]
    assert all('<progress value="' in data["text/html"] for _, data in shown.shown)


def test_a_reviews_progress_in_a_notebook_is_a_notebooks_bar(monkeypatch, capsys):
    from types import SimpleNamespace

    from cardodds import _interactive, review

    shown = _Display(monkeypatch)
    monkeypatch.setattr(_interactive, "in_notebook", lambda: True)
    monkeypatch.setattr(review, "PROGRESS_AFTER", 0.0)
    done, partial = review.rate_in_order([lambda: SimpleNamespace(partial=False)] * 3, progress=True)
    assert (len(done), partial) == (3, False)
    assert "<progress" in shown.shown[0][1]["text/html"] and "decisions" in shown.shown[0][1]["text/plain"]
    assert shown.shown[-1][1] == {"text/plain": "", "text/html": ""}
    assert capsys.readouterr().err == ""  # no terminal bar beside it


def test_with_ipywidgets_a_notebooks_bar_is_tqdms_widget_and_in_a_terminal_tqdms_bar(monkeypatch, capsys):
    import tqdm
    import tqdm.notebook

    from cardodds import _interactive

    class Widget:
        def __init__(self, **kw):
            self.kw = kw

    monkeypatch.setattr(_interactive, "in_notebook", lambda: True)
    monkeypatch.setattr(tqdm.notebook, "IProgress", object)  # as where ipywidgets is installed
    monkeypatch.setattr(tqdm.notebook, "tqdm", Widget)
    bar = _interactive.progress_bar(100, "deal")
    assert isinstance(bar, Widget) and (bar.kw["total"], bar.kw["unit"], bar.kw["leave"]) == (100, "deal", False)
    monkeypatch.setattr(_interactive, "in_notebook", lambda: False)
    bar = _interactive.progress_bar(100, "deal")
    bar.close()
    assert type(bar) is tqdm.tqdm and "0%|          | 0.00/100 [" in capsys.readouterr().err
