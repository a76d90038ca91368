"""The generic conformance suite on the small maps (the registry run covers Rust Belt)."""

from __future__ import annotations

import pytest
from conformance import CHECKS, Params

from plugins.age_of_steam.game import AgeOfSteam

GAME = AgeOfSteam()
SMALL_MAPS = {
    "barbados": Params(players=[1], playouts=2, options={"map": "barbados"}),
    "st_lucia": Params(players=[2], playouts=2, options={"map": "st_lucia"}),
    "st_lucia_variant": Params(
        players=[2], playouts=1,
        options={"map": "st_lucia", "st_lucia_turn_order_action": False,
                 "st_lucia_first_section_income": 2},
    ),
}  # fmt: skip
FAST_CHECKS = [c for c in CHECKS if c.__name__ != "check_log_independent_of_hash_seed"]


@pytest.mark.parametrize("check", FAST_CHECKS, ids=lambda c: c.__name__.removeprefix("check_"))
@pytest.mark.parametrize("variant", list(SMALL_MAPS))
def test_small_maps_conform(variant, check):
    check(GAME, SMALL_MAPS[variant])
