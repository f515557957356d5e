#!/usr/bin/env python3
"""APNs, FCM HTTP v1 (with Google's OAuth token endpoint) and a Web Push service, as their documentation describes them,
on one loopback TLS port (ALPN h2 and http/1.1, hypercorn), checking what the Parley server sends with independent
libraries: PyJWT and cryptography for the ES256/RS256 tokens, py-vapid for VAPID (RFC 8292), http-ece for RFC 8291.

Run by the push notification tests in Tests/ParleyServerIntegrationTests:
  push_providers.py WORKDIR [APNS_TOPIC]          (APNS_TOPIC defaults to org.parley.test)
It writes into WORKDIR what a server needs to reach it, made fresh on each run:
  ca.pem, server-key.pem       the listener's self-signed certificate (its own CA; SAN 127.0.0.1 and localhost)
  apns-key.p8, apns.json       Apple's token-signing key (PKCS#8) and {keyId, teamId, topic, url}
  fcm-service-account.json     a Google service account (RSA key, token_uri on this port); fcm.json {url, projectId}
  webpush-subscriptions.json   8 subscriptions it can decrypt: sub0…sub5, gone0, throttled-once0
and prints one line, READY <port>, once https://127.0.0.1:<port> answers. A valid request is accepted unless its
device token or subscription id says otherwise: unregistered… (APNs 410, FCM 404), baddevice… (APNs 400), gone…
(Web Push 410), throttled-once… (429 the first time), unavailable-once… (FCM 503 the first time).
GET /_received[?provider=apns|fcm|oauth|webpush|unknown] lists every request, accepted or not, as JSON;
POST /_reset forgets them and the throttled-once answers given.
It stops on SIGTERM or SIGINT, when its parent exits, or at the end of standard input when that is a pipe.
"""
import asyncio
import base64
import datetime
import ipaddress
import json
import os
import re
import secrets
import signal
import socket
import ssl
import stat
import sys
import time
import uuid
from urllib.parse import parse_qs

import http_ece
import jwt
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
from hypercorn.asyncio import serve
from hypercorn.config import Config
from py_vapid import Vapid

parent = os.getppid()
workdir = sys.argv[1]
apns_topic = sys.argv[2] if len(sys.argv) > 2 else "org.parley.test"
with socket.socket() as probe:
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
origin = f"https://127.0.0.1:{port}"


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def pkcs8(key):
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption()).decode()


def write(name, content):
    with open(os.path.join(workdir, name), "w") as file:
        file.write(content if isinstance(content, str) else json.dumps(content, indent=2))


# The listener's certificate is its own CA, so ca.pem can be a client's only root.
tls_key = ec.generate_private_key(ec.SECP256R1())
subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Parley push providers (test)")])
now = datetime.datetime.now(datetime.timezone.utc)
certificate = (
    x509.CertificateBuilder().subject_name(subject).issuer_name(subject).public_key(tls_key.public_key())
    .serial_number(x509.random_serial_number())
    .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=30))
    .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
    .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=False, content_commitment=False,
                                 key_encipherment=False, data_encipherment=False, key_agreement=False,
                                 encipher_only=False, decipher_only=False), critical=True)
    .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
    .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
                                                x509.DNSName("localhost")]), critical=False)
    .add_extension(x509.SubjectKeyIdentifier.from_public_key(tls_key.public_key()), critical=False)
    .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(tls_key.public_key()), critical=False)
    .sign(tls_key, hashes.SHA256()))
write("ca.pem", certificate.public_bytes(serialization.Encoding.PEM).decode())
write("server-key.pem", pkcs8(tls_key))

apns_key = ec.generate_private_key(ec.SECP256R1())
apns = {"keyId": "ABC123DEFG", "teamId": "DEF123GHIJ", "topic": apns_topic, "url": origin}
write("apns-key.p8", pkcs8(apns_key))
write("apns.json", apns)

