// Help on the table page: a card's full text on hover, focus or long-press,
// and a drawer with the game's rules (its RULES.md, rendered here).
//
// Card text: a game page puts the text on the card's element as
// ``data-help`` (plain text, one line per "\n"); any other card drawn by
// js/cards.js shows its aria-label. On a phone a tap on a card that does
// nothing else (or a long-press on any card) opens the text; a tap elsewhere
// closes it. Text is set with textContent only: card names are data.
//
// Rules: ``GET /api/games/{id}/guide?lang=`` (the rules for players) first,
// then ``GET /api/games/{id}/rules`` (RULES.md) on a button or when there is
// no guide. Without either the drawer says so; nothing else depends on it.

const fill = (s, p) => String(s).replace(/\{(\w+)\}/g, (_, k) => (p && k in p ? p[k] : "{" + k + "}"));
const t = (s, p) => (globalThis.t ? globalThis.t(s, p) : fill(s, p));

const HELP_SELECTOR = "[data-help], svg.card[aria-label]";

// -- card help ------------------------------------------------------------------------------
let tip = null;
let tipFor = null;
let hoverTimer = null;
// The touch press under way: a long one shows the card's text instead of acting.
const LONG_PRESS_MS = 500;
let press = { x: 0, y: 0, fired: false, timer: null };

function tipElement() {
  if (tip) return tip;
  tip = document.createElement("div");
  tip.id = "card-help";
  tip.className = "card-help";
  tip.setAttribute("role", "tooltip");
  tip.hidden = true;
  document.body.append(tip);
  return tip;
}

function helpText(el) {
  return el.getAttribute("data-help") || el.getAttribute("aria-label") || "";
}

// The element whose help applies at ``target``: the nearest [data-help]
// (a game page marks the card or its button) or a drawn card.
export function helpTarget(target) {
  if (!target || !target.closest) return null;
  const el = target.closest("[data-help]") || target.closest("svg.card[aria-label]");
  return el && helpText(el) ? el : null;
}

export function showHelp(el) {
  const box = tipElement();
  const lines = helpText(el).split("\n");
  box.replaceChildren(
    ...lines.map((line, i) => {
      const p = document.createElement(i === 0 ? "strong" : "p");
      p.textContent = line;
      return p;
    }),
  );
  box.hidden = false;
  tipFor = el;
  place(box, el);
}

export function hideHelp() {
  clearTimeout(hoverTimer);
  if (tip) tip.hidden = true;
  tipFor = null;
}

// Beside the card, inside the screen: below it, or above when there is no room.
function place(box, el) {
  const r = el.getBoundingClientRect();
  const vw = document.documentElement.clientWidth;
  const vh = window.innerHeight;
  box.style.maxWidth = `${Math.min(320, vw - 16)}px`;
  const w = box.offsetWidth;
  const hgt = box.offsetHeight;
  let x = Math.min(Math.max(8, r.left), vw - w - 8);
  let y = r.bottom + 6;
  if (y + hgt > vh - 8 && r.top - hgt - 6 > 8) y = r.top - hgt - 6;
  box.style.left = `${x + window.scrollX}px`;
  box.style.top = `${y + window.scrollY}px`;
}

