// What both Brass boards draw the same way: industry badges, build spaces and the tiles on
// them, link lines and link tiles, the player panels, the hand, the turn line.
import {
  s, h, f, target, seatColour, seatInk, seatMark, seatLabel, seatBadge, stat, roman, titleCase,
  curveThrough, polyline, seatsOf, decisionLine, matchOver,
} from "./kit.js";

// Industry badges: a colour and a short code, so an icon reads without its colour too.
export const INDUSTRY = {
  cotton: { code: "Ct", fill: "#efe2c4", ink: "#5a4520", name: "cotton mill" },
  manufacturer: { code: "Mf", fill: "#9fb3c8", ink: "#1d2b3a", name: "manufacturer" },
  manufactured_goods: { code: "Mg", fill: "#9fb3c8", ink: "#1d2b3a", name: "manufactured goods" },
  pottery: { code: "Pt", fill: "#d39b77", ink: "#3d1f0c", name: "pottery" },
  coal: { code: "Co", fill: "#2f2f2f", ink: "#ffffff", name: "coal mine" },
  iron: { code: "Fe", fill: "#b4562f", ink: "#ffffff", name: "iron works" },
  port: { code: "Po", fill: "#8fc1d9", ink: "#0c2d3d", name: "port" },
  shipyard: { code: "Sh", fill: "#4f6d8a", ink: "#ffffff", name: "shipyard" },
  brewery: { code: "Br", fill: "#e8c547", ink: "#3a2c00", name: "brewery" },
  kerosene: { code: "Ke", fill: "#7fbf7f", ink: "#0d2b0d", name: "kerosene refinery" },
  steel: { code: "St", fill: "#6f7f8f", ink: "#ffffff", name: "steel mill" },
  coke: { code: "Ck", fill: "#5b4636", ink: "#ffffff", name: "coke works" },
  automobile: { code: "Au", fill: "#c9a0dc", ink: "#2d1040", name: "automobile plant" },
  skyscraper: { code: "Sk", fill: "#d8d8d8", ink: "#202020", name: "skyscraper" },
  oil_city: { code: "OC", fill: "#333333", ink: "#f0d000", name: "Oil City" },
};

export function industryStyle(name) {
  return INDUSTRY[name] || { code: String(name).slice(0, 2), fill: "#cccccc", ink: "#111111", name: titleCase(name) };
}

export function industryName(name) {
  return industryStyle(name).name;
}

// Resource cubes and barrels as drawn on tiles and markets.
export const RESOURCE = {
  coal: { fill: "#1e1e1e", stroke: "#888", name: "coal" },
  iron: { fill: "#d9752f", stroke: "#5a2a08", name: "iron" },
  beer: { fill: "#a0672c", stroke: "#3d2205", name: "beer" },
  steel: { fill: "#9aa7b3", stroke: "#2b3440", name: "steel" },
  coke: { fill: "#6b4d36", stroke: "#241507", name: "coke" },
  oil: { fill: "#111111", stroke: "#f0d000", name: "oil" },
};

// An industry badge in SVG: a rounded square with the industry's code.
export function industryBadge(name, x, y, size) {
  const st = industryStyle(name);
  return s(
    "g",
    { class: "bd-ind" },
    s("rect", { x: f(x - size / 2), y: f(y - size / 2), width: f(size), height: f(size), rx: f(size * 0.22), fill: st.fill, stroke: "#2a2a2a", "stroke-width": 0.8 }),
    s("text", { x: f(x), y: f(y + size * 0.17), "font-size": f(size * 0.5), "text-anchor": "middle", fill: st.ink, "font-weight": 700 }, st.code),
  );
}

// An industry badge in HTML.
export function industryChip(name, text) {
  const st = industryStyle(name);
  return h("span", { class: "bd-chip", style: `background:${st.fill};color:${st.ink}`, title: st.name, text: text ?? st.code });
}

