"""Azul: Summer Pavilion: data, rules, actions, positions and rendering."""
