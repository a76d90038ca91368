"""Game-agnostic spine of ironworks: events, stores, plugins, projections, commands."""
