"""The play page and its JSON API, served with the standard library on 127.0.0.1 only.

Why the standard library and not uvicorn/starlette or aiohttp: the server answers one local page,
a few requests a second, and its life is tied to the command's (``serve_forever`` in the main
thread, Ctrl-C caught there so the game is saved, the handler installed by
``atomic_africa.cli.common.ctrl_c_stops``). An ASGI server brings its own event loop and
signal handling, which would have to be made to agree with that, and a new dependency for every
install. ``http.server`` is kept, and its gaps for a server anyone on the machine can reach are
closed here: every request is read against a deadline (:data:`READ_TIMEOUT` from its first byte,
:data:`IDLE_TIMEOUT` for a connection waiting for one), the request head is capped at
:data:`MAX_HEAD` bytes, the body at :data:`MAX_BODY`, the JSON nesting at :data:`MAX_JSON_DEPTH`;
a malformed request gets a 4xx answer (400 unless a more precise code applies: 405, 411, 413,
414, 415, 431) and the connection is closed; and nothing a request does prints a traceback.

Security: the game is served to this machine and to the page that holds its token, nothing else.

- The server binds 127.0.0.1 (never another interface); the port is free by default (``0``).
- Every request carries the random token (``secrets.token_urlsafe``) of the URL printed at start,
  as the ``token`` query parameter or the ``X-Play-Token`` header; it is compared in constant time.
  Without it the answer is 403 and says nothing of the game.
- The ``Host`` header must name this server (``127.0.0.1:PORT`` or ``localhost:PORT``): a page of
  another site that rebinds its DNS name to 127.0.0.1 is refused.
- A request that carries an ``Origin`` must come from this server's own origin; a POST must also be
  ``Content-Type: application/json`` (a cross-site form cannot send that without a CORS preflight,
  which is never granted: no ``Access-Control-*`` header is ever sent, OPTIONS is refused) and not be
  marked cross-site by ``Sec-Fetch-Site``.
- Answers are ``no-store``, ``nosniff``, ``Referrer-Policy: no-referrer`` (the token is in the URL),
  and pages carry a Content-Security-Policy that lets them load nothing and be framed by no one.

Routes (all need the token; every POST answers the game's new state, or 400/409 with
``{"error"}`` and nothing changed):

- ``GET /`` the page; ``GET /api/state?since=N`` the game
  (:meth:`PlaySession.state <atomic_africa.play.session.PlaySession.state>`, log lines from N);
- ``POST /api/act`` ``{"action": id, "step": n, "game": g}`` a decision (``game`` optional);
- ``POST /api/undo`` ``{"step": n, "game": g}`` takes the person's last decision back
  (:meth:`~atomic_africa.play.session.PlaySession.undo`);
- ``POST /api/handover`` ``{"player": p, "step": n, "game": g}`` the person of side ``p`` takes the
  screen (two people at one screen);
- ``GET /api/measure?from=X,Y&to=X,Y`` the range band and line of sight between two points of the
  table (:meth:`~atomic_africa.play.session.PlaySession.measure`);
- ``POST /api/new`` ``{"scenario": name, "side": 0|1, "level": easy|normal|hard|expert|human, "seed": n,
  "game": g}`` a new game of a packaged scenario (or ``"current"``: this game's), ``seed``
  optional; ``POST /api/load`` ``{"saved": text, "side": ..., "level": ..., "game": g}`` a saved
  game (``Game.to_json``'s text, at most :data:`MAX_LOAD_BODY` bytes). Either is saved to a new file
  beside the current save file (:func:`~atomic_africa.play.session.next_save_path`), never over
  one; ``game`` (the current game's number, the session's ``game_id``) is required, so a stale
  tab cannot replace a game it has not seen;
- ``GET /replay.html`` the replay page of the finished game (``?download=1`` as a file) and
  ``GET /game.json`` the saved game, both once the game is over.
"""
from __future__ import annotations