function wireCardHelp() {
  document.addEventListener("pointerover", (e) => {
    if (e.pointerType && e.pointerType !== "mouse") return;
    const el = helpTarget(e.target);
    if (!el || el === tipFor) return;
    clearTimeout(hoverTimer);
    hoverTimer = setTimeout(() => el.isConnected && showHelp(el), 250);
  });
  document.addEventListener("pointerout", (e) => {
    if (e.pointerType && e.pointerType !== "mouse") return;
    const el = helpTarget(e.target);
    if (!el) return;
    if (e.relatedTarget && el.contains(e.relatedTarget)) return;
    hideHelp();
  });
  // Keyboard: a focused card (or its button) shows its text (not on a
  // click's focus: the hover already did).
  document.addEventListener("focusin", (e) => {
    if (!e.target.matches || !e.target.matches(":focus-visible")) return;
    const el = helpTarget(e.target) || (e.target.querySelector && e.target.querySelector(HELP_SELECTOR));
    if (el && helpText(el)) showHelp(el);
  });
  document.addEventListener("focusout", () => hideHelp());
  // Touch: a finger held still on a card opens its text, and the click the
  // lift would send is swallowed (captured before the card's own handler):
  // reading a card must never play it. Not every touch screen sends a
  // contextmenu on a long-press (an emulated one sends only a late click).
  document.addEventListener(
    "pointerdown",
    (e) => {
      clearTimeout(press.timer);
      press = { x: e.clientX, y: e.clientY, fired: false, timer: null };
      if (e.pointerType === "mouse") return;
      const el = helpTarget(e.target);
      if (!el) return;
      const mine = press;
      mine.timer = setTimeout(() => {
        if (!el.isConnected) return;
        mine.fired = true;
        showHelp(el);
      }, LONG_PRESS_MS);
    },
    true,
  );
  document.addEventListener("pointermove", (e) => {
    if (Math.hypot(e.clientX - press.x, e.clientY - press.y) > 10) clearTimeout(press.timer); // a scroll, not a press
  });
  document.addEventListener("pointercancel", () => clearTimeout(press.timer));
  document.addEventListener(
    "click",
    (e) => {
      if (!press.fired) return;
      press.fired = false;
      e.preventDefault();
      e.stopPropagation();
    },
    true,
  );
  // ... as does a contextmenu (a long-press on most phones) on any card ...
  document.addEventListener("contextmenu", (e) => {
    const el = helpTarget(e.target);
    if (!el) return;
    e.preventDefault();
    showHelp(el);
  });
  // ... and a tap on a card that does nothing else (no action: a disabled
  // button, a card on the table). A tap elsewhere closes it.
  document.addEventListener("click", (e) => {
    const el = helpTarget(e.target);
    const acts = e.target.closest && e.target.closest("button:not([disabled]), a, [data-action], input, select, label");
    if (el && !acts) {
      if (tipFor === el) hideHelp();
      else showHelp(el);
      return;
    }
    if (!e.target.closest || !e.target.closest("#card-help")) hideHelp();
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      hideHelp();
      closeRules();
    }
  });
  // The board redraws: a card that left the page takes its text with it.
  new MutationObserver(() => tipFor && !tipFor.isConnected && hideHelp()).observe(document.body, { childList: true, subtree: true });
}

// -- a small, safe Markdown renderer ----------------------------------------------------------
// Builds DOM nodes (never HTML strings): headings, paragraphs, lists (nested
// by indentation), tables, block quotes, fenced code, rules; inline code,
// bold, italics and links (http(s), site-relative or #anchors only).

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
}