// A published cost in words, in the game's `money` sign: "£12 + 1 coal", "$8 + 1 coal",
// "2 steel", "$20 + 2 steel + income −2 levels" (a tile row's or a link's, as
// metadata.board publishes it: money, then cubes and barrels, then income levels).
export function costText(cost, money) {
  if (!cost) return "";
  const parts = [];
  if (cost.money) parts.push(`${money}${cost.money}`);
  for (const r of ["coal", "iron", "beer", "steel", "coke", "oil"]) if (cost[r]) parts.push(`${cost[r]} ${r}`);
  const levels = cost.income_levels;
  if (levels) parts.push(`income ${levels > 0 ? "+" : "−"}${Math.abs(levels)} level${Math.abs(levels) === 1 ? "" : "s"}`);
  return parts.join(" + ");
}

// Cubes (or barrels) on a tile: `n` of resource `kind` in a row from (x, y).
export function cubes(kind, n, x, y, size) {
  const g = s("g", { class: "bd-cubes" });
  const st = RESOURCE[kind] || RESOURCE.coal;
  const perRow = 4;
  for (let i = 0; i < n; i++) {
    const cx = x + (i % perRow) * (size + 1.5);
    const cy = y - Math.floor(i / perRow) * (size + 1.5);
    if (kind === "beer" || kind === "oil") {
      g.appendChild(s("ellipse", { cx: f(cx + size / 2), cy: f(cy + size / 2), rx: f(size / 2), ry: f(size * 0.58), fill: st.fill, stroke: st.stroke, "stroke-width": 0.9 }));
    } else {
      g.appendChild(s("rect", { x: f(cx), y: f(cy), width: f(size), height: f(size), rx: 1, fill: st.fill, stroke: st.stroke, "stroke-width": 0.9 }));
    }
  }
  return g;
}

// An empty build space: its printed frame with the icons it allows.
export function emptySpace(box, icons, scale) {
  const [x, y, w, hh] = box.map((v, i) => v * (i % 2 ? scale.y : scale.x));
  const g = s("g", { class: "bd-space" });
  g.appendChild(s("rect", { x: f(x), y: f(y), width: f(w), height: f(hh), rx: 3, class: "bd-space-frame" }));
  const n = icons.length;
  const size = Math.min(w, hh) * (n > 1 ? 0.46 : 0.6);
  icons.forEach((name, i) => {
    const cx = x + (w * (i + 1)) / (n + 1);
    const cy = y + hh / 2 + (n > 1 ? (i % 2 ? 6 : -6) * (w / 44) : 0);
    g.appendChild(industryBadge(name, cx, cy, size));
  });
  return g;
}

// A built industry tile filling `box`: the owner's colour, the industry badge, the level,
// the cubes or barrels on it, and a flipped tile's mark (a dark corner and a check).
export function tileOnSpace(box, scale, t) {
  const [x, y, w, hh] = box.map((v, i) => v * (i % 2 ? scale.y : scale.x));
  const g = s("g", { class: "bd-tile" + (t.flipped ? " bd-flipped" : "") });
  const fill = seatColour(t.owner);
  g.appendChild(s("rect", { x: f(x - 1), y: f(y - 1), width: f(w + 2), height: f(hh + 2), rx: 4, fill, stroke: "#111", "stroke-width": 1.6 }));
  if (t.flipped) {
    g.appendChild(s("path", { d: `M${f(x + w * 0.55)},${f(y - 1)} L${f(x + w + 1)},${f(y - 1)} L${f(x + w + 1)},${f(y + hh * 0.45)} Z`, fill: "#111" }));
    g.appendChild(s("text", { x: f(x + w * 0.84), y: f(y + hh * 0.2), "font-size": f(w * 0.22), fill: "#fff", "text-anchor": "middle", "font-weight": 700 }, "✓"));
  }
  const size = w * 0.42;
  g.appendChild(industryBadge(t.industry, x + w * 0.3, y + hh * 0.3, size));
  g.appendChild(s("text", { x: f(x + w * 0.06), y: f(y + hh * 0.93), "font-size": f(w * 0.3), fill: seatInk(t.owner), "font-weight": 700, class: "bd-level" }, roman(t.level)));
  // The seat number on a white disc, so the owner reads without colour (and apart from
  // the level).
  const [sx, sy, sr] = [x + w * 0.8, y + hh * 0.8, w * 0.16];
  g.appendChild(s("circle", { cx: f(sx), cy: f(sy), r: f(sr), fill: "#fff", stroke: "#111", "stroke-width": 0.9 }));
  g.appendChild(s("text", { x: f(sx), y: f(sy + sr * 0.45), "font-size": f(sr * 1.3), fill: "#111", "text-anchor": "middle", "font-weight": 700 }, seatMark(t.owner)));
  if (t.resources > 0 && t.resource) {
    const c = Math.min(w * 0.16, 7);
    const cols = Math.min(t.resources, 4);
    g.appendChild(cubes(t.resource, t.resources, x + w * 0.5 - (cols * (c + 1.5)) / 2 + w * 0.08, y + hh * 0.52, c));
  }
  return g;
}