fcm_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
account = {"type": "service_account", "project_id": "parley-test", "private_key_id": secrets.token_hex(20),
           "private_key": pkcs8(fcm_key), "client_email": "parley-push@parley-test.iam.gserviceaccount.com",
           "client_id": str(10**20 + secrets.randbelow(9 * 10**20)), "token_uri": origin + "/token"}
write("fcm-service-account.json", account)
write("fcm.json", {"url": origin, "projectId": account["project_id"]})

subscriptions = {}  # id → (private key, auth secret)
for sid in [f"sub{n}" for n in range(6)] + ["gone0", "throttled-once0"]:
    subscriptions[sid] = (ec.generate_private_key(ec.SECP256R1()), secrets.token_bytes(16))
write("webpush-subscriptions.json", [
    {"id": sid, "endpoint": f"{origin}/wp/{sid}",
     "p256dh": b64url(key.public_key().public_bytes(serialization.Encoding.X962,
                                                    serialization.PublicFormat.UncompressedPoint)),
     "auth": b64url(auth)}
    for sid, (key, auth) in subscriptions.items()])

records = []
answered_once = set()  # (provider, target) that already had their one throttled or unavailable answer
access_tokens = {}  # OAuth access token → expiry (epoch seconds)


class Reject(Exception):
    """An answer other than success: status, JSON body, the reason to record, extra response headers."""
    def __init__(self, status, body, error, headers=None):
        super().__init__(error)
        self.status, self.body, self.error, self.headers = status, body, error, headers or {}


def first_time(provider, target):
    if (provider, target) in answered_once:
        return False
    answered_once.add((provider, target))
    return True


# APNs: "Sending notification requests to APNs" and "Handling notification responses from APNs".
# Push types whose topic carries a suffix after the bundle id (token-based authentication).
APNS_TOPIC_SUFFIX = {"alert": "", "background": "", "mdm": "", "voip": ".voip", "complication": ".complication",
                     "fileprovider": ".pushkit.fileprovider", "location": ".location-query",
                     "liveactivity": ".push-type.liveactivity", "pushtotalk": ".voip-ptt"}
UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