export function slug(text) {
  return (
    "rules-" +
    text
      .toLowerCase()
      .replace(/[`*_()[\]'"“”‘’.,:;!?/\\]/g, "")
      .trim()
      .replace(/\s+/g, "-")
  );
}

function safeHref(href) {
  const h = href.trim();
  if (/^https?:\/\//i.test(h)) return h;
  if (h.startsWith("#")) return "#" + slug(h.slice(1).replace(/-/g, " "));
  if (h.startsWith("/") && !h.startsWith("//")) return h;
  return null; // javascript:, data:, relative file paths: shown as text
}

// Inline Markdown -> nodes, appended to ``parent``.
export function inline(parent, text) {
  const re = /(`+)([\s\S]*?)\1|\*\*([^*]+)\*\*|__([^_]+)__|\*([^*\s][^*]*)\*|(?<![\w])_([^_\s][^_]*)_(?![\w])|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let last = 0;
  let m;
  while ((m = re.exec(text))) {
    if (m.index > last) parent.append(text.slice(last, m.index));
    if (m[1]) parent.append(el("code", {}, m[2]));
    else if (m[3] || m[4]) inline(parent.appendChild(el("strong")), m[3] || m[4]);
    else if (m[5] || m[6]) inline(parent.appendChild(el("em")), m[5] || m[6]);
    else if (m[7]) {
      const href = safeHref(m[8]);
      if (href) {
        const a = el("a", { href });
        if (/^https?:/i.test(href)) a.setAttribute("rel", "noopener noreferrer"), a.setAttribute("target", "_blank");
        inline(a, m[7]);
        parent.append(a);
      } else inline(parent, m[7]);
    }
    last = re.lastIndex;
  }
  if (last < text.length) parent.append(text.slice(last));
  return parent;
}

const cells = (line) =>
  line
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replace(/\\\|/g, "|"));

// Markdown text -> a DocumentFragment.
export function renderMarkdown(md) {
  const out = document.createDocumentFragment();
  const lines = String(md).replace(/\r\n?/g, "\n").split("\n");
  let i = 0;
  const isBlank = (l) => !l || !l.trim();
  const listItem = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/;
  const startsBlock = (l) => /^(#{1,6})\s|^```|^>\s?|^\s*([-*+]|\d+[.)])\s+|^\s*\|.*\|\s*$|^(-{3,}|\*{3,}|_{3,})\s*$/.test(l);
  while (i < lines.length) {
    const line = lines[i];
    if (isBlank(line)) {
      i++;
      continue;
    }
    let m;
    if ((m = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line))) {
      const hx = el(`h${Math.min(6, m[1].length + 1)}`, { id: slug(m[2]) });
      out.append(inline(hx, m[2]));
      i++;
    } else if (/^```/.test(line)) {
      const body = [];
      i++;
      while (i < lines.length && !/^```/.test(lines[i])) body.push(lines[i++]);
      i++;
      out.append(el("pre", {}, el("code", {}, body.join("\n"))));
    } else if (/^(-{3,}|\*{3,}|_{3,})\s*$/.test(line)) {
      out.append(el("hr"));
      i++;
    } else if (/^>\s?/.test(line)) {
      const body = [];
      while (i < lines.length && /^>\s?/.test(lines[i])) body.push(lines[i++].replace(/^>\s?/, ""));
      const q = el("blockquote");
      q.append(renderMarkdown(body.join("\n")));
      out.append(q);
    } else if (/^\s*\|.*\|\s*$/.test(line) && i + 1 < lines.length && /^\s*\|?\s*:?-{2,}/.test(lines[i + 1])) {
      const head = cells(line);
      i += 2;
      const table = el("table", { class: "md-table" });
      const tr = el("tr");
      head.forEach((c) => tr.append(inline(el("th"), c)));
      table.append(el("thead", {}, tr));
      const body = el("tbody");
      while (i < lines.length && /^\s*\|.*\|\s*$/.test(lines[i])) {
        const row = el("tr");
        cells(lines[i++]).forEach((c) => row.append(inline(el("td"), c)));
        body.append(row);
      }
      table.append(body);
      out.append(el("div", { class: "md-table-wrap" }, table));
    } else if (listItem.test(line)) {
      const [list, next] = parseList(lines, i);
      out.append(list);
      i = next;
    } else {
      const body = [];
      while (i < lines.length && !isBlank(lines[i]) && !(body.length && startsBlock(lines[i]))) body.push(lines[i++].trim());
      if (!body.length) body.push(lines[i++].trim());
      out.append(inline(el("p"), body.join(" ")));
    }
  }
  return out;
}

// A list from line ``i``: items at its indentation; deeper lines nest.
function parseList(lines, i) {
  const first = /^(\s*)([-*+]|\d+[.)])\s+/.exec(lines[i]);
  const indent = first[1].length;
  const ordered = /\d/.test(first[2]);
  const list = el(ordered ? "ol" : "ul");
  let item = null;
  let text = [];
  const flush = () => {
    if (item && text.length) inline(item, text.join(" "));
    text = [];
  };
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) {
      // A blank line ends the list unless the next line continues it.
      const next = lines[i + 1] || "";
      if (/^(\s*)([-*+]|\d+[.)])\s+/.test(next) && /^\s*/.exec(next)[0].length >= indent) {
        i++;
        continue;
      }
      break;
    }
    const m = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/.exec(line);
    const lead = /^\s*/.exec(line)[0].length;
    if (m && lead === indent) {
      flush();
      item = el("li");
      list.append(item);
      text = [m[3].trim()];
      i++;
    } else if (m && lead > indent) {
      flush();
      const [sub, next] = parseList(lines, i);
      (item || list).append(sub);
      i = next;
    } else if (lead > indent || (!m && !/^(#{1,6})\s|^```|^>|^\s*\|/.test(line))) {
      text.push(line.trim()); // the item's text goes on (indented or lazy)
      i++;
    } else break;
  }
  flush();
  return [list, i];
}

// -- the rules drawer -------------------------------------------------------------------------
let drawer = null;
let loaded = false;

