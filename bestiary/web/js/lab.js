// The Lab page: start runs in the background, watch their progress, cancel
// one, open a report, download the run file, compare two finished runs.
// Tune a card (the tuner of `bestiary tune`: a field's value that brings a
// metric to its target) and an A/B test (`bestiary ab`: two card files on
// common seeds until the change is known) go through the same list: each is a
// row with its progress and cancel, and once done its result (the curve and
// the value found, or the decision) opens in the report frame.
// A run is shown by the name the designer gave it, else by what it plays
// (game, cards, seats, games, start time); its id is in the row's tooltip.
// A report or a comparison takes seconds to make: the status line says so
// (role=status) and the frame is aria-busy until it has loaded.
// The lab is the server operator's: off unless they turn it on, and then
// behind their token. The page asks for the token when the server says one is
// needed and signs in with it once (a cookie, so reports and downloads, which
// open as frames and links, are let through too).
import { getJSON, h, postJSON } from "./api.js";
import { lang, ready, t, tn } from "./i18n.js";

const $ = (id) => document.getElementById(id);
let games = [];
let polling = null;

// A run's status in the page's language (the server keeps the English word).
function statusWord(status) {
  const words = {
    queued: t("queued"), running: t("running"), done: t("done"), failed: t("failed"), cancelled: t("cancelled"),
  };
  return words[status] || status;
}

// The server's error messages come back in the page's language.
function withLang(url) {
  return `${url}${url.includes("?") ? "&" : "?"}lang=${encodeURIComponent(lang())}`;
}

function currentGame() {
  return games.find((g) => g.id === $("game").value);
}

function defaultSeats(g) {
  const bot = g.agents.includes("heuristic") ? "heuristic" : g.agents[0];
  return Array(g.default_players).fill(bot).join(",");
}

function fillGame() {
  const g = currentGame();
  if (!g) return;
  $("variant").replaceChildren(...g.variants.map((v) => h("option", { value: v }, t(v))));
  $("seats").value = defaultSeats(g);
}

function seatList(id) {
  return $(id).value.split(",").map((s) => s.trim()).filter(Boolean);
}

// The tune form: the chosen card file's fields and the game's metrics come
// from the server (it reads them from the file and from a few games).
let tuneChoicesAsked = 0;
async function fillTuneChoices() {
  const asked = ++tuneChoicesAsked;
  const cards = $("tune-cards").value;
  const field = $("tune-field");
  $("tune-error").textContent = "";
  if (!cards) {
    field.replaceChildren(h("option", { value: "" }, t("no TOML card file in the lab folder")));
    // Say how one gets there: the page never shows the server's folders.
    $("tune-error").textContent = t("The tuner edits a TOML card file of the lab folder. The server's operator exports one with bestiary cards GAME --export NAME.toml into the lab's cards folder; reload this page once it is there.");
    return;
  }
  const players = Math.max(1, seatList("tune-seats").length);
  const url = `/api/lab/tune/choices?game=${encodeURIComponent($("tune-game").value)}`
    + `&cards=${encodeURIComponent(cards)}&players=${players}`;
  try {
    const { fields, metrics } = await getJSON(withLang(url));
    if (asked !== tuneChoicesAsked) return; // a newer choice is on its way
    const was = field.value;
    field.replaceChildren(...fields.map((f) => h("option", { value: f }, f)));
    if (fields.includes(was)) field.value = was;
    $("tune-metrics").replaceChildren(...metrics.map((m) => h("option", { value: m })));
  } catch (e) {
    $("tune-error").textContent = e.message;
  }
}

function fillTuneGame() {
  const g = games.find((x) => x.id === $("tune-game").value);
  if (g) $("tune-seats").value = defaultSeats(g);
  return fillTuneChoices();
}

// The A/B test follows a share in [0, 1]: a seat's wins, decisive or drawn games.
function fillAbGame() {
  const g = games.find((x) => x.id === $("ab-game").value);
  if (!g) return;
  $("ab-seats").value = defaultSeats(g);
  fillAbMetrics();
}

