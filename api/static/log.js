// The match log in words. Events arrive with names (spaces, links, cards…) as the games'
// client guides describe; a board module may say them better (optional export
// `describeEvent(event, ctx)`), otherwise the sentences below, or a plain rendering of the
// payload for event types this file does not know.

import { cap } from "./api.js";
import { amount } from "./boards/kit.js";

// Ids in the board metadata that come with a printed name ("stoke_on_trent" -> "Stoke-on-Trent").
export function nameIndex(game) {
  const names = {};
  const walk = (node) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== "object") return;
    if (typeof node.name === "string") {
      for (const key of ["location", "oilfield", "city", "hex", "id"]) {
        if (typeof node[key] === "string" && !(node[key] in names)) names[node[key]] = node.name;
      }
    }
    Object.values(node).forEach(walk);
  };
  const board = game && game.metadata && game.metadata.board;
  walk(board);
  // Brass: Pittsburgh's markets have no printed name: each is its city's ("ci_greensburg" ->
  // "Greensburg market").
  const markets = (node) => {
    if (Array.isArray(node)) return node.forEach(markets);
    if (!node || typeof node !== "object") return;
    if (typeof node.market === "string" && typeof node.city === "string" && !(node.market in names)) {
      names[node.market] = `${names[node.city] || words(node.city)} market`;
    }
    Object.values(node).forEach(markets);
  };
  markets(board);
  return names;
}

function pretty(id, names) {
  if (id == null) return "";
  const text = String(id);
  if (names[text]) return names[text];
  if (text.includes("~")) return text.split("~").map((p) => pretty(p, names)).join("–");
  const [head, rest] = [text.slice(0, text.indexOf(":")), text.slice(text.indexOf(":") + 1)];
  if (text.includes(":") && (head === "location" || head === "industry" || head === "wild")) {
    return head === "wild" ? `wild ${rest}` : words(pretty(rest, names));
  }
  if (text.includes(":") && names[head]) return `${names[head]} ${Number(rest) + 1}`;
  return words(text);
}

function words(text) {
  return String(text).replace(/_/g, " ");
}

function list(items, names) {
  return (items || []).map((x) => pretty(x, names)).join(", ");
}

// The currency of the game the log is of: a board module may name its own (Pittsburgh and
// Age of Steam count dollars), else pounds, as both British Brass games do.
let currency = "£";

// A sum below zero (an Age of Steam income, a bankrupt's expenses) reads "−$2", not "$-2".
function money(n) {
  return amount(currency, n);
}

function dollars(n) {
  return amount("$", n);
}


