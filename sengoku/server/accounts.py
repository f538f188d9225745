"""Player accounts: optional names with passwords that own seats (docs/server.md "Accounts").

A guest plays exactly as before: a seat is held by its token (in the browser's
localStorage), and the token stays the authority for acting in the seat. An account adds a
name that owns seats: those it took while signed in and those its browser claimed by
presenting their tokens. An account never acts for a seat; it only lists and exports them.

- Passwords are hashed with Argon2id (argon2-cffi). Signing in with an unknown name verifies
  against a dummy hash of the same cost and answers exactly as a wrong password does, so
  neither the answer nor its time tells which names exist.
- A session is a random id in the ``sengoku_session`` cookie (HttpOnly, SameSite=Lax, Secure
  over https), stored only as its SHA-256. Every sign-in makes a new one (a planted session
  id is never kept); signing out, a password change (for the other sessions) and a deletion
  delete them on the server.
- Every state-changing request the session cookie authenticates, and every sign-in and
  sign-up, must come from the server's own origin (``Origin``, else ``Referer``) and echo the
  ``sengoku_csrf`` cookie (an itsdangerous-signed random token, readable by the page) in
  the ``X-CSRF-Token`` header: :class:`CsrfMiddleware`. Requests that carry only a bearer
  seat token (the game API) are authenticated by no cookie and pass unchanged.
- Sign-in attempts are limited per account name and per client address (429).
"""

from __future__ import annotations

import asyncio
import hashlib
import http.cookies
import io
import json
import re
import secrets
import unicodedata
import zipfile
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy import Engine, and_, delete, insert, select, tuple_, update
from sqlalchemy import exc as sa_exc
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sengoku.server import security
from sengoku.server.chat import chat_messages
from sengoku.server.db import (
    account_seats,
    account_sessions,
    accounts,
    events,
    seats,
    server_secrets,
)
from sengoku.server.errors import ApiError
from sengoku.server.i18n import N_
from sengoku.server.limits import ClientLimits, TokenBucket
from sengoku.server.settings import Settings
from sengoku.server.tokens import hash_token

if TYPE_CHECKING:
    from sengoku.server.service import MatchService

SESSION_COOKIE = "sengoku_session"
CSRF_COOKIE = "sengoku_csrf"
CSRF_HEADER = "x-csrf-token"
#: The name a deleted account's seats show from then on.
ANONYMOUS = "deleted player"
#: Names: 2-32 letters (any script), digits, ``.``, ``_`` or ``-``, compared after NFKC
#: normalisation and case folding ("Taro" and "taro" are one name).
NAME_RE = re.compile(r"^\w[\w.-]{0,30}\w$")
MIN_PASSWORD = 8
#: Longer passwords are refused before hashing (Argon2's work does not grow with length,
#: but there is no use in accepting megabytes).
MAX_PASSWORD = 256
#: Seat tokens one claim may present.
MAX_CLAIM = 500
#: A session's ``last_seen`` is written at most this often (seconds).
SEEN_EVERY = 300.0
#: The paths whose state-changing requests a session cookie authenticates: the account's
#: own routes, creating or joining a match (the seats taken are the account's), coming
#: back to a seat the computer took (the account's seat), seeks (made, withdrawn or
#: accepted by the account: sengoku/server/seeks.py), and a puzzle attempt (the account's
#: puzzle rating).
COOKIE_PATHS = re.compile(
    r"^/api/(account(/.*)?|matches/?|matches/[^/]+/(join|return)/?|seeks(/.*)?"
    r"|puzzles/[^/]+/attempt/?)$"
)
#: Sign-in and sign-up: checked even without a session cookie, so that no other site can
#: sign a browser into an account of its choosing (its seats would then be claimed there).
SIGN_IN_PATHS = re.compile(r"^/api/account/(signin|signup)/?$")
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})


def name_key(name: str) -> str:
    """The form names are compared in: NFKC, case-folded."""
    return unicodedata.normalize("NFKC", name).casefold()


