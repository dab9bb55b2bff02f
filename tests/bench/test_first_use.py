"""The first use of each command: the compile events summed per kernel, and one command measured."""

from __future__ import annotations

from shuffle_sim.bench.first_use import COMMANDS, QUICK_COMMANDS, kernel_report


def _compilation(function, signature, own, parent=None):
    return {"function": function, "signature": signature, "own_cpu_seconds": own, "seconds": own, "parent": parent}


def test_the_report_sums_own_seconds_per_kernel_and_names_kernels_compiled_twice():
    logs = [
        {
            "seconds": 3.0,
            "cpu_seconds": 2.5,
            "compilations": [
                _compilation("shuffle_sim.a.outer", "(int64)", 1.0),
                _compilation("shuffle_sim.a.inner", "(int64)", 0.5, "shuffle_sim.a.outer"),
                _compilation("shuffle_sim.a.inner", "(Literal[int](0))", 0.25, "shuffle_sim.a.outer"),
                _compilation("numba.cpython.builtins.impl", "(int64)", 0.1),
                _compilation("numba.cpython.builtins.impl", "(float64)", 0.1),
            ],
        },
        {"seconds": 1.0, "cpu_seconds": 1.0, "compilations": [_compilation("shuffle_sim.b.k", "(float64)", 2.0)]},
    ]
    report = kernel_report(logs, top=2)
    assert report["compilations"] == 6 and report["processes"] == 2
    assert report["compile_seconds"] == 4.0 and report["compile_cpu_seconds"] == 3.5
    assert report["kernels"] == {"shuffle_sim.b.k": 2.0, "shuffle_sim.a.outer": 1.0}
    assert report["own_seconds"]["shuffle_sim.a.inner"] == 0.75
    assert report["twice_compiled"] == {"shuffle_sim.a.inner": ["(Literal[int](0))", "(int64)"]}  # numba's own left out


def test_the_table_holds_the_commands_a_user_meets_first():
    keys = [c.key for c in COMMANDS]
    assert len(set(keys)) == len(keys) == 10 and set(QUICK_COMMANDS) <= set(keys)


def test_a_command_s_first_use_is_measured_cold_and_warm():
    from shuffle_sim.bench.first_use import first_use

    (judge,) = first_use(quick=True).values()
    assert judge["cold_seconds"] > judge["warm_seconds"] > 0
    assert judge["compilations"] > 0 and judge["twice_compiled"] == {}
    assert any("judging" in name for name in judge["kernels"])
    assert judge["cold_stderr_lines"] and "compiling kernels" in judge["cold_stderr_lines"][0]
    assert judge["warm_stderr"] == ""
