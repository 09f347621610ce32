// A table: the board as the server draws it for this seat, its legal moves to click, the move
// list, and the controls. The server decides everything; this page shows what it is sent.
"use strict";

(function () {
  const {el, toast} = rivals;
  const SVG = "http://www.w3.org/2000/svg";
  const params = rivals.fragment();
  const token = params.get("seat") || params.get("watch");
  const state = {
    seat: null,        // this page's seat, or null for a spectator
    hidden: false,     // whether the game hides cards
    view: null,        // the last view
    log: [],           // every move told so far
    labels: new Map(), // action -> its label in the menu
    spectate: null,
    closed: false,
    retries: 0,
  };
  let socket = null;

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(`${scheme}${location.host}/ws`);
    socket.addEventListener("open", () => {
      state.retries = 0;
      send({type: "hello", token});
    });
    socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
    socket.addEventListener("close", () => {
      if (state.closed) return;
      if (state.retries >= 5) {
        setStatus("disconnected: reload the page to try again");
        return;
      }
      state.retries += 1;
      setStatus("connection lost: reconnecting…");
      state.log = [];
      setTimeout(connect, 1000 * state.retries);
    });
  }

  function receive(message) {
    switch (message.type) {
      case "welcome": return welcome(message);
      case "view": return show(message);
      case "error": return toast(message.message, "error");
      case "notice": return toast(message.message);
      case "hint": return hint(message);
      case "saved": return saved(message);
      case "rematch": return rematch(message);
      case "review": return review(message);
      case "closed":
        state.closed = true;
        setStatus(message.message);
        toast(message.message, "error");
        return undefined;
      default: return undefined;
    }
  }

  function welcome(message) {
    state.seat = message.seat;
    state.hidden = message.hidden;
    state.spectate = message.spectate;
    document.title = `${message.long_name}: rivals`;
    document.getElementById("game-name").textContent = `${message.long_name}${message.params ? " · " + message.params : ""}`;
    document.getElementById("rules").href = `/rules/${message.game}`;
    document.getElementById("rules").textContent = "rules";
    document.body.classList.toggle("spectator", message.seat === null);
    state.log = [];
    document.getElementById("log").replaceChildren();
  }

  function setStatus(text) {
    document.getElementById("status").textContent = text;
  }

  function seatName(seat) {
    const info = state.view.seats[seat];
    if (seat === state.seat) return `${info.label} (you)`;
    return `${info.label} (${info.name})`;
  }

  function show(view) {
    state.view = view;
    document.body.dataset.step = String(view.step);
    document.body.dataset.over = String(view.over);
    const mine = Boolean(view.menu);
    document.body.classList.toggle("my-turn", mine);
    const label = state.seat === null ? "" : view.seats[state.seat].label;
    document.getElementById("you").textContent = state.seat === null ? "· watching"
      : label === `seat ${state.seat}` ? `· you are ${label}` : `· you are ${label} (seat ${state.seat})`;
    let status = view.status;
    if (mine) status = `Your move, ${view.seats[state.seat].label}`;
    else if (view.over) status = "Game over"; // the result below says how
    setStatus(status);
    updateLog(view.log);
    drawMenu(view);
    drawBoard(view);
    drawSeats(view);
    drawResult(view);
    drawControls(view);
  }

  // ------------------------------------------------------------------------------------------
  // The board and its places to click

  function drawBoard(view) {
    const board = document.getElementById("board");
    hidePopup();
    board.innerHTML = view.svg;
    const svg = board.querySelector("svg");
    if (!svg) return;
    fit(svg);
    for (const target of view.targets) {
      for (const spot of spots(svg, target)) {
        if (target.quiet) spot.classList.add("quiet");
        spot.addEventListener("click", (event) => choose(target.actions, event));
        spot.dataset.actions = target.actions.join(" ");
        const names = target.actions.map((action) => state.labels.get(action) || String(action));
        const title = document.createElementNS(SVG, "title");
        title.textContent = names.join(" · ");
        spot.append(title);
      }
    }
  }

  // The board as large as the window lets it be whole, unless that would make its text too
  // small to read: then as wide as its box, scrolled. The button beside the rules switches.
  const READABLE = 0.72;
  let zoom = null; // null: decide by size; "whole" or "wide": the person's choice

  function fit(svg) {
    const box = document.getElementById("board-box");
    const width = Number(svg.getAttribute("width")) || svg.viewBox.baseVal.width;
    const height = Number(svg.getAttribute("height")) || svg.viewBox.baseVal.height;
    svg.dataset.width = String(width);
    svg.dataset.height = String(height);
    // Beside the panel the board has the window's height; above the move list (a narrow
    // window) it has what is left below the moves.
    const stacked = window.matchMedia("(max-width: 1300px)").matches;
    const top = stacked ? document.getElementById("actions").getBoundingClientRect().height : 0;
    const room = {width: box.clientWidth - 18,
      height: (stacked ? window.innerHeight - top - 40 : box.clientHeight) - 18};
    const whole = Math.min(room.width / width, room.height / height);
    const mode = zoom || (whole >= READABLE || room.width / width <= whole * 1.05 ? "whole" : "wide");
    const scale = mode === "whole" ? whole : room.width / width;
    svg.setAttribute("width", String(Math.floor(width * scale)));
    svg.setAttribute("height", String(Math.floor(height * scale)));
    const button = document.getElementById("zoom");
    button.hidden = Math.abs(whole - room.width / width) < 0.05;
    button.textContent = mode === "whole" ? "larger board" : "whole board";
    button.dataset.mode = mode;
  }

  function refit() {
    const svg = document.querySelector("#board svg");
    if (!svg) return;
    svg.setAttribute("width", svg.dataset.width);
    svg.setAttribute("height", svg.dataset.height);
    fit(svg);
  }

  function overlay(parent, tag, attributes) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
    node.setAttribute("class", "hotspot");
    parent.append(node);
    return node;
  }

  // The clickable spots of one target: a shape over the picture, or a frame over each element
  // the selector finds.
  function spots(svg, target) {
    if (target.circle) {
      const [cx, cy, r] = target.circle;
      return [overlay(svg, "circle", {cx, cy, r})];
    }
    if (target.rect) {
      const [x, y, width, height] = target.rect;
      return [overlay(svg, "rect", {x, y, width, height, rx: 6})];
    }
    let found = [];
    try {
      found = Array.from(svg.querySelectorAll(target.select));
    } catch (error) {
      return [];
    }
    if (target.text !== undefined) found = found.filter((node) => node.textContent.trim() === target.text);
    return found.map((node) => {
      const box = node.getBBox();
      const pad = 3;
      const frame = {x: box.x - pad, y: box.y - pad, width: box.width + 2 * pad, height: box.height + 2 * pad, rx: 6};
      if (node.tagName.toLowerCase() === "g") return overlay(node, "rect", frame);
      // A text or a shape: a frame beside it, in the same coordinates.
      const spot = overlay(node.parentNode, "rect", frame);
      return spot;
    });
  }

  function choose(actions, event) {
    if (actions.length === 1) {
      play(actions[0]);
      return;
    }
    const popup = document.getElementById("popup");
    const box = document.getElementById("board-box").getBoundingClientRect();
    popup.replaceChildren(...actions.map((action) =>
      el("button", {class: "move", "data-action": action, onclick: () => play(action)}, state.labels.get(action) || String(action))),
      el("button", {class: "cancel", onclick: hidePopup}, "cancel"));
    popup.style.left = `${Math.max(0, event.clientX - box.left + 8)}px`;
    popup.style.top = `${Math.max(0, event.clientY - box.top + 8)}px`;
    popup.hidden = false;
    event.stopPropagation();
  }

  function hidePopup() {
    document.getElementById("popup").hidden = true;
  }

  function play(action) {
    hidePopup();
    send({type: "move", action, step: state.view.step});
  }

  // ------------------------------------------------------------------------------------------
  // The move menu

  function drawMenu(view) {
    const box = document.getElementById("moves-box");
    const menu = document.getElementById("menu");
    state.labels.clear();
    if (!view.menu) {
      box.hidden = true;
      menu.replaceChildren();
      return;
    }
    box.hidden = false;
    const groups = view.menu.map((group) => {
      const buttons = group.entries.map((entry) => {
        state.labels.set(entry.action, entry.label);
        const button = el("button", {class: "move", "data-action": entry.action,
          onclick: () => play(entry.action)},
          entry.number !== undefined ? el("span", {class: "num"}, entry.number) : null, entry.label);
        button.addEventListener("mouseenter", () => mark(entry.action, true));
        button.addEventListener("mouseleave", () => mark(entry.action, false));
        return button;
      });
      const title = el("div", {class: "group-title"}, group.title);
      const note = group.note ? el("div", {class: "small muted"}, group.note) : null;
      if (buttons.length > 12) {
        return el("details", {class: "group"}, el("summary", {}, `${group.title} (${buttons.length})`), note,
          el("div", {class: "buttons"}, buttons));
      }
      return el("div", {class: "group"}, title, note, el("div", {class: "buttons"}, buttons));
    });
    menu.replaceChildren(...groups);
  }

  function mark(action, on) {
    for (const spot of document.querySelectorAll("#board .hotspot")) {
      if (spot.dataset.actions.split(" ").includes(String(action))) spot.classList.toggle("hover", on);
    }
  }

  // ------------------------------------------------------------------------------------------
  // Seats, the result and the move list

  function lastMoves() {
    const last = new Map();
    for (const entry of state.log) if (entry.player >= 0) last.set(entry.player, entry);
    return last;
  }

  function drawSeats(view) {
    const last = lastMoves();
    const items = view.seats.map((info) => {
      const move = last.get(info.seat);
      const classes = ["seat"];
      if (view.to_move === info.seat && !view.over) classes.push("to-move");
      if (info.seat === state.seat) classes.push("mine");
      const who = info.seat === state.seat ? "you" : info.name;
      return el("li", {class: classes.join(" "), "data-seat": info.seat, title: info.settings},
        el("span", {class: "seat-head"},
          el("b", {}, info.label), ` ${who}`,
          info.person ? el("span", {class: `dot ${info.connected ? "on" : "off"}`,
            title: info.connected ? "connected" : "not connected"}) : null,
          el("span", {class: "score"}, formatScore(view.scores[info.seat]))),
        el("span", {class: "last-move small"}, move ? `last: ${move.text}` : "no move yet"));
    });
    document.getElementById("seats").replaceChildren(...items);
  }

  function formatScore(score) {
    return Number.isInteger(score) ? String(score) : score.toFixed(1);
  }

  function drawResult(view) {
    const box = document.getElementById("result");
    if (!view.result) {
      box.hidden = true;
      return;
    }
    const best = Math.max(...view.result.returns);
    const rows = view.result.scores.map((entry) => el("tr", {class: view.result.returns[entry.seat] === best && best > Math.min(...view.result.returns) ? "winner" : ""},
      el("td", {}, entry.label), el("td", {}, entry.seat === state.seat ? "you" : entry.name),
      el("td", {class: "num"}, formatScore(entry.score))));
    box.replaceChildren(el("div", {class: "result-text"}, view.result.text),
      el("table", {class: "scores"}, el("tbody", {}, rows)));
    box.hidden = false;
  }

  function updateLog(log) {
    state.log.length = Math.min(state.log.length, log.from);
    state.log.push(...log.entries);
    const list = document.getElementById("log");
    const items = [];
    let chance = [];
    const flush = () => {
      if (!chance.length) return;
      items.push(el("li", {class: "chance", value: chance[0].n}, el("span", {class: "who"}, "chance"), ` ${chance.map((entry) => entry.text).join(", ")}`));
      chance = [];
    };
    for (const entry of state.log) {
      if (entry.player < 0) {
        chance.push(entry);
        continue;
      }
      flush();
      const mine = entry.player === state.seat;
      items.push(el("li", {value: entry.n, class: mine ? "mine" : "", "data-player": entry.player},
        el("span", {class: "who"}, entry.who), ` ${entry.text}`));
    }
    flush();
    list.replaceChildren(...items);
    list.scrollTop = list.scrollHeight;
  }

  function drawControls(view) {
    const seat = state.seat !== null;
    const byId = (id) => document.getElementById(id);
    byId("hint").disabled = !view.menu;
    byId("undo").disabled = !seat || view.over;
    byId("resign").disabled = !seat || view.over;
    byId("save").disabled = !seat;
    byId("rematch").hidden = !(seat && view.over);
    byId("review").hidden = !view.over;
    for (const id of ["hint", "undo", "resign"]) byId(id).hidden = !seat || view.over;
    byId("save").hidden = !seat;
    const note = byId("save-note");
    note.hidden = !(seat && state.hidden);
    note.textContent = view.over
      ? "A saved game holds every hidden card."
      : "A saved game holds every hidden card, the others' too (and ends undo).";
  }

  // ------------------------------------------------------------------------------------------
  // Answers to the controls

  function hint(message) {
    if (!state.view || message.step !== state.view.step) return;
    toast(`hint: ${message.bot} would play ${state.labels.get(message.action) || message.text}`);
    for (const button of document.querySelectorAll("#menu button.move")) {
      button.classList.toggle("hinted", Number(button.dataset.action) === message.action);
    }
    mark(message.action, true);
  }

  function saved(message) {
    rivals.download(message.name, message.replay);
    toast(message.hidden ? "saved: the file holds every hidden card" : "saved");
  }

  function rematch(message) {
    const next = message.seat ? `#seat=${message.seat}` : `#watch=${message.spectate}`;
    const link = el("a", {href: `/play${next}`}, "go to the rematch");
    link.addEventListener("click", () => setTimeout(() => location.reload(), 0));
    const item = toast("", "error");
    item.replaceChildren("A rematch is ready: ", link);
  }

  function review(message) {
    const link = el("a", {href: `/review#id=${message.id}`, target: "_blank", rel: "noopener"}, "open the review");
    const item = toast("", "error");
    item.replaceChildren("The review is ready: ", link);
  }

  function setup() {
    if (!token) {
      setStatus("this page needs a game's link (from the lobby)");
      return;
    }
    document.getElementById("typed").addEventListener("submit", (event) => {
      event.preventDefault();
      const input = document.getElementById("typed-move");
      const text = input.value.trim();
      if (!text) return;
      send({type: "move", text, step: state.view ? state.view.step : null});
      input.value = "";
    });
    document.getElementById("hint").addEventListener("click", () => send({type: "hint"}));
    document.getElementById("undo").addEventListener("click", () => send({type: "undo"}));
    document.getElementById("resign").addEventListener("click", () => {
      if (window.confirm("Resign? The game ends here for everyone at the table.")) send({type: "resign"});
    });
    document.getElementById("save").addEventListener("click", () => {
      const warn = state.hidden && state.view && !state.view.over;
      if (warn && !window.confirm("The saved file holds every hidden card, the others' hands too. Opening it shows them, and undo ends here. Save?")) return;
      send({type: "save"});
    });
    document.getElementById("rematch").addEventListener("click", () => send({type: "rematch"}));
    document.getElementById("review").addEventListener("click", () => send({type: "review"}));
    document.getElementById("copy-watch").addEventListener("click", (event) => {
      if (state.spectate) rivals.copy(rivals.link(`/play#watch=${state.spectate}`), event.target);
    });
    document.addEventListener("click", (event) => {
      const popup = document.getElementById("popup");
      if (!popup.hidden && !popup.contains(event.target)) hidePopup();
    });
    window.addEventListener("hashchange", () => location.reload());
    window.addEventListener("resize", refit);
    document.getElementById("zoom").addEventListener("click", (event) => {
      zoom = event.target.dataset.mode === "whole" ? "wide" : "whole";
      refit();
    });
    connect();
  }

  setup();
})();
