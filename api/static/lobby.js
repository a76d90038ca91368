// The lobby: every match (newest first) with its seats, a form to start a match, and the
// ways in: take a free seat, give it to a bot, or watch.

import { api, botChoices, gamesById, owners, tokens } from "./api.js";
import { h, timeAgo } from "./dom.js";
import {
  defaultOptions, optionsToSend, playerRange, renderOptions, rulesFields,
} from "./forms.js";

const POLL_MS = 5000;
const PAGE = 25;

export function seatLabel(seat) {
  return `Seat ${seat + 1}`;
}

export async function showLobby(root, { navigate }) {
  const games = await gamesById();
  let offset = 0;
  let timer = null;
  let alive = true;

  const listBox = h("div", { class: "match-list", "aria-live": "polite" });
  const pager = h("div", { class: "pager" });
  const notice = h("div", { class: "notice", role: "alert", hidden: true });

  const showError = (err) => {
    notice.hidden = false;
    notice.textContent = err.message;
  };

  async function refresh() {
    if (!alive) return;
    clearTimeout(timer);
    try {
      const page = await api.matches(offset, PAGE);
      renderList(page);
    } catch (err) {
      showError(err);
    }
    if (alive) timer = setTimeout(refresh, POLL_MS);
  }

  function renderList(page) {
    const mine = tokens.all();
    if (!page.items.length) {
      listBox.replaceChildren(h("p", { class: "empty" }, "No matches yet. Start one on the left."));
    } else {
      listBox.replaceChildren(
        ...page.items.map((item) => matchCard(item, games[item.game], mine[item.id] || {})),
      );
    }
    pager.replaceChildren();
    if (page.total > PAGE) {
      pager.append(
        h("button", { class: "ghost", disabled: offset === 0, onclick: () => { offset = Math.max(0, offset - PAGE); refresh(); } }, "Newer"),
        h("span", {}, `${offset + 1}–${Math.min(page.total, offset + PAGE)} of ${page.total}`),
        h("button", { class: "ghost", disabled: offset + PAGE >= page.total, onclick: () => { offset += PAGE; refresh(); } }, "Older"),
      );
    }
  }

  function matchCard(item, game, held) {
    const title = game ? game.title : item.game;
    const seats = item.seats.length
      ? item.seats.map((s) => seatChip(item, s, game, held))
      : [h("span", { class: "muted" }, `${item.players} players`)];
    const status = {
      open: "Seats free", playing: "Playing", finished: "Finished", abandoned: "Abandoned",
      unavailable: "Game not installed",
    }[item.status] || item.status;
    const rules = item.rules || {};
    const youPlay = Object.keys(held).length > 0;
    const toAct = item.to_act && item.to_act.length
      ? `${item.to_act.map((s) => (held[s] ? "you" : seatLabel(s))).join(", ")} to play`
      : "";
    return h("article", { class: `match-card status-${item.status}`, dataset: { match: item.id } },
      h("header", {},
        h("h3", {}, title),
        rules.invite_only ? h("span", { class: "badge invite-only" }, "Invite only") : null,
        rules.clock ? h("span", { class: "badge clock", title: "Time control" }, clockSummary(rules.clock)) : null,
        h("span", { class: `badge ${item.status}` }, status),
      ),
      h("div", { class: "seats" }, seats),
      h("footer", {},
        h("span", { class: "muted" }, [timeAgo(item.created_at), toAct ? ` · ${toAct}` : "", ` · v${item.version}`]),
        h("span", { class: "grow" }),
        item.status !== "unavailable" &&
          h("a", { class: youPlay ? "button primary" : "button", href: `#/match/${item.id}` },
            youPlay ? (item.finished ? "Open" : "Play") : "Watch"),
      ),
    );
  }

  function seatChip(item, seat, game, held) {
    const name = seatLabel(seat.seat);
    if (seat.resigned) {
      return h("span", { class: `seat-chip taken seat-${seat.seat}` }, h("b", {}, name), held[seat.seat] ? " you, resigned" : " resigned");
    }
    if (held[seat.seat]) {
      return h("span", { class: `seat-chip you seat-${seat.seat}` }, h("b", {}, name), " you");
    }
    if (seat.bot) {
      return h("span", { class: `seat-chip bot seat-${seat.seat}` }, h("b", {}, name),
        ` ${seat.bot} bot${seat.level ? ` (${seat.level})` : ""}`);
    }
    if (seat.claimed) {
      return h("span", { class: `seat-chip taken seat-${seat.seat}` }, h("b", {}, name), " taken");
    }
    if (item.finished) return h("span", { class: `seat-chip seat-${seat.seat}` }, h("b", {}, name), " empty");
    // A kept seat, or any seat of an invite-only match: the way in is the owner's invite link.
    if (seat.invited || (item.rules && item.rules.invite_only)) {
      return h("span", { class: `seat-chip invited seat-${seat.seat}` }, h("b", {}, name),
        seat.invited ? " invited" : " invite only");
    }
    const botSelect = h("select", { "aria-label": `Give ${name} to a bot`, class: "small" },
      h("option", { value: "" }, "Bot…"),
      botChoices(game).map((c, i) => h("option", { value: String(i), title: c.title }, c.label)));
    botSelect.addEventListener("change", async () => {
      if (!botSelect.value) return;
      const choice = botChoices(game)[Number(botSelect.value)];
      try {
        await api.toBot(item.id, seat.seat, choice.bot, choice.level);
        refresh();
      } catch (err) {
        showError(err);
      }
    });
    return h("span", { class: `seat-chip free seat-${seat.seat}` }, h("b", {}, name),
      h("button", {
        class: "small primary",
        onclick: async () => {
          try {
            const claimed = await api.claim(item.id, seat.seat);
            tokens.save(item.id, seat.seat, claimed.token);
            navigate(`#/match/${item.id}`);
          } catch (err) {
            showError(err);
          }
        },
      }, "Sit here"),
      botSelect);
  }

  const form = newMatchForm(games, { navigate, onError: showError });
  root.replaceChildren(
    h("section", { class: "lobby" },
      h("aside", { class: "card new-match" }, h("h2", {}, "New match"), form),
      h("section", { class: "matches" },
        h("div", { class: "section-head" }, h("h2", {}, "Matches"),
          h("button", { class: "ghost", onclick: refresh, title: "Reload the list" }, "Refresh")),
        notice, listBox, pager),
    ),
  );
  await refresh();
  return () => {
    alive = false;
    clearTimeout(timer);
  };
}

