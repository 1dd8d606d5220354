"""Yukon and its family as a library: the rules, deals, notation, move log and search.

``yukon.engine`` holds the rules (cards, deals from a number, variants, positions, the
move notation, the move log and its one replay loop, the score); ``yukon.solver`` proves a
deal winnable with a verified line, or unwinnable, under a budget; ``yukon.strategy_bot``
plays as a person does, seeing only face-up cards. Standard library plus the solver's C
extension: no Django, and nothing of the site that uses it (the Yukon Daily apps import
this package, never the other way round).
"""
