"""The lab's kernels compiled, or loaded from numba's cache, without ever holding up the page.

numba compiles a kernel on its first call and caches it (beside the sources, or in the folder
``NUMBA_CACHE_DIR`` names), so only a first run compiles: minutes on a small machine, against a
second or so to load them later. The kernels come in groups, each the lab's own calls on a tiny
case (``lab_groups``), in the order a player needs them:

==================  ==============================================================================
group               what it makes ready
==================  ==============================================================================
``board``           judging a disc and scoring a frame: the page itself
``shots``           a shot, on an empty court and among discs, and the rules after it
``copies``          noisy copies, on an empty court and among discs
``advice``          the shot advisor's ranking
``surface``         on a graded and crowned court: the aim's predicted path and a shot
``surface copies``  noisy copies on that court
==================  ==============================================================================

``WarmUp`` runs in a thread of the server and marks each group ready (``is_ready``); the page is
built once the board's group is ready (``page_ready``) and every action that needs a group waits
for it in its session's queue, saying so (``session``), so a first run's page is usable as soon as
it can judge discs. This process loads (or compiles) the board's group itself; the others come from
two helper processes (``python -m shuffle_sim.lab.warmup``), side by side in two lanes (``LANES``:
the kernels of graded courts, the longest compile, beside the rest), each loading or compiling its
groups in turn into numba's cache and reporting each; this process then loads it from there. The
first lane starts at once when a core is free (``helper_process.core_to_spare``), else, as the
second, once the board's group is ready. Compiling in another process leaves this one's Python free
for the page (numba's compiler holds Python's lock for long stretches), and two processes use two
cores; on a warm cache a helper only loads, a few seconds. A helper that fails leaves its groups to
be compiled here, which gives the same kernels, only slower.

The terminal and the page say "compiling kernels" only when numba compiles (a ``numba:compile``
event, here or in a helper, which reports it), naming the cache folder numba uses.
"""

from __future__ import annotations

import argparse
import contextlib
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from numba.core import event

from shuffle_sim._runtime.helper_process import core_to_spare, module_command

COMPILING = "compiling kernels"
BOARD, SHOTS, COPIES, ADVICE, SURFACE, SURFACE_COPIES = (
    "board",
    "shots",
    "copies",
    "advice",
    "surface",
    "surface copies",
)
#: Every group, in the order this process loads those that are ready.
ORDER = (BOARD, SHOTS, COPIES, ADVICE, SURFACE, SURFACE_COPIES)
#: What each group makes ready, in a player's words.
WHAT = {
    BOARD: "judging and scoring",
    SHOTS: "shots",
    COPIES: "noisy copies",
    ADVICE: "the advisor",
    SURFACE: "a graded or crowned court",
    SURFACE_COPIES: "noisy copies on a graded or crowned court",
}
#: The groups a helper process loads or compiles, one after the other, in each lane (after the
#: board's, which this process needs first and loads or compiles itself).
LANES = ((SHOTS, COPIES, ADVICE), (SURFACE, SURFACE_COPIES))
#: The graded and crowned court the surface groups compile on (the lab's court with these).
SURFACE_PARAMS = {"slope": [0.001, 0.0005], "crown": "1/32 in"}
#: Executions per candidate in the advisor's warm-up (the kernels are the same for any number).
ADVICE_SAMPLES = 8
Steps = list[tuple[str, Callable[[], object]]]


def cache_folder() -> str:
    """Where numba keeps the compiled kernels: ``NUMBA_CACHE_DIR`` when set, else beside the sources."""
    from numba.core import config

    folder = getattr(config, "CACHE_DIR", "")
    if folder:
        return str(Path(folder).resolve())
    return f"the __pycache__ folders of {Path(__file__).resolve().parents[1]}"


