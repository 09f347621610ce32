"""rivals.stats against hand-computed values and an independent maximum-likelihood solution."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import optimize

from rivals import stats

LN10 = math.log(10)


def hand_elo(s: float) -> float:
    return -400 * math.log10(1 / s - 1)


def test_elo_and_score_are_the_logistic_model() -> None:
    assert stats.score(0) == 0.5
    # 3:1 odds is 400 log10(3) Elo; 9:1 is twice that.
    assert stats.elo(0.75) == pytest.approx(400 * math.log10(3), abs=1e-9)
    assert stats.elo(0.9) == pytest.approx(800 * math.log10(3), abs=1e-9)
    assert stats.score(400 * math.log10(3)) == pytest.approx(0.75, abs=1e-12)
    assert stats.elo(1.0) == stats.ELO_LIMIT and stats.elo(0.0) == -stats.ELO_LIMIT


@pytest.mark.parametrize(
    ("p", "z"),
    [(0.975, 1.959963984540054), (0.5, 0.0), (0.001, -3.090232306167814), (0.84, 0.994457883)],
)
def test_normal_quantile(p: float, z: float) -> None:
    assert stats.normal_quantile(p) == pytest.approx(z, abs=1e-9)


def test_trinomial_estimate_by_hand() -> None:
    # 75 wins, 10 draws, 25 losses: score 80/110.
    estimate = stats.elo_estimate([25, 10, 75])
    s = 80 / 110
    variance = (75 * (1 - s) ** 2 + 10 * (0.5 - s) ** 2 + 25 * s**2) / 110
    error = math.sqrt(variance / 110)
    assert estimate.mean_score == pytest.approx(s)
    assert estimate.elo == pytest.approx(hand_elo(s))
    assert estimate.score_error == pytest.approx(error)
    assert estimate.low == pytest.approx(hand_elo(s - 1.959963984540054 * error))
    assert estimate.high == pytest.approx(hand_elo(s + 1.959963984540054 * error))
    assert estimate.units == 110


def test_pentanomial_estimate_by_hand() -> None:
    # Pairs LL, LD, even, DW, WW = 1, 2, 3, 4, 5: mean pair score 10/15, variance 7/72.
    estimate = stats.elo_estimate([1, 2, 3, 4, 5])
    assert estimate.mean_score == pytest.approx(2 / 3)
    assert estimate.elo == pytest.approx(400 * math.log10(2))
    error = math.sqrt(7 / 72 / 15)
    assert estimate.score_error == pytest.approx(error)
    assert estimate.low == pytest.approx(hand_elo(2 / 3 - 1.959963984540054 * error))
    assert estimate.units == 15


def test_pairs_that_cancel_luck_give_a_narrower_interval_than_their_games() -> None:
    # The same 40 games: 20 pairs that each split 1-1 (luck decided every game), counted as
    # pairs, are known to be even far more precisely than as 40 independent games.
    as_games = stats.elo_estimate([20, 0, 20])
    as_pairs = stats.elo_estimate([0, 0, 20, 0, 0])
    assert as_games.elo == pytest.approx(0) and as_pairs.elo == pytest.approx(0)
    assert as_pairs.high - as_pairs.low < (as_games.high - as_games.low) / 10


def independent_llr(counts: list[int], elo0: float, elo1: float) -> float:
    """The GSPRT's log-likelihood ratio by direct constrained maximisation (scipy's SLSQP), with
    fishtest's regularisation of zero counts: the check on the secular-equation solution."""
    values = np.linspace(0, 1, len(counts))
    n = np.array([c if c > 0 else stats.REGULARIZE for c in counts], dtype=float)
    units = sum(counts)
    frequencies = n / n.sum()

    def best(s: float) -> np.ndarray:
        result = optimize.minimize(
            lambda p: -np.sum(frequencies * np.log(np.maximum(p, 1e-300))),
            frequencies,
            method="SLSQP",
            bounds=[(1e-12, 1)] * len(counts),
            constraints=[
                {"type": "eq", "fun": lambda p: np.sum(p) - 1},
                {"type": "eq", "fun": lambda p: np.dot(p, values) - s},
            ],
            options={"ftol": 1e-15, "maxiter": 1000},
        )
        return np.asarray(result.x)

    p0, p1 = best(stats.score(elo0)), best(stats.score(elo1))
    return float(units * np.sum(frequencies * np.log(p1 / p0)))


