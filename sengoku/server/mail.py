""" "It is your turn" e-mails of turn-based games (an operator's choice, off by default).

When a move passes the turn to a seat of a ``correspondence`` (days per move) match, and an
account that gave an e-mail address owns that seat, the server mails it one line: "It is
your turn in <game> against <names>: <link>". Nothing else: no position, no card, no hand
(no hidden information can be in it), and the link only opens the match page, where the
seat's own token (in the player's browser) is still needed to see its hand or to act.

Sending is off while ``Settings.smtp_host`` is empty. It happens in a background task (the
address is looked up and the mail handed to the SMTP server on a thread), after the move was
committed and answered: a slow or failing mail server never delays or fails a move; a mail
that cannot be sent is logged and dropped. The message is built by the standard library's
``email`` and sent with ``smtplib``.
"""

from __future__ import annotations

import asyncio
import logging
import smtplib
from collections.abc import Callable, Coroutine
from email.message import EmailMessage
from typing import TYPE_CHECKING, Any

from sengoku.server.settings import Settings
from sengoku.server.turn_based import TurnBasedStore

if TYPE_CHECKING:
    from sengoku.server.live import Live

log = logging.getLogger("sengoku.server")

#: Mails handed to the SMTP server at once (more wait their turn).
AT_ONCE = 2


def turn_message(
    settings: Settings, to: str, title: str, opponents: list[str], match_id: str
) -> EmailMessage:
    """The one mail: the game's title, the other players' names, the match's link."""
    base = settings.public_url or (settings.public_origins[0] if settings.public_origins else "")
    link = f"{base.rstrip('/')}/play/{match_id}"
    against = ", ".join(opponents) or "your opponent"
    message = EmailMessage()
    message["From"] = settings.smtp_from
    message["To"] = to
    message["Subject"] = f"Your turn in {title} against {against}"
    message.set_content(
        f"It is your turn in {title} against {against}: {link}\n\n"
        "(You receive this because your Sengoku account has this address; remove it on "
        "your account page to receive no more.)\n"
    )
    return message


class TurnMail:
    """Sends the "your turn" mails of one server process."""

    def __init__(
        self,
        settings: Settings,
        store: TurnBasedStore,
        spawn: Callable[[Coroutine[Any, Any, None]], None],
    ) -> None:
        self.settings = settings
        self.store = store
        self.spawn = spawn
        self._at_once = asyncio.Semaphore(AT_ONCE)
        #: The mails handed to the SMTP server (their recipients), for the log and tests.
        self.sent = 0

    @property
    def enabled(self) -> bool:
        return bool(self.settings.smtp_host and self.settings.smtp_from)

    def turn_passed(self, live: Live, seat: int) -> None:
        """A move gave ``seat`` the turn in ``live``: mail its owner if that applies."""
        if not self.enabled or live.clock_spec is None:
            return
        if live.clock_spec.type != "correspondence" or live.status != "active":
            return
        if not 0 <= seat < len(live.seats) or live.seats[seat].kind != "human":
            return
        title = live.game.game_type.title or live.game.name
        opponents = [s.name for s in live.seats if s.seat != seat]
        self.spawn(self._send(live.id, seat, title, opponents))

    async def _send(self, match_id: str, seat: int, title: str, opponents: list[str]) -> None:
        try:
            async with self._at_once:
                found = await asyncio.to_thread(self.store.recipient, match_id, seat)
                if found is None:
                    return
                _name, address = found
                message = turn_message(self.settings, address, title, opponents, match_id)
                await asyncio.to_thread(self._deliver, message)
                self.sent += 1
                log.info("match %s: 'your turn' mail sent for seat %d", match_id, seat)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a mail is never worth more than a log line
            log.warning("match %s: 'your turn' mail not sent: %s", match_id, exc)

    def _deliver(self, message: EmailMessage) -> None:
        s = self.settings
        with smtplib.SMTP(s.smtp_host, s.smtp_port, timeout=s.smtp_timeout) as smtp:
            if s.smtp_starttls:
                smtp.starttls()
            if s.smtp_user:
                smtp.login(s.smtp_user, s.smtp_password)
            smtp.send_message(message)
