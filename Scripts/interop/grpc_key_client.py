#!/usr/bin/env python3
"""An independent client of parley-server's gRPC key service (seed 002's SignalE2EEService).

Generates its Python stubs from Protos/ParleyGRPC/signal_e2ee.proto with grpcio-tools, makes a device's keys with
independent implementations (X25519 and XEdDSA from python-xeddsa, ML-KEM-1024 from kyber-py), registers that device
over REST, uploads its keys over gRPC, fetches its bundle over gRPC as another device, and tries malformed calls.

  grpc_key_client.py PROTO_DIR REST_URL GRPC_TARGET USERNAME FETCHER_ACCOUNT FETCHER_PASSWORD [TLS_ROOT_PEM]

With TLS_ROOT_PEM the channel is TLS, trusting that certificate (issued for "localhost").

Prints one JSON object: the account, the private keys (so a ParleyProtocol store can act as this device), the
bundle as fetched, the prekey counts, and the status code each malformed call got.
"""
import base64
import importlib
import json
import os
import sys
import tempfile
import urllib.request

import grpc
import xeddsa
from grpc_tools import protoc
from kyber_py.ml_kem import ML_KEM_1024


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def generate_stubs(proto_dir: str):
    out = tempfile.mkdtemp(prefix="parley-grpc-")
    status = protoc.main(["grpc_tools.protoc", f"-I{proto_dir}", f"--python_out={out}", f"--grpc_python_out={out}",
                          os.path.join(proto_dir, "signal_e2ee.proto")])
    if status != 0:
        sys.exit(f"protoc failed with {status}")
    sys.path.insert(0, out)
    return importlib.import_module("signal_e2ee_pb2"), importlib.import_module("signal_e2ee_pb2_grpc")


class Curve25519Key:
    """A Curve25519 key pair; the public key in Signal's form (0x05 || u)."""

    def __init__(self):
        self.private = xeddsa.seed_to_priv(os.urandom(32))
        self.public = b"\x05" + xeddsa.priv_to_curve25519_pub(self.private)

    def sign(self, message: bytes) -> bytes:
        """XEdDSA: the Edwards key with sign bit 0 signs; the signature's top bit stays 0."""
        return xeddsa.ed25519_priv_sign(xeddsa.priv_force_sign(self.private, False), message, os.urandom(64))


class MLKEM1024Key:
    """An ML-KEM-1024 key pair from a 64-byte seed d || z (FIPS 203 KeyGen_internal); Signal's type byte 0x0A."""

    def __init__(self):
        self.seed = os.urandom(64)
        ek, _ = ML_KEM_1024.key_derive(self.seed)
        self.public = b"\x0a" + ek


