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
  const sent = Date.now();
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, { code: "offline", detail: "The server cannot be reached." });
  }
  serverClock.sample(response.headers.get("date"), sent, Date.now());
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
  claim: (id, seat, invite) =>
    call("POST", `/matches/${id}/seats/${seat}/claim`, {
      body: invite ? { invite } : undefined,
      headers: { "Idempotency-Key": newKey() },
    }),
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
  // The owner's actions (the owner token from POST /matches) and a seat's own.
  invite: (id, seat, owner) => call("POST", `/matches/${id}/seats/${seat}/invite`, { token: owner }),
  reissue: (id, seat, owner) => call("POST", `/matches/${id}/seats/${seat}/reissue`, { token: owner }),
  remove: (id, seat, owner) => call("POST", `/matches/${id}/seats/${seat}/remove`, { token: owner }),
  releaseBot: (id, seat, token) => call("DELETE", `/matches/${id}/seats/${seat}/bot`, { token }),
  resign: (id, seat, token) => call("POST", `/matches/${id}/seats/${seat}/resign`, { token }),
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

// The match's owner token (POST /matches shows it once): kept in this browser, per match.
const OWNERS = "ironworks.owners";

export const owners = {
  forMatch(matchId) {
    try {
      return JSON.parse(localStorage.getItem(OWNERS) || "{}")[matchId] || null;
    } catch {
      return null;
    }
  },
  save(matchId, token) {
    let all = {};
    try {
      all = JSON.parse(localStorage.getItem(OWNERS) || "{}");
    } catch {
      all = {};
    }
    all[matchId] = token;
    localStorage.setItem(OWNERS, JSON.stringify(all));
  },
};

// The server's time, for clocks: deadlines are the server's epoch seconds, and this
// machine's clock may be off by minutes. Bounds on the offset (server minus local, in ms):
// - an answer's Date header D (whole seconds, and uvicorn refreshes it once a second, so
//   up to two seconds behind): the server had passed D when the answer came back, and had
//   not reached D + 2 s when the request left;
// - an event's timestamp (to the millisecond): the server had passed it when the event
//   arrived, a tight lower bound for an event that arrives live.
// The bounds are intersected; the estimate is the lower bound once an event set it (within
// a stream's latency), else the middle. Bounds that contradict each other mean a clock
// jumped: start again from the newest.
const DATE_SLACK_MS = 2000;

export const serverClock = {
  low: -Infinity,
  high: Infinity,
  tight: false,
  bound(low, high, tight) {
    if (low > this.high || high < this.low) {
      this.low = -Infinity;
      this.high = Infinity;
      this.tight = false;
    }
    if (low > this.low) {
      this.low = low;
      this.tight = tight;
    }
    this.high = Math.min(this.high, high);
  },
  sample(header, sent, received) {
    const date = header ? Date.parse(header) : NaN;
    if (!Number.isNaN(date)) this.bound(date - received, date + DATE_SLACK_MS - sent, false);
  },
  event(seconds) {
    if (typeof seconds === "number") this.bound(seconds * 1000 - Date.now(), Infinity, true);
  },
  // Milliseconds to add to Date.now() for the server's time.
  offsetMs() {
    const low = Number.isFinite(this.low);
    const high = Number.isFinite(this.high);
    if (low && (this.tight || !high)) return this.low;
    if (low) return (this.low + this.high) / 2;
    return high ? this.high - DATE_SLACK_MS / 2 : 0;
  },
  // The server's time now, in epoch seconds.
  now() {
    return (Date.now() + this.offsetMs()) / 1000;
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
