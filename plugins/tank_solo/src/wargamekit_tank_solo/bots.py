"""Placeholder until the heuristic bot lands."""