def apns_request(method, path, headers, body, scope, entry):
    apns_id = headers.get("apns-id") or str(uuid.uuid4())  # every answer carries one

    def reject(status, reason, detail=None, **extra):
        raise Reject(status, {"reason": reason, **extra}, f"{reason}: {detail}" if detail else reason,
                     {"apns-id": apns_id})
    device = path[len("/3/device/"):]
    entry["target"] = device or None
    if scope["http_version"] != "2":
        reject(505, "HTTP2Required", f"APNs only speaks HTTP/2, this was HTTP/{scope['http_version']}")
    if method != "POST":
        reject(405, "MethodNotAllowed")
    if not headers.get("host"):
        reject(400, "BadPath", "no :authority")
    if not device:
        reject(400, "MissingDeviceToken")
    names = [name.lower() for name, _ in scope["headers"]]
    if len(names) != len(set(names)):
        reject(400, "DuplicateHeaders", ", ".join(sorted({name.decode() for name in names if names.count(name) > 1})))
    scheme, _, token = headers.get("authorization", "").partition(" ")
    if not token:
        reject(403, "MissingProviderToken")
    try:
        if scheme.lower() != "bearer":
            raise jwt.InvalidTokenError(f"authorization scheme {scheme!r} is not bearer")
        header = jwt.get_unverified_header(token)
        claims = jwt.decode(token, apns_key.public_key(), algorithms=["ES256"],
                            options={"verify_iat": False, "verify_exp": False, "require": ["iss", "iat"]})
    except jwt.PyJWTError as error:
        reject(403, "InvalidProviderToken", str(error))
    entry["jwtClaims"] = claims
    if header.get("kid") != apns["keyId"]:
        reject(403, "InvalidProviderToken", f"kid {header.get('kid')!r} is not {apns['keyId']}")
    if claims["iss"] != apns["teamId"]:
        reject(403, "InvalidProviderToken", f"iss {claims['iss']!r} is not {apns['teamId']}")
    if not isinstance(claims["iat"], int) or claims["iat"] > time.time() + 60:
        reject(403, "InvalidProviderToken", f"iat {claims['iat']!r} is not a time up to now")
    if claims["iat"] < time.time() - 3600:
        reject(403, "ExpiredProviderToken", "iat is more than an hour ago")
    push_type, topic = headers.get("apns-push-type"), headers.get("apns-topic")
    if not topic:
        reject(400, "MissingTopic")
    if push_type not in APNS_TOPIC_SUFFIX:
        reject(400, "InvalidPushType", f"apns-push-type {push_type!r}")
    expected_topic = apns_topic + APNS_TOPIC_SUFFIX[push_type]
    if topic != expected_topic:
        reject(400, "TopicDisallowed", f"{push_type} pushes go to {expected_topic}, not {topic}")
    priority = headers.get("apns-priority")
    if priority is not None and priority not in ("1", "5", "10"):
        reject(400, "BadPriority", f"apns-priority {priority!r}")
    if push_type == "background" and priority != "5":
        reject(400, "BadPriority", "background pushes need apns-priority 5")
    if len(headers.get("apns-collapse-id", "").encode()) > 64:
        reject(400, "BadCollapseId", "apns-collapse-id is over 64 bytes")
    if "apns-expiration" in headers and not re.fullmatch(r"\d+", headers["apns-expiration"]):
        reject(400, "BadExpirationDate", f"apns-expiration {headers['apns-expiration']!r}")
    if "apns-id" in headers and not UUID.fullmatch(headers["apns-id"]):
        reject(400, "BadMessageId", f"apns-id {headers['apns-id']!r}")
    if not body:
        reject(400, "PayloadEmpty")
    if len(body) > (5120 if push_type == "voip" else 4096):
        reject(413, "PayloadTooLarge", f"{len(body)} bytes")
    try:
        entry["json"] = json.loads(body)
    except ValueError as error:
        reject(400, "BadPayload", f"not JSON: {error}")  # Apple documents no reason for this; ours says what it is
    if not isinstance(entry["json"], dict) or not isinstance(entry["json"].get("aps"), dict):
        reject(400, "BadPayload", "the payload is not a JSON object with an aps dictionary")
    if device.startswith("unregistered"):
        reject(410, "Unregistered", timestamp=int(time.time() * 1000))
    if device.startswith("baddevice"):
        reject(400, "BadDeviceToken")
    if device.startswith("throttled-once") and first_time("apns", device):
        reject(429, "TooManyRequests")
    return 200, {"apns-id": apns_id}, None


# FCM's OAuth: "Using OAuth 2.0 for Server to Server Applications" (a JWT bearer grant, RFC 7523).
FCM_SCOPE = "https://www.googleapis.com/auth/firebase.messaging"


