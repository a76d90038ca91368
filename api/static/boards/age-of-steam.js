// Age of Steam: the hex map (flat-topped, odd-q: odd columns half a hex lower), terrain,
// cities in their goods colour with the cubes waiting there, towns, built track along the
// hex sides each tile joins, in its owner's colour with the seat number; the goods display,
// the actions, the auction and each seat's money, income, shares and engine.
//
// Target ids: "hex:<col>,<row>" (a hex: build, urbanize, a good's route), "cube:<col>,<row>:
// <colour>" (a good on a city), "newcity:<letter>", "display:<column>", "action:<name>",
// "engine" (raise your engine).
import { s, h, f, target, start, seatColour, seatInk, seatMark, seatLabel, seatBadge, stat, titleCase, viewOf, seatsOf, decisionLine, matchOver, amount } from "./kit.js";

const R = 34; // hex radius (centre to corner)
const SQ3 = Math.sqrt(3);
const SIDE_NAMES = ["N", "NE", "SE", "S", "SW", "NW"];
const EVEN_STEPS = [[0, -1], [1, -1], [1, 0], [0, 1], [-1, 0], [-1, -1]];
const ODD_STEPS = [[0, -1], [1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0]];
const GOODS = {
  red: { fill: "#d62d20", ink: "#fff", letter: "R" },
  blue: { fill: "#1f5fbf", ink: "#fff", letter: "B" },
  purple: { fill: "#7b3fa0", ink: "#fff", letter: "P" },
  yellow: { fill: "#f4c20d", ink: "#222", letter: "Y" },
  black: { fill: "#222222", ink: "#fff", letter: "K" },
};
const TERRAIN = { clear: "#d6e6b5", river: "#cfe2c0", mountain: "#c9b48f", water: "#9cc7e6", city: "#d6e6b5" };
const ACTION_NAMES = {
  first_move: "First Move", first_build: "First Build", engineer: "Engineer", locomotive: "Locomotive",
  urbanization: "Urbanization", production: "Production", turn_order: "Turn Order",
};

let lastCtx = null; // targetsOf and describeMove read the board from the last render

export function neighbour(col, row, side) {
  const [dc, dr] = (col % 2 ? ODD_STEPS : EVEN_STEPS)[side];
  return [col + dc, row + dr];
}

function centre(col, row) {
  return [R + 10 + col * 1.5 * R, 10 + (SQ3 / 2) * R + SQ3 * R * (row + (col % 2 ? 0.5 : 0))];
}

// Midpoint of side `side` (0 N, clockwise), scaled by k towards the centre.
function sidePoint(c, side, k = 1) {
  const a = ((-90 + 60 * side) * Math.PI) / 180;
  const d = (SQ3 / 2) * R * k;
  return [c[0] + d * Math.cos(a), c[1] + d * Math.sin(a)];
}

function hexPath(c, r = R) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (60 * i * Math.PI) / 180;
    pts.push([c[0] + r * Math.cos(a), c[1] + r * Math.sin(a)]);
  }
  return "M" + pts.map((p) => `${f(p[0])},${f(p[1])}`).join(" L") + " Z";
}

// The curve a track draws between two sides (a straight line for opposite sides).
function trackPath(c, a, b) {
  const p0 = sidePoint(c, a);
  const p3 = sidePoint(c, b);
  if ((a + 3) % 6 === b) return `M${f(p0[0])},${f(p0[1])} L${f(p3[0])},${f(p3[1])}`;
  const p1 = sidePoint(c, a, 0.42);
  const p2 = sidePoint(c, b, 0.42);
  return `M${f(p0[0])},${f(p0[1])} C${f(p1[0])},${f(p1[1])} ${f(p2[0])},${f(p2[1])} ${f(p3[0])},${f(p3[1])}`;
}

function spokePath(c, a) {
  const p0 = sidePoint(c, a);
  return `M${f(p0[0])},${f(p0[1])} L${f(c[0])},${f(c[1])}`;
}

// Static facts of the view's map, by hex key "col,row".
function mapOf(ctx) {
  const v = viewOf(ctx);
  const maps = ctx.game.metadata.board.maps;
  const m = maps[v.map || "rust_belt"] || Object.values(maps)[0];
  const towns = Object.fromEntries(m.towns.map((t) => [t.hex, t]));
  const cities = Object.fromEntries(m.cities.map((c) => [c.hex, c]));
  for (const c of v.cities || []) cities[c.hex] = { ...(cities[c.hex] || {}), ...c };
  const track = Object.fromEntries((v.track || []).map((t) => [t.hex, t]));
  return { m, towns, cities, track, v };
}

