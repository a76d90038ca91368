// Drawing helpers shared by the board modules: SVG and HTML element builders, the seat
// palette, and clickable targets (data-target, keyboard operable, with a text alternative).
// No rules here: the boards only draw what the view says and name what a move mentions.

export const SVG_NS = "http://www.w3.org/2000/svg";

// Okabe–Ito colours, chosen to stay apart for the common colour-vision deficiencies; every
// piece also carries its seat number, so colour is never the only cue.
export const SEAT_COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00"];
const SEAT_INK = ["#ffffff", "#1a1a1a", "#ffffff", "#1a1a1a", "#1a1a1a", "#ffffff"];

export function seatColour(seat) {
  return seat == null ? "#9a9a9a" : SEAT_COLOURS[seat % SEAT_COLOURS.length];
}

// Text colour readable on the seat's colour.
export function seatInk(seat) {
  return seat == null ? "#1a1a1a" : SEAT_INK[seat % SEAT_INK.length];
}

// Seats are 0-based in the API; people count from 1.
export function seatLabel(seat) {
  return seat == null ? "nobody" : `Seat ${seat + 1}`;
}

export function seatMark(seat) {
  return seat == null ? "–" : String(seat + 1);
}

// An SVG element with attributes; `children` may hold elements or strings (text nodes).
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

// An HTML element with attributes (`class`, `text` for textContent, others verbatim).
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el, attrs) {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") el.textContent = String(v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
}

// The game's view document, whether ctx.view is the match envelope (GET /matches/{id})
// or the view itself.
export function viewOf(ctx) {
  const v = ctx.view || {};
  return v.view && typeof v.version === "number" ? v.view : v;
}

// The match envelope's seats (bot names), when ctx.view is the envelope.
export function seatsOf(ctx) {
  const v = ctx.view || {};
  return v.view && Array.isArray(v.seats) ? v.seats : [];
}

// Whether the match is over: played to the end, ended by resignations (the game's own
// state may then still name a seat to play) or abandoned.
export function matchOver(ctx) {
  const v = ctx.view || {};
  return Boolean(v.result) || v.finished === true || v.status === "finished" || v.status === "abandoned";
}

// Make `el` a target with id `id`: lit when in ctx.targets (clickable, focusable, Enter or
// Space picks it), marked when in ctx.touched. `label` is the text alternative. Elements
// that are neither keep data-target (so the shell can find them) but are not focusable.
export function target(el, id, label, ctx) {
  el.setAttribute("data-target", id);
  el.classList.add("bd-el");
  const title = el.namespaceURI === SVG_NS ? s("title", {}, label) : null;
  if (title) el.insertBefore(title, el.firstChild);
  else el.setAttribute("title", label);
  if (ctx.touched && ctx.touched.has(id)) el.classList.add("bd-touched");
  if (ctx.targets && ctx.targets.has(id)) {
    el.classList.add("bd-target");
    el.setAttribute("tabindex", "0");
    el.setAttribute("role", "button");
    el.setAttribute("aria-label", label);
    const pick = (ev) => {
      ev.preventDefault();
      ev.stopPropagation();
      if (ctx.onPick) ctx.onPick(id);
    };
    el.addEventListener("click", pick);
    el.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " " || ev.key === "Spacebar") pick(ev);
    });
  } else {
    el.setAttribute("aria-label", label);
  }
  return el;
}

// Put the boards' stylesheet into the document once (the shell need not link it).
export function ensureStyles() {
  if (typeof document === "undefined" || document.getElementById("bd-styles")) return;
  const link = document.createElement("link");
  link.id = "bd-styles";
  link.rel = "stylesheet";
  link.href = new URL("./boards.css", import.meta.url).href;
  document.head.appendChild(link);
}

// Prepare the two drawing areas: empty them, set the viewBox and the SVG's own label.
export function start(svg, panels, viewBox, label) {
  ensureStyles();
  clear(svg);
  clear(panels);
  svg.setAttribute("viewBox", viewBox);
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", label);
  svg.classList.add("bd-svg");
  panels.classList.add("bd-panels");
}

// A quadratic curve from a to b that passes through m at its middle.
export function curveThrough(a, m, b) {
  const cx = 2 * m[0] - (a[0] + b[0]) / 2;
  const cy = 2 * m[1] - (a[1] + b[1]) / 2;
  return `M${f(a[0])},${f(a[1])} Q${f(cx)},${f(cy)} ${f(b[0])},${f(b[1])}`;
}

export function polyline(points) {
  return points.map((p, i) => `${i ? "L" : "M"}${f(p[0])},${f(p[1])}`).join(" ");
}

export function f(x) {
  return Math.round(x * 10) / 10;
}

export function roman(n) {
  return ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII"][n] || String(n);
}

export function titleCase(id) {
  return String(id)
    .split(/[_\s]+/)
    .map((w) => (w ? w[0].toUpperCase() + w.slice(1) : w))
    .join(" ");
}

// A small "key: value" row for a player panel.
// A sum of money with its sign in front: "$5", "−$2" (not "$-2").
export function amount(sign, n) {
  return typeof n === "number" && n < 0 ? `−${sign}${-n}` : `${sign}${n}`;
}

export function stat(label, value, extra = {}) {
  return h("div", { class: "bd-stat", ...extra }, h("span", { class: "bd-k", text: label }), h("span", { class: "bd-v", text: value }));
}

// Whose decision it is and the decision's prompt, as one sentence: the views word every
// prompt as a whole clause ("£3 of negative income cannot be paid: …", "Move Goods round 1
// of 2: …"), so it follows the seat's name as given rather than after a verb of ours.
export function decisionLine(seat, you, prompt) {
  const text = prompt ? `: ${prompt[0].toUpperCase()}${prompt.slice(1)}.` : " to play.";
  return h("div", { class: "bd-prompt" }, seatBadge(seat), " ", h("strong", { text: you ? "You" : seatLabel(seat) }), text);
}

// A seat badge: coloured disc with the seat number (HTML).
export function seatBadge(seat) {
  return h("span", {
    class: "bd-badge",
    style: `background:${seatColour(seat)};color:${seatInk(seat)}`,
    text: seatMark(seat),
    "aria-hidden": "true",
  });
}

// A seat piece in SVG: a disc in the seat's colour with its number on it.
export function seatDisc(seat, x, y, r) {
  return s(
    "g",
    { class: "bd-seatdisc" },
    s("circle", { cx: f(x), cy: f(y), r: f(r), fill: seatColour(seat), stroke: "#1a1a1a", "stroke-width": Math.max(0.6, r / 7) }),
    s("text", { x: f(x), y: f(y + r * 0.36), "font-size": f(r * 1.05), "text-anchor": "middle", fill: seatInk(seat), "font-weight": 700 }, seatMark(seat)),
  );
}
