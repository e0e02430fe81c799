#!/usr/bin/env bash
# scripts/gitea.sh - build (once, cached), start and stop a real Gitea server on
# 127.0.0.1 with SQLite for forgego's integration tests.
#
# Needs only what a stock Debian 12 machine with Go has: bash, coreutils, curl,
# git (Gitea calls it at runtime), go, and the Go module proxy of `go env GOPROXY`.
# No cgo, no npm, no jq. See scripts/gitea.md.
#
# Usage: scripts/gitea.sh build|start|stop|status|env|smoke
#   build   build Gitea into the cache unless the cached binary already exists
#   start   build if needed, stop the previous instance of this run dir, wipe it,
#           write app.ini, create the admin + a second user with all-scope
#           tokens, start the server, wait until it answers, write the env file
#           and print its path (so: `. "$(scripts/gitea.sh start)"` works)
#   stop    stop the instance of this run dir (exit 0 if none runs)
#   status  say whether it runs (exit 0 when running, 3 when not)
#   env     print the env file
#   smoke   a few curl calls against the running instance
#
# Environment (all optional):
#   FORGEGO_CACHE_DIR      cache root (default $HOME/.cache/forgego); the binary
#                          is $FORGEGO_CACHE_DIR/gitea/<version>/gitea
#   FORGEGO_GITEA_VERSION  Gitea module version (default v1.27.3)
#   FORGEGO_GITEA_RUN_DIR  run dir: app.ini, db, repos, logs, pid, env file
#                          (default /tmp/forgego-gitea; wiped at each start)
#   FORGEGO_GITEA_PORT     loopback port (default: a free one is picked)
#   GOTOOLCHAIN            honoured; if the selected Go is older than Gitea's
#                          go.mod asks, GOTOOLCHAIN=go<required> is used instead
#
# The env file ($FORGEGO_GITEA_RUN_DIR/gitea.env) exports FORGEGO_IT_URL,
# FORGEGO_IT_ADMIN, FORGEGO_IT_ADMIN_TOKEN, FORGEGO_IT_ADMIN_PASSWORD,
# FORGEGO_IT_USER2, FORGEGO_IT_USER2_TOKEN, FORGEGO_IT_USER2_PASSWORD.
set -euo pipefail

VERSION=${FORGEGO_GITEA_VERSION:-v1.27.3}
CACHE_DIR=${FORGEGO_CACHE_DIR:-${HOME:?HOME is not set}/.cache/forgego}
VER_DIR="$CACHE_DIR/gitea/$VERSION"
BIN="$VER_DIR/gitea"
BUILD_TAGS=bindata # embeds options/ templates/ public/: the binary needs no source tree

RUN_DIR=${FORGEGO_GITEA_RUN_DIR:-/tmp/forgego-gitea}
RUN_DIR=${RUN_DIR%/}
CONF="$RUN_DIR/custom/conf/app.ini"
ENV_FILE="$RUN_DIR/gitea.env"
PID_FILE="$RUN_DIR/gitea.pid"
MARKER="$RUN_DIR/.forgego-gitea-run" # only a dir holding this file is ever wiped

ADMIN_USER=forgego-admin
ADMIN_PASSWORD=Forgego-IT-admin-Passw0rd
USER2=forgego-user2
USER2_PASSWORD=Forgego-IT-user2-Passw0rd

# Deliberately low so that the page-size clamp is exercised by the tests.
MAX_RESPONSE_ITEMS=20
DEFAULT_PAGING_NUM=10

log() { printf '[gitea.sh %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN{printf "%.1f", b-a}'; }

# ================================================================ build