function placeName(map, key) {
  const c = map.cities[key];
  if (c) return c.new_city ? `${c.name} (New City ${c.new_city})` : c.name;
  const t = map.towns[key];
  return t ? `${t.name} (town)` : `hex ${key}${nearName(map, key)}`;
}

// A city or town by its name alone (a New City is the town it was): a good's stops.
function stopName(map, key) {
  const place = map.cities[key] || map.towns[key];
  return place && place.name ? place.name : placeName(map, key);
}

// The board prints no coordinates: a bare hex is told by the nearest named city or town
// ("hex 4,7 by Chicago"), the one farther north-west first when two are as near.
function nearName(map, key) {
  const [col, row] = key.split(",").map(Number);
  const cube = (c, r) => [c, r - (c - (c & 1)) / 2];
  const [x, z] = cube(col, row);
  let best = null;
  for (const [k, place] of [...Object.entries(map.cities), ...Object.entries(map.towns)]) {
    if (!place || !place.name) continue;
    const [c, r] = k.split(",").map(Number);
    const [x2, z2] = cube(c, r);
    const d = Math.max(Math.abs(x - x2), Math.abs(z - z2), Math.abs(x + z - x2 - z2));
    if (!best || d < best.d || (d === best.d && (c < best.c || (c === best.c && r < best.r)))) best = { d, c, r, name: place.name };
  }
  return best ? ` by ${best.name}` : "";
}

// A log line in the map's words: where a tile was laid, by the nearest place's name.
export function describeEvent(event, ctx) {
  const c = ctx && ctx.game && ctx.view ? ctx : lastCtx;
  if (event.type !== "track_built" || !c) return null;
  const p = event.payload || {};
  if (typeof p.hex !== "string") return null;
  const where = placeName(mapOf(c), p.hex);
  const kind = p.kind === "upgrade" || p.kind === "town_upgrade" ? "upgraded to" : p.kind === "redirect" ? "redirected with" : "laid";
  const who = ctx && typeof ctx.seatName === "function" && typeof p.seat === "number" ? `${ctx.seatName(p.seat)} ` : "";
  return `${who}${kind} ${String(p.tile).replace(/_/g, " ")} on ${where}${typeof p.cost === "number" ? ` for $${p.cost}` : ""}`;
}

// The log's currency (api/static/log.js).
export const currency = "$";

export function render(svg, panels, ctx) {
  lastCtx = ctx;
  const map = mapOf(ctx);
  const { m, v } = map;
  let maxCol = 0;
  let maxRow = 0;
  for (const [col, row] of m.hexes) { maxCol = Math.max(maxCol, col); maxRow = Math.max(maxRow, row); }
  const width = R * 2 + 20 + maxCol * 1.5 * R;
  const height = SQ3 * R * (maxRow + 1.5) + 20;
  start(svg, panels, `0 0 ${f(width)} ${f(height)}`, `Age of Steam: ${m.title} map`);
  svg.appendChild(s("rect", { x: 0, y: 0, width: f(width), height: f(height), class: "as-sea", rx: 10 }));

  const terrainG = s("g", { class: "as-terrain" });
  const trackG = s("g", { class: "as-track" });
  const placesG = s("g", { class: "as-places" });
  const hexG = s("g", { class: "as-hexes" });
  const cubesG = s("g", { class: "as-goods" });
  // Names lie above the hexes' outlines (a lit or last-touched hex draws a thick one that
  // would cross a name wider than its hex); clicks pass through them to the hex.
  const namesG = s("g", { class: "as-names" });
  for (const [col, row, terrain] of m.hexes) {
    const key = `${col},${row}`;
    const c = centre(col, row);
    const city = map.cities[key];
    const town = map.towns[key];
    const t = map.track[key];
    const g = s("g", { class: `as-hex as-${terrain}` });
    g.appendChild(s("path", { d: hexPath(c), fill: city ? GOODS[city.color]?.fill || "#888" : TERRAIN[terrain] || "#ccc", class: "as-hexshape" }));
    if (terrain === "river") {
      g.appendChild(s("path", { d: `M${f(c[0] - R * 0.75)},${f(c[1] + 4)} q${f(R * 0.25)},-8 ${f(R * 0.5)},0 t${f(R * 0.5)},0 t${f(R * 0.5)},0`, class: "as-river" }));
    } else if (terrain === "mountain") {
      g.appendChild(s("path", { d: `M${f(c[0] - 16)},${f(c[1] + 10)} L${f(c[0] - 5)},${f(c[1] - 10)} L${f(c[0] + 2)},${f(c[1] + 1)} L${f(c[0] + 7)},${f(c[1] - 6)} L${f(c[0] + 17)},${f(c[1] + 10)} Z`, class: "as-mountain" }));
    } else if (terrain === "water") {
      g.appendChild(s("path", { d: `M${f(c[0] - 12)},${f(c[1])} q6,-5 12,0 t12,0`, class: "as-wave" }));
    }
    terrainG.appendChild(g);
    // The clickable hex lies on top of everything (transparent), so track never hides it.
    const hit = s("path", { d: hexPath(c, R - 1.5), class: "as-hit" });
    // The hex's key in brackets after a name: "takes red goods 5,9" read as goods numbered 5,9.
    const what = city ? `city ${placeName(map, key)} (hex ${key}), takes ${city.color} goods` : town ? `town ${town.name} (hex ${key})` : `${terrain} hex ${key}`;
    const trackText = t ? `, track: ${t.tile} joining ${t.sections.map((sc) => sc.sides.map((x) => SIDE_NAMES[x]).join("–")).join(" and ")}` : "";
    target(hit, `hex:${key}`, `${what}${trackText}`, ctx);
    hexG.appendChild(hit);
    if (t) trackG.appendChild(drawTrack(c, t, !!town));
    if (city) {
      placesG.appendChild(drawCity(c, city, namesG));
      cubesG.appendChild(cubeRow(c, key, city.cubes || {}, ctx, 11, placeName(map, key)));
    }
    else if (town) placesG.appendChild(drawTown(c, town, !!t, namesG));
  }
  svg.appendChild(terrainG);
  svg.appendChild(trackG);
  svg.appendChild(openEnds(v));
  svg.appendChild(placesG);
  svg.appendChild(hexG);
  svg.appendChild(namesG);
  keepNamesOnBoard(namesG, width);
  for (const [key, counts] of Object.entries(v.land_goods || {})) {
    const [col, row] = key.split(",").map(Number);
    cubesG.appendChild(cubeRow(centre(col, row), key, counts, ctx, 10, placeName(map, key)));
  }
  svg.appendChild(cubesG);
  if (ctx.preview) svg.appendChild(previewOf(ctx.preview, ctx, map));

  panels.appendChild(turnPanel(v, ctx));
  panels.appendChild(playersPanel(v, ctx));
  panels.appendChild(actionsPanel(v, m, ctx));
  if (v.auction) panels.appendChild(auctionPanel(v));
  if ((m.display || []).length) panels.appendChild(displayPanel(v, m, ctx));
  panels.appendChild(supplyPanel(v, m, ctx));
}

