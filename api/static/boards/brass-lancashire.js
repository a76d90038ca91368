// Brass: Lancashire: Birmingham's drawing of the board (the same layout format and view
// shape: tiles, links, markets, players), with no merchants; ports are build spaces. What
// differs is named here: sales go to a port's space or the distant market, the double build.
// Target ids: as Birmingham's, plus "distant_market" (market:distant_market on the board).
import * as bb from "./brass-birmingham.js";
import { titleCase } from "./kit.js";
import { industryName } from "./brass-common.js";

function withBoard(ctx) {
  const board = { merchant_spaces: [], ...ctx.game.metadata.board };
  return { ...ctx, game: { ...ctx.game, metadata: { ...ctx.game.metadata, board } } };
}

export function render(svg, panels, ctx) {
  return bb.render(svg, panels, withBoard(ctx));
}

export { finalScene } from "./brass-birmingham.js";

export function targetsOf(move, ctx) {
  if (move.type === "sell" || move.type === "sell_also") return [move.space, move.to];
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
      const to = move.to === "distant_market" ? "the distant market" : `the port at ${place(move.to)}`;
      return `${move.type === "sell" ? "Sell" : "Also sell"} ${place(move.space)} to ${to}`;
    }
    case "double_build":
      return `Double action build: ${industryName(move.industry)} at ${place(move.space)}, discarding any 2 cards`;
    case "loan":
      return `Take a loan (£${move.amount}, income −${move.amount / 10} level${move.amount > 10 ? "s" : ""})`;
    case "draw_demand":
      return "Draw a distant-market demand tile";
    default:
      return bb.describeMove(move, ctx ? withBoard(ctx) : ctx);
  }
}
