"""Event store backends behind one contract (:class:`core.store.base.EventStore`)."""

from core.store.base import EventStore, open_store

__all__ = ["EventStore", "open_store"]
