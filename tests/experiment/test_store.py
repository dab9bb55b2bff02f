"""Chunk files: a chunk's arrays packed into one entry come back as they went in; chunk files of the
earlier layout (one entry per array) still read; a damaged packed file is not taken as finished."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from shuffle_sim.experiment.store import ResultsDir, _pack_arrays, _unpack_arrays

DTYPES = st.sampled_from([np.int64, np.int8, np.float64, np.bool_, np.uint64, "<U5"])
ARRAYS = DTYPES.flatmap(
    lambda dtype: hnp.arrays(dtype, hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4))
)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.text("abcdefghij_", min_size=1, max_size=8), ARRAYS, max_size=8))
def test_packed_arrays_come_back_as_they_went_in(arrays):
    packed = _pack_arrays(arrays)
    assert sorted(packed) == ["data", "layout"]
    back = _unpack_arrays(packed["layout"], packed["data"])
    assert list(back) == list(arrays)
    for name, value in arrays.items():
        assert back[name].dtype == value.dtype and back[name].shape == value.shape, name
        np.testing.assert_array_equal(back[name], value)
        assert back[name].flags.c_contiguous and back[name].flags.writeable


def test_a_strided_view_is_packed_by_its_values():
    view = np.arange(12, dtype=np.int64).reshape(3, 4)[:, ::-2]
    packed = _pack_arrays({"v": view})
    np.testing.assert_array_equal(_unpack_arrays(packed["layout"], packed["data"])["v"], view)


def test_object_arrays_are_refused():
    with pytest.raises(TypeError, match="'o' holds Python objects"):
        _pack_arrays({"o": np.array([object()])})


def _chunk(cells: int = 5) -> dict[str, np.ndarray]:
    return {
        "shots": np.arange(cells, dtype=np.int64),
        "value_counts": np.ones((cells, 4), np.int64),
        "cell_start": np.array(7, np.int64),
    }


def test_write_chunk_packs_and_read_chunk_and_finished_chunks_read_it(tmp_path):
    results = ResultsDir(tmp_path)
    results.chunks.mkdir(parents=True)
    results.write_chunk(0, _chunk(), "fp", 100)
    with np.load(results.chunk_path(0)) as data:
        assert sorted(data.files) == ["chunk_index", "chunk_size", "data", "fingerprint", "layout"]
    back = results.read_chunk(0)
    assert sorted(back) == ["cell_start", "shots", "value_counts"]
    assert int(back["cell_start"]) == 7 and back["value_counts"].shape == (5, 4)
    assert results.finished_chunks("fp", 100) == {0}
    assert results.finished_chunks("other", 100) == set()


def test_chunk_files_of_the_earlier_layout_still_read(tmp_path):
    results = ResultsDir(tmp_path)
    results.chunks.mkdir(parents=True)
    with open(results.chunk_path(3), "wb") as fh:
        np.savez(fh, **_chunk(), fingerprint=np.array("fp"), chunk_size=np.array(100), chunk_index=np.array(3))
    assert results.finished_chunks("fp", 100) == {3}
    back = results.read_chunk(3)
    assert sorted(back) == ["cell_start", "shots", "value_counts"]
    np.testing.assert_array_equal(back["shots"], np.arange(5))


def test_a_damaged_packed_chunk_is_not_finished(tmp_path):
    results = ResultsDir(tmp_path)
    results.chunks.mkdir(parents=True)
    results.write_chunk(1, _chunk(400), "fp", 100)
    raw = bytearray(results.chunk_path(1).read_bytes())
    at = raw.index(np.arange(400, dtype=np.int64)[200:202].tobytes())  # inside the packed data entry
    raw[at] ^= 0xFF
    results.chunk_path(1).write_bytes(bytes(raw))
    assert results.finished_chunks("fp", 100) == set()
