// The lobby: choose a game, its parameters and who holds each seat; start it or resume one.
"use strict";

(function () {
  const {el, request, toast} = rivals;
  const UPLOAD_LIMIT = 8 * 1024 * 1024;
  let catalog = null;
  let game = null;          // the chosen game's entry of the catalog
  let players = 0;
  let resume = null;        // {replay, index, summary} when resuming a saved game
  const seatChoices = [];   // per seat: {choice, settings}

  function info(name) {
    return catalog.games.find((entry) => entry.name === name);
  }

  function bot(name) {
    return game.bots.find((entry) => entry.name === name);
  }

  function showGames() {
    const box = document.getElementById("games");
    box.replaceChildren(...catalog.games.map((entry) => {
      const input = el("input", {type: "radio", name: "game", value: entry.name,
        onchange: () => chooseGame(entry.name)});
      return el("label", {class: "game-choice", "data-game": entry.name}, input,
        el("span", {class: "game-name"}, entry.long_name),
        el("span", {class: "game-about"}, entry.description),
        el("span", {class: "game-facts"},
          `${entry.player_counts.join(" or ")} players · `,
          entry.information === "imperfect" ? "hidden cards" : "nothing hidden"));
    }));
  }

  function chooseGame(name, count) {
    game = info(name);
    for (const input of document.querySelectorAll("input[name=game]")) input.checked = input.value === name;
    for (const label of document.querySelectorAll(".game-choice")) {
      label.classList.toggle("chosen", label.dataset.game === name);
    }
    document.getElementById("rules-link").href = `/rules/${name}`;
    players = count || game.default_players;
    seatChoices.length = 0;
    showParams();
    showSeats();
  }

  function showParams() {
    const box = document.getElementById("params");
    const rows = [];
    if (resume) {
      box.replaceChildren(el("p", {}, resume.summary.params || "default parameters"));
      return;
    }
    for (const [key, value] of Object.entries(game.params)) {
      let input;
      if (key === "players") {
        input = el("select", {id: "param-players", "data-param": key,
          onchange: (event) => { players = Number(event.target.value); showSeats(); }},
          game.player_counts.map((count) => el("option", {value: count, selected: count === players}, count)));
      } else {
        input = el("input", {type: "text", "data-param": key, value: JSON.stringify(value),
          spellcheck: "false"});
      }
      const hint = game.data_params[key]
        ? el("span", {class: "small muted"}, ` null or a shipped name: ${game.data_params[key].join(", ")}`)
        : null;
      rows.push(el("label", {class: "param"}, el("span", {class: "param-name"}, key), input, hint));
    }
    box.replaceChildren(...rows);
  }

  function labels() {
    return resume ? resume.summary.seat_labels : game.seat_labels[String(players)];
  }

  function showSeats() {
    const box = document.getElementById("seats");
    const names = labels();
    while (seatChoices.length < names.length) {
      seatChoices.push(seatChoices.length === 0
        ? {choice: "person", settings: ""}
        : {choice: game.default_bot, settings: ""});
    }
    seatChoices.length = names.length;
    box.replaceChildren(...names.map((label, seat) => seatRow(label, seat)));
  }

  function seatRow(label, seat) {
    const current = seatChoices[seat];
    const presets = game.bots.filter((entry) => entry.description);
    const bots = game.bots.filter((entry) => !entry.description);
    const select = el("select", {"aria-label": `who plays ${label}`, "data-seat": seat},
      el("option", {value: "person", selected: current.choice === "person"}, "a person"),
      el("optgroup", {label: "presets"}, presets.map((entry) =>
        el("option", {value: entry.name, selected: current.choice === entry.name}, `${entry.name} (${entry.plays})`))),
      el("optgroup", {label: "bots"}, bots.map((entry) =>
        el("option", {value: entry.name, selected: current.choice === entry.name}, entry.name))));
    const settings = el("input", {type: "text", class: "settings", spellcheck: "false",
      "aria-label": `settings of ${label}'s bot`, placeholder: "KEY=VALUE ...", value: current.settings});
    const plays = el("div", {class: "plays small"});
    const row = el("div", {class: "seat-row", "data-seat": seat},
      el("span", {class: "seat-label"}, label, label === `seat ${seat}` ? null : el("span", {class: "muted"}, ` seat ${seat}`)),
      select, settings, plays);
    function update() {
      current.choice = select.value;
      if (select.value === "person") {
        settings.hidden = true;
        plays.replaceChildren("plays from their own link");
        return;
      }
      settings.hidden = false;
      const entry = bot(select.value);
      if (current.bot !== select.value) {
        settings.value = rivals.settingsText(entry.settings);
        current.bot = select.value;
      }
      current.settings = settings.value;
      let given = {};
      try {
        given = rivals.parseSettings(settings.value);
        settings.classList.remove("invalid");
      } catch (error) {
        settings.classList.add("invalid");
      }
      const full = Object.assign({}, entry.params, given);
      const parts = [el("span", {}, `plays ${entry.plays} ${rivals.settingsText(full)}`)];
      if (entry.description) parts.push(el("div", {class: "muted"}, entry.description));
      if (game.information === "imperfect" && !entry.fair) {
        parts.push(el("div", {class: "warn"}, `${entry.plays} searches the true state: it sees every hidden card`));
      }
      plays.replaceChildren(...parts);
    }
    select.addEventListener("change", update);
    settings.addEventListener("input", update);
    update();
    return row;
  }

  function collect() {
    const seats = seatChoices.map((entry, seat) => {
      if (entry.choice === "person") return {person: true};
      try {
        return {bot: entry.choice, params: rivals.parseSettings(entry.settings || "")};
      } catch (error) {
        throw new Error(`${labels()[seat]}: ${error.message}`);
      }
    });
    if (resume) return {replay: resume.replay, index: resume.index, seats};
    const params = {};
    for (const input of document.querySelectorAll("[data-param]")) {
      const key = input.dataset.param;
      const text = input.value.trim();
      if (key === "players") params[key] = Number(text);
      else {
        try {
          params[key] = JSON.parse(text);
        } catch (error) {
          params[key] = text;
        }
      }
    }
    return {game: game.name, params, seats};
  }

  async function start() {
    const error = document.getElementById("start-error");
    error.textContent = "";
    let body;
    try {
      body = collect();
    } catch (problem) {
      error.textContent = problem.message;
      return;
    }
    const button = document.getElementById("start");
    button.disabled = true;
    try {
      const table = await request("/api/tables", body);
      const people = table.seats.filter((seat) => seat.token);
      if (people.length === 1) {
        location.href = `/play#seat=${people[0].token}`;
        return;
      }
      showLinks(table);
    } catch (problem) {
      error.textContent = problem.message;
    } finally {
      button.disabled = false;
    }
  }

  function showLinks(table) {
    const list = document.getElementById("link-list");
    const items = table.seats.filter((seat) => seat.token).map((seat) => {
      const link = rivals.link(`/play#seat=${seat.token}`);
      const copy = el("button", {class: "small-button"}, "copy");
      copy.addEventListener("click", () => rivals.copy(link, copy));
      const name = seat.label === `seat ${seat.seat}` ? seat.label : `${seat.label} (seat ${seat.seat})`;
      return el("li", {}, el("span", {class: "seat-label"}, name),
        el("a", {href: link, class: "play-link"}, "play here"), copy);
    });
    const watch = rivals.link(`/play#watch=${table.spectate}`);
    const copyWatch = el("button", {class: "small-button"}, "copy");
    copyWatch.addEventListener("click", () => rivals.copy(watch, copyWatch));
    items.push(el("li", {}, el("span", {class: "seat-label"}, "spectators"),
      el("a", {href: watch}, "watch here"), copyWatch));
    list.replaceChildren(...items);
    document.getElementById("links").hidden = false;
    document.getElementById("links").scrollIntoView({behavior: "smooth"});
  }

  // The replay file chosen in `event`'s input, read and summarised by the server, and when it
  // holds several games the one the person names (nothing happens if they cancel), handed to
  // `use(text, index, summary)`. A problem shows in the element `errorId` and clears the choice.
  async function withChosenReplay(event, errorId, use) {
    const file = event.target.files[0];
    const error = document.getElementById(errorId);
    error.textContent = "";
    if (!file) return;
    try {
      const text = await rivals.readFile(file, UPLOAD_LIMIT);
      const summary = await request("/api/replays", {replay: text});
      let index = null;
      if (summary.games > 1) {
        const answer = window.prompt(`${file.name} holds ${summary.games} games: which one (0 to ${summary.games - 1})?`, "0");
        if (answer === null) return;
        index = Number(answer);
      }
      await use(text, index, summary);
    } catch (problem) {
      error.textContent = problem.message;
      event.target.value = "";
    }
  }

  function chooseResume(event) {
    return withChosenReplay(event, "resume-error", async (text, index, whole) => {
      const summary = index === null ? whole : await request("/api/replays", {replay: text, index});
      if (summary.terminal) {
        throw new Error("this game is over: there is nothing to resume");
      }
      resume = {replay: text, index, summary};
      chooseGame(summary.game, summary.players);
      document.getElementById("resume-summary").textContent =
        `Resuming ${summary.long_name} after ${summary.steps} moves (${summary.params}). ` +
        "The file holds every hidden card: whoever opened it has seen them.";
      document.getElementById("resume-box").hidden = false;
      document.getElementById("games").hidden = true;
    });
  }

  function showWatched(logs) {
    document.getElementById("watch-box").hidden = !logs.length;
    document.getElementById("watch-list").replaceChildren(...logs.map((log) =>
      el("li", {}, el("a", {href: `/watch#log=${log.number}`}, log.name))));
  }

  function chooseReview(event) {
    return withChosenReplay(event, "review-error", async (text, index) => {
      const review = await request("/api/reviews", {replay: text, index});
      location.href = `/review#id=${review.id}`;
    });
  }

  function cancelResume() {
    resume = null;
    document.getElementById("resume-box").hidden = true;
    document.getElementById("games").hidden = false;
    document.getElementById("resume-file").value = "";
    chooseGame(game.name);
  }

  async function main() {
    try {
      catalog = await request("/api/catalog");
    } catch (error) {
      toast(`cannot reach the server: ${error.message}`, "error");
      return;
    }
    showGames();
    showWatched(await request("/api/watch"));
    chooseGame(catalog.games.some((entry) => entry.name === "rosenkoenig") ? "rosenkoenig" : catalog.games[0].name);
    document.getElementById("start").addEventListener("click", start);
    document.getElementById("resume-file").addEventListener("change", chooseResume);
    document.getElementById("review-file").addEventListener("change", chooseReview);
    document.getElementById("resume-cancel").addEventListener("click", cancelResume);
  }

  main();
})();
