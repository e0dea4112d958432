"""The Känä report and notebook rebuild from one command."""

import os
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from cardodds.report import build

ROOT = Path(__file__).resolve().parents[1]


def test_report_rebuilds_byte_identically(tmp_path):
    a = build(tmp_path / "a", seed=7, scale=0.003, sections=["kana"])
    b = build(tmp_path / "b", seed=7, scale=0.003, sections=["kana"])
    names = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert names == ["index.html", "kana.md", "kana.part.html", "kana_equilibrium.json", "kana_hand_values.png",
                     "kana_official.png", "kana_peek_one.png"]
    for name in names:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name
    text = a[0].read_text()
    assert "seed 7" in text and "no difference at this precision" in text and "839/16575" in text
    assert b[0].name == "kana.md"


def test_notebook_runs(tmp_path):
    nb = nbformat.read(ROOT / "analysis" / "kana.ipynb", as_version=4)
    os.environ["CARDODDS_QUICK"] = "1"
    try:
        NotebookClient(nb, timeout=600, kernel_name="python3",
                       resources={"metadata": {"path": str(tmp_path)}}).execute()
    finally:
        os.environ.pop("CARDODDS_QUICK", None)
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.output_type == "error"]
    html = "".join(o.get("data", {}).get("text/html", "") for o in outputs)
    assert "<table" in html  # result objects render as tables in Jupyter
