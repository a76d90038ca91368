// Node check for the board modules' targetsOf (run by tests/test_board_targets.py):
// reads {"module": path, "game": GET /games body, "need": [move types],
// "decisions": [{"view", "seat", "legal", "universe"}]} on stdin and prints
// {"untargeted": [...], "unknown": [...], "checked": n}: moves of a needed type that name no
// target, and target ids that are not ids of the board (the universe the server's names give).
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const input = JSON.parse(readFileSync(0, "utf8"));
const mod = await import(pathToFileURL(input.module).href);
const need = new Set(input.need);
const untargeted = [];
const unknown = [];
let checked = 0;
for (const d of input.decisions) {
  const ctx = { game: input.game, view: d.view, seat: d.seat, targets: new Set(), touched: new Set(), onPick: () => {} };
  const universe = new Set(d.universe);
  for (const move of d.legal) {
    const ids = mod.targetsOf(move, ctx);
    checked += 1;
    if (need.has(move.type) && ids.length === 0) untargeted.push(move);
    for (const id of ids) if (!universe.has(id)) unknown.push({ move, id });
    if (typeof mod.describeMove(move, ctx) !== "string") unknown.push({ move, id: "describeMove" });
  }
}
console.log(JSON.stringify({ untargeted: untargeted.slice(0, 20), unknown: unknown.slice(0, 20), checked }));