function drawTrack(c, t, town) {
  const g = s("g", { class: "as-tile" });
  for (const sc of t.sections) {
    const d = sc.sides.length === 1 ? spokePath(c, sc.sides[0]) : trackPath(c, sc.sides[0], sc.sides[1]);
    const owned = sc.owner != null;
    g.appendChild(s("path", { d, class: "as-rail-casing" }));
    g.appendChild(s("path", { d, class: owned ? "as-rail" : "as-rail as-ownerless", stroke: owned ? seatColour(sc.owner) : "#8c8c8c" }));
    g.appendChild(s("path", { d, class: "as-ties" }));
  }
  // One seat mark per owner on the tile, at the middle of that owner's first section.
  const seen = new Set();
  for (const sc of t.sections) {
    if (sc.owner == null || seen.has(sc.owner)) continue;
    seen.add(sc.owner);
    const mid = sc.sides.length === 1 ? sidePoint(c, sc.sides[0], 0.55) : midOf(c, sc.sides[0], sc.sides[1]);
    g.appendChild(s("circle", { cx: f(mid[0]), cy: f(mid[1]), r: 7, fill: seatColour(sc.owner), stroke: "#111", "stroke-width": 1 }));
    g.appendChild(s("text", { x: f(mid[0]), y: f(mid[1] + 3.6), "font-size": 10, "text-anchor": "middle", fill: seatInk(sc.owner), "font-weight": 700 }, seatMark(sc.owner)));
  }
  if (town) g.appendChild(s("circle", { cx: f(c[0]), cy: f(c[1]), r: 8, class: "as-town-disc" }));
  return g;
}

function midOf(c, a, b) {
  if ((a + 3) % 6 === b) {
    const p = sidePoint(c, a, 0.0);
    return [p[0], p[1]];
  }
  const p0 = sidePoint(c, a);
  const p3 = sidePoint(c, b);
  const p1 = sidePoint(c, a, 0.42);
  const p2 = sidePoint(c, b, 0.42);
  return [(p0[0] + 3 * p1[0] + 3 * p2[0] + p3[0]) / 8, (p0[1] + 3 * p1[1] + 3 * p2[1] + p3[1]) / 8];
}