def register(rest_url: str, username: str, identity: Curve25519Key, registration_id: int, password: str) -> dict:
    body = json.dumps({"username": username, "identityKey": b64(identity.public), "registrationId": registration_id,
                       "password": password, "deviceName": "python-grpcio"}).encode()
    request = urllib.request.Request(rest_url + "/v1/accounts", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def basic(account: str, device: int, password: str):
    return (("authorization", "Basic " + b64(f"{account}.{device}:{password}".encode())),)


def main(argv):
    if len(argv) not in (6, 7):
        sys.exit(__doc__)
    proto_dir, rest_url, target, username, fetcher_account, fetcher_password = argv[:6]
    tls_root = argv[6] if len(argv) == 7 else None
    pb, pb_grpc = generate_stubs(proto_dir)

    identity = Curve25519Key()
    registration_id = 4242
    password = b64(os.urandom(24))
    account = register(rest_url, username, identity, registration_id, password)["accountId"]
    me = basic(account, 1, password)
    fetcher = basic(fetcher_account, 1, fetcher_password)

    signed = Curve25519Key()
    one_time = [Curve25519Key() for _ in range(2)]
    kem = [MLKEM1024Key() for _ in range(2)]
    last_resort = MLKEM1024Key()
    request = pb.UploadKeysRequest(
        device_id=1, registration_id=registration_id, identity_key=identity.public,
        signed_prekey=pb.SignedPreKey(id=7, public_key=signed.public, signature=identity.sign(signed.public)),
        prekeys=[pb.PreKey(id=100 + i, public_key=k.public) for i, k in enumerate(one_time)],
        kyber_prekeys=[pb.KyberPreKey(id=200 + i, public_key=k.public, signature=identity.sign(k.public))
                       for i, k in enumerate(kem)],
        last_resort_kyber_prekey=pb.KyberPreKey(id=999, public_key=last_resort.public,
                                                signature=identity.sign(last_resort.public)))

    if tls_root:
        with open(tls_root, "rb") as pem:
            credentials = grpc.ssl_channel_credentials(root_certificates=pem.read())
        channel = grpc.secure_channel(target, credentials, options=(("grpc.ssl_target_name_override", "localhost"),))
    else:
        channel = grpc.insecure_channel(target)
    with channel:
        stub = pb_grpc.SignalE2EEServiceStub(channel)

        def code(call, message, metadata):
            try:
                call(message, metadata=metadata, timeout=30)
                return "OK"
            except grpc.RpcError as error:
                return error.code().name

        malformed = {}
        bad = pb.UploadKeysRequest()
        bad.CopyFrom(request)
        malformed["no_credentials"] = code(stub.UploadKeys, request, ())
        malformed["wrong_password"] = code(stub.UploadKeys, request, basic(account, 1, b64(os.urandom(24))))
        bad.signed_prekey.public_key = b"\x05" + b"\x00" * 5
        malformed["bad_key_bytes"] = code(stub.UploadKeys, bad, me)
        bad.CopyFrom(request)
        bad.kyber_prekeys[0].signature = identity.sign(b"something else")
        malformed["wrong_signature"] = code(stub.UploadKeys, bad, me)
        bad.CopyFrom(request)
        del bad.prekeys[:]
        bad.prekeys.extend([pb.PreKey(id=i, public_key=one_time[0].public) for i in range(1, 102)])
        malformed["too_many_prekeys"] = code(stub.UploadKeys, bad, me)
        bad.CopyFrom(request)
        del bad.kyber_prekeys[:]
        bad.kyber_prekeys.extend([request.kyber_prekeys[0]] * 400)
        malformed["oversized_message"] = code(stub.UploadKeys, bad, me)
        malformed["unknown_user"] = code(stub.GetPreKeyBundle,
                                         pb.GetPreKeyBundleRequest(user_id="00000000-0000-4000-8000-000000000000",
                                                                   device_id=1), fetcher)
        malformed["other_device_count"] = code(stub.GetPreKeyCount, pb.GetPreKeyCountRequest(device_id=3), me)

        uploaded = stub.UploadKeys(request, metadata=me, timeout=30)
        counts = stub.GetPreKeyCount(pb.GetPreKeyCountRequest(device_id=1), metadata=me, timeout=30)
        bundle = stub.GetPreKeyBundle(pb.GetPreKeyBundleRequest(user_id=account, device_id=1), metadata=fetcher,
                                      timeout=30)
        devices = stub.ListDevices(pb.ListDevicesRequest(), metadata=me, timeout=30)

    def key_for(public: bytes, keys):
        return next(k for k in keys if k.public == public)

    print(json.dumps({
        "accountId": account,
        "registrationId": registration_id,
        "identity": {"public": b64(identity.public), "private": b64(identity.private)},
        "signedPreKey": {"id": 7, "private": b64(signed.private), "signature": b64(request.signed_prekey.signature)},
        "preKeys": [{"id": 100 + i, "private": b64(k.private)} for i, k in enumerate(one_time)],
        "kemPreKeys": [{"id": 200 + i, "seed": b64(k.seed), "signature": b64(request.kyber_prekeys[i].signature)}
                       for i, k in enumerate(kem)],
        "uploaded": {"prekeyCount": uploaded.prekey_count, "kyberPrekeyCount": uploaded.kyber_prekey_count},
        "counts": {"prekeyCount": counts.prekey_count, "kyberPrekeyCount": counts.kyber_prekey_count},
        "devices": [{"deviceId": d.device_id, "name": d.device_name, "registrationId": d.registration_id}
                    for d in devices.devices],
        "bundle": {
            "userId": bundle.user_id, "deviceId": bundle.device_id, "registrationId": bundle.registration_id,
            "identityKey": b64(bundle.identity_key),
            "signedPreKey": {"id": bundle.signed_prekey.id, "publicKey": b64(bundle.signed_prekey.public_key),
                             "signature": b64(bundle.signed_prekey.signature)},
            "oneTimeKey": {"id": bundle.one_time_key.id, "publicKey": b64(bundle.one_time_key.public_key)}
            if bundle.HasField("one_time_key") else None,
            "kyberPreKey": {"id": bundle.kyber_prekey.id, "publicKey": b64(bundle.kyber_prekey.public_key),
                            "signature": b64(bundle.kyber_prekey.signature)},
        },
        "malformed": malformed,
    }))


if __name__ == "__main__":
    main(sys.argv[1:])
