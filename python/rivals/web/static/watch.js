// A running arena or tournament, read from its replay log every few seconds.
"use strict";

(function () {
  const {el, request, toast} = rivals;
  const log = rivals.fragment().get("log");
  const EVERY_MS = 3000;

  function percent(value) {
    return value === null || value === undefined ? "-" : `${(100 * value).toFixed(1)}%`;
  }

  // A table whose columns are numbers but for those of `words` (their indices).
  function table(id, head, rows, words) {
    const kind = (k) => (words.includes(k) ? "" : "num");
    const node = document.getElementById(id);
    node.replaceChildren(el("thead", {}, el("tr", {}, head.map((cell, k) => el("th", {class: kind(k)}, cell)))),
      el("tbody", {}, rows.map((cells) => el("tr", {}, cells.map((cell, k) => el("td", {class: kind(k)}, cell))))));
  }

  function showArena(data) {
    const ranked = data.ranked;
    const head = ["bot", "games", "wins", "draws", "losses", "win rate (95% interval)", "mean return"];
    if (ranked) head.push("mean rank");
    table("standings", head, data.rows.map((row) => {
      const cells = [row.label, row.games, row.wins, row.draws, row.losses,
        `${percent(row.win_rate)} (${percent(row.low)}-${percent(row.high)})`,
        (row.mean_return >= 0 ? "+" : "") + row.mean_return.toFixed(3)];
      if (ranked) cells.push(row.mean_rank.toFixed(2));
      return cells;
    }), [0]);
    document.getElementById("versus").textContent = data.versus || "";
    document.getElementById("pairings").hidden = true;
    document.getElementById("pairings-title").hidden = true;
    return `an arena · ${data.games} games${data.paired ? " in duplicate pairs" : ""} · mean length ${data.mean_length.toFixed(1)} actions`;
  }

  function showTournament(data) {
    table("standings", ["rank", "bot", "Elo", "95% interval", "games", "score"],
      data.rows.map((row) => [row.rank, row.label, row.elo, row.interval, row.games, percent(row.score)]), [1]);
    table("pairings", ["pairing", "games", "W-D-L", "Elo (95% interval)"],
      data.pairings.map((row) => [`${row.first} vs ${row.second}`, row.games, row.wdl, row.elo]), [0]);
    document.getElementById("versus").textContent = `Elo relative to ${data.rows.length ? data.rows.find((row) => row.interval === "anchor").label : "the first bot"}, by maximum likelihood`;
    document.getElementById("pairings").hidden = false;
    document.getElementById("pairings-title").hidden = false;
    return `a tournament · ${data.pairings.length} pairings so far · ${data.games} games`;
  }

  function showRecent(games) {
    const items = games.map((game) => {
      const best = Math.max(...game.returns);
      const parts = game.labels.map((label, seat) => el(game.returns[seat] === best && best > Math.min(...game.returns) ? "b" : "span", {},
        `${label} ${game.returns[seat] > 0 ? "+" : ""}${game.returns[seat]}`));
      const joined = [];
      parts.forEach((part, k) => { if (k) joined.push(" · "); joined.push(part); });
      return el("li", {"data-line": game.line, title: "open in the review", onclick: () => open(game.line)},
        el("span", {class: "muted"}, `game ${game.index} · ${game.moves} actions: `), joined);
    });
    document.getElementById("recent").replaceChildren(...items);
  }

  async function open(line) {
    try {
      const review = await request(`/api/watch/${log}/review`, {line});
      window.open(`/review#id=${review.id}`, "_blank", "noopener");
    } catch (error) {
      toast(error.message, "error");
    }
  }

  async function refresh() {
    let data;
    try {
      data = await request(`/api/watch/${log}`);
    } catch (error) {
      document.getElementById("problem").textContent = error.message;
      return;
    }
    const problem = document.getElementById("problem");
    problem.textContent = data.error || "";
    if (data.state) {
      document.getElementById("heading").textContent = data.state;
      return;
    }
    if (data.error) return;
    document.title = `${data.long_name}: watching`;
    document.getElementById("title").textContent = `watching ${data.long_name}`;
    document.getElementById("heading").textContent = `${data.long_name}${data.params ? " · " + data.params : ""}`;
    document.getElementById("about").textContent = data.kind === "arena" ? showArena(data) : showTournament(data);
    document.getElementById("updated").textContent = `read at ${data.updated}`;
    document.body.dataset.games = String(data.games);
    showRecent(data.recent);
  }

  async function main() {
    if (!log) {
      document.getElementById("heading").textContent = "this page needs a log's link (from the lobby)";
      return;
    }
    await refresh();
    setInterval(refresh, EVERY_MS);
  }

  main();
})();
