"""numba argument types written as JSON and read back equal, so that numba's cache key is the same."""

from __future__ import annotations

import json

import numba
import numpy as np
import pytest
from numba.core import types

from shuffle_sim._runtime.numba_types import decode_signature, decode_type, encode_signature, encode_type
from shuffle_sim.court import load_court
from shuffle_sim.judging import judge_arrays
from shuffle_sim.physics.laws.choice import CLOSED_FORM, INTEGRATED, court_motion


def _kernel_arguments():
    """Values of every kind the package's kernels take: scalars, arrays of each layout, tuples (the
    same and mixed), a named tuple of arrays (a court's judging geometry) and a law."""
    court = load_court("deck")
    readonly = np.zeros(3)
    readonly.flags.writeable = False
    return [
        CLOSED_FORM,
        INTEGRATED,
        court_motion(court),
        judge_arrays(court),
        (judge_arrays(court), np.zeros(3), 1),
        np.uint64(3),
        np.int8(-1),
        True,
        2.5,
        np.zeros((2, 2), np.int8),
        np.zeros((2, 3, 4)),
        np.zeros((3, 3))[:, ::2],
        np.zeros((3, 3), order="F"),
        readonly,
        (1.0, 2.0),
        (np.zeros(2, np.bool_), (np.zeros((1, 1)), 3)),
    ]


def test_every_kind_of_kernel_argument_reads_back_as_the_same_type_through_json():
    written = tuple(numba.typeof(v) for v in _kernel_arguments())
    read = decode_signature(json.loads(json.dumps(encode_signature(written))))
    assert read == written
    assert [hash(t) for t in read] == [hash(t) for t in written]  # numba's cache key hashes them


def test_arrays_scalars_and_tuples_are_written_as_readable_data():
    assert encode_type(types.int64) == "int64"
    assert encode_type(types.Array(types.float64, 2, "C")) == "array(float64, 2d, C)"
    assert encode_type(types.Array(types.int8, 1, "A", readonly=True)) == "readonly array(int8, 1d, A)"
    assert encode_type(types.UniTuple(types.bool_, 2)) == {"tuple": ["bool", "bool"]}
    named = encode_type(numba.typeof(judge_arrays(load_court("deck"))))
    assert named["namedtuple"] == "shuffle_sim.judging.packing:JudgeArrays"
    assert "pickle" in encode_type(numba.typeof(CLOSED_FORM))


@pytest.mark.parametrize("data", ["not_a_type", "len", {"set": []}])
def test_data_that_is_no_written_type_is_refused_with_what_it_was(data):
    with pytest.raises(ValueError, match="not a"):
        decode_type(data)
