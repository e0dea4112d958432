"""The built-in Känä policies' compiled decisions (docs/rules/kana.md §5). Private.

A *configuration* is one policy per seat, packed as arrays (``policies.pack``): ``kinds[c, p]``,
``args[c, p]``, ``ctxmode[c, p]``, the peek-one table ``t1[c, p, ctx, rank]`` (1 = känä the
peeked card) and the peek-all table ``t3[c, p, ctx, combo]`` (which of the three cards,
lowest-ranked first, to känä; -1 random). A seat's *context* is the highest rank känäd
before it (13 when it is first), so a policy can react to what it has seen. A user's policy
(``KIND_CUSTOM``) is called through a compiled pointer of :data:`CUSTOM_SIGNATURE`.
"""

from collections import namedtuple

from numba import types

from .._jit import callback, helper, inline
from ._table import COMBO, random_position, sort3

#: A table's policies as the kernels read them (``policies.pack``), indexed
#: ``[configuration, seat]``: kind, blind position, whether the context is used, the
#: peek-one table ``t1[c, p, ctx, rank]`` and the peek-all table ``t3[c, p, ctx, combo]``.
Policies = namedtuple("Policies", ["kinds", "args", "ctxmode", "t1", "t3"])

KIND_BLIND = 0  # känä the card at position args (0..2), or a random one (-1): no look
KIND_PEEK_ONE = 1  # look at position 0; t1 says whether to känä it or an unseen card
KIND_PEEK_ALL = 2  # look at all three; t3 says which (by rank order) to känä
KIND_CUSTOM = 3  # the user's compiled decision function

NCTX = 14  # contexts: the highest rank känäd before (0..12), or 13 for none seen
NO_CONTEXT = 13


@helper
def context_of(kanad, nk, mode):
    """The highest rank among the first ``nk`` känäd cards (:data:`NO_CONTEXT` for none, or
    when the policy ignores the context, ``mode`` 0)."""
    if mode == 0 or nk == 0:
        return NO_CONTEXT
    top = 0
    for j in range(nk):
        top = max(top, kanad[j] >> 2)
    return top


@helper
def _ask_custom(custom, p, hand, peeked, kanad, nk, s):
    """The call into a custom policy, compiled with numba's reference counting: the callers
    are ``@loop`` functions (without it), and a user's function called straight from such a
    loop corrupted the heap in Kanalje (see ARCHITECTURE.md, Speed)."""
    return custom(s, p, hand, peeked, kanad, nk)


@inline
def decide(s, c, p, kinds, args, ctxmode, t1, t3, hand, kanad, custom, peeked):
    """Position (0..2) of the card seat ``p`` känäs under configuration ``c``; ``hand`` holds
    its three cards, ``kanad[:p]`` the cards the seats before it känäd.

    The policy arrays come apart, bound once by the caller: a field read from the
    :data:`Policies` bundle in the inner loop made ``compare`` slower (``RESULTS_speed.md``). Its callers
    (``_kernels._configs_loop``, ``_advise._worlds_loop``, ``_session._sessions_loop``) are
    compiled without reference counting, and inline it once or twice each: a compiled
    ``decide_call`` for the rare decisions cost more compile time than a second inlined copy.
    """
    kind = kinds[c, p]
    if kind == KIND_BLIND:
        pos = args[c, p]
        if pos < 0:
            pos = random_position(s)
        return pos
    if kind == KIND_CUSTOM:
        return _ask_custom(custom, p, hand, peeked, kanad, p, s)
    ctx = context_of(kanad, p, ctxmode[c, p])
    if kind == KIND_PEEK_ONE:
        # The two unseen cards are exchangeable: känäing "an unseen card" is position 1.
        return 0 if t1[c, p, ctx, hand[0] >> 2] else 1
    a, b, cc, ra, rb, rc = sort3(hand[0] >> 2, hand[1] >> 2, hand[2] >> 2)
    j = t3[c, p, ctx, COMBO[ra, rb, rc]]
    if j < 0:
        return random_position(s)
    if j == 0:
        return a
    if j == 1:
        return b
    return cc


#: ``decide(state, seat, hand, peeked, kanad, n_kanad) -> position``: the kernels call a user's
#: policy through a pointer of this type (documented in :mod:`cardodds.kana.view`), so they are
#: compiled, and cached, once, whatever the function. The random state comes first, as in every game.
CUSTOM_SIGNATURE = types.int64(types.uint64[::1], types.int64, types.int64[::1], types.int64, types.int64[::1],
                               types.int64)


@callback(CUSTOM_SIGNATURE)
def no_custom(s, seat, hand, peeked, kanad, n_kanad):
    """Stands in for a user's policy at tables without one (never called there)."""
    return 0