def oauth_request(method, path, headers, body, scope, entry):
    def refuse(error, description):
        raise Reject(400, {"error": error, "error_description": description}, f"{error}: {description}")
    if method != "POST":
        raise Reject(405, {"error": "invalid_request", "error_description": "POST only"}, f"method {method}")
    if not headers.get("content-type", "").startswith("application/x-www-form-urlencoded"):
        refuse("invalid_request", f"content-type {headers.get('content-type')!r} is not a form")
    form = {name: values[0] for name, values in parse_qs(body.decode("utf-8", "replace")).items()}
    if form.get("grant_type") != "urn:ietf:params:oauth:grant-type:jwt-bearer":
        refuse("unsupported_grant_type", f"Invalid grant_type: {form.get('grant_type', '')}")
    if not form.get("assertion"):
        refuse("invalid_request", "Missing required parameter: assertion")
    try:
        header = jwt.get_unverified_header(form["assertion"])
        claims = jwt.decode(form["assertion"], fcm_key.public_key(), algorithms=["RS256"],
                            audience=account["token_uri"], issuer=account["client_email"],
                            options={"verify_iat": False, "require": ["iss", "aud", "iat", "exp"]})
    except jwt.InvalidSignatureError:
        refuse("invalid_grant", "Invalid JWT Signature.")
    except jwt.PyJWTError as error:
        refuse("invalid_grant", f"Invalid JWT: {error}")
    entry["jwtClaims"] = claims
    if "kid" in header and header["kid"] != account["private_key_id"]:
        refuse("invalid_grant", f"Invalid JWT: kid {header['kid']!r} is not this account's private_key_id")
    if not all(isinstance(claims[name], int) for name in ("iat", "exp")) or claims["iat"] > time.time() + 60 \
            or claims["exp"] - claims["iat"] > 3600:
        refuse("invalid_grant", "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable "
                                "timeframe. Check your iat and exp values in the JWT claim.")
    if FCM_SCOPE not in str(claims.get("scope", "")).split():
        refuse("invalid_scope", f"scope {claims.get('scope')!r} lacks {FCM_SCOPE}")
    token = "ya29." + secrets.token_urlsafe(48)
    access_tokens[token] = time.time() + 3599
    return 200, {}, {"access_token": token, "expires_in": 3599, "token_type": "Bearer"}


# FCM HTTP v1: projects.messages.send, its Message resource and FcmError codes.
def google_error(code, status, message, error_code=None, field=None, headers=None):
    details = []
    if error_code:
        details.append({"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": error_code})
    if field is not None:
        details.append({"@type": "type.googleapis.com/google.rpc.BadRequest",
                        "fieldViolations": [{"field": field, "description": message}]})
    error = {"code": code, "message": message, "status": status, **({"details": details} if details else {})}
    raise Reject(code, {"error": error}, f"{status}: {message}", headers)


def snake(name):  # proto3 JSON accepts both field spellings
    return re.sub(r"[A-Z]", lambda letter: "_" + letter.group().lower(), name)


MESSAGE_FIELDS = {"name", "data", "notification", "android", "webpush", "apns", "fcm_options", "token", "topic",
                  "condition"}
ANDROID_FIELDS = {"collapse_key", "priority", "ttl", "restricted_package_name", "data", "notification",
                  "fcm_options", "direct_boot_ok", "bandwidth_constrained_ok", "restricted_satellite_ok"}


def checked_fcm_request(request):
    """The request with snake_case names, or Google's 400 for the first thing it would refuse in it."""
    def bad(field, description):
        google_error(400, "INVALID_ARGUMENT", description, "INVALID_ARGUMENT", field)

    def known_fields(where, value, allowed):
        if not isinstance(value, dict):
            bad(where, f"Invalid value at '{where}': expected an object")
        for name in value:
            if snake(name) not in allowed:
                at = f" at '{where}'" if where else ""
                bad(f"{where}.{name}".lstrip("."), f'Invalid JSON payload received. Unknown name "{name}"{at}: '
                                                   "Cannot find field.")
        return {snake(name): item for name, item in value.items()}

    def string_map(where, value):
        if not isinstance(value, dict):
            bad(where, f"Invalid value at '{where}': expected a map of strings")
        for key, item in value.items():
            if not isinstance(item, str):
                bad(f"{where}[{key}].value", f"Invalid value at '{where}[{key}].value' ({item!r}), expected a string")

    request = known_fields("", request, {"message", "validate_only"})
    message = request["message"] = known_fields("message", request.get("message"), MESSAGE_FIELDS)
    targets = [name for name in ("token", "topic", "condition") if name in message]
    if len(targets) != 1:
        bad("message", "Recipient of the message is not set." if not targets else "Invalid value at 'message' "
            f"(oneof), oneof field 'target' is already set. Cannot set '{targets[1]}'")
    if not isinstance(message[targets[0]], str) or not message[targets[0]]:
        bad(f"message.{targets[0]}", f"Invalid value at 'message.{targets[0]}': expected a non-empty string")
    string_map("message.data", message.get("data", {}))
    android = known_fields("message.android", message.get("android", {}), ANDROID_FIELDS)
    string_map("message.android.data", android.get("data", {}))
    if str(android.get("priority", "normal")).lower() not in ("normal", "high"):  # Google's enum: NORMAL, HIGH
        bad("message.android.priority", f"Invalid value at 'message.android.priority' ({android['priority']!r})")
    if not isinstance(android.get("collapse_key", ""), str):
        bad("message.android.collapse_key", "Invalid value at 'message.android.collapse_key': expected a string")
    if "ttl" in android and not re.fullmatch(r"\d+(\.\d{1,9})?s", str(android["ttl"])):
        bad("message.android.ttl", f"Invalid value at 'message.android.ttl' ({android['ttl']!r}): Illegal duration "
                                   "format; duration must end with 's'")
    return request


