// Brass: Birmingham: the board drawn from metadata.board.layout (0..1 coordinates of the
// printed board, our own drawing), the view's tiles, links, merchants and markets on it,
// and the player panels. Target ids: location id ("dudley"), build space ("dudley:0"),
// merchant space ("oxford:1"), link line ("birmingham~dudley"), card ("card:location:dudley"),
// the viewer's industry stack ("industry:coal"), market ("market:coal").
import { s, h, f, target, start, seatLabel, roman, titleCase, viewOf, stat } from "./kit.js";
import {
  industryBadge, industryName, tileOnSpace, linkTrack, linkTile, locationArea, locationLayers, nameSpot, label, buildSpaces,
  turnLine, eraRound, playerPanels, handPanel, cardName, placeNames, cubes, industryChip, signed, costText,
} from "./brass-common.js";

const W = 1000;
const RESOURCE_OF = { coal: "coal", iron: "iron", brewery: "beer" };
const GOODS = { cotton: "cotton", manufacturer: "manufactured goods", pottery: "pottery" };
const BONUS_TEXT = { vp: (n) => `+${n} VP`, income: (n) => `+${n} income`, money: (n) => `+£${n}`, develop: () => "free develop" };

export function render(svg, panels, ctx) {
  const board = ctx.game.metadata.board;
  const layout = board.layout;
  const v = viewOf(ctx);
  const scale = { x: W, y: W / layout.aspect };
  start(svg, panels, `0 0 ${W} ${f(scale.y)}`, "Brass: Birmingham board");

  const era = v.era || "canal";
  svg.appendChild(s("rect", { x: 0, y: 0, width: W, height: f(scale.y), class: "bd-ground", rx: 14 }));

  const locName = Object.fromEntries(board.locations.map((l) => [l.location, l.name]));
  const locKind = Object.fromEntries(board.locations.map((l) => [l.location, l.kind]));
  const built = Object.fromEntries((v.links || []).map((l) => [l.link, l]));
  const tiles = Object.fromEntries((v.tiles || []).map((t) => [t.space, t]));

  // Link lines first, under everything.
  const linesG = s("g", { class: "bd-lines" });
  for (const link of board.links) {
    const place = layout.links[link.link];
    const usable = era === "canal" ? link.canal : link.rail;
    const g = linkTrack(place.route, place.branch, link, scale, usable || built[link.link]);
    const ends = link.ends.map((e) => locName[e] || e).join(" – ");
    const kinds = link.canal && link.rail ? "canal and rail" : link.canal ? "canal only" : "rail only";
    const b = built[link.link];
    const owner = b ? `, ${b.kind} link of ${seatLabel(b.owner)}` : "";
    target(g, link.link, `link ${ends} (${kinds}${owner})`, ctx);
    linesG.appendChild(g);
  }
  svg.appendChild(linesG);

  // Locations: an area behind the spaces, the name, the spaces and what is built on them.
  const spacesByLoc = {};
  for (const sp of board.spaces) (spacesByLoc[sp.location] ||= []).push(sp);
  const linkSpots = Object.values(layout.links).map((l) => l.tile).filter(Boolean);
  const locG = s("g", { class: "bd-locations" });
  for (const loc of board.locations) {
    if (loc.kind === "merchant") continue;
    const place = layout.locations[loc.location];
    const sps = spacesByLoc[loc.location] || [];
    const g = s("g", { class: "bd-location" });
    const farm = loc.kind === "farm";
    const boxes = sps.map((sp) => layout.spaces[sp.space].box);
    const name = farm ? "FARM BREWERY" : loc.name.toUpperCase();
    // A long name in a smaller hand: Lancashire's WARRINGTON & RUNCORN ran into Manchester.
    const size = farm ? 10 : name.length > 16 ? 12 : 14;
    const at = nameSpot(name, place.label, boxes, scale, size, linkSpots);
    const area = locationArea(boxes, at, scale, loc.kind);
    const { back, front } = locationLayers(area, name, at, scale, size,
      loc.location, `${loc.name} (${sps.length} build space${sps.length === 1 ? "" : "s"})`, ctx);
    g.appendChild(back);
    buildSpaces(g, sps, layout, tiles, scale, loc.name,
      (t) => ({ ...t, resource: RESOURCE_OF[t.industry] }),
      (t) => `${industryName(t.industry)} ${roman(t.level)} of ${seatLabel(t.owner)}${t.flipped ? ", flipped" : ""}${t.resources ? `, ${t.resources} ${RESOURCE_OF[t.industry]}` : ""}`,
      ctx);
    g.appendChild(front);
    locG.appendChild(g);
  }
  svg.appendChild(locG);

  // Merchants: emblem, name, bonus, tiles and beer.
  const merchants = Object.fromEntries((v.merchants || []).map((m) => [m.merchant, m]));
  const mG = s("g", { class: "bd-merchants" });
  const byLoc = {};
  for (const ms of board.merchant_spaces) (byLoc[ms.location] ||= []).push(ms);
  for (const [locId, spaces] of Object.entries(byLoc)) {
    const place = layout.locations[locId];
    const g = s("g", { class: "bd-merchant" });
    const [ex, ey] = [place.centre[0] * scale.x, place.centre[1] * scale.y];
    const head = s("g", {});
    head.appendChild(s("circle", { cx: f(ex), cy: f(ey), r: 20, class: "bd-emblem" }));
    head.appendChild(s("text", { x: f(ex), y: f(ey + 6), "text-anchor": "middle", class: "bd-emblem-text" }, "⚓"));
    // The name above the emblem, the beer bonus above the name.
    const nameAt = [place.label[0], Math.min(place.label[1], place.centre[1] - 0.026)];
    head.appendChild(label(locName[locId].toUpperCase(), nameAt, scale, "bd-label bd-merchant-label", 14));
    const bonus = spaces[0].bonus;
    // Above the name, unless a link tile lies there (Gloucester's, of Redditch–Gloucester):
    // then under the emblem.
    const bonusText = `beer: ${BONUS_TEXT[bonus.kind](bonus.amount)}`;
    const above = [nameAt[0], nameAt[1] - 0.017];
    const halfW = (bonusText.length * 12 * 0.3) / scale.x;
    const covered = Object.values(layout.links).some((l) => {
      if (!l.tile) return false;
      const [hx, hy] = tileHalfExtents(l.angle || 0, layout.sizes.link_tile, scale);
      return Math.abs(l.tile[0] - above[0]) < halfW + hx && Math.abs(l.tile[1] - (above[1] - 0.004)) < 0.008 + hy;
    });
    const bonusAt = covered ? [place.centre[0], place.centre[1] + 20 / scale.y + 0.016] : above;
    head.appendChild(label(bonusText, bonusAt, scale, "bd-bonus", 12));
    target(head, locId, `merchant ${locName[locId]}: beer bonus ${BONUS_TEXT[bonus.kind](bonus.amount)}`, ctx);
    g.appendChild(head);
    for (const ms of spaces) {
      const mp = layout.merchant_spaces[ms.merchant];
      const m = merchants[ms.merchant];
      const [x, y, w, hh] = [mp.tile_box[0] * scale.x, mp.tile_box[1] * scale.y, mp.tile_box[2] * scale.x, mp.tile_box[3] * scale.y];
      const tileG = s("g", { class: "bd-mtile" + (m ? "" : " bd-unused") });
      tileG.appendChild(s("rect", { x: f(x), y: f(y), width: f(w), height: f(hh), rx: 4, class: m ? (m.buys.length ? "bd-mtile-buys" : "bd-mtile-blank") : "bd-space-frame" }));
      let text;
      if (!m) {
        tileG.appendChild(s("text", { x: f(x + w / 2), y: f(y + hh / 2 + 4), "text-anchor": "middle", "font-size": 10, class: "bd-muted" }, `${ms.min_players}+`));
        text = `${locName[locId]} merchant space ${Number(ms.merchant.split(":")[1]) + 1}: used with ${ms.min_players} or more players`;
      } else if (!m.buys.length) {
        tileG.appendChild(s("text", { x: f(x + w / 2), y: f(y + hh / 2 + 4), "text-anchor": "middle", "font-size": 11, class: "bd-muted" }, "—"));
        text = `${locName[locId]} merchant space ${Number(ms.merchant.split(":")[1]) + 1}: blank tile, buys nothing`;
      } else {
        const n = m.buys.length;
        m.buys.forEach((ind, i) => tileG.appendChild(industryBadge(ind, x + (w * (i + 1)) / (n + 1), y + hh / 2 + (n > 1 ? (i % 2 ? 7 : -7) : 0), n > 1 ? 15 : 22)));
        text = `${locName[locId]} merchant space ${Number(ms.merchant.split(":")[1]) + 1}: buys ${m.buys.map(industryName).join(", ")}${m.beer ? ", beer barrel here" : ""}`;
      }
      if (m && m.beer && mp.beer) {
        const [bx, by] = [mp.beer[0] * scale.x, mp.beer[1] * scale.y];
        tileG.appendChild(s("ellipse", { cx: f(bx), cy: f(by), rx: 8, ry: 10, class: "bd-barrel" }));
        tileG.appendChild(s("line", { x1: f(bx - 8), y1: f(by - 3), x2: f(bx + 8), y2: f(by - 3), class: "bd-barrel-hoop" }));
        tileG.appendChild(s("line", { x1: f(bx - 8), y1: f(by + 3), x2: f(bx + 8), y2: f(by + 3), class: "bd-barrel-hoop" }));
      }
      target(tileG, ms.merchant, text, ctx);
      g.appendChild(tileG);
    }
    mG.appendChild(g);
  }
  svg.appendChild(mG);

  // Built link tiles on top of the lines.
  const tilesG = s("g", { class: "bd-linktiles" });
  for (const b of v.links || []) {
    const place = layout.links[b.link];
    const el = linkTile(place.tile, place.angle, layout.sizes.link_tile, scale, b.owner, b.kind);
    target(el, b.link, `${b.kind} link ${b.ends.map((e) => locName[e] || e).join(" – ")} of ${seatLabel(b.owner)}`, ctx);
    tilesG.appendChild(el);
  }
  svg.appendChild(tilesG);

  svg.appendChild(marketsSvg(board, v, ctx, scale, era));
  if (ctx.preview) svg.appendChild(preview(ctx.preview, ctx, v, layout, scale));

  // Panels: the turn, the markets in words, the seats, the hand.
  panels.appendChild(turnLine(v, ctx, `${titleCase(era)} era`));
  const cardNames = placeNames(board);
  panels.appendChild(handPanel(v, ctx, cardNames) || h("div"));
  panels.appendChild(playerPanels(v, ctx, {
    money: "£",
    names: cardNames,
    extra: (p) => [["Links left", String(p.links_left)], ["Discards", `${p.discards.length} up · ${p.facedown_count} down`]],
    stacks: (p) => Object.keys(p.tiles_left).map((ind) => {
      const left = p.tiles_left[ind];
      const next = p.next_tiles[ind];
      const text = left ? `${roman(next)} ×${left}` : "—";
      const mine = ctx.seat === p.seat;
      const lbl = `${industryName(ind)}: ${left ? `next level ${next}, ${left} tiles left` : "none left"}`;
      return [ind, text, mine ? `industry:${ind}` : null, lbl];
    }),
  }));
  // Lancashire has no wild cards: its view has no wild supply, and the line says none.
  const wild = v.wild_supply ? ` · wild cards in supply: ${v.wild_supply.location} location, ${v.wild_supply.industry} industry` : "";
  panels.appendChild(h("div", { class: "bd-supply", text: `Deck: ${v.deck_count ?? "?"} cards${wild}` }));
}

