"""Games: deals, daily challenges, games and their move logs."""
