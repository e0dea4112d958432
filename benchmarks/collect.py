"""Gather every game's benchmark figures into benchmarks/RESULTS.md.

    python benchmarks/kana.py && python benchmarks/canasta.py && python benchmarks/collect.py

Each game's script writes ``RESULTS_<game>.md`` from one run on one machine; this file
only puts them under one roof, in a fixed order, so the figures stay those of a run.
"""

from pathlib import Path

HERE = Path(__file__).resolve().parent
ORDER = ("report", "compile", "speed", "shape", "kana", "kana_session", "kanalje", "canasta", "canasta_play", "dask",
         "startup", "program")


def main() -> None:
    parts = [
        "# Benchmark results",
        "",
        "Throughput of the public calls against baselines run in the same process, compile time apart. "
        "Each section comes from one run of `benchmarks/<game>.py` on the machine it names; this machine is "
        "shared and noisy, so compare the ratios within a section and read the medians.",
        "",
    ]
    for game in ORDER:
        f = HERE / f"RESULTS_{game}.md"
        if f.exists():
            text = f.read_text().strip().splitlines()
            # demote each game's headings one level under this page's title
            parts += [("#" + line if line.startswith("#") else line) for line in text] + [""]
    (HERE / "RESULTS.md").write_text("\n".join(parts))
    print(HERE / "RESULTS.md")


if __name__ == "__main__":
    main()
