"""Azul: Stained Glass of Sintra: data, rules, actions, positions and rendering."""
