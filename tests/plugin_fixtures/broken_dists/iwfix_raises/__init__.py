"""Test fixture: a plugin package whose plugin module cannot be imported."""
