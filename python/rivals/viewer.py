"""A replay as one self-contained HTML page that a person can step through.

``write_html(replay, path)`` writes the page (an existing file is refused unless ``force=True``):
the picture of every step (``rivals.render.svg``) inlined, a move list that follows the current
step, buttons and keys (left and right arrows, Home, End, space to play) and a slider. The page
needs no network: its SVG, CSS and script are all inline. ``#step=K`` at the end of the page's
address opens it at step ``K`` (a negative ``K`` counts from the end), and a new ``#step=K``
moves an open page there.

Consecutive pictures share most of their elements, so the page stores every distinct top-level
element of the pictures once (``pieces``) and each step as the list of its pieces (``frames``);
``frames_of(page)`` rebuilds the pictures. A whole game stays small this way (a long Battlecards
game well under 2 MB).

Step 0 is the initial state; step ``k`` is the state after the first ``k`` actions (chance
included).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from typing import Any, Union

import rivals
from rivals import replay as replays
from rivals._core import Game, State
from rivals.files import write_new
from rivals.render import params_text, player_label, result_text
from rivals.render.svg import draw, escape, move_texts, moves

__all__ = ["Replay", "frames_of", "load", "state_at", "title_of", "to_html", "write_html"]

_TAG = re.compile(r"<[^>]*>")
# How far the diff of two steps looks ahead for a piece they share.
LOOKAHEAD = 64
_FRAMES = re.compile(r'<script id="frames" type="application/json">(.*?)</script>', re.S)

Replay = Union[State, Mapping[str, Any]]


def load(replay: Replay) -> State:
    """The final state of ``replay``: a ``State``, or a replay dict, checked entry by entry
    (``ValueError`` names the first bad one)."""
    if isinstance(replay, State):
        return replay
    if not isinstance(replay, Mapping):
        raise ValueError(f"expected a State or a replay dict, got {type(replay).__name__}")
    return replays.from_dict(dict(replay))


def state_at(replay: Replay, step: int) -> State:
    """The state after the first ``step`` actions of ``replay``; negative steps count from the
    end (``-1`` is the final state)."""
    final = load(replay)
    history = final.history()
    index = step + len(history) + 1 if step < 0 else step
    if not 0 <= index <= len(history):
        raise ValueError(
            f"step {step} is out of range: the replay has steps 0..{len(history)} "
            f"(or -{len(history) + 1}..-1 from the end)"
        )
    return final.game.state_from_history(history[:index])


def write_html(
    replay: Replay,
    path: str | os.PathLike[str],
    player: int | None = None,
    *,
    force: bool = False,
    seats: bool = False,
) -> None:
    """Writes the viewer page of ``replay`` (a ``State`` or a replay dict) to ``path``.

    ``player`` is the seat whose view the pictures show; ``None`` (a spectator) shows what is
    public. ``seats=True`` (with no ``player``) adds every seat's view, hidden cards and all,
    and a switch between them: the page of someone who may see the whole record. An existing
    ``path`` (a replay log, say) is refused with ``ValueError`` unless ``force``; the page is
    written whole or not at all.
    """
    write_new(path, to_html(replay, player, seats=seats), force=force)


def title_of(game: Game) -> tuple[str, str]:
    """The page's title (``"Verräter (Traitor) replay"``) and its variant in words: the player
    count where the game has one, and any parameter changed from the game's defaults
    (``"3 players · rules changed: max_turns=200"``), else ``"standard rules"``."""
    params = replays.portable_params(game)
    players = params.get("players")
    # The defaults of the same player count: some follow it (Verräter's rounds).
    usual = replays.portable_params(
        rivals.make(game.name) if players is None else rivals.make(game.name, players=players)
    )
    changed = {key: value for key, value in params.items() if usual.get(key) != value}
    words = [] if players is None else [f"{players} players"]
    words.append(f"rules changed: {params_text(changed)}" if changed else "standard rules")
    return f"{game.info.long_name} replay", " · ".join(words)


def _view_name(state: State, view: int | None) -> str:
    return "spectator" if view is None else f"view of {player_label(state, view)}"


def to_html(replay: Replay, player: int | None = None, *, seats: bool = False) -> str:
    """The viewer page of ``replay`` as a string (``seats``: every seat's view, switchable)."""
    final = load(replay)
    game = final.game
    if seats and player is not None:
        raise ValueError(f"seats=True shows every seat's view: give no player, got {player!r}")
    views: list[int | None] = [player]
    if seats and game.info.information == "imperfect":
        # Where nothing is hidden every seat sees the spectator's picture.
        views += list(range(game.num_players))
    history = moves(final)
    pieces: dict[str, int] = {}
    groups: dict[str, list[str]] = {}
    drawn: list[dict[str, Any]] = []
    for view in views:
        frames, texts = _frames(final, view, history, pieces, groups)
        drawn.append(
            {
                "label": "spectator" if view is None else player_label(final, view),
                "view": _view_name(final, view),
                "first": frames[0],
                "deltas": [_delta(before, after) for before, after in zip(frames, frames[1:])],
                "moves": texts,
            }
        )
    items = ['<li data-step="0" class="start"><span class="who">start</span></li>']
    main = drawn[0]
    walker = game.new_initial_state()
    for step, move in enumerate(history):
        who = player_label(walker, move.player)
        items.append(
            f'<li data-step="{step + 1}"><span class="num">{step + 1}</span> '
            f'<span class="move"><span class="who">{escape(who)}</span> '
            f'<span class="text">{escape(main["moves"][step])}</span></span></li>'
        )
        walker.apply_action(move.action)
    title, variant = title_of(game)
    summary = f"{len(history)} moves · {result_text(final)}"
    # An arena replay names the bot in each seat.
    arena = replay.get("arena") if isinstance(replay, Mapping) else None
    bots = arena.get("labels") if isinstance(arena, Mapping) else None
    if isinstance(bots, list) and len(bots) == game.num_players:
        seats_text = ", ".join(
            f"{player_label(final, seat)}: {bot}" for seat, bot in enumerate(bots)
        )
        summary += f" · {seats_text}"
    stored = {
        "pieces": list(pieces),
        "first": main["first"],
        "deltas": main["deltas"],
        # The first view's frames are the ones above and its moves are in the page's list.
        "views": [
            {key: view[key] for key in ("label", "view")} if view is main else view
            for view in drawn
        ],
    }
    frames_json = json.dumps(stored, ensure_ascii=False, separators=(",", ":"))
    # "</" inside the JSON would end the script element early.
    frames_json = frames_json.replace("</", "<\\/")
    switch = ""
    if len(drawn) > 1:
        options = "".join(
            f'<option value="{index}">{escape(view["label"])}</option>'
            for index, view in enumerate(drawn)
        )
        switch = (
            '<label class="switch">view <select id="view" aria-label="whose view">'
            f"{options}</select></label>"
        )
    return _PAGE.format(
        title=escape(title),
        variant=escape(variant),
        view=escape(main["view"]),
        summary=escape(summary),
        switch=switch,
        last=len(history),
        buttons=_buttons(len(history)),
        moves="".join(items),
        frames=frames_json,
        style=_STYLE,
        script=_SCRIPT,
    )


def _frames(
    final: State,
    view: int | None,
    history: list[Any],
    pieces: dict[str, int],
    groups: dict[str, list[str]],
) -> tuple[list[list[int]], list[str]]:
    """Every step's picture as ``view`` sees it, as pieces (new ones added to ``pieces``), and
    how each move reads to that view."""
    walker = final.game.new_initial_state()
    frames = []
    for step in range(len(history) + 1):
        frames.append(
            [
                pieces.setdefault(piece, len(pieces))
                for piece in _split(draw(walker, view, history[:step]), groups)
            ]
        )
        if step < len(history):
            walker.apply_action(history[step].action)
    return frames, move_texts(final, view)


def _siblings(text: str) -> list[str]:
    """A run of sibling elements, one string each."""
    out = []
    depth = 0
    start = 0
    for tag in _TAG.finditer(text):
        name = tag.group()
        if name.startswith("</"):
            depth -= 1
        elif not name.endswith("/>"):
            depth += 1
        if depth == 0:
            out.append(text[start : tag.end()])
            start = tag.end()
    if start < len(text):
        out.append(text[start:])
    return out


def _cut(elements: list[str], depth: int, groups: dict[str, list[str]]) -> list[str]:
    """``elements`` with every group opened up to ``depth`` levels down: its opening tag, its
    elements, its closing tag. ``groups`` remembers groups already cut (most steps repeat most
    of them)."""
    pieces = []
    for element in elements:
        if depth == 0 or not element.startswith("<g") or element.endswith("/>"):
            pieces.append(element)
            continue
        cut = groups.get(element)
        if cut is None:
            head = element.index(">") + 1
            tail = element.rindex("</g>")
            inside = _cut(_siblings(element[head:tail]), depth - 1, groups)
            cut = [element[:head], *inside, element[tail:]]
            groups[element] = cut
        pieces.extend(cut)
    return pieces


def _split(picture: str, groups: dict[str, list[str]]) -> list[str]:
    """An SVG document cut where consecutive pictures tend to differ: its opening and closing
    tags and every element in it, groups (a seat's panel, a card in it) opened two levels
    down, so that a card moved by a ``transform`` keeps the same pieces."""
    opening = picture.index(">") + 1
    closing = picture.rindex("</svg>")
    inside = _cut(_siblings(picture[opening:closing]), 2, groups)
    return [picture[:opening], *inside, picture[closing:]]


def _delta(previous: list[int], frame: list[int]) -> list[list[Any]]:
    """``frame`` as replacements in ``previous``: ``[start, end, [pieces]]`` each, ascending.

    Consecutive steps differ in a few places (a card moves, a text changes), so a walk that
    resynchronises on the nearest common piece finds them in linear time."""
    out: list[list[Any]] = []
    i = j = 0
    while i < len(previous) and j < len(frame):
        if previous[i] == frame[j]:
            i += 1
            j += 1
            continue
        # The nearest pair (i + a, j + b) of equal pieces, smallest a + b first.
        ahead_old = {
            piece: k for k, piece in reversed(list(enumerate(previous[i : i + LOOKAHEAD])))
        }
        best: tuple[int, int] | None = None
        for b, piece in enumerate(frame[j : j + LOOKAHEAD]):
            a = ahead_old.get(piece)
            if a is not None and (best is None or a + b < best[0] + best[1]):
                best = (a, b)
            if best is not None and b >= best[0] + best[1]:
                break
        if best is None:
            break
        out.append([i, i + best[0], frame[j : j + best[1]]])
        i += best[0]
        j += best[1]
    if i < len(previous) or j < len(frame):
        out.append([i, len(previous), frame[j:]])
    return out


def frames_of(page: str, view: int = 0) -> list[str]:
    """The picture of every step of a viewer page, rebuilt from its pieces: of its first view,
    or of view ``view`` of a page that holds several (in the order of its switch)."""
    match = _FRAMES.search(page)
    if match is None:
        raise ValueError("not a viewer page: it has no frames")
    stored = json.loads(match.group(1))
    views = stored.get("views") or [stored]
    if not 0 <= view < len(views):
        raise ValueError(f"view {view} is out of range: the page has {len(views)}")
    pieces = stored["pieces"]
    source = stored if view == 0 else views[view]
    frames = [list(source["first"])]
    for delta in source["deltas"]:
        frame = list(frames[-1])
        for start, end, inserted in reversed(delta):
            frame[start:end] = inserted
        frames.append(frame)
    return ["".join(pieces[index] for index in frame) for frame in frames]


def _icon(shape: str) -> str:
    return (
        '<svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" fill="currentColor">'
        f"{shape}</svg>"
    )


# (id, tooltip, icon) of the stepping buttons; the counter sits between prev and next.
_BUTTONS = (
    (
        "first",
        "first step (Home)",
        '<rect x="2" y="3" width="2.2" height="10"/><path d="M14 3 L5 8 L14 13 Z"/>',
    ),
    ("prev", "previous step (left arrow)", '<path d="M12 3 L3 8 L12 13 Z"/>'),
    ("next", "next step (right arrow)", '<path d="M4 3 L13 8 L4 13 Z"/>'),
    (
        "last",
        "last step (End)",
        '<path d="M2 3 L11 8 L2 13 Z"/><rect x="11.8" y="3" width="2.2" height="10"/>',
    ),
)


def _buttons(last: int) -> str:
    out = []
    for name, tooltip, shape in _BUTTONS:
        if name == "next":
            out.append(f'<span id="counter">0 / {last}</span>')
        out.append(
            f'<button id="{name}" title="{tooltip}" aria-label="{tooltip}">{_icon(shape)}</button>'
        )
    return "\n".join(out)


_STYLE = """
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.4 "DejaVu Sans", Verdana, Arial, sans-serif; color: #2b2118;
  background: #efe8d8; }
header { padding: 8px 16px 2px; display: flex; flex-wrap: wrap; align-items: baseline;
  gap: 2px 14px; }
h1 { font-size: 18px; margin: 0; }
.meta { margin: 0; color: #665a4c; font-size: 13px; }
.switch { font-size: 13px; color: #665a4c; }
.switch select { font: inherit; margin-left: 4px; padding: 1px 4px; border-radius: 4px;
  border: 1px solid #a8987a; background: #fffaf0; }
main { display: flex; gap: 12px; padding: 6px 16px 12px; align-items: flex-start; }
#stage { flex: 1 1 auto; min-width: 0; }
#picture { background: #fbf7ee; border: 1px solid #d8ccb2; border-radius: 8px; padding: 6px; }
#picture svg { display: block; width: 100%; height: auto; max-height: calc(100vh - 130px); }
#controls { position: sticky; bottom: 0; z-index: 1; background: #efe8d8; padding: 6px 0 4px; }
#controls .row { display: flex; gap: 6px; align-items: center; }
#controls button { font-size: 14px; min-width: 42px; height: 30px; padding: 4px 10px;
  border-radius: 6px; border: 1px solid #a8987a; background: #fffaf0; cursor: pointer; }
#controls button:hover { background: #fff3c8; }
#controls button:disabled { opacity: 0.4; cursor: default; }
#counter { min-width: 92px; text-align: center; font-variant-numeric: tabular-nums; }
#slider { flex: 1 1 auto; min-width: 80px; }
#now { font-size: 13px; margin-top: 3px; min-height: 1.4em; white-space: nowrap; overflow: hidden;
  text-overflow: ellipsis; }
#now .who { font-weight: bold; }
aside { position: sticky; top: 8px; flex: 0 0 320px; background: #fbf7ee;
  border: 1px solid #d8ccb2; border-radius: 8px; max-height: calc(100vh - 70px);
  overflow-y: auto; }
aside h2 { font-size: 13px; margin: 0; padding: 8px 10px; color: #7a6e60; position: sticky;
  top: 0; background: #fbf7ee; border-bottom: 1px solid #e4dac4; }
#moves { list-style: none; margin: 0; padding: 4px 0; }
#moves li { display: flex; gap: 4px; padding: 2px 10px; cursor: pointer; overflow-wrap: anywhere; }
#moves li:hover { background: #f3ead6; }
#moves li.current { background: #1a6fc4; color: #fff; }
#moves .num { flex: 0 0 2.6em; color: #6f6354; }
#moves li.current .num { color: #fff; }
#moves .who { font-weight: bold; }
.keys { color: #665a4c; font-size: 12px; margin-left: 6px; }
/* Narrower than a picture beside a move list: the picture takes the whole width, as large as
   it reads well (the page scrolls, the controls stay in sight) and the move list goes below. */
@media (max-width: 1279px) {
  main { flex-direction: column; align-items: stretch; }
  aside { position: static; flex: none; width: 100%; max-height: 45vh; }
  #picture svg { max-height: none; }
  .keys { display: none; }
}
"""

_SCRIPT = """
(function () {
  "use strict";
  var stored = JSON.parse(document.getElementById("frames").textContent);
  var pieces = stored.pieces;
  var views = stored.views || [{}];
  var built = {};
  // Each step after the first is stored as replacements in the step before it.
  function framesOf(index) {
    if (built[index]) return built[index];
    var source = index === 0 ? stored : views[index];
    var frames = [source.first];
    source.deltas.forEach(function (delta) {
      var frame = frames[frames.length - 1].slice();
      for (var j = delta.length - 1; j >= 0; j--) {
        var edit = delta[j];
        Array.prototype.splice.apply(frame, [edit[0], edit[1] - edit[0]].concat(edit[2]));
      }
      frames.push(frame);
    });
    built[index] = frames;
    return frames;
  }
  var frames = framesOf(0);
  var last = frames.length - 1;
  var picture = document.getElementById("picture");
  var counter = document.getElementById("counter");
  var slider = document.getElementById("slider");
  var now = document.getElementById("now");
  var list = document.getElementById("moves");
  var items = list.querySelectorAll("li");
  var texts = Array.prototype.map.call(items, function (item) {
    var text = item.querySelector(".text");
    return text ? text.textContent : "";
  });
  var buttons = {
    first: document.getElementById("first"), prev: document.getElementById("prev"),
    next: document.getElementById("next"), last: document.getElementById("last"),
    play: document.getElementById("play")
  };
  var step = -1;
  var timer = null;

  function show(k) {
    k = Math.max(0, Math.min(last, k));
    if (k === step) return;
    if (step >= 0) items[step].classList.remove("current");
    step = k;
    picture.innerHTML = frames[k].map(function (piece) { return pieces[piece]; }).join("");
    items[k].classList.add("current");
    var top = items[k].offsetTop, bottom = top + items[k].offsetHeight;
    var box = list.parentElement;
    if (top < box.scrollTop + 32 || bottom > box.scrollTop + box.clientHeight) {
      box.scrollTop = top - box.clientHeight / 2;
    }
    counter.textContent = k + " / " + last;
    slider.value = String(k);
    // The move that led here, in words: the move list may be out of sight below the picture.
    now.textContent = "";
    if (k > 0) {
      var who = document.createElement("span");
      who.className = "who";
      who.textContent = items[k].querySelector(".who").textContent;
      now.appendChild(document.createTextNode(k + " "));
      now.appendChild(who);
      now.appendChild(document.createTextNode(" " + items[k].querySelector(".text").textContent));
    }
    buttons.first.disabled = buttons.prev.disabled = k === 0;
    buttons.next.disabled = buttons.last.disabled = k === last;
    document.body.setAttribute("data-step", String(k));
    try {
      history.replaceState(null, "", "#step=" + k);
    } catch (error) {
      // Some browsers refuse to touch the address of a local file; the step still shows.
    }
  }

  // Another seat's view: its pictures and how each move read to it, at the same step.
  var choice = document.getElementById("view");
  if (choice) {
    choice.addEventListener("change", function () {
      var index = Number(choice.value);
      frames = framesOf(index);
      var moves = index === 0 ? texts.slice(1) : views[index].moves;
      for (var k = 1; k < items.length; k++) {
        items[k].querySelector(".text").textContent = moves[k - 1];
      }
      document.getElementById("view-name").textContent = views[index].view;
      document.body.setAttribute("data-view", String(index));
      var at = step;
      step = -1;
      items[at].classList.remove("current");
      show(at);
    });
  }

  function stop() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    buttons.play.textContent = "play";
  }

  function toggle() {
    if (timer !== null) { stop(); return; }
    if (step === last) show(0);
    buttons.play.textContent = "pause";
    timer = setInterval(function () {
      if (step >= last) { stop(); return; }
      show(step + 1);
    }, 700);
  }

  buttons.first.addEventListener("click", function () { stop(); show(0); });
  buttons.prev.addEventListener("click", function () { stop(); show(step - 1); });
  buttons.next.addEventListener("click", function () { stop(); show(step + 1); });
  buttons.last.addEventListener("click", function () { stop(); show(last); });
  buttons.play.addEventListener("click", toggle);
  slider.addEventListener("input", function () { stop(); show(Number(slider.value)); });
  list.addEventListener("click", function (event) {
    var item = event.target.closest("li");
    if (item) { stop(); show(Number(item.getAttribute("data-step"))); }
  });
  document.addEventListener("keydown", function (event) {
    if (event.target === slider || event.target === choice) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var moves = { ArrowRight: step + 1, ArrowLeft: step - 1, Home: 0, End: last };
    if (event.key in moves) { stop(); show(moves[event.key]); event.preventDefault(); }
    else if (event.key === " ") { toggle(); event.preventDefault(); }
  });

  // #step=K opens step K; a negative K counts from the end (-1 the last), as state_at's does.
  function fromAddress() {
    var wanted = /^#step=(-?[0-9]+)$/.exec(location.hash);
    if (!wanted) return 0;
    var k = Number(wanted[1]);
    return k < 0 ? last + 1 + k : k;
  }
  window.addEventListener("hashchange", function () { stop(); show(fromAddress()); });
  document.body.setAttribute("data-view", "0");
  show(fromAddress());
})();
"""

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{style}</style>
</head>
<body>
<header>
<h1>{title}</h1>
<p class="meta">{variant} · <span id="view-name">{view}</span> · {summary}</p>
{switch}
</header>
<main>
<section id="stage">
<div id="picture" aria-live="polite"></div>
<nav id="controls">
<div class="row">
{buttons}
<button id="play" title="play or pause (space)">play</button>
<input id="slider" type="range" min="0" max="{last}" value="0" aria-label="step">
<span class="keys">&#x2190; &#x2192; Home End, Space plays</span>
</div>
<div id="now"></div>
</nav>
</section>
<aside>
<h2>Moves</h2>
<ol id="moves">{moves}</ol>
</aside>
</main>
<script id="frames" type="application/json">{frames}</script>
<script>{script}</script>
</body>
</html>
"""
