"""Database models for games."""
