"""The web recorder driven as a scorekeeper drives it, in Debian's headless
Chromium (docs/server.md › 8): a `warlog serve` on loopback, a browser that
resolves no other host, and the page's own controls.

Shared by tests/web/recorder_test.py (the suite: the tutorial game) and
scripts/web-trial (a whole sample game, timing, screenshots).
"""

import ctypes
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

# Every wait on the page is bounded: an answer takes milliseconds on loopback.
WAIT_SECONDS = 30

PHONE = (390, 844)
TABLET = (820, 1180)


def _die_with_parent():
    # A server or driver whose test was killed (ctest's timeout) dies with it.
    PR_SET_PDEATHSIG = 1
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def run(warlog, *args, check=True):
    r = subprocess.run([warlog, *args], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    if check and r.returncode != 0:
        raise AssertionError(f"warlog {' '.join(args)}: exit {r.returncode}: {r.stderr}{r.stdout}")
    return r


# --- A sample game as a scorekeeper records it ---------------------------------
def sample_lines(samples, sample, workdir):
    """The sample's header (paths made absolute) written to a file of its own,
    the whole game (to import) and its body lines, as
    tests/support/sample_lines.hpp splits them for the C++ tests."""
    text = (Path(samples) / sample).read_text(encoding="utf-8").replace('"../', '"' + str(samples) + "/")
    stem = Path(sample).stem
    whole = Path(workdir) / f"{stem}.wlog"
    whole.write_text(text, encoding="utf-8")
    header, body, in_header = [], [], True
    for line in text.splitlines():
        s = line.lstrip(" \t")
        if in_header and s and s[0] not in "#[":
            in_header = False
        (header if in_header else body).append(line)
    header_path = Path(workdir) / f"{stem}.header.wlog"
    header_path.write_text("\n".join(header) + "\n", encoding="utf-8")
    return header_path, whole, body


def typed_line(line):
    """What a scorekeeper enters for a notation line: no comment, one space
    for each run of blanks outside quotes. "" for a blank or comment-only line."""
    out, quoted = [], False
    for c in line:
        if c == '"':
            quoted = not quoted
        elif c == "#" and not quoted:
            break
        elif c in " \t" and not quoted:
            if out and out[-1] != " ":
                out.append(" ")
            continue
        out.append(c)
    return "".join(out).strip()


# --- The server ------------------------------------------------------------------
class Server:
    """`warlog serve STORE --http 127.0.0.1:PORT` (port 0 first: the start
    line names the port; a restart takes the same port, so the page's
    relative URLs reach it). Always stopped: stop(), the with block, or the
    death signal when the test itself is killed."""

    def __init__(self, warlog, store, extra=()):
        self.warlog, self.store, self.extra = warlog, store, list(extra)
        self.port = 0
        self.proc = None
        self.err = None

    def start(self):
        self.err = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(
            [self.warlog, "serve", self.store, "--http", f"127.0.0.1:{self.port}", *self.extra],
            stdout=subprocess.PIPE, stderr=self.err, text=True, preexec_fn=_die_with_parent)
        line = self._first_line(20)
        m = re.search(r"listening on http://127\.0\.0\.1:(\d+)/", line)
        if not m:
            self.err.seek(0)
            err = self.err.read().decode()
            self.stop(signal.SIGKILL)
            raise AssertionError(f"warlog serve did not start: {line!r} {err}")
        self.port = int(m.group(1))
        return self

    def _first_line(self, seconds):
        import selectors
        sel = selectors.DefaultSelector()
        sel.register(self.proc.stdout, selectors.EVENT_READ)
        if not sel.select(timeout=seconds):
            return ""
        return self.proc.stdout.readline()

    def url(self):
        return f"http://127.0.0.1:{self.port}/"

    def stop(self, sig=signal.SIGTERM):
        """Sends SIG and waits (SIGKILL after 10 s); the exit code."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            code = self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = self.proc.wait(timeout=10)
        self.proc.stdout.close()
        self.err.close()
        self.proc = None
        return code

    def pause(self):
        self.proc.send_signal(signal.SIGSTOP)

    def resume(self):
        self.proc.send_signal(signal.SIGCONT)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        if self.proc is not None:
            self.resume()
        self.stop()


def exported(warlog, store, game=1):
    """The game's events as `export --format json` writes them, less what
    only recording adds (the times of recording and the game's random uuid):
    equal for a game recorded line by line and the same lines imported."""
    out = run(warlog, "export", "--store", store, "--format", "json", str(game)).stdout

    def strip(v):
        if isinstance(v, dict):
            return {k: strip(x) for k, x in v.items() if k not in ("recorded_at_ms", "game_uuid")}
        return [strip(x) for x in v] if isinstance(v, list) else v
    return [strip(json.loads(line)) for line in out.splitlines() if line.strip()]


def issue_token(warlog, store, role, game=0):
    args = ["serve", "token", "issue", store, "--role", role] + (["--game", str(game)] if game else [])
    return run(warlog, *args).stdout.split("\n", 1)[0]


# --- The browser -----------------------------------------------------------------
def browser(size=PHONE):
    """Debian's Chromium, headless, through Debian's chromedriver: no other
    host resolves, no sandbox when root (Chromium refuses to start sandboxed
    as root), a throwaway profile, none of Chromium's own background requests."""
    profile = tempfile.mkdtemp(prefix="warlog-chromium-")
    o = webdriver.ChromeOptions()
    o.binary_location = "/usr/bin/chromium"
    for a in ["--headless=new", "--disable-gpu", "--disable-dev-shm-usage", f"--user-data-dir={profile}",
              "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1", "--no-first-run",
              "--disable-background-networking", "--disable-component-update", "--disable-sync",
              "--disable-extensions", "--disable-default-apps", f"--window-size={size[0]},{size[1]}"]:
        o.add_argument(a)
    if os.geteuid() == 0:
        o.add_argument("--no-sandbox")
    o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path="/usr/bin/chromedriver", popen_kw={"preexec_fn": _die_with_parent})
    driver = webdriver.Chrome(service=service, options=o)
    driver._warlog_profile = profile
    set_size(driver, size)
    return driver


def quit_browser(driver):
    try:
        driver.quit()
    finally:
        shutil.rmtree(driver._warlog_profile, ignore_errors=True)


def set_size(driver, size, mobile=True):
    # The page's viewport exactly at SIZE, as a phone or tablet reports it.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": mobile})


class Page:
    """The recorder page, driven through its controls. Each step waits (bounded)
    for what the page shows, never for a fixed time."""

    def __init__(self, driver, url):
        self.d = driver
        self.url = url
        self.wait = WebDriverWait(driver, WAIT_SECONDS, poll_frequency=0.02,
                                  ignored_exceptions=[StaleElementReferenceException])
        self.stats = {"lines": 0, "by_controls": 0, "typed_chars": 0, "clicks": 0, "partly_typed": []}

    def by_id(self, name):
        return self.d.find_element(By.ID, name)

    def value(self):
        return self.by_id("line").get_property("value")

    def open(self, token):
        self.d.get(self.url)
        self.by_id("token").send_keys(token)
        self.by_id("login-form").find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        # A table's token lists one game: the page opens it at once.
        self.wait.until(lambda d: "next seq" in self.by_id("where").text)
        self.wait.until(lambda d: self.by_id("link").text == "live")

    def next_seq(self):
        return int(re.search(r"next seq (\d+)", self.by_id("where").text).group(1))

    def answers(self):
        return self.d.find_elements(By.CSS_SELECTOR, "#answers > li")

    def _click(self, find):
        # The board and hand are drawn again when an event arrives: find afresh.
        def go(d):
            try:
                find().click()
                return True
            except StaleElementReferenceException:
                return False
        self.wait.until(go)
        self.stats["clicks"] += 1

    def _type(self, text):
        self.by_id("line").send_keys(text)
        self.stats["typed_chars"] += len(text)

    def texts(self, css):
        # In one script: an event arriving draws the hand and board again between two reads.
        return self.d.execute_script(
            "return [...document.querySelectorAll(arguments[0])].map(e => e.textContent)", css)

    def hand(self):
        return self.texts("#hand .chip")

    def _cell(self, space):
        found = self.d.find_elements(By.XPATH, f"//div[@id='board']/button[span[@class='space' and text()='{space}']]")
        return found[0] if found else None

    def build(self, line):
        """Puts LINE into the line field the way a scorekeeper would: a frame
        button (Turn, Morale, Muster 1...), the verb from the list, cards from
        the acting seat's hand, spaces from the board; what no control offers
        is typed. Fails when the page builds anything but LINE."""
        frame = self.texts("#frame button")
        if line in frame:
            self._click(lambda: self.d.find_element(By.XPATH, f"//div[@id='frame']/button[text()='{line}']"))
            assert self.value() == line, (self.value(), line)
            self.stats["by_controls"] += 1
            return
        typed_before = self.stats["typed_chars"]
        tokens = [(m.group(0), m.start(), m.end()) for m in re.finditer(r'"[^"]*"|[^\s",;]+|[,;]', line)]
        verbs = [o.get_attribute("value") for o in Select(self.by_id("verb")).options]
        i = 0
        self.by_id("line").clear()
        if tokens and tokens[0][0] in verbs and tokens[0][0]:
            # The verb list replaces the line: it starts one (a "1:" seat prefix is typed, verb and all).
            Select(self.by_id("verb")).select_by_value(tokens[0][0])
            self.stats["clicks"] += 1
            i = 1
            assert self.value() == tokens[0][0], (self.value(), line)
        verb = tokens[0][0] if tokens else ""
        hand = self.hand()
        for k in range(i, len(tokens)):
            word, start, end = tokens[k]
            nxt = tokens[k + 1][0] if k + 1 < len(tokens) else None
            card = word[1:-1] if word.startswith('"') else None
            if card is not None and card in hand and verb != "draw":  # a draw's cards come from the deck
                self._click(lambda: next(c for c in self.d.find_elements(By.CSS_SELECTOR, "#hand .chip")
                                         if c.text == card))
                hand.remove(card)
            elif re.fullmatch(r"[a-z][0-9]{1,2}", word) and self._cell(word) is not None:
                self._click(lambda: self._cell(word))
            elif word == "," and verb in ("pay", "draw") and nxt and nxt[1:-1] in hand and '"' in self.value():
                continue  # the hand's chip adds the ", " itself in a list of cards
            else:
                self._type(line[len(self.value()):end])
            got = self.value()
            assert got == line[:end], f"the page built {got!r}, the line is {line!r}"
        assert self.value() == line, (self.value(), line)
        if self.stats["typed_chars"] == typed_before:
            self.stats["by_controls"] += 1
        else:
            self.stats["partly_typed"].append(line)

    def send(self):
        """Clicks Record: the count of answers before it."""
        before = len(self.answers())
        self.by_id("send").click()
        self.stats["lines"] += 1
        return before

    def answer(self, before):
        """Waits for the answer to the line sent (the page free for the next
        line): its status class and text."""
        self.wait.until(lambda d: len(self.answers()) > before and self.by_id("send").is_enabled())
        li = self.answers()[0]
        return li.get_attribute("class"), li.text

    def record(self, line):
        self.build(line)
        t0 = time.monotonic()
        status, text = self.answer(self.send())
        return status, text, time.monotonic() - t0

    def void(self, seq):
        """The event's void button, then Record."""
        self.wait.until(lambda d: d.find_elements(By.XPATH, f"//ol[@id='events']/li[@value='{seq}']/button"))
        self._click(lambda: self.d.find_element(By.XPATH, f"//ol[@id='events']/li[@value='{seq}']/button"))
        assert self.value() == f'void {seq} "slip"', self.value()
        return self.answer(self.send())

    def requests_to_other_hosts(self):
        names = self.d.execute_script("return performance.getEntriesByType('resource').map(e => e.name)"
                                      ".concat([location.href])")
        return [n for n in names if not n.startswith(self.url)]

    def screenshot(self, path, size, scroll_to=None):
        set_size(self.d, size)
        if scroll_to:
            self.d.execute_script("document.getElementById(arguments[0]).scrollIntoView()", scroll_to)
        else:
            self.d.execute_script("window.scrollTo(0, 0)")
        self.d.save_screenshot(str(path))


def seqs_of(answer_text):
    """The seqs an answer names ("seq 7, 8 recorded: ...")."""
    m = re.match(r"seq ([\d, ]+) (?:already )?recorded", answer_text)
    return [int(s) for s in m.group(1).split(",")] if m else []
