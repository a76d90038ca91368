"""The conformance suite lives in the installed package (:mod:`core.conformance`), so that
plugin authors can run it without a source checkout; this module keeps the tests' short
``from conformance import …``."""

from core.conformance import *  # noqa: F403
from core.conformance import CHECKS, Params, params_for  # noqa: F401
