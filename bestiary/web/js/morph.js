// Redraw a board in place: morph(root, children) makes root's children look
// like a freshly built tree, keeping every live element that the new tree
// still has. Game pages rebuild their whole board on each socket update; a
// button swapped for an identical new one between a person's press and
// release gets no click (a bot moved in between: the click was lost), and a
// typed filter, an opened <details> or the focus went with it. So the fresh
// tree is only a description: matching live nodes are updated to it.
//
// Matching, per list of siblings:
// - an element with a key (data-key, id, data-card or data-action) matches a
//   live sibling with the same tag and key, wherever it stands; a card's
//   button stays that card's when the hand shifts, so a press on one card is
//   never released on another card's (recycled) button;
// - a node without a key (elements by tag and first class name, text) is
//   matched in order with the unkeyed live siblings: the live one in its place
//   when alike; else, when that live one is still wanted by a later fresh
//   sibling, the fresh node is new (inserted before it); else the live one was
//   dropped, and the next alike live sibling is taken; else a live one of the
//   same tag in its place is reused. (Taking the next alike sibling blindly
//   took a panel from further down for a new one, and then the hand's panel
//   became the table's.)
// Anything new is inserted (the fresh node itself); live nodes left over are
// removed.
//
// Handlers must be transferable: h() (api.js) and on() keep them in
// el.__on, read by one listener per event type, so a kept element runs the
// new render's handler (the old one closed over the old state).
// Listeners added with addEventListener on a fresh node are lost when a live
// node is kept instead: renderers use h()'s on* attributes or on().

const KEY_ATTRS = ["data-key", "id", "data-card", "data-action"];

function keyOf(node) {
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  for (const a of KEY_ATTRS) {
    const v = node.getAttribute(a);
    if (v !== null && v !== "") return `${a}=${v}`;
  }
  return null;
}

function sameKind(a, b) {
  return a.nodeType === b.nodeType && a.nodeName === b.nodeName && a.namespaceURI === b.namespaceURI;
}

function firstClass(node) {
  const c = node.getAttribute("class");
  return c ? c.trim().split(/\s+/)[0] : "";
}

// Make the live children of `root` follow `children` (nodes or strings).
export function morph(root, children) {
  const fresh = children.flat().filter((c) => c !== undefined && c !== null && c !== false).map((c) => (c instanceof Node ? c : document.createTextNode(String(c))));
  // The first drawing has nothing to keep: the fresh tree goes in as it is
  // (also what a page drawn into a detached or minimal element needs).
  if (!root.firstChild) {
    root.replaceChildren(...fresh);
    return;
  }
  const active = document.activeElement;
  const hadFocus = active && active !== document.body && root.contains(active);
  morphChildren(root, fresh);
  // Moving a focused element (a keyed sibling that changed places) blurs it.
  if (hadFocus && active.isConnected && document.activeElement !== active && typeof active.focus === "function") active.focus({ preventScroll: true });
}

function morphChildren(parent, fresh) {
  const live = [...parent.childNodes];
  const used = new Set();
  const byKey = new Map(); // key -> live siblings with it, in order
  for (const n of live) {
    const k = keyOf(n);
    if (k === null) continue;
    if (!byKey.has(k)) byKey.set(k, []);
    byKey.get(k).push(n);
  }
  // How many fresh unkeyed siblings still to come have each kind.
  const wanted = new Map();
  for (const n of fresh) if (keyOf(n) === null) wanted.set(kindOf(n), (wanted.get(kindOf(n)) || 0) + 1);
  const state = { live, used, byKey, wanted, at: 0 }; // at: unkeyed live siblings before it are used or dropped
  let prev = null; // the last node placed
  for (const n of fresh) {
    const match = findMatch(n, state);
    let node;
    if (match) {
      used.add(match);
      morphNode(match, n);
      node = match;
    } else node = n;
    // The nodes placed so far stand in the new order; the live ones not used
    // go at the end, so a node only moves when it stands before `prev`.
    const ok = node.parentNode === parent && (prev === null ? true : prev.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_FOLLOWING);
    if (!ok) parent.insertBefore(node, prev ? prev.nextSibling : parent.firstChild);
    prev = node;
  }
  for (const n of live) if (!used.has(n)) n.remove();
}

// An unkeyed node's kind: text, or an element's tag and first class name.
function kindOf(node) {
  if (node.nodeType !== Node.ELEMENT_NODE) return `#${node.nodeType}`;
  return `${node.namespaceURI} ${node.nodeName}.${firstClass(node)}`;
}

