// The table: the board and panels (drawn by the game's board module), whose turn it is and
// what must be done, the seat's legal moves (on the board and as a list), the log, live
// updates from the event stream, and a replay slider.

import { ApiError, api, botChoices, cap, owners, serverClock, tokens } from "./api.js";
import { h } from "./dom.js";
import { clockSummary, seatLabel } from "./lobby.js";
import { describeEvent, nameIndex, promptInWords } from "./log.js";
import {
  byType, candidates, emptyChoice, narrowingTargets, pick, safeTargets, typeLabel,
} from "./moves.js";

const LIST_LIMIT = 40;
const FEW_MOVES = 3;
const FILTER_FROM = 8;  // a longer list gets a filter and its kinds as chips
const REFRESH_DELAY_MS = 120;
const RETRY_MS = 2000;
const CLOCK_TICK_MS = 250;
const LOW_TIME_S = 10;
// The table's grid (style.css): the side column's width, the panels' widest beside the
// board, the gap, the window's height the board leaves to the page's header and its foot
// (svg.board's max-height), and from which window width and below which width to height
// the panels may stand beside the board.
const SIDE_PX = 370;
const PANELS_PX = 330;
const GAP_PX = 16;
const BOARD_CHROME_PX = 170;
const BESIDE_MIN_WIDTH = 1300;
const TALL_ASPECT = 1.3;
const FRAME_PX = 16;  // .board-frame's padding and border around the board
const SIDE_EXTRA_PX = 90;
const ONE_COLUMN_MAX = 980;  // style.css: one column up to this width

export async function loadBoard(gameId) {
  try {
    return await import(`/static/boards/${gameId}.js`);
  } catch (err) {
    console.warn(`no board module for ${gameId}; drawing the generic one`, err);
    return import("./generic-board.js");
  }
}

// What the address says besides the match: `?seat=N&invite=CODE` (an owner's invite link)
// or `?seat=N&token=T` (a re-issued seat token). A token is kept at once and taken out of
// the address; the address fragment never reaches a server or its logs.
function addressParams(matchId) {
  const query = location.hash.includes("?") ? location.hash.slice(location.hash.indexOf("?") + 1) : "";
  const params = new URLSearchParams(query);
  const seat = Number(params.get("seat"));
  const validSeat = params.has("seat") && Number.isInteger(seat) && seat >= 0;
  if (validSeat && params.get("token")) {
    tokens.save(matchId, seat, params.get("token"));
    history.replaceState(null, "", `#/match/${encodeURIComponent(matchId)}`);
  }
  return validSeat && params.get("invite") ? { seat, code: params.get("invite") } : null;
}

export function joinLink(matchId, seat, key, value) {
  const base = `${location.origin}${location.pathname}`;
  return `${base}#/match/${encodeURIComponent(matchId)}?seat=${seat}&${key}=${encodeURIComponent(value)}`;
}

// A clock's reading: "2 d 04 h", "1:02:03", "4:05".
export function clockText(seconds) {
  const left = Math.max(0, Math.ceil(seconds));
  const d = Math.floor(left / 86400);
  const hrs = Math.floor((left % 86400) / 3600);
  const min = Math.floor((left % 3600) / 60);
  const sec = left % 60;
  const two = (n) => String(n).padStart(2, "0");
  if (d) return `${d} d ${two(hrs)} h`;
  if (hrs) return `${hrs}:${two(min)}:${two(sec)}`;
  return `${min}:${two(sec)}`;
}

// The seat's clock now: the countdown to its deadline while its turn runs (not in a replay
// of the past), else what it has.
function clockReading(env, seat, live) {
  const clock = env && env.rules && env.rules.clock;
  const info = env && env.seats[seat];
  if (!clock || !info) return null;
  if (live && info.deadline != null && !env.finished) {
    const left = info.deadline - serverClock.now();
    return { text: clockText(left), left: Math.max(0, Math.ceil(left)), running: true };
  }
  const stock = clock.bank_seconds != null
    ? (info.bank_seconds != null ? info.bank_seconds : clock.bank_seconds)
    : clock.turn_seconds;
  return { text: clockText(stock), left: Math.ceil(stock), running: false };
}

