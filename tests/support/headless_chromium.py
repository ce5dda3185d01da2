"""Drive the system's Chromium headless over the DevTools protocol on a pipe (``--remote-debugging-pipe``).

No Python package is needed: Chromium reads protocol commands as NUL-terminated JSON on its file
descriptor 3 and writes replies and events on 4. The browser is always ``/usr/bin/chromium`` (Debian's
``chromium`` package), never one found on PATH or downloaded.
"""
from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
INSTALL_HINT = ("the browser tests need Chromium at /usr/bin/chromium: install it with "
                "'apt-get update && apt-get install -y chromium' (Debian/Ubuntu; .ci/run does this)")


class BrowserError(RuntimeError):
    """The browser did not answer, or answered a command with an error."""


class Chromium:
    """A headless Chromium with one page; use as a context manager.

    ``events`` keeps every protocol event received (``{"method", "params"}``), so a test can look for
    console errors (``Runtime.consoleAPICalled``, ``Runtime.exceptionThrown``, ``Log.entryAdded``)
    and network requests (``Network.requestWillBeSent``).
    """

    def __init__(self, width: int = 1600, height: int = 1100, timeout: float = 60.0):
        self.width, self.height, self.timeout = width, height, timeout
        self.events, self._buf, self._id = [], b"", 0

    def __enter__(self):
        self._profile = tempfile.mkdtemp(prefix="aa-chromium-")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        # Copies above 4, so that putting them on 3 and 4 in the child clobbers neither.
        high = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (to_browser_r, from_browser_w)]
        for fd in (to_browser_r, from_browser_w):
            os.close(fd)
        to_browser_r, from_browser_w = high

        def fds():  # in the child: the protocol pipe on descriptors 3 (commands) and 4 (replies)
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)

        self.proc = subprocess.Popen(
            [str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             f"--user-data-dir={self._profile}", "--no-first-run", "--no-default-browser-check",
             "--disable-extensions", "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--mute-audio", "--hide-scrollbars", f"--window-size={self.width},{self.height}",
             "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            preexec_fn=fds, close_fds=False)
        os.close(to_browser_r)
        os.close(from_browser_w)
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable")
        self.call("Emulation.setDeviceMetricsOverride", width=self.width, height=self.height,
                  deviceScaleFactor=1, mobile=False)
        return self

    def __exit__(self, *exc):
        try:
            self.send("Browser.close")
        except (BrowserError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._to_browser, self._from_browser):
            os.close(fd)
        self.proc.stderr.close()
        shutil.rmtree(self._profile, ignore_errors=True)

    # -- protocol ------------------------------------------------------------------------------
    def _read(self, deadline):
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._from_browser], [], [], left)[0]:
                raise BrowserError("Chromium did not answer in time")
            chunk = os.read(self._from_browser, 1 << 20)
            if not chunk:
                raise BrowserError(f"Chromium closed the pipe (exit {self.proc.poll()}): "
                                   f"{self.proc.stderr.read().decode(errors='replace')[-2000:]}")
            self._buf += chunk
        msg, _, self._buf = self._buf.partition(b"\0")
        return json.loads(msg)

    def send(self, method, session=None, **params):
        """Send one command (to the browser, or to ``session``) and return its result."""
        self._id += 1
        msg = {"id": self._id, "method": method, "params": params}
        if session:
            msg["sessionId"] = session
        os.write(self._to_browser, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def call(self, method, **params):
        """A command to the page."""
        return self.send(method, self.session, **params)

    def wait_event(self, method, timeout=None):
        """Wait for the next event ``method`` not seen yet (returns its params)."""
        deadline = time.monotonic() + (timeout or self.timeout)
        seen = len(self.events)
        while True:
            for e in self.events[seen:]:
                if e["method"] == method:
                    return e["params"]
            seen = len(self.events)
            reply = self._read(deadline)
            if "method" in reply:
                self.events.append(reply)

    # -- page ----------------------------------------------------------------------------------
    def open(self, url):
        """Navigate and wait for the load event."""
        self.call("Page.navigate", url=url)
        self.wait_event("Page.loadEventFired")

    def eval(self, expression):
        """The value of a JavaScript expression (promises awaited); raises on a script error."""
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in r:
            raise BrowserError(f"{expression}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def click(self, selector):
        """A real mouse click (pressed and released) at the middle of the element."""
        x, y = self.eval(f"(() => {{ const r = document.querySelector({json.dumps(selector)})"
                         f".getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()")
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    def mouse(self, kind, x, y, buttons=0):
        """One mouse event at window pixel (x, y): ``kind`` is ``mousePressed``, ``mouseMoved`` or
        ``mouseReleased``; ``buttons`` 1 while the left button is held."""
        button = "left" if kind != "mouseMoved" or buttons else "none"
        self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button=button, buttons=buttons,
                  clickCount=1 if kind != "mouseMoved" else 0)

    def click_at(self, x, y):
        """A real mouse click at window pixel (x, y)."""
        self.mouse("mousePressed", x, y, 1)
        self.mouse("mouseReleased", x, y, 0)

    def drag(self, start, end, steps=8):
        """Press the left button at ``start``, move to ``end`` in ``steps`` moves, release there."""
        self.mouse("mouseMoved", *start)
        self.mouse("mousePressed", *start, buttons=1)
        for k in range(1, steps + 1):
            self.mouse("mouseMoved", start[0] + (end[0] - start[0]) * k / steps,
                       start[1] + (end[1] - start[1]) * k / steps, buttons=1)
        self.mouse("mouseReleased", *end)

    def type_text(self, text):
        """Type ``text`` into the element with the focus (as a keyboard's input would)."""
        self.call("Input.insertText", text=text)

    def set_files(self, selector, paths):
        """Choose ``paths`` in the file input ``selector``, as the file chooser a click opens would."""
        root = self.call("DOM.getDocument")["root"]["nodeId"]
        node = self.call("DOM.querySelector", nodeId=root, selector=selector)["nodeId"]
        self.call("DOM.setFileInputFiles", nodeId=node, files=[str(p) for p in paths])

    def screenshot(self, path):
        """Save a PNG of the viewport."""
        data = self.call("Page.captureScreenshot", format="png")["data"]
        Path(path).write_bytes(base64.b64decode(data))

    def errors(self):
        """Console errors, uncaught exceptions and error log entries seen so far, as text."""
        out = []
        for e in self.events:
            m, p = e["method"], e["params"]
            if m == "Runtime.exceptionThrown":
                d = p["exceptionDetails"]
                out.append(f"exception: {d.get('exception', {}).get('description') or d.get('text')}")
            elif m == "Runtime.consoleAPICalled" and p["type"] in ("error", "assert"):
                out.append("console.error: " + " ".join(str(a.get("value", a.get("description"))) for a in p["args"]))
            elif m == "Log.entryAdded" and p["entry"]["level"] == "error":
                out.append(f"log: {p['entry']['text']} ({p['entry'].get('url', '')})")
        return out

    def requests(self):
        """URLs the page asked for."""
        return [e["params"]["request"]["url"] for e in self.events if e["method"] == "Network.requestWillBeSent"]
