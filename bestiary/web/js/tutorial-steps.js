// The tutorial's step logic, with no page in it (node runs it in the tests).
// The same rules as bestiary/engine/tutorial.py, which documents the
// condition language; the two must agree (tests/web/test_tutorial.py).
//
//   condition := clause ( " and " clause )*
//   clause    := "over" | "turn" | NAME OP "TEXT"     OP: = != ^=
//   NAME      := "legal" (some legal move) | a dotted key of the view

const CLAUSE = /^\s*([A-Za-z_][A-Za-z0-9_.]*)\s*(\^=|!=|=)\s*"([^"]*)"\s*$/;

function valueOf(view, name) {
  let here = view;
  for (const part of name.split(".")) {
    if (here === null || typeof here !== "object" || Array.isArray(here) || !(part in here)) return "";
    here = here[part];
  }
  if (here === null || here === undefined) return "";
  if (typeof here === "boolean") return here ? "true" : "false";
  if (Array.isArray(here)) return String(here.length); // a list or a table counts its entries
  if (typeof here === "object") return String(Object.keys(here).length);
  return String(here);
}

function compare(value, op, text) {
  if (op === "=") return value === text;
  if (op === "!=") return value !== text;
  return value.startsWith(text);
}

// facts: {view, legal, over}
export function holds(condition, facts) {
  const turn = facts.legal.length > 0 && !facts.over;
  for (const clause of condition.split(" and ")) {
    const word = clause.trim();
    let ok;
    if (word === "over") ok = Boolean(facts.over);
    else if (word === "turn") ok = turn;
    else {
      const m = CLAUSE.exec(clause);
      if (!m) return false;
      const [, name, op, text] = m;
      ok = name === "legal" ? facts.legal.some((a) => compare(a, op, text)) : compare(valueOf(facts.view, name), op, text);
    }
    if (!ok) return false;
  }
  return true;
}

// Where a person is in a tutorial: the step shown (-1: none yet), whether
// they moved since it showed, and every step shown so far.
export class Progress {
  constructor(steps) {
    this.steps = steps;
    this.index = -1;
    this.acted = false;
    this.skipped = false;
    this.shown = [];
  }

  get done() {
    return this.skipped || this.index === this.steps.length - 1;
  }

  // Checked at each of the person's decisions and when the game ends: the
  // step newly shown, or null.
  update(facts) {
    if (this.skipped) return null;
    const next = this.index + 1;
    if (next >= this.steps.length || !(this.index < 0 || this.acted)) return null;
    if (!holds(this.steps[next].when, facts)) return null;
    this.index = next;
    this.acted = false;
    this.shown.push(next);
    return this.steps[next];
  }

  moved() {
    this.acted = true;
  }

  current() {
    return this.skipped || this.index < 0 ? null : this.steps[this.index];
  }
}

// The first legal move the step points at (its highlight prefix), or null.
export function advised(step, legal) {
  if (!step || !step.highlight) return null;
  return legal.find((a) => a.startsWith(step.highlight)) || null;
}
