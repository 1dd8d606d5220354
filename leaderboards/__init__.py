"""Leaderboards: rankings of verified results."""