def fcm_request(method, path, headers, body, scope, entry):
    match = re.fullmatch(r"/v1/projects/([^/]+)/messages:send", path)
    if not match:
        google_error(404, "NOT_FOUND", f"The requested URL {path} was not found on this server.")
    if method != "POST":
        google_error(405, "METHOD_NOT_ALLOWED", f"Method {method} is not allowed for {path}.")
    scheme, _, token = headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or access_tokens.get(token, 0) <= time.time():
        google_error(401, "UNAUTHENTICATED", "Request had invalid authentication credentials. Expected OAuth 2 access "
                     "token, login cookie or other valid authentication credential.")
    if match.group(1) != account["project_id"]:
        google_error(403, "PERMISSION_DENIED", f"Permission 'cloudmessaging.messages.create' denied on resource "
                     f"'//cloudresourcemanager.googleapis.com/projects/{match.group(1)}' (or it may not exist).")
    try:
        entry["json"] = json.loads(body)
    except ValueError as error:
        google_error(400, "INVALID_ARGUMENT", f"Invalid JSON payload received. {error}", "INVALID_ARGUMENT", "")
    sent = entry["json"].get("message") if isinstance(entry["json"], dict) else None
    if isinstance(sent, dict):  # recorded for refused messages too
        entry["target"] = sent.get("token") or sent.get("topic") or sent.get("condition")
    request = checked_fcm_request(entry["json"])
    message, name = request["message"], f"projects/{account['project_id']}/messages/"
    target = entry["target"] = message.get("token") or message.get("topic") or message.get("condition")
    if request.get("validate_only"):
        return 200, {}, {"name": name + "fake_message_id"}
    if "token" in message and target.startswith("unregistered"):
        google_error(404, "NOT_FOUND", "Requested entity was not found.", "UNREGISTERED")
    if "token" in message and target.startswith("throttled-once") and first_time("fcm", target):
        google_error(429, "RESOURCE_EXHAUSTED", "Quota exceeded for sending messages to this device.",
                     "QUOTA_EXCEEDED", headers={"retry-after": "1"})
    if "token" in message and target.startswith("unavailable-once") and first_time("fcm", target):
        google_error(503, "UNAVAILABLE", "The service is currently unavailable.", "UNAVAILABLE")
    return 200, {}, {"name": f"{name}0:{time.time_ns() // 1000}%{secrets.token_hex(8)}"}


