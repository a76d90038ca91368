// Brass: Lancashire: Birmingham's drawing of the board (the same layout format and view
// shape: tiles, links, markets, players), with no merchants; ports are build spaces. What
// differs is named here: sales go to a port's space or the distant market, the double build.
// Target ids: as Birmingham's, plus "market:distant_market" (the distant market, drawn at
// its layout spot with its demand track).
import * as bb from "./brass-birmingham.js";
import { f, h, roman, s, seatLabel, target, titleCase, viewOf } from "./kit.js";
import { industryName } from "./brass-common.js";

function withBoard(ctx) {
  const board = { merchant_spaces: [], ...ctx.game.metadata.board };
  return { ...ctx, game: { ...ctx.game, metadata: { ...ctx.game.metadata, board } } };
}

export function render(svg, panels, ctx) {
  const out = bb.render(svg, panels, withBoard(ctx));
  const v = viewOf(ctx);
  const dm = v.distant_market;
  const spot = ctx.game.metadata.board.layout.markets && ctx.game.metadata.board.layout.markets.distant_market;
  if (dm && spot) {
    svg.appendChild(distantMarket(dm, spot, ctx));
    panels.appendChild(h("div", { class: "bd-supply bd-distant", text: `Distant market: ${distantText(dm)}` }));
  }
  return out;
}

// The distant market in words: what a sale there would pay now, and the demand tiles left.
function distantText(dm) {
  const left = (dm.tiles_left || []).length;
  const state = dm.closed ? "closed for the era (the marker is on X)" : `the demand marker pays +${dm.income} income`;
  return `${state}; ${left} demand tile${left === 1 ? "" : "s"} in the bag`;
}

// Drawn at its spot on the board: the demand track (the income each space pays, the marker
// on its space, X last) and what it pays now. Sales to it light it as a target.
function distantMarket(dm, spot, ctx) {
  const W = 1000;
  const spaces = dm.income_spaces || [];
  const [cx, cy] = [spot.xy[0] * W, spot.xy[1] * W];
  const cell = 19;
  const width = Math.max(120, (spaces.length + 1) * cell + 16);
  const [x0, y0] = [cx - width / 2, cy - 40];
  const g = s("g", { class: "bd-distant-market" });
  g.appendChild(s("rect", { x: f(x0), y: f(y0), width: f(width), height: 82, rx: 8, class: "bd-market-bg" }));
  g.appendChild(s("text", { x: f(cx), y: f(y0 + 18), "text-anchor": "middle", class: "bd-market-title" }, "Distant market"));
  const labels = [...spaces.map(String), "X"];
  const left = cx - (labels.length * cell) / 2;
  labels.forEach((text, i) => {
    const x = left + i * cell;
    const here = i === dm.marker;
    g.appendChild(s("rect", { x: f(x), y: f(y0 + 27), width: cell - 2, height: cell, rx: 2, class: here ? "bd-demand-marker" : "bd-mspace" }));
    g.appendChild(s("text", { x: f(x + (cell - 2) / 2), y: f(y0 + 41), "text-anchor": "middle", class: "bd-mprice bd-demand-text", "font-weight": here ? 700 : 400 }, text));
  });
  g.appendChild(s("text", { x: f(cx), y: f(y0 + 68), "text-anchor": "middle", class: "bd-market-price" },
    dm.closed ? "closed" : `pays +${dm.income} income · ${(dm.tiles_left || []).length} tiles`));
  target(g, "market:distant_market", `distant market: ${distantText(dm)}`, ctx);
  return g;
}

export { describeEvent, finalScene } from "./brass-birmingham.js";

export function targetsOf(move, ctx) {
  if (move.type === "sell" || move.type === "sell_also") return [move.space, move.to === "distant_market" ? "market:distant_market" : move.to];
  if (move.type === "double_build") return [move.space, move.space.split(":")[0]];
  if (move.type === "draw_demand") return [];
  return bb.targetsOf(move, ctx);
}

export function describeMove(move, ctx) {
  const names = ctx && ctx.game ? Object.fromEntries(ctx.game.metadata.board.locations.map((l) => [l.location, l.name])) : {};
  const place = (id) => {
    const [loc, n] = String(id).split(":");
    return `${names[loc] || titleCase(loc)}${n !== undefined ? ` (space ${Number(n) + 1})` : ""}`;
  };
  switch (move.type) {
    case "sell":
    case "sell_also": {
      const v = viewOf(ctx || {});
      const tiles = Object.fromEntries((v.tiles || []).map((x) => [x.space, x]));
      const what = (space) => {
        const x = tiles[space];
        if (!x) return place(space);
        const whose = x.owner === (ctx && ctx.seat) ? "your" : `${seatLabel(x.owner)}'s`;
        return `${whose} ${industryName(x.industry)}${x.level ? ` ${roman(x.level)}` : ""} at ${place(space)}`;
      };
      const to = move.to === "distant_market" ? "the distant market" : `the port: ${what(move.to)}`;
      return `${move.type === "sell" ? "Sell" : "Also sell"} ${what(move.space)} to ${to}`;
    }
    case "double_build":
      return `Double action build: ${industryName(move.industry)} at ${place(move.space)}, discarding any 2 cards${bb.tilePrice(move.industry, ctx)}`;
    case "loan":
      return `Take a loan (£${move.amount}, income −${move.amount / 10} level${move.amount > 10 ? "s" : ""})`;
    case "draw_demand":
      return "Draw a distant-market demand tile";
    default:
      return bb.describeMove(move, ctx ? withBoard(ctx) : ctx);
  }
}