def check_name(name: str) -> str:
    name = unicodedata.normalize("NFKC", name).strip()
    if not NAME_RE.match(name) or len(name_key(name)) > 64:
        raise ApiError(
            422,
            "bad_name",
            N_(
                "'name': 2-32 letters, digits, '.', '_' or '-', starting and ending with a letter "
                "or digit"
            ),
        )
    return name


def check_password(password: str, field: str = "password") -> str:
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise ApiError(
            422,
            "bad_password",
            N_("'%(field)s': %(min)s to %(max)s characters"),
            params={"field": field, "min": MIN_PASSWORD, "max": MAX_PASSWORD},
        )
    return password


def hash_session(session_id: str) -> str:
    return hashlib.sha256(session_id.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Account:
    id: str
    name: str
    created_at: float

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "created_at": self.created_at}


class NameTaken(Exception):
    pass


class AccountStore:
    """The accounts' queries, each one transaction (synchronous: run on a thread)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def secret(self, name: str) -> str:
        """The shared secret ``name``: made by the first process that asks, read by the rest."""
        with self.engine.begin() as conn:
            value = conn.scalar(select(server_secrets.c.value).where(server_secrets.c.name == name))
        if value is not None:
            return str(value)
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(server_secrets), [{"name": name, "value": secrets.token_urlsafe(48)}]
                )
        except sa_exc.IntegrityError:
            pass  # another process made it first: use theirs
        with self.engine.begin() as conn:
            return str(
                conn.scalar(select(server_secrets.c.value).where(server_secrets.c.name == name))
            )

    def create(self, account_id: str, name: str, password_hash: str, now: float) -> None:
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(accounts),
                    [
                        {
                            "id": account_id,
                            "name": name,
                            "name_key": name_key(name),
                            "password_hash": password_hash,
                            "created_at": now,
                            "deleted": False,
                        }
                    ],
                )
        except sa_exc.IntegrityError:
            raise NameTaken(name) from None

    def by_name(self, name: str) -> dict[str, Any] | None:
        with self.engine.begin() as conn:
            row = conn.execute(
                select(accounts).where(accounts.c.name_key == name_key(name), ~accounts.c.deleted)
            ).first()
        return None if row is None else dict(row._mapping)

    def by_id(self, account_id: str) -> dict[str, Any] | None:
        with self.engine.begin() as conn:
            row = conn.execute(
                select(accounts).where(accounts.c.id == account_id, ~accounts.c.deleted)
            ).first()
        return None if row is None else dict(row._mapping)

    def set_password(self, account_id: str, password_hash: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(accounts)
                .where(accounts.c.id == account_id)
                .values(password_hash=password_hash)
            )

    def new_session(
        self, id_hash: str, account_id: str, now: float, ttl: float, old_hash: str | None
    ) -> None:
        """A new session for the account; the browser's previous one (if any) is deleted."""
        with self.engine.begin() as conn:
            if old_hash is not None:
                conn.execute(delete(account_sessions).where(account_sessions.c.id_hash == old_hash))
            conn.execute(
                insert(account_sessions),
                [
                    {
                        "id_hash": id_hash,
                        "account_id": account_id,
                        "created_at": now,
                        "last_seen": now,
                        "expires_at": now + ttl,
                    }
                ],
            )

    def session(self, id_hash: str, now: float) -> Account | None:
        """The account of a live session (not expired, account not deleted)."""
        with self.engine.begin() as conn:
            row = conn.execute(
                select(
                    accounts.c.id,
                    accounts.c.name,
                    accounts.c.created_at,
                    account_sessions.c.last_seen,
                )
                .join(accounts, accounts.c.id == account_sessions.c.account_id)
                .where(
                    account_sessions.c.id_hash == id_hash,
                    account_sessions.c.expires_at > now,
                    ~accounts.c.deleted,
                )
            ).first()
            if row is None:
                return None
            if now - row.last_seen > SEEN_EVERY:
                conn.execute(
                    update(account_sessions)
                    .where(account_sessions.c.id_hash == id_hash)
                    .values(last_seen=now)
                )
        return Account(row.id, row.name, row.created_at)

    def drop_session(self, id_hash: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(account_sessions).where(account_sessions.c.id_hash == id_hash))

    def drop_sessions(self, account_id: str, keep: str | None = None) -> None:
        with self.engine.begin() as conn:
            stmt = delete(account_sessions).where(account_sessions.c.account_id == account_id)
            if keep is not None:
                stmt = stmt.where(account_sessions.c.id_hash != keep)
            conn.execute(stmt)

    def claim(
        self, account_id: str, token_hashes: list[str], now: float
    ) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
        """Own the seats held by these tokens: (claimed, refused: another account's)."""
        with self.engine.begin() as conn:
            found = [
                (r.match_id, r.seat)
                for r in conn.execute(
                    select(seats.c.match_id, seats.c.seat).where(
                        seats.c.token_hash.in_(token_hashes)
                    )
                )
            ]
            return self._own(conn, account_id, found, now)

    def own(
        self, account_id: str, pairs: list[tuple[str, int]], now: float
    ) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
        with self.engine.begin() as conn:
            return self._own(conn, account_id, pairs, now)

    @staticmethod
    def _own(
        conn: Any, account_id: str, pairs: list[tuple[str, int]], now: float
    ) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
        if not pairs:
            return [], []
        owners = {
            (r.match_id, r.seat): r.account_id
            for r in conn.execute(
                select(account_seats).where(
                    tuple_(account_seats.c.match_id, account_seats.c.seat).in_(pairs)
                )
            )
        }
        claimed: list[tuple[str, int]] = []
        refused: list[tuple[str, int]] = []
        new_rows = []
        for pair in sorted(set(pairs)):
            owner = owners.get(pair)
            if owner is None:
                new_rows.append(
                    {"match_id": pair[0], "seat": pair[1], "account_id": account_id, "at": now}
                )
                claimed.append(pair)
            elif owner == account_id:
                claimed.append(pair)
            else:
                refused.append(pair)
        if new_rows:
            conn.execute(insert(account_seats), new_rows)
        return claimed, refused

    def owned(self, account_id: str) -> list[tuple[str, int]]:
        with self.engine.begin() as conn:
            return [
                (r.match_id, r.seat)
                for r in conn.execute(
                    select(account_seats.c.match_id, account_seats.c.seat)
                    .where(account_seats.c.account_id == account_id)
                    .order_by(account_seats.c.at, account_seats.c.match_id, account_seats.c.seat)
                )
            ]

    def seats_in(self, account_id: str, match_id: str) -> list[int]:
        """The seats of ``match_id`` the account owns."""
        with self.engine.connect() as conn:
            return [
                int(r.seat)
                for r in conn.execute(
                    select(account_seats.c.seat)
                    .where(
                        account_seats.c.account_id == account_id,
                        account_seats.c.match_id == match_id,
                    )
                    .order_by(account_seats.c.seat)
                )
            ]

    def delete(self, account_id: str) -> list[tuple[str, int]]:
        """Anonymise the account (its row, its seats' names) and delete its sessions; the
        seats it owned are returned (their games stay)."""
        with self.engine.begin() as conn:
            owned = [
                (r.match_id, r.seat)
                for r in conn.execute(
                    select(account_seats.c.match_id, account_seats.c.seat).where(
                        account_seats.c.account_id == account_id
                    )
                )
            ]
            for match_id, seat in owned:
                conn.execute(
                    update(seats)
                    .where(and_(seats.c.match_id == match_id, seats.c.seat == seat))
                    .values(name=ANONYMOUS)
                )
                # the name its chat messages were written under goes (history is read from here)
                conn.execute(
                    update(chat_messages)
                    .where(chat_messages.c.match_id == match_id, chat_messages.c.seat == seat)
                    .values(name=ANONYMOUS)
                )
                # the name a player joined under, in the match's stored events, goes too
                joined = conn.execute(
                    select(events.c.n, events.c.payload).where(
                        events.c.match_id == match_id, events.c.payload.contains("player_joined")
                    )
                )
                for n, payload in joined:
                    event = json.loads(payload)
                    if anonymise_join(event, seat):
                        conn.execute(
                            update(events)
                            .where(events.c.match_id == match_id, events.c.n == n)
                            .values(payload=json.dumps(event))
                        )
            conn.execute(
                delete(account_sessions).where(account_sessions.c.account_id == account_id)
            )
            conn.execute(
                update(accounts)
                .where(accounts.c.id == account_id)
                .values(
                    name=ANONYMOUS,
                    name_key=f"deleted:{account_id}",  # the name is free to take again
                    password_hash=None,
                    email=None,  # no more "your turn" mails (turn_based.py)
                    deleted=True,
                )
            )
        return owned


