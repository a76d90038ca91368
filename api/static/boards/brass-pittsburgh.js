// Brass: Pittsburgh: the board side the view names, drawn from its schematic layout
// (metadata.board.sides.<side>.layout, our own provisional design), with tiles, trains,
// pipelines, oilfields, merchants and markets on it; the player panels with each seat's mat.
//
// Target ids: city ("erie"), industry space ("erie:0"), merchant space ("chicago:0") and
// merchant ("chicago"), railroad line ("erie~meadville"), pipeline route
// ("oil_creek~titusville"), oilfield ("oil_creek"), card ("card:location:erie"), mat space
// ("tile:K1"), link tile in your supply ("link:LT", "link:HT_COKE"), market
// ("market:ci_franklin"), Vanderbilt ("vanderbilt"), a whiskey build ("whiskey"), a
// Quality Rewards tile ("quality:QR_3_VP").
import { s, h, f, target, start, seatColour, seatInk, seatMark, seatLabel, roman, titleCase, viewOf, stat } from "./kit.js";
import {
  INDUSTRY, industryBadge, industryName, tileOnSpace, linkTrack, linkTile, locationArea, locationLayers, label, buildSpaces,
  turnLine, playerPanels, handPanel, cardName, placeNames, cubes, industryChip, RESOURCE, costText,
} from "./brass-common.js";

const W = 1300;
Object.assign(INDUSTRY, {
  polyphase_alternator: { code: "PA", fill: "#f1e05a", ink: "#2b2600", name: "polyphase alternator" },
  locomotive_works: { code: "LW", fill: "#8d6e63", ink: "#ffffff", name: "locomotive works" },
});

function rewardText(rs) {
  return (rs || []).map((r) => {
    switch (r.type) {
      case "money": return `$${r.amount}`;
      case "vp": return `${r.amount} VP`;
      case "income_spaces": return `+${r.amount} income`;
      case "whiskey": return `${r.amount} whiskey`;
      case "free_develop": return "free develop";
      default: return titleCase(r.type);
    }
  }).join(" + ");
}

function linkTileInfo(board, id) {
  if (id === board.link_tiles.light_train) return { name: "light train", kind: "light" };
  const ht = board.link_tiles.heavy_trains.find((t) => t.id === id);
  if (ht) return { name: `heavy train (${ht.type.replace(/_/g, " ")}${Object.keys(ht.carries).length ? `: ${Object.entries(ht.carries).map(([k, n]) => `${n} ${k}`).join(", ")}` : ""})`, kind: "heavy", info: ht };
  const pl = board.link_tiles.pipelines.find((t) => t.id === id);
  if (pl) return { name: `pipeline (${pl.type}${pl.per_barrel ? `: ${rewardText([pl.per_barrel])} per barrel` : ""})`, kind: "pipeline", info: pl };
  return { name: id, kind: "light" };
}

function sideOf(ctx) {
  const v = viewOf(ctx);
  const sides = ctx.game.metadata.board.sides;
  return sides[v.side] || sides.main;
}

// The log's currency (api/static/log.js).
export const currency = "$";

// Log lines that name a mat tile say the tile ("built kerosene refinery II at Erie 1"), not
// its id on the mat ("built K2"), and a new era its deal; other events read as the shared
// log says them.
export function describeEvent(event, ctx) {
  const p = event.payload || {};
  if (event.type === "era_began" && typeof p.era === "number") {
    const hands = [...new Set(p.hand_counts || [])];
    return `Era ${p.era} begins${hands.length === 1 ? `: ${hands[0]} cards in each hand, ${p.deck_count} in the deck` : ""}`;
  }
  if (!["tile_placed", "tile_taken", "tile_developed"].includes(event.type) || typeof p.tile !== "string") return null;
  const mat = ctx && ctx.game && ctx.game.metadata.board.mat;
  const t = mat && mat.tiles.find((x) => x.id === p.tile);
  if (!t) return null;
  const name = `${industryName(t.industry)}${t.level ? ` ${roman(t.level)}` : ""}`;
  const who = typeof p.seat === "number" && ctx.seatName ? `${ctx.seatName(p.seat)} ` : "";
  if (event.type === "tile_taken") return `${who}took ${name} from the mat`;
  if (event.type === "tile_developed") return `${who}developed ${name}`;
  const [loc, n] = String(p.space || "").split(":");
  const names = ctx.names || {};
  const where = p.space ? `${names[loc] || titleCase(loc)}${n !== undefined ? ` ${Number(n) + 1}` : ""}` : (names[p.oilfield] || titleCase(p.oilfield || ""));
  return `${who}built ${name}${where ? ` at ${where}` : ""}`;
}

