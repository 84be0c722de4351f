"""Tests of the rules of np.linalg's aliases of np functions."""

import numpy as np
import pytest
from chainrules_testing import test_frule, test_rrule
from samples import DTYPES, ids, sample

import chainrules as cr

ALIASES = [
    (np.linalg.matmul, [(2, 3), (3, 2)], {}),
    (np.linalg.outer, [(3,), (2,)], {}),
    (np.linalg.cross, [(2, 3), (3,)], {}),
    (np.linalg.matrix_transpose, [(2, 3, 4)], {}),
    (np.linalg.tensordot, [(2, 3), (3, 2)], {"axes": 1}),
    (np.linalg.trace, [(2, 3, 3)], {"offset": 1}),
    (np.linalg.diagonal, [(2, 3, 4)], {"offset": -1}),
]


@pytest.mark.parametrize("f, shapes, kwargs", ALIASES, ids=lambda v: getattr(v, "__name__", ""))
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_aliases(f, shapes, kwargs, dtype):
    args = [sample(s, dtype, k) for k, s in enumerate(shapes)]
    test_rrule(f, *args, fkwargs=kwargs)
    test_frule(f, *args, fkwargs=kwargs)


def test_alias_rejects_unknown_keywords():
    with pytest.raises(cr.RuleKeywordError, match="axis1"):
        cr.rrule(np.linalg.trace, np.eye(2), axis1=0)