# Web Push: a push service (RFC 8030) that takes RFC 8291 messages from VAPID-identified servers (RFC 8292).
def webpush_request(method, path, headers, body, scope, entry):
    def reject(status, reason, extra_headers=None):
        raise Reject(status, {"reason": reason}, reason, extra_headers)
    sid = entry["target"] = path[len("/wp/"):]
    if sid not in subscriptions:
        reject(404, f"no subscription {sid!r}")
    if method != "POST":
        reject(405, f"method {method}: push messages are POSTed")
    scheme, _, parameters = headers.get("authorization", "").partition(" ")
    if scheme.lower() != "vapid":
        reject(401, "no vapid authorization (RFC 8292)")
    fields = dict(part.strip().split("=", 1) for part in parameters.split(",") if "=" in part)
    token, key = fields.get("t", ""), fields.get("k", "")
    entry["vapidKey"] = key or None
    if token.count(".") != 2 or not re.fullmatch(r"[A-Za-z0-9_-]{87}", key):
        reject(401, "vapid needs t=<JWT> and k=<65-byte uncompressed P-256 key, base64url without padding>")
    signed, _, signature = token.rpartition(".")
    try:
        verified = Vapid.from_raw_public(key.encode()).verify_token(signed.encode(), signature)
        header, claims = (json.loads(unb64url(part)) for part in signed.split("."))
    except Exception as error:  # py-vapid and cryptography raise several kinds for a malformed key or token
        reject(403, f"VAPID token does not parse: {error}")
    if not verified or not isinstance(claims, dict):
        reject(403, "VAPID signature does not verify with k")
    entry["jwtClaims"] = claims
    if header.get("alg") != "ES256":
        reject(403, f"VAPID JWT alg {header.get('alg')!r} is not ES256")
    if claims.get("aud") != origin:
        reject(403, f"VAPID aud {claims.get('aud')!r} is not the push resource's origin {origin}")
    if not isinstance(claims.get("exp"), int) or not time.time() < claims["exp"] <= time.time() + 86400:
        reject(403, f"VAPID exp {claims.get('exp')!r} is not within the next 24 hours")
    if not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
        reject(403, f"VAPID sub {claims.get('sub')!r} is not a mailto: or https: URI")
    if not re.fullmatch(r"\d+", headers.get("ttl", "")):
        reject(400, f"TTL {headers.get('ttl')!r} is not a non-negative integer")
    if headers.get("urgency", "normal") not in ("very-low", "low", "normal", "high"):
        reject(400, f"Urgency {headers['urgency']!r}")
    if "topic" in headers and not re.fullmatch(r"[A-Za-z0-9_-]{1,32}", headers["topic"]):
        reject(400, f"Topic {headers['topic']!r} is not 1–32 base64url characters")
    if body:
        if "content-encoding" not in headers:
            reject(400, "a body needs Content-Encoding: aes128gcm")
        if headers["content-encoding"].lower() != "aes128gcm":
            reject(415, f"Content-Encoding {headers['content-encoding']!r} is not aes128gcm")
        if len(body) > 4096:
            reject(413, f"{len(body)} bytes is over the 4096 a push service must take (RFC 8030 §7.2)")
        # RFC 8291 §4: the keyid is the sender's 65-byte public key, and the message is a single record.
        if len(body) < 21 or body[20] != 65 or len(body) - 86 > int.from_bytes(body[16:20], "big"):
            reject(400, "not an RFC 8291 message: keyid must be a 65-byte key and the content one record")
        private_key, auth = subscriptions[sid]
        try:
            plaintext = http_ece.decrypt(body, private_key=private_key, auth_secret=auth, version="aes128gcm")
        except Exception as error:
            reject(400, f"decryption failed: {error}")
        entry["plaintext"] = plaintext.decode("utf-8", "replace")
    if sid.startswith("gone"):
        reject(410, "the subscription has expired")
    if sid.startswith("throttled-once") and first_time("webpush", sid):
        reject(429, "too many messages", {"retry-after": "1"})
    return 201, {"location": f"{origin}/m/{uuid.uuid4()}"}, None


def unknown_request(method, path, headers, body, scope, entry):
    raise Reject(404, {"reason": f"nothing at {path}"}, f"unknown path {method} {path}")


