// The scripted player of tests/web/test_games_to_the_end.py, loaded into
// every page of its browser contexts (Playwright's add_init_script). It runs
// in the page so that a round trip or two per decision does the work: it
// reads what the page shows, checks the first screen and the width, and
// names the control to press; the test presses it with a real tap or click.
(() => {
  // Every message on the table's socket, and when the page has drawn it:
  // the page draws the latest update on the next animation frame, so two
  // frames after a message its drawing is on the screen. And every move the
  // page sends: a press that sent none was a pick (a card to place) or missed.
  const Socket = window.WebSocket;
  const seen = { messages: 0, drawn: 0, moves: 0 };
  window.WebSocket = class extends Socket {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", () => {
        const n = ++seen.messages;
        requestAnimationFrame(() => requestAnimationFrame(() => (seen.drawn = Math.max(seen.drawn, n))));
      });
    }

    send(data) {
      if (typeof data === "string" && data.includes('"act"') && JSON.parse(data).type === "act") seen.moves += 1;
      return super.send(data);
    }
  };

  const texts = new Map(); // a visible text -> where it was first seen
  const problems = []; // layout faults, in words
  const measured = new Map(); // "WxH" -> decisions made from the hand, measured at that size

  // A game page adds its stylesheet when it first draws (api.js pageStyle);
  // until it has loaded, the page is laid out without it.
  const styled = () => [...document.querySelectorAll("link[rel='stylesheet']")].every((l) => l.sheet);
  const shown = (el) => el.checkVisibility({ visibilityProperty: true, opacityProperty: true });

  // A short CSS path, for a failure message.
  function where(el) {
    const parts = [];
    for (let e = el; e && e !== document.body && parts.length < 4; e = e.parentElement) {
      let part = e.tagName.toLowerCase();
      if (e.id) part += `#${e.id}`;
      else if (typeof e.className === "string" && e.className.trim()) part += "." + e.className.trim().split(/\s+/).join(".");
      parts.unshift(part);
      if (e.id) break;
    }
    return parts.join(" > ");
  }

  // Every text a person can see now (SVG card faces included), and the help
  // a hover, a focus or a long press shows for a card or a leader (js/help.js).
  function collectTexts() {
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const text = n.textContent.replace(/\s+/g, " ").trim();
      const el = n.parentElement;
      if (!text || !el || texts.has(text) || el.closest("script, style, noscript, title")) continue;
      if (shown(el)) texts.set(text, where(el));
    }
    for (const el of document.querySelectorAll("[data-help]")) {
      if (!shown(el)) continue;
      for (const line of el.dataset.help.split("\n")) {
        const text = line.replace(/\s+/g, " ").trim();
        if (text && !texts.has(text)) texts.set(text, `${where(el)} [help]`);
      }
    }
  }

  // An element inside a box that scrolls or clips sideways is that box's
  // business: the page itself does not grow.
  function clippedSideways(el) {
    for (let e = el.parentElement; e && e !== document.body; e = e.parentElement) {
      const x = getComputedStyle(e).overflowX;
      if (x !== "visible") return true;
    }
    return false;
  }

  // At this size: nothing reaches past the right edge, and each of ``wanted``
  // ([name, selector]) starts inside the first screen (the page at its top).
  function checkLayout(wanted, label) {
    window.scrollTo(0, 0);
    const w = window.innerWidth;
    const h = window.innerHeight;
    const size = `${w}x${h}`;
    const wide = document.scrollingElement.scrollWidth;
    if (wide > w) problems.push(`${size} ${label}: the page is ${wide}px wide`);
    for (const el of document.querySelectorAll("body *")) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.right <= w + 1 || !shown(el) || clippedSideways(el)) continue;
      problems.push(`${size} ${label}: ${where(el)} reaches ${Math.round(r.right)}px`);
      break; // one says it; its children would repeat it
    }
    let all = true;
    for (const [name, sel] of wanted) {
      const el = document.querySelector(sel);
      if (!el || !shown(el)) {
        problems.push(`${size} ${label}: ${name} (${sel}) is not on the page`);
        all = false;
        continue;
      }
      const r = el.getBoundingClientRect();
      if (!(r.top >= 0 && r.top < h - 40 && r.height > 0)) {
        problems.push(`${size} ${label}: ${name} (${sel}) starts at ${Math.round(r.top)}px, below the first screen`);
        all = false;
      }
    }
    return { size, all };
  }

  window.scripted = {
    seen,
    texts: () => [...texts.entries()],
    problems: () => problems,
    measured: () => Object.fromEntries(measured),
    collectTexts,
    checkLayout,
    // Ready for the next look: the latest message is drawn, and the page asks
    // this seat for a move or the game is over. ``mark``: a message count the
    // page must have passed (the one a move was sent after).
    ready(mark) {
      const b = document.body.dataset;
      return seen.drawn > mark && seen.drawn === seen.messages && styled() && (b.over === "yes" || b.yourTurn === "yes");
    },
    // A decision: what the page shows is read and its layout checked. The
    // hand counts where the move is made from it (a leader, a draft row or a
    // build may come first while the hand waits below).
    look(prompt, hand, label) {
      const b = document.body.dataset;
      if (b.over === "yes") return { over: true };
      if (b.yourTurn !== "yes" || seen.drawn !== seen.messages || !styled()) return { wait: true };
      collectTexts();
      const handEl = document.querySelector(hand);
      const fromHand = Boolean(handEl && shown(handEl) && handEl.querySelector("[data-action]:not([disabled]), [draggable='true']"));
      const wanted = [["the prompt", prompt], ["the turn bar", "#turn-line"]];
      if (fromHand) wanted.push(["the hand", hand]);
      const { size, all } = checkLayout(wanted, label);
      if (fromHand && all) measured.set(size, (measured.get(size) || 0) + 1);
      return { fromHand, mark: seen.messages, moves: seen.moves };
    },
    // The control to press: the first selector of ``prefer`` that matches a
    // usable control wins; ``r`` (0..1) picks among its matches. Its centre,
    // and what is on top there if it is not the control itself.
    pick(r, prefer) {
      for (const sel of prefer) {
        const found = [...document.querySelectorAll(sel)].filter((el) => !el.disabled && shown(el));
        if (!found.length) continue;
        const el = found[Math.floor(r * found.length)];
        el.scrollIntoView({ block: "center", inline: "nearest" });
        const q = el.getBoundingClientRect();
        const x = q.left + q.width / 2;
        const y = q.top + q.height / 2;
        const hit = document.elementFromPoint(x, y);
        return { x, y, action: el.dataset.action || null, what: where(el), covered: hit && el.contains(hit) ? null : where(hit || document.body) };
      }
      return null;
    },
  };
})();