// A link line's track: canal (blue water), rail (dark rails with ties) or both; the line is
// faded when the current era cannot use it.
export function linkTrack(route, branch, kinds, scale, usable) {
  const pts = route.map((p) => [p[0] * scale.x, p[1] * scale.y]);
  const d = pts.length === 3 ? curveThrough(pts[0], pts[1], pts[2]) : polyline(pts);
  const g = s("g", { class: "bd-linkline" + (usable ? "" : " bd-unusable") });
  const paths = [d];
  if (branch && branch.length) paths.push(polyline(branch.map((p) => [p[0] * scale.x, p[1] * scale.y])));
  for (const dd of paths) {
    if (kinds.canal) g.appendChild(s("path", { d: dd, class: "bd-canal" + (kinds.rail ? " bd-both" : "") }));
    if (kinds.rail) {
      g.appendChild(s("path", { d: dd, class: "bd-rail-ties" }));
      g.appendChild(s("path", { d: dd, class: "bd-rail" }));
    }
  }
  // A wide transparent stroke over the line, so it is easy to click.
  for (const dd of paths) g.appendChild(s("path", { d: dd, class: "bd-hit" }));
  return g;
}

// A built link tile at its printed spot: owner colour, seat number, a canal/rail mark.
export function linkTile(xy, angle, size, scale, owner, kind) {
  const [x, y] = [xy[0] * scale.x, xy[1] * scale.y];
  const [w, hh] = [size[0] * scale.x, Math.max(size[1] * scale.y, 16)];
  const g = s("g", { class: "bd-linktile", transform: `rotate(${f(angle)} ${f(x)} ${f(y)})` });
  g.appendChild(s("rect", { x: f(x - w / 2), y: f(y - hh / 2), width: f(w), height: f(hh), rx: kind === "canal" ? hh / 2 : 2, fill: seatColour(owner), stroke: "#111", "stroke-width": 1.4 }));
  if (kind !== "canal") {
    for (const dx of [-w * 0.36, w * 0.36]) g.appendChild(s("line", { x1: f(x + dx), y1: f(y - hh / 2 + 2), x2: f(x + dx), y2: f(y + hh / 2 - 2), stroke: seatInk(owner), "stroke-width": 1.6 }));
  }
  // Keep the number upright whatever the tile's angle.
  g.appendChild(s("text", { x: f(x), y: f(y + hh * 0.3), "font-size": f(hh * 0.85), "text-anchor": "middle", fill: seatInk(owner), "font-weight": 700, transform: `rotate(${f(-angle)} ${f(x)} ${f(y)})` }, seatMark(owner)));
  return g;
}

