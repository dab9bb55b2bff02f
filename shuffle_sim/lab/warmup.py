"""The lab's kernels compiled (or loaded from numba's cache) before the first page is built, with
progress for the terminal and the page.

numba compiles a kernel on its first call and caches it beside the sources, so only a first run
compiles: about two minutes on a small machine, against a second or so to load them later. The
server starts listening at once and runs the warm-up in a thread (``WarmUp``); a page opened
meanwhile shows "compiling kernels, first run only" with the step and the time so far
(``app.WaitingPage``) and becomes the lab when the kernels are ready. Nothing else calls numba
while the warm-up runs, so no page waits on numba's compile lock.

The steps are the lab's own calls on a tiny case (``lab_steps``): judging a disc and scoring a
frame, a shot on an empty court and among discs (with the rules after it), and noisy copies of
both. A first run is told by numba's cache index of the main kernels (``kernels_cached``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

COMPILING = "compiling kernels, first run only"


def kernels_cached() -> bool:
    """Whether numba's cache holds the lab's main kernels (judge, shot, batch of shots); a cache that
    cannot be read counts as holding them (then the warm-up says nothing of compiling)."""
    from shuffle_sim._runtime.compile_ahead import cache_index
    from shuffle_sim.judging.cell_grid import judge_index
    from shuffle_sim.judging.procedure import judge_prepare
    from shuffle_sim.physics.numba_api import play_board_shots, play_lone_shots, run_from_start, sample_paths

    indexes = [
        cache_index(d)
        for d in (run_from_start, sample_paths, play_board_shots, play_lone_shots, judge_prepare, judge_index)
    ]
    return all(index is None or len(index) > 0 for index in indexes)


def lab_steps(court_ref: str, end: str | None) -> list[tuple[str, Callable[[], object]]]:
    """The warm-up's steps for a court: (what it compiles, the call)."""
    from shuffle_sim.court import load_court
    from shuffle_sim.lab.board import LabBoard, LabError
    from shuffle_sim.lab.copies import noisy_copies
    from shuffle_sim.lab.shots import Aim, play_shot
    from shuffle_sim.lab.starts import legal_starts
    from shuffle_sim.noise import NoiseModel

    court = load_court(court_ref, end=end)
    start = legal_starts(court)[0]
    x, y = start.point(0.5)
    x0, y0, x1, y1 = court.bounds
    cx, cy = 0.5 * (x0 + x1), 0.5 * (y0 + y1)
    aim = Aim(x, y, 0.1, start.toward(cx, cy), 0.0, "A")
    empty, board = LabBoard(court), LabBoard(court)
    for fraction in (0.5, 0.3, 0.7, 0.9):  # a resting disc somewhere clear, for the board path
        try:
            board.place(x + fraction * (cx - x), y + fraction * (cy - y), "B")
            break
        except LabError:
            continue

    def judge() -> None:
        board.judgement()
        board.frame_score()

    return [
        ("judging a disc and scoring a frame", judge),
        ("a shot on an empty court", lambda: play_shot(empty, aim)),
        ("a shot among discs, and the rules after it", lambda: play_shot(board, aim)),
        ("noisy copies on an empty court", lambda: noisy_copies(empty, aim, NoiseModel(speed=0.01), 8)),
        ("noisy copies among discs", lambda: noisy_copies(board, aim, NoiseModel(speed=0.01), 8)),
    ]


class WarmUp:
    """Run the warm-up steps in a thread; ``text()`` says how far it is, ``ready`` is set at the end.

    ``say`` gets the lines for the terminal (a first run only: with a warm cache the steps take a
    second and nothing is said)."""

    def __init__(
        self,
        steps: Callable[[], list[tuple[str, Callable[[], object]]]],
        say: Callable[[str], None] = print,
        cold: bool | None = None,
    ):
        self.steps = steps
        self.say = say
        self.cold = cold
        self.ready = threading.Event()
        self.done_steps = 0
        self.total = 0
        self.current = ""
        self.began = time.monotonic()
        self.error: str | None = None
        self.thread: threading.Thread | None = None

    def start(self) -> WarmUp:
        self.began = time.monotonic()
        if self.cold is None:
            self.cold = not kernels_cached()
        self.thread = threading.Thread(target=self._run, name="shot-lab-warm-up", daemon=True)
        self.thread.start()
        return self

    def _run(self) -> None:
        try:
            steps = self.steps()
            self.total = len(steps)
            if self.cold:
                self.say(
                    f"shot lab: {COMPILING} (numba caches them beside the sources; later runs load them in a second)"
                )
            for k, (label, call) in enumerate(steps, start=1):
                self.current = label
                began = time.monotonic()
                call()
                self.done_steps = k
                if self.cold:
                    self.say(f"  [{k}/{self.total}] {label}: {time.monotonic() - began:.0f} s")
            if self.cold:
                self.say(f"shot lab: kernels ready after {time.monotonic() - self.began:.0f} s")
        except Exception as exc:
            self.error = f"{type(exc).__name__}: {exc}"
            self.say(f"shot lab: warm-up failed ({self.error}); the lab starts anyway")
        finally:
            self.ready.set()

    def text(self) -> str:
        """Where the warm-up is, for the page."""
        elapsed = time.monotonic() - self.began
        if self.ready.is_set():
            return "kernels ready"
        what = COMPILING if self.cold else "loading kernels"
        step = f": step {self.done_steps + 1} of {self.total} ({self.current})" if self.total else ""
        return f"{what}{step}, {elapsed:.0f} s so far"


_shared: dict[tuple, WarmUp] = {}
_lock = threading.Lock()


def shared_warm_up(court_ref: str, end: str | None, say: Callable[[str], None] = print) -> WarmUp:
    """One warm-up per process (the first court's), started on first use."""
    with _lock:
        if not _shared:
            _shared[(court_ref, end)] = WarmUp(lambda: lab_steps(court_ref, end), say).start()
        return next(iter(_shared.values()))
