"""The presets (docs/bots.md): ``best`` and the others resolve to a bot of the game with its full
parameters, each game's tuned as the page says, are recorded as the bot they play, are named
where a bot is unknown, and never peek where cards are hidden."""

from __future__ import annotations

import json
import random
import re

import pytest

import rivals
from rivals import arena, cli
from tests.test_bots import decisions

HIDDEN = [name for name in rivals.games() if rivals.make(name).info.information == "imperfect"]


@pytest.mark.parametrize("name", rivals.games())
def test_best_resolves_to_a_bot_of_the_game_at_a_tenth_of_a_second(name: str) -> None:
    game = rivals.make(name)
    preset = game.info.presets["best"]
    assert preset["bot"] in game.info.bots
    assert preset["params"]["time_s"] == 0.1
    assert preset["description"]
    bot = rivals.bots.make("best", game)
    assert (bot.name, bot.preset) == (preset["bot"], "best")
    plain = rivals.bots.make(preset["bot"], game, **preset["params"])
    assert bot.params == plain.params
    assert plain.preset is None
    # Given parameters override the preset's.
    assert rivals.bots.make("best", game, time_s=0.5).params == {**plain.params, "time_s": 0.5}
    assert rivals.bots.resolve(game, "best", {"time_s": 0.5}) == (
        preset["bot"],
        {**preset["params"], "time_s": 0.5},
    )
    assert rivals.bots.clock_dependent(game, "best", {})
    assert not rivals.bots.clock_dependent(game, "best", {"time_s": 0})
    assert not set(game.info.presets) & set(game.info.bots)


@pytest.mark.parametrize("name", ["sekigahara", "rheinlaender", "battlecards"])
def test_the_tuned_presets_cut_rollouts_off(name: str) -> None:
    params = rivals.bots.make("best", rivals.make(name)).params
    assert isinstance(params["rollout_depth"], int)


def test_rosenkoenigs_best_backs_up_the_calibrated_evaluation_and_explores_narrowly() -> None:
    """docs/bots-results.md, "How the presets were chosen" and "The strength of `best`":
    Rosenkönig cuts its rollouts off with the calibrated evaluation, mixes that evaluation's
    implicit minimax into selection and explores less widely than plain mcts."""
    game = rivals.make("rosenkoenig")
    tuned = rivals.bots.make("best", game).params
    plain = rivals.bots.make("mcts", game).params
    assert tuned["rollout_depth"] == 8
    assert tuned["evaluation"] == "calibrated"
    assert tuned["minimax_weight"] == 0.5 and plain["minimax_weight"] == 0
    assert tuned["exploration"] == 0.7 < plain["exploration"]


def test_verraeters_best_plays_its_rollouts_to_the_end() -> None:
    # The cut-off lost there (docs/bots-results.md), so its preset keeps full rollouts.
    params = rivals.bots.make("best", rivals.make("verraeter")).params
    assert params["rollout_depth"] is None


def test_battlecards_best_shares_each_deal_among_simulations() -> None:
    # Dealing costs most of a simulation there (docs/bots-results.md), so its preset deals less
    # often.
    game = rivals.make("battlecards")
    assert rivals.bots.make("best", game).params["simulations_per_deal"] == 16
    assert rivals.bots.make("ismcts", game).params["simulations_per_deal"] == 1


@pytest.mark.parametrize("name", rivals.games())
def test_every_game_declares_its_own_best(name: str) -> None:
    """Each game's best is a tuned setting it declares, not the plain tree search a game without
    one falls back to, and says where it was measured."""
    preset = rivals.make(name).info.presets["best"]
    assert "no tuned setting" not in preset["description"]
    assert "docs/bots.md" in preset["description"]


@pytest.mark.parametrize("name", rivals.games())
def test_a_preset_is_recorded_as_the_bot_it_plays(name: str) -> None:
    game = rivals.make(name)
    lineup = arena.Lineup.of(game, ["best", ("best", {"time_s": 0.2})])
    # With more seats than bots the lineup repeats them (best#3, ...).
    first, second = lineup.entries[:2]
    assert (first.label, second.label) == ("best", "best#2")
    assert first.spec == {
        "name": game.info.presets["best"]["bot"],
        "params": rivals.bots.make("best", game).params,
    }
    assert second.spec["params"]["time_s"] == 0.2
    # A replay line's bots rebuild the same lineup.
    record = {
        "game": game.name,
        "params": game.params,
        "arena": {"index": 0, "labels": [entry.label for entry in lineup.entries]},
        "bots": lineup.seat_bots(0),
    }
    assert arena.Lineup.from_record(record).entries == lineup.entries


def test_unknown_bots_list_the_presets_and_bad_preset_parameters_name_both() -> None:
    game = rivals.make("sekigahara")
    with pytest.raises(ValueError, match=r"available: alphabeta, .*; presets: best"):
        rivals.bots.make("strongest", game)
    with pytest.raises(ValueError, match=r"best \(mcts\): unknown parameter 'depth'"):
        rivals.bots.make("best", game, depth=3)


@pytest.mark.parametrize("name", HIDDEN)
def test_best_never_peeks_where_cards_are_hidden(name: str) -> None:
    """best plays a bot that decides from its seat's information state: one of the fair bots
    (the learning environment accepts it as an opponent), and its move, at a fixed budget, is
    the same for two states its seat cannot tell apart."""
    game = rivals.make(name)
    assert game.info.presets["best"]["bot"] in game.info.fair_bots
    # The learning environment's check of its opponents reads the preset's bot.
    opponents = {seat: ("best", {"time_s": 0}) for seat in range(1, game.num_players)}
    rivals.VectorEnv(game, 1, opponents=opponents)
    rng = random.Random(name)
    positions = decisions(name, 6, seed=3)
    for number, state in enumerate(positions):
        twin = state.resample_from_infostate(state.current_player(), rng.randrange(2**32))
        moves = [
            rivals.bots.make("best", game, seed=number, time_s=0, iterations=60).step(s)
            for s in (state, twin)
        ]
        assert moves[0] == moves[1]


def test_the_bots_command_lists_evaluations_and_what_best_plays(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "400")  # one table row per line
    assert cli.main(["bots", "rosenkoenig", "verraeter"]) == 0
    out = capsys.readouterr().out
    assert re.search(
        r"rosenkoenig +alphabeta, ismcts, mcts, random +default, thesis, calibrated", out
    )
    best = rivals.bots.resolve(rivals.make("rosenkoenig"), "best", {})
    settings = " ".join(f"{key}={json.dumps(value)}" for key, value in best[1].items())
    assert re.search(rf"rosenkoenig +best +{best[0]} {re.escape(settings)} ", out)
    assert re.search(r"verraeter +best +ismcts time_s=0\.1", out)
    assert "sekigahara" not in out
    # Each bot's defaults, every one of them: "mcts" alone says nothing of what it plays with.
    for name in ("rosenkoenig", "verraeter"):
        game = rivals.make(name)
        for bot in game.info.bots:
            played = rivals.bots.make(bot, game).params
            settings = " ".join(f"{key}={json.dumps(value)}" for key, value in played.items())
            assert re.search(rf"{name} +{bot} +{re.escape(settings or 'no settings')} *\n", out)
    assert cli.main(["bots", "chess"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err