def route(path):
    for prefix, provider, handler in (("/3/device/", "apns", apns_request), ("/token", "oauth", oauth_request),
                                      ("/v1/", "fcm", fcm_request), ("/wp/", "webpush", webpush_request)):
        if path.startswith(prefix) and (prefix != "/token" or path == prefix):
            return provider, handler
    return "unknown", unknown_request


async def app(scope, receive, send):
    if scope["type"] == "lifespan":
        while (message := await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        return await send({"type": "lifespan.shutdown.complete"})
    body, more = b"", True
    while more:
        message = await receive()
        body, more = body + message.get("body", b""), message.get("more_body", False)
    headers = {}
    for name, value in scope["headers"]:
        name, value = name.decode("latin-1").lower(), value.decode("latin-1")
        headers[name] = f"{headers[name]}, {value}" if name in headers else value
    method, path = scope["method"], scope["path"]
    reply_headers, reply = {}, None
    if path == "/_received" and method == "GET":
        wanted = parse_qs(scope["query_string"].decode()).get("provider", [None])[0]
        status, reply = 200, [entry for entry in records if wanted in (None, entry["provider"])]
    elif path == "/_reset" and method == "POST":
        records.clear()
        answered_once.clear()
        status = 204
    else:
        provider, handler = route(path)
        entry = {"provider": provider, "target": None, "status": None, "httpVersion": scope["http_version"],
                 "headers": headers, "json": None, "plaintext": None, "rawBody": base64.b64encode(body).decode(),
                 "vapidKey": None, "jwtClaims": None, "error": None, "time": time.time()}
        try:
            status, reply_headers, reply = handler(method, path, headers, body, scope, entry)
        except Reject as rejection:
            status, reply_headers, reply = rejection.status, rejection.headers, rejection.body
            entry["error"] = rejection.error
        except Exception as error:  # a request this double did not foresee: answer and record it all the same
            status, reply, entry["error"] = 500, {"reason": repr(error)}, f"push_providers.py failed: {error!r}"
        entry["status"] = status
        records.append(entry)
    content = b"" if reply is None else json.dumps(reply).encode()
    response = [(name.encode(), str(value).encode()) for name, value in reply_headers.items()]
    if reply is not None:
        response.append((b"content-type", b"application/json; charset=UTF-8"))
    response.append((b"content-length", str(len(content)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": response})
    await send({"type": "http.response.body", "body": content})


async def main():
    loop, stop = asyncio.get_running_loop(), asyncio.Event()
    for signal_number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signal_number, stop.set)
    if stat.S_ISFIFO(os.fstat(0).st_mode):
        def read_input():
            if not os.read(0, 4096):
                loop.remove_reader(0)
                stop.set()
        loop.add_reader(0, read_input)

    async def watch_parent():
        while os.getppid() == parent:
            await asyncio.sleep(1)
        stop.set()
    watcher = asyncio.create_task(watch_parent())
    config = Config()
    config.bind = [f"127.0.0.1:{port}"]
    config.certfile, config.keyfile = os.path.join(workdir, "ca.pem"), os.path.join(workdir, "server-key.pem")
    config.alpn_protocols = ["h2", "http/1.1"]
    config.keep_alive_timeout = 300  # APNs and FCM keep connections open; clients should reuse them
    server = asyncio.create_task(serve(app, config, shutdown_trigger=stop.wait))
    # Ready once a TLS handshake that trusts only ca.pem succeeds.
    client = ssl.create_default_context(cafile=config.certfile)
    for _ in range(200):
        if server.done():
            return await server
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port, ssl=client, server_hostname="127.0.0.1")
            writer.close()
            break
        except OSError:
            await asyncio.sleep(0.05)
    else:
        raise SystemExit(f"push_providers: nothing answered on {origin}")
    print(f"READY {port}", flush=True)
    await server
    watcher.cancel()


if __name__ == "__main__":
    asyncio.run(main())