export function render(svg, panels, ctx) {
  const board = ctx.game.metadata.board;
  const side = sideOf(ctx);
  const layout = side.layout;
  const v = viewOf(ctx);
  const scale = { x: W, y: W / layout.aspect };
  start(svg, panels, `0 0 ${W} ${f(scale.y)}`, `Brass: Pittsburgh board (${v.side === "two_player" ? "2-player side" : "main side"})`);
  svg.appendChild(s("rect", { x: 0, y: 0, width: W, height: f(scale.y), class: "bd-ground bp-ground", rx: 14 }));

  const names = Object.fromEntries([...side.cities, ...side.merchant_locations].map((c) => [c.location, c.name]));
  const oilNames = Object.fromEntries(side.oilfields.map((o) => [o.oilfield, o.name]));
  const lines = Object.fromEntries((v.lines || []).map((l) => [l.line, l]));
  const pipes = Object.fromEntries((v.pipelines || []).map((p) => [p.route, p]));
  const tiles = Object.fromEntries((v.tiles || []).map((t) => [t.space, t]));
  const oilState = Object.fromEntries((v.oilfields || []).map((o) => [o.oilfield, o]));

  // Pipeline routes and railroad lines, under the places.
  const linesG = s("g", { class: "bd-lines" });
  for (const r of side.pipeline_routes) {
    const place = layout.pipeline_routes[r.route];
    const pts = place.route.map((p) => [p[0] * scale.x, p[1] * scale.y]);
    const g = s("g", { class: "bp-pipe" });
    const d = `M${f(pts[0][0])},${f(pts[0][1])} L${f(pts[pts.length - 1][0])},${f(pts[pts.length - 1][1])}`;
    g.appendChild(s("path", { d, class: "bp-pipe-line" }));
    g.appendChild(s("path", { d, class: "bd-hit" }));
    // Oil-barrel icons printed on the route, near the city end.
    for (let i = 0; i < r.oil_icons; i++) {
      const t = 0.78 - i * 0.07;
      const [x, y] = [pts[0][0] + (pts[2][0] - pts[0][0]) * t, pts[0][1] + (pts[2][1] - pts[0][1]) * t];
      g.appendChild(s("ellipse", { cx: f(x), cy: f(y), rx: 4.5, ry: 5.5, class: "bp-drop" }));
    }
    const built = pipes[r.route];
    const text = `pipeline route ${oilNames[r.oilfield] || r.oilfield} – ${names[r.city] || r.city}${r.oil_icons ? ` (${r.oil_icons} oil icon${r.oil_icons > 1 ? "s" : ""})` : ""}${built ? `, ${built.pipeline} of ${seatLabel(built.owner)}` : ""}`;
    target(g, r.route, text, ctx);
    linesG.appendChild(g);
  }
  for (const l of side.lines) {
    const place = layout.links[l.line];
    const g = linkTrack(place.route, place.branch, { rail: true }, scale, true);
    if (l.bonus) {
      const [x, y] = [place.tile[0] * scale.x, place.tile[1] * scale.y];
      const a = (place.angle * Math.PI) / 180;
      const [bx, by] = [x - Math.sin(a) * 17, y + Math.cos(a) * 17];
      g.appendChild(s("circle", { cx: f(bx), cy: f(by), r: 9, class: "bp-bonus" }));
      g.appendChild(s("text", { x: f(bx), y: f(by + 3.5), "text-anchor": "middle", class: "bp-bonus-text" }, bonusGlyph(l.bonus)));
    }
    const b = lines[l.line];
    const text = `line ${l.ends.map((e) => names[e] || e).join(" – ")}${l.bonus ? `, bonus ${rewardText([l.bonus])}` : ""}${b ? `, ${linkTileInfo(board, b.link).name} of ${seatLabel(b.owner)}` : ""}`;
    target(g, l.line, text, ctx);
    linesG.appendChild(g);
  }
  svg.appendChild(linesG);

  // Oilfields: a derrick disc with the barrels ready; the Oil City on it, if built.
  const oilG = s("g", { class: "bp-oilfields" });
  for (const o of side.oilfields) {
    const place = layout.oilfields[o.oilfield];
    const st = oilState[o.oilfield] || {};
    const [x, y, r] = [place.xy[0] * scale.x, place.xy[1] * scale.y, place.r * scale.x];
    const g = s("g", { class: "bp-oilfield" + (st.in_play === false ? " bd-unused" : "") });
    g.appendChild(s("circle", { cx: f(x), cy: f(y), r: f(r), class: "bp-oil-disc" }));
    if (st.oil_city_owner != null) {
      g.appendChild(s("circle", { cx: f(x), cy: f(y), r: f(r + 5), fill: "none", stroke: seatColour(st.oil_city_owner), "stroke-width": 6 }));
      g.appendChild(s("text", { x: f(x + r * 0.75), y: f(y - r * 0.7), "font-size": 12, "font-weight": 700, fill: "#111", class: "bp-oc" }, `OC${seatMark(st.oil_city_owner)}${st.oil_city_flipped ? "✓" : ""}`));
    }
    // A derrick: two legs, cross braces, the crown block on top.
    const dk = `M${f(x - 9)},${f(y + 11)} L${f(x - 2)},${f(y - 13)} L${f(x + 2)},${f(y - 13)} L${f(x + 9)},${f(y + 11)}`
      + ` M${f(x - 6.5)},${f(y + 3)} L${f(x + 6.5)},${f(y + 3)} M${f(x - 4.5)},${f(y - 4)} L${f(x + 4.5)},${f(y - 4)}`
      + ` M${f(x - 6.5)},${f(y + 3)} L${f(x + 4.5)},${f(y - 4)} M${f(x - 11)},${f(y + 11)} L${f(x + 11)},${f(y + 11)}`;
    g.appendChild(s("path", { d: dk, class: "bp-derrick" }));
    const oilText = st.face_down ? "?" : `${st.oil ?? 0}`;
    g.appendChild(s("text", { x: f(x), y: f(y - r - 6), "text-anchor": "middle", class: "bp-oil-name" }, `${o.name}`));
    g.appendChild(s("circle", { cx: f(x + r * 0.72), cy: f(y - r * 0.55), r: 8.5, class: "bp-oil-bubble" }));
    g.appendChild(s("text", { x: f(x + r * 0.72), y: f(y - r * 0.55 + 4), "text-anchor": "middle", class: "bp-oil-count" }, oilText));
    const text = `oilfield ${o.name}: ${st.in_play === false ? "not in play" : st.face_down ? "tile face down" : `${st.oil} oil ready${st.oil_later ? `, ${st.oil_later} later` : ""}`}${st.oil_city_owner != null ? `, Oil City of ${seatLabel(st.oil_city_owner)}` : ""}`;
    target(g, o.oilfield, text, ctx);
    oilG.appendChild(g);
  }
  svg.appendChild(oilG);

  // Cities with their industry spaces.
  const spacesByLoc = {};
  for (const sp of side.spaces) (spacesByLoc[sp.location] ||= []).push(sp);
  const locG = s("g", { class: "bd-locations" });
  for (const c of side.cities) {
    const place = layout.locations[c.location];
    const sps = spacesByLoc[c.location] || [];
    const g = s("g", { class: "bd-location" });
    const area = locationArea(sps.map((sp) => layout.spaces[sp.space].box), place.label, scale, c.region);
    const { back, front } = locationLayers(area, c.name.toUpperCase(), place.label, scale, 13,
      c.location, `${c.name} (${sps.length} industry spaces)`, ctx);
    g.appendChild(back);
    buildSpaces(g, sps, layout, tiles, scale, c.name,
      (t) => ({ ...t, level: t.level ?? 0, resource: t.resource }),
      (t) => `${industryName(t.industry)} ${t.level ? roman(t.level) : ""} (${t.tile}) of ${seatLabel(t.owner)}${t.flipped ? ", flipped" : ""}${t.resources ? `, ${t.resources} ${t.resource}` : ""}`,
      ctx);
    g.appendChild(front);
    locG.appendChild(g);
  }
  svg.appendChild(locG);

  // Merchants: emblem, name, tile (what it accepts, its reward).
  const merchants = Object.fromEntries((v.merchants || []).map((m) => [m.merchant, m]));
  const mG = s("g", { class: "bd-merchants" });
  for (const m of side.merchant_locations) {
    const place = layout.locations[m.location];
    const head = s("g", {}, label(m.name.toUpperCase(), place.label, scale, "bd-label bd-merchant-label", 13));
    target(head, m.location, `merchant ${m.name}`, ctx);
    mG.appendChild(head);
  }
  for (const ms of side.merchant_spaces) {
    const mp = layout.merchant_spaces[ms.merchant];
    const m = merchants[ms.merchant];
    const [x, y, w, hh] = [mp.tile_box[0] * scale.x, mp.tile_box[1] * scale.y, mp.tile_box[2] * scale.x, mp.tile_box[3] * scale.y];
    const g = s("g", { class: "bd-mtile" + (m && m.tile ? "" : " bd-unused") });
    g.appendChild(s("rect", { x: f(x), y: f(y), width: f(w), height: f(hh), rx: 5, class: m && m.tile ? "bd-mtile-buys" : "bd-space-frame" }));
    let text;
    if (!m || !m.tile) {
      g.appendChild(s("text", { x: f(x + w / 2), y: f(y + hh / 2 + 4), "text-anchor": "middle", "font-size": 10, class: "bd-muted" }, `${ms.min_players}+`));
      text = `${names[ms.location]} merchant: not in play`;
    } else {
      const acc = m.accepts || [];
      acc.forEach((ind, i) => g.appendChild(industryBadge(ind, x + (w * (i + 1)) / (acc.length + 1), y + hh * 0.38, acc.length > 2 ? 12 : 15)));
      g.appendChild(s("text", { x: f(x + w / 2), y: f(y + hh * 0.86), "text-anchor": "middle", class: "bp-reward" }, m.face_up ? rewardText(m.reward) : "reward used"));
      text = `${names[ms.location]} merchant: buys ${acc.map(industryName).join(", ")}; ${m.face_up ? `reward ${rewardText(m.reward)}` : "reward already taken"}`;
    }
    target(g, ms.merchant, text, ctx);
    mG.appendChild(g);
  }
  svg.appendChild(mG);

  // Built trains and pipelines, on top of their lines.
  const tilesG = s("g", { class: "bd-linktiles" });
  for (const b of v.lines || []) {
    const place = layout.links[b.line];
    const info = linkTileInfo(board, b.link);
    const el = linkTile(place.tile, place.angle, layout.sizes.link_tile, scale, b.owner, "rail");
    if (b.kind === "heavy") el.classList.add("bp-heavy");
    if (b.carries && b.cargo) {
      const [x, y] = [place.tile[0] * scale.x, place.tile[1] * scale.y];
      el.appendChild(cubes(b.carries, b.cargo, x - b.cargo * 5, y + 12, 8));
    }
    target(el, b.line, `${info.name} of ${seatLabel(b.owner)} on ${b.ends.map((e) => names[e] || e).join(" – ")}${b.cargo ? `, ${b.cargo} ${b.carries} left` : ""}`, ctx);
    tilesG.appendChild(el);
  }
  for (const p of v.pipelines || []) {
    const place = layout.pipeline_routes[p.route];
    const el = linkTile(place.tile, place.angle, [layout.sizes.link_tile[0] * 0.8, layout.sizes.link_tile[1]], scale, p.owner, "canal");
    el.classList.add("bp-pipetile");
    if (!p.carries_oil) el.classList.add("bp-reserve");
    target(el, p.route, `${linkTileInfo(board, p.pipeline).name} of ${seatLabel(p.owner)} from ${oilNames[p.oilfield] || p.oilfield} to ${names[p.city] || p.city}`, ctx);
    tilesG.appendChild(el);
  }
  svg.appendChild(tilesG);

  // Market badges beside their cities.
  const marketsG = s("g", { class: "bp-markets" });
  for (const mk of v.markets || []) {
    const place = layout.markets[mk.market];
    if (!place) continue;
    const [x, y] = [place.xy[0] * scale.x, place.xy[1] * scale.y];
    const res = Object.keys(mk.ladders);
    const g = s("g", {});
    g.appendChild(s("rect", { x: f(x - 40), y: f(y - 13), width: 80, height: 26, rx: 6, class: "bp-market-badge" }));
    res.forEach((r, i) => {
      const l = mk.ladders[r];
      const bx = x - 36 + i * 38;
      g.appendChild(cubes(r, 1, bx, y - 6, 11));
      g.appendChild(s("text", { x: f(bx + 14), y: f(y + 4), class: "bp-market-text" }, `${l.cubes}/${l.capacity}`));
    });
    target(g, `market:${mk.market}`, marketText(mk), ctx);
    marketsG.appendChild(g);
  }
  svg.appendChild(marketsG);
  if (ctx.preview) svg.appendChild(preview(ctx.preview, ctx, v, board, layout, scale));

  panels.appendChild(turnLine(v, ctx, `Era ${v.era}${v.provisional ? " (provisional data)" : ""}`));
  const cardNames = placeNames(side);
  panels.appendChild(handPanel(v, ctx, cardNames) || h("div"));
  panels.appendChild(playerPanels(v, ctx, {
    money: "$",
    names: cardNames,
    extra: (p) => [["Whiskey", String(p.whiskey)], ["Light trains", String(p.light_trains)]],
    stacks: (p) => stackRows(board, p),
    after: (p) => [linkSupply(board, p, ctx), ctx.seat === p.seat ? matPanel(board, p, ctx) : null, ctx.seat === p.seat && p.whiskey ? whiskeyChip(p, ctx) : null],
  }));
  panels.appendChild(marketsPanel(v, side, ctx));
  panels.appendChild(qualityPanel(v, board, ctx));
  panels.appendChild(h("div", { class: "bd-supply", text: `Deck: ${v.deck_count ?? "?"} cards · data ${v.data_version || ""}${v.provisional ? " (provisional)" : ""}` }));
}

