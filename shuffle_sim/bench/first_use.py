"""The first use of each command on an empty numba cache, the same command again, and which kernels
took the compile time: the per-command part of ``shuffle-sim bench-startup``.

Each command runs in a new process, first with ``NUMBA_CACHE_DIR`` pointed at a new empty folder (as on
a fresh install: every kernel it needs is compiled), then again with that cache filled (warm). The
cold run sets ``SHUFFLE_SIM_COMPILE_LOG`` (``_runtime.compile_log``), so that it and any compile
helper it starts write numba's compile events; the report names the kernels with the most compile
seconds of their own and counts the functions compiled for more than one signature (each is compiled
once per signature, so a second one is compile time spent twice).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

EXPERIMENTS = Path(__file__).resolve().parents[2] / "experiments"

#: A deck board: four resting discs at the foot (docs/formats/boards.md).
BOARD = {
    "court": "deck",
    "end": "foot",
    "discs": [
        {"x": 0.0, "y": 11.1, "team": "yellow"},
        {"x": -0.3, "y": 12.2, "team": "black"},
        {"x": 0.3, "y": 12.0, "team": "yellow"},
        {"x": 0.35, "y": 13.6, "team": "black"},
    ],
}
#: A yellow disc shot at a black disc resting in the far 10 (docs/formats/scenes.md).
FLAT_SCENE = {
    "court": "deck",
    "end": "foot",
    "params": {"mu": 0.018},
    "discs": [
        {"x": 0.0, "y": 11.2, "team": "black"},
        {"x": 0.2286, "y": 2.2098, "vx": -0.025, "vy": 2.02, "omega": 0.5, "team": "yellow"},
    ],
}
#: The same scene on a court with a grade: the curved motion's kernels.
SLOPED_SCENE = {**FLAT_SCENE, "params": {"mu": 0.018, "slope": [0.0005, 0.0002]}}


#: The advice by the chance to win: a score and the hammer.
SCORE_HAMMER = ("--score", "70-60", "--hammer")


@dataclass(frozen=True)
class Command:
    """One command of the table: its key in the report and its arguments (``{dir}``: the inputs' folder)."""

    key: str
    args: tuple[str, ...]


#: The commands a user meets first, in the order the report lists them.
COMMANDS = (
    Command("judge", ("judge", "deck", "--disc", "0,11.1")),
    Command("score", ("score", "deck", "{dir}/board.json")),
    Command("simulate_flat", ("simulate", "{dir}/flat.json")),
    Command("simulate_sloped", ("simulate", "{dir}/sloped.json")),
    Command("advise_deck", ("advise", "deck", "{dir}/board.json", "--shooter", "black")),
    Command("advise_deck_score", ("advise", "deck", "{dir}/board.json", "--shooter", "black", *SCORE_HAMMER)),
    Command("play_deck", ("play", "deck", "--seed", "1", "--out", "{dir}/play-deck")),
    Command("play_crokinole", ("play", "crokinole", "--seed", "1", "--out", "{dir}/play-crokinole")),
    Command("run_deck-draw", ("run", str(EXPERIMENTS / "deck-draw.toml"), "--out", "{dir}/deck-draw")),
    Command("run_crokinole-open20", ("run", str(EXPERIMENTS / "crokinole-open20.toml"), "--out", "{dir}/open20")),
)
_CLOSED_FORM = "shuffle_sim.physics.laws.closed_form"
_INTEGRATED = "shuffle_sim.physics.laws.integrated"
#: The callees a flat court's event loop compiles last, the coupled pair prediction (the largest) first.
_LOOP_TAIL = (
    f"{_CLOSED_FORM}.pair_predict.coupled_predict_pair",
    f"{_CLOSED_FORM}.impacts.disc_disc_impact",
    f"{_CLOSED_FORM}.impacts.fixed_body_impact",
    f"{_CLOSED_FORM}.disc_state.state_at",
)
_RUN_FROM_START = "shuffle_sim.physics.loop.run_from_start"
_BOARD_SHOTS = "shuffle_sim.physics.faces.shot_kernels.play_board_chunks"
_JUDGE_RANGE = "shuffle_sim.judging.batch.judge_range"
_ADVISE_DECK = (
    *_LOOP_TAIL,
    "shuffle_sim.playing._deck_plan.canonical_values",
    "shuffle_sim.playing.players.success._visible_after",
    "shuffle_sim.playing.search.deck_rollout._rollouts",
)
#: For each command with a compile plan (``_runtime.compile_ahead``), the kernels its helper process
#: compiles, in the order the command reaches them: about half the compile, those the command
#: reaches last, while the command compiles the rest (the judge, the placing of the discs, the lone
#: shots or the first batch among discs). ``--record`` writes each with the argument types the
#: command compiled it for.
PLANS = {
    "simulate_flat": _LOOP_TAIL,
    # The integrated law: the integrator's step, which the placing of the discs waits for, the event
    # search's pieces it reaches last, the event loop's steps in the order the loop reaches them
    # (those that start a body wait for the command's, ``PLAN_WAITS``), and the judge.
    "simulate_sloped": (
        f"{_INTEGRATED}.step.step",
        f"{_INTEGRATED}.shapes.start_shape",
        f"{_INTEGRATED}.shapes.first_event",
        f"{_INTEGRATED}.rides.ride_release",
        f"{_INTEGRATED}.loop_steps.refresh",
        f"{_INTEGRATED}.loop_steps.advance",
        f"{_INTEGRATED}.loop_steps.exact_time",
        f"{_INTEGRATED}.groups._dissolve",
        f"{_INTEGRATED}.lone_events.event_state",
        f"{_INTEGRATED}.loop_steps.start_pending",
        f"{_INTEGRATED}.loop_steps.apply_event",
        _JUDGE_RANGE,
    ),
    "advise_deck": _ADVISE_DECK,
    "advise_deck_score": _ADVISE_DECK,
    "play_deck": (_RUN_FROM_START, _BOARD_SHOTS),
    "play_crokinole": (_RUN_FROM_START, _BOARD_SHOTS),
}
#: Kernels a plan's helper waits for rather than compiles: callees of its own kernels that the command
#: compiles first (starting a body of the integrated law: the placing of the discs; a body's own
#: events: the loop's end of a ride), so that the two never compile the same kernel at once.
PLAN_WAITS = {
    "simulate_sloped": (f"{_INTEGRATED}.bodies.start_body", f"{_INTEGRATED}.contacts._body_event"),
}
#: The key of the shot lab's first use (``measure_lab``), measured after the commands.
LAB = "lab"
#: The commands of a quick run (a smoke run for the tests: the cheapest cold compile).
QUICK_COMMANDS = ("judge",)
#: Kernels listed per command in the report, the most compile seconds of their own first.
TOP_KERNELS = 12


def write_inputs(folder: Path) -> None:
    """The board and the two scenes the commands read."""
    for name, data in (("board", BOARD), ("flat", FLAT_SCENE), ("sloped", SLOPED_SCENE)):
        (folder / f"{name}.json").write_text(json.dumps(data))


def _environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("SHUFFLE_SIM_COMPILE_LOG", "NUMBA_CACHE_DIR")}
    env.update(extra)
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join([root] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    return env


def _run(argv: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Wall seconds and processor seconds (user and system, its helper processes included once reaped)
    of one command, and its standard error; a failing command raises, with its error."""
    with tempfile.TemporaryFile("w+") as err:
        began = time.perf_counter()
        proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=err, text=True)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - began
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        stderr = err.read()
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(argv[3:])} failed ({proc.returncode}): {stderr.strip()[-2000:]}")
    return seconds, usage.ru_utime + usage.ru_stime, stderr


def kernel_report(logs: list[dict], top: int = TOP_KERNELS) -> dict:
    """The compile events of one command's processes, summed per function: totals (wall and the
    compiling threads' processor seconds), the functions with the most processor seconds of their
    own (a busy machine stretches wall seconds, hardly these), and those compiled for more than one
    signature. ``waited_seconds`` leaves out the compile helpers (``_runtime.compile_ahead``), which
    compile beside the command rather than before it: what the command is expected to wait for."""
    own: dict[str, float] = defaultdict(float)
    signatures: dict[str, set[str]] = defaultdict(set)
    count = 0
    for log in logs:
        for c in log["compilations"]:
            own[c["function"]] += c["own_cpu_seconds"]
            signatures[c["function"]].add(c["signature"])
            count += 1
    ranked = sorted(own.items(), key=lambda item: -item[1])
    waited: dict[str, float] = defaultdict(float)
    for log in logs:
        if log.get("role") != "compile helper":
            for c in log["compilations"]:
                waited[c["function"]] += c["own_cpu_seconds"]
    return {
        "own_seconds": {name: round(seconds, 3) for name, seconds in ranked if seconds >= 0.005},
        "waited_seconds": {name: round(s, 3) for name, s in sorted(waited.items(), key=lambda i: -i[1]) if s >= 0.005},
        "compilations": count,
        "compile_seconds": round(sum(log["seconds"] for log in logs), 2),
        "compile_cpu_seconds": round(sum(log["cpu_seconds"] for log in logs), 2),
        "processes": len(logs),
        "kernels": {name: round(seconds, 2) for name, seconds in ranked[:top]},
        "twice_compiled": {
            name: sorted(sigs) for name, sigs in signatures.items() if len(sigs) > 1 and not name.startswith("numba.")
        },
    }


def planned_signatures(logs: list[dict], functions: tuple[str, ...]) -> list[dict]:
    """``functions`` each with every argument signature the logged processes compiled it for, in the
    order of ``functions``, as ``compile_ahead``'s plans record them."""
    found: dict[str, dict[str, list]] = {name: {} for name in functions}
    for log in logs:
        for c in log["compilations"]:
            if c["function"] in found and c.get("arg_types") is not None:
                found[c["function"]].setdefault(c["signature"], c["arg_types"])
    return [{"function": name, "args": args} for name in functions for args in found[name].values()]


def _recorded_plan(key: str, argv: list[str]) -> list[dict]:
    """``key``'s plan for ``compile_ahead``: the command run alone on an empty cache (its helper
    switched off, so that it compiles every planned kernel itself), each planned kernel with the
    argument types it compiled it for, those its helper waits for marked so."""
    from shuffle_sim._runtime.compile_ahead import ENV_SWITCH
    from shuffle_sim._runtime.compile_log import ENV_LOG, read_logs

    with tempfile.TemporaryDirectory(prefix="shuffle-sim-plan-") as tmp:
        cache, logs = Path(tmp) / "cache", Path(tmp) / "logs"
        _run(argv, _environment(NUMBA_CACHE_DIR=str(cache), **{ENV_LOG: str(logs), ENV_SWITCH: "0"}))
        alone = read_logs(logs)
    waits = planned_signatures(alone, PLAN_WAITS.get(key, ()))
    return planned_signatures(alone, PLANS[key]) + [{**entry, "wait": True} for entry in waits]


def measure_command(command: Command, inputs: Path, with_warm: bool = True, plan: bool = False) -> dict:
    """One command cold (a new empty numba cache, compile events logged) and, with ``with_warm``, warm;
    with ``plan``, its compile plan too (``_recorded_plan``, another cold run), if it has one."""
    from shuffle_sim._runtime.compile_log import ENV_LOG, read_logs

    argv = [sys.executable, "-P", "-m", "shuffle_sim.cli", *(a.replace("{dir}", str(inputs)) for a in command.args)]
    with tempfile.TemporaryDirectory(prefix="shuffle-sim-first-use-") as tmp:
        cache, logs = Path(tmp) / "cache", Path(tmp) / "logs"
        cold, cold_cpu, stderr = _run(argv, _environment(NUMBA_CACHE_DIR=str(cache), **{ENV_LOG: str(logs)}))
        result: dict[str, Any] = {"cold_seconds": round(cold, 2), "cold_cpu_seconds": round(cold_cpu, 2)}
        cold_logs = read_logs(logs)
        result.update(kernel_report(cold_logs))
        if plan and command.key in PLANS:
            result["plan"] = _recorded_plan(command.key, argv)
        result["cold_stderr_lines"] = [line for line in stderr.replace("\r", "\n").splitlines() if line.strip()][-3:]
        if with_warm:
            warm, warm_cpu, stderr = _run(argv, _environment(NUMBA_CACHE_DIR=str(cache)))
            result.update(warm_seconds=round(warm, 2), warm_cpu_seconds=round(warm_cpu, 2))
            result["warm_stderr"] = stderr.strip()
    return result


def first_use(quick: bool = False, only: tuple[str, ...] | None = None, plans: bool = False) -> dict:
    """Every command of the table and the shot lab (``LAB``, ``measure_lab``), cold and warm,
    keyed by the command's key (``quick``: those of ``QUICK_COMMANDS``; ``only``: those named);
    ``plans``: with the compile plans to record."""
    known = (*(c.key for c in COMMANDS), LAB)
    keys = only or (QUICK_COMMANDS if quick else known)
    unknown = set(keys) - set(known)
    if unknown:
        raise ValueError(f"unknown command keys {sorted(unknown)}: choose from {list(known)}")
    results = {}
    with tempfile.TemporaryDirectory(prefix="shuffle-sim-first-use-inputs-") as tmp:
        inputs = Path(tmp)
        write_inputs(inputs)
        for command in COMMANDS:
            if command.key in keys:
                measured = measure_command(command, inputs, plan=plans)
                results[command.key] = {"command": " ".join(command.args), **measured}
    if LAB in keys:
        results[LAB] = measure_lab()
    return results


def measure_lab() -> dict:
    """The shot lab's first use, as ``python -m shuffle_sim.lab.first_use --json`` measures it (the
    lab driven in the browser from its start on an empty numba cache); a failing measurement raises,
    with its error."""
    argv = [sys.executable, "-P", "-m", "shuffle_sim.lab.first_use", "--json"]
    done = subprocess.run(argv, env=_environment(), capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the lab's first use failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def format_first_use(results: dict) -> str:
    """The table as text: each command's cold and warm seconds and its costliest kernels."""
    lines = [f"{'command':24s} {'first use':>10s} {'again':>8s} {'compiles':>9s}  costliest kernels (own s)"]
    for key, r in results.items():
        if "skipped" in r:
            lines.append(f"{key:24s} not measured: {r['skipped']}")
            continue
        kernels = ", ".join(f"{name.rsplit('.', 1)[-1]} {s}" for name, s in list(r["kernels"].items())[:3])
        again = "-" if r.get("warm_seconds") is None else f"{r['warm_seconds']:.1f}s"  # the lab: none
        lines.append(f"{key:24s} {r['cold_seconds']:>9.1f}s {again:>8s} {r['compilations']:>9d}  {kernels}")
        if "grade_seconds" in r:
            lines.append(
                f"{'':24s} usable after {r['cold_seconds']:.1f} s; a grade typed then had its path drawn after "
                f"{r['first_grade_seconds']:.1f} s, another grade after {r['grade_seconds']:.2f} s "
                f"(goal {r['grade_goal_seconds']:.0f} s)"
            )
        for name, sigs in r["twice_compiled"].items():
            lines.append(f"{'':24s} compiled {len(sigs)} times: {name}")
    return "\n".join(lines)


__all__ = [
    "COMMANDS",
    "LAB",
    "PLANS",
    "PLAN_WAITS",
    "QUICK_COMMANDS",
    "Command",
    "first_use",
    "format_first_use",
    "kernel_report",
    "measure_command",
    "measure_lab",
    "planned_signatures",
]
