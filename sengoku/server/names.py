"""Names and texts people type: no Zalgo text, and no spectator passing for a player.

Every comparison is made on the NFKC normalisation, case-folded (so full-width letters,
ligatures and capitals do not slip past), with what is not a letter or digit left out when a
name is compared with a player's (``A.n n`` is ``Ann``). Look-alike letters of other scripts
(a Cyrillic ``а`` for a Latin ``a``) are not caught: the client's markers (a message's
``role`` and ``seat``) are what tells a player from a spectator, never a name.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from sengoku.server.errors import ApiError
from sengoku.server.i18n import N_

#: Combining characters allowed in a row (a letter with an accent and a tone mark, say);
#: more is Zalgo text, which spills over the lines around it.
MAX_MARKS = 2

_NOT_WORD = re.compile(r"[\W_]+")
#: What a spectator's name may not hold: a seat, or a seat's default name ("Player 2").
_SEAT_WORDS = re.compile(r"seat|player\W*\d")


def _is_mark(ch: str) -> bool:
    return unicodedata.combining(ch) != 0 or unicodedata.category(ch) in {"Mn", "Me"}


def check_marks(field: str, text: str) -> None:
    """Refuse (422 ``too_many_marks``, naming ``field``) more than MAX_MARKS combining
    characters in a row."""
    run = 0
    for ch in text:
        run = run + 1 if _is_mark(ch) else 0
        if run > MAX_MARKS:
            raise ApiError(
                422,
                "too_many_marks",
                N_("'%(field)s' stacks more than %(n)s combining marks on one character"),
                params={"field": field, "n": MAX_MARKS},
            )


def folded(text: str) -> str:
    """``text`` as names are compared: NFKC, case-folded."""
    return unicodedata.normalize("NFKC", text).casefold()


def bare(text: str) -> str:
    """Its letters and digits only, folded."""
    return _NOT_WORD.sub("", folded(text))


def check_spectator_name(name: str, players: Iterable[str]) -> None:
    """Refuse (422 ``name_not_allowed``, field ``name``) a spectator's name that imitates a
    seat or a player: one holding "seat" or "player N", or one that is a player's name."""
    if _SEAT_WORDS.search(folded(name)):
        raise ApiError(
            422,
            "name_not_allowed",
            N_(
                '\'name\' may not name a seat or a player ("seat", "player 2"): the chat marks '
                "who plays which seat"
            ),
        )
    mine = bare(name)
    if mine and any(mine == bare(p) for p in players if bare(p)):
        raise ApiError(422, "name_not_allowed", N_("'name' is a player's name: choose another one"))
