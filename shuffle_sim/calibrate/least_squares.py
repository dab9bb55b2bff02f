"""Weighted nonlinear least squares for the court fits: Levenberg-Marquardt, the covariance at the
minimum, and how far the residuals lie from the stated measurement errors.

A fit's model is an object with ``residuals(p)`` (the residuals already divided by their measurement
errors) and ``steps(p)`` (a finite-difference step per parameter); a model may give its own
``jacobian(p)``, for example one that perturbs the parameters of many independent tracks at once.

The covariance is the Gauss-Newton one at the minimum, (J^T J)^-1 scaled by the residual variance
chi^2 / (n - p) (Bates and Watts, *Nonlinear Regression Analysis*, 1988): standard errors that
follow the residuals' actual scatter, whatever the stated errors. ``chi2_sf`` is the chi-square
distribution's upper tail (Abramowitz and Stegun 26.4.4 and 26.4.5), so that a fit can say when its
residuals are far beyond the stated errors: ``residual_warning``.
"""

from __future__ import annotations

import math

import numpy as np

#: chi^2 per degree of freedom above which the residuals are "far beyond" the stated errors ...
WARN_CHI2_DOF = 2.0
#: ... when chance alone would give so large a chi^2 less often than this.
WARN_CHANCE = 1e-3


def finite_difference_jacobian(model, p: np.ndarray) -> np.ndarray:
    """J by central differences, one parameter at a time, with the model's steps."""
    h = model.steps(p)
    columns = []
    for j in range(p.size):
        up, down = p.copy(), p.copy()
        up[j] += h[j]
        down[j] -= h[j]
        columns.append((model.residuals(up) - model.residuals(down)) / (2.0 * h[j]))
    return np.column_stack(columns)


def _jacobian(model, p: np.ndarray) -> np.ndarray:
    own = getattr(model, "jacobian", None)
    return own(p) if own is not None else finite_difference_jacobian(model, p)


def levenberg_marquardt(model, p: np.ndarray, max_iterations: int = 200) -> tuple[np.ndarray, np.ndarray]:
    """Levenberg-Marquardt (Marquardt's scaling by the diagonal of J^T J): the minimum and J there."""
    r = model.residuals(p)
    cost = float(r @ r)
    lam = 1e-3
    jac = _jacobian(model, p)
    for _ in range(max_iterations):
        jtj = jac.T @ jac
        grad = jac.T @ r
        diag = np.maximum(np.diag(jtj), 1e-300)
        improved = False
        for _ in range(30):
            try:
                step = np.linalg.solve(jtj + lam * np.diag(diag), -grad)
            except np.linalg.LinAlgError:
                lam *= 10.0
                continue
            trial = p + step
            r_trial = model.residuals(trial)
            cost_trial = float(r_trial @ r_trial) if np.all(np.isfinite(r_trial)) else math.inf
            if cost_trial < cost:
                improved = True
                break
            lam *= 4.0
        if not improved:
            break
        small = np.all(np.abs(step) <= 1e-12 * np.maximum(np.abs(p), model.steps(p) * 1e6))
        done = small or cost - cost_trial <= 1e-14 * cost
        p, r, cost = trial, r_trial, cost_trial
        lam = max(lam / 3.0, 1e-12)
        jac = _jacobian(model, p)
        if done:
            break
    return p, jac


def covariance(jac: np.ndarray, residuals: np.ndarray, n_params: int) -> np.ndarray | None:
    """(J^T J)^-1 times the residual variance; None when J^T J is singular (a parameter the data
    cannot tell from the others)."""
    scale = np.sqrt(np.sum(jac * jac, axis=0))
    if np.any(scale == 0):
        return None
    scaled = jac / scale
    singular = np.linalg.svd(triangular_factor(scaled), compute_uv=False)  # J's singular values are R's
    if singular[-1] <= 1e-10 * singular[0]:
        return None
    inverse = np.linalg.inv(scaled.T @ scaled) / np.outer(scale, scale)
    dof = residuals.size - n_params
    variance = float(residuals @ residuals) / dof if dof > 0 else 1.0
    return inverse * variance


def triangular_factor(a: np.ndarray, block: int = 128) -> np.ndarray:
    """R of a = QR for a tall matrix, taken ``block`` rows at a time: each block's rows stacked under
    the R so far and factored again (a tall-skinny QR; Demmel, Grigori, Hoemmen and Langou, SIAM J.
    Sci. Comput. 34, 2012). R has a's singular values, and LAPACK only ever sees small matrices,
    which it factors at once, where a tall one can cost a hundred times more on a busy machine."""
    r = a[:0]
    for start in range(0, a.shape[0], block):
        r = np.asarray(np.linalg.qr(np.vstack([r, a[start : start + block]]), mode="r"))  # mode "r": R alone
    return r


def chi2_sf(chi2: float, dof: int) -> float:
    """P(X >= chi2) for X chi-square with ``dof`` degrees of freedom (``dof`` >= 1): the finite
    series of Abramowitz and Stegun 26.4.4 (even dof) and 26.4.5 (odd dof), summed in logs so that
    thousands of degrees of freedom stay exact."""
    if chi2 <= 0.0:
        return 1.0
    half = 0.5 * chi2
    if dof % 2 == 0:
        log_terms = [k * math.log(half) - math.lgamma(k + 1) for k in range(dof // 2)]
        base = -half
        head = 0.0
    else:
        x = math.sqrt(chi2)
        head = math.erfc(x / math.sqrt(2.0))
        # 2 phi(x) sum_{k=1}^{(dof-1)/2} x^(2k-1) / (1 3 5 ... (2k-1))
        log_terms = [(2 * k - 1) * math.log(x) - _log_odd_factorial(k) for k in range(1, (dof - 1) // 2 + 1)]
        base = -half + math.log(2.0) - 0.5 * math.log(2.0 * math.pi)
    if not log_terms:
        return head
    top = max(log_terms)
    tail = math.exp(base + top + math.log(sum(math.exp(t - top) for t in log_terms)))
    return min(1.0, head + tail)


def _log_odd_factorial(k: int) -> float:
    """ln(1 3 5 ... (2k - 1)) = ln((2k)! / (2^k k!))."""
    return math.lgamma(2 * k + 1) - k * math.log(2.0) - math.lgamma(k + 1)


def chi2_per_dof(residuals: np.ndarray, n_params: int) -> float:
    """chi^2 / (n - p) of residuals already divided by their measurement errors (NaN without a
    degree of freedom)."""
    dof = residuals.size - n_params
    return float(residuals @ residuals) / dof if dof > 0 else math.nan


def residual_warning(chi2_dof: float, dof: int, errors: str) -> str | None:
    """A plain warning when the residuals lie far beyond the stated measurement ``errors`` (words,
    e.g. "0.01 m in position"): chi^2 per degree of freedom above ``WARN_CHI2_DOF`` and a chi^2 that
    chance would reach less often than ``WARN_CHANCE``; None otherwise."""
    if not (dof > 0 and chi2_dof > WARN_CHI2_DOF):
        return None
    chance = chi2_sf(chi2_dof * dof, dof)
    if chance >= WARN_CHANCE:
        return None
    return (
        f"the residuals are far beyond the stated measurement errors ({errors}): chi2 per degree of "
        f"freedom {chi2_dof:.3g} over {dof} (chance {chance:.1e}), so either the errors are larger "
        f"than stated, by about {math.sqrt(chi2_dof):.2g} times, or the model misses something the "
        "data show; the standard errors are scaled up to the residuals"
    )