// The coal and iron markets, drawn in the board's empty upper-left area as two columns of
// price steps (cheapest at the top); a cube lies on each filled space. Cubes sit at the dear
// end (buying takes the cheapest cube, selling fills the dearest empty space), so the
// price rises as a market empties.
function marketsSvg(board, v, ctx, scale, era) {
  const g = s("g", { class: "bd-markets" });
  const [x0, y0] = [22, 118];
  g.appendChild(s("rect", { x: x0, y: y0, width: 196, height: 318, rx: 10, class: "bd-market-bg" }));
  g.appendChild(s("text", { x: x0 + 98, y: y0 + 24, "text-anchor": "middle", class: "bd-market-title" }, eraRound(v, `${titleCase(era)} era`)));
  [["coal", board.coal_market], ["iron", board.iron_market]].forEach(([kind, ladder], k) => {
    const m = (v.markets || {})[kind] || { cubes: 0 };
    const col = s("g", {});
    const cx = x0 + 14 + k * 92;
    col.appendChild(s("text", { x: cx + 36, y: y0 + 50, "text-anchor": "middle", class: "bd-market-title" }, titleCase(kind)));
    const prices = ladder.prices;
    const empty = prices.length - m.cubes;
    const steps = [...new Set(prices)];
    steps.forEach((price, r) => {
      const y = y0 + 62 + r * 29;
      col.appendChild(s("text", { x: cx + 10, y: y + 17, "text-anchor": "middle", class: "bd-mprice" }, `£${price}`));
      prices.forEach((p, i) => {
        if (p !== price) return;
        const slot = prices.slice(0, i).filter((q) => q === price).length;
        const sx = cx + 24 + slot * 24;
        col.appendChild(s("rect", { x: sx, y, width: 22, height: 22, rx: 3, class: "bd-mspace" }));
        if (i >= empty) col.appendChild(cubes(kind, 1, sx + 4, y + 4, 14));
      });
    });
    const yEnd = y0 + 62 + steps.length * 29;
    col.appendChild(s("text", { x: cx + 36, y: yEnd + 12, "text-anchor": "middle", class: "bd-mprice" }, `empty: £${ladder.empty_price}`));
    col.appendChild(s("text", { x: cx + 36, y: yEnd + 28, "text-anchor": "middle", class: "bd-market-price" }, `buy £${m.buy_price ?? "?"}`));
    col.appendChild(s("text", { x: cx + 36, y: yEnd + 43, "text-anchor": "middle", class: "bd-market-price" }, m.sell_price == null ? "full" : `sell £${m.sell_price}`));
    target(col, `market:${kind}`, `${kind} market: ${m.cubes} of ${prices.length} cubes; next cube bought costs £${m.buy_price}${m.sell_price == null ? ", full" : `, next sold earns £${m.sell_price}`}`, ctx);
    g.appendChild(col);
  });
  return g;
}