function fillAbMetrics() {
  const seats = Math.max(1, seatList("ab-seats").length);
  const was = $("ab-metric").value;
  const options = [];
  for (let s = 0; s < seats; s++) {
    options.push(h("option", { value: `seat${s}_win` }, t("seat {seat} wins", { seat: s })));
  }
  options.push(h("option", { value: "decisive" }, t("decisive games (one side wins)")));
  options.push(h("option", { value: "drawish" }, t("drawn games (tie or no winner)")));
  $("ab-metric").replaceChildren(...options);
  if ([...$("ab-metric").options].some((o) => o.value === was)) $("ab-metric").value = was;
}

async function startTune(ev) {
  ev.preventDefault();
  $("tune-error").textContent = "";
  try {
    const body = {
      game: $("tune-game").value,
      seats: seatList("tune-seats"),
      cards: $("tune-cards").value,
      field: $("tune-field").value,
      range: $("tune-range").value.trim(),
      target: `${$("tune-metric").value.trim()}=${$("tune-target").value.trim()}`,
      games_per_step: Number($("tune-games").value),
      seed: Number($("tune-seed").value),
      name: $("tune-name").value.trim(),
    };
    await postJSON(withLang("/api/lab/tune"), body);
    $("tune-name").value = "";
    await refresh();
  } catch (e) {
    $("tune-error").textContent = e.message;
  }
}

async function startAb(ev) {
  ev.preventDefault();
  $("ab-error").textContent = "";
  try {
    const body = {
      game: $("ab-game").value,
      seats: seatList("ab-seats"),
      cards_a: $("ab-cards-a").value,
      cards_b: $("ab-cards-b").value,
      metric: $("ab-metric").value,
      batch: Number($("ab-batch").value),
      budget: Number($("ab-budget").value),
      margin: Number($("ab-margin").value),
      seed: Number($("ab-seed").value),
      name: $("ab-name").value.trim(),
    };
    await postJSON(withLang("/api/lab/ab"), body);
    $("ab-name").value = "";
    await refresh();
  } catch (e) {
    $("ab-error").textContent = e.message;
  }
}

