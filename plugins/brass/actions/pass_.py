"""Pass: pay a card and do nothing else with the action.

The rule (the Birmingham rule text's action list: "passing discards a card"): any card
pays; the action is spent. A variant may reward passing (:meth:`Variant.pass_reward`:
Pittsburgh's whiskey); Birmingham and Lancashire give nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from plugins.brass import events as ev
from plugins.brass.actions import Action

if TYPE_CHECKING:
    from plugins.brass.facts import Facts
    from plugins.brass.turn import TurnResolver
    from plugins.brass.variant import Variant


class Pass(Action):
    tag = "pass"

    def options(self, v: Variant, f: Facts, seat: int) -> list[Any]:
        return [self.named()]

    def start(self, r: TurnResolver, m: Any) -> list[ev.Step]:
        r.v.pass_reward(r)
        return []