// A move drawn before it is posted (ctx.preview): the tile a build puts on its space, the
// train or pipeline a network move lays.
function preview(move, ctx, v, board, layout, scale) {
  const g = s("g", { class: "bd-preview", "aria-hidden": "true" });
  const seat = ctx.seat ?? v.turn_seat;
  const def = board.mat.tiles.find((t) => t.id === move.tile);
  if (move.type === "build" && move.space && layout.spaces[move.space] && def) {
    g.appendChild(tileOnSpace(layout.spaces[move.space].box, scale, { owner: seat, industry: def.industry, level: def.level ?? 0, flipped: false, resources: 0 }));
  } else if (move.type === "network" || move.type === "second_link") {
    const place = layout.links[move.site] || layout.pipeline_routes[move.site];
    if (place) g.appendChild(linkTile(place.tile, place.angle, layout.sizes.link_tile, scale, seat, layout.links[move.site] ? "rail" : "canal"));
  }
  return g;
}

function bonusGlyph(b) {
  if (b.type === "whiskey") return `W${b.amount}`;
  if (b.type === "income_spaces") return `+${b.amount}`;
  if (b.type === "free_develop") return "D";
  if (b.type === "vp") return `${b.amount}V`;
  if (b.type === "money") return `$${b.amount}`;
  return "?";
}