// A rounded area behind a location's spaces and name.
export function locationArea(boxes, label, scale, kind) {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y, w, hh] of boxes) {
    x0 = Math.min(x0, x * scale.x); y0 = Math.min(y0, y * scale.y);
    x1 = Math.max(x1, (x + w) * scale.x); y1 = Math.max(y1, (y + hh) * scale.y);
  }
  const [lx, ly] = [label[0] * scale.x, label[1] * scale.y];
  y0 = Math.min(y0, ly - 14); y1 = Math.max(y1, ly + 6);
  x0 = Math.min(x0, lx - 30); x1 = Math.max(x1, lx + 30);
  const pad = 6;
  return s("rect", { x: f(x0 - pad), y: f(y0 - pad), width: f(x1 - x0 + 2 * pad), height: f(y1 - y0 + 2 * pad), rx: 10, class: `bd-loc bd-loc-${kind}` });
}

// Where a location's name goes: at the layout's label point unless its plate would cover
// one of the location's spaces (a derived label offset can land on a second row of spaces,
// hiding the level and VP of a tile built there); then just below the lowest space or just
// above the highest, whichever lies farther from the printed link tile spots in `avoid`
// (0..1 points), so a built link hides as little of the name as may be.
export function nameSpot(name, xy, boxes, scale, size, avoid = []) {
  const x = xy[0] * scale.x;
  const half = (name.length * size * 0.72 + 12) / 2;
  const plate = (y) => [x - half, y - size * 0.82 - 3, x + half, y + size * 0.18 + 3];
  const sliver = 4;
  const rects = boxes.map(([bx, by, bw, bh]) => [bx * scale.x, by * scale.y, (bx + bw) * scale.x, (by + bh) * scale.y]);
  const [l, t, r, b] = plate(xy[1] * scale.y);
  const covers = rects.some(([bl, bt, br, bb]) => Math.min(r, br) - Math.max(l, bl) > sliver && Math.min(b, bb) - Math.max(t, bt) > sliver);
  if (!covers) return xy;
  const below = Math.max(...rects.map((q) => q[3])) + 2 + size * 0.82 + 3;
  const above = Math.min(...rects.map((q) => q[1])) - 2 - size * 0.18 - 3;
  const clearance = (y) => {
    const [pl, pt, pr, pb] = plate(y);
    let near = Infinity;
    for (const [ax, ay] of avoid) {
      const [px, py] = [ax * scale.x, ay * scale.y];
      near = Math.min(near, Math.hypot(Math.max(pl - px, 0, px - pr), Math.max(pt - py, 0, py - pb)));
    }
    return near;
  };
  return [xy[0], (clearance(above) > clearance(below) ? above : below) / scale.y];
}

// A location in two layers around its spaces: `back` (the area, drawn behind the spaces) and
// `front` (the name on a plate, drawn in front of them). The plate is the location's target,
// so a pointer click on the name lands on the location however the spaces crowd it; a click
// on the area between the spaces picks the location too, and the area lights with it.
export function locationLayers(area, name, xy, scale, size, id, text, ctx) {
  const [x, y] = [xy[0] * scale.x, xy[1] * scale.y];
  // The name's width guessed from its letters (bold capitals, letter-spaced), padded.
  const w = name.length * size * 0.72 + 12;
  const hh = size + 6;
  const front = s("g", { class: "bd-lochead" },
    s("rect", { x: f(x - w / 2), y: f(y - size * 0.82 - 3), width: f(w), height: f(hh), rx: f(hh / 2), class: "bd-plate" }),
    label(name, xy, scale, "bd-label", size));
  target(front, id, text, ctx);
  if (ctx.targets && ctx.targets.has(id)) {
    area.classList.add("bd-area-lit");
    area.addEventListener("click", (ev) => {
      ev.preventDefault();
      if (ctx.onPick) ctx.onPick(id);
    });
  }
  if (ctx.touched && ctx.touched.has(id)) area.classList.add("bd-touched");
  return { back: area, front };
}

