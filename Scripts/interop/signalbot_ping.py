#!/usr/bin/env python3
"""A bot on PyPI's signalbot (2.x), the bot framework for signal-cli-rest-api, run against `parley rest-api`.

Run by Tests/ParleyServerIntegrationTests/SignalCLICompatibilityTests.swift:
  signalbot_ping.py HOST:PORT +NUMBER ANSWERS
It answers "ping" with "pong" wherever it is asked (1:1 or a group), showing itself typing while it answers, and a
message that mentions it with "hi" and a mention of the sender, and prints one line per event for the test:
  READY             the receive WebSocket is open (send pings after this)
  TYPING <chat> <action>  someone typing (STARTED or STOPPED), <chat> as for PONG
  PONG <chat>       one answer: the sender's UUID for a 1:1 chat, the REST group id (group.…) for a group
  MENTIONED <chat>  it was mentioned (by number and account id) and answered with a mention of the sender
  DONE <n>          after ANSWERS answers and someone typing in a group (exit 0);  TIMEOUT <n> after 60 s (exit 1)
"""
import sys
import types
from datetime import datetime, timedelta

import signalbot._client.messages as receive_loop
from signalbot import (DataMessageContext, DataMessageHandler, MessageMention, SendMessage, SignalBot, TypingContext, TypingHandler,
                       text_triggered)

service, number, wanted = sys.argv[1], sys.argv[2], int(sys.argv[3])
state = {"pongs": 0, "ready": False, "finished": False, "group_typing": False}


def say(line):
    print(line, flush=True)


# signalbot opens its receive WebSocket inside its client; wrapping that one call tells the test when pings can go.
real_connect = receive_loop.websockets.connect


class AnnouncingConnect:
    def __init__(self, *args, **kwargs):
        self.connection = real_connect(*args, **kwargs)

    async def __aenter__(self):
        socket = await self.connection.__aenter__()
        if not state["ready"]:
            state["ready"] = True
            say("READY")
        return socket

    async def __aexit__(self, *error):
        return await self.connection.__aexit__(*error)


receive_loop.websockets = types.SimpleNamespace(connect=AnnouncingConnect)


def chat_of(bot, message):
    chat = message.source_or_group_id()
    if message.is_group():
        chat = bot.groups.get_id(chat) or chat
    return chat


def answered(bot, message, kind):
    chat = chat_of(bot, message)
    state["pongs"] += 1
    say(f"{kind} {chat}")
    finish_when_done(bot)


def finish_when_done(bot):
    if state["pongs"] >= wanted and state["group_typing"] and not state["finished"]:
        state["finished"] = True
        say(f"DONE {state['pongs']}")
        bot.request_stop()


class Ping(DataMessageHandler):
    def __init__(self, bot):
        self.bot = bot

    @text_triggered("ping")
    async def handle_data_message(self, context: DataMessageContext):
        # PUT and DELETE /v1/typing-indicator: signalbot raises if either is refused.
        await context.start_typing()
        await context.send(SendMessage(text="pong"))
        await context.stop_typing()
        answered(self.bot, context.message, "PONG")


class Typing(TypingHandler):
    def __init__(self, bot):
        self.bot = bot

    async def handle_typing(self, context: TypingContext):
        chat = chat_of(self.bot, context.message)
        say(f"TYPING {chat} {context.message.action}")
        if chat.startswith("group."):
            state["group_typing"] = True
            finish_when_done(self.bot)


class Mentioned(DataMessageHandler):
    """Answers a message that mentions this bot (as signal-cli presents a mention: number, uuid, start, length)."""

    def __init__(self, bot):
        self.bot = bot

    async def handle_data_message(self, context: DataMessageContext):
        message = context.message
        mine = [m for m in (message.mentions or []) if m.number == number and m.uuid and m.length >= 1]
        if not mine or message.text is None:
            return
        # The mention's range is in UTF-16 units of the text, as Signal counts.
        units = message.text.encode("utf-16-le")
        if units[2 * mine[0].start:2 * (mine[0].start + mine[0].length)].decode("utf-16-le") != "@" + number.lstrip("+"):
            say(f"BAD MENTION RANGE {mine[0]} in {message.text!r}")
            return
        sender = message.source_uuid
        await context.send(SendMessage(text="hi \ufffc", mentions=[MessageMention(author=sender, start=3, length=1)]))
        answered(self.bot, message, "MENTIONED")


def main():
    bot = SignalBot({"signal_service": service, "phone_number": number, "connection_mode": "http_only",
                     "storage": {"type": "in-memory"}, "download_attachments": False})
    bot.register(Ping(bot), contacts=True, groups=True)
    bot.register(Mentioned(bot), contacts=True, groups=True)
    bot.register(Typing(bot), contacts=True, groups=True)

    async def give_up():
        if not state["finished"]:
            state["finished"] = True
            say(f"TIMEOUT {state['pongs']}")
            bot.request_stop()

    bot.scheduler.add_job(give_up, "date", run_date=datetime.now() + timedelta(seconds=60))
    bot.start()
    return 0 if state["pongs"] >= wanted else 1


if __name__ == "__main__":
    sys.exit(main())
