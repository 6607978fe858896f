#!/usr/bin/env python3
"""End-to-end test of the Almirah desktop app: a real window under Xvfb,
driven through WebDriver (tauri-driver + WebKitWebDriver).

Run it through scripts/desktop-e2e.sh, which builds nothing: it starts
tauri-driver and points this at the built app. Every step saves a
screenshot in --out; any failed check exits 1 with the reason.
"""

import argparse
import pathlib
import re
import shutil
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.common.options import ArgOptions
from selenium.webdriver.support.ui import Select

QUESTION = "What is the MTech fee, and is hostel still free on the north-east scholarship?"
# A sentence that says the hostel costs nothing on the scholarship (the
# 2024-25 rule Circular-14 replaced).
ZERO_FEE = re.compile(r"(rs\.?\s*0\b|\bnil\b|fully waived|full waiver|free of (cost|charge)|100\s*%|is free\b|remains free|still free)", re.I)

NEW_CIRCULAR = """# Circular No. 16 (2026-27): Library hours

Issued 20.11.2026. With effect from 01.12.2026 the central library stays open
until 11 pm on weekdays during the examination weeks.
"""


class Failed(Exception):
    pass


def wait(what, predicate, timeout, every=0.25):
    end = time.time() + timeout
    last = None
    while time.time() < end:
        try:
            last = predicate()
            if last:
                return last
        except Exception as e:  # the DOM changes under us; retry
            last = e
        time.sleep(every)
    raise Failed(f"timed out after {timeout} s waiting for {what} (last: {last!r})")


class App:
    def __init__(self, driver, out, display):
        self.d = driver
        self.out = out
        self.display = display
        self.n = 0

    def shot(self, name):
        """Capture the window from the X server (ImageMagick `import`): the
        WebDriver screenshot call of WebKitWebDriver was seen to hang."""
        self.n += 1
        path = self.out / f"{self.n:02d}-{name}.png"
        time.sleep(0.3)  # let the last change paint
        cmd = ["import", "-display", self.display, "-window", "root", "-crop", "1200x800+0+0", "+repage", str(path)]
        subprocess.run(cmd, check=True, timeout=30, capture_output=True)
        print(f"  screenshot {path}")
        return path

    def css(self, selector):
        return self.d.find_elements(By.CSS_SELECTOR, selector)

    def one(self, selector, timeout=20):
        return wait(selector, lambda: (self.css(selector) or [None])[0], timeout)

    def nav(self, view):
        self.one(f"#nav-{view}").click()
        time.sleep(0.4)

    def theme(self, value):
        Select(self.one("#theme")).select_by_value(value)
        time.sleep(0.4)

    def answers(self):
        return self.css(".answer")

    def ask(self, text, timeout):
        before = len(self.answers())
        box = self.one("#question")
        box.clear()
        box.send_keys(text)
        self.one("#ask").click()
        return wait(f"an answer to {text!r}", lambda: len(self.answers()) > before and self.answers()[-1], timeout)


def check(cond, message):
    if not cond:
        raise Failed(message)
    print(f"  ok: {message}")


