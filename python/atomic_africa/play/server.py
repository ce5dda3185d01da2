"""The play page and its JSON API, served with the standard library on 127.0.0.1 only.

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
  marked cross-site by ``Sec-Fetch-Site``. Bodies are limited to :data:`MAX_BODY` bytes.
- Answers are ``no-store``, ``nosniff``, ``Referrer-Policy: no-referrer`` (the token is in the URL),
  and pages carry a Content-Security-Policy that lets them load nothing and be framed by no one.

Routes (all need the token): ``GET /`` the page; ``GET /api/state?since=N`` the game
(:meth:`PlaySession.state <atomic_africa.play.session.PlaySession.state>`, log lines from N);
``POST /api/act`` ``{"action": id, "step": n}`` a decision (409 with ``{"error"}`` if refused, the
game unchanged); ``GET /replay.html`` the replay page of the finished game (``?download=1`` as a
file) and ``GET /game.json`` the saved game, both once the game is over.
"""
from __future__ import annotations

import json
import secrets
import sys
import threading
import urllib.parse
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from .._text import printable
from .page import render_page
from .session import PlayError, PlaySession

__all__ = ["PlayServer", "serve", "HOST", "MAX_BODY"]

#: The only address served.
HOST = "127.0.0.1"
#: Largest request body read (a decision is a few dozen bytes).
MAX_BODY = 64 * 1024

_CSP = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


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
    """

    daemon_threads = True          # a browser's open keep-alive connection does not hold up exit
    allow_reuse_address = False    # never share the port with another server

    def __init__(self, session: PlaySession, port: int = 0, token: str | None = None):
        if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
            raise ValueError(f"port: expected an integer 0..65535, got {printable(repr(port))[:40]}")
        self.session = session
        self.token = token or secrets.token_urlsafe(32)
        super().__init__((HOST, port), _Handler)
        self.port = self.server_address[1]
        self.hosts = {f"{HOST}:{self.port}", f"localhost:{self.port}"}
        self.origins = {f"http://{h}" for h in self.hosts}

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT/?token=...``."""
        return f"http://{HOST}:{self.port}/?token={self.token}"


class _Handler(BaseHTTPRequestHandler):
    server_version = "atomic-africa-play"
    sys_version = ""
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        pass   # quiet: the terminal shows the game's URL, not every request (which would show the token)

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
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, data):
        self._send(status, json.dumps(data, allow_nan=False).encode(), "application/json; charset=utf-8")

    def _error(self, status: int, message: str):
        self._json(status, {"error": message})

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
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
        given = self.headers.get("X-Play-Token") or (query.get("token") or [""])[0]
        if not secrets.compare_digest(given.encode(), srv.token.encode()):
            return HTTPStatus.FORBIDDEN, "missing or wrong token: open the URL the play command printed"
        return None

    def _route(self):
        parts = urllib.parse.urlsplit(self.path)
        return parts.path, urllib.parse.parse_qs(parts.query)

    # ------------------------------------------------------------------ methods
    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        refused = self._allowed()
        if refused:
            return self._error(*refused)
        path, query = self._route()
        session = self.server.session
        try:
            if path == "/":
                return self._send(200, render_page(session).encode(), "text/html; charset=utf-8")
            if path == "/api/state":
                since = query.get("since", ["0"])[0]
                if not (since.isascii() and since.isdigit()):
                    return self._error(400, f"since: expected a number of log lines, got {printable(since)[:20]!r}")
                return self._json(200, session.state(int(since)))
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
        path, _ = self._route()
        if path != "/api/act":
            self.close_connection = True
            return self._error(404, "no such page")
        if self.headers.get_content_type() != "application/json":
            self.close_connection = True
            return self._error(415, "expected Content-Type: application/json")
        length = self.headers.get("Content-Length")
        if length is None or not (length.isascii() and length.isdigit()):
            self.close_connection = True
            return self._error(411, "expected a Content-Length")
        if int(length) > MAX_BODY:
            self.close_connection = True
            return self._error(413, f"request body larger than {MAX_BODY} bytes")
        raw = self.rfile.read(int(length))
        try:
            body = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            return self._error(400, "expected a JSON object {\"action\": id, \"step\": n}")
        if not isinstance(body, dict) or "action" not in body:
            return self._error(400, "expected a JSON object {\"action\": id, \"step\": n}")
        session = self.server.session
        try:
            session.act(body["action"], body.get("step"))
        except PlayError as exc:
            return self._error(exc.status, str(exc))
        except OSError as exc:   # the save failed: the decision stands, the page says so
            return self._error(500, f"the game could not be saved: {exc}")
        since = body.get("since", 0)
        return self._json(200, session.state(since if isinstance(since, int) and not isinstance(since, bool) else 0))

    def _refuse_method(self):
        self.close_connection = True
        self._error(405, f"{self.command} is not served")

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_TRACE = do_CONNECT = _refuse_method


def serve(session: PlaySession, port: int = 0, open_browser: bool = True, out=None) -> int:
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
        with session.lock:   # a decision being applied in a request thread finishes first
            session.save()
    where = f"; the game is saved in {printable(session.save_path)}" if session.save_path else ""
    resume = (f" (resume: atomic-africa play --load {printable(session.save_path)})"
              if session.save_path and not session.game.is_over else "")
    print(f"Stopped{where}{resume}.", file=out, flush=True)
    return 0
