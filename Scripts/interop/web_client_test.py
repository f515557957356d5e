#!/usr/bin/env python3
"""`parley web` in a real browser: Chromium driven by Playwright, three people, one real parley-server.

Starts parley-server (SQLite, a temporary directory) and one `parley web` process per person from PARLEY_BIN_DIR, then
drives a Chromium (Debian's, through Playwright's `executable_path`) as each of them: registering from the page, sending
and receiving live both ways, an attachment round trip with matching SHA-256, an image shown inline, a reaction, an
edit, a delete, a voice note recorded from the (fake) microphone, a pinned conversation, a group of three, a
safety-number comparison and verification, the PIN backup stored from Settings and the account restored from it on a
new machine's page, a push target registered and removed, the content-detection checks and a blocked file found by them, the offline banner while the
server is stopped and the queued message delivered once it is back, a reload that keeps everything, keyboard use. Security: no
token, a spent token, a foreign Host and a cross-origin request are refused; a message holding HTML and script is shown
as text. axe-core (axe-playwright-python) must report no serious or critical violation on any screen. Screenshots of
every main screen go to PARLEY_WEB_SCREENSHOTS (default: a temporary directory). Exit 0 and a last line `WEB OK` when
everything held; otherwise an assertion's message.
"""
import hashlib
import http.client
import os
import queue
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import zlib

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect, sync_playwright