function marketText(mk) {
  const parts = Object.entries(mk.ladders).map(([r, l]) => `${r} ${l.cubes}/${l.capacity}, buy ${l.buy_price == null ? "empty" : `$${l.buy_price}`}, sell ${l.sell_price == null ? "full" : `$${l.sell_price}`}`);
  return `market ${mk.market} at ${titleCase(mk.city)}: ${parts.join("; ")}`;
}

// Tiles left per industry (summed over the mat's spaces of that industry).
function stackRows(board, p) {
  const byInd = {};
  for (const t of board.mat.tiles) {
    const left = p.mat[t.id] ?? 0;
    byInd[t.industry] = (byInd[t.industry] || 0) + left;
  }
  return Object.entries(byInd).map(([ind, n]) => [ind, `×${n}`, null, `${industryName(ind)}: ${n} tiles left`]);
}

function linkSupply(board, p, ctx) {
  const row = h("div", { class: "bd-row bp-links" }, h("span", { class: "bd-k", text: "Links: " }));
  const lt = h("span", { class: "bd-stack", text: `LT ×${p.light_trains}` });
  if (ctx.seat === p.seat) target(lt, `link:${board.link_tiles.light_train}`, `light train (${p.light_trains} left)`, ctx);
  row.appendChild(lt);
  for (const id of p.link_supply || []) {
    const el = h("span", { class: "bd-stack", text: id.replace(/^(HT|PL)_/, (m) => (m === "HT_" ? "HT " : "PL ")) });
    if (ctx.seat === p.seat) target(el, `link:${id}`, linkTileInfo(board, id).name, ctx);
    row.appendChild(el);
  }
  return row;
}

