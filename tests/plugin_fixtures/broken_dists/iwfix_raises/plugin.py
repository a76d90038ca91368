"""Stands for a third-party plugin with a bug at import time."""

raise RuntimeError("this plugin is broken on purpose")
