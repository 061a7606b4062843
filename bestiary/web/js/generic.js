// The generic table renderer: a readable summary of the view and the legal
// actions as buttons. It serves every game that has no page of its own.
import { h } from "./api.js";
import { lang, t, tn } from "./i18n.js";

export function statusLine(state) {
  if (state.replay) return h("p", { class: "turn" }, t("Replay."));
  if (state.over) return h("p", { class: "turn over" }, t("Game over."));
  if (state.seat === null) return h("p", { class: "turn" }, t("You are watching."));
  if (state.table && state.table.status === "waiting") return h("p", { class: "turn" }, t("Waiting for players to take their seats…"));
  return state.yourTurn
    ? h("p", { class: "turn mine" }, t("Your move."))
    : h("p", { class: "turn" }, t("Waiting for the other players…"));
}

function isScalar(v) {
  return v === null || ["string", "number", "boolean"].includes(typeof v);
}

export function valueTree(value, depth = 0) {
  if (isScalar(value)) return h("span", { class: "val" }, value === null ? "—" : String(value));
  if (Array.isArray(value)) {
    if (value.every(isScalar)) return h("span", { class: "val list" }, value.length ? value.map((v) => (v === null ? "?" : String(v))).join(", ") : t("(none)"));
    return h("ol", { class: "tree", start: 0 }, ...value.map((v) => h("li", {}, valueTree(v, depth + 1))));
  }
  return h(
    "dl",
    { class: "tree" },
    ...Object.entries(value).flatMap(([k, v]) => [h("dt", {}, k.replaceAll("_", " ")), h("dd", {}, valueTree(v, depth + 1))]),
  );
}

// The server sends, beside ``legal`` (the text forms a button submits), the
// labels a person reads in each language, in the same order; a page keeps
// them as {lang: {text form: label}} so a page may filter ``legal`` freely.
export function actionLabels(legal, labels) {
  if (!labels || !legal) return null;
  const out = {};
  for (const [code, list] of Object.entries(labels)) out[code] = Object.fromEntries(legal.map((a, i) => [a, list[i] || a]));
  return out;
}

// What the button for the action ``a`` says in the page's language (its text form when the server sent no label).
export function actionLabel(state, a) {
  const mine = state && state.labels && state.labels[lang()];
  return (mine && mine[a]) || a;
}

// The action buttons in groups, with a filter when there are many. ``query``:
// the words a person typed in the filter a page keeps across redraws (a
// page redrawn in place, morph.js, keeps the live field and takes these
// buttons' hidden flags, so they must already follow those words).
export function actionButtons(state, api, query = "") {
  const legal = state.legal || [];
  if (!legal.length) return h("div", { class: "actions empty" });
  const groups = new Map();
  for (const a of legal) {
    const verb = a.split(" ")[0];
    if (!groups.has(verb)) groups.set(verb, []);
    groups.get(verb).push(a);
  }
  const box = h("div", { class: "actions", role: "group", "aria-label": t("your legal actions") });
  // The filter finds the buttons in its box when it is used, not the ones
  // built here: a box kept by a redraw holds its own live buttons.
  const filter = legal.length > 24 ? h("input", { class: "filter", value: query || undefined, placeholder: tn("filter {n} action…", "filter {n} actions…", legal.length), oninput: (e) => hideUnlike(e.currentTarget.parentNode, e.currentTarget.value) }) : null;
  for (const [verb, acts] of groups) {
    // The group is named by its first button's first word, in the page's language.
    const row = h("div", { class: "action-group" }, h("span", { class: "verb" }, actionLabel(state, acts[0]).split(" ")[0] || verb));
    for (const a of acts) row.append(h("button", { type: "button", class: "action", "data-action": a, "data-label": actionLabel(state, a), onclick: () => api.act(a) }, actionLabel(state, a)));
    box.append(row);
  }
  if (filter) {
    box.prepend(filter);
    hideUnlike(box, query);
  }
  return box;
}

// Hide the box's action buttons whose text does not contain the words typed.
function hideUnlike(box, typed) {
  const q = typed.toLowerCase();
  for (const b of box.querySelectorAll("button.action")) b.hidden = Boolean(q) && !b.dataset.action.toLowerCase().includes(q) && !(b.dataset.label || "").toLowerCase().includes(q);
}

export function render(root, state, api) {
  root.replaceChildren(
    statusLine(state),
    actionButtons(state, api),
    h("h3", {}, state.seat === null ? t("The table") : t("What you see")),
    valueTree(state.view),
  );
}
