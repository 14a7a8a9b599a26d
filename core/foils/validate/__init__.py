"""Validation of a foil: the round trip through the parser, graph matching."""