// Sentences for the event types the installed games share; `who` is the acting seat's name.
const SAY = {
  "core.match_created": (p) => `Match created: ${p.players} players${p.from_position ? ", from a position" : ""}${p.imported ? ", imported from a record" : ""}`,
  "core.seat_claimed": (p, n, seat) => `${seat(p.seat)} was taken`,
  "core.seat_bot": (p, n, seat) => `${seat(p.seat)} is played by the ${p.bot} bot${p.level ? ` (${p.level})` : ""}`,
  "core.seat_bot_released": (p, n, seat) => `${seat(p.seat)} is no longer played by a bot`,
  "core.seat_invited": (p, n, seat) => `${seat(p.seat)} is kept for an invited player`,
  "core.seat_token_reissued": (p, n, seat) => `${seat(p.seat)} got a new token`,
  "core.seat_removed": (p, n, seat) => `${seat(p.seat)}'s player was removed`,
  "core.seat_resigned": (p, n, seat) => `${seat(p.seat)} resigned${p.reason === "timeout" ? " (out of time)" : ""}`,
  "core.turn_timed_out": (p, n, seat) => `${seat(p.seat)} ran out of time${p.action === "bot" ? ": a bot plays the turn" : ""}`,
  "core.match_abandoned": () => "The match was abandoned",
  started: (p) => `The game begins (${p.players} players)`,
  discarded: (p, n) => `discarded ${list(p.cards, n)}`,
  tile_placed: (p, n) => `built ${words(p.industry || p.tile || "a tile")}${p.level ? ` ${roman(p.level)}` : ""} at ${pretty(p.space, n)}`,
  tile_developed: (p, n) => `developed ${words(p.industry || p.tile)}${p.level ? ` ${roman(p.level)}` : ""}`,
  tile_taken: (p) => `took tile ${p.tile} from the mat`,
  link_placed: (p, n) => `built a link ${pretty(p.link, n)}`,
  train_placed: (p, n) => `placed a train on ${pretty(p.line, n)}`,
  pipeline_placed: (p, n) => `laid a pipeline ${pretty(p.route, n)}`,
  paid: (p) => `paid ${money(p.amount)}`,
  market_bought: (p, n) => `bought ${p.count || 1} ${p.resource} from the ${p.market ? pretty(p.market, n) : "market"}`,
  produced: (p, n) => `${pretty(p.space, n)} produced ${p.cubes}${p.sold ? ` (${p.sold} sold for ${money(p.money)})` : ""}`,
  cubes_sold: (p, n) => `sold ${p.count} ${p.resource} from ${pretty(p.space, n)} to ${pretty(p.market, n)}`,
  // Nothing drawn (the deck ran out): no line.
  drew: (p, n) => (!p.count ? null : p.cards ? `drew ${list(p.cards, n)}` : `drew ${p.count} card${p.count === 1 ? "" : "s"}`),
  loan_taken: (p) => `took a loan of ${money(p.amount)}`,
  income_set: (p) => `moved to income space ${p.income_space}`,
  bankrupt: () => "went bankrupt",
  board_cleared: (p) => `The era's end cleared ${(p.lines || []).length} line${(p.lines || []).length === 1 ? "" : "s"}${(p.spaces || []).length ? ` and ${p.spaces.length} tile${p.spaces.length === 1 ? "" : "s"}` : ""} from the board`,
  cargo_taken: (p, n) => `took the cargo of the train on ${pretty(p.line, n)}`,
  demand_tile_drawn: (p, n) => `drew a demand tile for ${pretty(p.space, n)}: the marker moves ${p.tile} space${p.tile === 1 ? "" : "s"} down`,
  merchant_flipped: (p, n) => `turned the merchant tile at ${pretty(p.merchant, n)}`,
  money_scored: (p, n, seat) => `Money scored: ${(p.vp || []).map((v, i) => `${seat(i)} +${v} VP`).join(", ")}`,
  oil_taken: (p, n) => `took oil from ${pretty(p.oilfield, n)}`,
  oilfield_revealed: (p, n) => `revealed ${pretty(p.oilfield, n)}: ${p.oil_now} oil now, ${p.oil_later} later`,
  quality_claimed: (p) => `claimed the Quality Reward ${words(p.reward || "")}`,
  tile_removed: (p, n) => `removed the tile at ${pretty(p.space, n)}`,
  whiskey_spent: (p) => `spent ${p.count} whiskey`,
  scouted: () => "scouted for wild cards",
  passed: () => "passed",
  flipped: (p, n) => `${pretty(p.space, n)} flipped`,
  tile_flipped: (p, n) => `${pretty(p.space, n)} flipped`,
  cube_taken: (p, n) => `took a cube from ${pretty(p.space, n)}`,
  merchant_beer_taken: (p, n) => `took the merchant's beer at ${pretty(p.merchant, n)}`,
  bonus_gained: (p) => `gained a bonus: ${gains(p)}`,
  gained: (p) => `gained ${gains(p)}`,
  liquidated: (p, n) => `sold ${pretty(p.space, n)} back for ${money(p.refund)}`,
  // The round's end pays income (negative: paid) and sets the next round's order: the
  // divider says both, as a table's income phase does.
  round_ended: (p, n, seat) => {
    const parts = ["Round over"];
    const income = (p.income || []).map((v, i) => `${seat(i)} ${v < 0 ? "−" : "+"}${money(Math.abs(v))}`);
    if (income.length && (p.income || []).some((v) => v)) parts.push(`income ${income.join(", ")}`);
    const lost = (p.vp_lost || []).map((v, i) => (v ? `${seat(i)} −${v} VP` : null)).filter(Boolean);
    if (lost.length) parts.push(`unpaid income ${lost.join(", ")}`);
    if ((p.order || []).length) parts.push(`next order ${p.order.map((i) => seat(i)).join(", ")}`);
    return parts.join(" · ");
  },
  era_scored: (p, n, seat) => `Era scored: ${(p.links || []).map((v, i) => `${seat(i)} +${v + ((p.industries || [])[i] || 0)} VP`).join(", ")}`,
  era_began: (p) => `A new era begins`,
  game_ended: () => "The game is over",
  shares_issued: (p) => (p.count ? `issued ${p.count} share${p.count === 1 ? "" : "s"}` : "issued no shares"),
  action_selected: (p) => `took the ${words(p.action)} action`,
  building_done: () => "finished building",
  move_passed: () => "passed",
  first_declined: () => "declined to go first",
  first_bought: () => "paid to go first",
  bid_placed: (p) => `bid ${dollars(p.amount)}`,
  passed_once: () => "passed once (Turn Order)",
  dropped_out: () => "dropped out of the auction",
  order_decided: (p, n, seat) => `Player order: ${(p.order || []).map((i) => seat(i)).join(", ")}`,
  urbanized: (p, n) => `urbanized ${pretty(p.hex, n)} into New City ${p.city}`,
  track_built: (p, n) => `laid ${words(p.tile)} on ${pretty(p.hex, n)} for ${dollars(p.cost)}`,
  good_moved: (p, n, seat) => `moved a ${p.color} good from ${pretty(p.start, n)} to ${pretty(p.end, n)}` +
    `${(p.income || []).length ? ` (${p.income.map((g) => `${seat(g.seat)} +${g.amount}`).join(", ")})` : ""}`,
  engine_raised: () => "raised the engine by one link",
  production_drawn: (p) => `drew ${(p.cubes || []).join(", ")} for Production`,
  cube_placed: (p) => `placed a ${p.color} cube on display column ${p.column}`,
  turn_ended: (p) => `Turn ${p.turn} over`,
  income_collected: (p, n, seat) => `Income: ${(p.income || []).map((v, i) => `${seat(i)} ${dollars(v)}`).join(", ")}`,
  expenses_paid: (p, n, seat) => `Expenses: ${(p.paid || []).map((v, i) => `${seat(i)} ${dollars(v)}`).join(", ")}` +
    `${(p.eliminated || []).length ? `; ${p.eliminated.map((i) => seat(i)).join(", ")} bankrupt` : ""}`,
};

