// The board's frame, drawn once from the rule set's description (the catalog): each layout group
// is a section in the top band or the main area, its piles in the rows the description gives
// (centred where it says so, overlapping where a pile lies under others), and the board is as
// many card widths wide as the description's `width`. Nothing here knows any game: what differs
// between games is in the description.

const FANS = new Set(["down", "right", "slider"]); // every other fan stacks its cards

// How a group's piles hold their cards: "down" or "right" (fanned), "slider" (a row's ◀ ▶
// buttons), or "stack" (squared up, one card showing).
export function fanOf(group) {
  return FANS.has(group.fan) ? group.fan : "stack";
}

// -> {board, top, main, actions, info, piles: Map name -> element, groupOf: Map name -> group,
//     order: pile names in layout order (the keyboard's order)}
export function drawLayout(ruleSet, { interactive, onShift }) {
  const groups = ruleSet.layout || [];
  const piles = new Map();
  const groupOf = new Map();
  const order = groups.flatMap((g) => g.piles);
  for (const g of groups) for (const p of g.piles) groupOf.set(p, g);

  const board = div("board");
  board.dataset.game = ruleSet.id;
  board.dataset.variant = ruleSet.variant;
  board.dataset.play = ruleSet.play || "build";
  const top = div("board-top");
  const main = div("board-main");
  const actions = div("board-actions");
  const info = div("board-info");
  board.append(top, main, actions, info);

  let before = null; // the main area's last group: a group of sliders stands beside it
  for (const g of groups) {
    const section = drawGroup(g);
    if (g.area === "top") {
      top.append(section);
    } else if (fanOf(g) === "slider" && before) {
      const pair = div("beside");
      before.replaceWith(pair);
      pair.append(section, before);
    } else {
      main.append(section);
      before = section;
    }
  }
  if (ruleSet.width) board.style.setProperty("--cols", String(ruleSet.width));
  return { board, top, main, actions, info, piles, groupOf, order };

  function drawGroup(g) {
    const fan = fanOf(g);
    const section = document.createElement("section");
    section.className = `group kind-${g.kind} fan-${fan} align-${g.align || "start"}`;
    if (g.covered_by) section.classList.add("overlap");
    section.dataset.group = g.kind;
    section.setAttribute("role", "group");
    if (g.label) section.setAttribute("aria-label", g.label);
    for (const names of rowsOf(g)) {
      const row = div("row");
      for (const name of names) row.append(drawPile(name, g, fan));
      section.append(row);
    }
    return section;
  }

  function drawPile(name, g, fan) {
    const pile = div(`pile kind-${g.kind} fan-${fan}`);
    pile.dataset.pile = name;
    if (interactive) pile.tabIndex = 0;
    if (fan === "slider") {
      for (const dir of ["left", "right"]) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = `slide-${dir}`;
        b.textContent = dir === "left" ? "◀" : "▶";
        b.setAttribute("aria-label", `shift row ${name.replace(/^[a-z]+/, "")} ${dir}`);
        b.disabled = !interactive;
        b.addEventListener("click", (e) => {
          e.stopPropagation();
          onShift(`${dir}:${name}`);
        });
        pile.append(b);
      }
    }
    piles.set(name, pile);
    return pile;
  }
}

// The group's rows as described; one row of all its piles if the description has none.
export function rowsOf(group) {
  return Array.isArray(group.rows) && group.rows.length ? group.rows : [group.piles];
}

function div(className) {
  const el = document.createElement("div");
  el.className = className;
  return el;
}
