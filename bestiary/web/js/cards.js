// Cards drawn as SVG: no art, only clear marks — type (banner colour and
// name), family, nature, value (top left) and cost (bottom right).
import { t } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";

// An SVG element: svg("rect", {x: 1, y: 2}, "optional text"). Game pages draw with it too.
export function svg(tag, attrs, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// A card's name in the page's language: the catalog (GET /api/i18n/{lang}) carries
// each game's translated card names keyed "card name\u0004" + the name as the game
// data spells it (Monster Maker's "Corridor 10" -> "Korytarz 10"); a name without
// one, or an English page, shows as it is. Actions keep the data's name.
export const CARD_NAME = "card name\u0004";
export function cardName(name) {
  const key = CARD_NAME + name;
  const said = t(key);
  return said && said !== key ? said : String(name);
}

// A card's name that a translated sentence may decline: as text it is cardName(name)
// (and `suffix`, e.g. a strength); {card:acc} in a translation asks for its
// accusative, read from the catalog's "card cases\u0004" + name (gen|dat|acc|ins|loc,
// from the game's nouns.toml); a name without cases shows in every case as it is.
export const CARD_CASES = "card cases\u0004";
const CASE_INDEX = { gen: 0, dat: 1, acc: 2, ins: 3, loc: 4 };
export function cardNoun(name, suffix = "") {
  const shown = () => cardName(name) + suffix;
  return {
    toString: shown,
    form(which) {
      const key = CARD_CASES + name;
      const cases = t(key);
      const i = CASE_INDEX[which];
      if (!cases || cases === key || i === undefined) return shown();
      return (cases.split("|")[i] || cardName(name)) + suffix;
    },
  };
}

const PALETTE = ["#b5472f", "#2f6fb5", "#3f8f4a", "#8a4fb0", "#c08a1e", "#1e8f8f", "#b03a78", "#5f6b7a", "#7a5230", "#3c4fa8"];

export function colourOf(key) {
  let n = 0;
  for (const ch of String(key || "")) n = (n * 31 + ch.charCodeAt(0)) >>> 0;
  return PALETTE[n % PALETTE.length];
}

// card({name, type, family, nature, value, cost, note, faceDown, selected, width})
export function card(c) {
  const w = c.width || 96;
  const hgt = Math.round(w * 1.4);
  const root = svg("svg", { viewBox: "0 0 100 140", width: w, height: hgt, class: "card" + (c.selected ? " selected" : ""), role: "img" });
  if (c.faceDown) {
    root.setAttribute("aria-label", t("face-down card"));
    root.append(svg("rect", { x: 2, y: 2, width: 96, height: 136, rx: 8, fill: "#2d2a4a", stroke: "#e9b949", "stroke-width": 2 }));
    root.append(svg("path", { d: "M20 30 L80 110 M80 30 L20 110", stroke: "#4b4680", "stroke-width": 6 }));
    root.append(svg("text", { x: 50, y: 76, "text-anchor": "middle", "font-size": 14, fill: "#e9b949", "font-weight": "bold" }, "?"));
    return root;
  }
  const colour = c.colour || colourOf(c.type || c.family || c.name);
  const label = [
    c.name,
    c.type && t("type {type}", { type: c.type }),
    c.family && t("family {family}", { family: c.family }),
    c.nature && t("nature {nature}", { nature: c.nature }),
    c.value !== undefined && c.value !== null && t("value {value}", { value: c.value }),
    c.cost !== undefined && c.cost !== null && t("cost {cost}", { cost: c.cost }),
  ]
    .filter(Boolean)
    .join(", ");
  root.setAttribute("aria-label", label);
  const title = svg("title", {}, label);
  root.append(title);
  root.append(svg("rect", { x: 2, y: 2, width: 96, height: 136, rx: 8, fill: "#fffdf6", stroke: colour, "stroke-width": 3 }));
  root.append(svg("rect", { x: 2, y: 2, width: 96, height: 26, rx: 8, fill: colour }));
  const banner = String(c.type || "").toUpperCase();
  const bannerSize = Math.max(6, Math.min(10, 150 / Math.max(banner.length, 1)));
  const bannerAttrs = { x: 50, y: 19, "text-anchor": "middle", "font-size": bannerSize.toFixed(1), fill: "#fff", "font-weight": "bold" };
  // A long banner is fitted to the card ("POMARAŃCZOWA": wide capitals of 12 letters overran it).
  if (banner.length > 10) Object.assign(bannerAttrs, { textLength: 88, lengthAdjust: "spacingAndGlyphs" }); // always fits
  root.append(svg("text", bannerAttrs, shorten(banner, 24)));
  if (c.value !== undefined && c.value !== null) {
    root.append(svg("circle", { cx: 16, cy: 42, r: 11, fill: "#fff", stroke: colour, "stroke-width": 2 }));
    root.append(svg("text", { x: 16, y: 46.5, "text-anchor": "middle", "font-size": 13, "font-weight": "bold", fill: "#222" }, String(c.value)));
  }
  if (c.nature) {
    root.append(svg("rect", { x: 70, y: 33, width: 24, height: 16, rx: 4, fill: "#eee", stroke: "#999" }));
    root.append(svg("text", { x: 82, y: 45, "text-anchor": "middle", "font-size": 10, fill: "#222" }, shorten(String(c.nature), 4)));
  }
  const nameSize = String(c.name || "").length > 12 ? 10.5 : 12;
  lines(shorten(c.name || "", 34), 14).forEach((line, i) =>
    root.append(svg("text", { x: 50, y: 72 + i * 14, "text-anchor": "middle", "font-size": nameSize, "font-weight": "bold", fill: "#222" }, line)),
  );
  if (c.family) root.append(svg("text", { x: 50, y: 112, "text-anchor": "middle", "font-size": 9, fill: colour, "font-style": "italic" }, shorten(c.family, 20)));
  if (c.note) root.append(svg("text", { x: 8, y: 130, "font-size": 8, fill: "#555" }, shorten(c.note, 16)));
  if (c.cost !== undefined && c.cost !== null) {
    root.append(svg("path", { d: "M84 116 L95 127 L84 138 L73 127 Z", fill: "#e9b949", stroke: "#7a5a10" }));
    root.append(svg("text", { x: 84, y: 131, "text-anchor": "middle", "font-size": 10, "font-weight": "bold", fill: "#222" }, String(c.cost)));
  }
  return root;
}

function shorten(s, n) {
  s = String(s);
  return s.length > n ? s.slice(0, n - 1) + "…" : s;
}

function lines(text, width) {
  const out = [];
  let cur = "";
  for (const word of text.split(/\s+/)) {
    if ((cur + " " + word).trim().length > width && cur) {
      out.push(cur);
      cur = word;
    } else cur = (cur + " " + word).trim();
  }
  if (cur) out.push(cur);
  return out.slice(0, 3);
}
