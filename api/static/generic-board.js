// A board module for games that ship none (same interface as api/static/boards/*.js):
// the current targets as a grid of buttons and the view's players as a table.

const SVG = "http://www.w3.org/2000/svg";
const TARGET_FIELDS = [
  "space", "link", "line", "route", "merchant", "source", "location", "oilfield", "market",
];

export function targetsOf(move) {
  const out = [];
  for (const key of TARGET_FIELDS) {
    if (typeof move[key] === "string") out.push(move[key]);
  }
  if (typeof move.card === "string") out.push(`card:${move.card}`);
  if (Number.isInteger(move.col) && Number.isInteger(move.row)) out.push(`hex:${move.col},${move.row}`);
  return out;
}

export function describeMove(move) {
  const { type, ...rest } = move;
  const parts = Object.entries(rest).map(([k, v]) => `${k.replace(/_/g, " ")} ${typeof v === "object" ? JSON.stringify(v) : v}`);
  return `${type.replace(/_/g, " ")}${parts.length ? `: ${parts.join(", ")}` : ""}`;
}

function el(name, attrs, text) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text != null) node.textContent = text;
  return node;
}

export function render(svg, panels, ctx) {
  svg.replaceChildren();
  const ids = [...new Set([...ctx.targets, ...ctx.touched])].sort();
  const cols = Math.max(1, Math.ceil(Math.sqrt(ids.length * 1.6)));
  const cell = 120;
  const rows = Math.max(1, Math.ceil(ids.length / cols));
  const width = Math.max(cols * cell, 600);
  svg.setAttribute("viewBox", `0 0 ${width} ${Math.max(rows * 48, 300)}`);
  if (!ids.length) {
    svg.append(el("text", { x: width / 2, y: 150, "text-anchor": "middle", class: "generic-empty" },
      "No board drawing for this game"));
  }
  ids.forEach((id, i) => {
    const g = el("g", {
      "data-target": id, tabindex: 0, role: "button", "aria-label": id,
      class: `generic-target${ctx.targets.has(id) ? " target" : ""}${ctx.touched.has(id) ? " touched" : ""}`,
      transform: `translate(${(i % cols) * cell + 4},${Math.floor(i / cols) * 48 + 4})`,
    });
    g.append(el("rect", { width: cell - 8, height: 40, rx: 6 }));
    g.append(el("text", { x: (cell - 8) / 2, y: 25, "text-anchor": "middle" }, id.length > 18 ? `${id.slice(0, 17)}…` : id));
    const pick = () => ctx.targets.has(id) && ctx.onPick(id);
    g.addEventListener("click", pick);
    g.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(); }
    });
    svg.append(g);
  });
  panels.replaceChildren();
  const players = ctx.view && ctx.view.view && ctx.view.view.players;
  if (Array.isArray(players) && players.length) {
    const keys = Object.keys(players[0]).filter((k) => typeof players[0][k] !== "object");
    const table = document.createElement("table");
    table.className = "generic-players";
    table.innerHTML = `<thead><tr>${keys.map((k) => `<th>${k.replace(/_/g, " ")}</th>`).join("")}</tr></thead>`;
    const body = document.createElement("tbody");
    for (const p of players) {
      const tr = document.createElement("tr");
      for (const k of keys) {
        const td = document.createElement("td");
        td.textContent = String(p[k]);
        tr.append(td);
      }
      body.append(tr);
    }
    table.append(body);
    panels.append(table);
  }
}
