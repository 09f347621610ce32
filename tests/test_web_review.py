"""Reviews in ``rivals serve``: a finished game stepped through as any seat saw it, and any
position's legal moves analysed by a bot (its search's visits and values) or, in Sekigahara, by
the exact solver."""

from __future__ import annotations

import random
from typing import Any

import pytest
from starlette.testclient import TestClient

import rivals
from rivals import replay as replays
from rivals.render import move_texts
from rivals.render.svg import to_svg
from tests.random_play import play_randomly
from tests.web_client import (
    PERSON,
    RANDOM,
    client,
    create,
    seats,
    table_request,
    token_of,
)


def ask(test_client: TestClient, what: str, **body: Any) -> Any:
    """A review request (its id in the body, as the page sends it); its answer."""
    answer = test_client.post(f"/api/review/{what}", json=body)
    assert answer.status_code == 200, answer.text
    return answer.json()


def finished(name: str, seed: int, **params: Any) -> rivals.State:
    state: rivals.State = play_randomly(
        rivals.make(name, **params).new_initial_state(), random.Random(seed)
    )
    return state


def test_a_replay_is_stepped_through_as_every_seat_saw_it() -> None:
    state = finished("verraeter", 2, players=3, rounds=2)
    history = state.history()
    with client() as test_client:
        created = test_client.post("/api/reviews", json={"replay": replays.dumps(state)})
        assert created.status_code == 200
        review = created.json()["id"]
        summary = ask(test_client, "summary", id=review)
        assert summary["steps"] == len(history) and summary["viewers"] == [0, 1, 2, None]
        middle = len(history) // 2
        at = state.game.state_from_history(history[:middle])
        for seat in (0, 2, None):
            frame = ask(test_client, "frame", id=review, step=middle, seat=seat)
            assert frame["svg"] == to_svg(at, seat)
            log = ask(test_client, "log", id=review, seat=seat)["entries"]
            assert [entry["text"] for entry in log] == move_texts(state, seat)
        for body, expected in [
            ({"step": len(history) + 1, "seat": 0}, "a step is a whole number from 0 to"),
            ({"step": -1, "seat": 0}, "a step is a whole number from 0 to"),
            ({"step": "1", "seat": 0}, "a step is a whole number from 0 to"),
            ({"step": 0, "seat": 7}, "does not show the view of seat 7"),
            ({"step": 0, "seat": "x"}, "a view is a seat number or null"),
        ]:
            bad = test_client.post("/api/review/frame", json={"id": review, **body})
            assert bad.status_code == 400 and expected in bad.json()["error"], bad.json()
        gone = test_client.post("/api/review/summary", json={"id": "nothing"})
        assert gone.status_code == 404


def test_a_log_of_many_games_opens_the_one_asked_for() -> None:
    games = [finished("rosenkoenig", seed) for seed in (1, 2, 3)]
    text = "".join(replays.dumps(state) + "\n" for state in games)
    with client() as test_client:
        inspected = test_client.post("/api/replays", json={"replay": text, "index": 2}).json()
        assert inspected["games"] == 3 and inspected["steps"] == len(games[2].history())
        review = test_client.post("/api/reviews", json={"replay": text, "index": 2}).json()["id"]
        assert ask(test_client, "summary", id=review)["steps"] == len(games[2].history())
        wrong = test_client.post("/api/reviews", json={"replay": text, "index": 3})
        assert wrong.status_code == 400 and "choose one from 0 to 2" in wrong.json()["error"]


def decision_step(state: rivals.State, rng: random.Random) -> int:
    """A step of ``state``'s game where a seat decides between several moves."""
    history = state.history()
    while True:
        step = rng.randrange(len(history))
        at = state.game.state_from_history(history[:step])
        if not at.is_chance_node() and len(at.legal_actions()) > 1:
            return step


@pytest.mark.parametrize(("name", "bot"), [("rosenkoenig", "mcts"), ("battlecards", "ismcts")])
def test_every_legal_move_is_given_its_visits_and_value(name: str, bot: str) -> None:
    state = finished(name, 5)
    history = state.history()
    step = decision_step(state, random.Random(name))
    at = state.game.state_from_history(history[:step])
    with client() as test_client:
        review = test_client.post("/api/reviews", json={"replay": replays.dumps(state)}).json()[
            "id"
        ]
        answer = test_client.post(
            "/api/review/analyse",
            json={"id": review, "step": step, "bot": bot, "params": {"iterations": 600}},
        )
        assert answer.status_code == 200, answer.text
        analysis = answer.json()
    rows = analysis["moves"]
    assert sorted(row["action"] for row in rows) == at.legal_actions()
    assert sum(row["visits"] for row in rows) == 600
    assert [row["visits"] for row in rows] == sorted((row["visits"] for row in rows), reverse=True)
    best = [row for row in rows if row["best"]]
    assert len(best) == 1 and best[0]["visits"] == rows[0]["visits"]
    assert [row["played"] for row in rows].count(True) == 1
    assert next(row for row in rows if row["played"])["action"] == history[step]
    for row in rows:
        assert row["text"] == at.action_to_string(row["action"])
        assert row["value"] is None or -1 <= row["value"] <= 1


