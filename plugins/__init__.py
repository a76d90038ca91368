"""Game plugins: the Brass family engine and one package per game."""
