"""Seeds for reproducible, thread-count independent Monte Carlo.

Every stochastic public function takes ``rng=`` (None, an int, a ``numpy.random.Generator``
or a ``numpy.random.SeedSequence``). :func:`as_seed_sequence` turns it into one
``SeedSequence``; chunk ``i`` of a run always gets the ``i``-th child of it
(the same child ``SeedSequence.spawn`` would give), so the counts do not depend on how
many threads ran the chunks or in which order.

>>> ss, seed = as_seed_sequence(42)
>>> seed
42
>>> chunk_state(ss, 0).tolist() == chunk_state(ss, 0).tolist()
True
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = ["as_seed_sequence", "child", "chunk_state", "chunk_states"]

RngLike = None | int | np.random.Generator | np.random.SeedSequence


#: What a result records as its seed: an int, or the entropy and spawn key of a child SeedSequence.
SeedRecord = int | dict[str, object]


def as_seed_sequence(rng: RngLike) -> tuple[np.random.SeedSequence, SeedRecord]:
    """Normalise ``rng=`` into a ``SeedSequence`` and the seed to record with results.

    ``None`` draws fresh entropy and records it, so a run without a seed can still be
    repeated by passing the recorded seed. A ``Generator`` is advanced (one draw), so two
    calls with the same generator give independent results, as numpy users expect.
    """
    if rng is None:
        ss = np.random.SeedSequence()
        return ss, _entropy(ss)
    if isinstance(rng, np.random.SeedSequence):
        if rng.spawn_key:
            return rng, {"entropy": _entropy(rng), "spawn_key": list(rng.spawn_key)}
        return rng, _entropy(rng)
    if isinstance(rng, np.random.Generator):
        entropy = int(rng.integers(0, 2**63 - 1, dtype=np.int64))
        return np.random.SeedSequence(entropy), entropy
    if isinstance(rng, numbers.Integral) and not isinstance(rng, bool):
        if rng < 0:
            raise ValueError(f"rng={rng} is a negative seed; pass a seed >= 0")
        return np.random.SeedSequence(int(rng)), int(rng)
    raise ValueError(
        f"rng={rng!r} is not understood; pass None, a non-negative int seed, "
        "a numpy.random.Generator or a numpy.random.SeedSequence"
    )


def _entropy(ss: np.random.SeedSequence) -> int:
    # A SeedSequence made from an int (every one cardodds makes or records) has int entropy.
    entropy = ss.entropy
    if isinstance(entropy, int):
        return entropy
    raise ValueError("rng= SeedSequence must be made from one integer seed, e.g. np.random.SeedSequence(42)")


def child(ss: np.random.SeedSequence, *key: int) -> np.random.SeedSequence:
    """The child of ``ss`` at ``key``: its spawn key extended by ``key``.

    The one way cardodds derives a seed from another: ``child(ss, i)`` is the same
    ``SeedSequence`` as ``ss.spawn(i + 1)[i]`` on a fresh ``ss``, without spawn's counter, so
    any chunk or any step of a study is seeded on its own, whatever ran before it.

    >>> ss = np.random.SeedSequence(42)
    >>> child(ss, 3).generate_state(2).tolist() == ss.spawn(4)[3].generate_state(2).tolist()
    True
    >>> child(ss, 14, 2).spawn_key
    (14, 2)
    """
    return np.random.SeedSequence(ss.entropy, spawn_key=tuple(ss.spawn_key) + tuple(key), pool_size=ss.pool_size)


def chunk_state(ss: np.random.SeedSequence, index: int) -> np.ndarray:
    """The 256-bit xoshiro256** state (4 x uint64) of chunk ``index``."""
    state = child(ss, index).generate_state(4, np.uint64)
    if not state.any():  # the one state xoshiro cannot leave
        state[0] = 1
    return state


def chunk_states(ss: np.random.SeedSequence, start: int, count: int) -> np.ndarray:
    """States of chunks ``start .. start+count-1`` as a (count, 4) uint64 array."""
    out = np.empty((count, 4), dtype=np.uint64)
    for i in range(count):
        out[i] = chunk_state(ss, start + i)
    return out
