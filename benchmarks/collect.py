"""Write benchmarks/RESULTS.md: an index of the per-topic ``RESULTS_*.md`` files.

    python benchmarks/collect.py

Each benchmark script writes its own ``RESULTS_<topic>.md`` from one run; the index links to
them instead of copying them, so each figure lives in one file.
"""

from pathlib import Path

HERE = Path(__file__).resolve().parent
#: The topics listed first, in this order; any other ``RESULTS_*.md`` follows by name.
ORDER = ("report", "compile", "speed", "replacements", "shape", "kana", "kana_session", "kanalje",
         "kanalje_ladder", "canasta", "canasta_play", "canasta_ladder", "dask", "startup", "program")


def topics() -> list[Path]:
    """Every ``RESULTS_*.md`` here, those in ``ORDER`` first."""
    found = {f.stem.removeprefix("RESULTS_"): f for f in HERE.glob("RESULTS_*.md")}
    return [found[t] for t in ORDER if t in found] + [found[t] for t in sorted(found) if t not in ORDER]


def title(f: Path) -> str:
    """The file's first heading, without its ``#``s."""
    for line in f.read_text().splitlines():
        if line.startswith("#"):
            return line.lstrip("#").strip()
    return f.stem


def main() -> None:
    parts = [
        "# Benchmark results",
        "",
        "Each file below comes from one run of the script it names, on the machine it names; this machine "
        "is shared and noisy, so compare ratios within one file's run and read the medians.",
        "",
    ] + [f"- [{title(f)}]({f.name})" for f in topics()] + [""]
    (HERE / "RESULTS.md").write_text("\n".join(parts))
    print(HERE / "RESULTS.md")


if __name__ == "__main__":
    main()