// Events that only restate what the view shows next.
const QUIET = new Set(["awaiting", "action_done", "income_reduced", "goods_grown"]);

const DIVIDERS = new Set(["round_ended", "era_began", "era_scored", "turn_ended", "game_ended", "started"]);

function gains(p) {
  const parts = [];
  if (p.money) parts.push(money(p.money));
  if (p.vp) parts.push(`${p.vp} VP`);
  if (p.income) parts.push(`${p.income} income`);
  if (p.income_spaces) parts.push(`${p.income_spaces} income spaces`);
  if (p.whiskey) parts.push(`${p.whiskey} whiskey`);
  return parts.join(", ") || "nothing";
}

function roman(n) {
  return ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII"][n] || String(n);
}

function plain(payload, names) {
  const parts = [];
  for (const [key, value] of Object.entries(payload || {})) {
    if (key === "seat" || key === "type" || value == null) continue;
    if (typeof value === "object") {
      if (Array.isArray(value) && value.length && value.length <= 6 && value.every((v) => typeof v !== "object")) {
        parts.push(`${words(key)} ${list(value, names)}`);
      }
      continue;
    }
    parts.push(`${words(key)} ${typeof value === "string" ? pretty(value, names) : value}`);
  }
  return parts.join(", ");
}

// One log line: {text, seat (acting seat or null), divider (bool)} or null to leave it out.
export function describeEvent(event, ctx) {
  if (QUIET.has(event.type)) return null;
  const p = event.payload || {};
  const names = ctx.names;
  currency = (ctx.board && typeof ctx.board.currency === "string" && ctx.board.currency) || "£";
  const seat = (i) => ctx.seatName(i);
  const actor = typeof p.seat === "number" ? p.seat : event.actor >= 0 ? event.actor : null;
  let text = null;
  if (ctx.board && typeof ctx.board.describeEvent === "function") {
    try {
      text = ctx.board.describeEvent(event, ctx);
    } catch (err) {
      console.warn("describeEvent failed", err);
    }
  }
  const personal = !event.type.startsWith("core.") && actor != null && !DIVIDERS.has(event.type);
  if (text == null) {
    const say = SAY[event.type];
    if (say) {
      text = say(p, names, seat);
      if (text == null) return null;  // a sentence that would say nothing happened
      if (personal && /^[a-z]/.test(text)) text = `${seat(actor)} ${text}`;
    } else {
      const body = plain(p, names);
      text = `${cap(words(event.type))}${body ? `: ${body}` : ""}`;
      if (personal) text = `${seat(actor)}: ${text}`;
    }
  }
  return { text: cap(text), seat: personal ? actor : null, divider: DIVIDERS.has(event.type) };
}

// A decision's prompt as a person reads it: the views word prompts with the ids of places
// ("sell birmingham:0 to oxford:0", "the next coal for birmingham~walsall") and name the
// moves that answer them ("then done_building", "or finish with done"); here each place
// reads as its printed name and each such move as the label its button carries, and the
// hints for programs of which field names the choice ("(by its space)") are left out.
const PLACE_ID = /\b[a-z][a-z0-9_]*(?:(?:~[a-z][a-z0-9_]*)+|:\d+)\b/g;

export function promptInWords(prompt, moves, names) {
  if (typeof prompt !== "string" || !prompt) return prompt;
  // "(by its space)", "(by the merchant space)": which field of the move names the choice,
  // for programs; a person picks on the board or in the list.
  let text = prompt.replace(/ \(by (?:its |the merchant )?space\)/g, "");
  text = text.replace(PLACE_ID, (id) => {
    const parts = id.includes("~") ? id.split("~") : [id.slice(0, id.indexOf(":"))];
    return parts.every((p) => names[p]) ? pretty(id, names) : id;
  });
  // A place named alone ("1 coal still needed for washington"): a lower-case word that is
  // the id of a named place on this game's board.
  text = text.replace(/\b[a-z][a-z_]*[a-z]\b/g, (word) => (names[word] && /^[a-z_]+$/.test(word) ? names[word] : word));
  for (const move of moves || []) {
    const label = `“${cap(words(move))}”`;
    const esc = move.replace(/[^a-z0-9_]/gi, "");
    // A move type of two words is never ordinary prose; a one-word one ("done") only where
    // the prompt names it as the answer: "(urbanize)", "finish with done", "finish: done".
    const where = move.includes("_") ? `\\b${esc}\\b` : `(?<=\\(|\\bwith |\\bfinish: )${esc}(?=\\)|\\b)`;
    text = text.replace(new RegExp(where, "g"), label);
  }
  return text;
}