// The viewer's player mat: every space's tiles left, accessible ones marked; a space is a
// target for builds and develops from it.
function matPanel(board, p, ctx) {
  const box = h("div", { class: "bp-mat", "aria-label": "your player mat" });
  const acc = new Set(p.accessible || []);
  const byInd = {};
  for (const t of board.mat.tiles) (byInd[t.industry] ||= []).push(t);
  for (const [ind, ts] of Object.entries(byInd)) {
    const row = h("div", { class: "bp-matrow" }, industryChip(ind));
    for (const t of ts) {
      const left = p.mat[t.id] ?? 0;
      const el = h("span", { class: "bp-matspace" + (acc.has(t.id) ? " bp-accessible" : "") + (left ? "" : " bp-empty"), text: `${t.id}${left ? ` ×${left}` : " –"}` });
      const cost = Object.entries(t.cost).filter(([k, n]) => n && k !== "money").map(([k, n]) => `${n} ${k}`).join(", ");
      target(el, `tile:${t.id}`, `${industryName(t.industry)} ${t.level ? roman(t.level) : ""} (${t.id}): ${left} left${acc.has(t.id) ? ", accessible" : ""}; costs $${t.cost.money}${cost ? ` + ${cost}` : ""}, ${t.vp} VP`, ctx);
      row.appendChild(el);
    }
    box.appendChild(row);
  }
  return box;
}