// One location's build spaces, each drawn empty or with its tile, each a target with a text
// alternative. ``tileOf(t)`` gives the tile to draw for a built tile and ``tileText(t)`` what
// follows "<name> space <n>: " in its text; spaces count from 1 for a person.
export function buildSpaces(g, sps, layout, tiles, scale, name, tileOf, tileText, ctx) {
  for (const sp of sps) {
    const box = layout.spaces[sp.space].box;
    const t = tiles[sp.space];
    const where = `${name} space ${Number(sp.space.split(":")[1]) + 1}`;
    const el = t ? tileOnSpace(box, scale, tileOf(t)) : emptySpace(box, sp.icons, scale);
    const text = t ? `${where}: ${tileText(t)}` : `${where}: empty, ${sp.icons.map(industryName).join(" or ")}`;
    target(el, sp.space, text, ctx);
    g.appendChild(el);
  }
}

// A name centred on its point, kept inside the board's frame (Pittsburgh's Philadelphia
// sits on the right edge): the width is estimated from the letters.
export function label(text, xy, scale, cls = "bd-label", size = 15) {
  const half = String(text).length * size * 0.42;
  const x = Math.min(Math.max(xy[0] * scale.x, half + 8), scale.x - half - 8);
  return s("text", { x: f(x), y: f(xy[1] * scale.y), class: cls, "font-size": size, "text-anchor": "middle" }, text);
}

// --- panels ----------------------------------------------------------------------------

// The turn line: era, round, whose turn, actions left and the decision in words.
export function turnLine(v, ctx, eraText) {
  const who = v.decision && v.decision.seat != null ? v.decision.seat : v.turn_seat;
  const you = ctx.seat != null && who === ctx.seat;
  const box = h("div", { class: "bd-turn", role: "status" });
  box.appendChild(h("div", { class: "bd-era", text: eraRound(v, eraText) }));
  if (v.phase === "over") {
    box.appendChild(h("div", { class: "bd-prompt", text: "The game is over." }));
    return box;
  }
  if (who == null) {
    box.appendChild(h("div", { class: "bd-prompt", text: v.decision ? capital(v.decision.prompt) : "" }));
    return box;
  }
  const line = decisionLine(who, you, v.decision && v.decision.prompt);
  box.appendChild(line);
  if (v.turn_seat != null) {
    box.appendChild(h("div", { class: "bd-sub", text: `${seatLabel(v.turn_seat)}'s turn, ${v.actions_left} action${v.actions_left === 1 ? "" : "s"} left` }));
  }
  // Birmingham's rail era, between actions: whether a first rail could be followed by a
  // second on the board as it is, or the rule's sentence that blocks it (the view's guide).
  const dr = v.double_rail;
  if (dr && v.decision && v.decision.kind === "action") {
    box.appendChild(h("div", { class: "bd-sub bd-double-rail", text: dr.possible ? "A double rail is possible now." : `No double rail now: ${dr.reason || String(dr.blocked_by || "").replace(/_/g, " ")}.` }));
  }
  if (v.order) {
    const order = h("div", { class: "bd-order" }, h("span", { class: "bd-k", text: "Turn order " }));
    v.order.forEach((seat, i) => {
      if (i) order.appendChild(document.createTextNode(" → "));
      order.appendChild(seatBadge(seat));
    });
    box.appendChild(order);
  }
  return box;
}

// "Rail era · round 3"; once the game is over the view's round has moved past the last one
// ("round 11" of ten), so the line says the game ended instead.
export function eraRound(v, eraText) {
  return `${eraText} · ${v.phase === "over" ? "game over" : `round ${v.round ?? "?"}`}`;
}

function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : "";
}

