#!/usr/bin/env python3
"""A bot built on pysignalclijsonrpc (PyPI), the signal-cli JSON-RPC client library, driving `parley daemon --http`.

Run by Tests/ParleyServerIntegrationTests/SignalCLICompatibilityTests.swift against a real parley-server:
  signal_cli_jsonrpc_client.py BASE ACCOUNT PEER PEER2
BASE is the daemon's http://HOST:PORT; ACCOUNT, PEER and PEER2 are +digits numbers of Parley accounts whose usernames are
those digits. Prints one line per step (the test reads them); "LISTENING" means the event stream is open and the test
should make PEER send ACCOUNT a message; exits non-zero on the first step that does not behave as signal-cli's would.
"""
import json
import sys

import requests
from pysignalclijsonrpc import SignalCliJSONRPCApi, SignalCliJSONRPCError


def check(condition, what):
    if not condition:
        print(f"FAILED {what}", flush=True)
        sys.exit(1)


def read_events(base, count, last_event_id=None, timeout=60):
    """The first `count` `receive` events on GET /api/v1/events as (id, parameters), parsed as a browser's EventSource
    would; `last_event_id` is sent as an EventSource sends it when it reconnects."""
    headers = {"Accept": "text/event-stream"}
    if last_event_id is not None:
        headers["Last-Event-ID"] = last_event_id
    events = []
    with requests.get(f"{base}/api/v1/events", stream=True, headers=headers, timeout=(5, timeout)) as res:
        res.raise_for_status()
        check(res.headers.get("Content-Type", "").startswith("text/event-stream"), "events content type")
        print("LISTENING", flush=True)
        event_id, event, data = None, None, []
        for raw in res.iter_lines(decode_unicode=True):
            line = (raw or "").rstrip("\r")
            if line == "":
                if data and event in (None, "receive"):
                    events.append((event_id, json.loads("\n".join(data))))
                    if len(events) == count:
                        return events
                event, data = None, []
            elif line.startswith(":"):
                continue
            else:
                field, _, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                if field == "event":
                    event = value
                elif field == "data":
                    data.append(value)
                elif field == "id":
                    event_id = value
    return events


def main():
    base, account, peer, peer2 = sys.argv[1:5]
    api = SignalCliJSONRPCApi(endpoint=f"{base}/api/v1/rpc", account=account)

    print(f"version {api.version}", flush=True)

    sent = api.send_message(recipients=[peer], message="hello from pysignalclijsonrpc")
    check(len(sent["timestamps"]) == 1, f"one timestamp for a 1:1 send: {sent}")
    timestamp, recipients = next(iter(sent["timestamps"].items()))
    check(recipients["recipients"] == [peer], f"the send reached {peer}: {sent}")
    print(f"sent {timestamp}", flush=True)

    reaction = api.send_reaction(recipient=peer, emoji="\N{THUMBS UP SIGN}", target_author=account, target_timestamp=timestamp)
    check(isinstance(reaction, int) and reaction > 0, f"a reaction timestamp: {reaction}")
    print("reacted", flush=True)

    group_id = api.update_group(name="Bots", members=[peer, peer2], description="made by pysignalclijsonrpc")
    check(isinstance(group_id, str) and group_id, f"a group id: {group_id}")
    group = api.get_group(group_id)[0]
    members = sorted(member["number"] for member in group.get("members", []))
    check(group.get("name") == "Bots" and group.get("isMember") is True, f"the group is listed: {group}")
    check(members == sorted([account, peer, peer2]), f"the group's members: {members}")
    print(f"group {group_id}", flush=True)

    # A mention as signal-cli takes it (START:LENGTH:RECIPIENT, UTF-16 offsets): "@carol" in the group's text.
    to_group = api.send_message(recipients=[group_id], message="hello group, @carol", mention=f"13:6:{peer2}")
    group_recipients = next(iter(to_group["timestamps"].values()))["recipients"]
    check(group_recipients and all(entry == group_id for entry in group_recipients), f"the group send: {to_group}")
    print("sent to group", flush=True)

    # Recipients this library cannot name (letters) are dropped by it, not refused by the daemon: nothing is sent.
    check(api.send_message(recipients=["not-a-number"], message="dropped") == {"timestamps": {}}, "a dropped recipient")

    events = read_events(base, 1)
    check(len(events) == 1, "an event arrived")
    last_id, event = events[0]
    envelope = event["envelope"]
    check(event["account"] == account and envelope["sourceNumber"] == peer, f"the event names both ends: {event}")
    print(f"EVENT {envelope['dataMessage']['message']}", flush=True)

    # The bot goes away; messages arrive meanwhile; reconnecting with the last id it saw hands over exactly those.
    print("AWAY", flush=True)
    check(sys.stdin.readline().strip() == "SENT", "the test's go-ahead")
    missed = read_events(base, 2, last_event_id=last_id, timeout=20)
    texts = [payload["envelope"]["dataMessage"]["message"] for _, payload in missed]
    check(texts == ["while away 1", "while away 2"], f"the messages missed, once each and in order: {texts}")
    print("CAUGHT UP", flush=True)

    api.quit_group(groupid=group_id)
    check(api.get_group(group_id)[0].get("isMember") is False, "the group was left")
    print("left group", flush=True)

    try:
        api._jsonrpc(method="noSuchMethod")  # the library's own transport, for a method signal-cli would not know either
        check(False, "an unknown method answered")
    except SignalCliJSONRPCError as error:
        check("Method not implemented" in str(error), f"an unknown method's error: {error}")
    raw = requests.post(f"{base}/api/v1/rpc", json={"jsonrpc": "2.0", "id": 7, "method": "sendReaction", "params": {}}).json()
    check(raw["id"] == 7 and raw["error"]["code"] == -1, f"a user error in signal-cli's code: {raw}")
    # setPin / removePin (not in this library): the PIN that protects the identity backup on the server.
    for request_id, method, params in [(8, "setPin", {"pin": "424242"}), (9, "removePin", {})]:
        raw = requests.post(f"{base}/api/v1/rpc", json={"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}).json()
        check(raw.get("result") == {}, f"{method}: {raw}")
    # updateAccount --username, --delete-username (the library's own transport; it has no wrapper for them): the server
    # keeps only the username's hash; getUserStatus finds the account by `u:` and the whole username.
    taken = api._jsonrpc(method="updateAccount", params={"username": "pybot"})
    check(taken["username"].startswith("pybot.") and taken["usernameLink"].startswith("parley://username/"), f"updateAccount: {taken}")
    found = api._jsonrpc(method="getUserStatus", params={"recipient": [f"u:{taken['username']}"]})
    check(found[0]["isRegistered"] is True and found[0]["uuid"], f"found by username: {found}")
    try:
        api._jsonrpc(method="updateAccount", params={"username": "0pybot"})
        check(False, "a nickname starting with a digit was taken")
    except SignalCliJSONRPCError as error:
        check("invalid username" in str(error).lower(), f"a bad nickname's error: {error}")
    check(api._jsonrpc(method="updateAccount", params={"deleteUsername": True}) == {"username": None, "usernameLink": None}, "deleteUsername")
    print(f"username {taken['username']}", flush=True)
    print("OK", flush=True)


if __name__ == "__main__":
    main()
