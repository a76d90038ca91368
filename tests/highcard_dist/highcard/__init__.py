"""High Card: a small game with hidden hands and a dealer step, living only in the tests."""