function whiskeyChip(p, ctx) {
  const el = h("span", { class: "bd-stack", text: `Build with whiskey (${p.whiskey})` });
  target(el, "whiskey", `build with a whiskey barrel instead of a matching card (${p.whiskey} held)`, ctx);
  return h("div", { class: "bd-row" }, el);
}

function marketsPanel(v, side, ctx) {
  const box = h("section", { class: "bd-section", "aria-label": "markets" }, h("h3", { text: "Markets" }));
  const prices = Object.fromEntries(side.markets.map((m) => [m.market, m.prices]));
  for (const mk of v.markets || []) {
    const row = h("div", { class: "bp-mrow" }, h("strong", { text: `${titleCase(mk.city)} ` }));
    for (const [r, l] of Object.entries(mk.ladders)) {
      const ladder = (prices[mk.market] || {})[r] || [];
      // Listed dearest first; cubes fill it from the dear end (buying takes the cheapest).
      const cells = ladder.map((price, i) => h("span", { class: "bp-cell" + (i < l.cubes ? " bp-full" : ""), style: i < l.cubes ? `background:${RESOURCE[r]?.fill || "#999"}` : "", text: `${price}` }));
      row.appendChild(h("span", { class: "bp-ladder" }, h("span", { class: "bd-k", text: `${r}: ` }), ...cells, h("span", { class: "bd-sub", text: ` buy ${l.buy_price == null ? "—" : "$" + l.buy_price} · sell ${l.sell_price == null ? "—" : "$" + l.sell_price}` })));
    }
    target(row, `market:${mk.market}`, marketText(mk), ctx);
    box.appendChild(row);
  }
  const vd = h("div", { class: "bp-mrow" }, h("strong", { text: "Vanderbilt " }), ...Object.entries(v.vanderbilt || {}).map(([r, n]) => h("span", { class: "bp-ladder", text: `${r} $${n}` })));
  target(vd, "vanderbilt", `Vanderbilt sells any cube: ${Object.entries(v.vanderbilt || {}).map(([r, n]) => `${r} $${n}`).join(", ")}`, ctx);
  box.appendChild(vd);
  return box;
}