// Unfinished track: a bar across the side its last tile points out of.
function openEnds(v) {
  const g = s("g", { class: "as-open" });
  for (const link of v.links || []) {
    if (!link.open_end) continue;
    const [key, side] = link.open_end;
    const [col, row] = key.split(",").map(Number);
    const c = centre(col, row);
    const p = sidePoint(c, side, 0.93);
    const a = -90 + 60 * side;
    g.appendChild(s("rect", { x: f(p[0] - 9), y: f(p[1] - 2.5), width: 18, height: 5, transform: `rotate(${a + 90} ${f(p[0])} ${f(p[1])})`, class: "as-open-end", fill: seatColour(link.owner) }));
  }
  return g;
}

// A name wider than the distance to the board's edge (a place in the first or last column)
// slides inwards so it is not cut off. Its width is estimated from its letters (bold sans
// averages under 0.62em a letter), not measured: the board's style sheet may still be
// loading at the first drawing, and a measure in the browser's default font is too wide.
const NAME_SIZES = { "as-city-name": 9.5, "as-town-name": 9 }; // px, as in boards.css
function keepNamesOnBoard(namesG, width) {
  const margin = 3;
  for (const text of namesG.querySelectorAll("text")) {
    const half = (text.textContent.length * 0.62 * NAME_SIZES[text.getAttribute("class")]) / 2;
    const x = Number(text.getAttribute("x"));
    const inside = Math.min(Math.max(x, half + margin), width - half - margin);
    if (inside !== x) text.setAttribute("x", f(inside));
  }
}

function drawCity(c, city, namesG) {
  const g = s("g", { class: "as-city" });
  g.appendChild(s("path", { d: hexPath(c, R * 0.78), class: "as-city-inner" }));
  const name = city.new_city ? `${city.name} (${city.new_city})` : city.name;
  namesG.appendChild(s("text", { x: f(c[0]), y: f(c[1] - R * 0.47), "text-anchor": "middle", class: "as-city-name" }, name));
  // The growth die that feeds this city: a small die face at the bottom.
  if (city.die != null) {
    const [dx, dy] = [c[0], c[1] + R * 0.62];
    g.appendChild(s("rect", { x: f(dx - 6.5), y: f(dy - 6.5), width: 13, height: 13, rx: 2.5, class: `as-die-face as-die-${city.dice}` }));
    g.appendChild(s("text", { x: f(dx), y: f(dy + 3.6), "text-anchor": "middle", class: `as-die as-die-${city.dice}` }, String(city.die)));
  }
  return g;
}

// The goods on a hex, one clickable cube per colour (a count when there are several).
function cubeRow(c, key, counts, ctx, size, where) {
  const g = s("g", { class: "as-cubes" });
  const colours = Object.keys(counts).filter((k) => counts[k] > 0);
  const cubes = [];
  for (const col of colours) for (let i = 0; i < counts[col]; i++) cubes.push(col);
  const perRow = 4;
  const rows = Math.ceil(cubes.length / perRow);
  cubes.forEach((col, i) => {
    const r = Math.floor(i / perRow);
    const inRow = Math.min(perRow, cubes.length - r * perRow);
    const x = c[0] - (inRow * (size + 2)) / 2 + (i % perRow) * (size + 2);
    const y = c[1] - (rows > 1 ? size : size * 0.7) + r * (size + 2);
    const st = GOODS[col] || { fill: "#999", ink: "#000", letter: "?" };
    const cube = s("g", {},
      s("rect", { x: f(x), y: f(y), width: size, height: size, rx: 1.5, fill: st.fill, stroke: col === "black" ? "#bbb" : "#111", "stroke-width": 1 }),
      s("text", { x: f(x + size / 2), y: f(y + size * 0.78), "font-size": f(size * 0.72), "text-anchor": "middle", fill: st.ink, "font-weight": 700 }, st.letter));
    target(cube, `cube:${key}:${col}`, `${col} good at ${where}`, ctx);
    g.appendChild(cube);
  });
  return g;
}

function drawTown(c, town, hasTrack, namesG) {
  const g = s("g", { class: "as-town" });
  if (!hasTrack) g.appendChild(s("circle", { cx: f(c[0]), cy: f(c[1]), r: 9, class: "as-town-dot" }));
  namesG.appendChild(s("text", { x: f(c[0]), y: f(c[1] + R * 0.7), "text-anchor": "middle", class: "as-town-name" }, town.name));
  return g;
}