@pytest.mark.parametrize(
    ("counts", "elo0", "elo1"),
    [
        ([120, 200, 160], 0, 10),
        ([300, 250, 290], -5, 5),
        ([10, 0, 30], 0, 50),
        ([5, 40, 100, 60, 12], 0, 10),
        ([0, 12, 30, 20, 3], 0, 20),
    ],
)
def test_llr_matches_an_independent_maximisation(
    counts: list[int], elo0: float, elo1: float
) -> None:
    assert stats.llr(counts, elo0, elo1) == pytest.approx(
        independent_llr(counts, elo0, elo1), abs=1e-4
    )


def test_llr_of_wins_and_losses_only_is_wald_s_binomial_ratio() -> None:
    # No draws: the MLE of a mean-s distribution on {0, 1} is Bernoulli(s), up to the tiny
    # regularised draw count.
    wins, losses = 60, 40
    s0, s1 = stats.score(0), stats.score(40)
    wald = wins * math.log(s1 / s0) + losses * math.log((1 - s1) / (1 - s0))
    assert stats.llr([losses, 0, wins], 0, 40) == pytest.approx(wald, rel=1e-3)


def test_llr_approximation_is_close_for_small_differences() -> None:
    counts = [1200, 2100, 1300]
    exact = stats.llr(counts, 0, 5)
    assert stats.llr_approximation(counts, 0, 5) == pytest.approx(exact, rel=0.02)
    # Hand: N (s1 - s0)(2s - s0 - s1) / (2 var).
    s = (2100 / 2 + 1300) / 4600
    var = (1200 * s**2 + 2100 * (0.5 - s) ** 2 + 1300 * (1 - s) ** 2) / 4600
    s0, s1 = 0.5, stats.score(5)
    assert stats.llr_approximation(counts, 0, 5) == pytest.approx(
        4600 * (s1 - s0) * (2 * s - s0 - s1) / (2 * var)
    )


def test_sprt_bounds_and_decisions() -> None:
    lower, upper = stats.sprt_bounds(0.05, 0.05)
    assert upper == pytest.approx(math.log(19)) and lower == pytest.approx(-math.log(19))
    lower, upper = stats.sprt_bounds(0.05, 0.1)
    assert lower == pytest.approx(math.log(0.1 / 0.95))
    assert upper == pytest.approx(math.log(0.9 / 0.05))
    test = stats.Sprt(0, 50)
    assert test.decision([0, 0, 0]) is None
    # Wald's ratio per win ln(0.571463 / 0.5) = 0.133588, per loss ln(0.428537 / 0.5) = -0.154218.
    assert test.decision([30, 0, 70]) == "H1"  # 70 * 0.133588 - 30 * 0.154218 = 4.72
    assert test.decision([150, 0, 150]) == "H0"  # 150 * (0.133588 - 0.154218) = -3.09
    assert test.decision([120, 0, 120]) is None  # -2.48
    assert test.llr([30, 0, 70]) == pytest.approx(4.7247, abs=0.01)
    with pytest.raises(ValueError, match="elo0 must be below elo1"):
        stats.Sprt(10, 0)
    with pytest.raises(ValueError, match="alpha"):
        stats.Sprt(0, 10, alpha=0.7)


def test_ratings_recover_consistent_results() -> None:
    # A scores 75% against B, B 75% against C, A 90% against C: exactly 0, -190.8, -381.7, but
    # for the thousandth of a draw that stands in for the draws never seen.
    def results(wins: int, losses: int) -> dict[tuple[float, int], int]:
        return {(1.0, 1): wins, (0.0, 1): losses}

    ratings = stats.fit_ratings(
        ["A", "B", "C"],
        {(0, 1): results(75, 25), (1, 2): results(75, 25), (0, 2): results(90, 10)},
    )
    assert ratings.elo[0] == 0
    assert ratings.elo[1] == pytest.approx(-400 * math.log10(3), abs=0.01)
    assert ratings.elo[2] == pytest.approx(-800 * math.log10(3), abs=0.01)
    assert ratings.error[0] == 0 and 0 < ratings.error[1] < ratings.error[2]


