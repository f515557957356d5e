#!/usr/bin/env python3
"""`parley web`'s speed in a real browser: the first page load with 10,000 conversations, and opening a conversation of
100,000 messages (issue 43's targets: under 300 ms and under 100 ms on a release build).

Usage: Scripts/bench-web.py [--bin DIR] [--conversations N] [--messages N] [--rounds N]
  DIR holds release builds of `parley` and `parley-client-bench` (default .build/release).

`parley-client-bench --only web-seed` fills an account's encrypted database (nothing on any server: the page reads
locally), `parley web` serves it, and Chromium (Debian's, through Playwright) loads the page and opens the long
conversation, each `--rounds` times. The times are the page's own User Timing marks: from navigation start to the frame
showing the inbox's first page (`parley:inbox-shown`: the HTML, its scripts, /api/state and /api/conversations, and
drawing 100 entries), and from the click to the frame showing the conversation's newest 50 messages
(`parley:conversation-shown`). Prints min, median and max of each.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

from playwright.sync_api import sync_playwright


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/release")
    parser.add_argument("--conversations", type=int, default=10_000)
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=20)
    options = parser.parse_args()
    chromium = os.environ.get("PARLEY_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    home = tempfile.mkdtemp(prefix="parley-bench-web-")
    web = None
    try:
        seeded = subprocess.run(
            [os.path.join(options.bin, "parley-client-bench"), "--only", "web-seed", "--home", home,
             "--conversations", str(options.conversations), "--messages", str(options.messages)],
            check=True, capture_output=True, text=True)
        print(seeded.stdout.strip(), flush=True)
        web = subprocess.Popen([os.path.join(options.bin, "parley"), "web", "--home", home, "--account", "bench"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        address = web.stdout.readline().strip()
        base = address.split("?")[0]
        args = ["--no-sandbox"] if os.geteuid() == 0 else []
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=args)
            page = browser.new_context(viewport={"width": 1200, "height": 800}).new_page()
            page.goto(address)  # spends the one-time token: the session cookie from here on
            page.wait_for_selector("#inbox li")
            loads, opens = [], []
            for _ in range(options.rounds):
                page.goto(base)
                page.wait_for_function("() => performance.getEntriesByName('parley:inbox-shown').length > 0")
                loads.append(page.evaluate("performance.getEntriesByName('parley:inbox-shown')[0].startTime"))
                total = page.evaluate("document.querySelectorAll('#inbox li').length")
                assert total == 100, f"the first page shows {total} conversations"
                # The long conversation is the most recent: first in the inbox. Opened, then another, in turn.
                for target in ("long", f"user{options.conversations}"):
                    page.evaluate("performance.clearMeasures('parley:conversation-shown')")
                    page.locator("#inbox li", has_text=target).first.click()
                    page.wait_for_function("() => performance.getEntriesByName('parley:conversation-shown').length > 0")
                    if target == "long":
                        opens.append(page.evaluate("performance.getEntriesByName('parley:conversation-shown')[0].duration"))
                        shown = page.evaluate("document.querySelectorAll('#messages li.msg').length")
                        assert shown == 50, f"the long conversation shows {shown} messages"
            browser.close()
        describe("first page load, inbox of 100 of %d conversations" % (options.conversations + 1), loads)
        describe("open the %d-message conversation (newest 50 shown)" % options.messages, opens)
    finally:
        if web:
            web.terminate()
            web.wait(30)
        shutil.rmtree(home, ignore_errors=True)


def describe(what, times):
    print(f"{what}: median {statistics.median(times):.1f} ms (min {min(times):.1f}, max {max(times):.1f}, {len(times)} rounds)",
          flush=True)


if __name__ == "__main__":
    sys.exit(main())