// A move drawn before it is posted (ctx.preview): the tile a build leaves on its hex, or
// the path a good takes.
function previewOf(move, ctx, map) {
  const g = s("g", { class: "as-preview", "aria-hidden": "true" });
  const seat = ctx.seat;
  if (move.type === "build") {
    const tile = ctx.game.metadata.board.tiles.find((t) => t.tile === move.tile);
    const key = `${move.col},${move.row}`;
    const c = centre(move.col, move.row);
    if (!tile) return g;
    const onTown = !!map.towns[key];
    const rot = (onTown && tile.class !== "town" ? tile.on_town : tile.rotations).find((x) => x.rotation === move.rotation);
    if (!rot) return g;
    g.appendChild(s("path", { d: hexPath(c, R - 2), class: "as-preview-hex" }));
    for (const tr of rot.tracks || []) g.appendChild(s("path", { d: trackPath(c, tr[0], tr[1]), class: "as-preview-track", stroke: seatColour(seat) }));
    for (const sp of rot.spokes || []) g.appendChild(s("path", { d: spokePath(c, sp), class: "as-preview-track", stroke: seatColour(seat) }));
    if (onTown) g.appendChild(s("circle", { cx: f(c[0]), cy: f(c[1]), r: 8, class: "as-town-disc" }));
  } else if (move.type === "move_good") {
    const r = route(move, ctx);
    const pts = [centre(move.col, move.row), ...r.hexes.map((k) => centre(...k.split(",").map(Number)))];
    g.appendChild(s("path", { d: "M" + pts.map((p) => `${f(p[0])},${f(p[1])}`).join(" L"), class: "as-preview-path", stroke: (GOODS[move.color] || {}).fill || "#000" }));
    for (const stop of r.stops) {
      const p = centre(...stop.split(",").map(Number));
      g.appendChild(s("circle", { cx: f(p[0]), cy: f(p[1]), r: R * 0.8, class: "as-preview-stop" }));
    }
  }
  return g;
}

// --- panels ------------------------------------------------------------------------------

function turnPanel(v, ctx) {
  const d = v.decision || {};
  const box = h("div", { class: "bd-turn", role: "status" });
  box.appendChild(h("div", { class: "bd-era", text: `Turn ${v.turn} of ${v.last_turn} · ${v.step}` }));
  if (d.seat != null) {
    const you = ctx.seat === d.seat;
    box.appendChild(decisionLine(d.seat, you, d.prompt));
  } else {
    // A sentence of its own ("The game is over."), as the seat's prompts read after a name.
    const text = d.prompt ? `${d.prompt[0].toUpperCase()}${d.prompt.slice(1)}${/[.!?]$/.test(d.prompt) ? "" : "."}` : "";
    box.appendChild(h("div", { class: "bd-prompt", text }));
  }
  if (v.final_scores) {
    const scores = v.final_scores.map((n, seat) => `${seatLabel(seat)} ${n}`).join(" · ");
    box.appendChild(h("div", { class: "bd-prompt", text: `Final scores: ${scores}` }));
  }
  if (v.builds_left) box.appendChild(h("div", { class: "bd-sub", text: `${v.builds_left} tile(s) left to lay this build` }));
  const order = h("div", { class: "bd-order" }, h("span", { class: "bd-k", text: "Player order " }));
  (v.order || []).forEach((seat, i) => {
    if (i) order.appendChild(document.createTextNode(" → "));
    order.appendChild(seatBadge(seat));
  });
  box.appendChild(order);
  return box;
}

function playersPanel(v, ctx) {
  const wrap = h("div", { class: "bd-players" });
  const bots = seatsOf(ctx);
  for (const p of v.players || []) {
    const me = ctx.seat === p.seat;
    const acting = v.to_act === p.seat && !matchOver(ctx);
    const card = h("section", { class: "bd-player" + (me ? " bd-me" : "") + (acting ? " bd-active" : ""), "data-seat": String(p.seat), style: `--seat:${seatColour(p.seat)}`, "aria-label": `${seatLabel(p.seat)}${me ? " (you)" : ""}` });
    const bot = bots[p.seat] && bots[p.seat].bot ? ` · bot ${bots[p.seat].bot}` : "";
    card.appendChild(h("header", {}, seatBadge(p.seat), h("strong", { text: ` ${seatLabel(p.seat)}${me ? " (you)" : ""}` }), h("span", { class: "bd-sub", text: bot }),
      acting ? h("span", { class: "bd-turnmark", text: " ▶ to act" }) : null, p.eliminated ? h("span", { class: "bd-out", text: " bankrupt" }) : null));
    const grid = h("div", { class: "bd-stats" });
    grid.appendChild(stat("Money", amount("$", p.money)));
    grid.appendChild(stat("Income", amount("$", p.income)));
    grid.appendChild(stat("Shares", `${p.shares} (−$${p.shares}/turn)`));
    const eng = stat("Engine", `${p.engine} link${p.engine === 1 ? "" : "s"}${p.engine_raised ? " (raised)" : ""}`);
    if (me) target(eng, "engine", `your engine: ${p.engine} links; raise it by one`, ctx);
    grid.appendChild(eng);
    grid.appendChild(stat("Action", p.action ? ACTION_NAMES[p.action] || titleCase(p.action) : "—"));
    grid.appendChild(stat("Expenses", `$${p.shares + p.engine}/turn`));
    card.appendChild(grid);
    wrap.appendChild(card);
  }
  return wrap;
}