import errno
import http.client
import io
import json
import re
import secrets
import socket
import sys
import threading
import time
import urllib.parse
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from .._atomic_write import replaced_atomically
from .._text import printable
from ..game import Game, packaged_scenarios
from ..game.saved import SavedGameError
from .page import render_page
from .session import LEVELS, PlayError, PlaySession, next_save_path

__all__ = ["PlayServer", "serve", "HOST", "MAX_BODY", "MAX_LOAD_BODY", "MAX_HEAD", "MAX_JSON_DEPTH", "READ_TIMEOUT",
           "IDLE_TIMEOUT", "WRITE_TIMEOUT", "LINGER"]

#: The only address served.
HOST = "127.0.0.1"
#: Largest request body read (a decision is a few dozen bytes).
MAX_BODY = 64 * 1024
#: Largest body of ``POST /api/load``: a saved game sent from the page (a finished game of the
#: packaged scenarios is about 100 KB).
MAX_LOAD_BODY = 8 * 1024 * 1024
#: Largest request head (request line and headers): a browser's is well under 8 KiB, but cookies
#: that other local servers set for 127.0.0.1 or localhost are sent here too.
MAX_HEAD = 32 * 1024
#: Deepest JSON nesting of a body: a decision is one flat object; the limit keeps the parser from
#: recursing as deep as a request asks.
MAX_JSON_DEPTH = 8
#: Seconds from a request's first byte to its last (head and body): a request sent in dribs never
#: holds a thread longer.
READ_TIMEOUT = 10.0
#: Seconds a connection may wait for its next request (kept-alive, or opened and never used).
IDLE_TIMEOUT = 30.0
#: Seconds to hand over one answer to a client that does not read it.
WRITE_TIMEOUT = 30.0
#: After an answer on a connection being closed, its unread input (a refused body, say) is read
#: and dropped for at most this many seconds: closing a socket with unread input resets the
#: connection, and the client may then lose the answer (a 413, say).
LINGER = 1.0

_DIGITS = re.compile(r"[0-9]{1,10}")   # not str.isdigit: it takes "²" and "١", which int() then refuses
_POINT = re.compile(r"(-?[0-9]{1,6}(?:\.[0-9]{1,6})?),(-?[0-9]{1,6}(?:\.[0-9]{1,6})?)")
# Every POST route and the largest body it reads.
_POSTS = {"/api/act": MAX_BODY, "/api/undo": MAX_BODY, "/api/handover": MAX_BODY, "/api/new": MAX_BODY,
          "/api/load": MAX_LOAD_BODY}
# What the page may send as the AI level of a new or loaded game ("human": two people).
_LEVELS = tuple(LEVELS) + ("human",)
_HTTP1 = re.compile(rb"HTTP/1\.[01]")
_JSON_TOKEN = re.compile(rb'\\.|["\[\]{}]', re.DOTALL)

_CSP = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


# The body each POST route expects, as its 400 says it, and the fields it requires.
_SHAPES = {"/api/act": '{"action": id, "step": n}', "/api/undo": '{"step": n, "game": g}',
           "/api/handover": '{"player": p, "step": n, "game": g}',
           "/api/new": '{"scenario": name, "side": 0|1, "level": easy|normal|hard|expert|human, "game": g}',
           "/api/load": '{"saved": text, "side": 0|1, "level": easy|normal|hard|expert|human, "game": g}'}
_REQUIRED = {"/api/act": ("action",), "/api/undo": ("step", "game"), "/api/handover": ("player", "step", "game"),
             "/api/new": ("game",), "/api/load": ("saved", "game")}


def _nested_deeper_than(raw: bytes, limit: int) -> bool:
    """Whether arrays and objects in ``raw`` nest deeper than ``limit``, brackets in strings not
    counted. One pass over the tokens: a regular expression for whole strings backtracks
    quadratically on an unterminated one full of escaped quotes. A backslash outside a string is
    skipped with the next byte; the JSON parser stops there, so it never nests deeper than counted."""
    if raw.count(b"[") + raw.count(b"{") <= limit:   # a decision's body: no need to look further
        return False
    depth, in_string = 0, False
    for m in _JSON_TOKEN.finditer(raw):
        token = m.group()
        if token == b'"':
            in_string = not in_string
        elif in_string or len(token) == 2:
            continue
        elif token in b"[{":
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


