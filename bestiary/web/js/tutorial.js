// The first-game tutorial on the table page (/table/<id>?tutorial=1): a box
// under the turn bar says what to do next and why, step by step, and the
// board's controls for the advised move are outlined. It advises and never
// blocks: every legal move stays playable. The steps are the game's
// tutorial.toml (GET /api/games/<id>/tutorial); which step applies is decided
// by tutorial-steps.js, the same rules as the terminal's (engine/tutorial.py).
import { getJSON, h, postJSON, saveSeat } from "./api.js";
import { lang, t } from "./i18n.js";
import { advised, Progress } from "./tutorial-steps.js";

// A fresh tutorial table: the lesson's own table (the person in seat 0, its
// bots, options and fixed seed: a solo table may choose its seed), then the
// table page in tutorial mode.
export async function startTutorial(game) {
  const lesson = await getJSON(`/api/games/${encodeURIComponent(game)}/tutorial`);
  const table = await postJSON("/api/tables", lesson.table);
  const name = localStorage.getItem("bestiary:name") || t("player");
  const joined = await postJSON(`/api/tables/${table.id}/join`, { seat: 0, name });
  saveSeat(table.id, joined.seat, joined.token);
  location.href = `/table/${table.id}?tutorial=1`;
}

export function tutorialWanted() {
  return new URLSearchParams(location.search).get("tutorial") === "1";
}

export class Coach {
  constructor(lesson, tableId) {
    this.lesson = lesson;
    this.key = `bestiary:tutorial:${tableId}`;
    this.progress = new Progress(lesson.steps);
    this.restore();
    this.legal = [];
    this.scrolledTo = null; // the step whose highlight was scrolled into view
    this.box = h("section", { class: "panel tutorial-box", id: "tutorial-box", "aria-live": "polite" });
    document.getElementById("turn-bar").after(this.box);
    this.style = h("style", { id: "tutorial-style" });
    document.head.append(this.style);
  }

  static async open(game, tableId) {
    try {
      return new Coach(await getJSON(`/api/games/${encodeURIComponent(game)}/tutorial`), tableId);
    } catch (e) {
      console.warn("no tutorial:", e);
      return null;
    }
  }

  // A reload keeps the place in the tutorial (this tab only).
  restore() {
    try {
      const saved = JSON.parse(sessionStorage.getItem(this.key) || "null");
      if (saved && saved.index < this.progress.steps.length) Object.assign(this.progress, saved);
    } catch {
      /* storage off: start from the first step */
    }
  }

  save() {
    const { index, acted, skipped, shown } = this.progress;
    try {
      sessionStorage.setItem(this.key, JSON.stringify({ index, acted, skipped, shown }));
    } catch {
      /* storage off */
    }
  }

  // Every update from the server: a step is checked at each of the person's
  // decisions and when the game ends.
  update(state) {
    this.legal = state.yourTurn && !state.over ? state.legal || [] : [];
    if (!this.legal.length && !state.over) return;
    if (this.progress.update({ view: state.view || {}, legal: this.legal, over: Boolean(state.over) })) this.save();
  }

  moved() {
    this.progress.moved();
    this.save();
  }

  skip() {
    this.progress.skipped = true;
    this.save();
    this.render();
  }

  // The box, and the outline on the advised controls (the board is redrawn
  // on every update, so this runs after each drawing).
  render() {
    const p = this.progress;
    const step = p.current();
    const total = p.steps.length;
    const move = advised(step, this.legal);
    this.box.dataset.step = p.skipped ? "skipped" : String(p.index);
    this.box.dataset.done = p.done ? "yes" : "no";
    this.box.dataset.advice = move || "";
    // For scripts and tests: the move `next` plays in the terminal.
    this.box.dataset.next = move || this.legal[0] || "";
    const parts = [];
    if (p.skipped) {
      parts.push(h("p", {}, t("Tutorial skipped: play on as you like.")));
    } else if (!step) {
      parts.push(h("p", {}, t("The tutorial starts at your first move.")));
    } else {
      parts.push(h("h2", {}, t("Tutorial, step {n} of {total}", { n: p.index + 1, total })));
      parts.push(h("p", { class: "tutorial-text" }, step.text[lang()] || step.text.en));
      if (move) parts.push(h("p", { class: "tutorial-try" }, t("Try: {move} (outlined on the board).", { move })));
    }
    const buttons = h("p", { class: "tutorial-buttons" });
    if (p.done) {
      buttons.append(
        h("button", { type: "button", id: "tutorial-again", onclick: () => this.again() }, t("Play it again")),
        " ",
        h("a", { class: "button secondary", id: "tutorial-real", href: `/?game=${encodeURIComponent(this.lesson.game)}` }, t("Start a real game")),
      );
      if (!p.skipped) buttons.append(" ", h("span", { class: "muted" }, t("The tutorial is over; the game goes on if you like.")));
    } else {
      buttons.append(h("button", { type: "button", class: "small secondary", id: "tutorial-skip", onclick: () => this.skip() }, t("Skip tutorial")));
    }
    parts.push(buttons);
    this.box.replaceChildren(...parts);
    this.highlight(step, move);
  }

  // A style rule, not a class: game pages redraw their boards on their own
  // (a card file loaded, a drag ended), and a rule outlives every redraw.
  highlight(step, move) {
    const on = Boolean(move && !this.progress.skipped);
    this.style.textContent = on ? `#board [data-action^=${JSON.stringify(step.highlight)}], #board [data-action^=${JSON.stringify(step.highlight)}] svg.card { outline: 3px dashed var(--gold); outline-offset: 3px; }` : "";
    if (!on || this.scrolledTo === this.progress.index) return;
    const first = document.querySelector(`#board [data-action=${JSON.stringify(move)}]`);
    if (!first) return;
    this.scrolledTo = this.progress.index;
    first.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }

  async again() {
    try {
      await startTutorial(this.lesson.game);
    } catch (e) {
      this.box.append(h("p", { class: "error" }, e.message));
    }
  }
}