function actionsPanel(v, m, ctx) {
  const box = h("section", { class: "bd-section", "aria-label": "actions" }, h("h3", { text: "Actions" }));
  const row = h("div", { class: "bd-row" });
  for (const a of m.actions) {
    const taker = v.actions ? v.actions[a] : undefined;
    const el = h("span", { class: "as-action" + (taker != null ? " as-taken" : "") }, taker != null ? seatBadge(taker) : null, ` ${ACTION_NAMES[a] || titleCase(a)}`);
    target(el, `action:${a}`, `${ACTION_NAMES[a] || a}${taker != null ? `, taken by ${seatLabel(taker)}` : ", open"}`, ctx);
    row.appendChild(el);
  }
  box.appendChild(row);
  return box;
}

function auctionPanel(v) {
  const a = v.auction;
  const box = h("section", { class: "bd-section", "aria-label": "turn order auction" }, h("h3", { text: "Turn order auction" }));
  const row = h("div", { class: "bd-row" });
  for (const seat of a.bidders) {
    const bid = a.bids[String(seat)];
    const out = a.dropped_out.includes(seat);
    row.appendChild(h("span", { class: "as-bid" + (out ? " as-out" : "") + (a.high_seat === seat ? " as-high" : "") }, seatBadge(seat), ` ${out ? "out" : bid != null ? `$${bid}` : "—"}`));
  }
  box.appendChild(row);
  box.appendChild(h("div", { class: "bd-sub", text: `High bid $${a.high}${a.high_seat != null ? ` by ${seatLabel(a.high_seat)}` : ""}${a.free_pass_seat != null ? ` · ${seatLabel(a.free_pass_seat)} has a free pass` : ""}` }));
  return box;
}

// The goods display: one column per die face (light and dark dice) and the New City rows,
// cubes bottom first as the view lists them.
function displayPanel(v, m, ctx) {
  const box = h("section", { class: "bd-section", "aria-label": "goods display" }, h("h3", { text: "Goods display" }));
  const cols = m.display || [];
  const numbered = cols.filter((c) => !c.new_city);
  const lettered = cols.filter((c) => c.new_city);
  const cw = 30;
  const height = 3 * 18 + 36;
  const width = Math.max(numbered.length, lettered.length) * cw + 10;
  const sv = s("svg", { viewBox: `0 0 ${width} ${height * (lettered.length ? 2 : 1)}`, class: "as-display", role: "group", "aria-label": "goods display" });
  const draw = (list, y0) => list.forEach((c, i) => {
    const x = 5 + i * cw;
    const cubes = (v.display || {})[c.column] || [];
    const g = s("g", {});
    g.appendChild(s("rect", { x: f(x), y: y0, width: cw - 4, height: c.spaces * 18 + 4, rx: 3, class: `as-dcol as-dcol-${c.dice}` }));
    for (let k = 0; k < c.spaces; k++) {
      const cy = y0 + 2 + (c.spaces - 1 - k) * 18;
      const col = cubes[k];
      if (col) {
        const st = GOODS[col];
        g.appendChild(s("rect", { x: f(x + 5), y: cy + 2, width: 14, height: 14, rx: 2, fill: st.fill, stroke: "#111" }));
        g.appendChild(s("text", { x: f(x + 12), y: cy + 13, "font-size": 10, "text-anchor": "middle", fill: st.ink, "font-weight": 700 }, st.letter));
      } else {
        g.appendChild(s("rect", { x: f(x + 5), y: cy + 2, width: 14, height: 14, rx: 2, class: "as-dempty" }));
      }
    }
    g.appendChild(s("text", { x: f(x + (cw - 4) / 2), y: y0 + c.spaces * 18 + 18, "text-anchor": "middle", class: "as-dlabel" }, c.new_city ? c.new_city : `${c.die}`));
    target(g, `display:${c.column}`, `display column ${c.column}: ${cubes.length ? cubes.join(", ") : "empty"} (${c.spaces - cubes.length} free)`, ctx);
    sv.appendChild(g);
  });
  draw(numbered, 4);
  if (lettered.length) draw(lettered, height + 4);
  box.appendChild(sv);
  const dice = [...new Set(numbered.map((c) => c.dice))].join(" then ");
  box.appendChild(h("div", { class: "bd-sub", text: `Columns by die face (${dice} dice)${lettered.length ? "; lettered columns supply the New Cities" : ""}.` }));
  if (v.production && v.production.length) box.appendChild(h("div", { class: "bd-prompt", text: `Drawn by Production, to place: ${v.production.join(", ")}` }));
  return box;
}

