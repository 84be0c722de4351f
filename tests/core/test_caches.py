"""caches: a cache keyed by what a program meets keeps serving the shapes it uses now."""

import numpy as np

from chainrules.core import projection
from chainrules.core.caches import Bounded
from chainrules.core.projection import plain_projectors, projector


def test_a_full_cache_starts_afresh_and_keeps_its_bound():
    cache = Bounded(3)
    for key in range(10):
        assert cache.keep(key, str(key)) == str(key)
        assert len(cache) <= 3 and cache.get(key) == str(key)
    assert dict(cache) == {9: "9"}


def test_projectors_stay_shared_after_a_program_has_met_more_shapes_than_the_cache_holds(
    monkeypatch,
):
    # A program that has met ever new shapes still shares the projectors and their tuples of
    # the shapes it uses now (a cache that stopped taking new entries would make both again on
    # every call).
    monkeypatch.setattr(projection, "_array_projectors", Bounded(4))
    monkeypatch.setattr(projection, "_projector_tuples", Bounded(4))
    for n in range(1, 20):  # more shapes than either cache holds
        projector(np.ones(n))
        plain_projectors((np.ones(n), 2.0))
    x = np.ones(7)
    assert projector(x) is projector(np.zeros(7))
    assert plain_projectors((x, 2.0))[1] is plain_projectors((np.zeros(7), 3.0))[1]
    assert len(projection._array_projectors) <= 4 and len(projection._projector_tuples) <= 4