// A move drawn before it is posted (ctx.preview): the tile a build puts on its space, the
// link tile a network move lays.
function preview(move, ctx, v, layout, scale) {
  const g = s("g", { class: "bd-preview", "aria-hidden": "true" });
  const seat = ctx.seat ?? v.turn_seat;
  if (move.type === "build" && layout.spaces[move.space]) {
    const me = (v.players || [])[seat] || {};
    const level = (me.next_tiles || {})[move.industry] || 1;
    g.appendChild(tileOnSpace(layout.spaces[move.space].box, scale, { owner: seat, industry: move.industry, level, flipped: false, resources: 0 }));
  } else if ((move.type === "network" || move.type === "second_link") && layout.links[move.link]) {
    const place = layout.links[move.link];
    g.appendChild(linkTile(place.tile, place.angle, layout.sizes.link_tile, scale, seat, v.era || "canal"));
  }
  return g;
}

// Log lines of this board's own: the era that begins or is scored, by name, and the new deal
// ("The rail era begins: 8 cards in each hand, 24 in the deck", "Canal era scored: …");
// other events read as the shared log says them.
export function describeEvent(event, ctx) {
  const p = event.payload || {};
  const era = typeof p.era === "number" ? ["canal", "rail"][p.era] : p.era;
  if (!era || !["era_began", "era_scored"].includes(event.type)) return null;
  if (event.type === "era_scored") {
    const seat = (i) => (ctx && ctx.seatName ? ctx.seatName(i) : seatLabel(i));
    const vp = (p.links || []).map((v, i) => `${seat(i)} +${v + ((p.industries || [])[i] || 0)} VP`);
    return `${titleCase(era)} era scored: ${vp.join(", ")}`;
  }
  const hands = [...new Set(p.hand_counts || [])];
  const deal = hands.length === 1 ? `${hands[0]} cards in each hand` : "";
  const deck = typeof p.deck_count === "number" ? `${p.deck_count} in the deck` : "";
  return `The ${era} era begins${deal || deck ? `: ${[deal, deck].filter(Boolean).join(", ")}` : ""}`;
}

