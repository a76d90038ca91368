"""Test fixture: plugins whose games the registry must refuse."""