class _HeadTooLarge(http.client.HTTPException):
    pass


class _DeadlineReader(io.RawIOBase):
    """The connection's bytes, each read given only the time left to ``deadline`` (a monotonic time):
    a per-read timeout alone lets a client that sends a byte now and then hold a thread for ever."""

    def __init__(self, sock: socket.socket, write_timeout: float):
        super().__init__()
        self._sock = sock
        self._write_timeout = write_timeout
        self.deadline = time.monotonic()

    def readable(self):
        return True

    def readinto(self, buffer):
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request took too long to arrive")
        self._sock.settimeout(left)
        try:
            return self._sock.recv_into(buffer)
        finally:
            self._sock.settimeout(self._write_timeout)   # the answer is sent under its own timeout


class _HeadLimit:
    """The request's stream for the header parser, refusing to read past the head's byte budget
    (the parser itself caps a line at 64 KiB and the headers at 100, which is 6 MiB in all)."""

    def __init__(self, rfile, budget: int):
        self._rfile = rfile
        self.left = budget

    def readline(self, limit=-1):
        want = self.left + 1 if limit is None or limit < 0 else min(limit, self.left + 1)
        line = self._rfile.readline(want)
        self.left -= len(line)
        if self.left < 0:
            raise _HeadTooLarge(f"request head larger than {MAX_HEAD} bytes")
        return line


class _SocketWriter(io.BufferedIOBase):
    """Whole writes to the socket (``sendall``), as ``socketserver`` does for unbuffered handlers."""

    def __init__(self, sock: socket.socket):
        self._sock = sock

    def writable(self):
        return True

    def write(self, b):
        self._sock.sendall(b)
        return len(b)


