// The REST API as the web table uses it: the public routes only, as any client would.
// Errors come back as RFC 9457 problem documents; ApiError carries their sentence.

export class ApiError extends Error {
  constructor(status, problem) {
    super((problem && problem.detail) || `the server answered ${status}`);
    this.status = status;
    this.code = (problem && problem.code) || "error";
    this.problem = problem || {};
  }
}

async function call(method, path, { token, body, headers = {} } = {}) {
  const init = { method, headers: { Accept: "application/json", ...headers } };
  if (token) init.headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, { code: "offline", detail: "The server cannot be reached." });
  }
  const type = response.headers.get("content-type") || "";
  const data = type.includes("json") ? await response.json() : await response.text();
  if (!response.ok) throw new ApiError(response.status, typeof data === "object" ? data : null);
  return data;
}

export const api = {
  games: () => call("GET", "/games"),
  game: (id) => call("GET", `/games/${encodeURIComponent(id)}`),
  matches: (offset = 0, limit = 50) => call("GET", `/matches?offset=${offset}&limit=${limit}`),
  createMatch: (body) => call("POST", "/matches", { body }),
  match: (id, token, at) =>
    call("GET", `/matches/${id}${at == null ? "" : `?at=${at}`}`, { token: at == null ? token : null }),
  claim: (id, seat) => call("POST", `/matches/${id}/seats/${seat}/claim`),
  toBot: (id, seat, bot, level, token) =>
    call("POST", `/matches/${id}/seats/${seat}/bot`, {
      token, body: level ? { bot, level } : { bot },
    }),
  moves: (id, token) => call("GET", `/matches/${id}/moves`, { token }),
  submit: (id, token, move, expectedVersion) =>
    call("POST", `/matches/${id}/moves`, {
      token,
      body: { move, expected_version: expectedVersion },
      headers: { "Idempotency-Key": newKey() },
    }),
  events: (id, token, after = 0, limit = 500) =>
    call("GET", `/matches/${id}/events?after=${after}&limit=${limit}`, { token }),
  streamTicket: (id, token) => call("POST", `/matches/${id}/stream-ticket`, { token }),
};

function newKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// Seat tokens are the seat's only key: kept in this browser, per match and seat.
const TOKENS = "ironworks.tokens";

function readTokens() {
  try {
    return JSON.parse(localStorage.getItem(TOKENS) || "{}");
  } catch {
    return {};
  }
}

export const tokens = {
  all: readTokens,
  forMatch: (matchId) => readTokens()[matchId] || {},
  save(matchId, seat, token) {
    const all = readTokens();
    all[matchId] = { ...(all[matchId] || {}), [seat]: token };
    localStorage.setItem(TOKENS, JSON.stringify(all));
  },
};

// Games change only with a server upgrade: one fetch per page load.
let gamesPromise = null;
export function gamesById() {
  if (!gamesPromise) {
    gamesPromise = api.games().then((list) => Object.fromEntries(list.map((g) => [g.id, g])));
    gamesPromise.catch(() => { gamesPromise = null; });
  }
  return gamesPromise;
}

// The bot kinds a game offers (GET /games/{id} field `bots`), else the two every game has.
export function botChoices(game) {
  const kinds = Array.isArray(game && game.bots) && game.bots.length
    ? game.bots
    : [{ bot: "random", levels: [] }, { bot: "greedy", levels: [] }];
  const choices = [];
  for (const info of kinds) {
    const bot = typeof info === "string" ? info : info.bot || info.kind;
    const levels = (typeof info === "object" && info.levels) || [];
    if (!levels.length) choices.push({ bot, level: null, label: `${cap(bot)} bot`, title: info.description });
    for (const level of levels) {
      choices.push({ bot, level, label: `${cap(bot)} bot (${level})`, title: info.description });
    }
  }
  return choices;
}

export function cap(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}