def test_sekigahara_moves_get_the_exact_solvers_value() -> None:
    state = finished("sekigahara", 3)
    history = state.history()
    # Near the end, where the solver answers at once: the last decision with several moves.
    step = max(
        k
        for k in range(len(history))
        if not (at := state.game.state_from_history(history[:k])).is_chance_node()
        and len(at.legal_actions()) > 1
    )
    at = state.game.state_from_history(history[:step])
    mover = at.current_player()
    solver = rivals.bots.make("solver", state.game, 0, time_s=10.0)
    with client() as test_client:
        review = test_client.post("/api/reviews", json={"replay": replays.dumps(state)}).json()[
            "id"
        ]
        summary = ask(test_client, "summary", id=review)
        assert summary["bots"][0] == {
            "name": "solver",
            "kind": "solver",
            "settings": {"time_s": 10.0, "max_contexts": 200_000},
        }
        analysis = test_client.post(
            "/api/review/analyse",
            json={
                "id": review,
                "step": step,
                "bot": "solver",
                "params": summary["bots"][0]["settings"],
            },
        ).json()
    for row in analysis["moves"]:
        child = at.clone()
        child.apply_action(row["action"])
        exact = (
            child.returns()[mover]
            if child.is_terminal()
            else solver.analyse(child)["returns"][mover]
        )
        assert row["value"] == pytest.approx(exact)
        assert row["visits"] is None
    # The best move's value is the position's own.
    assert max(row["value"] for row in analysis["moves"]) == pytest.approx(
        solver.analyse(at)["returns"][mover]
    )


def test_an_analysis_it_cannot_give_is_refused_in_words() -> None:
    state = finished("rheinlaender", 1)
    with client() as test_client:
        review = test_client.post("/api/reviews", json={"replay": replays.dumps(state)}).json()[
            "id"
        ]
        chance = next(
            k
            for k in range(len(state.history()))
            if state.game.state_from_history(state.history()[:k]).is_chance_node()
        )
        decision = decision_step(state, random.Random(1))
        for body, expected in [
            ({"step": chance, "bot": "ismcts"}, "chance moves here"),
            ({"step": len(state.history()), "bot": "ismcts"}, "the game is over here"),
            ({"step": decision, "bot": "alphabeta"}, "analyse with one of"),
            (
                {"step": decision, "bot": "ismcts", "params": {"iterations": 10**9}},
                "a move may take here",
            ),
            ({"step": str(decision), "bot": "ismcts"}, "a step is a whole number"),
        ]:
            answer = test_client.post("/api/review/analyse", json={"id": review, **body})
            assert answer.status_code == 400 and expected in answer.json()["error"], (
                body,
                answer.json(),
            )


def test_a_finished_table_is_reviewed_by_its_seats_and_its_spectators_see_the_public_view() -> None:
    with client() as test_client:
        created = create(test_client, table_request("battlecards", [PERSON, RANDOM], max_turns=4))
        with seats(test_client, token_of(created, 0), created["spectate"]) as (seat, watcher):
            view = seat.view_to_play()
            seat.send({"type": "review"})
            assert "once it is over" in seat.next("error")["message"]
            first_move = view["menu"][0]["entries"][0]["action"]
            seat.send({"type": "move", "action": first_move, "step": view["step"]})
            seat.play_out(random.Random(2))
            seat.send({"type": "review"})
            mine = ask(test_client, "summary", id=seat.next("review")["id"])
            assert mine["viewers"] == [0, 1, None] and mine["bots"]
            assert mine["names"] == ["person", "random"]
            watcher.send({"type": "review"})
            public = ask(test_client, "summary", id=watcher.next("review")["id"])
            # A position's moves show the mover's cards: no analysis for the public view.
            assert public["viewers"] == [None] and public["bots"] == []
            refused = test_client.post(
                "/api/review/analyse", json={"id": public["id"], "step": 3, "bot": "ismcts"}
            )
            assert refused.status_code == 400 and "no analysis" in refused.json()["error"]


def test_the_server_holds_at_most_its_reviews() -> None:
    from rivals.web.server import Limits

    text = replays.dumps(finished("rosenkoenig", 1))
    with client(Limits(reviews=1)) as test_client:
        assert test_client.post("/api/reviews", json={"replay": text}).status_code == 200
        full = test_client.post("/api/reviews", json={"replay": text})
        assert full.status_code == 503 and "holds 1 reviews already" in full.json()["error"]