# Gitea >= 1.27 is `module gitea.dev` and requires gitea.dev/sdk and
# gitea.dev/actions-proto-go, which the module proxy here refuses (403). The
# same bytes are published as code.gitea.io/<name> at the same versions (their
# go.mod even says `module gitea.dev/<name>`). We repackage them as
# gitea.dev/<name> in a file:// GOPROXY consulted first; Gitea's own go.sum
# still verifies every byte, so nothing unverified gets in.
write_mkproxy_tool() {
  local d=$1 xmod
  mkdir -p "$d"
  cat > "$d/main.go" <<'EOF'
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

// mkproxy PROXYDIR MODPATH VERSION SRCDIR: write one GOPROXY file-tree entry.
func main() {
	root, path, ver, src := os.Args[1], os.Args[2], os.Args[3], os.Args[4]
	esc, err := module.EscapePath(path)
	check(err)
	dir := filepath.Join(root, esc, "@v")
	check(os.MkdirAll(dir, 0o755))
	f, err := os.Create(filepath.Join(dir, ver+".zip"))
	check(err)
	check(zip.CreateFromDir(f, module.Version{Path: path, Version: ver}, src))
	check(f.Close())
	gomod, err := os.ReadFile(filepath.Join(src, "go.mod"))
	check(err)
	check(os.WriteFile(filepath.Join(dir, ver+".mod"), gomod, 0o644))
	info := fmt.Sprintf("{\"Version\":%q,\"Time\":%q}\n", ver, time.Now().UTC().Format(time.RFC3339))
	check(os.WriteFile(filepath.Join(dir, ver+".info"), []byte(info), 0o644))
	check(os.WriteFile(filepath.Join(dir, "list"), []byte(ver+"\n"), 0o644))
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "mkproxy:", err)
		os.Exit(1)
	}
}
EOF
  # use the golang.org/x/mod version Gitea itself pins (already verified by its go.sum)
  xmod=$(awk '$1=="golang.org/x/mod"{print $2; exit} $2=="golang.org/x/mod"{print $3; exit}' "$SRC/go.mod")
  (cd "$d" && go mod init mkproxy >/dev/null 2>&1 \
     && go get "golang.org/x/mod@${xmod:-v0.43.0}" >/dev/null 2>&1 \
     && go build -o mkproxy .) || die "could not build the mkproxy helper"
}

