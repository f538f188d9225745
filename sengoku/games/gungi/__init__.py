"""Gungi (軍儀): 9x9 stacking chess. See docs/rules/gungi.md.

One rule, one module, named as the rulebook names it: ``movement`` (pieces and reach),
``stacking`` (capturing and stacking, tsuke), ``new_pieces`` (新, arata: drops and the drop
zone), ``betrayal`` (寝返り), ``setup`` (the setup phase, placements, Done), ``mate`` (check,
mate, ``self_check``), ``the_end`` (the Marshal captured, mate, repetition), ``zobrist``
(the position hash), ``illegal`` (why a move is illegal). ``state`` keeps the position,
make/unmake and the contract; ``game`` the options and notation; ``move`` the move codes;
``fen`` gungi.js FEN; ``pieces`` the pieces, modes and reach tables (``pieces.json``,
``modes.json``). The table from rule to file is in docs/architecture.md.
"""

from sengoku.games.gungi.game import Gungi
from sengoku.games.gungi.move import Move
from sengoku.games.gungi.native_core import native_available
from sengoku.games.gungi.state import GungiState

__all__ = ["Gungi", "GungiState", "Move", "native_available"]