@pytest.mark.parametrize(
    ("units", "counts"),
    [
        ({(1.0, 1): 75, (0.5, 1): 10, (0.0, 1): 25}, [25, 10, 75]),
        ({(0.0, 2): 1, (0.5, 2): 2, (1.0, 2): 3, (1.5, 2): 4, (2.0, 2): 5}, [1, 2, 3, 4, 5]),
    ],
)
def test_two_bot_ratings_are_the_trinomial_or_pentanomial_estimate(
    units: dict[tuple[float, int], int], counts: list[int]
) -> None:
    ratings = stats.fit_ratings(["A", "B"], {(1, 0): units})
    estimate = stats.elo_estimate(counts)
    assert ratings.elo[1] == pytest.approx(estimate.elo, abs=1e-6)
    s = estimate.mean_score
    # The delta method: d Elo / d s = 400 / (ln 10 s (1 - s)).
    assert ratings.error[1] == pytest.approx(
        estimate.score_error * 400 / (LN10 * s * (1 - s)), rel=1e-6
    )


@pytest.mark.parametrize(
    ("units", "counts"),
    [
        ({(1.0, 1): 15, (0.5, 1): 3, (0.0, 1): 2}, [2, 3, 15]),
        ({(0.5, 2): 1, (1.0, 2): 1, (1.5, 2): 2, (2.0, 2): 6}, [0, 1, 1, 2, 6]),
        ({(1.0, 2): 1}, [0, 0, 1, 0, 0]),
        ({(2.0, 2): 10}, [0, 0, 0, 0, 10]),
        ({(0.0, 1): 20}, [20, 0, 0]),
    ],
    ids=["games", "pairs", "one-pair", "swept-pairs", "swept-games"],
)
def test_two_bot_rating_intervals_are_the_pairings_intervals(
    units: dict[tuple[float, int], int], counts: list[int]
) -> None:
    ratings = stats.fit_ratings(["A", "B"], {(1, 0): units})
    estimate = stats.elo_estimate(counts)
    low, high = ratings.interval(1)
    # The ratings count the regularised outcomes as units, the pairing only those played.
    assert low == pytest.approx(estimate.low, rel=5e-3)
    assert high == pytest.approx(estimate.high, rel=5e-3)
    assert low < high


def test_a_bot_that_lost_every_game_is_not_rated_possibly_stronger() -> None:
    # C lost all its games to A and B: its interval stays below both, however wide its error.
    ratings = stats.fit_ratings(
        ["A", "B", "C"],
        {
            (0, 1): {(2.0, 2): 6, (1.0, 2): 3, (0.5, 2): 1},
            (0, 2): {(2.0, 2): 10},
            (1, 2): {(2.0, 2): 10},
        },
    )
    low, high = ratings.interval(2)
    assert low == -stats.ELO_LIMIT
    assert ratings.elo[2] < high < min(ratings.elo[0], ratings.elo[1])


def test_sweeps_get_finite_ratings_and_disconnected_bots_are_refused() -> None:
    # Ten wins, and a thousandth of a draw and of a loss in place of the outcomes never seen.
    ratings = stats.fit_ratings(["A", "B"], {(0, 1): {(1.0, 1): 10}})
    assert ratings.elo[1] == pytest.approx(-400 * math.log10(10.0005 / 0.0015), abs=0.01)
    # A beats everyone; B and C, both swept by A, keep their difference from each other.
    ratings = stats.fit_ratings(
        ["A", "B", "C"],
        {(0, 1): {(1.0, 1): 8}, (0, 2): {(1.0, 1): 8}, (1, 2): {(1.0, 1): 6, (0.0, 1): 2}},
    )
    assert ratings.elo[2] - ratings.elo[1] == pytest.approx(-400 * math.log10(3), abs=30)
    with pytest.raises(ValueError, match="connect"):
        stats.fit_ratings(["A", "B", "C"], {(0, 1): {(1.0, 1): 3, (0.0, 1): 3}})
