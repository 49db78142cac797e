#!/usr/bin/env bash
# Installs NanoHermes as a systemd service (`nanohermes --daemon`) on a Debian/Ubuntu VPS, from the
# checkout this script sits in. Re-runnable: the app is replaced, the token and daemon.env are kept.
# See docs/deploy.md (what it does, how to reach the daemon safely) and docs/daemon.md (the daemon).
set -euo pipefail

SELF="deploy-debian.sh"
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
UNIT_NAME="nanohermes.service"

PREFIX="/opt/nanohermes"
PORT="8787"
DRY_RUN=0
SKIP_INSTALL=0
ROOT=""
DATABASE_URL_OPT=""

usage() {
  cat <<EOF
Usage: scripts/deploy-debian.sh [options]

Installs NanoHermes from this checkout into PREFIX and runs it as the systemd service
nanohermes (the daemon on 127.0.0.1:PORT, with a bearer token). Needs root and Node 20 or newer.

Options:
  --prefix DIR     install folder (default /opt/nanohermes); absolute, no spaces
  --port N         daemon port on 127.0.0.1, 1-65535 (default 8787)
  --database-url URL
                   postgres://USER:PASSWORD@HOST:PORT/DB: the daemon joins a team that shares
                   sessions, turns and schedules through this PostgreSQL (docs/team.md). Kept as
                   DATABASE_URL in PREFIX/daemon.env (mode 600), never in the unit
  --dry-run        no root, no systemctl, no curl: write everything under a fake root
                   (--root) and print the unit
  --root DIR       with --dry-run: the fake filesystem root (default: a new temporary folder)
  --skip-install   with --dry-run: skip building and copying the program
  -h, --help       this help

Re-running replaces the program and the unit, and keeps PREFIX/.daemon_token and
PREFIX/daemon.env (delete the token file and re-run to rotate the token).
EOF
}

# A usage error: one line naming the problem, exit 2.
usage_error() {
  echo "$SELF: $1 (see --help)" >&2
  exit 2
}

die() {
  echo "$SELF: $1" >&2
  exit 1
}

warn() {
  echo "$SELF: warning: $1" >&2
}

# Single-quoted for /bin/sh.
sh_quote() {
  printf "'%s'" "${1//\'/\'\\\'\'}"
}

need_value() {
  [ $# -ge 2 ] && [ -n "$2" ] || usage_error "$1 expects a value"
}

ARGS="$*"
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) need_value "$@"; PREFIX="$2"; shift 2 ;;
    --prefix=*) PREFIX="${1#*=}"; shift ;;
    --port) need_value "$@"; PORT="$2"; shift 2 ;;
    --port=*) PORT="${1#*=}"; shift ;;
    --database-url) need_value "$@"; DATABASE_URL_OPT="$2"; shift 2 ;;
    --database-url=*) DATABASE_URL_OPT="${1#*=}"; shift ;;
    --root) need_value "$@"; ROOT="$2"; shift 2 ;;
    --root=*) ROOT="${1#*=}"; shift ;;
    --dry-run) DRY_RUN=1; shift ;;
    --skip-install) SKIP_INSTALL=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *) usage_error "unknown option \"$1\"" ;;
  esac
done

# --- Validation (before anything is written) ----------------------------------------------------

if ! [[ "$PORT" =~ ^[1-9][0-9]{0,4}$ ]] || [ "$PORT" -gt 65535 ]; then
  usage_error "--port expects a number from 1 to 65535, got \"$PORT\""