def lab_groups(court_ref: str, end: str | None) -> dict[str, Steps]:
    """Each group's steps for a court: (what it does, the call). Nothing is computed until a step
    runs (a step may compile)."""
    from shuffle_sim.court import load_court
    from shuffle_sim.lab.board import LabBoard, LabError, team_names
    from shuffle_sim.lab.starts import legal_starts

    court = load_court(court_ref, end=end)
    shooter, other = team_names(court)  # the shot's side, and the side of the disc on the board
    made: dict[str, object] = {}

    def setup(surface: bool):
        """The court (graded and crowned for the surface groups), an aim at its middle, an empty
        board and a board with one disc somewhere clear."""
        key = "surface" if surface else "flat"
        if key not in made:
            from shuffle_sim.lab.shots import Aim

            on = court.with_params(**SURFACE_PARAMS) if surface else court
            start = legal_starts(on)[0]
            x, y = start.point(0.5)
            x0, y0, x1, y1 = on.bounds
            cx, cy = 0.5 * (x0 + x1), 0.5 * (y0 + y1)
            board = LabBoard(on)
            for fraction in (0.5, 0.3, 0.7, 0.9):
                with contextlib.suppress(LabError):
                    board.place(x + fraction * (cx - x), y + fraction * (cy - y), other)
                    break
            made[key] = (on, Aim(x, y, 0.1, start.toward(cx, cy), 0.0, shooter), LabBoard(on), board, start)
        return made[key]

    def judging() -> None:
        _, _, _, board, _ = setup(False)
        board.judgement()
        board.frame_score()

    def shot(surface: bool, among: bool) -> None:
        from shuffle_sim.lab.shots import play_shot

        _, aim, empty, board, _ = setup(surface)
        play_shot(board if among else empty, aim)

    def path() -> None:
        from shuffle_sim.lab.shots import predicted_path

        on, aim, _, _, _ = setup(True)
        predicted_path(on, aim)

    def copies(surface: bool, among: bool) -> None:
        from shuffle_sim.lab.copies import noisy_copies
        from shuffle_sim.noise import NoiseModel

        _, aim, empty, board, _ = setup(surface)
        noisy_copies(board if among else empty, aim, NoiseModel(speed=0.01), 8)

    def advice() -> None:
        from shuffle_sim.lab.advice import advise_board
        from shuffle_sim.noise import NoiseError, skill_presets

        _, _, _, board, start = setup(False)
        try:
            presets = skill_presets(court.game)
        except NoiseError:
            return  # a game without skill presets has no advice in the lab
        if start.position is None or not presets:
            return
        advise_board(board, next(iter(presets.values())), shooter, start.position, samples=ADVICE_SAMPLES)

    return {
        BOARD: [("judging a disc and scoring a frame", judging)],
        SHOTS: [
            ("a shot on an empty court", lambda: shot(False, False)),
            ("a shot among discs, and the rules after it", lambda: shot(False, True)),
        ],
        COPIES: [
            ("noisy copies on an empty court", lambda: copies(False, False)),
            ("noisy copies among discs", lambda: copies(False, True)),
        ],
        ADVICE: [("the advisor's ranking", advice)],
        SURFACE: [
            ("the predicted path on a graded court", path),
            ("a shot among discs on a graded court", lambda: shot(True, True)),
        ],
        SURFACE_COPIES: [("noisy copies on a graded court", lambda: copies(True, True))],
    }


class _Compiles(event.Listener):
    """Calls ``first`` at numba's first compile on one thread (``every``: at each), loading from the
    cache being no compile."""

    def __init__(self, thread: int, first: Callable[[], None], every: bool = False):
        self.thread, self.first, self.every, self.count = thread, first, every, 0

    def on_start(self, ev) -> None:
        if threading.get_ident() == self.thread:
            self.count += 1
            if self.count == 1 or self.every:
                self.first()

    def on_end(self, ev) -> None:
        pass


@dataclass
class _Helper:
    """A helper process compiling a lane's groups: ``owns`` the groups it has not reported yet,
    ``relay`` passes its reports on and ends once it has passed on the last."""

    process: subprocess.Popen
    owns: list[str]
    relay: threading.Thread


