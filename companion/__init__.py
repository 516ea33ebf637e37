"""Hot Streak Companion: the race caller for the board game Hot Streak."""

__version__ = "0.1.0"