export async function showTable(root, matchId, { navigate }) {
  const invited = addressParams(matchId);
  const owner = owners.forMatch(matchId);
  const held = tokens.forMatch(matchId);
  const heldSeats = Object.keys(held).map(Number).sort((a, b) => a - b);
  const s = {
    seat: heldSeats.length ? heldSeats[0] : null,
    env: null, moves: [], movesVersion: null,
    choice: emptyChoice(), filter: "", showAll: false,
    events: [], lastVersion: 0, drawnThrough: 0,
    error: null, info: null, busy: false,
    replay: null, stream: null, retry: null, refreshTimer: null, alive: true, redraws: 0,
    live: false, preview: null,
    ownerNotes: {}, confirm: null, joinError: null,
    finalScene: null,
  };
  const token = () => (s.seat == null ? null : tokens.forMatch(matchId)[s.seat]);

  let env;
  try {
    env = await api.match(matchId, token());
  } catch (err) {
    root.replaceChildren(h("section", { class: "card notice-page" },
      h("h2", {}, "This match cannot be opened"), h("p", {}, err.message),
      h("a", { class: "button", href: "#/" }, "Back to the lobby")));
    return () => {};
  }
  const game = await api.game(env.game);
  const board = await loadBoard(env.game);
  const names = nameIndex(game);
  const hidden = !game.metadata || game.metadata.hidden_information !== false;
  document.title = `${game.title} · ironworks`;

  const seatName = (i) => {
    if (i == null || i < 0) return "The game";
    const info = s.env && s.env.seats[i];
    const base = seatLabel(i);
    if (i === s.seat) return `${base} (you)`;
    if (info && info.bot) return `${base} (${info.bot} bot${info.level ? `, ${info.level}` : ""})`;
    return base;
  };
  // A log line names its seat alike whenever it is drawn: live, on load, after a seat switch.
  // Not by who plays it now: the page's newest answer can be ahead of the event stream, so a
  // line drawn after it would name a later occupant ("Seat 2 (greedy bot)'s player was
  // removed"). The log's own seat lines say who took a seat over.
  const logSeatName = (i) => {
    if (i == null || i < 0) return "The game";
    return i === s.seat ? `${seatLabel(i)} (you)` : seatLabel(i);
  };
  const logCtx = {
    game, board, names, seatName: logSeatName,
    get seat() { return s.seat; },
    get view() { return s.env || env; },  // which map, for a board that names places by it
  };

  // --- the page ------------------------------------------------------------------------
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "board");
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", `${game.title} board`);
  const panels = h("div", { class: "panels" });
  const statusLine = h("p", { class: "status-line", role: "status", "aria-live": "polite" });
  const conn = h("span", { class: "conn", title: "Live updates" });
  const seatSwitch = h("select", { class: "small", "aria-label": "Play as" });
  const turnCard = h("section", { class: "card turn-card", "aria-label": "Your move" });
  const seatsCard = h("section", { class: "card seats-card", "aria-label": "Seats" });
  const logList = h("ol", { class: "log", "aria-label": "Match log" });
  const replayBar = h("div", { class: "replay-bar" });
  const boardError = h("div", { class: "notice", role: "alert", hidden: true });
  // A board drawn to the column's width can be too small to read (Pittsburgh's many small
  // spaces, any board on a phone): a larger drawing scrolls inside its frame instead. The
  // choice is kept per game, as a person sets it once for their screen.
  const zoomKey = `ironworks.zoom.${env.game}`;
  const boardFrame = h("div", { class: "board-frame" }, svg);
  const zoomButton = h("button", { class: "ghost small zoom", type: "button" });
  function setZoom(on, keep = true) {
    const frame = boardFrame;
    const [cx, cy] = [(frame.scrollLeft + frame.clientWidth / 2) / (frame.scrollWidth || 1),
      (frame.scrollTop + frame.clientHeight / 2) / (frame.scrollHeight || 1)];
    frame.classList.toggle("zoomed", on);
    zoomButton.textContent = on ? "Fit the board" : "Enlarge the board";
    zoomButton.setAttribute("aria-pressed", String(on));
    // Keep the middle of what was in view in the middle.
    frame.scrollLeft = cx * frame.scrollWidth - frame.clientWidth / 2;
    frame.scrollTop = cy * frame.scrollHeight - frame.clientHeight / 2;
    if (keep) {
      try { localStorage.setItem(zoomKey, on ? "1" : ""); } catch { /* private mode: not kept */ }
    }
  }
  zoomButton.addEventListener("click", () => setZoom(!boardFrame.classList.contains("zoomed")));
  let zoomed = false;
  try { zoomed = localStorage.getItem(zoomKey) === "1"; } catch { /* not kept */ }
  setZoom(zoomed, false);

  const page = h("section", { class: "table-page" },
      h("header", { class: "table-bar" },
        h("a", { href: "#/", class: "back" }, "← Lobby"),
        h("h2", {}, game.title),
        h("span", { class: "muted match-id", title: matchId }, `match ${matchId.slice(0, 8)}`),
        h("span", { class: "grow" }),
        seatSwitch, conn),
      statusLine,
      h("div", { class: "table-grid", id: "table-grid" },
        h("section", { class: "board-area" }, boardError, boardFrame,
          h("div", { class: "board-foot" }, replayBar, zoomButton)),
        // What the person must do comes first, where the eye lands after the status line:
        // below the seats it sat under the window's fold at 1440×900 (the seats' owner
        // actions are wanted now and then, a move every few seconds).
        h("aside", { class: "side" }, turnCard, seatsCard,
          h("section", { class: "card log-card" }, h("h3", {}, "Log"), logList)),
        panels),
  );
  root.replaceChildren(page);

  function renderSeatSwitch() {
    const options = [
      ...heldSeats.map((seat) => h("option", { value: String(seat) }, `Playing ${seatLabel(seat)}`)),
      h("option", { value: "" }, "Watching"),
    ];
    seatSwitch.replaceChildren(...options);
    seatSwitch.value = s.seat == null ? "" : String(s.seat);
    seatSwitch.hidden = heldSeats.length === 0;
  }
  seatSwitch.addEventListener("change", async () => {
    s.seat = seatSwitch.value === "" ? null : Number(seatSwitch.value);
    s.choice = emptyChoice();
    await reloadAll();
  });

  // --- seats, clocks and the owner's panel -----------------------------------------------
  const inviteOnly = () => Boolean(s.env && s.env.rules && s.env.rules.invite_only);

  function occupant(info) {
    if (info.resigned) return "resigned";
    const mine = heldSeats.includes(info.seat);
    if (info.bot) return `${info.bot} bot${info.level ? ` (${info.level})` : ""}${mine ? ", for you" : info.claimed ? ", for its player" : ""}`;
    if (mine) return "you";
    if (info.claimed) return "a player";
    if (info.invited) return "invited, not yet joined";
    return "free";
  }

  function renderSeats() {
    const env = shownEnv();
    if (!env) return;
    const clock = env.rules && env.rules.clock;
    const head = h("div", { class: "section-head" }, h("h3", {}, "Seats"),
      clock ? h("span", { class: "muted small-print", title: "Time control" },
        `${clockSummary(clock)}${clock.on_timeout === "resign" ? " · out of time resigns" : " · out of time: a bot plays"}`) : null);
    const ownerTools = owner && !env.finished && !s.replay;
    const rows = env.seats.map((info) => {
      const acting = !env.finished && env.to_act.includes(info.seat);
      return h("div", {
        class: `seat-line${acting ? " acting" : ""}${info.resigned ? " resigned" : ""}`,
        dataset: { seat: String(info.seat) },
      },
      h("div", { class: "row" },
        h("span", { class: `seat-dot seat-${info.seat}` }),
        h("b", {}, seatLabel(info.seat)),
        h("span", { class: "muted occupant" }, occupant(info)),
        h("span", { class: "grow" }),
        clock ? clockNode(info.seat) : null),
      ownerTools ? ownerActions(info) : null,
      ownerTools ? ownerNote(info.seat) : null);
    });
    seatsCard.replaceChildren(head, ...rows);
    if (ownerTools) {
      seatsCard.append(h("p", { class: "muted small-print" }, "You created this match: you may invite, hand seats to bots and take them back."));
    }
    tickClocks();
  }

  function clockNode(seat) {
    return h("span", { class: "clock", dataset: { clockSeat: String(seat) }, role: "timer", "aria-label": `${seatLabel(seat)}'s clock` });
  }

  // Every clock on the page, from the server's deadlines and its time (not this machine's).
  function tickClocks() {
    const env = shownEnv();
    for (const el of root.querySelectorAll("[data-clock-seat]")) {
      const reading = clockReading(env, Number(el.dataset.clockSeat), !s.replay);
      if (!reading) continue;
      if (el.textContent !== reading.text) el.textContent = reading.text;
      el.dataset.left = String(reading.left);
      el.classList.toggle("running", reading.running);
      el.classList.toggle("low", reading.running && reading.left <= LOW_TIME_S);
    }
  }
  const clockTimer = setInterval(tickClocks, CLOCK_TICK_MS);

  function ownerActions(info) {
    const seat = info.seat;
    const act = (label, fn, extra = {}) => h("button", { class: "small", ...extra, onclick: () => ownerDo(seat, fn) }, label);
    const out = [];
    if (info.resigned) return null;
    if (!info.claimed) {
      out.push(act(info.invited ? "New invite" : "Invite", async () => {
        const answer = await api.invite(matchId, seat, owner);
        return { invite: answer.invite };
      }, { title: "Keep this seat for one person: they join with the link" }));
    }
    if (!info.claimed && !info.bot) {
      const select = h("select", { class: "small", "aria-label": `Hand ${seatLabel(seat)} to a bot` },
        h("option", { value: "" }, "Bot…"),
        botChoices(game).map((c, i) => h("option", { value: String(i), title: c.title }, c.label)));
      select.addEventListener("change", () => {
        if (!select.value) return;
        const choice = botChoices(game)[Number(select.value)];
        ownerDo(seat, () => api.toBot(matchId, seat, choice.bot, choice.level, owner));
      });
      out.push(select);
    }
    if (info.bot) {
      out.push(act("Take back from bot", () => api.releaseBot(matchId, seat, owner),
        { title: info.claimed ? "Its player plays it again" : "The seat is free again" }));
    }
    if (info.claimed) {
      out.push(act("New token", async () => {
        const answer = await api.reissue(matchId, seat, owner);
        return { token: answer.token };
      }, { title: "For a player who lost theirs: the old token stops working" }));
      out.push(confirmButton(`remove-${seat}`, "Remove player",
        `Remove ${seatLabel(seat)}'s player? Their token stops working${s.env.rules.absent === "abandon" ? " and the match is abandoned" : " and a bot takes the seat"}.`,
        () => ownerDo(seat, () => api.remove(matchId, seat, owner))));
    }
    return h("div", { class: "row wrap owner-actions" }, out);
  }

  // An owner's action on a seat: what it gives (a code, a token) or the refusal stays by the seat.
  async function ownerDo(seat, fn) {
    try {
      const given = await fn();
      s.ownerNotes[seat] = given && (given.invite || given.token) ? given : null;
      s.confirm = null;
      await refresh();
    } catch (err) {
      s.ownerNotes[seat] = { error: err.message };
    }
    renderSeats();
  }

  function ownerNote(seat) {
    const note = s.ownerNotes[seat];
    if (!note) return null;
    if (note.error) return h("div", { class: "notice", role: "alert" }, note.error);
    const [key, value] = note.invite ? ["invite", note.invite] : ["token", note.token];
    const link = joinLink(matchId, seat, key, value);
    return h("div", { class: "info owner-note", role: "status" },
      h("p", {}, note.invite
        ? `Send this link to the person you invite to ${seatLabel(seat)} (it is shown only now):`
        : `${seatLabel(seat)}'s new token; its player rejoins with this link (shown only now):`),
      h("input", { class: "join-link", readonly: true, value: link, "aria-label": `${seatLabel(seat)} ${note.invite ? "invite" : "rejoin"} link`, onfocus: (e) => e.target.select() }),
      h("p", { class: "muted small-print" }, `${note.invite ? "Invite code" : "Token"}: `, h("code", { class: note.invite ? "invite-code" : "seat-token" }, value)),
      h("div", { class: "row" },
        navigator.clipboard ? h("button", { class: "small", onclick: () => navigator.clipboard.writeText(link).catch(() => {}) }, "Copy link") : null,
        h("button", { class: "ghost small", onclick: () => { s.ownerNotes[seat] = null; renderSeats(); } }, "Done")));
  }

  // A button that asks once more, in place, before it acts.
  function confirmButton(key, label, question, onYes, extra = {}) {
    if (s.confirm !== key) {
      return h("button", { class: "small", ...extra, onclick: () => { s.confirm = key; redrawControls(); } }, label);
    }
    return h("div", { class: "confirm-step", role: "group", "aria-label": label },
      h("p", {}, question),
      h("div", { class: "row" },
        h("button", { class: "danger small", "data-yes": "", onclick: () => { s.confirm = null; onYes(); } }, `Yes, ${label.toLowerCase()}`),
        h("button", { class: "ghost small", onclick: () => { s.confirm = null; redrawControls(); } }, "Cancel")));
  }

  function redrawControls() {
    renderSeats();
    renderTurnCard();
  }

  // Claiming a seat with an invite code (from a link, or typed in).
  function joinForm(seat, code) {
    const seats = s.env.seats.filter((x) => !x.claimed && !x.resigned);
    const seatSelect = h("select", { class: "small", "aria-label": "Seat to join" },
      seats.map((x) => h("option", { value: String(x.seat) }, seatLabel(x.seat))));
    if (seat != null) seatSelect.value = String(seat);
    const input = h("input", { type: "text", class: "invite-input", "aria-label": "Invite code", placeholder: "Invite code", value: code || "" });
    const form = h("form", { class: "stack join-form" },
      seat == null ? h("div", { class: "row" }, h("label", {}, "Seat"), seatSelect) : null,
      input,
      h("button", { type: "submit", class: "primary" }, seat == null ? "Join" : `Join as ${seatLabel(seat)}`),
      s.joinError ? h("div", { class: "notice", role: "alert" }, s.joinError) : null);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const chosen = seat != null ? seat : Number(seatSelect.value);
      takeSeat(chosen, input.value.trim() || null);
    });
    return form;
  }

  // --- drawing -------------------------------------------------------------------------
  function shownEnv() {
    return s.replay && s.replay.env ? s.replay.env : s.env;
  }

  // The board as a person last saw it on the table: a game whose final scoring clears
  // pieces from the view (Brass's links) is drawn with them, from the view just before
  // that scoring (the board module says what to keep: `finalScene`).
  // Its decision's prompt is drawn in words (places by name, moves by their labels).
  function boardEnv() {
    const env = worded(shownEnv());
    const f = s.finalScene;
    if (!f || !f.view || !env || !env.view) return env;
    const at = s.replay ? s.replay.version : env.version;
    if (at < f.from || !(s.replay || env.finished)) return env;
    try {
      return { ...env, view: board.finalScene(env.view, f.view) };
    } catch (err) {
      console.warn("finalScene failed", err);
      return env;
    }
  }

  function worded(env) {
    const d = env && env.view && env.view.decision;
    if (!d || typeof d.prompt !== "string") return env;
    const prompt = promptInWords(d.prompt, d.moves, names);
    return prompt === d.prompt ? env : { ...env, view: { ...env.view, decision: { ...d, prompt } } };
  }

  // The final era's scoring, when nothing a seat did came after it: the view just before.
  async function loadFinalScene() {
    if (s.finalScene || typeof board.finalScene !== "function") return;
    let scored = null;
    for (let i = s.events.length - 1; i >= 0; i--) {
      const e = s.events[i];
      if (e.type.startsWith("core.")) continue;
      if (e.type === "era_scored") { scored = e; break; }
      if (e.actor != null && e.actor >= 0) return;  // a seat moved after the last scoring
    }
    if (!scored) return;
    s.finalScene = { from: scored.version, view: null };
    try {
      const before = await api.match(matchId, null, scored.version - 1);
      s.finalScene = { from: scored.version, view: before.view };
      renderBoard();
    } catch (err) {
      console.warn("the board before the final scoring could not be read", err);
    }
  }

  function renderBoard() {
    const env = boardEnv();
    const inReplay = Boolean(s.replay);
    const list = inReplay ? [] : candidates(board, s.moves, s.choice, boardCtx());
    const targets = inReplay || s.busy ? new Set() : narrowingTargets(board, list, s.choice, boardCtx());
    // The move about to be played is drawn in place: the one left, or the one hovered.
    const preview = inReplay ? null : s.preview || (list.length === 1 && (s.choice.type || s.choice.picks.length) ? list[0] : null);
    const ctx = {
      game, view: env, seat: inReplay ? null : s.seat, targets,
      // The move that led to the version shown is marked, live as in a replay.
      touched: touchedBy(lastMove(s.events, inReplay ? s.replay.version : env.version)),
      picked: new Set(s.choice.picks),
      preview,
      onPick: (target) => onPick(target),
    };
    try {
      board.render(svg, panels, ctx);
      boardError.hidden = true;
      if (env.rules && env.rules.clock) {
        for (const panel of panels.querySelectorAll("[data-seat]")) {
          const header = panel.querySelector("header") || panel;
          header.append(clockNode(Number(panel.dataset.seat)));
        }
        tickClocks();
      }
      placePanels();
    } catch (err) {
      console.error("the board module failed to draw", err);
      boardError.hidden = false;
      boardError.textContent = `The board could not be drawn: ${err.message}`;
    }
  }

  // A board about as tall as wide leaves room beside it on a wide screen: the panels go
  // there instead of below, when that draws the board hardly smaller. The board is at most as
  // tall as the window allows (svg.board's max-height), so beside the panels it is as wide
  // as its column or that height allows, and with the panels below as wide as the side
  // column leaves or that height allows: at 1440x900 Pittsburgh's board was drawn 640 px
  // wide beside the panels where the window's height gives it 750 with them below.
  // What the board, at its full height, leaves of its column's width goes to the side
  // column (up to SIDE_EXTRA_PX): the moves read on one line, more of them in view (Age of
  // Steam's builds at 1366x768 were two lines each, two in view).
  function placePanels() {
    const box = svg.viewBox && svg.viewBox.baseVal;
    const grid = root.querySelector(".table-grid");
    if (!box || !box.width || !grid) return;
    const aspect = box.width / box.height;
    const tall = (innerHeight - BOARD_CHROME_PX) * aspect + FRAME_PX;  // the board's frame at its full height
    const width = grid.clientWidth - SIDE_PX - GAP_PX;
    let beside = aspect < TALL_ASPECT && innerWidth >= BESIDE_MIN_WIDTH;
    // Beside, unless below they let the board grow by a tenth or more (the panels hold the
    // hand: at 1366x768 below them the board would gain 6 %, and the hand leave the screen).
    if (beside) beside = Math.min(width - PANELS_PX - GAP_PX, tall) >= Math.min(width, tall) * 0.9;
    grid.classList.toggle("tall-board", beside);
    const column = beside ? width - PANELS_PX - GAP_PX : width;
    const extra = innerWidth > ONE_COLUMN_MAX ? Math.floor(Math.min(SIDE_EXTRA_PX, column - tall)) : 0;
    if (extra > 0) grid.style.setProperty("--side", `${SIDE_PX + extra}px`);
    else grid.style.removeProperty("--side");
  }
  let resizeTimer = null;
  const onResize = () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(placePanels, 100); };
  addEventListener("resize", onResize);

  function renderStatus() {
    const env = boardEnv();
    // A tab in the background still says when the seat is to move.
    document.title = `${!s.replay && s.moves.length ? "● Your move · " : ""}${game.title} · ironworks`;
    statusLine.replaceChildren(...statusSentence(env, s, seatName));
    statusLine.className = `status-line${isMyDecision(env) && !s.replay ? " mine" : ""}${env.finished ? " over" : ""}`;
  }

  function isMyDecision(env) {
    if (s.seat == null || !env || env.finished) return false;
    const d = env.view && env.view.decision;
    return (d && d.seat === s.seat) || env.to_act.includes(s.seat);
  }

  // Redrawing the card must not take the keyboard focus away from the user's place in it.
  function renderTurnCard() {
    const focused = turnCard.contains(document.activeElement) ? document.activeElement : null;
    const key = focused && (focused.dataset.key || (focused.matches("input.filter") ? "filter" : null));
    fillTurnCard();
    if (key) {
      const again = key === "filter"
        ? turnCard.querySelector("input.filter")
        : [...turnCard.querySelectorAll("[data-key]")].find((el) => el.dataset.key === key);
      if (again) again.focus({ preventScroll: true });
    }
  }

  function fillTurnCard() {
    const env = shownEnv();
    const parts = [];
    if (s.replay) {
      parts.push(h("h3", {}, "Replay"),
        h("p", {}, `The match as it stood at version ${s.replay.version}.`),
        h("button", { class: "primary", onclick: () => leaveReplay() }, "Back to the live table"));
      turnCard.replaceChildren(...parts);
      return;
    }
    if (env.finished) {
      if (env.status === "abandoned") {
        parts.push(h("h3", {}, "Abandoned"), h("p", {}, "The owner removed a player, and this match's rules abandon it then: it has no result."));
      } else {
        parts.push(h("h3", {}, "Final result"), resultTable(env, seatName));
      }
      turnCard.replaceChildren(...parts);
      return;
    }
    const d = env.view && env.view.decision;
    const invitedSeat = invited && env.seats[invited.seat];
    if (invitedSeat && !heldSeats.includes(invited.seat) && !invitedSeat.claimed && !invitedSeat.resigned) {
      parts.push(h("h3", {}, "You are invited"),
        h("p", {}, `The match's owner keeps ${seatLabel(invited.seat)} for you.`),
        joinForm(invited.seat, invited.code));
      if (s.seat == null) {
        turnCard.replaceChildren(...parts);
        return;
      }
    }
    if (s.seat == null) {
      parts.push(h("h3", {}, "Watching"));
      parts.push(h("p", { class: "muted" }, "You are a spectator: you see what every player may see."));
      // Anybody may take a free public seat; in an invite-only match the owner invites themselves.
      const free = env.seats.filter((x) => !x.claimed && !x.bot && !x.resigned && !x.invited);
      const mayTake = inviteOnly() ? (owner ? free : []) : free;
      if (mayTake.length) {
        parts.push(h("div", { class: "row wrap" }, mayTake.map((x) =>
          h("button", { class: "primary", onclick: () => takeSeat(x.seat) }, `Take ${seatLabel(x.seat)}`))));
      }
      if (!owner && (inviteOnly() || env.seats.some((x) => x.invited)) && !invitedSeat) {
        parts.push(h("details", { class: "join-code", open: Boolean(s.joinError) },
          h("summary", {}, "Have an invite code?"), joinForm(null, "")));
      }
      turnCard.replaceChildren(...parts, feedback());
      return;
    }
    const mine = env.seats[s.seat];
    if (mine && mine.resigned) {
      parts.push(h("h3", {}, "You resigned"),
        h("p", { class: "muted" }, `The ${mine.bot || "stand-in"} bot plays ${seatLabel(s.seat)}'s turns until the match ends; you rank below every player still in.`));
      turnCard.replaceChildren(...parts);
      return;
    }
    if (mine && mine.bot) {
      parts.push(h("h3", {}, "A bot plays your seat"),
        h("p", { class: "muted" }, `The ${mine.bot} bot moves for ${seatLabel(s.seat)}.`),
        h("div", { class: "row wrap" },
          h("button", { class: "primary", onclick: () => mySeatDo(() => api.releaseBot(matchId, s.seat, token())) }, "Take my seat back")),
        feedback(), resignStep());
      turnCard.replaceChildren(...parts);
      return;
    }
    const out = seatOut(env);
    if (out) {
      parts.push(h("h3", {}, "You are out"), h("p", { class: "muted seat-out" }, out));
      turnCard.replaceChildren(...parts);
      return;
    }
    if (!isMyDecision(env) || !s.moves.length) {
      parts.push(h("h3", {}, "Waiting"));
      const who = d && d.seat != null ? seatName(d.seat) : "the server";
      parts.push(h("p", { class: "muted" }, `${cap(who)} ${d && d.seat != null ? "is deciding" : "is working"}…`));
      // A free seat of an invite-only match, or one kept by an invite, is the owner's to hand over.
      // (The owner has the seats card for that.)
      const free = owner ? [] : env.seats.filter((x) => !x.claimed && !x.bot && !x.resigned &&
        !(inviteOnly() || x.invited));
      if (free.length) {
        parts.push(h("p", { class: "muted" }, `${free.map((x) => seatLabel(x.seat)).join(", ")} ${free.length === 1 ? "is" : "are"} still free:`),
          h("div", { class: "row wrap" }, free.map((x) => botButtons(x.seat))));
      }
      turnCard.replaceChildren(...parts, feedback(), seatMenu());
      return;
    }
    parts.push(h("h3", {}, "Your move"));
    parts.push(feedback());
    parts.push(...moveChooser());
    turnCard.replaceChildren(...parts, seatMenu());
  }

  // The board module's words for a seat out of the game while the others play on.
  function seatOut(env) {
    if (typeof board.seatOut !== "function") return null;
    try {
      return board.seatOut({ game, view: env, seat: s.seat });
    } catch (err) {
      console.warn("seatOut failed", err);
      return null;
    }
  }

  // Stepping away: a bot plays the seat until its player takes it back; or resigning.
  function seatMenu() {
    return h("div", { class: "seat-tools" },
      h("details", { class: "seat-menu" },
        h("summary", {}, "Hand my seat to a bot"),
        h("p", { class: "muted small-print" }, "The bot plays your turns until you take the seat back."),
        h("div", { class: "row wrap" }, botChoices(game).map((c) => h("button", {
          class: "small", title: c.title,
          onclick: () => mySeatDo(() => api.toBot(matchId, s.seat, c.bot, c.level, token())),
        }, c.label)))),
      resignStep());
  }

  function resignStep() {
    return h("div", { class: "resign" }, confirmButton("resign", "Resign",
      `Resign ${seatLabel(s.seat)}? You rank below every player still in, and a bot plays your remaining turns. This cannot be undone.`,
      () => mySeatDo(() => api.resign(matchId, s.seat, token())), { class: "small danger-outline" }));
  }

  async function mySeatDo(fn) {
    s.error = null;
    try {
      await fn();
      await refresh();
    } catch (err) {
      showError(err);
    }
  }

  function feedback() {
    const box = h("div", { class: "feedback" });
    if (s.error) box.append(h("div", { class: "notice", role: "alert" }, s.error));
    if (s.info) box.append(h("div", { class: "info", role: "status" }, s.info));
    return box;
  }

  function botButtons(seat) {
    return botChoices(game).map((c) => h("button", {
      class: "small", title: c.title,
      onclick: async () => {
        try {
          await api.toBot(matchId, seat, c.bot, c.level);
          scheduleRefresh();
        } catch (err) {
          showError(err);
        }
      },
    }, `${seatLabel(seat)}: ${c.label}`));
  }

  function moveChooser() {
    const out = [];
    const list = candidates(board, s.moves, s.choice, boardCtx());
    const types = byType(s.moves);
    // Kinds as chips only when some kind has several moves and the list is long (as for the
    // filter): else the list says it all (Age of Steam's five Move Goods options sat under
    // three chips, the last option out of the card).
    const several = [...types.values()].some((moves) => moves.length > 1);
    // The kinds and the filter share a row where they fit: the card's height goes to moves.
    const tools = h("div", { class: "list-tools" });
    out.push(tools);
    if (types.size > 1 && several && s.moves.length > FILTER_FROM) {
      tools.append(h("div", { class: "type-chips", role: "group", "aria-label": "Kind of move" },
        [...types.entries()].map(([type, moves]) => h("button", {
          class: `chip${s.choice.type === type ? " on" : ""}`,
          "aria-pressed": String(s.choice.type === type),
          disabled: s.busy,
          onclick: () => { s.choice = { ...s.choice, type: s.choice.type === type ? null : type }; s.showAll = false; redraw(); },
        }, typeLabel(type), h("span", { class: "count" }, String(moves.length))))));
    }
    if (s.choice.picks.length) {
      out.push(h("div", { class: "picks" }, h("span", { class: "muted" }, "Picked:"),
        s.choice.picks.map((t) => h("button", {
          class: "chip on", title: "Take this pick back", onclick: () => onPick(t),
        }, prettyTarget(t), " ×")),
        h("button", { class: "ghost small", onclick: () => { s.choice = emptyChoice(); redraw(); } }, "Clear")));
    }
    const narrowed = s.choice.type || s.choice.picks.length;
    if (list.length === 1 && narrowed) {
      const move = list[0];
      out.push(h("div", { class: "confirm" },
        h("p", {}, describe(move)),
        h("div", { class: "row" },
          h("button", { class: "primary", disabled: s.busy, onclick: () => play(move), "data-confirm": "", dataset: { key: "confirm" } }, "Play this move"),
          h("button", { class: "ghost", onclick: () => { s.choice = emptyChoice(); redraw(); } }, "Back"))));
      return out;
    }
    if (!list.length) {
      out.push(h("p", { class: "muted" }, "No move fits these picks."));
      return out;
    }
    const hasBoardTargets = list.some((m) => safeTargets(board, m, boardCtx()).length);
    if (hasBoardTargets && list.length > 1) {
      out.push(h("p", { class: "hint" }, "Click a lit place on the board, or a move."));
    }
    let shown = list;
    const long = list.length > FILTER_FROM;
    if (long) {
      const filter = h("input", {
        type: "search", class: "filter", placeholder: `Filter ${list.length} moves…`,
        "aria-label": "Filter the moves", value: s.filter,
      });
      filter.addEventListener("input", () => {
        s.filter = filter.value;
        const at = filter.selectionStart;
        renderTurnCard();
        const again = turnCard.querySelector("input.filter");
        if (again) { again.focus(); again.setSelectionRange(at, at); }
      });
      tools.append(filter);
      const needle = s.filter.trim().toLowerCase();
      if (needle) shown = list.filter((m) => describe(m).toLowerCase().includes(needle));
    }
    const groups = s.choice.type ? new Map([[s.choice.type, shown]]) : byType(shown);
    const room = s.showAll ? null : listRoom(groups);
    const listNode = h("div", { class: "move-list", role: "list" });
    for (const [type, all] of groups) {
      const moves = room ? all.slice(0, room.get(type)) : all;
      // A kind of one move (Done, Pass, a loan) reads from its entry alone, and so does a
      // short list's every entry (a Move Goods heading cost the card its last option).
      if (long && groups.size > 1 && several && all.length > 1) listNode.append(h("div", { class: "group-head" }, typeLabel(type)));
      for (const move of moves) {
        listNode.append(h("button", {
          class: "move", role: "listitem", disabled: s.busy, dataset: { key: JSON.stringify(move) },
          onclick: () => play(move),
          onmouseenter: () => hover(move), onmouseleave: () => hover(null),
          onfocus: () => hover(move), onblur: () => hover(null),
        }, describe(move)));
      }
    }
    out.push(listNode);
    if (room && [...groups].some(([type, moves]) => moves.length > room.get(type))) {
      out.push(h("button", { class: "ghost small", onclick: () => { s.showAll = true; renderTurnCard(); } },
        `Show all ${shown.length} moves`));
    }
    return out;
  }

  // How many entries of each kind the list shows before "Show all": a kind of a few moves
  // (Loan, Scout, Pass, Done) whole, and the long kinds (Build, Network) share what is left
  // of LIST_LIMIT, each keeping a few. Cutting the list at LIST_LIMIT in order hid the
  // kinds after the long ones: a loan took its chip and a confirmation, two clicks for one.
  function listRoom(groups) {
    const room = new Map();
    let left = LIST_LIMIT;
    for (const [type, moves] of groups) {
      if (moves.length <= FEW_MOVES) {
        room.set(type, moves.length);
        left -= moves.length;
      }
    }
    for (const [type, moves] of groups) {
      if (room.has(type)) continue;
      const n = Math.min(moves.length, Math.max(FEW_MOVES, left));
      room.set(type, n);
      left -= n;
    }
    return room;
  }

  // A move in the list under the pointer or focus is drawn on the board (where the board
  // module can preview it) and its places light up.
  function hover(move) {
    if (s.preview !== move) {
      s.preview = move;
      // A move being sent leaves the list (its entry loses the focus): the board is drawn
      // once the answer is in, not also now.
      if (!s.busy) renderBoard();
    }
    const targets = new Set(move ? safeTargets(board, move, boardCtx()) : []);
    for (const el of svg.querySelectorAll("[data-target]")) {
      el.classList.toggle("hover", targets.has(el.getAttribute("data-target")));
    }
  }

  function describe(move) {
    try {
      return board.describeMove(move, { game, view: shownEnv(), seat: s.seat });
    } catch (err) {
      console.warn("describeMove failed", err);
      return JSON.stringify(move);
    }
  }

  // A pick in words: the label its element carries, on the board or in the panels (a card
  // in the hand is picked there), lit or not (a pick may no longer be a target once made).
  function prettyTarget(target) {
    const sel = `[data-target="${CSS.escape(target)}"]`;
    const el = svg.querySelector(sel) || panels.querySelector(sel);
    const title = el && (el.getAttribute("title") || el.querySelector(":scope > title")?.textContent);
    const label = el && (el.getAttribute("aria-label") || title);
    if (label) return label;
    const bare = target.replace(/^(card|hex|market):/, "");
    return names[bare] || bare.replace(/_/g, " ");
  }

  function redraw() {
    s.redraws += 1;
    s.preview = null;
    renderSeats();
    renderStatus();
    renderBoard();
    renderTurnCard();
    followLog();
  }

  // --- the log -------------------------------------------------------------------------
  // The log follows the newest line unless the reader scrolled up; the turn card above it
  // changes height, so "at the bottom" is remembered rather than measured at each append.
  // (The scroll stays at each append: deferred to the next frame, a scroll the browser
  // made meanwhile, clamping the list as the card above it grew, read as the reader's.)
  let logFollows = true;
  logList.addEventListener("scroll", () => {
    logFollows = logList.scrollHeight - logList.scrollTop - logList.clientHeight < 24;
  });
  function followLog() {
    if (logFollows && !s.replay) logList.scrollTop = logList.scrollHeight;
  }

  function appendLog(events) {
    for (const event of events) {
      const line = describeEvent(event, logCtx);
      if (!line) continue;
      const item = h("li", {
        class: `${line.divider ? "divider" : ""}${line.seat != null ? ` seat-${line.seat}` : ""}`,
        dataset: { version: String(event.version) },
        title: `version ${event.version}`,
        onclick: () => replayAllowed() && goTo(event.version),
      }, line.seat != null ? h("span", { class: `seat-dot seat-${line.seat}` }) : null, line.text);
      logList.append(item);
    }
    // Live, no line is marked (leaving a replay clears the marks): only a replay's new
    // lines need them.
    if (s.replay) markReplayInLog();
    followLog();
  }

  function markReplayInLog() {
    const at = s.replay ? s.replay.version : null;
    let current = null;
    for (const li of logList.children) {
      const v = Number(li.dataset.version);
      li.classList.toggle("future", at != null && v > at);
      if (at != null && v <= at) current = li;
      li.classList.remove("current");
    }
    if (current) {
      current.classList.add("current");
      logList.scrollTop = current.offsetTop - logList.clientHeight / 2;
    }
  }

  // --- replay --------------------------------------------------------------------------
  function replayAllowed() {
    return s.env && (!hidden || s.env.finished);
  }

  function firstVersion() {
    const created = s.events.find((e) => e.type === "core.match_created");
    return created && created.payload.from_position ? 1 : 2;
  }

  function renderReplayBar() {
    logList.classList.toggle("steppable", Boolean(replayAllowed()));
    if (!replayAllowed()) {
      replayBar.replaceChildren(h("span", { class: "muted small-print" },
        hidden ? "The replay opens when the match is over." : ""));
      return;
    }
    const lo = firstVersion();
    const hi = s.env.version;
    const at = s.replay ? s.replay.version : hi;
    const slider = h("input", {
      type: "range", min: lo, max: hi, value: at, step: 1, class: "slider",
      "aria-label": "Replay: version of the match",
    });
    slider.addEventListener("input", () => goTo(Number(slider.value)));
    const step = (d) => () => goTo(Math.min(hi, Math.max(lo, (s.replay ? s.replay.version : hi) + d)));
    replayBar.replaceChildren(
      h("button", { class: "ghost small icon", title: "First version", "aria-label": "First version", onclick: () => goTo(lo) }, icon("first")),
      h("button", { class: "ghost small icon", title: "One version back", "aria-label": "One version back", onclick: step(-1) }, icon("back")),
      slider,
      h("button", { class: "ghost small icon", title: "One version forward", "aria-label": "One version forward", onclick: step(1) }, icon("forward")),
      h("button", { class: "ghost small icon", title: "Back to now", "aria-label": "Newest version", onclick: () => leaveReplay() }, icon("last")),
      h("span", { class: "muted version" }, s.replay ? `version ${at} of ${hi}` : `version ${hi} · replay`),
    );
  }

  let replayToken = 0;
  let replayTimer = null;
  function goTo(version) {
    if (version >= s.env.version) return leaveReplay();
    s.replay = { version, env: s.replay && s.replay.env };
    renderReplayBar();
    markReplayInLog();
    clearTimeout(replayTimer);
    // Dragging the slider passes many versions: ask only for the one it rests on.
    replayTimer = setTimeout(async () => {
      const mine = ++replayToken;
      try {
        const then = await api.match(matchId, null, version);
        if (mine !== replayToken || !s.replay) return;
        s.replay = { version, env: then };
        redraw();
      } catch (err) {
        showError(err);
      }
    }, 80);
  }

  function leaveReplay() {
    s.replay = null;
    replayToken++;
    logFollows = true;
    renderReplayBar();
    markReplayInLog();
    redraw();
  }

  // --- moving --------------------------------------------------------------------------
  function onPick(target) {
    if (s.replay || s.busy) return;
    s.choice = pick(s.choice, target);
    s.error = null;
    s.showAll = false;
    redraw();
    const confirm = turnCard.querySelector("[data-confirm]");
    if (confirm) confirm.focus();
  }

  async function play(move) {
    if (s.busy) return;
    s.busy = true;
    s.error = null;
    s.info = null;
    renderTurnCard();
    try {
      await api.submit(matchId, token(), move, s.movesVersion);
      s.choice = emptyChoice();
      s.filter = "";
    } catch (err) {
      if (err instanceof ApiError && err.code === "version_conflict") {
        s.info = "The match moved on meanwhile: here are the moves now.";
        s.choice = emptyChoice();
      } else {
        s.error = err.message;
      }
    } finally {
      s.busy = false;
    }
    const drawn = s.redraws;
    await refresh();
    // The refusal (or the card no longer busy) even if nothing moved; a refresh that drew
    // the new version has drawn it all already.
    if (s.redraws === drawn) {
      renderTurnCard();
      renderBoard();
    }
  }

  async function takeSeat(seat, code = null) {
    try {
      // The owner of an invite-only match takes a seat as anybody would: with an invite.
      if (!code && owner && inviteOnly()) code = (await api.invite(matchId, seat, owner)).invite;
      const claimed = await api.claim(matchId, seat, code);
      tokens.save(matchId, seat, claimed.token);
      s.joinError = null;
      if (invited && invited.seat === seat) {
        history.replaceState(null, "", `#/match/${encodeURIComponent(matchId)}`);
      }
      heldSeats.push(seat);
      heldSeats.sort((a, b) => a - b);
      s.seat = seat;
      renderSeatSwitch();
      await reloadAll();
    } catch (err) {
      s.joinError = code ? err.message : null;
      if (code) renderTurnCard();
      else showError(err);
    }
  }

  function showError(err) {
    s.error = err.message;
    renderTurnCard();
  }

  // --- keeping up ----------------------------------------------------------------------
  // One refresh at a time: a slow answer must never overwrite a newer one, and a refresh
  // asked for meanwhile runs again once the current one is done.
  let refreshing = null;
  let refreshAgain = false;
  async function refresh() {
    clearTimeout(s.refreshTimer);
    if (refreshing) {
      refreshAgain = true;
      return refreshing;
    }
    refreshing = (async () => {
      do {
        refreshAgain = false;
        await refreshOnce();
      } while (refreshAgain && s.alive);
    })();
    try {
      await refreshing;
    } finally {
      refreshing = null;
    }
  }

  async function refreshOnce() {
    if (!s.alive) return;
    try {
      const before = s.env ? s.env.version : null;
      const env = await api.match(matchId, token());
      if (before != null && env.version < before) return;
      let moves = [];
      let movesVersion = env.version;
      if (s.seat != null && !env.finished && isMyDecisionIn(env)) {
        const listed = await api.moves(matchId, token());
        moves = listed.moves;
        movesVersion = listed.version;
        if (listed.version !== env.version) return scheduleRefresh();
      }
      // The answer after a move can be ahead of the stream (a bot's reply included): the
      // events up to the version drawn are asked for, so that the log and the last move's
      // mark are drawn with it whichever comes first.
      if (s.lastVersion < env.version) await catchUp(env.version);
      if (!s.alive) return;
      if (before !== env.version && before != null) { s.choice = emptyChoice(); s.filter = ""; s.showAll = false; }
      const drawnThrough = Math.min(s.lastVersion, env.version);
      const same = s.env && before === env.version && movesVersion === s.movesVersion &&
        drawnThrough === s.drawnThrough && JSON.stringify(env) === JSON.stringify(s.env);
      s.env = env;
      s.drawnThrough = drawnThrough;
      s.moves = moves;
      s.movesVersion = movesVersion;
      if (env.finished) loadFinalScene();  // the events naming the final scoring may come after the view
      if (same) return;  // nothing new (e.g. our own move's events arriving after its answer)
      // What the page shows, for scripts and tests that follow it.
      page.dataset.version = String(env.version);
      page.dataset.mine = String(moves.length > 0);
      if (env.finished) s.info = null;
      redraw();
      renderReplayBar();
    } catch (err) {
      showError(err);
    }
  }

  function isMyDecisionIn(env) {
    const d = env.view && env.view.decision;
    return (d && d.seat === s.seat) || env.to_act.includes(s.seat);
  }

  function scheduleRefresh() {
    clearTimeout(s.refreshTimer);
    s.refreshTimer = setTimeout(refresh, REFRESH_DELAY_MS);
  }

  // What a move touched: the places its events name, in the boards' id space.
  function touchedBy(events) {
    const out = new Set();
    for (const e of events) {
      if (e.type.startsWith("core.")) continue;
      const p = e.payload || {};
      for (const t of placesNamed(p)) out.add(t);
      for (const t of safeTargets(board, { ...p, type: e.type }, boardCtx())) out.add(t);
    }
    return out;
  }

  function boardCtx() {
    return { game, view: shownEnv(), seat: s.seat };
  }

  async function loadEvents() {
    const all = [];
    let after = 0;
    for (;;) {
      const page = await api.events(matchId, token(), after, 500);
      all.push(...page.events);
      if (page.events.length < 500) break;
      after = page.events.at(-1).version;
    }
    s.events = all;
    if (all.length) serverClock.event(all.at(-1).timestamp);
    s.lastVersion = all.length ? all.at(-1).version : 0;
    logList.replaceChildren();
    appendLog(all);
  }

  // The events after those the page holds up to `version`, from the log rather than the
  // stream (which delivers them too, later: they are kept once). Without them the view is
  // drawn all the same, and again when the stream brings them.
  async function catchUp(version) {
    const from = s.lastVersion;
    try {
      while (s.alive && s.lastVersion < version) {
        const page = await api.events(matchId, token(), s.lastVersion, 500);
        if (!takeEvents(page.events)) break;
      }
    } catch (err) {
      console.warn(`the events after version ${from} could not be read`, err);
    }
    if (s.lastVersion > version) scheduleRefresh();  // the log ran ahead of the view
  }

  // Events from the stream into the log, and the view they lead to asked for.
  function onEvents(events) {
    if (takeEvents(events)) scheduleRefresh();
  }

  function takeEvents(events) {
    for (const e of events) serverClock.event(e.timestamp);
    const fresh = events.filter((e) => e.version > s.lastVersion);
    if (!fresh.length) return false;
    s.events.push(...fresh);
    s.lastVersion = fresh.at(-1).version;
    appendLog(fresh);
    return true;
  }

  function setConn(state) {
    s.live = state === "live";
    conn.className = `conn ${state}`;
    conn.textContent = { live: "live", offline: "reconnecting…", over: "finished", connecting: "connecting…" }[state];
  }

  async function connect() {
    closeStream();
    if (!s.alive) return;
    if (s.env && s.env.finished && s.lastVersion >= s.env.version) return setConn("over");
    setConn("connecting");
    let url = `/matches/${matchId}/stream?after=${s.lastVersion}`;
    try {
      if (token()) {
        const ticket = await api.streamTicket(matchId, token());
        url += `&ticket=${encodeURIComponent(ticket.ticket)}`;
      }
    } catch (err) {
      setConn("offline");
      s.retry = setTimeout(connect, RETRY_MS);
      return;
    }
    const stream = new EventSource(url);
    s.stream = stream;
    stream.onopen = () => setConn("live");
    stream.onmessage = (message) => {
      try {
        onEvents([JSON.parse(message.data)]);
      } catch (err) {
        console.warn("unreadable stream message", err);
      }
    };
    // The server ends the stream when the match is over; otherwise reconnect with a new
    // ticket (the browser's own retry would reuse the old one, which expires).
    stream.onerror = async () => {
      stream.close();
      if (s.stream !== stream) return;
      s.stream = null;
      // The stream may have ended because the match just did: ask before saying so.
      if (!(s.env && s.env.finished)) await refresh();
      if (s.stream || !s.alive) return;
      if (s.env && s.env.finished) {
        setConn("over");
        scheduleRefresh();
        return;
      }
      setConn("offline");
      s.retry = setTimeout(async () => { await refresh(); connect(); }, RETRY_MS);
    };
  }

  function closeStream() {
    clearTimeout(s.retry);
    if (s.stream) {
      s.stream.close();
      s.stream = null;
    }
  }

  async function reloadAll() {
    closeStream();
    await loadEvents();
    s.env = null;
    await refresh();
    connect();
  }

  renderSeatSwitch();
  await reloadAll();
  logFollows = true;
  followLog();  // the page is laid out now: newest last, in view

  return () => {
    s.alive = false;
    closeStream();
    clearTimeout(s.refreshTimer);
    clearTimeout(replayTimer);
    clearInterval(clockTimer);
    clearTimeout(resizeTimer);
    removeEventListener("resize", onResize);
    document.title = "ironworks";
  };
}