function qualityPanel(v, board, ctx) {
  const box = h("section", { class: "bd-section", "aria-label": "Quality Rewards" }, h("h3", { text: "Quality Rewards" }));
  const defs = Object.fromEntries(board.quality_rewards.map((q) => [q.id, q]));
  const row = h("div", { class: "bd-row" });
  for (const q of v.quality_rewards || []) {
    const d = defs[q.reward] || {};
    const el = h("span", { class: "bd-stack" + (q.face_up ? "" : " as-used"), text: `${"★".repeat(q.stars_required)} ${rewardText(d.reward)}` });
    target(el, `quality:${q.reward}`, `Quality Reward ${q.reward}: ${q.stars_required} stars for ${rewardText(d.reward)}${q.face_up ? "" : " (taken)"}`, ctx);
    row.appendChild(el);
  }
  box.appendChild(row);
  return box;
}

// The board at the game's end: the last era's clearing empties the railroad lines from the
// view, yet the last board a person saw has them. `before` is the view just before the
// final era's scoring.
export function finalScene(view, before) {
  if (!before || (view.lines || []).length) return view;
  return { ...view, lines: before.lines || [] };
}

export function targetsOf(move) {
  switch (move.type) {
    case "build": {
      const t = [`tile:${move.tile}`];
      if (move.card) t.push(`card:${move.card}`);
      if (move.whiskey) t.push("whiskey");
      if (move.space) t.push(move.space, move.space.split(":")[0]);
      if (move.oilfield) t.push(move.oilfield);
      return t;
    }
    case "network":
    case "second_link":
      return [move.site, `link:${move.link}`];
    case "develop":
    case "develop_also":
    case "free_develop":
      return [`tile:${move.tile}`];
    case "sell":
    case "sell_also":
    case "bonus_sell":
      return [move.space, move.merchant, move.merchant.split(":")[0]];
    case "discard":
      return [`card:${move.card}`];
    case "pay":
      if (move.source === "vanderbilt") return ["vanderbilt"];
      if (move.source === "market") return [`market:${move.at}`];
      return move.at ? [move.at] : [];
    case "sell_produced":
      return Object.entries(move.plan || {}).filter(([, n]) => n > 0).map(([m]) => `market:${m}`);
    case "claim_quality":
      return [`quality:${move.reward}`];
    default:
      return [];
  }
}

