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
        {
            "role": "compile helper",
            "seconds": 0.5,
            "cpu_seconds": 0.5,
            "compilations": [_compilation("shuffle_sim.a.inner", "(float64)", 0.5)],
        },
    ]
    report = kernel_report(logs, top=2)
    assert report["compilations"] == 7 and report["processes"] == 3
    assert report["compile_seconds"] == 4.5 and report["compile_cpu_seconds"] == 4.0
    assert report["kernels"] == {"shuffle_sim.b.k": 2.0, "shuffle_sim.a.inner": 1.25}
    assert report["own_seconds"]["shuffle_sim.a.inner"] == 1.25
    assert report["waited_seconds"]["shuffle_sim.a.inner"] == 0.75  # the helper's compile is beside the command's
    assert report["twice_compiled"] == {
        "shuffle_sim.a.inner": ["(Literal[int](0))", "(float64)", "(int64)"]  # numba's own left out
    }


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


def test_a_plan_records_each_kernel_with_every_signature_it_was_compiled_for_in_the_plan_s_order():
    from shuffle_sim.bench.first_use import planned_signatures

    def compiled(function, signature, args):
        return {**_compilation(function, signature, 1.0), "arg_types": args}

    logs = [
        {
            "compilations": [
                compiled("m.late", "(int64)", ["int64"]),
                compiled("m.late", "(float64)", ["float64"]),
                compiled("m.late", "(int64)", ["int64"]),  # a second process's compile of the same
                compiled("m.other", "(int64)", ["int64"]),
                compiled("m.unwritable", "(x)", None),
            ]
        },
        {"compilations": [compiled("m.first", "(int8)", ["int8"])]},
    ]
    plan = planned_signatures(logs, ("m.first", "m.late", "m.unwritable", "m.absent"))
    assert plan == [
        {"function": "m.first", "args": ["int8"]},
        {"function": "m.late", "args": ["int64"]},
        {"function": "m.late", "args": ["float64"]},
    ]


def test_an_unknown_key_is_refused_naming_the_commands_and_the_lab():
    import pytest

    from shuffle_sim.bench.first_use import LAB, first_use

    with pytest.raises(ValueError, match=r"unknown command keys \['nope'\].*'lab'"):
        first_use(only=("nope", LAB))


def test_the_lab_s_first_use_is_measured_from_its_start_to_a_grade_answered_warm():
    from shuffle_sim.bench.first_use import LAB, first_use, format_first_use

    lab = first_use(only=(LAB,))[LAB]
    assert lab["command"] == "lab --court deck"
    assert lab["cold_seconds"] > 0 and lab["first_grade_seconds"] > 0 and lab["grade_seconds"] > 0
    assert lab["grade_met"] == (lab["grade_seconds"] <= lab["grade_goal_seconds"] == 2.0)
    # Stopped with Ctrl-C, the lab wrote its compile events: it compiled on its empty cache.
    assert lab["compilations"] > 0 and lab["kernels"]
    assert "a grade typed then had its path drawn" in format_first_use({LAB: lab})
