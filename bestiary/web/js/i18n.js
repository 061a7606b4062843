// English and Polish on every page. A message id is its English text; the
// translations come from the server's merged catalog (GET /api/i18n/{lang}:
// the core "bestiary" catalog and the game pages' "web-games" one).
//
//   import { t, tn } from "/static/js/i18n.js";
//   t("{name} draws a card", { name })        // placeholders by name, never glued
//   tn("{n} card", "{n} cards", n)            // plural forms ({n} is filled in)
//
// HTML: an element with data-i18n shows its own English text translated (put
// it on elements that hold only text); data-i18n-attr="title placeholder"
// translates those attributes. The language: the toggle's choice (kept in
// localStorage), else the browser's (navigator.languages), else English.
// Extraction: pybabel's javascript extractor with keywords t and tn:1,2 (babel.cfg).

export const LANGUAGES = ["en", "pl"];
const KEY = "bestiary:lang";
let current = chooseLanguage();
let messages = {};
let loaded = null;

function normalize(code) {
  const c = String(code || "").toLowerCase().split(/[-_.]/)[0];
  return LANGUAGES.includes(c) ? c : null;
}

function chooseLanguage() {
  let saved = null;
  try {
    saved = normalize(localStorage.getItem(KEY));
  } catch {
    saved = null; // storage may be off (private mode): use the browser's language
  }
  if (saved) return saved;
  for (const code of navigator.languages || [navigator.language]) {
    const c = normalize(code);
    if (c) return c;
  }
  return "en";
}

export function lang() {
  return current;
}

// Fill {name} placeholders from params; a placeholder without a value stays as written.
// A translation may ask for a case, {card:ins}: a value that knows its cases
// (cardNoun in cards.js) gives that form, any other value shows as it is.
export function format(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)(?::(\w+))?\}/g, (whole, key, spec) => {
    if (!Object.hasOwn(params, key)) return whole;
    const value = params[key];
    return spec && value && typeof value.form === "function" ? value.form(spec) : String(value);
  });
}

export function t(msgid, params) {
  const text = (current !== "en" && messages[msgid]) || msgid;
  return format(text, params);
}

// gettext's plural index: English one/other; Polish one/few/many (Plural-Forms of the catalogs).
export function pluralIndex(n, code = current) {
  if (code === "pl") {
    if (n === 1) return 0;
    const d = n % 10;
    const h = n % 100;
    return d >= 2 && d <= 4 && (h < 10 || h >= 20) ? 1 : 2;
  }
  return n === 1 ? 0 : 1;
}

export function tn(singular, plural, n, params) {
  const values = { n, ...(params || {}) };
  if (current !== "en") {
    const form = messages[`${singular}\u0000${pluralIndex(n)}`];
    if (form) return format(form, values);
  }
  return format(n === 1 ? singular : plural, values);
}

// Translate the marked elements under root (their English text is kept to
// translate again from).
export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    if (!el.dataset.i18n) el.dataset.i18n = el.textContent.trim().replace(/\s+/g, " ");
    el.textContent = t(el.dataset.i18n);
  }
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const attr of el.dataset.i18nAttr.split(/[\s,]+/).filter(Boolean)) {
      const keep = `i18n${attr.replace(/(^|-)(\w)/g, (_m, _d, c) => c.toUpperCase())}`;
      if (!(keep in el.dataset)) el.dataset[keep] = el.getAttribute(attr) || "";
      if (el.dataset[keep]) el.setAttribute(attr, t(el.dataset[keep]));
    }
  }
  if (document.documentElement) document.documentElement.lang = current;
}

export function setLanguage(code) {
  const c = normalize(code);
  if (!c) return;
  try {
    localStorage.setItem(KEY, c);
  } catch {
    // not remembered: the page still switches
  }
  if (c !== current) location.reload(); // every part of the page is drawn again in c
}

// "EN | PL" in the page header.
export function languageToggle() {
  const box = document.createElement("span");
  box.className = "lang-toggle";
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", t("language"));
  LANGUAGES.forEach((code, i) => {
    if (i) box.append(" | ");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "small lang" + (code === current ? " current" : "");
    b.dataset.lang = code;
    b.textContent = code.toUpperCase();
    b.setAttribute("aria-pressed", code === current ? "true" : "false");
    b.title = code === "pl" ? "Polski" : "English";
    b.addEventListener("click", () => setLanguage(code));
    box.append(b);
  });
  return box;
}

// Load the catalog (once), translate the page and add the toggle to its header.
export function ready() {
  if (!loaded) loaded = load();
  return loaded;
}

async function load() {
  if (current !== "en") {
    try {
      const r = await fetch(`/api/i18n/${current}`);
      if (r.ok) messages = (await r.json()).messages || {};
    } catch (e) {
      console.warn("no translations; showing English:", e);
    }
  }
  translatePage();
  const header = document.querySelector("header.top");
  if (header && !header.querySelector(".lang-toggle")) header.append(languageToggle());
}

// Game pages (web/games/*.js) and js/help.js call globalThis.t / tn, so they
// need no import path of their own.
globalThis.t = t;
globalThis.tn = tn;
globalThis.lang = lang;