const PLACE_FIELDS = ["space", "link", "line", "route", "merchant", "source", "location", "oilfield"];

function placesNamed(payload) {
  const out = PLACE_FIELDS.filter((k) => typeof payload[k] === "string").map((k) => payload[k]);
  if (Number.isInteger(payload.col) && Number.isInteger(payload.row)) out.push(`hex:${payload.col},${payload.row}`);
  if (typeof payload.hex === "string") out.push(`hex:${payload.hex}`);
  return out;
}

// The events of the last move up to a version: the trailing events of the last seat that
// acted then.
function lastMove(events, version) {
  const out = [];
  let actor;
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e.version > version) continue;
    if (e.type.startsWith("core.")) break;
    if (actor === undefined) actor = e.actor;
    if (e.actor !== actor) break;
    out.unshift(e);
  }
  return out;
}

// Who won, with their points: seats sharing first place need not have the same score
// (Age of Steam ranks seats eliminated in the same turn together), so each says its own.
export function resultSentence(result, seatName) {
  const r = result || {};
  const winners = (r.ranking || []).map((place, seat) => [place, seat]).filter(([p]) => p === 1).map(([, seat]) => seat);
  if (!winners.length) return "";
  const points = r.scores ? winners.map((w) => r.scores[w]) : [];
  const who = winners.map((w) => seatName(w)).join(" and ");
  if (winners.length === 1) return `${who} wins${points.length ? ` with ${points[0]} points` : ""}.`;
  if (points.length && points.every((p) => p === points[0])) return `${who} share the win with ${points[0]} points each.`;
  if (!points.length) return `${who} share the win.`;
  return `${winners.map((w, i) => `${seatName(w)} (${points[i]} points)`).join(" and ")} share the win.`;
}

