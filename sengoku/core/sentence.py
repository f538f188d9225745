"""Sentences a game writes for people (its log lines, its illegal-move reasons), kept
translatable.

An engine writes English, and the reader may read Japanese or French (docs/i18n.md). A
:class:`Sentence` keeps the English template and the values apart, so a reader's language can
translate the template and fill in the same values: ``say("{colour} draws {card}.",
colour=Word("Red"), card=Word("Manoeuvre"))`` is "Red draws Manoeuvre." in English, and the
client shows "赤が機動を引く。" from the catalog's template and words. A value marked
:class:`Word` is a game word the reader's language names (a colour, a unit, a card, a troop);
any other value (a square, a number, a notation) is shown as it is. A value may itself be a
sentence (a phrase the sentence names: "the Kagemusha's Kumi number 2", a list of cards, a
reason inside "{move} is not legal here: {reason}"), put into the reader's language the same
way, as a whole, before it fills its place.

``say`` is the keyword ``pybabel extract`` reads in the games' modules (``make i18n``), so each
template is a message of the ``messages`` catalog. Templates name their places in braces
(``{card}``), which Python's ``str.format`` and the client's ``fmt`` both fill.

An event whose ``message`` is a Sentence is stored with the English ``message`` (records, the
CLI and every test read it as before) and the sentence's parts under ``say``
(:func:`sengoku.core.events.event`); an error raised with one (``IllegalAction(say(...))``)
keeps it as ``.say`` for the server to translate.
"""

from __future__ import annotations

from collections.abc import Mapping
from string import Formatter
from typing import Any, Final, cast

from mypy_extensions import mypyc_attr


# Compiled with mypyc (docs/architecture.md, "The core compiled"): a native class cannot
# subclass ``str``, so the two text classes stay Python classes; Sentence is native.
@mypyc_attr(native_class=False)
class Word(str):
    """A game word the reader's language names: a colour, a piece, a unit, a card, a troop
    (the catalogs hold its translations; a word missing from them shows in English)."""

    __slots__ = ()


class Sentence:
    """An English template and its values: ``str()`` is the English sentence."""

    __slots__ = ("args", "template")

    def __init__(self, template: str, args: Mapping[str, object]) -> None:
        self.template = template
        self.args = args

    def __str__(self) -> str:
        return self.template.format_map(self.args)

    def __repr__(self) -> str:
        return f"say({self.template!r}, **{dict(self.args)!r})"

    def __reduce__(self) -> tuple[type[Sentence], tuple[str, Mapping[str, object]]]:
        # Pickled and copied through the constructor (an error that carries a sentence
        # crosses processes): the compiled class's ``__new__`` runs ``__init__``, so the
        # default protocol's empty object cannot be made.
        return (Sentence, (self.template, self.args))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Sentence)
            and other.template == self.template
            and dict(other.args) == dict(self.args)
        )

    def __hash__(self) -> int:
        return hash((self.template, tuple(sorted((k, str(v)) for k, v in self.args.items()))))

    def wire(self) -> dict[str, Any]:
        """The JSON form an event carries under ``say``: the template, the values (text,
        numbers, or a sentence's own JSON form) and the names of the values that are
        :class:`Word`\\ s."""
        args: dict[str, Any] = {}
        marked: list[str] = []
        for name, value in self.args.items():
            if isinstance(value, (Sentence, Said)):
                inner = value if isinstance(value, Sentence) else value.sentence
                args[name] = inner.wire()  # translated as a whole where it is shown
            elif isinstance(value, Word):
                marked.append(name)
                args[name] = str(value)
            elif isinstance(value, (int, float)) and not isinstance(value, bool):
                args[name] = value
            else:
                args[name] = str(value)
        out: dict[str, Any] = {"text": self.template, "args": args}
        if marked:
            out["words"] = marked
        return out


def N_(message: str) -> str:  # noqa: N802 - gettext's name for "mark, translate later"
    """Mark a game word for the catalog (``make i18n`` extracts it) where it is written down
    (a table of colours, directions, phases); a :class:`Word` of a sentence is translated
    where it is shown."""
    return message


def say(template: str, **args: object) -> Sentence:
    """A sentence: ``template`` (English, places in braces, a message of the catalog) filled
    with ``args`` (mark game words with :class:`Word`)."""
    return Sentence(template, args)