fetch_source() {
  local t0=$(now) dir
  log "downloading code.gitea.io/gitea@$VERSION through the module proxy"
  dir=$(cd / && go mod download -json "code.gitea.io/gitea@$VERSION" \
          | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  [ -n "$dir" ] && [ -d "$dir" ] || die "go mod download code.gitea.io/gitea@$VERSION failed"
  cp -r "$dir" "$SRC"
  chmod -R u+w "$SRC"
  log "source at $SRC ($(du -sh "$SRC" | cut -f1)) in $(elapsed "$t0")s"
}

setup_go_env() {
  cd "$SRC"
  # Honour GOTOOLCHAIN, but if the Go it selects is older than go.mod's `go`
  # line (e.g. GOTOOLCHAIN=local with an old Go), fetch the required one.
  local need have
  need=$(sed -n 's/^go \([0-9.]*\)$/\1/p' go.mod | head -1)
  have=$(go env GOVERSION | sed 's/^go//; s/[- ].*//')
  if [ -n "$need" ] && [ "$(printf '%s\n%s\n' "$need" "$have" | sort -V | head -1)" != "$need" ]; then
    export GOTOOLCHAIN="go$need"
    log "Go $have < required $need: using GOTOOLCHAIN=$GOTOOLCHAIN (fetched via the module proxy)"
  fi
  # Gitea's Makefile exports GOEXPERIMENT (jsonv2 since 1.25); builds must use it.
  local exp
  exp=$(sed -n 's/^export GOEXPERIMENT ?= *\(.*\)$/\1/p' Makefile 2>/dev/null | head -1)
  if [ -n "$exp" ] && [ -z "${GOEXPERIMENT:-}" ]; then export GOEXPERIMENT="$exp"; fi
  # SQLite is the pure-Go modernc driver since 1.26: no cgo, static binary.
  export CGO_ENABLED=0
  export GOPROXY="file://$SRC/.localproxy,$(go env GOPROXY)"
  export GOFLAGS="$(go env GOFLAGS) -buildvcs=false"
}

# Make every gitea.dev/* requirement downloadable; fall back to the
# code.gitea.io/* twin repackaged in the local file proxy.
prepare_vanity_modules() {
  local lp="$SRC/.localproxy" tool="$SRC/.mkproxy" mod ver twin tdir
  mkdir -p "$lp"
  while read -r mod ver; do
    [ -n "$mod" ] || continue
    if go mod download "$mod@$ver" >/dev/null 2>&1; then continue; fi
    twin="code.gitea.io/${mod#gitea.dev/}"
    log "$mod@$ver not downloadable; using $twin@$ver (verified against Gitea's go.sum)"
    # (some twins, e.g. code.gitea.io/sdk@v1.1.0, are absent from the checksum DB)
    tdir=$(cd / && GONOSUMDB="$twin" go mod download -json "$twin@$ver" \
             | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
    [ -n "$tdir" ] || die "cannot download $twin@$ver either"
    [ -x "$tool/mkproxy" ] || write_mkproxy_tool "$tool"
    "$tool/mkproxy" "$lp" "$mod" "$ver" "$tdir"
    go mod download "$mod@$ver" || die "$mod@$ver still failing (hash mismatch with go.sum?)"
  done < <(awk '/^require[[:space:]]*\(/{r=1;next} r&&/^\)/{r=0} r&&$1 ~ /^gitea\.dev\//{print $1, $2}
                /^require[[:space:]]+gitea\.dev\//{print $2, $3}' go.mod)
}

do_build() {
  local tall t0 tmp
  tall=$(now)
  mkdir -p "$VER_DIR"
  # one build at a time per version (another start may be building right now)
  if command -v flock >/dev/null; then
    exec 9>"$VER_DIR/.lock"
    flock 9
  fi
  if [ -x "$BIN" ]; then log "cached: $BIN"; exec 9>&-; return 0; fi
  # Build in a temp dir on the same filesystem, then rename into place: an
  # interrupted build never leaves a half binary that looks cached.
  rm -rf "$VER_DIR"/.build.* # leftovers of killed builds (we hold the lock)
  tmp=$(mktemp -d "$VER_DIR/.build.XXXXXX")
  # shellcheck disable=SC2064
  trap "rm -rf '$tmp'" EXIT
  # shellcheck disable=SC2064
  trap "rm -rf '$tmp'; trap - EXIT; exit 130" INT TERM HUP
  SRC="$tmp/src"
  (
    fetch_source
    setup_go_env
    t0=$(now)
    prepare_vanity_modules
    log "downloading the modules the server needs"
    # (without the bindata tag: its //go:embed files do not exist before go generate)
    go list -deps . >/dev/null 2>"$tmp/deps.log" || { cat "$tmp/deps.log" >&2; die "module download failed"; }
    log "modules ready in $(elapsed "$t0")s ($(grep -c '^go: downloading' "$tmp/deps.log") downloaded)"
    t0=$(now)
    go generate -tags "$BUILD_TAGS" ./modules/options ./modules/public ./modules/templates ./modules/migration >/dev/null
    log "bindata generated in $(elapsed "$t0")s"
    t0=$(now)
    log "building Gitea $VERSION (cold: ~3-5 min on 2 cores, ~1.5 GB RAM)"
    go build -trimpath -tags "$BUILD_TAGS" \
      -ldflags "-s -w -X \"main.Version=${VERSION#v}\" -X \"main.Tags=$BUILD_TAGS\"" \
      -o "$tmp/gitea" .
    log "go build took $(elapsed "$t0")s"
  )
  "$tmp/gitea" --version >/dev/null || die "the built binary does not run"
  mv -f "$tmp/gitea" "$BIN"
  rm -rf "$tmp"
  trap - EXIT INT TERM HUP
  exec 9>&- # release the lock (the server started later must not inherit it)
  log "built $("$BIN" --version) -> $BIN ($(du -h "$BIN" | cut -f1)) in $(elapsed "$tall")s"
}

# ================================================================ run

# Is $1 the pid of `<...>/gitea web --config $CONF`? (checked in /proc, so a
# recycled pid is never signalled)
is_our_server() {
  local -a args=()
  [ -r "/proc/$1/cmdline" ] || return 1
  mapfile -d '' args < "/proc/$1/cmdline" 2>/dev/null || return 1
  [ "${#args[@]}" -ge 4 ] && [ "${args[0]##*/}" = gitea ] && [ "${args[1]}" = web ] \
    && [ "${args[2]}" = --config ] && [ "${args[3]}" = "$CONF" ]
}

# pid of our server: from the pid file, else any process started with exactly
# our app.ini (e.g. if the pid file was lost).
server_pid() {
  local pid p
  if [ -f "$PID_FILE" ]; then
    pid=$(cat "$PID_FILE")
    if [[ "$pid" =~ ^[0-9]+$ ]] && is_our_server "$pid"; then echo "$pid"; return 0; fi
  fi
  for p in /proc/[0-9]*; do
    if is_our_server "${p#/proc/}"; then echo "${p#/proc/}"; return 0; fi
  done
  return 1
}

do_stop() {
  local pid
  while pid=$(server_pid); do
    log "stopping gitea (pid $pid)"
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then log "still alive after 10s, SIGKILL"; kill -9 "$pid" 2>/dev/null || true; sleep 0.2; fi
  done
  rm -f "$PID_FILE"
}

port_in_use() {
  local hex
  hex=$(printf ':%04X ' "$1")
  grep -qsF "$hex" /proc/net/tcp /proc/net/tcp6 && return 0
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
  return 1
}

pick_port() {
  local p
  for _ in $(seq 1 200); do
    p=$((20000 + RANDOM % 12000)) # below Linux's ephemeral range (32768+)
    port_in_use "$p" || { echo "$p"; return 0; }
  done
  die "no free port found"
}

write_config() {
  local port=$1 root_line=""
  if [ "$(id -u)" = 0 ]; then root_line="I_AM_BEING_UNSAFE_RUNNING_AS_ROOT = true"; fi
  mkdir -p "$(dirname "$CONF")" "$RUN_DIR/data" "$RUN_DIR/log"
  cat > "$CONF" <<EOF
APP_NAME = forgego-it
RUN_MODE = prod
RUN_USER = $(id -un)
WORK_PATH = $RUN_DIR
$root_line

[server]
PROTOCOL = http
HTTP_ADDR = 127.0.0.1
HTTP_PORT = $port
DOMAIN = 127.0.0.1
ROOT_URL = http://127.0.0.1:$port/
APP_DATA_PATH = $RUN_DIR/data
DISABLE_SSH = true
START_SSH_SERVER = false
OFFLINE_MODE = true
LFS_START_SERVER = false

[database]
DB_TYPE = sqlite3
PATH = $RUN_DIR/data/gitea.db
SQLITE_JOURNAL_MODE = WAL

[repository]
ROOT = $RUN_DIR/data/repos

[security]
INSTALL_LOCK = true
SECRET_KEY = $("$BIN" generate secret SECRET_KEY)
INTERNAL_TOKEN = $("$BIN" generate secret INTERNAL_TOKEN)
ALLOWED_HOST_LIST = *

[oauth2]
JWT_SECRET = $("$BIN" generate secret JWT_SECRET)

[service]
DISABLE_REGISTRATION = true
ENABLE_NOTIFY_MAIL = false

[mailer]
ENABLED = false

[session]
PROVIDER = memory

[cache]
ADAPTER = memory

[queue]
; synchronous side effects (notifications, ...), as in Gitea's own integration tests
TYPE = immediate

[indexer]
ISSUE_INDEXER_TYPE = db
REPO_INDEXER_ENABLED = false

[cron.update_checker]
ENABLED = false

[api]
ENABLE_SWAGGER = true
MAX_RESPONSE_ITEMS = $MAX_RESPONSE_ITEMS
DEFAULT_PAGING_NUM = $DEFAULT_PAGING_NUM

[log]
MODE = console
LEVEL = warn
ROOT_PATH = $RUN_DIR/log
EOF
}

set_port() { # rewrite the port in app.ini (retry after a lost race for a port)
  sed -i "s|^HTTP_PORT = .*|HTTP_PORT = $1|; s|^ROOT_URL = .*|ROOT_URL = http://127.0.0.1:$1/|" "$CONF"
}

gitea_cli() { # Gitea CLI against our app.ini; its chatter goes to log/cli.log
  local cli_log="$RUN_DIR/log/cli.log"
  "$BIN" "$@" --config "$CONF" 2>>"$cli_log" \
    || { tail -20 "$cli_log" >&2; die "gitea $* failed"; }
}

fresh_run_dir() {
  case "$RUN_DIR" in
    ""|/|/tmp|/var/tmp|/root|/home|/usr|/usr/*|/etc|/etc/*|/var|/bin|/lib|"$HOME")
      die "refusing to use '$RUN_DIR' as run dir (it is wiped at each start)" ;;
  esac
  if [ -e "$RUN_DIR" ] && [ ! -e "$MARKER" ] && [ -n "$(ls -A "$RUN_DIR" 2>/dev/null)" ]; then
    die "$RUN_DIR exists, is not empty and was not made by this script; not wiping it"
  fi
  rm -rf "$RUN_DIR"
  mkdir -p "$RUN_DIR"
  : > "$MARKER"
}

do_start() {
  local tall t0 pid port token token2 tries=0 url
  tall=$(now)
  command -v git >/dev/null || die "git is required (Gitea runs it)"
  command -v curl >/dev/null || die "curl is required"
  [ -x "$BIN" ] || do_build
  do_stop
  fresh_run_dir
  export GITEA_WORK_DIR="$RUN_DIR" GITEA_CUSTOM="$RUN_DIR/custom"

  if [ -n "${FORGEGO_GITEA_PORT:-}" ]; then
    port=$FORGEGO_GITEA_PORT
    port_in_use "$port" && die "port $port (FORGEGO_GITEA_PORT) is already in use"
  else
    port=$(pick_port)
  fi

  t0=$(now)
  write_config "$port"
  gitea_cli migrate >/dev/null
  gitea_cli admin user create --admin --username "$ADMIN_USER" --password "$ADMIN_PASSWORD" \
    --email "$ADMIN_USER@example.com" --must-change-password=false >/dev/null
  gitea_cli admin user create --username "$USER2" --password "$USER2_PASSWORD" \
    --email "$USER2@example.com" --must-change-password=false >/dev/null
  # scope `all` = every read+write scope incl. write:admin (Gitea's AccessTokenScopeAll)
  token=$(gitea_cli admin user generate-access-token --username "$ADMIN_USER" \
            --token-name forgego-it --scopes all --raw)
  token2=$(gitea_cli admin user generate-access-token --username "$USER2" \
             --token-name forgego-it --scopes all --raw)
  [[ "$token" =~ ^[0-9a-f]{40}$ && "$token2" =~ ^[0-9a-f]{40}$ ]] || die "unexpected token output"
  log "db + 2 users + 2 tokens in $(elapsed "$t0")s"

  while :; do
    t0=$(now)
    url="http://127.0.0.1:$port"
    setsid nohup "$BIN" web --config "$CONF" >"$RUN_DIR/log/web.out" 2>&1 </dev/null &
    pid=$!
    echo "$pid" > "$PID_FILE"
    local ok=0 bindfail=0 deadline=$((SECONDS + 60))
    # Ready = healthz answers AND our fresh admin token is accepted: a token
    # unknown elsewhere proves the answer comes from this instance, not from
    # some other server that grabbed the port first.
    while [ "$SECONDS" -lt "$deadline" ]; do
      kill -0 "$pid" 2>/dev/null || break
      # (on a taken port Gitea logs the bind error but does not exit)
      if grep -qs "bind: address already in use" "$RUN_DIR/log/web.out"; then bindfail=1; break; fi
      if curl -fsS -o /dev/null --max-time 2 "$url/api/healthz" 2>/dev/null \
         && curl -fsS -o /dev/null --max-time 2 -H "Authorization: token $token" "$url/api/v1/user" 2>/dev/null \
         && kill -0 "$pid" 2>/dev/null; then
        ok=1; break
      fi
      sleep 0.05
    done
    [ "$ok" = 1 ] && break
    if [ "$bindfail" = 1 ] && [ -z "${FORGEGO_GITEA_PORT:-}" ] && [ $((tries += 1)) -lt 5 ]; then
      do_stop
      port=$(pick_port)
      log "port race lost, retrying on port $port"
      set_port "$port"
      continue
    fi
    tail -20 "$RUN_DIR/log/web.out" >&2
    do_stop
    die "gitea did not become ready on $url"
  done
  log "server ready on $url in $(elapsed "$t0")s (pid $pid, RSS $(awk '/VmRSS/{print $2" "$3}' "/proc/$pid/status"))"

  {
    echo "# written by scripts/gitea.sh start: Gitea $VERSION, pid $pid, run dir $RUN_DIR"
    printf 'export %s=%q\n' \
      FORGEGO_IT_URL "$url" \
      FORGEGO_IT_ADMIN "$ADMIN_USER" \
      FORGEGO_IT_ADMIN_TOKEN "$token" \
      FORGEGO_IT_ADMIN_PASSWORD "$ADMIN_PASSWORD" \
      FORGEGO_IT_USER2 "$USER2" \
      FORGEGO_IT_USER2_TOKEN "$token2" \
      FORGEGO_IT_USER2_PASSWORD "$USER2_PASSWORD"
  } > "$ENV_FILE.tmp"
  mv -f "$ENV_FILE.tmp" "$ENV_FILE"
  log "total start: $(elapsed "$tall")s"
  echo "$ENV_FILE"
}

do_status() {
  local pid
  if pid=$(server_pid); then
    local url
    url=$(sed -n 's/^export FORGEGO_IT_URL=//p' "$ENV_FILE" 2>/dev/null)
    if [ -n "$url" ] && curl -fsS -o /dev/null --max-time 5 "$url/api/healthz"; then
      echo "running: pid $pid, $url, env file $ENV_FILE"
    else
      echo "running: pid $pid, not answering (yet?) on ${url:-?}"
    fi
    return 0
  fi
  echo "not running (run dir $RUN_DIR)"
  return 3
}

do_env() {
  [ -f "$ENV_FILE" ] || die "no env file at $ENV_FILE (run: $0 start)"
  cat "$ENV_FILE"
}

do_smoke() {
  [ -f "$ENV_FILE" ] || die "no env file at $ENV_FILE (run: $0 start)"
  # shellcheck disable=SC1090
  . "$ENV_FILE"
  local api="$FORGEGO_IT_URL/api/v1" name="smoke-$$-$RANDOM" out
  local a=(-sS --max-time 30 -H "Authorization: token $FORGEGO_IT_ADMIN_TOKEN")
  local u=(-sS --max-time 30 -H "Authorization: token $FORGEGO_IT_USER2_TOKEN")
  echo "GET  /version        -> $(curl -sS --max-time 10 "$api/version")"
  echo "GET  /settings/api   -> $(curl -sS --max-time 10 "$api/settings/api")"
  out=$(curl "${a[@]}" "$api/user")
  echo "GET  /user (admin)   -> $(printf '%s' "$out" | grep -o '"login":"[^"]*"\|"is_admin":[a-z]*' | tr '\n' ' ')"
  out=$(curl "${u[@]}" "$api/user")
  echo "GET  /user (user2)   -> $(printf '%s' "$out" | grep -o '"login":"[^"]*"\|"is_admin":[a-z]*' | tr '\n' ' ')"
  echo "GET  /admin/users    -> HTTP $(curl "${a[@]}" -o /dev/null -w '%{http_code}' "$api/admin/users?limit=1")"
  out=$(curl "${a[@]}" -w '\n%{http_code}' -H 'Content-Type: application/json' \
          -d "{\"name\":\"$name\",\"auto_init\":true,\"default_branch\":\"main\"}" "$api/user/repos")
  echo "POST /user/repos     -> HTTP ${out##*$'\n'} $(printf '%s' "$out" | grep -o "\"full_name\":\"$FORGEGO_IT_ADMIN/[^\"]*\"" | head -1)"
  [ "${out##*$'\n'}" = 201 ] || die "repo creation failed: $out"
}

case "${1:-}" in
  build) do_build ;;
  start) do_start ;;
  stop) do_stop ;;
  status) do_status ;;
  env) do_env ;;
  smoke) do_smoke ;;
  *) echo "usage: $0 build|start|stop|status|env|smoke" >&2; exit 2 ;;
esac