function statusSentence(env, s, seatName) {
  if (!env) return ["Loading…"];
  const prefix = s.replay ? [h("b", {}, `Version ${s.replay.version}: `)] : [];
  if (env.finished && env.status === "abandoned") return [...prefix, h("b", {}, "The match was abandoned.")];
  if (env.finished) return [...prefix, h("b", {}, "Game over. "), resultSentence(env.result, seatName)];
  const d = env.view && env.view.decision;
  const prompt = d && d.prompt ? d.prompt : "";
  if (!d || d.seat == null) {
    return [...prefix, prompt ? `${cap(prompt)}.` : "The server is taking the next step…"];
  }
  if (!s.replay && d.seat === s.seat) return [...prefix, h("b", {}, "Your turn: "), `${prompt}.`];
  return [...prefix, h("b", {}, `${seatName(d.seat)} to play: `), `${prompt}.`];
}

const ICONS = {
  first: "M4 3h2v10H4zM13 3v10L7 8z",
  back: "M11 3v10L5 8z",
  forward: "M5 3v10l6-5z",
  last: "M10 3h2v10h-2zM3 3v10l6-5z",
};

function icon(name) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("width", "14");
  svg.setAttribute("height", "14");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", ICONS[name]);
  path.setAttribute("fill", "currentColor");
  svg.append(path);
  return svg;
}

function resultTable(env, seatName) {
  const r = env.result || {};
  const resigned = (r.details && r.details.resigned) || [];
  const rows = (r.scores || []).map((score, seat) => ({ seat, score, place: (r.ranking || [])[seat] }));
  rows.sort((a, b) => a.place - b.place || b.score - a.score);
  return h("table", { class: "result" },
    h("thead", {}, h("tr", {}, h("th", {}, "Place"), h("th", {}, "Seat"), h("th", { class: "num" }, "Score"))),
    h("tbody", {}, rows.map((row) => h("tr", {
      class: `${row.place === 1 ? "winner" : ""}${resigned.includes(row.seat) ? " resigned" : ""}`,
      dataset: { seat: String(row.seat) },
    },
      h("td", {}, String(row.place)),
      h("td", {}, h("span", { class: `seat-dot seat-${row.seat}` }), seatName(row.seat),
        resigned.includes(row.seat) ? h("span", { class: "tag resigned-tag" }, "resigned") : null),
      h("td", { class: "num" }, String(row.score))))));
}
