#!/usr/bin/python3
"""The web recorder in Debian's headless Chromium (docs/server.md › 8): a
table's scorekeeper records the tutorial game through the page's controls,
voids a slip once, and sees "not confirmed", never "recorded", while the
server is stopped or frozen; the store then holds what importing the same
lines holds, each line once.

Usage: recorder_test.py WARLOG SAMPLES_DIR   (ctest: web_recorder_tutorial)
"""

import json
import sys
import tempfile
import time
import unittest
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
import webrec  # noqa: E402

WARLOG = SAMPLES = None
TUTORIAL = "tutorial/spine_first_blood.wlog"


class WebRecorder(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory(prefix="warlog-web-")
        self.tmp = Path(self.dir.name)
        self.header, self.whole, self.body = webrec.sample_lines(SAMPLES, TUTORIAL, self.tmp)
        self.store = str(self.tmp / "store")
        webrec.run(WARLOG, "record", self.store, "--header", str(self.header))
        self.token = webrec.issue_token(WARLOG, self.store, "table", 1)
        self.driver = webrec.browser()

    def tearDown(self):
        webrec.quit_browser(self.driver)
        self.dir.cleanup()

    def still_not_confirmed(self, page, before, line, seconds):
        """For SECONDS: the page says "not confirmed" for LINE, and no answer
        (least of all "recorded") appears."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            pending = page.by_id("pending").text
            self.assertTrue(pending.startswith("not confirmed: " + line), pending)
            self.assertEqual(len(page.answers()), before)
            self.assertFalse(page.by_id("send").is_enabled())
            time.sleep(0.1)  # the test's own polling, not the page's

    def test_the_tutorial_game_through_the_page_as_import_stores_it(self):
        sent = []  # every line the page sent, in order: the notation to import and compare
        server = webrec.Server(WARLOG, self.store)
        with server:
            page = webrec.Page(self.driver, server.url())
            page.open(self.token)
            self.assertEqual(page.by_id("title").text, "game 1: First blood at the Old Mill")
            voided = stopped = frozen = False
            for raw in self.body:
                line = webrec.typed_line(raw)
                if not line:
                    continue
                if line == 'play "Ironclaw Lancer" b1' and not voided:
                    # A slip: the Lancer tapped onto a1, recorded, then voided from the events list.
                    status, text, _ = page.record('play "Ironclaw Lancer" a1')
                    self.assertEqual(status, "ok", text)
                    sent.append('play "Ironclaw Lancer" a1')
                    [seq] = webrec.seqs_of(text)
                    status, text = page.void(seq)
                    self.assertEqual(status, "ok", text)
                    self.assertIn(f'recorded: void {seq} "slip"', text)
                    sent.append(f'void {seq} "slip"')
                    voided = True
                    self.assertIn("Ironclaw Lancer", page.hand(), "the voided play's card is in hand again")
                if line == "Turn 2" and not stopped:
                    # The server stopped: the line stays "not confirmed" until one answers again.
                    next_seq = page.next_seq()
                    self.assertEqual(server.stop(), 0)
                    page.build(line)
                    before = page.send()
                    page.wait.until(lambda d: page.by_id("pending").text.startswith("not confirmed"))
                    self.still_not_confirmed(page, before, line, 3)
                    server.start()  # the same port
                    status, text = page.answer(before)
                    self.assertEqual((status, text), ("ok", f"seq {next_seq} recorded: Turn 2"))
                    page.wait.until(lambda d: page.by_id("link").text == "live")
                    sent.append(line)
                    stopped = True
                    continue
                if line == "Warfare 1" and stopped and not frozen:
                    # The server frozen (SIGSTOP) with the request in its socket: the page gives up
                    # waiting (8 s), says "not confirmed" and sends it again; thawed, the server
                    # records it once, whichever attempt it answers ("already recorded" for a retry).
                    next_seq = page.next_seq()
                    page.build(line)
                    server.pause()
                    before = page.send()
                    page.wait.until(lambda d: page.by_id("pending").text.startswith("not confirmed"))
                    self.still_not_confirmed(page, before, line, 1)
                    server.resume()
                    status, text = page.answer(before)
                    self.assertIn(status, ("ok", "already-recorded"), text)
                    self.assertEqual(webrec.seqs_of(text), [next_seq], text)
                    page.wait.until(lambda d: page.next_seq() == next_seq + 1)
                    sent.append(line)
                    frozen = True
                    continue
                status, text, _ = page.record(line)
                self.assertEqual(status, "ok", f"{line}: {text}")
                self.assertTrue(text.startswith("seq "), text)
                sent.append(line)
            self.assertTrue(voided and stopped and frozen)
            # Bruno's three cards: the answer shows the finding with its rule and citation.
            draws = [a.text for a in page.answers() if "Barricade Levy" in a.text]
            self.assertTrue(any("violation MUS-a.draw" in t for t in draws), draws)
            self.assertEqual(page.requests_to_other_hosts(), [])
            # The outage's failed requests aside (network errors, expected): no script error, no CSP refusal.
            problems = [e["message"] for e in self.driver.get_log("browser")
                        if (e["level"] == "SEVERE" and e["source"] != "network") or "Content Security Policy" in e["message"]]
            self.assertEqual(problems, [], "no script error and no Content-Security-Policy refusal")
            self.assertEqual(server.stop(), 0)

        self.assertEqual(webrec.run(WARLOG, "verify", "--store", self.store).returncode, 0)
        # The same lines imported: the same events, seq for seq (recording adds only times and the uuid).
        as_sent = self.tmp / "as-sent.wlog"
        as_sent.write_text(self.header.read_text() + "\n" + "\n".join(sent) + "\n")
        other = str(self.tmp / "imported")
        webrec.run(WARLOG, "import", "--store", other, str(as_sent))
        self.assertEqual(webrec.exported(WARLOG, self.store), webrec.exported(WARLOG, other))
        # And the game is the tutorial's: its outcome and its findings, with the void's note beside them.
        tutorial = str(self.tmp / "tutorial")
        webrec.run(WARLOG, "import", "--store", tutorial, str(self.whole))

        def game(store):
            listed = json.loads(webrec.run(WARLOG, "list", "--store", store, "--format", "json").stdout)
            audit = json.loads(webrec.run(WARLOG, "audit", "--store", store, "--game", "1", "--format", "json",
                                          check=False).stdout)
            findings = [(f["rule"], f["severity"]) for g in audit["games"] for f in g["findings"]]
            return listed["games"][0]["result"], findings
        recorded, imported = game(self.store), game(tutorial)
        self.assertEqual(recorded[0], imported[0])
        self.assertEqual([f for f in recorded[1] if f[0] != "LOG.void"], imported[1])
        self.assertEqual([f for f in recorded[1] if f[0] == "LOG.void"], [("LOG.void", "note")])
        self.assertEqual(len(webrec.exported(WARLOG, self.store)), len(webrec.exported(WARLOG, tutorial)) + 2,
                         "the slip and its void")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    WARLOG, SAMPLES = sys.argv[1], str(Path(sys.argv[2]).resolve())
    unittest.main(argv=sys.argv[:1] + sys.argv[3:], verbosity=2)
