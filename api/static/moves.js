// Choosing a move among the server's legal moves. The browser runs no rules: it only
// narrows the listed moves by what the user picked (a move type, board targets) and posts
// the one left exactly as listed.

export function emptyChoice() {
  return { type: null, picks: [] };
}

// `ctx` ({game, view, seat}) for boards whose targets depend on the position (a good's route).
export function safeTargets(board, move, ctx) {
  try {
    return board.targetsOf(move, ctx) || [];
  } catch (err) {
    console.warn("targetsOf failed", err);
    return [];
  }
}

// The moves still possible after the user's picks.
export function candidates(board, moves, choice, ctx) {
  return moves.filter((move) => {
    if (choice.type && move.type !== choice.type) return false;
    if (!choice.picks.length) return true;
    const targets = safeTargets(board, move, ctx);
    return choice.picks.every((t) => targets.includes(t));
  });
}

// The board targets that would narrow the candidates further: every target of a candidate,
// except those every candidate shares (clicking them would change nothing).
export function narrowingTargets(board, list, choice, ctx) {
  const counts = new Map();
  for (const move of list) {
    for (const t of new Set(safeTargets(board, move, ctx))) counts.set(t, (counts.get(t) || 0) + 1);
  }
  const out = new Set();
  for (const [t, n] of counts) {
    if (choice.picks.includes(t)) continue;
    if (n < list.length || list.length === 1) out.add(t);
  }
  return out;
}

// A click on a target: picking it again takes it back.
export function pick(choice, target) {
  if (choice.picks.includes(target)) {
    return { ...choice, picks: choice.picks.filter((t) => t !== target) };
  }
  return { ...choice, picks: [...choice.picks, target] };
}

// Moves by type, in the order the server lists them.
export function byType(list) {
  const groups = new Map();
  for (const move of list) {
    if (!groups.has(move.type)) groups.set(move.type, []);
    groups.get(move.type).push(move);
  }
  return groups;
}

export function sameMove(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function typeLabel(type) {
  return type.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
}
