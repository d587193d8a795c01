"""Learning to play: self-play training and the value network that the search evaluates."""
