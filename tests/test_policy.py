"""The one user-function mechanism (cardodds.policy): compiled once, a clear error otherwise."""

import pytest
from numba import njit, types

from cardodds._jit import callback
from cardodds.policy import compile_user, is_njit

SIG = types.int64(types.int64, types.int64)
CALL = "policy(a, b) -> int"


@callback(SIG)
def _stand_in(a, b):
    return -1


@njit
def _larger(a, b):
    return max(a, b)


def test_compiles_to_the_signature_once_per_function():
    f = compile_user(_larger, SIG, "the policy", CALL, _stand_in)
    assert f(2, 5) == 5 and f(7, 1) == 7
    assert compile_user(_larger, SIG, "the policy", CALL, _stand_in) is f
    assert compile_user(None, SIG, "the policy", CALL, _stand_in) is _stand_in
    # the same function for another signature is another compilation, not the cached one
    g = compile_user(_larger, types.float64(types.float64, types.float64), "the policy", CALL)
    assert g is not f and g(2.5, 1.0) == 2.5


def test_a_function_of_the_wrong_signature_names_what_to_fix():
    @njit
    def three(a, b, c):
        return a

    with pytest.raises(ValueError, match=r"the policy 'three' does not compile as policy\(a, b\) -> int"):
        compile_user(three, SIG, "the policy", CALL, _stand_in)


def test_a_plain_function_is_refused():
    assert is_njit(_larger) and not is_njit(lambda a, b: a)
    with pytest.raises(ValueError, match="must be a numba @njit function"):
        compile_user(lambda a, b: a, SIG, "the policy", CALL, _stand_in)