// The board at the game's end: the final era's scoring clears the links from the view (as
// the canal era's end does), yet the last board a person saw has them. `before` is the view
// just before that scoring; its links, and the counts of link tiles left, are drawn with
// the final view's scores.
export function finalScene(view, before) {
  if (!before || (view.links || []).length) return view;
  const left = Object.fromEntries((before.players || []).map((p) => [p.seat, p.links_left]));
  return {
    ...view,
    links: before.links || [],
    players: (view.players || []).map((p) => (left[p.seat] == null ? p : { ...p, links_left: left[p.seat] })),
  };
}

// Half the width and height (board units) of the box around a link tile at its angle.
function tileHalfExtents(angle, size, scale) {
  const a = (angle * Math.PI) / 180;
  const [w, h] = [size[0], Math.max(size[1], 16 / scale.y)];
  return [(Math.abs(Math.cos(a)) * w + Math.abs(Math.sin(a)) * h) / 2, (Math.abs(Math.sin(a)) * w + Math.abs(Math.cos(a)) * h) / 2];
}

export function targetsOf(move) {
  const t = [];
  switch (move.type) {
    case "build":
      t.push(move.space, move.space.split(":")[0], `card:${move.card}`, `industry:${move.industry}`);
      break;
    case "network":
    case "second_link":
      t.push(move.link);
      break;
    case "develop":
    case "develop_also":
    case "free_develop":
      t.push(`industry:${move.industry}`);
      break;
    case "sell":
    case "sell_also":
      t.push(move.space, move.merchant, move.merchant.split(":")[0]);
      break;
    case "discard":
      t.push(`card:${move.card}`);
      break;
    case "pick_coal":
    case "pick_iron":
    case "liquidate":
      t.push(move.space);
      break;
    case "pick_beer":
      t.push(move.source);
      break;
    default:
      break;
  }
  return t;
}