function supplyPanel(v, m, ctx) {
  const box = h("section", { class: "bd-section", "aria-label": "supply" }, h("h3", { text: "Supply" }));
  const bag = Object.entries(v.bag || {}).map(([c, n]) => `${n} ${c}`).join(", ");
  box.appendChild(h("div", { text: `Bag: ${v.bag_total} cubes (${bag})` }));
  box.appendChild(h("div", { text: `Town discs left: ${v.town_discs_left}` }));
  const usedCities = new Set((v.cities || []).filter((c) => c.new_city).map((c) => c.new_city));
  const nc = h("div", { class: "bd-row" }, h("span", { class: "bd-k", text: "New Cities: " }));
  for (const c of m.new_cities || []) {
    const used = usedCities.has(c.letter);
    const st = GOODS[c.color];
    const el = h("span", { class: "as-newcity" + (used ? " as-used" : ""), style: `background:${st.fill};color:${st.ink}`, text: c.letter });
    target(el, `newcity:${c.letter}`, `New City ${c.letter} (${c.color})${used ? ", placed" : ""}`, ctx);
    nc.appendChild(el);
  }
  box.appendChild(nc);
  const tiles = Object.entries(v.tiles || {}).filter(([, n]) => n > 0).map(([t, n]) => `${t.replace(/_/g, " ")} ${n}`).join(" · ");
  box.appendChild(h("div", { class: "bd-sub", text: `Track tiles left: ${tiles}` }));
  return box;
}

// --- moves -------------------------------------------------------------------------------

// Follow a good from `start` out of each side in `steps`: every hex it passes, the city or
// town each link ends at and the link's owner (from the view's track).
// A seat out of the game (bankrupt), for its player's move card; null while it plays. The
// table said "Waiting: Seat 2 is deciding…" to the end of the match instead.
export function seatOut(ctx) {
  const v = viewOf(ctx);
  const me = (v.players || []).find((p) => p.seat === ctx.seat);
  if (!me || !me.eliminated) return null;
  return `Your railroad went bankrupt${me.out_turn ? ` in turn ${me.out_turn}` : ""} and is out of the game. The others play on to the end; you may watch.`;
}

export function route(move, ctx) {
  const c = ctx || lastCtx;
  const out = { hexes: [], stops: [], owners: [] };
  if (!c) return out;
  const map = mapOf(c);
  let [col, row] = [move.col, move.row];
  for (const side of move.steps || []) {
    let s0 = side;
    // A link that leaves a town straight into the next city lies on the town's hex alone:
    // its owner is the town's spoke on that side (reading only the hexes entered named
    // nobody, and the list said no one earned what the server then paid).
    const here = map.track[`${col},${row}`];
    const spoke = here ? here.sections.find((sc) => sc.sides.includes(side)) : null;
    let owner = spoke ? spoke.owner : null;
    let guard = 0;
    for (;;) {
      [col, row] = neighbour(col, row, s0);
      const key = `${col},${row}`;
      out.hexes.push(key);
      const entry = (s0 + 3) % 6;
      if (map.cities[key]) break;
      const t = map.track[key];
      if (!t) break;
      const sec = t.sections.find((sc) => sc.sides.includes(entry));
      if (!sec) break;
      if (owner == null) owner = sec.owner;
      if (t.town) break;
      s0 = sec.sides[0] === entry ? sec.sides[1] : sec.sides[0];
      if (++guard > 60) break;
    }
    out.stops.push(`${col},${row}`);
    out.owners.push(owner);
  }
  return out;
}

export function targetsOf(move, ctx) {
  switch (move.type) {
    case "build":
      return [`hex:${move.col},${move.row}`];
    case "urbanize":
      return [`hex:${move.col},${move.row}`, `newcity:${move.city}`];
    case "move_good": {
      const from = `${move.col},${move.row}`;
      const r = route(move, ctx);
      return [`cube:${from}:${move.color}`, `hex:${from}`, ...new Set(r.hexes.map((x) => `hex:${x}`))];
    }
    case "place_cube":
      return [`display:${move.column}`];
    case "select_action":
      return [`action:${move.action}`];
    case "raise_engine":
      return ["engine"];
    default:
      return [];
  }
}

