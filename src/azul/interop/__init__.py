"""Adapters for research frameworks (optional dependencies: pip install -e '.[research]'):
observations as numpy arrays, OpenSpiel, PettingZoo and Gymnasium."""
