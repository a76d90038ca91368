"""What a click on a move costs the web table's page: a seeded Brass: Birmingham match (you
against the greedy bot), the first listed move played N times, and per click the renderer's
main-thread busy time (chromium's sampling profiler, from the click to 1.2 s after the new
version shows: the bot's answer and its events included) and the click-to-new-version time.

Needs a running server and Debian's chromium (as tests/web does):

    ironworks serve --port 8765 &
    PYTHONPATH=$PWD python3 bench/bench_web_table_clicks.py http://127.0.0.1:8765 6

Wall-clock figures on a shared machine are noisy: compare runs made back to back.
"""

from __future__ import annotations

import sys
import uuid

import httpx
from playwright.sync_api import sync_playwright

BASE = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000"
CLICKS = int(sys.argv[2]) if len(sys.argv) > 2 else 6
CHROMIUM = "/usr/bin/chromium"


def main() -> None:
    created = httpx.post(f"{BASE}/matches", json={"game": "brass-birmingham", "players": 2,
                                                  "seed": "bench-web-clicks"}).json()  # fmt: skip
    match = created["id"]
    key = {"idempotency-key": str(uuid.uuid4())}
    token = httpx.post(f"{BASE}/matches/{match}/seats/0/claim", headers=key).json()["token"]
    httpx.post(f"{BASE}/matches/{match}/seats/1/bot", json={"bot": "greedy"})
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        context = browser.new_context(viewport={"width": 1440, "height": 900})
        context.add_init_script(
            f'localStorage.setItem(\'ironworks.tokens\', \'{{"{match}": {{"0": "{token}"}}}}\')'
        )
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.goto(f"{BASE}/#/match/{match}")
        page.wait_for_selector(".table-page[data-version]")
        cdp = context.new_cdp_session(page)
        cdp.send("Profiler.enable")
        cdp.send("Profiler.setSamplingInterval", {"interval": 500})
        busy, wall = [], []
        for _ in range(CLICKS):
            page.wait_for_selector(".table-page[data-mine='true'] .move-list button.move")
            page.wait_for_timeout(1500)  # the bot's answer and its events settle
            before = int(page.get_attribute(".table-page", "data-version") or 0)
            cdp.send("Profiler.start")
            t0 = page.evaluate("performance.now()")
            page.locator(".move-list button.move").first.dispatch_event("click")
            page.wait_for_function(
                "v => Number(document.querySelector('.table-page').dataset.version) > v",
                arg=before,
            )
            wall.append(page.evaluate("performance.now()") - t0)
            page.wait_for_timeout(1200)
            profile = cdp.send("Profiler.stop")["profile"]
            names = {n["id"]: n["callFrame"]["functionName"] for n in profile["nodes"]}
            idle = sum(
                d
                for node, d in zip(profile["samples"], profile["timeDeltas"], strict=True)
                if names[node] == "(idle)"
            )
            busy.append((sum(profile["timeDeltas"]) - idle) / 1000)
        browser.close()
    print("main-thread busy ms per click:", [round(b) for b in busy], "sum", round(sum(busy)))
    print("click -> new version ms:      ", [round(w) for w in wall])


if __name__ == "__main__":
    main()
