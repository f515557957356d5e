#!/usr/bin/env python3
"""A bot on PyPI's signalbot (2.x), the bot framework for signal-cli-rest-api, run against `parley rest-api`.

Run by Tests/ParleyServerIntegrationTests/SignalCLICompatibilityTests.swift:
  signalbot_ping.py HOST:PORT +NUMBER PINGS
It answers "ping" with "pong" wherever it is asked (1:1 or a group) and prints one line per event for the test:
  READY          the receive WebSocket is open (send pings after this)
  PONG <chat>    one answer: the sender's UUID for a 1:1 chat, the REST group id (group.…) for a group
  DONE <n>       after PINGS answers (exit 0);  TIMEOUT <n> after 60 s (exit 1)
"""
import sys
import types
from datetime import datetime, timedelta

import signalbot._client.messages as receive_loop
from signalbot import DataMessageContext, DataMessageHandler, SendMessage, SignalBot, text_triggered

service, number, wanted = sys.argv[1], sys.argv[2], int(sys.argv[3])
state = {"pongs": 0, "ready": False, "finished": False}


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


class Ping(DataMessageHandler):
    def __init__(self, bot):
        self.bot = bot

    @text_triggered("ping")
    async def handle_data_message(self, context: DataMessageContext):
        await context.send(SendMessage(text="pong"))
        message = context.message
        chat = message.source_or_group_id()
        if message.is_group():
            chat = self.bot.groups.get_id(chat) or chat
        state["pongs"] += 1
        say(f"PONG {chat}")
        if state["pongs"] >= wanted and not state["finished"]:
            state["finished"] = True
            say(f"DONE {state['pongs']}")
            self.bot.request_stop()


def main():
    bot = SignalBot({"signal_service": service, "phone_number": number, "connection_mode": "http_only",
                     "storage": {"type": "in-memory"}, "download_attachments": False})
    bot.register(Ping(bot), contacts=True, groups=True)

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