@mypyc_attr(native_class=False)
class Said(str):
    """A sentence's English text that still knows its sentence: what ``why_illegal`` (whose
    contract is text) returns for a reason a reader's language may translate; an error
    raised with it keeps the sentence (:class:`sengoku.core.game.SengokuError`)."""

    sentence: Sentence


def said(sentence: Sentence) -> Said:
    """``sentence``'s English text, knowing its sentence."""
    text = Said(str(sentence))
    text.sentence = sentence
    return text


#: Each template's pieces (the text before a place, the place's name; the last piece's name
#: is empty), parsed once; None for a template :func:`english` leaves to ``str.format_map``.
#: Kept to ``_PIECES_KEPT`` templates (the engines' few hundred; a card set's own texts add
#: theirs).
_PIECES: Final[dict[str, list[tuple[str, str]] | None]] = {}
_PIECES_KEPT: Final = 4096
#: ``_PIECES``' answer for a template not parsed yet (None is a parsed template's answer).
_UNPARSED: Final[list[tuple[str, str]]] = []


def _pieces(template: str) -> list[tuple[str, str]] | None:
    pieces: list[tuple[str, str]] = []
    for text, name, spec, conversion in Formatter().parse(template):
        if name is None:
            pieces.append((text, ""))
            continue
        if spec or conversion or not name.isidentifier():
            return None  # a format spec, a conversion, an index: the general way
        pieces.append((text, name))
    return pieces


def english(sentence: Sentence) -> str:
    """``str(sentence)`` (its template's ``format_map`` over its values), faster for the
    engines' templates, which every event of a game's ply fills: the template is split into
    its pieces once, and a value that is text (a :class:`Word`) goes in as it is, an ``int``
    as ``str``, a phrase by this same way, anything else as ``format(value, "")``, which is
    what ``format_map`` puts in a bare ``{name}``."""
    template = sentence.template
    pieces = _PIECES.get(template, _UNPARSED)  # one look-up (None is a parsed answer)
    if pieces is _UNPARSED:
        if len(_PIECES) >= _PIECES_KEPT:
            _PIECES.clear()
        pieces = _PIECES[template] = _pieces(template)
    if pieces is None:
        return str(sentence)
    args = sentence.args
    out: list[str] = []
    for text, name in pieces:
        if text:
            out.append(text)
        if name:
            value = args[name]
            if isinstance(value, str):
                out.append(value)
            elif type(value) is int:
                out.append(str(value))
            elif type(value) is Sentence:
                out.append(english(value))  # a phrase: ``format`` gives its ``str``, this
            else:
                out.append(format(value, ""))
    return "".join(out)


def told(sentence: Sentence, plain: Mapping[str, str] | None = None) -> tuple[str, dict[str, Any]]:
    """An event's ``message`` and ``say``: ``(str(sentence), sentence.wire())`` in one pass
    over the values, the usual ones (a :class:`Word`, an ``int``, a ``str``, a phrase)
    recognised by their exact type; any other value, or values that are not a dict, take
    :meth:`Sentence.wire`'s own tests in its order (tests/gunshi/test_gunshi_fast_paths.py and
    tests/sashimono/test_fast_paths.py hold the two together). ``plain`` maps a game's words to their plain text, made once, so that a
    word is not copied for every event."""
    return english(sentence), _wired(sentence, plain)


def _wired(sentence: Sentence, plain: Mapping[str, str] | None) -> dict[str, Any]:
    """``sentence.wire()``, the usual values by their exact type (:func:`told`)."""
    values = sentence.args
    if type(values) is not dict:
        return sentence.wire()
    args = cast("dict[str, object]", values)
    wired: dict[str, Any] = {}
    marked: list[str] = []
    for name, value in args.items():
        kind = type(value)
        if kind is Word:
            marked.append(name)
            text = None if plain is None else plain.get(cast("str", value))
            wired[name] = str(value) if text is None else text
        elif kind is int or kind is str:
            wired[name] = value
        elif kind is Sentence:
            wired[name] = _wired(cast("Sentence", value), plain)
        elif isinstance(value, (Sentence, Said)):
            inner = value if isinstance(value, Sentence) else value.sentence
            wired[name] = inner.wire()
        elif isinstance(value, Word):
            marked.append(name)
            wired[name] = str(value)
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            wired[name] = value
        else:
            wired[name] = str(value)
    out: dict[str, Any] = {"text": sentence.template, "args": wired}
    if marked:
        out["words"] = marked
    return out