// The printed price of what a move builds (metadata.board's tile tables and link costs), as
// " (costs £12 + 1 coal)": the seat's next tile of the industry, a canal or rail link, a
// second rail's extra, a development's iron. Where the coal or iron would be bought from a
// market (the view's market_buys: the server says which moves buy what, at what price),
// the price includes it: " (costs £15: £12 + 1 coal, 1 coal bought from the market for £3)".
// Cubes taken from the board are free, so nothing is added for them.
function priced(cost, bought) {
  const text = costText(cost, "£");
  if (!text) return "";
  if (!bought || !bought.money) return ` (costs ${text})`;
  const cubes = [bought.coal ? `${bought.coal} coal` : "", bought.iron ? `${bought.iron} iron` : ""].filter(Boolean);
  return ` (costs £${((cost && cost.money) || 0) + bought.money}: ${text}, ${cubes.join(" and ")} bought from the market${cubes.length > 1 ? "s" : ""} for £${bought.money})`;
}

function marketBuys(ctx) {
  const v = ctx ? viewOf(ctx) : null;
  return (v && v.market_buys) || null;
}

export function tilePrice(industry, ctx, location = null) {
  const v = ctx ? viewOf(ctx) : {};
  const me = v && v.players && ctx.seat != null ? v.players[ctx.seat] : null;
  const rows = ((ctx && ctx.game ? ctx.game.metadata.board.tiles : null) || {})[industry] || [];
  const row = me && me.next_tiles ? rows.find((r) => r.level === me.next_tiles[industry]) : null;
  const buys = marketBuys(ctx);
  const bought = buys && location && ctx.seat === v.turn_seat ? ((buys.build || {})[location] || {})[industry] : null;
  return row ? priced({ money: row.money, coal: row.coal, iron: row.iron }, bought) : "";
}

export function linkPrice(kind, ctx, link = null) {
  const buys = marketBuys(ctx);
  const bought = buys && link ? (buys.network || {})[link] : null;
  return priced(((ctx && ctx.game ? ctx.game.metadata.board.link_costs : null) || {})[kind], bought);
}

// A development's cubes (a free one, a merchant's bonus, costs none).
function developPrice(ctx) {
  const buys = marketBuys(ctx);
  return priced(ctx && ctx.game ? ctx.game.metadata.board.develop_cost : null, buys && buys.develop);
}

