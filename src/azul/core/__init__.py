"""What every game shares: errors, the random generator, the game API and records."""