class WarmUp:
    """Compile or load the lab's kernel groups in a thread (module docstring).

    ``groups`` gives each group's steps (``lab_groups``); ``say`` gets the lines for the terminal
    (only when numba compiles: a warm start says nothing); ``helper_args`` are the helper processes'
    arguments before the groups (``--court``, ``--end``), None to compile everything here. ``cold``
    forces (True) or rules out (False) the compiling notice, for tests; None tells it from numba.
    """

    def __init__(
        self,
        groups: Callable[[], dict[str, Steps]],
        say: Callable[[str], None] = print,
        helper_args: list[str] | None = None,
        cold: bool | None = None,
    ):
        self.groups = groups
        self.say = say
        self.helper_args = helper_args
        self.forced_cold = cold
        self.cold = bool(cold)
        self.ready = threading.Event()  # every group ready (or failed)
        self.page_ready = threading.Event()  # the board's group ready: the page can be built
        self.ready_groups: set[str] = set()
        self.order: list[str] = list(ORDER)
        self.current = ""
        self.began = time.monotonic()
        self.error: str | None = None
        self.thread: threading.Thread | None = None
        self.helpers: list[_Helper] = []
        self.reports: queue.SimpleQueue = queue.SimpleQueue()
        self.announced = False

    # ---- what the page and the sessions read ------------------------------------------------------
    def is_ready(self, group: str) -> bool:
        return group in self.ready_groups or self.ready.is_set()

    def elapsed(self) -> float:
        return time.monotonic() - self.began

    def text(self, group: str | None = None) -> str:
        """Where the warm-up is, for the page: of one group, or of all of them."""
        if self.ready.is_set() or (group is not None and self.is_ready(group)):
            return "kernels ready"
        if group is not None:  # after the group's name: only what is done to it, and for how long
            return f"{'compiling' if self.cold else 'loading'}, {self.elapsed():.0f} s so far"
        what = COMPILING if self.cold else "loading kernels"
        left = [g for g in self.order if g not in self.ready_groups]
        doing = self.current or (WHAT[left[0]] if left else "starting")
        ready = len(self.order) - len(left)
        return f"{what}: {ready} of {len(self.order)} groups ready ({doing}), {self.elapsed():.0f} s so far"

    # ---- the thread -------------------------------------------------------------------------------
    def start(self) -> WarmUp:
        self.began = time.monotonic()
        self.thread = threading.Thread(target=self._run, name="shot-lab-warm-up", daemon=True)
        self.thread.start()
        return self

    def _announce(self) -> None:
        """numba compiles: say so, once (not when a test has ruled it out)."""
        if self.announced or self.forced_cold is False:
            return
        self.announced = True
        self.cold = True
        self.say(
            f"shot lab: {COMPILING}: not in numba's cache ({cache_folder()}): a first run, or the package "
            f"changed; the page opens once it can judge discs, the rest compiles in the background and "
            f"actions that need it wait for it, saying so"
        )

    def _run(self) -> None:
        listener = _Compiles(threading.get_ident(), self._announce)
        event.register("numba:compile", listener)
        try:
            steps = self.groups()
            self.order = [g for g in ORDER if g in steps]
            if self.forced_cold:
                self._announce()
            lanes = [[g for g in lane if g in steps] for lane in LANES]
            if core_to_spare():  # beside the board's group; else after it, which the page needs first
                self._start_helper(lanes.pop(0))
            if BOARD in steps:
                self._load(BOARD, steps[BOARD])
            self.page_ready.set()
            for lane in lanes:
                self._start_helper(lane)
            self._load_the_rest(steps)
            if self.cold:
                self.say(f"shot lab: all kernels ready after {self.elapsed():.0f} s")
        except Exception as exc:
            self.error = f"{type(exc).__name__}: {exc}"
            self.say(f"shot lab: warm-up failed ({self.error}); the lab starts anyway")
        finally:
            event.unregister("numba:compile", listener)
            self.page_ready.set()
            self.ready.set()
            self.stop()

    def stop(self) -> None:
        """End the helper processes still compiling (the lab is stopping, or the warm-up failed)."""
        for helper in self.helpers:
            if helper.process.poll() is None:
                with contextlib.suppress(OSError):
                    helper.process.kill()

    def _load_the_rest(self, steps: dict[str, Steps]) -> None:
        """The groups after the board's, in order as they can be had: those no helper is compiling
        (cached, or their helper gone: compiled here), and each as its helper reports it."""
        left = [g for g in self.order if g not in self.ready_groups]
        while left:
            while True:
                try:
                    reported = self.reports.get_nowait()
                except queue.Empty:
                    break
                for helper in self.helpers:
                    if reported in helper.owns:
                        helper.owns.remove(reported)
            busy = {g for helper in self.helpers if helper.relay.is_alive() for g in helper.owns}
            free = [g for g in left if g not in busy]
            if not free:
                with contextlib.suppress(queue.Empty):
                    self.reports.put(self.reports.get(timeout=0.5))  # wait for the next report
                continue
            self._load(free[0], steps[free[0]])
            left.remove(free[0])

    def _load(self, group: str, steps: Steps) -> None:
        """Run a group's steps here (loading its kernels, or compiling them); a step that fails is
        said, and the group counts as ready all the same (an action that needs it then meets the
        failure itself, as a message)."""
        began = time.monotonic()
        try:
            for label, call in steps:
                self.current = label
                call()
        except Exception as exc:
            self.error = f"{WHAT[group]}: {type(exc).__name__}: {exc}"
            self.say(f"shot lab: warm-up of {WHAT[group]} failed ({type(exc).__name__}: {exc}); the lab goes on")
        self.current = ""
        self.ready_groups.add(group)
        if self.cold:
            self.say(f"  ready for {WHAT[group]} after {self.elapsed():.0f} s ({time.monotonic() - began:.1f} s here)")

    def _start_helper(self, groups: list[str]) -> None:
        """A helper process compiling ``groups`` in turn; a thread passes on its reports."""
        if not groups or self.helper_args is None:
            return
        argv, env = module_command(__name__, *self.helper_args, *groups)
        try:
            process = subprocess.Popen(
                argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True
            )
        except (OSError, ValueError):  # no interpreter to start: this process compiles them
            return

        def relay() -> None:
            assert process.stdout is not None
            for line in process.stdout:
                kind, _, group = line.strip().partition(" ")
                if kind == "compiling":
                    self._announce()
                elif kind == "ready" and group in groups:
                    self.reports.put(group)
            process.wait()

        helper = _Helper(process, list(groups), threading.Thread(target=relay, name="shot-lab-helper", daemon=True))
        self.helpers.append(helper)
        helper.relay.start()


