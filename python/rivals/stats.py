"""Match statistics as engine developers use them: Elo from scores, trinomial (single games) and
pentanomial (duplicate pairs) intervals, the generalised sequential probability ratio test, and a
maximum-likelihood rating fit for tournaments.

Scores are from one side's point of view: 1 a win, 1/2 a draw, 0 a loss. A *pair* is two games
with the same chance outcomes and the sides swapped; its score is the mean of its two games, one
of 0, 1/4, 1/2, 3/4, 1, and its five counts are the *pentanomial* (fishtest's ``LL, LD+DL,
LW+DD+WL, DW+WD, WW``). The two games of a pair are correlated (the same luck), so the pair, not
the game, is the independent unit: its variance is what the interval and the test use.

The test follows fishtest's ``LLRcalc`` (the logistic Elo model, the GSPRT of Michel Van den
Bergh's notes "support_MLE_multinomial" and "GSPRT_approximation", zero counts replaced by
``REGULARIZE``). The intervals do not take the units' spread as it was seen: a few units that all
came out alike (every pair split 1-1, every game won) have a spread of zero, which says nothing
about how far the next ones may fall. So, in the manner of Agresti and Coull's interval for a
proportion, ``z**2 / 2`` of a unit (1.92 at 95%) is added at each extreme score (a lost and a won
pair, or game) before the mean and the spread are taken, and the interval is that mean +- ``z``
standard errors of the units actually played. Simulated matches of known strength
(``tests/test_stats.py``) check that it covers the true difference as often as it says.

>>> round(elo(0.75), 2)
190.85
>>> round(score(190.848), 4)
0.75
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = [
    "PENTANOMIAL_VALUES",
    "REGULARIZE",
    "TRINOMIAL_VALUES",
    "Estimate",
    "Ratings",
    "Sprt",
    "elo",
    "elo_estimate",
    "fit_ratings",
    "llr",
    "llr_approximation",
    "normal_quantile",
    "prior_units",
    "score",
    "score_intervals",
    "sprt_bounds",
]

TRINOMIAL_VALUES = (0.0, 0.5, 1.0)
PENTANOMIAL_VALUES = (0.0, 0.25, 0.5, 0.75, 1.0)
# Fishtest's stand-in for a zero count, so that the likelihood stays finite when an outcome has
# not happened yet.
REGULARIZE = 1e-3
# How much wider the interval reported after a sequential test is: the fixed-sample interval of
# confidence 1 - (1 - c) / SEQUENTIAL_WIDENING stands for confidence c (95% -> 99%). A test stops
# where the results lean furthest, and a fixed-sample 95% interval taken there covered the true
# difference in only 89% of simulated tests; the 99% one covered it in at least 96%.
SEQUENTIAL_WIDENING = 5.0
# An Elo difference is finite only for scores strictly between 0 and 1; a clean sweep is shown
# as this bound.
ELO_LIMIT = 2000.0
_ELO_SCALE = 400.0 / math.log(10.0)  # Elo per natural-log unit of the odds


def score(elo_difference: float) -> float:
    """The expected score of a side ``elo_difference`` Elo stronger (the logistic model)."""
    return 1.0 / (1.0 + math.pow(10.0, -elo_difference / 400.0))


def elo(mean_score: float) -> float:
    """The Elo difference that gives ``mean_score``, clamped to ``+-ELO_LIMIT`` at 0 and 1."""
    if mean_score <= score(-ELO_LIMIT):
        return -ELO_LIMIT
    if mean_score >= score(ELO_LIMIT):
        return ELO_LIMIT
    return -400.0 * math.log10(1.0 / mean_score - 1.0)


def normal_quantile(p: float) -> float:
    """The standard normal quantile (Acklam's rational approximation refined by one Halley step,
    accurate to about 1e-15 in double precision)."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"a probability strictly between 0 and 1 is needed, got {p!r}")
    a = (-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.3577518672690,
         -30.66479806614716, 2.506628277459239)  # fmt: skip
    b = (-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972,
         -13.28068155288572)  # fmt: skip
    c = (-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734,
         4.374664141464968, 2.938163982698783)  # fmt: skip
    d = (0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416)
    low = 0.02425
    if p < low:
        q = math.sqrt(-2 * math.log(p))
        x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / (
            (((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1
        )
    elif p <= 1 - low:
        q = p - 0.5
        r = q * q
        x = (
            (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5])
            * q
            / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
        )
    else:
        q = math.sqrt(-2 * math.log(1 - p))
        x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / (
            (((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1
        )
    error = 0.5 * math.erfc(-x / math.sqrt(2)) - p
    u = error * math.sqrt(2 * math.pi) * math.exp(x * x / 2)
    return x - u / (1 + x * u / 2)


def _distribution(counts: Sequence[float]) -> tuple[float, list[tuple[float, float]]]:
    """Counts over ``TRINOMIAL_VALUES`` (3) or ``PENTANOMIAL_VALUES`` (5) -> (units, the
    empirical distribution as (score, probability) pairs), zero counts regularised."""
    values: tuple[float, ...]
    if len(counts) == 3:
        values = TRINOMIAL_VALUES
    elif len(counts) == 5:
        values = PENTANOMIAL_VALUES
    else:
        raise ValueError(f"3 (loss, draw, win) or 5 (pair) counts are needed, got {len(counts)}")
    if any(not math.isfinite(c) or c < 0 for c in counts):
        raise ValueError(f"counts must be finite and >= 0, got {list(counts)!r}")
    units = float(sum(counts))
    regular = [c if c > 0 else REGULARIZE for c in counts]
    total = sum(regular)
    return units, [(v, c / total) for v, c in zip(values, regular)]


def _moments(pdf: Sequence[tuple[float, float]]) -> tuple[float, float]:
    mean = sum(p * a for a, p in pdf)
    return mean, sum(p * (a - mean) ** 2 for a, p in pdf)


@dataclass(frozen=True)
class Estimate:
    """An Elo difference with its interval, from ``units`` games (trinomial) or pairs
    (pentanomial): ``mean_score`` per game, and ``score_error``, the standard error the interval
    is taken with. ``bounded`` is False when the interval runs from a score of 0 to 1: the games
    are too few to bound the difference at all."""

    elo: float
    low: float
    high: float
    mean_score: float
    score_error: float
    units: int

    @property
    def bounded(self) -> bool:
        return self.low > -ELO_LIMIT or self.high < ELO_LIMIT


def prior_units(confidence: float = 0.95) -> float:
    """The pseudo-units added at each extreme score before an interval is taken: ``z**2 / 2``
    (1.92 at 95%), Agresti and Coull's choice for a proportion."""
    z = normal_quantile(0.5 + confidence / 2)
    return z * z / 2


def _level(confidence: float, sequential: bool) -> float:
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence!r}")
    return 1 - (1 - confidence) / SEQUENTIAL_WIDENING if sequential else confidence


def score_intervals(
    counts: npt.ArrayLike, confidence: float = 0.95, *, sequential: bool = False
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The score intervals of ``elo_estimate`` for many results at once: ``counts`` is ``[...,
    3]`` (loss, draw, win) or ``[..., 5]`` (pairs), and the answer is the arrays ``(low, high,
    error)`` of scores and standard errors (``low`` 0, ``high`` 1 and ``error`` inf where no
    unit was played)."""
    level = _level(confidence, sequential)
    table = np.asarray(counts, dtype=np.float64)
    if table.ndim == 0 or table.shape[-1] not in (3, 5):
        got = table.shape[-1] if table.ndim else "a single number"
        raise ValueError(f"3 (loss, draw, win) or 5 (pair) counts are needed, got {got}")
    if not np.all(np.isfinite(table)) or np.any(table < 0):
        raise ValueError("counts must be finite and >= 0")
    values = np.linspace(0.0, 1.0, table.shape[-1])
    units = table.sum(axis=-1)
    prior = prior_units(level)
    augmented = table.copy()
    augmented[..., 0] += prior
    augmented[..., -1] += prior
    total = units + 2 * prior
    mean = (augmented * values).sum(axis=-1) / total
    variance = (augmented * (values - mean[..., None]) ** 2).sum(axis=-1) / total
    with np.errstate(divide="ignore"):
        error = np.sqrt(variance / units)
    z = normal_quantile(0.5 + level / 2)
    low = np.where(units > 0, np.maximum(0.0, mean - z * error), 0.0)
    high = np.where(units > 0, np.minimum(1.0, mean + z * error), 1.0)
    return low, high, error


def elo_estimate(
    counts: Sequence[int], confidence: float = 0.95, *, sequential: bool = False
) -> Estimate:
    """The Elo difference and its interval from loss/draw/win counts (3) or pair counts (5).

    The difference is that of the mean score. The interval is taken on the score scale and each
    end turned into Elo (so it is not symmetric): the counts with ``prior_units`` added at both
    extreme scores give a mean ``m`` and a variance ``v``, and the interval is ``m +- z sqrt(v /
    units)``, cut at scores 0 and 1 (``score_intervals``). ``sequential``: the games were
    stopped by a sequential test that looked after every unit, so the interval is the
    fixed-sample one of confidence ``1 - (1 - confidence) / SEQUENTIAL_WIDENING``. With no
    games: 0 and the widest interval."""
    units, pdf = _distribution([float(c) for c in counts])
    low, high, error = (
        float(x) for x in score_intervals(counts, confidence, sequential=sequential)
    )
    if units == 0:
        return Estimate(0.0, -ELO_LIMIT, ELO_LIMIT, 0.5, math.inf, 0)
    exact = sum(c * v for c, (v, _) in zip(counts, pdf)) / units
    return Estimate(elo(exact), elo(low), elo(high), exact, error, int(units))


# --------------------------------------------------------------------------------------------
# The sequential probability ratio test


def _mle_with_mean(pdf: Sequence[tuple[float, float]], s: float) -> list[tuple[float, float]]:
    """The distribution on the same scores closest (maximum likelihood) to ``pdf`` whose mean is
    ``s``: ``p_i / (1 + x (a_i - s))`` with ``x`` solving ``sum p_i (a_i - s) / (1 + x (a_i -
    s)) = 0`` (fishtest's ``MLE_expected``, Proposition 1.1 of "support_MLE_multinomial")."""
    lowest, highest = pdf[0][0], pdf[-1][0]
    if not lowest < s < highest:
        raise ValueError(f"the expected score {s} must lie strictly between {lowest} and {highest}")
    # The root lies where every 1 + x (a_i - s) > 0; the function decreases in x there.
    low, high = -1.0 / (highest - s), 1.0 / (s - lowest)

    def slope(x: float) -> float:
        return sum(p * (a - s) / (1 + x * (a - s)) for a, p in pdf)

    for _ in range(200):
        middle = (low + high) / 2
        if slope(middle) > 0:
            low = middle
        else:
            high = middle
        if high - low < 1e-15 * max(1.0, abs(middle)):
            break
    x = (low + high) / 2
    return [(a, p / (1 + x * (a - s))) for a, p in pdf]


def llr(counts: Sequence[int], elo0: float, elo1: float) -> float:
    """The generalised log-likelihood ratio of "the Elo difference is ``elo1``" against "it is
    ``elo0``" for loss/draw/win counts (3) or pair counts (5): ``N sum p_i log(p1_i / p0_i)``
    with ``p0``, ``p1`` the maximum-likelihood distributions of mean ``score(elo0)`` and
    ``score(elo1)`` (fishtest's ``LLR_logistic``)."""
    units, pdf = _distribution([float(c) for c in counts])
    if units == 0:
        return 0.0
    pdf0 = _mle_with_mean(pdf, score(elo0))
    pdf1 = _mle_with_mean(pdf, score(elo1))
    return units * sum(p * math.log(q1 / q0) for (_, p), (_, q0), (_, q1) in zip(pdf, pdf0, pdf1))


def llr_approximation(counts: Sequence[int], elo0: float, elo1: float) -> float:
    """``N (s1 - s0) (2 s - s0 - s1) / (2 var)``: the quadratic approximation of ``llr``
    ("GSPRT_approximation", fishtest's ``LLR_alt2``), close to it for small Elo differences."""
    units, pdf = _distribution([float(c) for c in counts])
    if units == 0:
        return 0.0
    mean, variance = _moments(pdf)
    s0, s1 = score(elo0), score(elo1)
    return units * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds on the log-likelihood ratio: accept H0 at or below ``log(beta / (1 -
    alpha))``, H1 at or above ``log((1 - beta) / alpha)``."""
    for name, value in (("alpha", alpha), ("beta", beta)):
        if not 0.0 < value < 0.5:
            raise ValueError(f"{name} must be strictly between 0 and 0.5, got {value!r}")
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


@dataclass(frozen=True)
class Sprt:
    """A sequential test of H1 "the second side is ``elo1`` stronger" against H0 "``elo0``"
    (logistic Elo), with false-positive rate ``alpha`` and false-negative rate ``beta``."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        for name, value in (("elo0", self.elo0), ("elo1", self.elo1)):
            if not math.isfinite(value) or abs(value) >= ELO_LIMIT:
                raise ValueError(f"{name} must be finite, within +-{ELO_LIMIT:g}, got {value!r}")
        if not self.elo0 < self.elo1:
            raise ValueError(f"elo0 must be below elo1, got {self.elo0:g},{self.elo1:g}")
        sprt_bounds(self.alpha, self.beta)

    @property
    def bounds(self) -> tuple[float, float]:
        return sprt_bounds(self.alpha, self.beta)

    def llr(self, counts: Sequence[int]) -> float:
        return llr(counts, self.elo0, self.elo1)

    def decision(self, counts: Sequence[int]) -> str | None:
        """``"H1"`` (at least ``elo1``), ``"H0"`` (at most ``elo0``), or None (play on)."""
        lower, upper = self.bounds
        value = self.llr(counts)
        if value >= upper:
            return "H1"
        if value <= lower:
            return "H0"
        return None


# --------------------------------------------------------------------------------------------
# Ratings


@dataclass(frozen=True)
class Ratings:
    """Elo ratings relative to ``names[0]`` (rated 0), with intervals of each rating's difference
    from it: ``error`` (Elo) is the standard error of the difference, taken at ``centre``, the
    ratings of the fit with each bot's ``prior_units`` shared among its pairings (``fit_ratings``;
    ``None``: at ``elo``)."""

    names: tuple[str, ...]
    elo: tuple[float, ...]
    error: tuple[float, ...]
    confidence: float
    centre: tuple[float, ...] | None = None

    def rated(self, index: int) -> bool:
        """Whether bot ``index`` has a rating (a tournament's bots without games have none)."""
        return not math.isnan(self.elo[index])

    def order(self) -> list[int]:
        """The bots from the highest rating down, those without one last."""
        return sorted(
            range(len(self.names)),
            key=lambda i: -self.elo[i] if self.rated(i) else math.inf,
        )

    def interval(self, index: int) -> tuple[float, float]:
        """The interval of bot ``index``'s difference from the first bot, taken as a pairing's
        (``elo_estimate``): the expected score against the first bot at ``centre`` +- z standard
        errors, each end turned into Elo. For two bots it is the pairing's own interval; near a
        sweep it ends at the score's bound (``+-ELO_LIMIT``) instead of reaching past the other
        side, as an interval symmetric in Elo would."""
        z = normal_quantile(0.5 + self.confidence / 2)
        centre = self.elo if self.centre is None else self.centre
        expected = score(centre[index])
        spread = self.error[index] * expected * (1 - expected) / _ELO_SCALE
        return elo(expected - z * spread), elo(expected + z * spread)


Tables = dict[tuple[int, int], dict[tuple[float, int], float]]


def fit_ratings(
    names: Sequence[str],
    units: Mapping[tuple[int, int], Mapping[tuple[float, int], int]],
    confidence: float = 0.95,
    iterations: int = 100,
) -> Ratings:
    """The maximum-likelihood Elo ratings of ``names`` under the logistic model, a draw counting
    as half a win and half a loss.

    ``units[(a, b)]`` counts the independent units of ``a``'s games against ``b`` by ``(a's
    total score, games)``: a unit is a game when the games are unpaired (``(1.0, 1)`` a win) and
    a pair when they are duplicate (``(1.5, 2)`` a win and a draw).

    The ratings: every outcome a pairing's units could have had and did not counts
    ``REGULARIZE`` of a unit, as ``elo_estimate`` regularises a zero count, so a pairing one side
    swept (all its points to one bot), whose likelihood would have no maximum, gets a large
    finite difference (10 wins and no draw or loss: ``400 log10(10.0005 / 0.0015)``, about 1530
    Elo) and the fit always converges. For two bots they are the pairing's ``elo_estimate``.

    The intervals: each bot has ``prior_units(confidence)`` pseudo-units at each extreme score,
    shared among its pairings: a pairing gets that many divided by the number of pairings of
    whichever of its bots has fewer (all of them in a gauntlet, half of them in a round robin of
    three), at its lost and at its won unit, and is then scaled back to the number of units
    played, so that the prior shapes its spread without counting as games. The fit of those is
    ``centre``, and the standard errors come from the sandwich estimator at it with the units as
    clusters (so they carry the pentanomial variance for pairs). For two bots this is
    ``elo_estimate``'s interval exactly. (A whole prior on every pairing would pull a rating
    that gathers several pairings towards the anchor by all their pulls at once: the intervals
    of bots 300 and 600 Elo apart then missed the truth in 8% of simulated round robins.)
    """
    count = len(names)
    if count < 2:
        raise ValueError("ratings need at least two bots")
    regular: Tables = {}
    augmented: Tables = {}
    prior_per_bot = prior_units(_level(confidence, False))
    degree = [0] * count
    for (a, b), table in units.items():
        if any(n > 0 for n in table.values()):
            degree[a] += 1
            degree[b] += 1
    for pair, table in units.items():
        prior = prior_per_bot / max(1, min(degree[pair[0]], degree[pair[1]]))
        played = {key: float(n) for key, n in table.items() if n > 0}
        sizes = {g for (_, g) in played}
        regular[pair] = dict(played)
        for size in sizes:
            for half_points in range(2 * size + 1):
                regular[pair].setdefault((half_points / 2, size), REGULARIZE)
        total = sum(played.values())
        with_prior = dict(played)
        for size in sizes:
            share = sum(n for (_, g), n in played.items() if g == size) / total
            for extreme in (0.0, float(size)):
                with_prior[(extreme, size)] = with_prior.get((extreme, size), 0.0) + prior * share
        scale = total / (total + 2 * prior)
        augmented[pair] = {key: n * scale for key, n in with_prior.items()}
    rating = _fit(count, regular, iterations)
    centre = _fit(count, augmented, iterations)
    errors = _sandwich_errors(count, augmented, centre)
    return Ratings(
        tuple(names), tuple(rating.tolist()), tuple(errors), confidence, tuple(centre.tolist())
    )


_C = math.log(10.0) / 400.0  # natural-log units of the odds per Elo


def _expected(difference: float) -> float:
    return 1.0 / (1.0 + math.exp(-_C * difference))


def _gradient_hessian(count: int, tables: Tables, rating: Any) -> tuple[Any, Any]:
    gradient = np.zeros(count)
    hessian = np.zeros((count, count))
    for (a, b), table in tables.items():
        points = sum(t * n for (t, _), n in table.items())
        games = sum(g * n for (_, g), n in table.items())
        if games == 0:
            continue
        expected = _expected(rating[a] - rating[b])
        g = _C * (points - games * expected)
        gradient[a] += g
        gradient[b] -= g
        h = _C * _C * games * expected * (1 - expected)
        hessian[a, a] -= h
        hessian[b, b] -= h
        hessian[a, b] += h
        hessian[b, a] += h
    return gradient, hessian


def _fit(count: int, tables: Tables, iterations: int) -> Any:
    """Newton steps on the free ratings (the first is held at 0), each at most 400 Elo, so that
    a sweep's far-off maximum is walked to rather than overshot."""
    rating = np.zeros(count)
    for _ in range(iterations):
        gradient, hessian = _gradient_hessian(count, tables, rating)
        free_h = hessian[1:, 1:] - 1e-9 * np.eye(count - 1)
        try:
            step = np.linalg.solve(free_h, -gradient[1:])
        except np.linalg.LinAlgError:
            raise ValueError("the games do not connect every bot to the others") from None
        step = np.clip(step, -400.0, 400.0)
        rating[1:] = np.clip(rating[1:] + step, -ELO_LIMIT, ELO_LIMIT)
        if np.max(np.abs(step)) < 1e-9:
            break
    return rating


def _sandwich_errors(count: int, tables: Tables, rating: Any) -> list[float]:
    """The ratings' standard errors (Elo) from the sandwich estimator, a unit a cluster."""
    _, hessian = _gradient_hessian(count, tables, rating)
    meat = np.zeros((count, count))
    for (a, b), table in tables.items():
        expected = _expected(rating[a] - rating[b])
        spread = sum(n * (_C * (t - g * expected)) ** 2 for (t, g), n in table.items())
        meat[a, a] += spread
        meat[b, b] += spread
        meat[a, b] -= spread
        meat[b, a] -= spread
    try:
        bread = np.linalg.inv(-hessian[1:, 1:])
    except np.linalg.LinAlgError:
        raise ValueError("the games do not connect every bot to the others") from None
    covariance = bread @ meat[1:, 1:] @ bread
    return [0.0, *np.sqrt(np.maximum(np.diag(covariance), 0.0)).tolist()]