export function clockSummary(clock) {
  if (!clock) return "No clock";
  if (clock.turn_seconds != null) return `${duration(clock.turn_seconds)} a turn`;
  const inc = clock.increment_seconds ? ` + ${duration(clock.increment_seconds)}` : "";
  return `${duration(clock.bank_seconds)}${inc}`;
}

function duration(seconds) {
  const units = [[86400, "d"], [3600, "h"], [60, "min"], [1, "s"]];
  for (const [size, name] of units) {
    if (seconds >= size && seconds % size === 0) return `${seconds / size} ${name}`;
  }
  return `${seconds} s`;
}

function newMatchForm(games, { navigate, onError }) {
  const list = Object.values(games).filter((g) => !(g.metadata && g.metadata.test_only));
  let game = list[0];
  let values = game ? defaultOptions(game) : {};
  let players = game ? game.min_players : 2;
  let seatPlan = [];

  const gameSelect = h("select", { id: "new-game", name: "game" },
    list.map((g) => h("option", { value: g.id }, g.title)));
  const optionsBox = h("div", { class: "options" });
  const playersSelect = h("select", { id: "new-players", name: "players" });
  const seatsBox = h("div", { class: "seat-plan" });
  const note = h("p", { class: "muted small-print" });
  const rules = rulesFields();
  const submit = h("button", { type: "submit", class: "primary wide" }, "Start match");

  // You in the first seat, the game's own heuristic bot (quick and sensible) in the others.
  function defaultPlan(n) {
    const choices = botChoices(game);
    const greedy = choices.findIndex((c) => c.bot === "greedy");
    const bot = greedy >= 0 ? greedy : choices.length - 1;
    return Array.from({ length: n }, (_, i) =>
      seatPlan[i] || (i === 0 ? { kind: "you" } : { kind: "bot", choice: bot }));
  }

  function render() {
    if (!game) return;
    renderOptions(optionsBox, game, values, (next) => { values = next; render(); });
    const [lo, hi] = playerRange(game, values);
    players = Math.min(Math.max(players, lo), hi);
    playersSelect.replaceChildren(...Array.from({ length: hi - lo + 1 }, (_, i) =>
      h("option", { value: String(lo + i) }, `${lo + i} player${lo + i === 1 ? "" : "s"}`)));
    playersSelect.value = String(players);
    seatPlan = defaultPlan(players).slice(0, players);
    seatsBox.replaceChildren(...seatPlan.map((plan, i) => {
      const select = h("select", { "aria-label": `Who plays ${seatLabel(i)}`, name: `seat-${i}` },
        h("option", { value: "you" }, "You"),
        h("option", { value: "open" }, "Open seat"),
        botChoices(game).map((c, j) => h("option", { value: `bot:${j}`, title: c.title }, c.label)));
      select.value = plan.kind === "bot" ? `bot:${plan.choice}` : plan.kind;
      select.addEventListener("change", () => {
        seatPlan[i] = select.value.startsWith("bot:")
          ? { kind: "bot", choice: Number(select.value.slice(4)) }
          : { kind: select.value };
      });
      return h("div", { class: "field seat-row" },
        h("span", { class: `seat-dot seat-${i}` }), h("label", {}, seatLabel(i)), select);
    }));
    note.textContent = game.metadata && game.metadata.provisional
      ? "This game's board data is provisional." : "";
  }

  gameSelect.addEventListener("change", () => {
    game = games[gameSelect.value];
    values = defaultOptions(game);
    seatPlan = [];
    players = game.min_players;
    render();
  });
  playersSelect.addEventListener("change", () => { players = Number(playersSelect.value); render(); });

  const form = h("form", { class: "stack" },
    h("div", { class: "field" }, h("label", { for: "new-game" }, "Game"), gameSelect),
    optionsBox,
    h("div", { class: "field" }, h("label", { for: "new-players" }, "Players"), playersSelect),
    h("fieldset", {}, h("legend", {}, "Seats"), seatsBox),
    h("fieldset", { class: "rules" }, h("legend", {}, "Table rules"), rules.node),
    note, submit);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    submit.disabled = true;
    try {
      const toSend = rules.read();
      const created = await api.createMatch({
        game: game.id, players, options: optionsToSend(game, values),
        ...(toSend ? { rules: toSend } : {}),
      });
      const owner = created.owner_token;
      owners.save(created.id, owner);
      const inviteOnly = Boolean(toSend && toSend.invite_only);
      // Claim our seats first: a bot seat that moves at once must not make a claim wait.
      // In an invite-only match the owner invites themselves, as anybody else.
      for (const [seat, plan] of seatPlan.entries()) {
        if (plan.kind === "you") {
          const code = inviteOnly ? (await api.invite(created.id, seat, owner)).invite : null;
          const claimed = await api.claim(created.id, seat, code);
          tokens.save(created.id, seat, claimed.token);
        }
      }
      for (const [seat, plan] of seatPlan.entries()) {
        if (plan.kind === "bot") {
          const choice = botChoices(game)[plan.choice];
          await api.toBot(created.id, seat, choice.bot, choice.level, owner);
        }
      }
      navigate(`#/match/${created.id}`);
    } catch (err) {
      onError(err);
    } finally {
      submit.disabled = false;
    }
  });
  render();
  return form;
}