_shared: dict[tuple, WarmUp] = {}
_lock = threading.Lock()


def lab_warm_up(court_ref: str, end: str | None, say: Callable[[str], None] = print) -> WarmUp:
    """The warm-up of ``shuffle-sim lab`` for a court: helper processes for what is not cached."""
    args = ["--court", court_ref] + (["--end", end] if end else [])
    return WarmUp(lambda: lab_groups(court_ref, end), say, helper_args=args)


def shared_warm_up(court_ref: str, end: str | None, say: Callable[[str], None] = print) -> WarmUp:
    """One warm-up per process (the first court's), started on first use."""
    with _lock:
        if not _shared:
            _shared[(court_ref, end)] = lab_warm_up(court_ref, end, say).start()
        return next(iter(_shared.values()))


def main(argv: list[str] | None = None) -> int:
    """A helper: load or compile the named groups in turn into numba's cache, printing ``compiling
    GROUP`` when numba first compiles for a group and ``ready GROUP`` after each."""
    parser = argparse.ArgumentParser(prog="python -m shuffle_sim.lab.warmup")
    parser.add_argument("--court", required=True)
    parser.add_argument("--end")
    parser.add_argument("groups", nargs="+", choices=ORDER)
    args = parser.parse_args(argv)
    steps = lab_groups(args.court, args.end)
    current = [""]
    told: set[str] = set()

    def compiling() -> None:
        if current[0] not in told:
            told.add(current[0])
            print(f"compiling {current[0]}", flush=True)

    listener = _Compiles(threading.get_ident(), compiling, every=True)
    event.register("numba:compile", listener)
    for group in args.groups:
        current[0] = group
        try:
            for _, call in steps[group]:
                call()
        except Exception as exc:  # this process's groups are then compiled by the lab itself
            print(f"failed {group} {type(exc).__name__}: {exc}", flush=True)
            return 1
        print(f"ready {group}", flush=True)
    return 0


if __name__ == "__main__":
    from shuffle_sim._runtime.quick_exit import exit_now

    exit_now(main(sys.argv[1:]))
