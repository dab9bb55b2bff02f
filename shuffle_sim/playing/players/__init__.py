"""Simulated players: shot intents turned into launch states, execution noise, and two strategies.

==================  =======================================================================
module              what it does
==================  =======================================================================
``context``         ``Stance``, ``Launch``, ``ShotContext`` and the ``Tactics`` interface
``launch``          numba kernels: stances, clearest starts, straight launches, noise
``intents``         draw, take-out, guard, hide, open 20, hanger, bank
``aiming``          hanger points, zone spots and the bank solver
``reading``         reading a court that is not flat: straight launches solved with the kernel
``read_kernels``    the reading's Newton solve in numba, many reads in one call
``read_tables``     a compiled plan's reads of a court, looked up by interpolation in numba
``lines``           numba lines of fire: first contact, the clearest start and aim for a take-out
``repertoire``      crokinole shots: ``Strike`` (straight take-out) and kernel-aimed ``Shot``
                    (take-out and stick, roll off, roll in, double take-out, carom)
``strategies``      execution under noise; the ``Strategy`` protocol, the fixed plan and the
                    expected-value player
``success``         whether a shot did what it means, for many sampled outcomes at once
``presets``         ``Player``, and the skill presets a game's players can name
==================  =======================================================================

A shot starts as an *intent*: draw to a point (``Draw``), take out a disc (``TakeOut``), guard a
disc or hide behind one (``Guard``, ``Hide``), open 20 (``Open20``, crokinole), a hanger attempt
(``Hanger``, horse collar), a bank off a cushion (``Bank``, ricochet), or a launch worked out by
hand (``Launched``: a player of one's own, an agent's action). ``Intent.aim`` turns it
into a ``Launch``: where the disc starts on the shooter's ``Stance`` (the line or arc a player
shoots from), and its velocity and spin.

- Straight shots are closed form. A disc sliding under Coulomb friction stops after
  v^2 / (2 mu g), so a draw to a point d metres away needs v0 = sqrt(2 mu g d), and a take-out
  aimed at a disc's centre with ``extra`` metres to spare needs sqrt(2 mu g (d + extra)) (the
  physics model's closed form). The start is the point of the stance whose straight path keeps clearest of the discs
  and pegs in the way, and of holes a slow disc would drop into (``clearest_start``); the stance's
  preferred point when its path is clear.
- On a court that is not flat (a grade, a crown, maps) a straight launch drifts: a player who
  reads the court corrects it with the kernel (``reading``: Newton steps on direction and speed
  from the closed form until the path rests at the draw's point, or passes a take-out's target at
  the speed the closed form meant, within 0.1 mm). A ``Player`` with ``reads`` 0 (the ``-flat``
  players) aims as if the court were flat; flat courts keep the closed form, unchanged.
- Banks are solved numerically with the physics kernel: damped Newton iterations on (angle,
  speed), the Jacobian by finite differences, from the mirror-image guess (``solve_bank``).

Then the player's execution noise (``shuffle_sim.noise.NoiseModel``, presets in
``shuffle_sim/noise/skills.toml``) perturbs the launch: the speed by a relative normal error, the
direction by an angle, the spin, and the start along the stance (lateral start). The draws come
from the counter-based Philox streams of ``shuffle_sim.noise``: shot ``k`` of game ``g`` under
seed ``s`` always gets the same errors (``shot_normals``), whatever else runs.

Strategies: ``FixedPlan`` plays the game's fixed plan; ``ExpectedValue`` simulates every candidate
shot under sampled execution errors in one batch call (``shuffle_sim.shots.simulate_shots``) and
plays the one with the best mean value, the value judged by the game's rules for the frame (own
minus opponent's frame score). What a game's plan, candidates and values are is the game's
``Tactics`` (``shuffle_sim.playing.deck`` and the other game modules of ``shuffle_sim.play``).

A third strategy, ``win`` (``shuffle_sim.playing.search``), chooses by the probability of winning the
game, searching the candidate shots with the rest of the frame simulated.

A ``Player`` is a skill and a strategy; ``playing.player_names.parse_players`` reads the command
line's "expert-ev,novice-plan" syntax. A strategy of one's own is any object with
``choose(ctx, skill)`` returning a ``Decision`` (the ``Strategy`` protocol;
``playing.player_names.as_player`` makes it a ``Player``; the docs' "Players of your own").
"""

from shuffle_sim.playing.players.aiming import BANK_ACCEPT, BANK_TOLERANCE, hanger_point, solve_bank, zone_spot
from shuffle_sim.playing.players.context import Intent, Launch, PlayerError, ShotContext, Stance, Tactics
from shuffle_sim.playing.players.intents import Bank, Draw, Guard, Hanger, Hide, Launched, Open20, TakeOut
from shuffle_sim.playing.players.launch import (
    CLEAR_PATH,
    STANCE_ARC,
    STANCE_SEGMENT,
    clearest_start,
    executed_launch,
    half_turn,
    noise_vector,
    perturb,
    shot_normals,
    stance_length,
    stance_point,
    start_is_free,
    straight_launch,
)
from shuffle_sim.playing.players.presets import (
    Player,
    find_skill,
    skills_for,
)
from shuffle_sim.playing.players.strategies import (
    DEFAULT_EV_SAMPLES,
    Decision,
    ExpectedValue,
    FixedPlan,
    Strategy,
    execute,
)

__all__ = [
    "BANK_ACCEPT",
    "BANK_TOLERANCE",
    "CLEAR_PATH",
    "DEFAULT_EV_SAMPLES",
    "STANCE_ARC",
    "STANCE_SEGMENT",
    "Bank",
    "Decision",
    "Draw",
    "ExpectedValue",
    "FixedPlan",
    "Guard",
    "Hanger",
    "Hide",
    "Intent",
    "Launch",
    "Launched",
    "Open20",
    "Player",
    "PlayerError",
    "ShotContext",
    "Stance",
    "Strategy",
    "Tactics",
    "TakeOut",
    "clearest_start",
    "execute",
    "executed_launch",
    "find_skill",
    "half_turn",
    "hanger_point",
    "noise_vector",
    "perturb",
    "shot_normals",
    "skills_for",
    "solve_bank",
    "stance_length",
    "stance_point",
    "start_is_free",
    "straight_launch",
    "zone_spot",
]
