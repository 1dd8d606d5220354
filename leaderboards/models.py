"""Database models for leaderboards."""