def run(app, watched, timeout):
    print("library: waiting for the first sync to finish")
    bar = app.one("#sync-progress", timeout=60)
    wait("sync progress to reach the end", lambda: bar.get_attribute("data-phase") == "done", timeout)
    done, total = bar.get_attribute("data-done"), bar.get_attribute("data-total")
    check(done == total, f"progress reached the end ({done} of {total} files)")
    app.shot("library")
    # Once the first chunk is embedded the library is bound to a model: the
    # first-run question (which languages) is gone.
    wait("the first-run embedder choice to close", lambda: not app.css("#embedder-card"), 30)

    app.nav("documents")
    rows = wait("document rows", lambda: app.css("#documents-table tr[data-key]"), 30)
    check(len(rows) >= 8, f"the documents table lists {len(rows)} documents")
    c09 = [r for r in rows if "Circular-09" in r.text]
    check(c09 and "superseded" in c09[0].text.lower(), "Circular-09 shows as superseded")
    app.shot("documents-superseded")

    app.nav("chat")
    answer = app.ask(QUESTION, timeout)
    text = answer.find_element(By.CSS_SELECTOR, ".answer-text").text
    check("48,500" in text, "the answer gives Rs 48,500")
    check("half" in text.lower(), "the answer says half")
    chips = [c.text for c in answer.find_elements(By.CSS_SELECTOR, ".citation-chip")]
    check(any("Circular-14" in c for c in chips), f"a citation chip names Circular-14 ({chips})")
    note = answer.find_elements(By.CSS_SELECTOR, ".withheld-note")
    check(note and "circular-09" in note[0].text.lower(), "the withheld note names Circular-09")
    bad = [s for s in re.split(r"(?<=[.!?])\s+", text) if ZERO_FEE.search(s) and "hostel" in s.lower()]
    check(not bad, f"no zero-fee sentence ({bad})")
    answer.find_element(By.CSS_SELECTOR, "details.trace summary").click()
    time.sleep(0.3)
    app.shot("chat-answer-trace")
    answer.find_elements(By.CSS_SELECTOR, ".citation-chip")[0].click()
    app.one(".source-panel", timeout=10)
    time.sleep(0.3)
    app.shot("chat-source-panel")
    app.d.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)

    follow = app.ask("and for 2024-25?", timeout)
    session = follow.get_attribute("data-session")
    check(session == "2024-25", f"the follow-up speaks for 2024-25 (session {session})")
    follow_text = follow.text
    check("2024-25" in follow_text, "the follow-up's answer says 2024-25")
    app.shot("chat-follow-up")

    app.nav("documents")
    (watched / "university" / "Circular-16-2026-27.md").write_text(NEW_CIRCULAR)
    started = time.time()
    wait(
        "Circular-16 in the documents table",
        lambda: any("Circular-16" in r.text for r in app.css("#documents-table tr[data-key]")),
        30,
    )
    check(True, f"the new circular is listed {time.time() - started:.1f} s after the copy")
    app.shot("documents-new-circular")

    app.nav("settings")
    models = [o.get_attribute("value") for o in app.one("#builtin-model").find_elements(By.TAG_NAME, "option")]
    check(models == ["auto", "all-MiniLM-L6-v2", "multilingual-e5-small"], f"the builtin model is a choice ({models})")
    app.shot("settings")
    app.theme("dark")
    app.shot("settings-dark")
    app.nav("chat")
    app.shot("chat-dark")
    app.nav("documents")
    app.shot("documents-dark")
    app.nav("library")
    app.shot("library-dark")
    app.nav("settings")
    app.theme("system")


def new_session(url, options, attempts=4):
    """A WebDriver session, asked for again when the driver drops the request
    without a response (WebKitWebDriver still starting on a loaded machine)."""
    for attempt in range(1, attempts + 1):
        try:
            return webdriver.Remote(command_executor=url, options=options)
        except Exception as e:  # urllib3 / selenium errors alike
            if attempt == attempts:
                raise
            print(f"  new session failed ({type(e).__name__}: {e}); retrying in {2 * attempt} s", file=sys.stderr)
            time.sleep(2 * attempt)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--app", required=True)
    p.add_argument("--watched", required=True, type=pathlib.Path)
    p.add_argument("--out", required=True, type=pathlib.Path)
    p.add_argument("--driver", default="http://127.0.0.1:4444")
    p.add_argument("--timeout", type=float, default=240)
    p.add_argument("--display", required=True, help="the X display the app runs on, for screenshots")
    args = p.parse_args()
    shutil.rmtree(args.out, ignore_errors=True)
    args.out.mkdir(parents=True)
    options = ArgOptions()
    options.set_capability("browserName", "wry")
    options.set_capability("tauri:options", {"application": str(pathlib.Path(args.app).resolve())})
    driver = new_session(args.driver, options)
    driver.set_window_size(1200, 800)
    app = App(driver, args.out, args.display)
    try:
        run(app, args.watched, args.timeout)
    except Exception as e:  # a failed check, or WebDriver's own error
        try:
            app.shot("failure")
        except Exception:
            pass
        print(f"FAILED: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    finally:
        try:
            driver.quit()
        except Exception as e:  # the app or driver already gone: keep the first error
            print(f"  quitting the session failed: {type(e).__name__}: {e}", file=sys.stderr)
    print("desktop end-to-end: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
