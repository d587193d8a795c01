"""A value network for the MCTS bot, learned by self-play (``python -m azul.learn GAME``).

Self-play games of the compiled MCTS (``selfplay``) are stored in a run's folder
(``dataset``); a small MLP is fitted to each seat's final score from its observation (``fit``);
each generation's network is gated against the best one and the hand evaluation (``gate``); the
generations loop (``run``) resumes wherever it was stopped. The trained networks are read and
evaluated by ``net``.
"""
