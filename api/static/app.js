// The web table's entry point: a hash router between the lobby and a match's table.

import { showLobby } from "./lobby.js";
import { showTable } from "./table.js";

const root = document.getElementById("app");
let leave = () => {};
let shown = 0;

function navigate(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

async function route() {
  const mine = ++shown;
  leave();
  leave = () => {};
  const match = /^#\/match\/([^/?#]+)/.exec(location.hash);
  root.replaceChildren();
  document.body.dataset.page = match ? "table" : "lobby";
  try {
    const dispose = match
      ? await showTable(root, decodeURIComponent(match[1]), { navigate })
      : await showLobby(root, { navigate });
    if (mine !== shown) dispose();
    else leave = dispose;
  } catch (err) {
    console.error(err);
    root.textContent = `Something went wrong: ${err.message}`;
  }
}

window.addEventListener("hashchange", route);
route();