export function describeMove(move, ctx) {
  const c = ctx || lastCtx;
  const map = c ? mapOf(c) : null;
  const name = (key) => (map ? placeName(map, key) : key);
  switch (move.type) {
    case "issue_shares":
      return move.count ? `Issue ${move.count} share${move.count === 1 ? "" : "s"} (+$${5 * move.count}, +$${move.count} expenses per turn)` : "Issue no shares";
    case "bid":
      return `Bid $${move.amount}`;
    case "drop_out":
      return "Drop out of the auction";
    case "turn_order_pass":
      return "Pass once (Turn Order)";
    case "buy_first":
      return "Pay $5 to go first";
    case "decline_first":
      return "Decline to go first";
    case "select_action":
      return `Take ${ACTION_NAMES[move.action] || move.action}`;
    case "urbanize":
      return `Urbanize ${name(`${move.col},${move.row}`)} into New City ${move.city}`;
    case "build": {
      const key = `${move.col},${move.row}`;
      const cost = map ? buildCost(c, move) : null;
      return `Lay ${move.tile.replace(/_/g, " ")} on ${name(key)}${map ? ` (${picture(c, move)})` : ""}${cost != null ? ` for $${cost}` : ""}`;
    }
    case "done_building":
      return "Done building";
    case "move_good": {
      // The route stop by stop, by the places' bare names: a Move Goods list is read whole
      // in the move card, where "from … to … via …" and "(New City E)" made three lines.
      const r = route(move, c);
      const stop = (key) => (map ? stopName(map, key) : key);
      const stops = [`${move.col},${move.row}`, ...r.stops].map(stop);
      if (!r.stops.length) stops.push("?");
      const pay = {};
      for (const o of r.owners) if (o != null) pay[o] = (pay[o] || 0) + 1;
      const earn = Object.entries(pay).map(([seat, n]) => `${c && c.seat === Number(seat) ? "you" : seatLabel(Number(seat))} +${n}`).join(", ");
      return `Move ${move.color} ${stops.join(" → ")}: ${move.steps.length} link${move.steps.length === 1 ? "" : "s"}${earn ? ` (${earn})` : ""}`;
    }
    case "raise_engine":
      return "Raise your engine by one link";
    case "pass_move":
      return "Pass (move no good)";
    case "place_cube": {
      // The column as the display prints it (a die face, or a New City's letter), and the
      // city that die supplies.
      const col = map ? (map.m.display || []).find((d) => d.column === move.column) : null;
      if (!col) return `Place the cube on display column ${move.column}`;
      if (col.new_city) return `Place the cube in New City ${col.new_city}'s column of the goods display`;
      const city = map.m.cities.find((c) => c.dice === col.dice && c.die === col.die);
      return `Place the cube in the goods display's ${col.dice} ${col.die} column${city ? ` (${city.name})` : ""}`;
    }
    default:
      return JSON.stringify(move);
  }
}

// What a build costs, from the price table the game publishes (metadata.board.costs) where
// the view leaves no doubt which price applies: a tile on an empty hex (its class's price
// and its terrain's extra) or on a town without track (the base and a price per exit), and
// a town's upgrade. A tile replacing track is an upgrade or a redirect: the server decides
// which, so no price is shown.
function buildCost(ctx, move) {
  const board = ctx.game.metadata.board;
  const costs = board.costs;
  const tile = board.tiles.find((t) => t.tile === move.tile);
  if (!costs || !tile) return null;
  const map = mapOf(ctx);
  const key = `${move.col},${move.row}`;
  if (map.towns[key]) {
    if (map.track[key]) return costs.upgrade_town ?? null;
    const spokes = townSpokes(tile, move.rotation);
    return spokes.length ? costs.town_base + costs.town_per_side * spokes.length : null;
  }
  if (map.track[key]) return null;
  const hex = map.m.hexes.find(([col, row]) => col === move.col && row === move.row);
  const base = costs[tile.class];
  const extra = hex ? costs.terrain_extra[hex[2]] : null;
  return typeof base === "number" && typeof extra === "number" ? base + extra : null;
}

function townSpokes(tile, rotation) {
  const rot = (tile.on_town || []).find((x) => x.rotation === rotation) || (tile.rotations || []).find((x) => x.rotation === rotation);
  return rot ? rot.spokes || (rot.tracks || []).flat() : [];
}

// The sides a build's tile joins after rotation, in words ("N–SE").
function picture(ctx, move) {
  const tile = ctx.game.metadata.board.tiles.find((t) => t.tile === move.tile);
  if (!tile) return `rotation ${move.rotation}`;
  const map = mapOf(ctx);
  const key = `${move.col},${move.row}`;
  if (map.towns[key]) {
    const spokes = townSpokes(tile, move.rotation);
    return `town exits ${spokes.map((x) => SIDE_NAMES[x]).join(", ")}`;
  }
  const rot = tile.rotations.find((x) => x.rotation === move.rotation);
  return rot && rot.tracks ? rot.tracks.map((tr) => tr.map((x) => SIDE_NAMES[x]).join("–")).join(" + ") : `rotation ${move.rotation}`;
}
