"""First-party product metrics: counts of the funnel per day and tier, never a person."""
