"""The coach: hints and winnability checks in practice, post-game analysis, and the odds study."""
