// A finished game, step by step, as a chosen seat saw it, with any position's moves analysed.
"use strict";

(function () {
  const {el, request, toast} = rivals;
  const id = rivals.fragment().get("id");
  let summary = null;
  let step = 0;
  let viewer = null;
  let log = [];
  let pending = 0;


  async function show(k) {
    step = Math.max(0, Math.min(summary.steps, k));
    const ticket = ++pending;
    const frame = await request("/api/review/frame", {id, step, seat: viewer});
    if (ticket !== pending) return; // a later step was asked for meanwhile
    const board = document.getElementById("board");
    board.innerHTML = frame.svg;
    const svg = board.querySelector("svg");
    if (svg) {
      const box = document.getElementById("board-box");
      const width = Number(svg.getAttribute("width"));
      const height = Number(svg.getAttribute("height"));
      const scale = Math.min((box.clientWidth - 18) / width, Math.max(0.5, (window.innerHeight - 60) / height));
      svg.setAttribute("width", String(Math.floor(width * scale)));
      svg.setAttribute("height", String(Math.floor(height * scale)));
    }
    document.getElementById("status").textContent = frame.status;
    document.getElementById("counter").textContent = `${step} / ${summary.steps}`;
    document.getElementById("slider").value = String(step);
    document.body.dataset.step = String(step);
    document.getElementById("first").disabled = document.getElementById("prev").disabled = step === 0;
    document.getElementById("next").disabled = document.getElementById("last").disabled = step === summary.steps;
    for (const item of document.querySelectorAll("#log li")) {
      item.classList.toggle("current", Number(item.dataset.step) === step);
    }
    const current = document.querySelector("#log li.current");
    if (current) current.scrollIntoView({block: "nearest"});
    document.getElementById("analyse").disabled = !summary.bots.length || frame.to_move < 0;
    document.getElementById("analysis").replaceChildren();
    try {
      history.replaceState(null, "", `#id=${id}&step=${step}`);
    } catch (error) {
      // the address stays as it was; the step still shows
    }
  }

  async function loadLog() {
    const answer = await request("/api/review/log", {id, seat: viewer});
    log = answer.entries;
    const items = [el("li", {class: "start", "data-step": 0, value: 0}, el("span", {class: "who"}, "start"))];
    for (const entry of log) {
      items.push(el("li", {"data-step": entry.n, value: entry.n, class: entry.player < 0 ? "chance" : ""},
        el("span", {class: "who"}, entry.who), ` ${entry.text}`));
    }
    const list = document.getElementById("log");
    list.replaceChildren(...items);
  }

  function viewerLabel(seat) {
    if (seat === null) return "spectators (public)";
    const name = summary.names ? ` (${summary.names[seat]})` : "";
    return `${summary.seats[seat]}${name}, seat ${seat}`;
  }

  function setUpViewers() {
    const select = document.getElementById("viewer");
    select.replaceChildren(...summary.viewers.map((seat) =>
      el("option", {value: seat === null ? "spectator" : seat}, viewerLabel(seat))));
    viewer = summary.viewers[0];
    select.value = viewer === null ? "spectator" : String(viewer);
    select.disabled = summary.viewers.length < 2;
    select.addEventListener("change", async () => {
      viewer = select.value === "spectator" ? null : Number(select.value);
      await loadLog();
      await show(step);
    });
  }

  function setUpBots() {
    const select = document.getElementById("bot");
    const settings = document.getElementById("bot-settings");
    if (!summary.bots.length) {
      document.getElementById("analysis-box").replaceChildren(el("p", {class: "small muted"},
        "The spectators' review of a game with hidden cards has no analysis: a position's moves show the mover's cards."));
      return;
    }
    select.replaceChildren(...summary.bots.map((bot) => el("option", {value: bot.name}, bot.kind === bot.name ? bot.name : `${bot.name} (${bot.kind})`)));
    const update = () => {
      const bot = summary.bots.find((entry) => entry.name === select.value);
      settings.value = rivals.settingsText(bot.settings);
    };
    select.addEventListener("change", update);
    update();
  }

  function bar(value) {
    // A value is a mean return, -1 (a loss) to 1 (a win), for the player to move.
    const share = Math.max(0, Math.min(1, (value + 1) / 2));
    return el("span", {class: "bar"}, el("span", {class: "fill", style: `width: ${Math.round(share * 100)}%`}));
  }

  async function analyse() {
    const button = document.getElementById("analyse");
    const box = document.getElementById("analysis");
    let params;
    try {
      params = rivals.parseSettings(document.getElementById("bot-settings").value);
    } catch (error) {
      toast(error.message, "error");
      return;
    }
    button.disabled = true;
    box.replaceChildren(el("p", {class: "small muted"}, "thinking…"));
    const asked = step;
    try {
      const answer = await request("/api/review/analyse", {id, step, bot: document.getElementById("bot").value, params});
      if (asked !== step) return;
      const solver = answer.moves.every((move) => move.visits === null);
      const head = el("tr", {}, el("th", {}, "move"), solver ? null : el("th", {class: "num"}, "visits"),
        el("th", {class: "num"}, solver ? "exact value" : "value"), el("th", {}, ""));
      const rows = answer.moves.map((move) => el("tr", {class: [move.best ? "best" : "", move.played ? "played" : ""].join(" ")},
        el("td", {}, move.text, move.played ? el("span", {class: "tag"}, " played") : null),
        solver ? null : el("td", {class: "num"}, move.visits === null ? "-" : String(move.visits)),
        el("td", {class: "num"}, move.value === null ? "-" : move.value.toFixed(3)),
        el("td", {}, move.value === null ? "" : bar(move.value))));
      const who = summary.seats[answer.player];
      box.replaceChildren(
        el("p", {class: "small muted"}, `${answer.bot} for ${who}, ${answer.seconds} s: ` +
          (solver ? "the exact value of each move under best play (the mover's return, -1 to 1)"
            : "how often the search tried each move, and the mean return for the mover (-1 to 1) of those tries")),
        el("table", {class: "analysis-table"}, el("thead", {}, head), el("tbody", {}, rows)));
    } catch (error) {
      box.replaceChildren(el("p", {class: "error-text"}, error.message));
    } finally {
      button.disabled = false;
    }
  }

  async function main() {
    if (!id) {
      document.getElementById("status").textContent = "this page needs a review's link (from the lobby or a finished game)";
      return;
    }
    try {
      summary = await request("/api/review/summary", {id});
    } catch (error) {
      document.getElementById("status").textContent = error.message;
      return;
    }
    document.title = `${summary.long_name}: review`;
    document.getElementById("game-name").textContent = `${summary.long_name} · review`;
    document.getElementById("summary").textContent = `· ${summary.params ? summary.params + " · " : ""}${summary.steps} moves`;
    document.getElementById("rules").href = `/rules/${summary.game}`;
    document.getElementById("result").textContent = summary.result;
    const slider = document.getElementById("slider");
    slider.max = String(summary.steps);
    slider.addEventListener("input", () => show(Number(slider.value)));
    setUpViewers();
    setUpBots();
    document.getElementById("first").addEventListener("click", () => show(0));
    document.getElementById("prev").addEventListener("click", () => show(step - 1));
    document.getElementById("next").addEventListener("click", () => show(step + 1));
    document.getElementById("last").addEventListener("click", () => show(summary.steps));
    document.getElementById("analyse").addEventListener("click", analyse);
    document.getElementById("log").addEventListener("click", (event) => {
      const item = event.target.closest("li");
      if (item) show(Number(item.dataset.step));
    });
    document.addEventListener("keydown", (event) => {
      if (event.target.tagName === "INPUT" || event.target.tagName === "SELECT") return;
      if (event.key === "ArrowLeft") show(step - 1);
      else if (event.key === "ArrowRight") show(step + 1);
      else if (event.key === "Home") show(0);
      else if (event.key === "End") show(summary.steps);
    });
    await loadLog();
    // The step the address names, else the end: a finished game is opened where it finished.
    const asked = rivals.fragment().get("step");
    const start = asked === null ? NaN : Number(asked);
    await show(Number.isInteger(start) && start >= 0 ? start : summary.steps);
  }

  main();
})();