class PlayServer(ThreadingHTTPServer):
    """An HTTP server for one :class:`~atomic_africa.play.session.PlaySession` on 127.0.0.1.

    Parameters
    ----------
    session : PlaySession
    port : int
        0..65535; 0 picks a free port.
    token : str, optional
        The secret every request must carry (default: ``secrets.token_urlsafe(32)``).

    Attributes
    ----------
    url : str
        The page's address, token included.
    read_timeout, idle_timeout, write_timeout : float
        Seconds, by default :data:`READ_TIMEOUT`, :data:`IDLE_TIMEOUT` and :data:`WRITE_TIMEOUT`;
        a connection that overruns one is closed without an answer.
    """

    daemon_threads = True          # a browser's open keep-alive connection does not hold up exit
    allow_reuse_address = False    # never share the port with another server
    read_timeout = READ_TIMEOUT
    idle_timeout = IDLE_TIMEOUT
    write_timeout = WRITE_TIMEOUT

    def __init__(self, session: PlaySession, port: int = 0, token: str | None = None):
        if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
            raise ValueError(f"port: expected an integer 0..65535, got {printable(repr(port))[:40]}")
        self.session = session
        # Held while a new or loaded game replaces the session (a request takes the session once,
        # and plays on with it).
        self.swap_lock = threading.Lock()
        self.token = token or secrets.token_urlsafe(32)
        super().__init__((HOST, port), _Handler)
        self.port = self.server_address[1]
        self.hosts = {f"{HOST}:{self.port}", f"localhost:{self.port}"}
        self.origins = {f"http://{h}" for h in self.hosts}

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT/?token=...``."""
        return f"http://{HOST}:{self.port}/?token={self.token}"

    def replace_session(self, body: dict, saved=None) -> PlaySession:
        """A new game (``saved`` None) or a saved one, as ``POST /api/new`` or ``/api/load`` asks,
        in place of the current one; saved to :func:`~atomic_africa.play.session.next_save_path`.

        Parameters
        ----------
        body : dict
            ``game`` (the current game's number, required), ``side`` (0 or 1: the person's side),
            ``level`` (``easy``, ``normal``, ``hard``, ``expert``, or ``human``: two people); for a new game
            ``scenario`` (a packaged scenario's name, or ``"current"``) and ``seed`` (optional, a
            whole number; default: a random one).
        saved : str, optional
            A saved game's text (``Game.to_json``).

        Returns
        -------
        PlaySession
            The new session (also the server's ``session``).

        Raises
        ------
        PlayError
            400 naming the field on a bad value; 409 if ``game`` is not the current game's.
        """
        with self.swap_lock:
            old = self.session
            game_id = body.get("game")
            if isinstance(game_id, bool) or not isinstance(game_id, int):
                raise PlayError(f"game: expected the current game's number, got {printable(repr(game_id))[:40]}", 400)
            if game_id != old.game_id:
                raise PlayError(f"game: {game_id} is not the game on this page any more (reload to see it)")
            side, level = body.get("side", 0), body.get("level", "normal")
            if isinstance(side, bool) or not isinstance(side, int) or side not in (0, 1):
                raise PlayError(f"side: expected 0 or 1 (the scenario's first or second side), got "
                                f"{printable(repr(side))[:40]}", 400)
            if not isinstance(level, str) or level not in _LEVELS:
                raise PlayError(f"level: expected one of {', '.join(_LEVELS)}, got {printable(repr(level))[:40]}", 400)
            players = ["human", "human"]
            players[1 - side] = level
            if saved is not None:
                if not isinstance(saved, str):
                    raise PlayError(f"saved: expected a saved game's text, got {type(saved).__name__}", 400)
                try:
                    game = Game.from_json(saved)
                except (SavedGameError, ValueError, TypeError, RecursionError) as exc:
                    raise PlayError(f"saved: not a saved game ({printable(str(exc))[:300]})", 400) from None
            else:
                name = body.get("scenario", "current")
                allowed = ("current",) + packaged_scenarios()
                if not isinstance(name, str) or name not in allowed:
                    raise PlayError(f"scenario: expected one of {', '.join(allowed)}, got "
                                    f"{printable(repr(name))[:60]}", 400)
                seed = body.get("seed")
                if seed is None:
                    seed = secrets.randbelow(2 ** 31)
                elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 10 ** 18:
                    raise PlayError(f"seed: expected a whole number 0..999999999999999999, got "
                                    f"{printable(repr(seed))[:40]}", 400)
                scenario = old.scenario if name == "current" else name
                game = Game(scenario, seed, old.game.rules)
            try:
                session = PlaySession(game, players, next_save_path(old.save_path), old.verbose, old.search,
                                      old.learned)
            except ValueError as exc:   # the expert level's network missing or unreadable: say which
                raise PlayError(f"level: {level} cannot play here ({printable(str(exc))[:300]})", 409) from None
            session.save()
            session.game_id = old.game_id + 1
            self.session = session
            return session

    def handle_error(self, request, client_address):
        # The standard library prints a traceback here, for anyone on the machine to trigger. A
        # client that hung up or timed out is no news; anything else is a bug, worth one line.
        # EBADF is a connection the server closed under its thread: socketserver does so when Ctrl-C
        # lands while it hands a just-accepted connection to a new thread.
        exc = sys.exc_info()[1]
        if isinstance(exc, (ConnectionError, TimeoutError)) or getattr(exc, "errno", None) == errno.EBADF:
            return
        print(f"atomic-africa play: a request failed: {type(exc).__name__}: {printable(str(exc))[:200]}",
              file=sys.stderr, flush=True)


class _Handler(BaseHTTPRequestHandler):
    server_version = "atomic-africa-play"
    sys_version = ""
    protocol_version = "HTTP/1.1"
    # Errors found before the request line is parsed are answered with a status line and headers
    # (the standard library's default, HTTP/0.9, would send a bare body).
    default_request_version = "HTTP/1.0"

    def log_message(self, format, *args):
        pass   # quiet: the terminal shows the game's URL, not every request (which would show the token)

    # ------------------------------------------------------------------ reading
    def setup(self):
        # StreamRequestHandler.setup, with a reader that enforces the request deadline.
        self.connection = self.request
        self.connection.settimeout(self.server.write_timeout)
        self._reader = _DeadlineReader(self.connection, self.server.write_timeout)
        self.rfile = io.BufferedReader(self._reader)
        self.wfile = _SocketWriter(self.connection)
        self.answered = False

    def handle(self):
        super().handle()
        if self.answered:
            self._linger()

    def _linger(self):
        try:
            self.connection.shutdown(socket.SHUT_WR)
            end = time.monotonic() + LINGER
            while (left := end - time.monotonic()) > 0:
                self.connection.settimeout(left)
                if not self.connection.recv(65536):
                    break
        except OSError:
            pass

    def handle_one_request(self):
        # BaseHTTPRequestHandler.handle_one_request, with the idle and read deadlines and the head
        # cap; the connection stays open only after a whole request has been read and answered.
        self.close_connection = True
        self.raw_requestline, self.requestline = b"", ""
        self.command, self.request_version = None, self.default_request_version
        try:
            self._reader.deadline = time.monotonic() + self.server.idle_timeout
            if not self.rfile.peek(1):
                self.answered = False   # the client has gone: nothing to linger for
                return
            self._reader.deadline = time.monotonic() + self.server.read_timeout
            self.raw_requestline = self.rfile.readline(MAX_HEAD + 1)
            if len(self.raw_requestline) > MAX_HEAD:
                return self.send_error(HTTPStatus.REQUEST_URI_TOO_LONG, f"request line longer than {MAX_HEAD} bytes")
            if not self.parse_request():
                return
            getattr(self, "do_" + self.command, self._refuse_method)()
            self.wfile.flush()
        except (TimeoutError, ConnectionError):
            self.close_connection, self.answered = True, False

    def parse_request(self):
        # BaseHTTPRequestHandler.parse_request, and what it lets through refused: the HTTP/0.9 form,
        # a head over MAX_HEAD, a bad or repeated Content-Length, a chunked body (smuggling's way in).
        # Its own 505 for another HTTP version is a 400 here: every malformed request gets a 4xx.
        words = self.raw_requestline.split()
        if len(words) != 3 or not _HTTP1.fullmatch(words[2]):
            return self.send_error(HTTPStatus.BAD_REQUEST, "expected METHOD /path HTTP/1.1") or False
        rfile = self.rfile
        self.rfile = _HeadLimit(rfile, MAX_HEAD - len(self.raw_requestline))
        try:
            if not super().parse_request():
                return False
        finally:
            self.rfile = rfile
        if not self.path.startswith("/"):
            return self.send_error(HTTPStatus.BAD_REQUEST, "expected a path starting with /") or False
        try:
            parts = urllib.parse.urlsplit(self.path)
            self.route = parts.path, urllib.parse.parse_qs(parts.query)
        except ValueError:
            return self.send_error(HTTPStatus.BAD_REQUEST, "malformed path") or False
        if len(self.headers.get_all("Host", ())) > 1:
            return self.send_error(HTTPStatus.BAD_REQUEST, "more than one Host header") or False
        if "Transfer-Encoding" in self.headers:
            return self.send_error(HTTPStatus.BAD_REQUEST, "no Transfer-Encoding is accepted") or False
        lengths = self.headers.get_all("Content-Length", ())
        if len(lengths) > 1 or lengths and not _DIGITS.fullmatch(lengths[0].strip(" \t")):
            return self.send_error(HTTPStatus.BAD_REQUEST, "malformed Content-Length") or False
        self.body_length = int(lengths[0]) if lengths else None
        if self.body_length and self.command != "POST":
            self.close_connection = True   # a body nobody reads would be read as the next request
        return True

    # ------------------------------------------------------------------ answers
    def _send(self, status: int, body: bytes, content_type: str, extra=None):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("X-Frame-Options", "DENY")
        self.send_header("Cross-Origin-Resource-Policy", "same-origin")
        if content_type.startswith("text/html"):
            self.send_header("Content-Security-Policy", _CSP)
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        self.answered = True
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, data):
        self._send(status, json.dumps(data, allow_nan=False).encode(), "application/json; charset=utf-8")

    def _error(self, status: int, message: str):
        self._json(status, {"error": message})

    def send_error(self, code, message=None, explain=None):
        # The standard library's own refusals (bad request line, header lines too long, too many
        # headers) answered like ours: JSON, the same headers, and the connection closed.
        self.close_connection = True
        self._error(code, explain or message or HTTPStatus(code).phrase)

    # ------------------------------------------------------------------ checks
    def _allowed(self):
        """None if the request may be served, else (status, message)."""
        srv = self.server
        host = self.headers.get("Host", "")
        if host not in srv.hosts:
            return HTTPStatus.FORBIDDEN, "wrong Host: this server answers only to its own address"
        origin = self.headers.get("Origin")
        if origin is not None and origin not in srv.origins:
            return HTTPStatus.FORBIDDEN, "cross-origin request refused"
        if self.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
            return HTTPStatus.FORBIDDEN, "cross-site request refused"
        query = self.route[1]
        given = self.headers.get("X-Play-Token") or (query.get("token") or [""])[0]
        if not secrets.compare_digest(given.encode(), srv.token.encode()):
            return HTTPStatus.FORBIDDEN, "missing or wrong token: open the URL the play command printed"
        return None

    # ------------------------------------------------------------------ methods
    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        refused = self._allowed()
        if refused:
            return self._error(*refused)
        path, query = self.route
        session = self.server.session
        try:
            if path == "/":
                return self._send(200, render_page(session).encode(), "text/html; charset=utf-8")
            if path == "/api/state":
                since = query.get("since", ["0"])[0]
                if not _DIGITS.fullmatch(since):
                    return self._error(400, f"since: expected a number of log lines, got {printable(since)[:20]!r}")
                return self._json(200, session.state(int(since)))
            if path == "/api/measure":
                points = []
                for name in ("from", "to"):
                    m = _POINT.fullmatch(query.get(name, [""])[0])
                    if m is None:
                        return self._error(400, f"{name}: expected a point x,y in cm (e.g. {name}=12.5,30), got "
                                                f"{printable(query.get(name, [''])[0])[:40]!r}")
                    points.append([float(m.group(1)), float(m.group(2))])
                try:
                    return self._json(200, session.measure(*points))
                except PlayError as exc:
                    return self._error(exc.status, str(exc))
            if path in ("/replay.html", "/game.json"):
                if not session.game.is_over:
                    return self._error(409, "the game is not over yet")
                download = query.get("download", ["0"])[0] == "1"
                if path == "/game.json":
                    with session.lock:
                        body = session.game.to_json().encode()
                    return self._send(200, body, "application/json; charset=utf-8",
                                      {"Content-Disposition": 'attachment; filename="atomic-africa-game.json"'})
                extra = ({"Content-Disposition": 'attachment; filename="atomic-africa-replay.html"'}
                         if download else None)
                return self._send(200, session.replay_page().encode(), "text/html; charset=utf-8", extra)
        except Exception as exc:   # a bug: one line in the page, never a traceback on the terminal
            return self._error(500, f"internal error {type(exc).__name__}: {exc}")
        return self._error(404, "no such page")

    def do_POST(self):
        refused = self._allowed()
        if refused:
            self.close_connection = True
            return self._error(*refused)
        path, _ = self.route
        cap = _POSTS.get(path)
        if cap is None:
            self.close_connection = True
            return self._error(404, "no such page")
        if self.headers.get_content_type() != "application/json":
            self.close_connection = True
            return self._error(415, "expected Content-Type: application/json")
        length = self.body_length
        if length is None:
            self.close_connection = True
            return self._error(411, "expected a Content-Length")
        if length > cap:
            self.close_connection = True
            return self._error(413, f"request body larger than {cap} bytes")
        raw = self.rfile.read(length)
        if len(raw) != length:
            self.close_connection = True
            return self._error(400, f"the body ended after {len(raw)} of its {length} bytes")
        if _nested_deeper_than(raw, MAX_JSON_DEPTH):
            return self._error(400, f"JSON nested deeper than {MAX_JSON_DEPTH}")
        shape = _SHAPES[path]
        try:
            body = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            return self._error(400, f"expected a JSON object {shape}")
        if not isinstance(body, dict) or any(k not in body for k in _REQUIRED[path]):
            return self._error(400, f"expected a JSON object {shape}")
        try:
            session = self._post(path, body)
        except PlayError as exc:
            return self._error(exc.status, str(exc))
        except OSError as exc:   # the save failed: the decision stands, the page says so
            return self._error(500, f"the game could not be saved: {exc}")
        except Exception as exc:   # a bug: one line in the page, never a traceback on the terminal
            return self._error(500, f"internal error {type(exc).__name__}: {exc}")
        since = body.get("since", 0)
        return self._json(200, session.state(since if isinstance(since, int) and not isinstance(since, bool) else 0))

    def _post(self, path: str, body: dict) -> PlaySession:
        """Do what a well-formed POST asks; returns the session to answer with."""
        if path in ("/api/new", "/api/load"):
            return self.server.replace_session(body, body.get("saved") if path == "/api/load" else None)
        session = self.server.session
        game_id = body.get("game", session.game_id if path == "/api/act" else None)
        if isinstance(game_id, bool) or not isinstance(game_id, int):
            raise PlayError(f"game: expected the current game's number, got {printable(repr(game_id))[:40]}", 400)
        with session.lock:
            if game_id != session.game_id:
                raise PlayError(f"game: {game_id} is not the game on this page any more (reload to see it)")
            if path == "/api/handover":
                session.take_screen(body["player"], body.get("step"))
                return session
            if session.handover_to() is not None:
                raise PlayError(f"the screen is being handed to {session.label(session.handover_to())}: "
                                "they take it first")
            if path == "/api/undo":
                session.undo(body["step"])
            else:
                session.act(body["action"], body.get("step"))
        return session

    def _refuse_method(self):
        self.close_connection = True
        self._send(405, json.dumps({"error": f"{printable(self.command)[:20]} is not served"}).encode(),
                   "application/json; charset=utf-8", {"Allow": "GET, HEAD, POST"})

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_TRACE = do_CONNECT = _refuse_method


def serve(session: PlaySession, port: int = 0, open_browser: bool = True, out=None, replay=None) -> int:
    """Serve ``session`` until Ctrl-C, then save the game and stop.

    Parameters
    ----------
    session : PlaySession
    port : int
        0..65535; 0 picks a free port.
    open_browser : bool
        Open the page in the system's web browser.
    out : file, optional
        Where the URL and the closing lines are printed (default ``sys.stdout``).
    replay : str or PathLike, optional
        Where the replay page of the game on the page at the end is written, if it is over.

    Returns
    -------
    int
        0.
    """
    out = sys.stdout if out is None else out
    server = PlayServer(session, port)
    print(f"Atomic Africa: {printable(session.label(0))} against {printable(session.label(1))}; open\n"
          f"  {server.url}\nin a web browser on this machine (Ctrl-C to stop).", file=out, flush=True)
    if open_browser:
        import webbrowser
        threading.Thread(target=webbrowser.open, args=(server.url,), daemon=True).start()
    try:
        server.serve_forever(poll_interval=0.25)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        with server.swap_lock:   # a new game being started in a request thread is taken first
            session = server.session
        with session.lock:   # a decision being applied in a request thread finishes first
            session.save()
    where = f"; the game is saved in {printable(session.save_path)}" if session.save_path else ""
    resume = (f" (resume: atomic-africa play --load {printable(session.save_path)})"
              if session.save_path and not session.game.is_over else "")
    print(f"Stopped{where}{resume}.", file=out, flush=True)
    if replay is not None and session.game.is_over:
        with replaced_atomically(replay) as tmp, open(tmp, "w", encoding="utf-8") as fh:
            fh.write(session.replay_page())
        print(f"Replay page written to {printable(replay)}", file=out, flush=True)
    return 0