fi
# The URL goes into an EnvironmentFile line: one line, a PostgreSQL scheme, no quotes or spaces.
if [ -n "${DATABASE_URL_OPT:-}" ]; then
  case "$DATABASE_URL_OPT" in
    postgres://* | postgresql://*) ;;
    *) usage_error "--database-url must start with postgres:// or postgresql://" ;;
  esac
  case "$DATABASE_URL_OPT" in
    *[[:space:]\"\'\\]*) usage_error "--database-url must not contain spaces, quotes or backslashes" ;;
  esac
fi

# The prefix goes unquoted into the unit (systemd splits ExecStart and ReadWritePaths on spaces and
# expands % and \$), and into a shell wrapper: only plain path characters are accepted.
if [[ "$PREFIX" =~ [[:space:]] ]]; then
  usage_error "--prefix must not contain spaces (systemd unit paths cannot hold them), got \"$PREFIX\""
fi
if [[ "$PREFIX" != /* ]]; then
  usage_error "--prefix must be an absolute path, got \"$PREFIX\""
fi
while [[ "$PREFIX" == */ && "$PREFIX" != "/" ]]; do PREFIX="${PREFIX%/}"; done
[ "$PREFIX" != "/" ] || usage_error "--prefix must be a folder of its own, not /"
if ! [[ "$PREFIX" =~ ^(/[A-Za-z0-9._@+-]+)+$ ]]; then
  usage_error "--prefix may hold only letters, digits and . _ @ + - between slashes, got \"$PREFIX\""
fi
if [[ "/$PREFIX/" == */../* || "/$PREFIX/" == */./* ]]; then
  usage_error "--prefix must not contain . or .. components, got \"$PREFIX\""
fi

if [ "$DRY_RUN" -eq 0 ]; then
  [ -z "$ROOT" ] || usage_error "--root is only for --dry-run"
  [ "$SKIP_INSTALL" -eq 0 ] || usage_error "--skip-install is only for --dry-run"
fi

# Node 20 or newer: the program's engines field, and the wrapper runs this very node.
NODE_BIN=""
check_node() {
  NODE_BIN="$(command -v node || true)"
  [ -n "$NODE_BIN" ] || die "Node 20 or newer is required, and node was not found on PATH"
  local version major
  version="$("$NODE_BIN" --version 2>/dev/null || true)"
  major="${version#v}"
  major="${major%%.*}"
  if ! [[ "$major" =~ ^[0-9]+$ ]] || [ "$major" -lt 20 ]; then
    die "Node 20 or newer is required, found ${version:-an unknown version} ($NODE_BIN)"
  fi
}

if [ "$DRY_RUN" -eq 0 ]; then
  [ "$(id -u)" -eq 0 ] || die "must run as root (it writes $PREFIX and /etc/systemd/system): sudo $0 $ARGS"
  command -v systemctl >/dev/null && [ -d /run/systemd/system ] || die "systemd is not running here: this script installs a systemd service"
  check_node
  R=""
else
  [ "$SKIP_INSTALL" -eq 1 ] || check_node
  if [ -z "$ROOT" ]; then
    ROOT="$(mktemp -d "${TMPDIR:-/tmp}/nanohermes-deploy.XXXXXX")"
  fi
  mkdir -p "$ROOT"
  ROOT="$(cd "$ROOT" && pwd)"
  R="$ROOT"
fi

# Paths as the service sees them ($PREFIX) and as this run writes them ($R$PREFIX).
APP="$PREFIX/app"
WRAPPER="$PREFIX/bin/nanohermes"
WORKSPACE="$PREFIX/workspace"
SESSIONS="$PREFIX/sessions"
HOME_DIR="$PREFIX/home"
TOKEN_FILE="$PREFIX/.daemon_token"
ENV_FILE="$PREFIX/daemon.env"
SOCKET="$HOME_DIR/daemon.sock"
UNIT_FILE="/etc/systemd/system/$UNIT_NAME"

mkdir -p "$R$PREFIX"
chmod 755 "$R$PREFIX"

# --- 1. Build and install the program ------------------------------------------------------------

install_app() {
  if [ ! -f "$REPO/dist/cli.js" ] || [ ! -d "$REPO/node_modules" ]; then
    command -v npm >/dev/null || die "npm is required to build the program (it comes with Node)"
    local mem_kb swap_kb
    mem_kb="$(awk '/^MemTotal:/ {print $2}' /proc/meminfo 2>/dev/null || echo 0)"
    swap_kb="$(awk '/^SwapTotal:/ {print $2}' /proc/meminfo 2>/dev/null || echo 0)"
    if [ "${mem_kb:-0}" -lt 1572864 ] && [ "${swap_kb:-0}" -eq 0 ]; then
      warn "less than 1.5 GB of memory and no swap: npm ci may be killed; add swap first (docs/deploy.md)"
    fi
    echo "Building in $REPO (npm ci)..."
    (cd "$REPO" && npm ci --no-audit --no-fund)
  elif [ -n "$(find "$REPO/src" -newer "$REPO/dist/cli.js" -type f -print -quit 2>/dev/null)" ]; then
    warn "src/ has files newer than dist/cli.js: installing the existing build (run npm run build first to install the newer code)"
  fi
  [ -f "$REPO/dist/cli.js" ] || die "the build did not produce $REPO/dist/cli.js"
  # The Landlock helper that --sandbox workspace-write needs; the build script never fails, and
  # only warns without a C compiler.
  if [ ! -x "$REPO/dist-native/nh-sandbox" ]; then
    (cd "$REPO" && "$NODE_BIN" scripts/build-native.mjs) || true
  fi

  local stage="$R$PREFIX/.app.staging" old="$R$PREFIX/.app.old"
  rm -rf "$stage" "$old"
  mkdir -p "$stage"
  cp -a "$REPO/package.json" "$REPO/dist" "$REPO/node_modules" "$stage/"
  [ ! -f "$REPO/package-lock.json" ] || cp -a "$REPO/package-lock.json" "$stage/"
  if [ -x "$REPO/dist-native/nh-sandbox" ]; then
    cp -a "$REPO/dist-native" "$stage/"
  else
    warn "no sandbox helper (dist-native/nh-sandbox): the daemon will refuse to run commands under --sandbox workspace-write; install a C compiler (build-essential) and re-run"
  fi
  # The bundle needs only the native addons from node_modules at run time: drop the dev tools
  # (test runner, compiler, bundler). Offline, no scripts; on failure the full copy stays.
  if command -v npm >/dev/null; then
    (cd "$stage" && npm prune --omit=dev --ignore-scripts --offline --no-audit --no-fund >/dev/null 2>&1) ||
      warn "npm prune failed in the staged copy: installing node_modules with the dev dependencies"
  fi
  find "$stage/node_modules" -mindepth 1 -maxdepth 1 -type d -empty -delete 2>/dev/null || true

  # Same filesystem, so both moves are renames: nothing ever sees a half-copied app (only, for the
  # instant between the two, none). The service is restarted onto the new one below.
  if [ -e "$R$APP" ]; then mv "$R$APP" "$old"; fi
  mv "$stage" "$R$APP"
  rm -rf "$old"

  mkdir -p "$R$PREFIX/bin"
  local tmp="$R$WRAPPER.tmp.$$"
  # The node that passed the version check, by absolute path: systemd's PATH may not reach it.
  # In a dry run the wrapper runs the copy under --root, so it can be tried there.
  printf '#!/bin/sh\n# Written by scripts/deploy-debian.sh: runs the program installed in %s.\nexec %s %s "$@"\n' \
    "$APP" "$(sh_quote "$NODE_BIN")" "$(sh_quote "$R$APP/dist/cli.js")" >"$tmp"
  chmod 755 "$tmp"
  mv "$tmp" "$R$WRAPPER"
}

if [ "$SKIP_INSTALL" -eq 0 ]; then
  install_app
else
  echo "Skipping the build and install (--skip-install)."
fi

# --- 2. Folders ------------------------------------------------------------------------------------

mkdir -p "$R$WORKSPACE" "$R$SESSIONS" "$R$HOME_DIR"
chmod 700 "$R$SESSIONS" "$R$HOME_DIR"

# --- 3. Token: reused when present --------------------------------------------------------------

TOKEN_NEW=0
if [ -s "$R$TOKEN_FILE" ]; then
  chmod 600 "$R$TOKEN_FILE"
else
  token=""
  if command -v openssl >/dev/null; then token="$(openssl rand -hex 24 2>/dev/null || true)"; fi
  if ! [[ "$token" =~ ^[0-9a-f]{48}$ ]]; then
    token="$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')"
  fi
  [[ "$token" =~ ^[0-9a-f]{48}$ ]] || die "could not generate a token (neither openssl nor /dev/urandom worked)"
  tmp="$R$TOKEN_FILE.tmp.$$"
  (umask 077 && printf '%s\n' "$token" >"$tmp")
  chmod 600 "$tmp"
  mv "$tmp" "$R$TOKEN_FILE"
  unset token
  TOKEN_NEW=1
fi

# --- 4. Environment file: created once, then the user's ------------------------------------------

if [ ! -e "$R$ENV_FILE" ]; then
  tmp="$R$ENV_FILE.tmp.$$"
  (umask 077 && cat >"$tmp" <<'EOF'
# Environment of the nanohermes daemon (a systemd EnvironmentFile: KEY=value, one a line).
# Uncomment and fill in, then: systemctl restart nanohermes
# This file is never overwritten by scripts/deploy-debian.sh.
#OPENAI_API_KEY=sk-...
#OPENAI_BASE_URL=https://your-endpoint.example/v1
#NANOHERMES_MODEL=your-model-name
EOF
  )
  chmod 600 "$tmp"
  mv "$tmp" "$R$ENV_FILE"
fi
# --database-url replaces the file's DATABASE_URL line (the rest stays the user's).
if [ -n "${DATABASE_URL_OPT:-}" ]; then
  tmp="$R$ENV_FILE.tmp.$$"
  (umask 077 && { grep -v '^DATABASE_URL=' "$R$ENV_FILE" || true; echo "DATABASE_URL=$DATABASE_URL_OPT"; } >"$tmp")
  chmod 600 "$tmp"
  mv "$tmp" "$R$ENV_FILE"
fi

# --- 5. The systemd unit ---------------------------------------------------------------------------

UNIT="[Unit]
Description=NanoHermes coding agent daemon
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
Environment=NANOHERMES_HOME=$HOME_DIR
EnvironmentFile=-$ENV_FILE
ExecStart=$WRAPPER --daemon --daemon-port $PORT --daemon-host 127.0.0.1 -C $WORKSPACE --session-dir $SESSIONS --daemon-token-file $TOKEN_FILE --daemon-socket $SOCKET --sandbox workspace-write
Restart=always
RestartSec=2
NoNewPrivileges=yes
ProtectSystem=strict
ReadWritePaths=$WORKSPACE $SESSIONS $HOME_DIR
PrivateTmp=yes
ProtectKernelTunables=yes
ProtectControlGroups=yes
UMask=0077

[Install]
WantedBy=multi-user.target
"

mkdir -p "$R$(dirname "$UNIT_FILE")"
tmp="$R$UNIT_FILE.tmp.$$"
printf '%s' "$UNIT" >"$tmp"
chmod 644 "$tmp"
mv "$tmp" "$R$UNIT_FILE"

# --- Dry run: report and stop ----------------------------------------------------------------------

if [ "$DRY_RUN" -eq 1 ]; then
  echo "Dry run: nothing was installed on this system; everything was written under $ROOT"
  echo
  echo "--- $R$UNIT_FILE"
  printf '%s' "$UNIT"
  echo "---"
  echo
  if [ "$SKIP_INSTALL" -eq 0 ]; then
    echo "  program    $R$APP"
    echo "  wrapper    $R$WRAPPER (runs the copy above; the real one runs $APP)"
  fi
  echo "  workspace  $R$WORKSPACE"
  echo "  sessions   $R$SESSIONS (mode 700)"
  echo "  home       $R$HOME_DIR (mode 700)"
  echo "  token      $R$TOKEN_FILE (mode 600, $([ "$TOKEN_NEW" -eq 1 ] && echo generated || echo reused))"
  echo "  env file   $R$ENV_FILE (mode 600)"
  echo "  unit       $R$UNIT_FILE"
  exit 0
fi

# --- 6. Start the service and check it ---------------------------------------------------------------

systemctl daemon-reload
systemctl enable "$UNIT_NAME" >/dev/null
# restart starts a stopped service and reloads a running one onto the new program and unit.
systemctl restart "$UNIT_NAME"

health_once() {
  if command -v curl >/dev/null; then
    curl -fsS --max-time 2 "http://127.0.0.1:$PORT/health" 2>/dev/null
  else
    "$NODE_BIN" -e 'fetch(process.argv[1], { signal: AbortSignal.timeout(2000) }).then(async (r) => { if (!r.ok) process.exit(1); process.stdout.write(await r.text()); }, () => process.exit(1))' \
      "http://127.0.0.1:$PORT/health"
  fi
}

health=""
for _ in $(seq 1 20); do
  if health="$(health_once)" && [[ "$health" == *'"status":"ok"'* ]]; then break; fi
  health=""
  sleep 0.5
done

if [ -z "$health" ]; then
  echo "$SELF: the daemon did not answer http://127.0.0.1:$PORT/health within 10 s" >&2
  systemctl status "$UNIT_NAME" --no-pager -l >&2 || true
  journalctl -u "$UNIT_NAME" -n 30 --no-pager >&2 || true
  exit 1
fi

echo "nanohermes is running: $health"
echo
echo "  program    $APP (run it as $WRAPPER)"
echo "  workspace  $WORKSPACE"
echo "  settings   $ENV_FILE (put OPENAI_API_KEY etc. here, then: systemctl restart nanohermes)"
echo "  token      $TOKEN_FILE"
echo "  logs       journalctl -u nanohermes"
if [ "$TOKEN_NEW" -eq 1 ]; then
  echo
  echo "New token (shown this once; keep it secret, it is the only credential):"
  echo
  echo "  $(cat "$TOKEN_FILE")"
else
  echo
  echo "The existing token was kept (read it with: sudo cat $TOKEN_FILE; keep it secret)."
fi
cat <<EOF

Reach it from your machine through an SSH tunnel (the port stays closed to the internet):

  ssh -N -L $PORT:127.0.0.1:$PORT user@vps
  # then, in another terminal, with the token saved to ~/.nanohermes-vps-token (mode 600):
  curl -H "Authorization: Bearer \$(cat ~/.nanohermes-vps-token)" -d '{"prompt":"hi"}' http://127.0.0.1:$PORT/

Never open port $PORT to the internet: the traffic is plain HTTP. See docs/deploy.md.
EOF