export function describeMove(move, ctx) {
  const board = ctx && ctx.game ? ctx.game.metadata.board : null;
  const side = ctx && ctx.game ? sideOf(ctx) : null;
  const names = side ? Object.fromEntries([...side.cities, ...side.merchant_locations, ...side.oilfields.map((o) => ({ location: o.oilfield, name: o.name }))].map((c) => [c.location, c.name])) : {};
  const place = (id) => {
    const [loc, n] = String(id).split(":");
    return `${names[loc] || titleCase(loc)}${n !== undefined ? ` (space ${Number(n) + 1})` : ""}`;
  };
  const site = (id) => String(id).split("~").map((x) => names[x] || titleCase(x)).join("–");
  const tile = (id) => {
    const t = board && board.mat.tiles.find((x) => x.id === id);
    return t ? `${industryName(t.industry)}${t.level ? ` ${roman(t.level)}` : ""}` : id;
  };
  const link = (id) => (board ? linkTileInfo(board, id).name : id);
  // The price the game publishes for what a move builds (a mat tile's, a heavy train's or
  // a pipeline's cost); a light train's is not published, so only its cubes' is. In the seat to
  // act's own view the server also says what the move's cubes cost paid the cheapest way
  // (cube_costs: free ones first, then the markets', then Vanderbilt's; a cube with one
  // source is taken without asking), and the price includes it:
  // " (costs $19: $14 + 1 coke, the cubes $5 at the cheapest)".
  const costs = ctx ? (viewOf(ctx) || {}).cube_costs : null;
  const priced = (cost, cubes) => {
    const text = costText(cost, "$");
    if (!text) return cubes ? ` (the cubes $${cubes} at the cheapest)` : "";
    if (!cubes) return ` (costs ${text})`;
    return ` (costs $${((cost && cost.money) || 0) + cubes}: ${text}, the cubes $${cubes} at the cheapest)`;
  };
  const tileCost = (id, at) => priced(board && (board.mat.tiles.find((x) => x.id === id) || {}).cost, costs && ((costs.build || {})[id] || {})[at]);
  const linkCost = (id, at) => priced(board && (linkTileInfo(board, id).info || {}).cost, costs && ((costs.network || {})[id] || {})[at]);
  // A develop's one iron or steel: its price where the server published one.
  const developCost = () => (!costs ? "" : costs.develop ? ` (costs $${costs.develop}: 1 iron or steel at the cheapest)` : " (its iron or steel is free to you)");
  switch (move.type) {
    case "build":
      return `Build ${tile(move.tile)} at ${move.space ? place(move.space) : place(move.oilfield)}${move.card ? `, discarding ${cardName(move.card, names)}` : " with a whiskey barrel"}${tileCost(move.tile, move.oilfield || String(move.space).split(":")[0])}`;
    case "network":
      return `Place a ${link(move.link)} on ${site(move.site)}${linkCost(move.link, move.site)}`;
    case "second_link":
      return `Second link ($10 more): ${link(move.link)} on ${site(move.site)}${linkCost(move.link, move.site)}`;
    case "develop":
      return `Develop: remove your top ${tile(move.tile)} tile${developCost()}`;
    case "develop_also":
      return `Develop another: ${tile(move.tile)}${developCost()}`;
    case "free_develop":
      return `Free develop: ${tile(move.tile)}`;
    case "sell":
    case "sell_also":
    case "bonus_sell": {
      // The industry sold and the merchant's tile (what it accepts, what it gives), so
      // sales from one space to a city's several merchants read apart.
      const v = ctx ? viewOf(ctx) : {};
      const built = (v.tiles || []).find((x) => x.space === move.space);
      const what = built ? `${built.owner === (ctx && ctx.seat) ? "your" : `${seatLabel(built.owner)}'s`} ${tile(built.tile)} at ${place(move.space)}` : place(move.space);
      const m = (v.merchants || []).find((x) => x.merchant === move.merchant);
      const [loc] = String(move.merchant).split(":");
      const gives = m && m.face_up !== false ? rewardText(m.reward) : "";
      const to = m ? `${names[loc] || titleCase(loc)}'s merchant${(m.accepts || []).length ? ` buying ${m.accepts.map((x) => String(x).replace(/_/g, " ")).join(" or ")}` : ""}${gives ? ` (${gives})` : ""}` : place(move.merchant);
      return `${move.type === "sell" ? "Sell" : move.type === "sell_also" ? "Also sell" : "Bonus sale:"} ${what} to ${to}`;
    }
    case "discard":
      return `Discard ${cardName(move.card, names)}`;
    case "pay": {
      const v = ctx ? viewOf(ctx) : {};
      const market = move.source === "market" ? (v.markets || []).find((m) => m.market === move.at) : null;
      const from = move.source === "vanderbilt" ? "Vanderbilt" : move.source === "market" ? `the ${market ? `${names[market.city] || titleCase(market.city)} market` : `market ${move.at}`}` : move.source === "tile" ? `the tile at ${place(move.at)}` : move.source === "pipeline" ? `the pipeline ${site(move.at)}` : `your train on ${site(move.at)}`;
      // The price of the next cube, as the view shows it (the market's ladder, Vanderbilt's list).
      const ladder = market && market.ladders ? market.ladders[move.resource] : null;
      const price = move.source === "vanderbilt" ? (v.vanderbilt || {})[move.resource] : ladder ? ladder.buy_price : null;
      return `Take ${move.resource} from ${from}${typeof price === "number" ? ` for $${price}` : ""}`;
    }
    case "sell_produced": {
      const parts = Object.entries(move.plan || {}).filter(([, n]) => n > 0).map(([m, n]) => `${n} to ${m}`);
      return parts.length ? `Sell the new cubes: ${parts.join(", ")}` : "Keep all the new cubes on the tile";
    }
    case "claim_quality":
      return `Claim the Quality Reward ${move.reward}`;
    case "loan":
      return "Take a loan";
    case "pass":
      return "Pass (discard a card)";
    case "done":
      return "Done";
    default:
      return JSON.stringify(move);
  }
}

export { stat, seatInk };
