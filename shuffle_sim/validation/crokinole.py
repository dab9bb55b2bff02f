"""Crokinole beside the Pudding's data: the skill presets' open-20 rates against tournament players',
and the first missed open 20 of a round against 300 play-off rounds.

``preset_rates`` simulates the experiment ``experiments/crokinole-open20.toml``'s open 20 with each
competitive preset (``calibrate.skill_rate.make_rate``). ``first_miss_test`` compares the real
rounds' first misses with a player who makes each open 20 independently at rate p: the first miss
falls on shot n with probability p^(n-1) (1 - p), taken given that the round has a miss within the
histogram's bins, as every counted round has. The tail from the first bin whose expected count is
below ``MIN_EXPECTED`` is pooled into one bin (Cochran's rule for the chi-square test), and the
p-value is the chi-square distribution's tail with one degree of freedom fewer than the pooled bins
(p is not fitted to the histogram).

``round_figures`` plays whole simulated games and counts, per round, who wins it: the side that
shoots last, the side that shoots first, or neither; and the 20s each player makes.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

from shuffle_sim.calibrate.least_squares import chi2_sf

#: The fewest expected rounds a bin of the chi-square test may hold.
MIN_EXPECTED = 5.0
#: The presets the page sets beside tournament players.
PRESETS = ("average competitive", "top competitive")


def read_misses(path: str | Path) -> np.ndarray:
    """The histogram of first misses (``bin,count``): counts for shots 1, 2, ..."""
    with open(path, newline="", encoding="utf-8") as fh:
        rows = sorted((int(r["bin"]), int(r["count"])) for r in csv.DictReader(fh))
    if [b for b, _ in rows] != list(range(1, len(rows) + 1)):
        raise ValueError(f"{path}: bin: the bins must run 1, 2, 3, ... without gaps")
    return np.array([c for _, c in rows], dtype=np.int64)


def read_players(path: str | Path) -> list[tuple[str, int, float]]:
    """Tournament players' open 20s (``Player,Attempts,Percent Made``): (name, attempts, rate)."""
    with open(path, newline="", encoding="utf-8") as fh:
        return [
            (r["Player"], int(r["Attempts"]), float(r["Percent Made"].rstrip("%")) / 100.0) for r in csv.DictReader(fh)
        ]


def first_miss_expected(rate: float, bins: int, rounds: int) -> np.ndarray:
    """Expected rounds whose first miss falls on shots 1..``bins`` for a player who makes each open 20
    at ``rate``, given a miss within the bins."""
    n = np.arange(bins)
    weights = rate**n * (1.0 - rate)
    return rounds * weights / weights.sum()


def pooled(observed: np.ndarray, expected: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The bins whose expected count reaches ``MIN_EXPECTED``, the rest of the tail pooled into one
    last bin (itself widened until it reaches ``MIN_EXPECTED``)."""
    short = np.flatnonzero(expected < MIN_EXPECTED)
    keep = int(short[0]) if short.size else len(expected) - 1
    while keep > 1 and expected[keep:].sum() < MIN_EXPECTED:
        keep -= 1
    obs = np.append(observed[:keep], observed[keep:].sum())
    exp = np.append(expected[:keep], expected[keep:].sum())
    return obs, exp


def first_miss_test(observed: np.ndarray, rate: float) -> dict:
    """Chi-square of the real first misses against a player of open-20 ``rate``: the statistic, its
    degrees of freedom, p-value and the pooled bins."""
    expected = first_miss_expected(rate, len(observed), int(observed.sum()))
    obs, exp = pooled(observed, expected)
    chi2 = float(np.sum((obs - exp) ** 2 / exp))
    dof = len(obs) - 1
    return {
        "rate": rate,
        "chi2": chi2,
        "dof": dof,
        "p": chi2_sf(chi2, dof),
        "observed": [int(v) for v in obs],
        "expected": [float(v) for v in exp],
    }


def preset_rates(experiment_path: str | Path, shots: int) -> dict[str, float]:
    """Each competitive preset's open-20 rate over ``shots`` simulated shots of the experiment's open 20."""
    from shuffle_sim.calibrate.skill_rate import make_rate
    from shuffle_sim.experiment import load_experiment

    experiment = load_experiment(experiment_path)
    skills = {m.name: m for m in experiment.skill_models()}
    return {name: make_rate(experiment, skills[name], shots) for name in PRESETS}


def round_figures(players: str, games: int, game_length: int = 4) -> dict:
    """Per round of ``games`` simulated singles games (seeds 0, 1, ...) between ``players``: how often
    the side that shoots last wins the round, the side that shoots first, a tie, and the 20s per
    player and round."""
    from shuffle_sim import play

    rounds = last = first = ties = twenties = 0
    for seed in range(games):
        for game in play("crokinole", players, seed=seed, game_length=game_length).games:
            for frame in game.frames:
                a, b = game.sides
                closer = frame.shots[-1].team
                opener = b if closer == a else a
                rounds += 1
                twenties += sum((frame.twenties or {}).values())
                if frame.score[closer] > frame.score[opener]:
                    last += 1
                elif frame.score[closer] < frame.score[opener]:
                    first += 1
                else:
                    ties += 1
    return {
        "players": players,
        "rounds": rounds,
        "last_wins": last / rounds,
        "first_wins": first / rounds,
        "ties": ties / rounds,
        "twenties_per_player_round": twenties / (2 * rounds),
    }
