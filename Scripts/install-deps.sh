#!/usr/bin/env bash
# Installs what `make demo` and `make test` need on a fresh Debian machine with Swift,
# and only what is missing: Debian packages (checked with dpkg) and the Python packages
# of the known-answer cross-checks (in a virtual environment under .build/python).
# `--test` adds what only the tests need: PostgreSQL (the server's second backend) and the Python packages.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential pkg-config libsodium-dev libssl-dev libsqlite3-dev libsignal-protocol-c-dev libjansson-dev python3 python3-venv)
[ "${1:-}" = "--test" ] && packages+=(openssl)
[ "${1:-}" = "--test" ] && packages+=(postgresql)
[ "${1:-}" = "--test" ] && packages+=(libmagic1)  # python-magic, which pysignalclijsonrpc imports
[ "${1:-}" = "--test" ] && packages+=(chromium fonts-noto-color-emoji zbar-tools)  # the browser the web client's tests drive (through Playwright), emoji in its screenshots, and zbar to read its QR codes back
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "install-deps: installing ${missing[*]}" >&2
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ "${1:-}" = "--test" ]; then
    venv=.build/python
    if ! "$venv/bin/python3" -c "import kyber_py, xeddsa, grpc, grpc_tools, pysignalclijsonrpc, signalbot, hypercorn, http_ece, py_vapid, jwt, schemathesis, playwright, axe_playwright_python" 2>/dev/null; then
        echo "install-deps: installing kyber-py, xeddsa, grpcio, grpcio-tools, pysignalclijsonrpc, signalbot, the push providers' checkers, schemathesis, playwright and axe into $venv" >&2
        [ -x "$venv/bin/pip" ] || python3 -m venv "$venv"
        "$venv/bin/pip" install --quiet --disable-pip-version-check kyber-py==1.2.0 xeddsa==1.2.0 \
            grpcio==1.85.3 grpcio-tools==1.85.1 pysignalclijsonrpc==25.9.0 signalbot==2.2.1 \
            hypercorn==0.18.0 http-ece==1.2.1 py-vapid==1.9.6 PyJWT==2.15.1 cryptography==50.0.2 \
            schemathesis==4.32.5 playwright==1.65.3 axe-playwright-python==0.1.8
    fi
fi
