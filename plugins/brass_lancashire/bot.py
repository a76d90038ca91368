"""The bots' Lancashire (:class:`LancashireBot`): the printed facts for the family's greedy
bot, its sale targets and double build as the family bot reads them, and ``evaluate``.

Ports and the distant market are shown as merchants buying cotton (the market at each
trade-icon location while its demand lasts); a double build is weighed as the build it
makes, only when no single build is on offer (it costs both actions); of the loans the bot
weighs the one its knowledge describes (£30 for three levels).
"""

from __future__ import annotations

from typing import Any

from plugins.brass.board_bot import BoardBot, board_knowledge, joined_to, sale_target
from plugins.brass.evaluation import BoardEvaluation
from plugins.brass_lancashire import moves as pm
from plugins.brass_lancashire.data import COAL, IRON, Lancashire

FLIPS = {"sold": "sell", "sold_through": "sell", "emptied": "deplete", "built": "built"}
SHORTFALL_VP = 0.5
"""VP a seat is expected to lose per £1 of future negative income it has no money for."""


class LancashireBot(BoardBot):
    """The family bot on Lancashire's sale targets and its Double Action Build."""

    d: Lancashire
    target_field = "to"

    def __init__(self, d: Lancashire, era_points: Any) -> None:
        """The family's facts of the board (:func:`~plugins.brass.board_bot.board_knowledge`,
        weighing the biggest loan) and ``evaluation``: each seat's expected final VP,
        counting negative income the purse cannot pay, as the small loans (£10 a level)
        make that spiral easy to enter."""
        flips = [FLIPS[kind.flips] for kind in d.kinds]
        rounds = {int(p): n for p, n in d.rules.rounds_per_era.items()}
        big = max(d.rules.loans, key=lambda loan: loan.money)
        resources = {COAL: "coal", IRON: "iron"}
        super().__init__(d, board_knowledge(d, flips, resources, rounds, (big.money, big.levels)))
        self.evaluation = BoardEvaluation(d, era_points, flips, rounds, shortfall_vp=SHORTFALL_VP)

    def shown_view(self, view: dict[str, Any]) -> dict[str, Any]:
        """``view`` with ports and the distant market as merchants buying cotton, and unsold
        mills no joined unflipped port serves yet as buyers of ports (a sale flips one)."""
        unflipped = [t for t in view["tiles"] if not t["flipped"]]
        free = [t for t in unflipped if t["industry"] == "port"]
        merchants = [sale_target(t["space"], t["location"], ["cotton"]) for t in free]
        for mill in (t for t in unflipped if t["industry"] == "cotton"):
            near = joined_to({mill["location"]}, [x["ends"] for x in view["links"]])
            port = next((p for p in free if near(p["location"])), None)
            if port is None:
                merchants.append(sale_target(mill["space"], mill["location"], ["port"]))
            else:
                free.remove(port)
        if not view["distant_market"]["closed"]:
            merchants += [sale_target("distant_market", self.d.locations[loc].id, ["cotton"])
                          for loc in sorted(self.d.trade_icon_locs)]  # fmt: skip
        return {**view, "merchants": merchants}

    def shown_move(self, move: Any) -> Any:
        """A double build as the build it makes (its card the location's own)."""
        if type(move) is pm.DoubleBuild:
            return pm.Build(f"location:{move.space.split(':')[0]}", move.space, move.industry)
        return super().shown_move(move)

    def candidates(self, legal: list[Any]) -> list[Any]:
        if any(type(m) is pm.Build for m in legal):
            legal = [m for m in legal if type(m) is not pm.DoubleBuild]
        return super().candidates(legal)