def anonymise_join(event: dict[str, Any], seat: int) -> bool:
    """Put a deleted account's name out of ``seat``'s ``player_joined`` event (in place);
    whether it was that event."""
    if event.get("type") != "player_joined" or event.get("seat") != seat:
        return False
    event["name"] = ANONYMOUS
    event["message"] = f"{ANONYMOUS} took seat {seat}"
    return True


class Buckets:
    """Token buckets by key, counted in Redis when the server processes share it."""

    def __init__(self, limits: ClientLimits, kind: str, rate: float, burst: float) -> None:
        self.limits = limits
        self.kind = kind
        self.rate = rate
        self.burst = burst
        self.local: OrderedDict[str, TokenBucket] = OrderedDict()

    async def take(self, key: str) -> float | None:
        """None if ``key`` may go on; else the seconds to wait."""
        shared = self.limits.shared
        if shared is not None:
            wait = await shared.take(self.kind, key, self.rate, self.burst)
            if wait is not False:  # False: Redis unreachable, count here
                return float(wait) if wait is not None else None
        bucket = self.local.get(key)
        if bucket is None:
            bucket = self.local[key] = TokenBucket(self.rate, self.burst)
            while len(self.local) > 50_000:
                self.local.popitem(last=False)
        else:
            self.local.move_to_end(key)
        return None if bucket.take() else bucket.retry_after()