function parseOptions(text) {
  const out = {};
  for (const line of text.split("\n").map((l) => l.trim()).filter(Boolean)) {
    const at = line.indexOf("=");
    if (at < 1) throw new Error(t("option {pair} must be written name=value", { pair: `"${line}"` }));
    out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}

async function start(ev) {
  ev.preventDefault();
  $("run-error").textContent = "";
  try {
    const body = {
      game: $("game").value,
      variant: $("variant").value,
      seats: $("seats").value.split(",").map((s) => s.trim()).filter(Boolean),
      options: parseOptions($("options").value),
      cards: $("cards").value,
      games: Number($("games").value),
      seed: Number($("seed").value),
      name: $("run-name").value.trim(),
    };
    await postJSON(withLang("/api/lab/runs"), body);
    $("run-name").value = "";
    await refresh();
  } catch (e) {
    $("run-error").textContent = e.message;
  }
}

// When a run started: the time today, else the day and the time (in the page's language).
function startedAt(iso) {
  if (!iso) return "";
  const at = new Date(iso);
  const time = at.toLocaleTimeString(lang(), { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  if (at.toDateString() === new Date().toDateString()) return time;
  return `${at.toLocaleDateString(lang(), { day: "numeric", month: "short" })} ${time}`;
}

// A run's name: the designer's, else what it plays, e.g.
// "M.E.A.T. · shipped cards · random vs random · 4 games · 19:05".
function runName(run) {
  if (run.name) return run.name;
  const game = games.find((g) => g.id === run.game)?.title || run.game;
  const time = startedAt(run.created);
  if (run.kind === "tune") {
    return t("Tune {field} · {game} · {cards} · {time}", { field: run.config?.field, game, cards: run.cards, time });
  }
  if (run.kind === "ab") {
    return t("A/B {metric} · {game} · {a} vs {b} · {time}", {
      metric: run.config?.metric,
      game,
      a: run.config?.cards_a || t("shipped cards"),
      b: run.config?.cards_b || t("shipped cards"),
      time,
    });
  }
  const seats = run.seats.reduce((a, b) => t("{a} vs {b}", { a, b }));
  return t("{game} · {cards} · {seats} · {games} · {time}", {
    game,
    cards: run.cards || t("shipped cards"),
    seats,
    games: tn("{n} game", "{n} games", run.games),
    time: startedAt(run.created),
  });
}

function choice(name, run) {
  return h("input", {
    type: "radio", name, value: run.id, disabled: run.status !== "done" || run.kind !== "run",
    "aria-label": t("run {run} as {choice}", { run: runName(run), choice: name.toUpperCase() }), onchange: compareReady,
  });
}

async function cancel(run) {
  try {
    await postJSON(withLang(`/api/lab/runs/${run.id}/cancel`), {});
    await refresh();
  } catch (e) {
    $("run-error").textContent = e.message;
  }
}

// What a row plays, in the page's language.
function kindWord(kind) {
  return { run: t("run"), tune: t("tune"), ab: t("A/B test") }[kind] || kind;
}

function cardsOf(run) {
  if (run.kind !== "ab") return run.cards || t("shipped");
  return t("{a} vs {b}", { a: run.config?.cards_a || t("shipped"), b: run.config?.cards_b || t("shipped") });
}

function runRow(run) {
  const done = run.status === "done" && run.kind === "run";
  const answered = run.status === "done" && run.kind !== "run";
  const open = run.status === "queued" || run.status === "running";
  const status = run.status === "failed" ? t("failed: {error}", { error: run.error }) : statusWord(run.status);
  return h(
    "tr", { "data-run": run.id, "data-status": run.status },
    h("td", {}, choice("a", run)),
    h("td", {}, choice("b", run)),
    h("td", { class: "run-name", title: t("run {id}", { id: run.id }) }, runName(run)),
    h("td", { class: "run-kind" }, kindWord(run.kind)),
    h("td", {}, `${run.game} · ${run.seats.join(", ")}`),
    h("td", {}, cardsOf(run)),
    // A tune or an A/B test may stop before its bound (its answer came early): once
    // answered, it shows the games it played, not "120/300".
    answered
      ? h("td", {}, h("progress", { max: 1, value: 1 }), ` ${tn("{n} game", "{n} games", run.done)} ${status}`)
      : h("td", {}, h("progress", { max: run.games, value: run.done }), ` ${run.done}/${run.games} ${status}`),
    h("td", {}, run.games_per_second ?? ""),
    h("td", {},
      done ? h("button", { type: "button", class: "small report", onclick: () => show(withLang(`/api/lab/runs/${run.id}/report`), t("Making the report…")) }, t("report")) : "",
      " ",
      done ? h("a", { href: `/api/lab/runs/${run.id}/report.html`, class: "report-file" }, "report.html") : "",
      " ",
      done ? h("a", { href: `/api/lab/runs/${run.id}/download`, download: `${run.id}.parquet` }, "run.parquet") : "",
      answered ? h("button", { type: "button", class: "small result", onclick: () => show(withLang(`/api/lab/runs/${run.id}/result`), t("Making the result…")) }, t("result")) : "",
      open ? h("button", { type: "button", class: "small cancel", onclick: () => cancel(run) }, t("cancel")) : ""),
  );
}

function compareReady() {
  const a = document.querySelector("input[name=a]:checked");
  const b = document.querySelector("input[name=b]:checked");
  $("compare").disabled = !(a && b && a.value !== b.value);
}

// Open a report (or a comparison) in the frame; "making" says what is being
// made until the frame has loaded it.
function show(url, making) {
  const frame = $("report-frame");
  const status = $("report-status");
  status.textContent = making;
  frame.setAttribute("aria-busy", "true");
  frame.onload = () => {
    frame.setAttribute("aria-busy", "false");
    status.textContent = "";
  };
  frame.hidden = false;
  frame.src = url;
}

async function refresh() {
  const picked = {
    a: document.querySelector("input[name=a]:checked")?.value,
    b: document.querySelector("input[name=b]:checked")?.value,
  };
  const { runs } = await getJSON("/api/lab/runs");
  $("runs").replaceChildren(...runs.map(runRow));
  for (const [name, id] of Object.entries(picked)) {
    const el = id && document.querySelector(`input[name=${name}][value="${id}"]`);
    if (el && !el.disabled) el.checked = true;
  }
  compareReady();
  const busy = runs.some((r) => r.status === "queued" || r.status === "running");
  if (busy && !polling) polling = setInterval(refresh, 1000);
  if (!busy && polling) {
    clearInterval(polling);
    polling = null;
  }
}

function compare() {
  const a = document.querySelector("input[name=a]:checked").value;
  const b = document.querySelector("input[name=b]:checked").value;
  show(withLang(`/api/lab/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`), t("Making the comparison…"));
}

// Show one of the page's states: "off", "sign-in" or "lab".
function showState(state) {
  document.body.dataset.lab = state;
  $("lab-off").hidden = state !== "off";
  $("sign-in").hidden = state !== "sign-in";
  $("new-run").hidden = state !== "lab";
  $("new-tune").hidden = state !== "lab";
  $("new-ab").hidden = state !== "lab";
  $("runs-panel").hidden = state !== "lab";
}

// Sign in with the operator's token: resolves once the server accepts one.
function signIn() {
  showState("sign-in");
  return new Promise((resolve) => {
    $("token-form").onsubmit = async (ev) => {
      ev.preventDefault();
      $("token-error").textContent = "";
      const r = await fetch(withLang("/api/lab/session"), {
        method: "POST",
        headers: { Authorization: `Bearer ${$("token").value.trim()}` },
      });
      if (r.ok) {
        $("token").value = "";
        resolve();
      } else {
        $("token-error").textContent = t("That is not this server's lab token.");
      }
    };
  });
}

// Whether the lab can be used now: false when it is off on this server.
async function access() {
  const r = await fetch("/api/lab/status");
  const status = r.ok ? await r.json() : { enabled: true, token_required: false };
  if (!status.enabled) {
    showState("off");
    return false;
  }
  if (status.token_required && !status.signed_in) await signIn();
  showState("lab");
  return true;
}

async function init() {
  await ready();
  if (!(await access())) {
    document.body.dataset.ready = "1";
    return;
  }
  ({ games } = await getJSON("/api/lab/games"));
  const gameOptions = () => games.map((g) => h("option", { value: g.id }, g.title));
  $("game").replaceChildren(...gameOptions());
  $("tune-game").replaceChildren(...gameOptions());
  $("ab-game").replaceChildren(...gameOptions());
  const { files } = await getJSON("/api/lab/cards");
  const fileOptions = (list) => list.map((f) => h("option", { value: f }, f));
  $("cards").replaceChildren(h("option", { value: "" }, t("shipped cards")), ...fileOptions(files));
  $("tune-cards").replaceChildren(...fileOptions(files.filter((f) => f.toLowerCase().endsWith(".toml"))));
  for (const id of ["ab-cards-a", "ab-cards-b"]) {
    $(id).replaceChildren(h("option", { value: "" }, t("shipped cards")), ...fileOptions(files));
  }
  if (files.length) $("ab-cards-b").value = files[0]; // B differs from A (the shipped cards)
  fillGame();
  fillAbGame();
  $("game").addEventListener("change", fillGame);
  $("run-form").addEventListener("submit", start);
  $("tune-game").addEventListener("change", fillTuneGame);
  $("tune-cards").addEventListener("change", fillTuneChoices);
  $("tune-seats").addEventListener("change", fillTuneChoices);
  $("tune-form").addEventListener("submit", startTune);
  $("ab-game").addEventListener("change", fillAbGame);
  $("ab-seats").addEventListener("change", fillAbMetrics);
  $("ab-form").addEventListener("submit", startAb);
  $("refresh").addEventListener("click", refresh);
  $("compare").addEventListener("click", compare);
  await fillTuneGame();
  await refresh();
  document.body.dataset.ready = "1";
}

init().catch((e) => {
  $("run-error").textContent = e.message;
});
