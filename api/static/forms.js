// A form for a game's options, generated from the JSON Schema in GET /games
// (`options_schema`): enums become selects, booleans checkboxes, numbers number fields.

import { h } from "./dom.js";

function resolve(schema, root) {
  let node = schema;
  for (let i = 0; node && node.$ref && i < 10; i++) {
    const path = node.$ref.replace(/^#\//, "").split("/");
    node = path.reduce((at, key) => (at ? at[key] : undefined), root);
  }
  return node || {};
}

export function optionFields(game) {
  const root = game.options_schema || {};
  const schema = resolve(root, root);
  return Object.entries(schema.properties || {}).map(([name, prop]) => {
    const field = resolve(prop, root);
    const variants = (field.anyOf || field.oneOf || [field]).map((v) => resolve(v, root));
    const nullable = variants.some((v) => v.type === "null");
    const enums = variants.flatMap((v) => v.enum || []);
    const types = variants.map((v) => v.type).filter((t) => t && t !== "null");
    return {
      name, nullable, enums, type: types[0] || (enums.length ? typeof enums[0] : "string"),
      default: field.default, description: field.description || field.title || "",
      minimum: field.minimum, maximum: field.maximum,
    };
  });
}

// Options that apply with the chosen map, when the game says so (metadata.maps.<map>.options).
export function optionApplies(game, name, values) {
  const maps = game.metadata && game.metadata.maps;
  if (!maps || name === "map" || !("map" in values)) return true;
  const map = maps[values.map];
  if (!map || !Array.isArray(map.options)) return true;
  const mapOwned = Object.values(maps).some((m) => (m.options || []).includes(name));
  return !mapOwned || map.options.includes(name);
}

// Player counts the chosen options allow.
export function playerRange(game, values) {
  const maps = game.metadata && game.metadata.maps;
  const map = maps && values.map && maps[values.map];
  if (map && map.min_players) return [map.min_players, map.max_players];
  return [game.min_players, game.max_players];
}

function label(name, game) {
  const maps = (game.metadata && game.metadata.maps) || {};
  if (name === "map") return "Map";
  // A map's own option: its name without the map's id ("st_lucia_turn_order_action").
  const owner = Object.keys(maps).find((id) => name.startsWith(`${id}_`));
  const bare = owner ? name.slice(owner.length + 1) : name;
  return bare.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
}

// Every option at its default: what the server would use for options left out.
export function defaultOptions(game) {
  const out = {};
  for (const field of optionFields(game)) {
    if (field.default !== undefined && field.default !== null) out[field.name] = field.default;
  }
  return out;
}

function choiceLabel(field, value, game) {
  const maps = game.metadata && game.metadata.maps;
  if (field.name === "map" && maps && maps[value]) {
    const m = maps[value];
    const players = m.min_players === m.max_players ? m.min_players : `${m.min_players}–${m.max_players}`;
    return `${m.title || value} (${players} player${players === 1 ? "" : "s"})`;
  }
  return String(value).replace(/_/g, " ");
}

// Inputs for the fields; onChange(values) after every edit.
export function renderOptions(container, game, values, onChange) {
  container.replaceChildren();
  for (const field of optionFields(game)) {
    if (!optionApplies(game, field.name, values)) continue;
    const id = `opt-${field.name}`;
    let input;
    const value = values[field.name] !== undefined ? values[field.name] : field.default;
    if (field.enums.length) {
      input = h("select", { id, name: field.name });
      if (field.nullable) input.append(h("option", { value: "" }, "Default"));
      for (const choice of field.enums) {
        input.append(h("option", { value: JSON.stringify(choice) }, choiceLabel(field, choice, game)));
      }
      input.value = value == null ? "" : JSON.stringify(value);
      input.addEventListener("change", () => {
        const next = { ...values };
        if (input.value === "") delete next[field.name];
        else next[field.name] = JSON.parse(input.value);
        onChange(next);
      });
    } else if (field.type === "boolean") {
      input = h("input", { id, name: field.name, type: "checkbox" });
      input.checked = Boolean(value);
      input.addEventListener("change", () => onChange({ ...values, [field.name]: input.checked }));
    } else if (field.type === "integer" || field.type === "number") {
      input = h("input", { id, name: field.name, type: "number" });
      if (field.minimum != null) input.min = field.minimum;
      if (field.maximum != null) input.max = field.maximum;
      input.value = value == null ? "" : value;
      input.addEventListener("change", () => {
        const next = { ...values };
        if (input.value === "") delete next[field.name];
        else next[field.name] = Number(input.value);
        onChange(next);
      });
    } else {
      input = h("input", { id, name: field.name, type: "text" });
      input.value = value == null ? "" : value;
      input.addEventListener("change", () => onChange({ ...values, [field.name]: input.value }));
    }
    const row = h("div", { class: field.type === "boolean" ? "field check" : "field" },
      h("label", { for: id, title: field.description }, label(field.name, game)), input);
    container.append(row);
  }
}

// The options to send: only fields that apply and that the user set.
export function optionsToSend(game, values) {
  const out = {};
  for (const field of optionFields(game)) {
    if (!optionApplies(game, field.name, values)) continue;
    if (values[field.name] !== undefined) out[field.name] = values[field.name];
  }
  return out;
}

// The service's rules of a match (POST /matches `rules`): invite-only seats and the clock.
// `read()` gives the rules to send, or null for the server's defaults.
const UNITS = [["s", 1, "seconds"], ["min", 60, "minutes"], ["h", 3600, "hours"], ["d", 86400, "days"]];

function durationField(id, text, amount, unit) {
  const number = h("input", { id, type: "number", min: "0", step: "1", value: String(amount), class: "amount" });
  const units = h("select", { id: `${id}-unit`, "aria-label": `${text}: unit` },
    UNITS.map(([value, , name]) => h("option", { value }, name)));
  units.value = unit;
  const row = h("div", { class: "field duration" }, h("label", { for: id }, text), h("div", { class: "row" }, number, units));
  const seconds = () => Math.round(Number(number.value) * UNITS.find(([u]) => u === units.value)[1]);
  return { row, seconds };
}

export function rulesFields() {
  const inviteOnly = h("input", { id: "rule-invite-only", type: "checkbox" });
  const kind = h("select", { id: "rule-clock" },
    h("option", { value: "none" }, "No clock"),
    h("option", { value: "turn" }, "Time per turn"),
    h("option", { value: "bank" }, "Time bank + increment"));
  const turn = durationField("rule-turn", "Each turn", 1, "d");
  const bank = durationField("rule-bank", "Bank per player", 3, "d");
  const increment = durationField("rule-increment", "Added after each turn", 12, "h");
  const onTimeout = h("select", { id: "rule-on-timeout" },
    h("option", { value: "bot" }, "a bot plays the late turn"),
    h("option", { value: "resign" }, "the player resigns"));
  const timeout = h("div", { class: "field" }, h("label", { for: "rule-on-timeout" }, "Out of time"), onTimeout);
  const show = () => {
    turn.row.hidden = kind.value !== "turn";
    bank.row.hidden = increment.row.hidden = kind.value !== "bank";
    timeout.hidden = kind.value === "none";
  };
  kind.addEventListener("change", show);
  show();
  const node = h("div", { class: "stack" },
    h("div", { class: "field check" }, h("label", { for: "rule-invite-only", title: "Seats are taken only with an invite link from you" }, "Invite only"), inviteOnly),
    h("div", { class: "field" }, h("label", { for: "rule-clock" }, "Time control"), kind),
    turn.row, bank.row, increment.row, timeout);
  const read = () => {
    const rules = {};
    if (inviteOnly.checked) rules.invite_only = true;
    if (kind.value === "turn") rules.clock = { turn_seconds: turn.seconds(), on_timeout: onTimeout.value };
    if (kind.value === "bank") {
      rules.clock = {
        bank_seconds: bank.seconds(), increment_seconds: increment.seconds(), on_timeout: onTimeout.value,
      };
    }
    return Object.keys(rules).length ? rules : null;
  };
  return { node, read };
}
