"""Matches and tournaments between bots: seat rotation, mirrored deals, statistics, ratings."""