export function describeMove(move, ctx) {
  const v = ctx ? viewOf(ctx) : {};
  const names = ctx && ctx.game ? Object.fromEntries(ctx.game.metadata.board.locations.map((l) => [l.location, l.name])) : {};
  const place = (id) => {
    const [loc, n] = String(id).split(":");
    return `${names[loc] || titleCase(loc)}${n !== undefined ? ` (space ${Number(n) + 1})` : ""}`;
  };
  const link = (id) => String(id).split("~").map((x) => names[x] || titleCase(x)).join("–");
  const me = v && v.players && ctx.seat != null ? v.players[ctx.seat] : null;
  const level = (ind) => (me && me.next_tiles ? ` ${roman(me.next_tiles[ind])}` : "");
  // What stands on a space, so that options on one location read apart: "your cotton mill
  // II at Birmingham (space 1)", "Seat 2's coal mine at Dudley (space 1), 2 coal".
  const tiles = Object.fromEntries(((v && v.tiles) || []).map((x) => [x.space, x]));
  const whose = (x) => (x.owner === (ctx && ctx.seat) ? "your" : `${seatLabel(x.owner)}'s`);
  const tileAt = (space, withOwner = true) => {
    const x = tiles[space];
    if (!x) return place(space);
    return `${withOwner ? `${whose(x)} ` : ""}${industryName(x.industry)}${x.level ? ` ${roman(x.level)}` : ""} at ${place(space)}`;
  };
  const merchants = Object.fromEntries(((v && v.merchants) || []).map((m) => [m.merchant, m]));
  const merchantAt = (id) => {
    const m = merchants[id];
    const [loc] = String(id).split(":");
    if (!m) return `the merchant at ${place(id)}`;
    const buys = (m.buys || []).map((x) => GOODS[x] || industryName(x)).join(" or ");
    return `${names[loc] || titleCase(loc)}'s merchant${buys ? ` buying ${buys}` : ""}${m.beer ? " (beer there)" : ""}`;
  };
  const stock = (space, what) => {
    const x = tiles[space];
    return x && typeof x.resources === "number" ? `, ${x.resources} ${what} left` : "";
  };
  switch (move.type) {
    case "build":
      return `Build ${industryName(move.industry)}${level(move.industry)} at ${place(move.space)}, discarding ${cardName(move.card, names)}${tilePrice(move.industry, ctx, String(move.space).split(":")[0])}`;
    case "network":
      return `Build a ${v.era === "rail" ? "rail" : "canal"} link ${link(move.link)}${linkPrice(v.era === "rail" ? "rail" : "canal", ctx, move.link)}`;
    case "second_link":
      return `Build a second rail ${link(move.link)}${linkPrice("second_rail", ctx, move.link)}`;
    case "develop":
      return `Develop: remove your ${industryName(move.industry)}${level(move.industry)} tile${developPrice(ctx)}`;
    case "develop_also":
      return `Develop a second tile: ${industryName(move.industry)}${level(move.industry)}${developPrice(ctx)}`;
    case "free_develop":
      return `Free develop (merchant bonus): ${industryName(move.industry)}${level(move.industry)}`;
    case "sell":
    case "sell_also":
      return `${move.type === "sell" ? "Sell" : "Also sell"} ${tileAt(move.space)} to ${merchantAt(move.merchant)}`;
    case "discard":
      return `Discard ${cardName(move.card, names)}`;
    case "pick_coal":
      return `Take coal from ${tiles[move.space] ? tileAt(move.space) : `the mine at ${place(move.space)}`}${stock(move.space, "coal")}`;
    case "pick_iron":
      return `Take iron from ${tiles[move.space] ? tileAt(move.space) : `the works at ${place(move.space)}`}${stock(move.space, "iron")}`;
    case "pick_beer":
      if (merchants[move.source]) return `Take beer from the barrel of ${merchantAt(move.source)}`;
      return `Take beer from ${tiles[move.source] ? tileAt(move.source) : place(move.source)}${stock(move.source, "beer")}`;
    case "liquidate":
      return `Sell off ${tiles[move.space] ? tileAt(move.space) : `your industry at ${place(move.space)}`} (half its cost)`;
    case "loan":
      return "Take a loan (£30, income −3 levels)";
    case "scout":
      return "Scout: discard 3 cards for a wild location and a wild industry card";
    case "pass":
      return "Pass (discard a card)";
    case "done":
      return "Done";
    default:
      return JSON.stringify(move);
  }
}

export { stat, industryChip, signed };