function tableId() {
  return decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
}

async function gameId() {
  const r = await fetch(`/api/tables/${encodeURIComponent(tableId())}`);
  if (!r.ok) throw new Error(String(r.status));
  return (await r.json()).game;
}

function drawerElement() {
  if (drawer) return drawer;
  drawer = el("aside", { id: "rules-drawer", class: "rules-drawer", role: "dialog", "aria-modal": "false", "aria-labelledby": "rules-title", hidden: "" });
  const close = el("button", { type: "button", class: "small", id: "rules-close" }, t("close"));
  close.addEventListener("click", closeRules);
  drawer.append(el("div", { class: "rules-head" }, el("h2", { id: "rules-title" }, t("Rules")), close), el("div", { class: "rules-body", id: "rules-body" }, el("p", { class: "muted" }, t("loading the rules…"))));
  document.body.append(drawer);
  return drawer;
}

// The rules for players first (``/api/games/{id}/guide?lang=``, in the page's
// language), with a button to the engine's specification (RULES.md); a server
// without guides gets RULES.md as before. ``game``: the lobby names one.
let loadedFor = null;

function pageLang() {
  return (document.documentElement.lang || "en").slice(0, 2);
}

async function fetchMarkdown(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(String(r.status));
  const data = await r.json();
  if (typeof data.markdown !== "string" || !data.markdown.trim()) throw new Error("empty");
  return data;
}

function showSpec(body, game, back) {
  body.replaceChildren(el("p", { class: "muted" }, t("loading the rules…")));
  fetchMarkdown(`/api/games/${encodeURIComponent(game)}/rules`)
    .then(({ markdown }) => {
      const parts = [renderMarkdown(markdown)];
      if (back) parts.unshift(el("p", {}, back));
      body.replaceChildren(...parts);
    })
    .catch(() => body.replaceChildren(el("p", { class: "muted rules-missing" }, t("This server does not offer the game's rules yet. The card help (hover, tap or long-press a card) and the prompts above the buttons still explain each move."))));
}

async function loadGuide(body, game) {
  let guide;
  try {
    guide = await fetchMarkdown(`/api/games/${encodeURIComponent(game)}/guide?lang=${encodeURIComponent(pageLang())}`);
  } catch {
    showSpec(body, game, null); // an older server: RULES.md only
    return;
  }
  const toSpec = el("button", { type: "button", class: "small", id: "rules-spec" }, t("The engine's full specification (RULES.md, in English)"));
  const toGuide = el("button", { type: "button", class: "small", id: "rules-guide" }, t("Back to how to play"));
  toSpec.addEventListener("click", () => showSpec(body, game, toGuide));
  toGuide.addEventListener("click", () => loadGuide(body, game));
  body.replaceChildren(renderMarkdown(guide.markdown), el("p", {}, toSpec));
}

export async function openRules(game) {
  const d = drawerElement();
  d.hidden = false;
  document.body.classList.add("rules-open");
  const button = document.getElementById("rules-open");
  if (button) button.setAttribute("aria-expanded", "true");
  d.querySelector("#rules-close").focus();
  if (loaded && (!game || game === loadedFor)) return;
  const body = d.querySelector("#rules-body");
  try {
    const id = game || (await gameId());
    await loadGuide(body, id);
    loaded = true;
    loadedFor = id;
  } catch {
    body.replaceChildren(el("p", { class: "muted rules-missing" }, t("This server does not offer the game's rules yet. The card help (hover, tap or long-press a card) and the prompts above the buttons still explain each move.")));
  }
}

export function closeRules() {
  if (!drawer || drawer.hidden) return;
  drawer.hidden = true;
  document.body.classList.remove("rules-open");
  const button = document.getElementById("rules-open");
  if (button) {
    button.setAttribute("aria-expanded", "false");
    button.focus();
  }
}

function wireRules() {
  const button = document.getElementById("rules-open");
  if (!button) return;
  button.setAttribute("aria-controls", "rules-drawer");
  button.setAttribute("aria-expanded", "false");
  button.addEventListener("click", () => (drawer && !drawer.hidden ? closeRules() : openRules()));
}

if (typeof document !== "undefined" && document.getElementById) {
  wireCardHelp();
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", wireRules);
  else wireRules();
}
