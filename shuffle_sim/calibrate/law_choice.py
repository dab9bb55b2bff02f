"""Which friction law the measurements favour, Coulomb or the speed law, and by how much.

Two measures, both computed, one deciding:

* **Held-out error (decides).** Each track (or shot) in turn is left out, both laws are fitted to
  the others, and the held-out one is predicted: only its own start is fitted, under the law the
  others gave. Its squared distances from that prediction are its held-out error under each law.
  Per item the comparison is the log ratio of its mean squared held-out errors, ln(MSE_coulomb /
  MSE_speed), so that an item measured coarsely (a curved track, a long shot) counts as much as a
  clean one. The speed law is chosen when the items' mean log ratio exceeds twice its standard
  error (a paired comparison, the ratio's spread over sqrt(n)): one extra parameter has to predict
  slides it never saw better, by more than the items' own scatter. Otherwise Coulomb, the simpler
  law, stays. This makes no assumption about the stated measurement error or about the
  independence of neighbouring points along a track (Stone, "Cross-validatory choice and
  assessment of statistical predictions", J. R. Stat. Soc. B 36, 1974; leave-one-out by track
  because points along one track share their start and their errors).
* **Information criteria (reported).** AIC = n ln(RSS / n) + 2 p and BIC = n ln(RSS / n) + p ln n
  (Akaike 1974; Schwarz 1978) over the n weighted residuals, the scale estimated from them. They
  treat every residual as an independent error, which a track's neighbouring frames are not, so
  they overstate the evidence when the residuals are correlated; the page and the command show them
  beside the held-out error, not instead of it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

#: The held-out improvement must exceed this many standard errors of itself.
DECISIVE_SE = 2.0
#: The fewest items (tracks or shots) a choice holds out one at a time.
MIN_ITEMS = 3


@dataclass(frozen=True)
class LawChoice:
    """The chosen law and the evidence: held-out errors per item under both laws, and AIC/BIC."""

    law: str  # "coulomb" or "speed"
    items: tuple[str, ...]  # the held-out items' names (tracks or shots)
    held_out_sse: dict[str, tuple[float, ...]]  # per law: each item's sum of squared distances (m^2)
    held_out_points: tuple[int, ...]  # the points (or coordinates) each item holds
    aic: dict[str, float]
    bic: dict[str, float]
    reason: str

    def held_out_rms(self, law: str) -> float:
        """The root mean square held-out distance (m) over every item's points under ``law``."""
        return math.sqrt(sum(self.held_out_sse[law]) / sum(self.held_out_points))

    def item_rms(self, law: str) -> tuple[float, ...]:
        return tuple(math.sqrt(e / n) for e, n in zip(self.held_out_sse[law], self.held_out_points))

    def improvement(self) -> tuple[float, float]:
        """The items' mean log ratio ln(MSE_coulomb / MSE_speed) of their held-out squared errors
        (positive: the speed law predicts better) and its standard error."""
        c = np.maximum(np.array(self.held_out_sse["coulomb"]), 1e-300)
        s = np.maximum(np.array(self.held_out_sse["speed"]), 1e-300)
        d = np.log(c / s)
        se = float(np.std(d, ddof=1) / math.sqrt(d.size)) if d.size > 1 else math.inf
        return float(d.mean()), se

    def favoured_by(self, law: str) -> int:
        """How many items ``law`` predicts better than the other law."""
        c, s = np.array(self.held_out_sse["coulomb"]), np.array(self.held_out_sse["speed"])
        return int(np.sum(s < c) if law == "speed" else np.sum(c < s))

    def to_dict(self) -> dict:
        drop, se = self.improvement()
        return {
            "law": self.law,
            "decided_by": "held-out error (leave one out)",
            "reason": self.reason,
            "held_out": {
                law: {
                    "rms": self.held_out_rms(law),
                    "per_item": dict(zip(self.items, self.item_rms(law))),
                }
                for law in ("coulomb", "speed")
            },
            "log_ratio": drop,
            "log_ratio_se": se,
            "items_favouring_speed": self.favoured_by("speed"),
            "aic": self.aic,
            "bic": self.bic,
            "delta_aic": self.aic["coulomb"] - self.aic["speed"],
            "delta_bic": self.bic["coulomb"] - self.bic["speed"],
        }


def information_criteria(rss: float, n: int, n_params: int) -> tuple[float, float]:
    """(AIC, BIC) of a least-squares fit of ``n_params`` parameters with weighted residual sum of
    squares ``rss`` over ``n`` residuals, the error scale estimated from the residuals."""
    log_likelihood_part = n * math.log(rss / n)
    return log_likelihood_part + 2.0 * n_params, log_likelihood_part + n_params * math.log(n)


def choose_law(
    items: tuple[str, ...],
    held_out: Callable[[str, int], np.ndarray],
    fits: dict[str, tuple[float, int, int]],
    kind: str = "track",
) -> LawChoice:
    """The law the data favour. ``held_out(law, k)`` gives item k's distances (m) from its prediction
    with the law fitted to the others; ``fits[law]`` is (weighted residual sum of squares, residuals,
    parameters) of the law fitted to every item, for the information criteria."""
    sse: dict[str, tuple[float, ...]] = {}
    points: tuple[int, ...] = ()
    for law in ("coulomb", "speed"):
        distances = [held_out(law, k) for k in range(len(items))]
        sse[law] = tuple(float(d @ d) for d in distances)
        points = tuple(d.size for d in distances)
    aic, bic = {}, {}
    for law, (rss, n, n_params) in fits.items():
        aic[law], bic[law] = information_criteria(rss, n, n_params)
    choice = LawChoice("coulomb", items, sse, points, aic, bic, "")
    drop, se = choice.improvement()
    rms_c, rms_s = choice.held_out_rms("coulomb"), choice.held_out_rms("speed")
    better = choice.favoured_by("speed")
    evidence = (
        f"held out one {kind} at a time, the speed law predicts them to {rms_s * 1000:.3g} mm rms against "
        f"Coulomb's {rms_c * 1000:.3g} mm, better on {better} of {len(items)}; per {kind} its squared "
        f"error is {math.exp(-drop):.2g} times Coulomb's (geometric mean; log ratio {drop:.2f} +- {se:.2f}"
    )
    d_aic, d_bic = aic["coulomb"] - aic["speed"], bic["coulomb"] - bic["speed"]
    criteria = (
        f"AIC and BIC, which treat every point as independent, differ by {d_aic:.3g} and {d_bic:.3g} (positive: speed)"
    )
    if drop > DECISIVE_SE * se:
        law = "speed"
        reason = f"speed: {evidence}, more than {DECISIVE_SE:g} standard errors); {criteria}"
    else:
        law = "coulomb"
        reason = f"coulomb: {evidence}, within {DECISIVE_SE:g} standard errors), so the simpler law stays; {criteria}"
    return LawChoice(law, items, sse, points, aic, bic, reason)