class RateLimited(ApiError):
    """429 with the seconds to wait (the answer's ``Retry-After``)."""

    def __init__(self, wait: float, message: str) -> None:
        self.retry_after = max(1, round(wait))
        super().__init__(429, "rate_limited", message, params={"seconds": self.retry_after})


def _limited(wait: float, message: str) -> RateLimited:
    """``message`` (marked ``N_``, a whole sentence) names ``%(seconds)s`` to wait."""
    return RateLimited(wait, message)


class Accounts:
    """The accounts' logic: hashing, sessions, limits, claims (routes/accounts.py serves it)."""

    def __init__(
        self,
        settings: Settings,
        engine: Engine,
        limits: ClientLimits,
        svc: Callable[[], MatchService],
    ) -> None:
        self.settings = settings
        self.store = AccountStore(engine)
        self.limits = limits
        self.svc = svc
        self.hasher = PasswordHasher(
            time_cost=settings.argon2_time_cost,
            memory_cost=settings.argon2_memory_kib,
            parallelism=settings.argon2_parallelism,
        )
        self._argon = asyncio.Semaphore(max(1, settings.argon2_at_once))
        self.by_name = Buckets(
            limits, "signin_name", settings.signin_name_rate, settings.signin_name_burst
        )
        self.by_client = Buckets(
            limits, "signin_client", settings.signin_client_rate, settings.signin_client_burst
        )
        self.dummy_hash = ""
        self.csrf: URLSafeSerializer | None = None

    async def start(self) -> None:
        """After the migrations: the shared CSRF key, and the dummy hash unknown names cost."""
        secret = await asyncio.to_thread(self.store.secret, "csrf")
        self.csrf = URLSafeSerializer(secret, salt="sengoku-csrf")
        self.dummy_hash = await asyncio.to_thread(self.hasher.hash, secrets.token_urlsafe(16))

    # -- Argon2, off the event loop and a few at a time -----------------------------------
    async def hash_password(self, password: str) -> str:
        async with self._argon:
            return await asyncio.to_thread(self.hasher.hash, password)

    async def verify_password(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` matches ``stored``; with no stored hash (an unknown name) the
        same work is spent on the dummy hash and the answer is False."""
        target = stored or self.dummy_hash
        async with self._argon:
            try:
                await asyncio.to_thread(self.hasher.verify, target, password)
            except (VerifyMismatchError, VerificationError, InvalidHashError):
                return False
        return stored is not None

    # -- limits ----------------------------------------------------------------------------
    async def limit_client(self, request: Request) -> None:
        client = self.limits.client_of(request.scope)
        if self.limits.exempt(client):
            return
        wait = await self.by_client.take(client)
        if wait is not None:
            raise _limited(
                wait,
                N_("too many sign-in attempts from your address; try again in %(seconds)s s"),
            )

    async def limit_name(self, name: str) -> None:
        wait = await self.by_name.take(name_key(name))
        if wait is not None:
            raise _limited(
                wait, N_("too many sign-in attempts for this name; try again in %(seconds)s s")
            )

    # -- sessions --------------------------------------------------------------------------
    async def current(self, request: Request) -> Account | None:
        session_id = request.cookies.get(SESSION_COOKIE)
        if not session_id or len(session_id) > 100:
            return None
        return await asyncio.to_thread(
            self.store.session, hash_session(session_id), self.settings.now()
        )

    async def require(self, request: Request) -> Account:
        account = await self.current(request)
        if account is None:
            raise ApiError(401, "not_signed_in", N_("sign in first (no valid session cookie)"))
        return account

    async def sign_in(self, request: Request, name: str, password: str) -> tuple[Account, str]:
        """The account and a new session id, or 401 (the same for an unknown name)."""
        await self.limit_client(request)
        await self.limit_name(name)
        row = await asyncio.to_thread(self.store.by_name, name)
        stored = None if row is None else row["password_hash"]
        if not await self.verify_password(stored, password) or row is None:
            raise ApiError(401, "bad_credentials", N_("the name or the password is wrong"))
        if self.hasher.check_needs_rehash(row["password_hash"]):
            new_hash = await self.hash_password(password)
            await asyncio.to_thread(self.store.set_password, row["id"], new_hash)
        account = Account(row["id"], row["name"], row["created_at"])
        return account, await self.new_session(request, account)

    async def new_session(self, request: Request, account: Account) -> str:
        """A fresh session id (never the one the browser brought: no session fixation)."""
        session_id = secrets.token_urlsafe(32)
        old = request.cookies.get(SESSION_COOKIE)
        await asyncio.to_thread(
            self.store.new_session,
            hash_session(session_id),
            account.id,
            self.settings.now(),
            self.settings.session_ttl,
            hash_session(old) if old else None,
        )
        return session_id

    async def sign_up(self, request: Request, name: str, password: str) -> tuple[Account, str]:
        await self.limit_client(request)
        name = check_name(name)
        check_password(password)
        password_hash = await self.hash_password(password)
        account = Account(secrets.token_urlsafe(12), name, self.settings.now())
        try:
            await asyncio.to_thread(
                self.store.create, account.id, name, password_hash, account.created_at
            )
        except NameTaken:
            raise ApiError(409, "name_taken", N_("this name is taken; choose another")) from None
        return account, await self.new_session(request, account)

    async def check_own_password(self, request: Request, account: Account, password: str) -> str:
        """The account's stored hash if ``password`` is its password, else 401."""
        await self.limit_client(request)
        await self.limit_name(account.name)
        row = await asyncio.to_thread(self.store.by_id, account.id)
        stored = None if row is None else row["password_hash"]
        if not await self.verify_password(stored, password) or stored is None:
            raise ApiError(401, "bad_credentials", N_("the password is wrong"))
        return str(stored)

    async def change_password(self, request: Request, account: Account, old: str, new: str) -> None:
        check_password(new, "new_password")
        await self.check_own_password(request, account, old)
        new_hash = await self.hash_password(new)
        await asyncio.to_thread(self.store.set_password, account.id, new_hash)
        keep = request.cookies.get(SESSION_COOKIE)
        await asyncio.to_thread(
            self.store.drop_sessions, account.id, hash_session(keep) if keep else None
        )

    async def delete(self, request: Request, account: Account, password: str) -> int:
        await self.check_own_password(request, account, password)
        owned = await asyncio.to_thread(self.store.delete, account.id)
        live = self.svc().live
        for match_id, seat in owned:  # the matches in memory show the new name at once
            m = live.get(match_id)
            if m is not None and 0 <= seat < len(m.seats):
                m.seats[seat].name = ANONYMOUS
                for entry in m.events:
                    anonymise_join(entry["event"], seat)
        return len(owned)

    async def sign_out(self, request: Request) -> None:
        session_id = request.cookies.get(SESSION_COOKIE)
        if session_id:
            await asyncio.to_thread(self.store.drop_session, hash_session(session_id))

    # -- seats -----------------------------------------------------------------------------
    async def claim(self, account: Account, tokens: Iterable[str]) -> dict[str, Any]:
        hashes = sorted({hash_token(t) for t in tokens})
        claimed, refused = await asyncio.to_thread(
            self.store.claim, account.id, hashes, self.settings.now()
        )
        return {
            "claimed": [{"match_id": m, "seat": s} for m, s in claimed],
            "refused": [
                {"match_id": m, "seat": s, "reason": "another account owns this seat"}
                for m, s in refused
            ],
        }

    async def own_new_seats(
        self, request: Request, match_id: str, seat_numbers: Iterable[int]
    ) -> None:
        """A signed-in player created or joined a match: the seats they took are theirs."""
        account = await self.current(request)
        if account is None:
            return
        pairs = [(match_id, int(s)) for s in seat_numbers]
        await asyncio.to_thread(self.store.own, account.id, pairs, self.settings.now())

    async def owned(self, account: Account) -> list[tuple[str, int]]:
        return await asyncio.to_thread(self.store.owned, account.id)

    async def seats_in(self, account: Account, match_id: str) -> list[int]:
        """The seats of ``match_id`` the account owns (``POST .../return``)."""
        return await asyncio.to_thread(self.store.seats_in, account.id, match_id)

    async def export(self, account: Account) -> bytes:
        """A zip of the records of the account's finished games (records.py's JSON), and
        ``games.json`` listing every game it owns a seat in."""
        owned = await asyncio.to_thread(self.store.owned, account.id)
        seats_of: dict[str, list[int]] = {}
        for match_id, seat in owned:
            seats_of.setdefault(match_id, []).append(seat)
        service = self.svc()
        listing: list[dict[str, Any]] = []
        files: dict[str, bytes] = {}
        for match_id, mine in seats_of.items():
            try:
                live = await service.require(match_id)
                record = await service.record_of(live)
            except ApiError as exc:
                listing.append({"id": match_id, "seats": mine, "record": None, "why": exc.code})
                continue
            name = f"{match_id}.json"
            files[name] = json.dumps(record, ensure_ascii=False, indent=1).encode()
            listing.append({"id": match_id, "seats": mine, "record": name})

        def build() -> bytes:
            out = io.BytesIO()
            with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
                z.writestr(
                    "games.json",
                    json.dumps({"account": account.name, "games": listing}, ensure_ascii=False),
                )
                for name, data in files.items():
                    z.writestr(name, data)
            return out.getvalue()

        return await asyncio.to_thread(build)

    # -- cookies ---------------------------------------------------------------------------
    def secure(self, scope: Mapping[str, Any]) -> bool:
        return bool(self.settings.cookie_secure) or scope.get("scheme") in ("https", "wss")

    def session_cookie(self, request: Request, session_id: str | None) -> dict[str, Any]:
        """``Response.set_cookie`` arguments for the session (None: clear it)."""
        return {
            "key": SESSION_COOKIE,
            "value": session_id or "",
            "max_age": int(self.settings.session_ttl) if session_id else 0,
            "path": "/",
            "httponly": True,
            "samesite": "lax",
            "secure": self.secure(request.scope),
        }

    def new_csrf_token(self) -> str:
        assert self.csrf is not None, "Accounts.start() sets the CSRF key"
        return str(self.csrf.dumps(secrets.token_urlsafe(32)))

    def csrf_ok(self, cookie: str | None, header: str | None) -> bool:
        if not cookie or not header or self.csrf is None:
            return False
        if not secrets.compare_digest(cookie.encode(), header.encode()):
            return False
        try:
            self.csrf.loads(cookie)
        except BadSignature:
            return False
        return True

    def origin_ok(self, scope: Scope, headers: Headers) -> bool:
        """Whether the request comes from the server's own origin (``Origin``, else the
        origin of ``Referer``); a request naming neither is refused."""
        origin = headers.get("origin")
        if origin is None:
            referer = headers.get("referer")
            if not referer:
                return False
            parts = urlsplit(referer)
            origin = f"{parts.scheme}://{parts.netloc}"
        allowed = set(self.settings.public_origins)
        if not allowed:
            host = headers.get("host")
            if not host:
                return False
            scheme = "https" if scope.get("scheme") in ("https", "wss") else "http"
            allowed = {f"{scheme}://{host}"}
        return origin.rstrip("/").lower() in {a.rstrip("/").lower() for a in allowed}


class CsrfMiddleware:
    """Refuse a cross-site state-changing request that a session cookie would authenticate.

    Checked: every request with an unsafe method to :data:`SIGN_IN_PATHS`, and to
    :data:`COOKIE_PATHS` when it carries the session cookie. Such a request must name the
    server's own origin and echo the ``sengoku_csrf`` cookie in ``X-CSRF-Token``
    (double submit; the token is signed with the servers' shared key, so a cookie planted
    from a sibling domain does not pass). The CSRF cookie is handed out with the answers of
    ``/api/account`` routes (the page asks ``GET /api/account/me`` first)."""

    def __init__(self, app: ASGIApp, accounts: Accounts) -> None:
        self.app = app
        self.accounts = accounts

    async def _refuse(self, send: Send, code: str, message: str) -> None:
        body = json.dumps({"error": {"code": code, "message": message}}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 403,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    *security.SECURITY_HEADERS,
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))
        method = str(scope.get("method", "GET"))
        account_path = path.startswith("/api/account")
        checked = method not in SAFE_METHODS and COOKIE_PATHS.match(path) is not None
        if not (account_path or checked):  # the game API (the move's hot path among it)
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        cookies = _cookies(headers)
        if checked and (SIGN_IN_PATHS.match(path) or SESSION_COOKIE in cookies):
            if not self.accounts.origin_ok(scope, headers):
                await self._refuse(
                    send, "cross_origin", "this request must come from this server's own pages"
                )
                return
            if not self.accounts.csrf_ok(cookies.get(CSRF_COOKIE), headers.get(CSRF_HEADER)):
                await self._refuse(
                    send,
                    "csrf",
                    "the X-CSRF-Token header must echo the sengoku_csrf cookie",
                )
                return
        if not account_path or CSRF_COOKIE in cookies:
            await self.app(scope, receive, send)
            return
        cookie: http.cookies.SimpleCookie = http.cookies.SimpleCookie()
        cookie[CSRF_COOKIE] = self.accounts.new_csrf_token()
        cookie[CSRF_COOKIE]["path"] = "/"
        cookie[CSRF_COOKIE]["samesite"] = "Lax"
        if self.accounts.secure(scope):
            cookie[CSRF_COOKIE]["secure"] = True
        line = cookie.output(header="").strip().encode("latin-1")

        async def with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {
                    **message,
                    "headers": [*message.get("headers", []), (b"set-cookie", line)],
                }
            await send(message)

        await self.app(scope, receive, with_cookie)


def _cookies(headers: Headers) -> dict[str, str]:
    from starlette.requests import cookie_parser

    out: dict[str, str] = {}
    for value in headers.getlist("cookie"):
        out.update(cookie_parser(value))
    return out