function findMatch(n, st) {
  const k = keyOf(n);
  if (k !== null) {
    const list = st.byKey.get(k) || [];
    return list.find((c) => !st.used.has(c) && sameKind(c, n)) || null;
  }
  const kind = kindOf(n);
  st.wanted.set(kind, st.wanted.get(kind) - 1); // this one is being placed
  const next = (from) => {
    for (let i = from; i < st.live.length; i++) {
      const c = st.live[i];
      if (!st.used.has(c) && keyOf(c) === null) return i;
    }
    return -1;
  };
  const take = (i) => {
    st.at = i + 1;
    return st.live[i];
  };
  const here = next(st.at);
  if (here < 0) return null;
  const c = st.live[here];
  if (kindOf(c) === kind) return take(here);
  // The live one in this place is wanted later: this fresh node is new.
  if (st.wanted.get(kindOf(c)) > 0) return null;
  // It is not wanted: dropped. An alike live sibling further on is this one.
  for (let i = next(here + 1); i >= 0; i = next(i + 1)) if (kindOf(st.live[i]) === kind) return take(i);
  // Nothing alike: reuse the dropped one when it has the same tag.
  return sameKind(c, n) ? take(here) : null;
}

// The state a person changes in place (what they typed, ticked, opened)
// stays theirs unless the render changed it: the value each render asked
// for is remembered on the element.
const FIELD_TAGS = new Set(["INPUT", "TEXTAREA", "SELECT"]);

function morphNode(live, fresh) {
  if (live.nodeType !== Node.ELEMENT_NODE) {
    if (live.nodeValue !== fresh.nodeValue) live.nodeValue = fresh.nodeValue;
    return;
  }
  const field = FIELD_TAGS.has(live.nodeName);
  const keepOpen = live.nodeName === "DETAILS";
  const asked = field ? renderedOf(live) : null;
  syncAttributes(live, fresh, keepOpen);
  moveHandlers(live, fresh);
  if (live.nodeName !== "TEXTAREA") morphChildren(live, [...fresh.childNodes]);
  else if (live.defaultValue !== fresh.defaultValue) live.defaultValue = fresh.defaultValue;
  if (field) syncField(live, fresh, asked);
}

function syncAttributes(live, fresh, keepOpen) {
  for (const a of [...fresh.attributes]) {
    if (keepOpen && a.name === "open") continue;
    if (live.getAttributeNS(a.namespaceURI, a.localName) !== a.value) live.setAttributeNS(a.namespaceURI, a.name, a.value);
  }
  for (const a of [...live.attributes]) {
    if (keepOpen && a.name === "open") continue; // a <details> stays as the person left it
    if (!fresh.hasAttributeNS(a.namespaceURI, a.localName)) live.removeAttributeNS(a.namespaceURI, a.localName);
  }
}

// What the renders asked a field to show: its value (and checked state).
function renderedOf(el) {
  if (el.__rendered) return el.__rendered;
  const checkable = el.type === "checkbox" || el.type === "radio";
  if (el.nodeName === "SELECT") {
    const opt = [...el.options].find((o) => o.defaultSelected) || el.options[0];
    return { value: opt ? opt.value : "", checked: false };
  }
  return { value: el.defaultValue, checked: checkable ? el.defaultChecked : false };
}

function syncField(live, fresh, asked) {
  const now = { value: fresh.value, checked: Boolean(fresh.checked) };
  if (now.value !== asked.value && live.value !== now.value) live.value = now.value;
  if (now.checked !== asked.checked && live.checked !== now.checked) live.checked = now.checked;
  live.__rendered = now;
}

function moveHandlers(live, fresh) {
  const next = fresh.__on || null;
  if (!live.__on && !next) return;
  live.__on = {};
  for (const [type, fn] of Object.entries(next || {})) on(live, type, fn);
}

// Attach a handler the morph can move to a kept element: h()'s on* attributes
// use it; so do renderers that add handlers to nodes h() did not make (SVG).
// One listener per type reads the element's current handler.
export function on(el, type, fn) {
  if (!el.__on) el.__on = {};
  if (!el.__onTypes) el.__onTypes = new Set();
  el.__on[type] = fn;
  if (!el.__onTypes.has(type)) {
    el.__onTypes.add(type);
    el.addEventListener(type, dispatch);
  }
}

function dispatch(ev) {
  const fn = this.__on && this.__on[ev.type];
  if (fn) return fn.call(this, ev);
}