// One panel per seat. `stacks(p)` gives rows [industry, text, targetId|null] for the
// industry stacks; `extra(p)` more stat rows.
export function playerPanels(v, ctx, opts) {
  const wrap = h("div", { class: "bd-players" });
  const bots = seatsOf(ctx);
  for (const p of v.players) {
    const me = ctx.seat === p.seat;
    const turn = v.turn_seat === p.seat && !matchOver(ctx);
    const card = h("section", {
      class: "bd-player" + (me ? " bd-me" : "") + (turn ? " bd-active" : ""),
      "data-seat": String(p.seat),
      style: `--seat:${seatColour(p.seat)}`,
      "aria-label": `${seatLabel(p.seat)}${me ? " (you)" : ""}`,
    });
    const bot = bots[p.seat] && bots[p.seat].bot ? ` · bot ${bots[p.seat].bot}` : "";
    card.appendChild(h("header", {}, seatBadge(p.seat), h("strong", { text: ` ${seatLabel(p.seat)}${me ? " (you)" : ""}` }),
      h("span", { class: "bd-sub", text: bot }), turn ? h("span", { class: "bd-turnmark", text: " ▶ to play" }) : null));
    const grid = h("div", { class: "bd-stats" });
    grid.appendChild(stat("Money", `${opts.money}${p.money}`));
    grid.appendChild(stat("Income", `${signed(p.income_level)} (space ${p.income_space})`));
    grid.appendChild(stat("VP", String(p.vp)));
    grid.appendChild(stat("Spent", `${opts.money}${p.spent}`));
    grid.appendChild(stat("Cards", `${p.hand_count} in hand`));
    for (const [k, val] of opts.extra ? opts.extra(p) : []) grid.appendChild(stat(k, val));
    card.appendChild(grid);
    const rows = opts.stacks ? opts.stacks(p) : [];
    if (rows.length) {
      const st = h("div", { class: "bd-stacks", "aria-label": "tiles left per industry" });
      for (const [ind, text, id, label] of rows) {
        const chip = h("span", { class: "bd-stack" }, industryChip(ind), h("span", { text }));
        if (id) target(chip, id, label, ctx);
        st.appendChild(chip);
      }
      card.appendChild(st);
    }
    if (opts.after) for (const el of opts.after(p)) if (el) card.appendChild(el);
    if (p.discards && p.discards.length) {
      const last = p.discards.slice(-3).map((c) => cardName(c, opts.names || {}));
      card.appendChild(h("div", { class: "bd-discards", text: `Discards (${p.discards.length}), last: ${last.join(", ")}${p.discards.length > 3 ? " …" : ""}` }));
    }
    wrap.appendChild(card);
  }
  return wrap;
}

export function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

// A card's name as people say it: "location:stoke_on_trent" → "Stoke-on-Trent" (the
// board's name for the place when `names` has it).
export function cardName(card, names = {}) {
  const [kind, rest] = String(card).split(":");
  if (kind === "wild") return `wild ${rest}`;
  if (kind === "industry") return rest.split("/").map((x) => titleCase(x)).join("/");
  return names[rest] || titleCase(rest || kind);
}

// Location id → printed name, from the board metadata (Birmingham's `locations`, a
// Pittsburgh side's `cities` and `merchant_locations`).
export function placeNames(board) {
  const all = [...(board.locations || []), ...(board.cities || []), ...(board.merchant_locations || [])];
  return Object.fromEntries(all.map((l) => [l.location, l.name]));
}

// The viewer's hand as clickable cards (`card:<name>`); for others only counts show.
export function handPanel(v, ctx, names = {}, title = "Your hand") {
  if (!v.hand) return null;
  const box = h("section", { class: "bd-hand", "aria-label": title });
  box.appendChild(h("h3", { text: `${title} (${v.hand.length})` }));
  const row = h("div", { class: "bd-cards" });
  v.hand.forEach((card) => {
    const [kind] = card.split(":");
    const name = cardName(card, names);
    const el = h("span", { class: `bd-card bd-card-${kind}` }, h("span", { class: "bd-card-kind", text: kind }), h("span", { class: "bd-card-name", text: name }));
    target(el, `card:${card}`, `card ${name} (${kind})`, ctx);
    row.appendChild(el);
  });
  box.appendChild(row);
  return box;
}