BIN = os.environ["PARLEY_BIN_DIR"]
CHROMIUM = os.environ.get("PARLEY_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
WORK = tempfile.mkdtemp(prefix="parley-web-test-")
SHOTS = os.environ.get("PARLEY_WEB_SCREENSHOTS") or os.path.join(WORK, "screenshots")
TIMEOUT = 30_000  # ms: a live update, a reconnect
OPERATOR_TOKEN = "web-test-operator-token"
os.makedirs(SHOTS, exist_ok=True)
expect.set_options(timeout=TIMEOUT)


def log(*parts):
    print(*parts, flush=True)


def first_line(process, marker, seconds=60):
    """The first line of `process`'s stdout containing `marker` (read on a thread: no blocking read without a timeout)."""
    lines = queue.Queue()

    def pump():
        for line in process.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            line = lines.get(timeout=max(0.1, deadline - time.time()))
        except queue.Empty:
            break
        if line is None:
            break
        if marker in line:
            return line.strip()
    raise AssertionError(f"no line with {marker!r} from {process.args}")


class Server:
    """parley-server on one port and data directory, stopped and started again on the same ones."""

    def __init__(self):
        self.data = os.path.join(WORK, "server")
        self.port = 0
        self.process = None
        self.start()

    def start(self):
        self.process = subprocess.Popen(
            [os.path.join(BIN, "parley-server"), "--data-directory", self.data, "--port", str(self.port), "--log-level", "warning"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env={**os.environ, "PARLEY_OPERATOR_TOKEN": OPERATOR_TOKEN})
        PROCESSES.append(self.process)
        line = first_line(self.process, "parley-server listening on ")
        self.port = int(line.split("listening on ")[1].split()[0].rsplit(":", 1)[1])
        self.url = f"http://127.0.0.1:{self.port}"

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            log("parley-server did not stop within 30 s of SIGTERM: killed")
            self.process.kill()
            self.process.wait(30)

    def block(self, payload):
        """Puts `payload`'s SHA-256 in the server's blocked bank (the operator's `parley-server dcd import`)."""
        hashes = os.path.join(WORK, "blocked-hashes.txt")
        with open(hashes, "w") as file:
            file.write(hashlib.sha256(payload).hexdigest() + "\n")
        subprocess.run(
            [os.path.join(BIN, "parley-server"), "dcd", "import", hashes, "--bank", "blocked", "--wait", "--server", self.url,
             "--operator-token", OPERATOR_TOKEN], check=True, capture_output=True, timeout=60)


class Web:
    """One person's `parley web`: its own home, account and one-time address."""

    def __init__(self, name, server):
        self.name = name
        self.home = os.path.join(WORK, name)
        self.process = subprocess.Popen(
            [os.path.join(BIN, "parley"), "web", "--home", self.home, "--account", name, "--server", server.url],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        PROCESSES.append(self.process)
        self.address = first_line(self.process, "http://")
        parts = urllib.parse.urlsplit(self.address)
        self.host, self.port = parts.hostname, parts.port
        self.token = urllib.parse.parse_qs(parts.query)["token"][0]

    def request(self, method, path, headers=None, body=None):
        """A raw HTTP request to this page's server: its status and body."""
        connection = http.client.HTTPConnection(self.host, self.port, timeout=10)
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response.status, data, response.headers

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()


class Checker:
    def __init__(self):
        self.axe = Axe()
        self.screens = []

    def accessible(self, page, screen):
        """axe-core finds no serious or critical violation on `page`, and a screenshot of it is saved."""
        results = self.axe.run(page)
        bad = [v for v in results.response["violations"] if v.get("impact") in ("serious", "critical")]
        detail = "; ".join(f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}" for v in bad)
        assert not bad, f"axe on {screen}: {detail}"
        page.screenshot(path=os.path.join(SHOTS, f"{screen}.png"), full_page=False)
        self.screens.append(screen)
        log(f"screen {screen}: no serious or critical axe violation ({len(results.response['violations'])} minor)")


def square_png(size):
    """A valid `size`×`size` PNG: an orange square."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + b"\xf0\xa5\x00" * size for _ in range(size))
    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def scan(locator):
    """The bytes of the QR code `locator` shows, read from a screenshot of it by zbar (Debian's zbarimg)."""
    path = os.path.join(WORK, "qr.png")
    locator.screenshot(path=path)
    result = subprocess.run(["zbarimg", "--raw", "--quiet", "-Sbinary", path], capture_output=True, timeout=30)
    assert result.returncode == 0, f"zbar found no QR code: {result.stderr.decode(errors='replace')}"
    return result.stdout.rstrip(b"\n")


def message(page, text):
    """The message of `page`'s open conversation whose text is `text`."""
    return page.locator("#messages li.msg", has=page.locator(".body", has_text=text)).last


def open_conversation(page, name):
    page.locator("#inbox li", has_text=name).first.click()
    expect(page.locator("#conversation-title")).to_have_text(name)


def security(web):
    status, _, _ = web.request("GET", "/")
    assert status == 403, f"the page without a session: {status}"
    status, _, _ = web.request("GET", "/api/state")
    assert status == 403, f"the API without a session: {status}"
    status, _, _ = web.request("GET", "/", headers={"Host": "evil.example"})
    assert status == 421, f"a foreign Host: {status}"
    status, _, _ = web.request("GET", "/?token=" + "x" * 43)
    assert status == 403, f"a wrong token: {status}"
    log("security: no session, a wrong token and a foreign Host are refused")


def signed_in_security(web, cookie):
    status, _, _ = web.request("GET", "/?token=" + web.token)
    assert status == 403, f"a spent token: {status}"
    status, _, _ = web.request("GET", "/api/state", headers={"Cookie": cookie})
    assert status == 200, f"the session cookie: {status}"
    status, _, _ = web.request(
        "POST", "/api/send", headers={"Cookie": cookie, "Origin": "http://evil.example", "Content-Type": "application/json"},
        body='{"to":"bob","body":"forged"}')
    assert status == 403, f"a cross-origin POST: {status}"
    status, _, _ = web.request(
        "POST", "/api/send", headers={"Cookie": cookie, "Sec-Fetch-Site": "cross-site", "Content-Type": "application/json"},
        body='{"to":"bob","body":"forged"}')
    assert status == 403, f"a cross-site fetch: {status}"
    status, _, headers = web.request("GET", "/", headers={"Cookie": cookie})
    policy = headers.get("Content-Security-Policy", "")
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy, f"the CSP: {policy}"
    log("security: a spent token, a cross-origin POST and a cross-site fetch are refused; the CSP allows no inline script")


PROCESSES = []


def stop_everything(*_):
    """Stops every process this script started (also when an assertion fails or the test runner terminates it): a
    `parley web` left running would keep reconnecting to a port another test's server may take next."""
    for process in PROCESSES:
        if process.poll() is None:
            process.kill()
            process.wait()


# The numbers after each person's nickname: their usernames are alice.11, bob.22 and carol.33.
NUMBERS = {"alice": "11", "bob": "22", "carol": "33"}


def username(name):
    return f"{name}.{NUMBERS[name]}"


def main():
    server = Server()
    people = {name: Web(name, server) for name in ("alice", "bob", "carol")}
    security(people["alice"])
    checker = Checker()
    # A fake microphone (a beep) that needs no prompt: the voice note is recorded from it.
    args = ["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"]
    args += ["--no-sandbox"] if os.geteuid() == 0 else []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=args)
        pages = {}
        for name, web in people.items():
            context = browser.new_context(viewport={"width": 1200, "height": 800}, permissions=["microphone"])
            page = context.new_page()
            page.on("pageerror", lambda error, name=name: log(f"page error ({name}): {error}"))
            page.goto(web.address)
            expect(page.locator("#register")).to_be_visible()
            if name == "alice":
                checker.accessible(page, "register")
            # Registered without a plain name: each goes by a username (nickname.NN) the server keeps as a hash.
            page.fill("#register-username", name)
            page.fill("#register-number", NUMBERS[name])
            page.keyboard.press("Enter")
            expect(page.locator("#me")).to_have_text(f"Signed in as {username(name)}")
            pages[name] = page
        alice, bob, carol = pages["alice"], pages["bob"], pages["carol"]
        cookie = "; ".join(f"{c['name']}={c['value']}" for c in alice.context.cookies())
        assert all(c["httpOnly"] and c["sameSite"] == "Strict" for c in alice.context.cookies()), alice.context.cookies()
        signed_in_security(people["alice"], cookie)

        # A new chat, live both ways.
        alice.click("#new-chat")
        alice.fill("#new-chat-name", username("bob"))
        alice.click("#dialog-buttons button:has-text('Start')")
        expect(alice.locator("#conversation-title")).to_have_text(username("bob"))
        alice.fill("#text", "hello bob")
        started = time.time()
        alice.keyboard.press("Enter")
        expect(message(alice, "hello bob")).to_be_visible()
        expect(bob.locator("#inbox li", has_text="alice")).to_be_visible()
        log(f"live: bob's inbox showed alice's first message {1000 * (time.time() - started):.0f} ms after Enter")
        checker.accessible(bob, "inbox")
        open_conversation(bob, username("alice"))
        expect(message(bob, "hello bob")).to_be_visible()
        bob.fill("#text", "hi alice")
        bob.keyboard.press("Enter")
        expect(message(alice, "hi alice")).to_be_visible()
        # Read: bob has the conversation open, so alice's message gets bob's read receipt.
        expect(message(alice, "hello bob").locator(".status")).to_have_attribute("aria-label", "Read")

        # HTML and script in a message are text.
        hostile = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script><b>bold</b>'
        alice.fill("#text", hostile)
        alice.keyboard.press("Enter")
        expect(message(bob, "window.pwned=2")).to_be_visible()
        assert message(bob, "window.pwned=2").locator(".body").inner_text() == hostile
        assert message(bob, "window.pwned=2").locator("img, script, b").count() == 0
        assert bob.evaluate("window.pwned") is None
        log("a message holding HTML and script is shown as text")

        # An attachment round trip, and an image inline.
        payload = os.urandom(300_000)
        attachment = os.path.join(WORK, "report.bin")
        with open(attachment, "wb") as file:
            file.write(payload)
        png = square_png(16)
        image = os.path.join(WORK, "dot.png")
        with open(image, "wb") as file:
            file.write(png)
        alice.set_input_files("#file", [attachment, image])
        expect(alice.locator("#staged li")).to_have_count(2)
        alice.fill("#text", "the report and a dot")
        alice.keyboard.press("Enter")
        alice.wait_for_function(
            "() => [...document.querySelectorAll('#messages img.thumb')].some(i => i.complete && i.naturalWidth === 16)")
        received = message(bob, "the report and a dot")
        expect(received.locator("button[data-attachment]")).to_be_visible()
        expect(received.locator("img.thumb")).to_be_visible()
        bob.wait_for_function(
            "() => [...document.querySelectorAll('#messages img.thumb')].some(i => i.complete && i.naturalWidth === 16)")
        with bob.expect_download() as download:
            received.locator("button[data-attachment]").click()
        saved = download.value.path()
        with open(saved, "rb") as file:
            got = file.read()
        assert hashlib.sha256(got).hexdigest() == hashlib.sha256(payload).hexdigest(), "the attachment's bytes differ"
        log(f"attachment: {len(payload)} bytes through the page, SHA-256 matching; the image shown inline")
        checker.accessible(bob, "conversation")

        # A reaction, an edit, a delete.
        target = message(bob, "hello bob")
        target.focus()
        target.locator("button:has-text('React')").click()
        bob.click("#dialog-buttons button:has-text('👍')")
        expect(message(alice, "hello bob").locator(".reactions")).to_contain_text("👍 1")
        own = message(alice, "hello bob")
        own.focus()
        own.locator("button:has-text('Edit')").click()
        alice.fill("#text", "hello bob, edited")
        alice.keyboard.press("Enter")
        expect(message(bob, "hello bob, edited")).to_be_visible()
        expect(message(bob, "hello bob, edited").locator(".edited")).to_be_visible()
        doomed = message(alice, "window.pwned=2")
        doomed.focus()
        doomed.locator("button:has-text('Delete for everyone')").click()
        alice.click("#dialog-buttons button:has-text('Delete')")
        expect(bob.locator("#messages .deleted")).to_have_count(1)
        log("a reaction, an edit and a delete reached the other page")

        # A voice note from the microphone: recorded, sent on stop, played on both sides with its measured length.
        alice.click("#record")
        expect(alice.locator("#record")).to_have_attribute("aria-pressed", "true")
        time.sleep(2.2)
        alice.click("#record")
        expect(alice.locator("#record")).to_have_attribute("aria-pressed", "false")
        for page in (alice, bob):
            expect(page.locator("#messages .voice-label").last).to_have_text(re.compile(r"Voice note \(0:0[2-4]\)"))
            expect(page.locator("#messages audio").last).to_have_attribute("aria-label", re.compile("Voice note"))
        note = bob.evaluate("""async () => {
            const items = [...document.querySelectorAll('#messages li.msg')].filter(m => m.querySelector('.voice-label'));
            const id = items[items.length - 1].id.slice(2);
            const [info] = await (await fetch(`/api/messages/${id}/attachments`)).json();
            const audio = await (await fetch(`/api/attachments/${info.id}`)).arrayBuffer();
            return { info, header: String.fromCharCode(...new Uint8Array(audio.slice(0, 4))), size: audio.byteLength };
        }""")
        assert note["info"]["voiceNote"] and note["info"]["contentType"] == "audio/wav", note["info"]
        assert note["header"] == "RIFF" and 2000 <= note["info"]["durationMilliseconds"] <= 4500, note
        log(f"a voice note: {note['info']['durationMilliseconds']} ms recorded in alice's page, a {note['size']}-byte WAV in bob's")

        # A group of three.
        alice.click("#new-group")
        alice.fill("#group-name", "Climbers")
        alice.fill("#group-members", f"{username('bob')}, {username('carol')}")
        checker.accessible(alice, "new-group")
        alice.click("#dialog-buttons button:has-text('Create')")
        expect(alice.locator("#conversation-title")).to_have_text("Climbers")
        alice.fill("#text", "group hello")
        alice.keyboard.press("Enter")
        expect(carol.locator("#inbox li", has_text="Climbers")).to_be_visible()
        open_conversation(carol, "Climbers")
        expect(message(carol, "group hello")).to_be_visible()
        carol.fill("#text", "carol here")
        carol.keyboard.press("Enter")
        expect(message(alice, "carol here")).to_be_visible()
        alice.fill("#text", f"@{username('carol')} can you bring the rope?")
        alice.keyboard.press("Enter")
        expect(message(carol, "can you bring the rope").locator("strong.mention")).to_have_text(f"@{username('carol')}")
        open_conversation(bob, "Climbers")
        expect(message(bob, "carol here")).to_be_visible()
        alice.click("#group-info")
        expect(alice.locator("#dialog")).to_be_visible()
        expect(alice.locator("#dialog-body li")).to_have_count(3)
        checker.accessible(alice, "group")
        alice.keyboard.press("Escape")
        expect(alice.locator("#dialog")).to_be_hidden()
        log("a group of three: made, written to and answered from each page")

        # A group the server keeps: Alice its administrator, an invite link Carol joins by.
        alice.click("#new-group")
        alice.fill("#group-name", "Rope team")
        alice.fill("#group-members", username("bob"))
        alice.check("#group-server")
        checker.accessible(alice, "new-server-group")
        alice.click("#dialog-buttons button:has-text('Create')")
        expect(alice.locator("#conversation-title")).to_have_text("Rope team")
        alice.click("#group-info")
        expect(alice.locator("#dialog-body li", has_text="(you) · admin")).to_have_count(1)
        expect(alice.locator("#dialog-body button", has_text="Make admin")).to_have_count(1)
        alice.select_option("#group-link", "open")
        alice.click("#dialog-buttons button:has-text('Save')")
        expect(alice.locator("#dialog")).to_be_hidden()
        alice.click("#group-info")
        invite = alice.locator("#group-link-url").input_value()
        assert invite.startswith("https://parley.link/group/#"), invite
        checker.accessible(alice, "server-group")
        alice.keyboard.press("Escape")
        carol.click("#join-group")
        carol.fill("#join-link", invite)
        carol.click("#dialog-buttons button:has-text('Join')")
        expect(carol.locator("#conversation-title")).to_have_text("Rope team")
        carol.fill("#text", "on the rope")
        carol.keyboard.press("Enter")
        expect(alice.locator("#inbox li", has_text="Rope team")).to_be_visible()
        open_conversation(alice, "Rope team")
        expect(message(alice, "on the rope")).to_be_visible()
        log("a server-stored group: made with an administrator, its invite link turned on, joined by link from another page")

        # A pinned conversation stays on top while another one gets newer messages.
        open_conversation(alice, "Climbers")
        alice.click("#pin")
        expect(alice.locator("#pin")).to_have_text("Unpin")
        open_conversation(bob, username("alice"))
        bob.fill("#text", "newer than the group")
        bob.keyboard.press("Enter")
        expect(alice.locator("#inbox li", has_text="newer than the group")).to_be_visible()
        expect(alice.locator("#inbox li").first).to_contain_text("📌")
        expect(alice.locator("#inbox li").first).to_contain_text("Climbers")
        log("a pinned conversation stays at the top of the inbox")

        # Safety numbers: the same digits on both sides; verified.
        open_conversation(alice, username("bob"))
        alice.click("#safety")
        alice_digits = alice.locator("#safety-digits").inner_text().split()
        alice.wait_for_function("() => { const i = document.querySelector('#safety-qr'); return i && i.complete && i.naturalWidth > 0 }")
        scannable = scan(alice.locator("#safety-qr"))
        assert len(scannable) > 60 and scannable[0] == 0x08, f"the safety number's QR code: {scannable.hex()}"
        log(f"the safety number's QR code reads back (zbar) as a {len(scannable)}-byte scannable fingerprint")
        checker.accessible(alice, "safety-number")
        alice.click("#dialog-buttons button:has-text('Mark as verified')")
        open_conversation(bob, username("alice"))
        bob.click("#safety")
        bob_digits = bob.locator("#safety-digits").inner_text().split()
        bob.keyboard.press("Escape")
        assert alice_digits == bob_digits and len(alice_digits) == 12, (alice_digits, bob_digits)
        log("safety numbers match on both pages (12 groups of five digits)")

        # Keyboard: the inbox with arrow keys, Enter to open.
        alice.locator("#inbox li").first.focus()
        alice.keyboard.press("ArrowDown")
        alice.keyboard.press("Enter")
        expect(alice.locator("#conversation-title")).not_to_have_text("Choose a conversation")
        open_conversation(alice, username("bob"))

        # Settings, search.
        alice.click("#settings")
        expect(alice.locator("#setting-receipts")).to_be_visible()
        checker.accessible(alice, "settings")
        alice.keyboard.press("Escape")

        # The PIN backup, stored from Settings (restored on a new machine below).
        alice.click("#settings")
        alice.click("#setting-backup")
        expect(alice.locator("#backup-status")).to_contain_text("No backup")
        alice.fill("#backup-pin", "4711 rope")
        alice.fill("#backup-pin-again", "4711 ropes")
        alice.click("#dialog-buttons button:has-text('Store backup')")
        expect(alice.locator("#dialog-error")).to_have_text("The two PINs differ")
        alice.fill("#backup-pin-again", "4711 rope")
        alice.click("#dialog-buttons button:has-text('Store backup')")
        expect(alice.locator("#dialog")).to_be_hidden(timeout=60_000)
        alice.click("#settings")
        alice.click("#setting-backup")
        expect(alice.locator("#backup-status")).to_contain_text("Stored")
        checker.accessible(alice, "backup")
        alice.keyboard.press("Escape")
        # Another username, taken from Settings (the server keeps only its hash): Signal's rules refused with their
        # words, the link shown as text and as a QR code that zbar reads back, and carol finding alice by the whole
        # username.
        alice.click("#settings")
        alice.click("#setting-username")
        expect(alice.locator("#username-current")).to_contain_text(username("alice"))
        alice.fill("#username-nickname", "0wanderer")
        alice.click("#dialog-buttons button:has-text('Take username')")
        expect(alice.locator("#dialog-error")).to_contain_text("digit")
        alice.fill("#username-nickname", "Wanderer")
        alice.fill("#username-number", "27")
        alice.click("#dialog-buttons button:has-text('Take username')")
        expect(alice.locator("#username-current")).to_contain_text("Wanderer.27")
        link = alice.locator("#username-link").inner_text().strip()
        assert link.startswith("parley://username/"), link
        expect(alice.locator("#username-qr")).to_be_visible()
        alice.wait_for_function("() => { const i = document.querySelector('#username-qr'); return i && i.complete && i.naturalWidth > 0 }")
        scanned = scan(alice.locator("#username-qr")).decode()
        assert scanned == link, f"the QR code holds {scanned!r}, the page shows {link!r}"
        checker.accessible(alice, "username")
        alice.keyboard.press("Escape")
        carol.click("#new-chat")
        carol.fill("#new-chat-name", "wanderer.27")
        carol.click("#dialog-buttons button:has-text('Start')")
        expect(carol.locator("#conversation-title")).to_have_text("wanderer.27")
        carol.fill("#text", "found you by your username")
        carol.keyboard.press("Enter")
        expect(alice.locator("#inbox li", has_text="found you by your username")).to_be_visible()
        log(f"username: alice took Wanderer.27 (link {link[:30]}…, read back from its QR code); carol found her by it")
        # A push target: a public endpoint is registered, an http:// one refused with the server's words. (An address,
        # not a name: nothing here resolves names, and a push the server tried would wait on the resolver.)
        alice.click("#settings")
        alice.click("#setting-push")
        expect(alice.locator("#push-status")).to_contain_text("Not woken")
        alice.fill("#push-endpoint", "http://push.example.com/parley")
        alice.click("#dialog-buttons button:has-text('Register')")
        expect(alice.locator("#dialog-error")).to_contain_text("https")
        alice.fill("#push-endpoint", "https://203.0.113.7/parley-web-test")
        alice.click("#dialog-buttons button:has-text('Register')")
        expect(alice.locator("#dialog")).to_be_hidden()
        alice.click("#settings")
        alice.click("#setting-push")
        expect(alice.locator("#push-status")).to_contain_text("https://203.0.113.7/parley-web-test")
        checker.accessible(alice, "push")
        alice.click("#dialog-buttons button:has-text('Stop waking')")
        alice.click("#settings")
        alice.click("#setting-push")
        expect(alice.locator("#push-status")).to_contain_text("Not woken")
        alice.keyboard.press("Escape")
        # Duplicate content detection's own checks, as `parley dcd verify` prints them.
        alice.click("#settings")
        alice.click("#setting-checks")
        expect(alice.locator("#content-checks li").first).to_be_visible()
        checks = alice.locator("#content-checks li").all_inner_texts()
        assert any("configuration" in c for c in checks), checks
        # A file looked up without sending it, as `parley dcd check` does: a blocked one, and an unknown one.
        banned = b"a file the operator blocked\n" * 10
        server.block(banned)
        banned_file = os.path.join(WORK, "banned.bin")
        with open(banned_file, "wb") as file:
            file.write(banned)
        alice.set_input_files("#check-file", banned_file)
        alice.click("#check-file-button")
        expect(alice.locator("#check-result")).to_contain_text("banned.bin: BLOCKED")
        expect(alice.locator("#check-result")).to_contain_text(hashlib.sha256(banned).hexdigest())
        alice.set_input_files("#check-file", image)
        alice.click("#check-file-button")
        # Sent earlier, the image may be in the "seen" bank: anything but blocked.
        expect(alice.locator("#check-result")).to_have_text(re.compile(r"dot\.png: (not found|seen before)"))
        checker.accessible(alice, "content-checks")
        alice.keyboard.press("Escape")
        log(f"settings: a PIN backup stored, a push target registered and removed, {len(checks)} content checks shown, "
            "a file in the blocked bank found BLOCKED and another not")

        alice.fill("#search", "report")
        alice.keyboard.press("Enter")
        expect(alice.locator("#inbox li", has_text="the report and a dot")).to_be_visible()
        alice.click("#search-clear")

        # A second machine joins alice's account from its page: a link code, approved from alice's Devices.
        laptop_web = Web("alice-laptop", server)
        people["alice-laptop"] = laptop_web
        laptop_context = browser.new_context(viewport={"width": 1200, "height": 800})
        laptop = laptop_context.new_page()
        laptop.goto(laptop_web.address)
        laptop.click("#link-start")
        expect(laptop.locator("#link-code")).to_contain_text("parley://link?")
        code = laptop.locator("#link-code").inner_text().strip()
        laptop.wait_for_function("() => { const i = document.querySelector('#link-qr'); return i.complete && i.naturalWidth > 0 }")
        assert scan(laptop.locator("#link-qr")) == code.encode(), "the link code's QR code does not read back as the code"
        log("the link code's QR code, read from the page by zbar, is the code")
        checker.accessible(laptop, "link")
        alice.click("#settings")
        alice.click("#dialog-buttons button:has-text('Devices')")
        alice.fill("#device-code", code)
        alice.click("#dialog-buttons button:has-text('Link device')")
        expect(laptop.locator("#me")).to_have_text("Signed in as Wanderer.27", timeout=60_000)
        alice.click("#settings")
        alice.click("#dialog-buttons button:has-text('Devices')")
        expect(alice.locator("#dialog-body li")).to_have_count(2)
        checker.accessible(alice, "devices")
        alice.keyboard.press("Escape")
        bob.fill("#text", "to all of alice's devices")
        bob.keyboard.press("Enter")
        expect(laptop.locator("#inbox li", has_text="bob")).to_be_visible()
        open_conversation(laptop, username("bob"))
        expect(message(laptop, "to all of alice's devices")).to_be_visible()
        log("a second machine linked from its page with a code approved in alice's Devices, and received bob's message")

        # The server goes away: a banner, a message that waits, delivered when it is back.
        server.stop()
        expect(alice.locator("#banner")).to_be_visible()
        alice.fill("#text", "sent while the server was away")
        alice.keyboard.press("Enter")
        expect(message(alice, "sent while the server was away")).to_be_visible()
        checker.accessible(alice, "offline")
        server.start()
        expect(alice.locator("#banner")).to_be_hidden(timeout=90_000)
        expect(message(bob, "sent while the server was away")).to_be_visible(timeout=90_000)
        log("offline: the banner showed, the message waited and reached bob once the server was back")

        # A reload keeps everything.
        alice.reload()
        expect(alice.locator("#inbox li", has_text="Climbers")).to_be_visible()
        open_conversation(alice, username("bob"))
        expect(message(alice, "sent while the server was away")).to_be_visible()
        expect(message(alice, "hello bob, edited")).to_be_visible()
        alice.wait_for_function(
            "() => [...document.querySelectorAll('#messages img.thumb')].some(i => i.complete && i.naturalWidth === 16)")
        checker.accessible(alice, "reloaded")

        # A phone's screen, and the dark theme.
        phone = browser.new_context(viewport={"width": 375, "height": 740}, color_scheme="dark")
        # A second browser for alice needs a new one-time address: the first is spent. Reuse the signed-in cookie.
        phone.add_cookies([{"name": c["name"], "value": c["value"], "url": f"http://127.0.0.1:{people['alice'].port}/"}
                           for c in alice.context.cookies()])
        small = phone.new_page()
        small.goto(f"http://127.0.0.1:{people['alice'].port}/")
        expect(small.locator("#inbox li").first).to_be_visible()
        checker.accessible(small, "phone-inbox")
        small.locator("#inbox li", has_text="bob").first.click()
        expect(message(small, "hello bob, edited")).to_be_visible()
        expect(small.locator("#back")).to_be_visible()
        wide = small.evaluate("""() => [...document.querySelectorAll('body *')]
            .filter(e => e.getBoundingClientRect().right > 375 && e.getClientRects().length)
            .map(e => `${e.tagName.toLowerCase()}#${e.id}.${e.className} right ${Math.round(e.getBoundingClientRect().right)}`)""")
        assert small.evaluate("document.documentElement.scrollWidth") <= 375, f"the page is wider than a phone's screen: {wide[:8]}"
        checker.accessible(small, "phone-conversation")

        # alice's machine is lost: a new machine's page restores the account from the backup and the PIN.
        restored_web = Web("alice-restored", server)
        people["alice-restored"] = restored_web
        restored = browser.new_context(viewport={"width": 1200, "height": 800}).new_page()
        restored.goto(restored_web.address)
        restored.fill("#restore-username", "wanderer.27")
        restored.fill("#restore-pin", "4711 rope")
        restored.click("#restore-form button[type=submit]")
        # The backup was made while alice went by alice.11: it is kept under her account id, so her new username finds
        # it (shown as typed: the backup knows only the old one's case).
        expect(restored.locator("#me")).to_have_text(re.compile("^Signed in as wanderer\\.27$", re.IGNORECASE), timeout=90_000)
        bob.fill("#text", "welcome back")
        bob.keyboard.press("Enter")
        expect(restored.locator("#inbox li", has_text="bob")).to_be_visible(timeout=60_000)
        open_conversation(restored, username("bob"))
        expect(message(restored, "welcome back")).to_be_visible()
        checker.accessible(restored, "restored")
        log("a new machine's page restored alice's account from the PIN backup and received bob's next message")
        browser.close()

    for web in people.values():
        web.stop()
    server.stop()
    log(f"screenshots ({', '.join(checker.screens)}) in {SHOTS}")
    log("WEB OK")


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        main()
    except AssertionError as error:
        log(f"FAILED: {error}")
        sys.exit(1)
    finally:
        stop_everything()
