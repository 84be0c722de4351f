"""sequences: tangents of list and tuple arguments and outputs."""

import numpy as np

from chainrules.core.sequences import (
    argument_projector,
    dense_nested,
    dense_tangents,
    nest_like,
    output_cotangents,
    sequence_tangent,
    tangent_value,
)
from chainrules.core.tangents import NO_TANGENT, ZERO_TANGENT, MutableTangent, Tangent


def test_a_list_argument_gets_a_tangent_laid_out_like_it():
    project = argument_projector([[1.0, 2.0], [3.0, 4.0]])
    dx = project(np.array([[1.0, 2.0], [3.0, 4.0]]))
    assert isinstance(dx, MutableTangent) and list(dx[1]) == [3.0, 4.0]
    assert argument_projector(np.ones(2))(np.array([1.0, 2.0])).tolist() == [1.0, 2.0]


def test_nest_like_sums_a_broadcast_cotangent_back_first():
    nested = nest_like(np.ones((3, 2)), [1.0, 2.0])  # broadcast along a new leading axis
    assert [float(v) for v in nested] == [3.0, 3.0]
    assert nest_like(ZERO_TANGENT, [1.0]) is ZERO_TANGENT


def test_zeros_become_dense_inside_sequences_only():
    assert tangent_value(ZERO_TANGENT, np.ones(2)) is ZERO_TANGENT
    assert tangent_value(NO_TANGENT, [1.0]) is NO_TANGENT
    nested = dense_nested(Tangent(list, ZERO_TANGENT, np.ones(2)), [1.0, np.zeros(2)])
    assert nested[0].shape == () and nested[1].tolist() == [1.0, 1.0]


def test_output_cotangents_and_tangents_of_sequences():
    outputs = [np.ones(2), np.ones((1, 3), dtype=np.float32)]
    dense = output_cotangents((ZERO_TANGENT, np.ones((1, 3))), outputs)
    assert dense[0].tolist() == [0.0, 0.0] and dense[1].shape == (1, 3)
    dense = dense_tangents(ZERO_TANGENT, outputs)
    assert dense[1].dtype == np.float32 and not dense[1].any()
    assert sequence_tangent([1.0, 2.0], [0.0, 0.0]) == Tangent(list, 1.0, 2.0)
