"""Thread shares and thread counts (``shuffle_sim._runtime.threads``)."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from shuffle_sim._runtime.threads import numba_threads, one_numba_thread, run_shares, share_bounds


def test_shares_cover_every_item_once_in_order():
    for n in (0, 1, 5, 64, 1001):
        for shares in (1, 2, 3, 8):
            bounds = share_bounds(n, shares)
            covered = [k for lo, hi in bounds for k in range(lo, hi)]
            assert covered == list(range(n))
            assert len(bounds) <= max(1, shares)


def test_run_shares_writes_the_same_result_on_any_thread_count():
    def kernel(lo, hi, out):
        out[lo:hi] = np.arange(lo, hi) ** 2

    results = []
    for threads in (1, 2, 3):
        out = np.zeros(100)
        run_shares(kernel, 100, out, threads=threads)
        results.append(out)
    assert all(np.array_equal(results[0], r) for r in results)


def test_run_shares_raises_a_share_s_error():
    def kernel(lo, hi):
        if lo > 0:
            raise ValueError(f"share {lo}")

    with pytest.raises(ValueError, match="share"):
        run_shares(kernel, 10, threads=2)


def test_the_thread_count_comes_back_after_the_block_even_on_an_error():
    before = numba.get_num_threads()
    with one_numba_thread():
        assert numba.get_num_threads() == 1
    assert numba.get_num_threads() == before
    with pytest.raises(RuntimeError), numba_threads(1):
        assert numba.get_num_threads() == 1
        raise RuntimeError("inside")
    assert numba.get_num_threads() == before
