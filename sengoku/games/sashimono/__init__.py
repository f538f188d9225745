"""Sashimono: the two-player duel and the solo game against the Kagemusha, cards as data.

Each rule of the rulebook lives in a module named for it:

* ``pieces`` - Game Components: Kumi and stacks, the Sonae, the 12 Sashimono spaces
* ``setup`` - Two-Player and One-Player Setup
* ``turn`` - How to Play: Action or Score turn, Draw Kumi Cards, Play Kumi Cards
* ``action_turn`` - Play 1 Sashimono card, Take Actions (requirements, the Gunbai fan)
* ``score_turn`` - Score VP, Replace and Return Sashimono, the Bonus Action
* ``bowing`` - bowing and un-bowing (scoring conditions)
* ``battle`` - Battle: Choose Line, Antes, Compare Power, Results, ongoing triggers
* ``training`` - Training and Rank
* ``winning`` - Goal of the Game
* ``sonae`` / ``effects`` - flipping a Kumi; the effects of the card language
* ``kagemusha`` - the solo mode (the Kagemusha's turn, draws and answers)
* ``hidden_information`` / ``determinize`` - what a seat sees; worlds for a seat
* ``cards`` - the card language and the card files; ``decisions`` - actions, steps and
  questions as data; ``state`` - the position and the turn machine; ``game`` - the Game
"""

from sengoku.games.sashimono.game import Sashimono

__all__ = ["Sashimono"]
