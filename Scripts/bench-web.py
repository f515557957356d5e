#!/usr/bin/env python3
"""`parley web`'s speed in a real browser: the first page load with 10,000 conversations, opening a conversation of
100,000 messages, and a delivered message's way into the page (issue 43's targets: under 300 ms, under 100 ms and
under 200 ms on a release build).

Usage: Scripts/bench-web.py [--bin DIR] [--server-bin DIR] [--conversations N] [--messages N] [--rounds N]
  DIR holds release builds of `parley` and `parley-client-bench` (default .build/release); the server's DIR holds
  `parley-server` (default: DIR, else .build/debug).

`parley-client-bench --only web-seed` fills an account's encrypted database (nothing on any server: the page reads
locally), `parley web` serves it, and Chromium (Debian's, through Playwright) loads the page and opens the long
conversation, each `--rounds` times. The times are the page's own User Timing marks: from navigation start to the frame
showing the inbox's first page (`parley:inbox-shown`: the HTML, its scripts, /api/state and /api/conversations, and
drawing 100 entries), and from the click to the frame showing the conversation's newest 50 messages
(`parley:conversation-shown`).

Delivery: a parley-server, two accounts registered with `parley register`; bob's page has the conversation open and
alice sends `--rounds` messages with `parley send`, one at a time. A message's time is from the server's timestamp
(when it accepted the message: before it goes down bob's socket) to the moment its node is in bob's page (a
MutationObserver): the server's delivery, bob's `parley web` decrypting and storing it, the event, the page's fetch
and drawing. An upper bound of the socket-to-page time. Prints min, median and max of each.
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
    parser.add_argument("--server-bin", default=None)
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
        delivery(options, chromium, args)
    finally:
        if web:
            web.terminate()
            web.wait(30)
        shutil.rmtree(home, ignore_errors=True)


def delivery(options, chromium, args):
    """The server's timestamp of each of alice's messages to the moment it is in bob's open conversation."""
    server_dir = options.server_bin or (options.bin if os.path.exists(os.path.join(options.bin, "parley-server")) else ".build/debug")
    home = tempfile.mkdtemp(prefix="parley-bench-delivery-")
    processes = []
    try:
        server = subprocess.Popen(
            [os.path.join(server_dir, "parley-server"), "--data-directory", os.path.join(home, "server"), "--port", "0",
             "--log-level", "warning"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        processes.append(server)
        line = ""
        while "parley-server listening on " not in line:
            line = server.stdout.readline()
            if not line:
                raise RuntimeError("parley-server did not start")
        url = "http://" + line.split("listening on ")[1].split()[0]
        parley = os.path.join(options.bin, "parley")
        for name in ("alice", "bob"):
            subprocess.run([parley, "register", name, "--server", url, "--home", home, "--account", name],
                           check=True, capture_output=True, timeout=60)
        subprocess.run([parley, "send", "bob", "hello", "--home", home, "--account", "alice"], check=True, capture_output=True, timeout=60)
        web = subprocess.Popen([parley, "web", "--home", home, "--account", "bob"], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
        processes.append(web)
        address = web.stdout.readline().strip()
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=args)
            page = browser.new_context(viewport={"width": 1200, "height": 800}).new_page()
            page.goto(address)
            page.locator("#inbox li", has_text="alice").first.click()
            page.wait_for_selector("#messages li.msg")
            page.evaluate("""() => {
                window.seen = {};
                new MutationObserver(() => {
                    for (const node of document.querySelectorAll('#messages li.msg')) {
                        const text = node.querySelector('.body')?.textContent || '';
                        if (text.startsWith('ping ') && !(text in window.seen)) window.seen[text] = Date.now();
                    }
                }).observe(document.getElementById('messages'), { childList: true, subtree: true });
            }""")
            conversation = page.evaluate("document.querySelector('#inbox li[aria-selected=\"true\"]').dataset.id")
            times = []
            for index in range(options.rounds):
                text = f"ping {index}"
                subprocess.run([parley, "send", "bob", text, "--home", home, "--account", "alice"], check=True,
                               capture_output=True, timeout=60)
                page.wait_for_function(f"() => window.seen[{text!r}] !== undefined", timeout=30_000)
                seen = page.evaluate(f"window.seen[{text!r}]")
                history = page.evaluate(f"async () => (await (await fetch('/api/conversations/{conversation}/messages?limit=5')).json())")
                accepted = next(m["serverTimestamp"] for m in history["messages"] if m.get("body") == text)
                times.append(seen - accepted)
            browser.close()
        describe("a delivered message into the open conversation (server timestamp → node in the page)", times)
    finally:
        for process in processes:
            process.terminate()
            process.wait(30)
        shutil.rmtree(home, ignore_errors=True)


def describe(what, times):
    print(f"{what}: median {statistics.median(times):.1f} ms (min {min(times):.1f}, max {max(times):.1f}, {len(times)} rounds)",
          flush=True)


if __name__ == "__main__":
    sys.exit(main())
