"""Database models for frontend."""
