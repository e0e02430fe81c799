#!/usr/bin/env bash
# scripts/redis.sh - start and stop a throwaway redis-server on 127.0.0.1 for
# the forgeredis module's tests.
#
# Usage: scripts/redis.sh start|stop|status|env
#   start   install Debian's redis-server package if `redis-server` is not on
#           PATH (apt-get, as root), stop the previous instance of this run dir,
#           start a new one on a free loopback port with no persistence, wait
#           until it answers PING, write the env file and print its path (so:
#           `. "$(scripts/redis.sh start)"` works)
#   stop    stop the instance of this run dir (exit 0 if none runs)
#   status  say whether it runs (exit 0 when running, 3 when not)
#   env     print the env file
#
# Environment (all optional):
#   FORGEGO_REDIS_RUN_DIR  run dir: pid file, log, env file
#                          (default /tmp/forgego-redis; wiped at each start)
#   FORGEGO_REDIS_PORT     loopback port (default: a free one is picked)
#
# The env file ($FORGEGO_REDIS_RUN_DIR/redis.env) exports FORGEGO_REDIS_ADDR
# (host:port) and FORGEGO_REDIS_SERVER (the redis-server binary used).
set -euo pipefail

RUN_DIR=${FORGEGO_REDIS_RUN_DIR:-/tmp/forgego-redis}
RUN_DIR=${RUN_DIR%/}
ENV_FILE="$RUN_DIR/redis.env"
PID_FILE="$RUN_DIR/redis.pid"
LOG_FILE="$RUN_DIR/redis.log"
MARKER="$RUN_DIR/.forgego-redis-run" # only a dir holding this file is ever wiped

log() { printf '[redis.sh %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

ensure_installed() {
  command -v redis-server >/dev/null 2>&1 && return 0
  [ "$(id -u)" = 0 ] || die "redis-server is not installed and we are not root: apt-get install redis-server"
  command -v apt-get >/dev/null 2>&1 || die "redis-server is not installed and there is no apt-get"
  log "installing Debian's redis-server package"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q redis-server >"$RUN_DIR.apt.log" 2>&1 || {
    apt-get update -q >>"$RUN_DIR.apt.log" 2>&1 || true
    apt-get install -y -q redis-server >>"$RUN_DIR.apt.log" 2>&1
  } || { tail -20 "$RUN_DIR.apt.log" >&2; die "apt-get install redis-server failed"; }
  command -v redis-server >/dev/null 2>&1 || die "redis-server still missing after apt-get"
  # The package's post-install may have started the system-wide service; it
  # is not ours and is left alone (it listens on 6379, we never use that).
}

# Is $1 the redis-server we started for this run dir? redis-server rewrites
# its command line ("redis-server 127.0.0.1:PORT"), so it is recognised by its
# name and its working directory, which --dir made our run dir.
is_our_server() {
  [ "$(cat "/proc/$1/comm" 2>/dev/null)" = redis-server ] || return 1
  [ "$(readlink "/proc/$1/cwd" 2>/dev/null)" = "$(cd "$RUN_DIR" 2>/dev/null && pwd -P)" ]
}

server_pid() {
  local pid
  [ -f "$PID_FILE" ] || return 1
  pid=$(cat "$PID_FILE")
  [[ "$pid" =~ ^[0-9]+$ ]] && is_our_server "$pid" && { echo "$pid"; return 0; }
  return 1
}

do_stop() {
  local pid
  if pid=$(server_pid); then
    log "stopping redis-server (pid $pid)"
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
    if kill -0 "$pid" 2>/dev/null; then log "still alive after 5s, SIGKILL"; kill -9 "$pid" 2>/dev/null || true; sleep 0.1; fi
  fi
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

# ping HOST PORT: one RESP PING over bash's /dev/tcp (redis-cli may be absent).
# In a subshell: a failed `exec` redirection would end the script itself.
ping() {
  (
    exec 3<>"/dev/tcp/$1/$2" || exit 1
    printf 'PING\r\n' >&3
    IFS= read -r -t 1 reply <&3 || exit 1
    [ "${reply%$'\r'}" = "+PONG" ]
  ) 2>/dev/null
}

do_start() {
  mkdir -p "$(dirname "$RUN_DIR")"
  ensure_installed
  do_stop
  if [ -d "$RUN_DIR" ]; then
    [ -f "$MARKER" ] || die "$RUN_DIR exists and was not made by this script; refusing to wipe it"
    rm -rf "$RUN_DIR"
  fi
  mkdir -p "$RUN_DIR"
  touch "$MARKER"

  local port tries=0 pid ok
  while :; do
    if [ -n "${FORGEGO_REDIS_PORT:-}" ]; then
      port=$FORGEGO_REDIS_PORT
      port_in_use "$port" && die "port $port (FORGEGO_REDIS_PORT) is already in use"
    else
      port=$(pick_port)
    fi
    # No persistence (--save '' --appendonly no), loopback only, our own dir,
    # pid file and log; daemonized so that it outlives this script.
    redis-server --bind 127.0.0.1 --port "$port" --save '' --appendonly no \
      --dir "$RUN_DIR" --pidfile "$PID_FILE" --logfile "$LOG_FILE" \
      --daemonize yes --protected-mode yes </dev/null >/dev/null 2>&1 || true
    ok=0
    for _ in $(seq 1 100); do
      if ping 127.0.0.1 "$port" && server_pid >/dev/null; then ok=1; break; fi
      sleep 0.05
    done
    [ "$ok" = 1 ] && break
    do_stop
    if [ -z "${FORGEGO_REDIS_PORT:-}" ] && [ $((tries += 1)) -lt 5 ]; then
      log "redis-server did not come up on port $port; trying another port"
      continue
    fi
    tail -20 "$LOG_FILE" >&2 2>/dev/null || true
    die "redis-server did not become ready on 127.0.0.1:$port"
  done
  pid=$(server_pid)
  log "redis-server $(redis-server --version | sed -n 's/.*v=\([^ ]*\).*/\1/p') ready on 127.0.0.1:$port (pid $pid)"
  {
    echo "# written by scripts/redis.sh start: pid $pid, run dir $RUN_DIR"
    printf 'export %s=%q\n' \
      FORGEGO_REDIS_ADDR "127.0.0.1:$port" \
      FORGEGO_REDIS_SERVER "$(command -v redis-server)"
  } > "$ENV_FILE.tmp"
  mv -f "$ENV_FILE.tmp" "$ENV_FILE"
  echo "$ENV_FILE"
}

do_status() {
  local pid addr
  if pid=$(server_pid); then
    addr=$(sed -n 's/^export FORGEGO_REDIS_ADDR=//p' "$ENV_FILE" 2>/dev/null)
    if [ -n "$addr" ] && ping "${addr%:*}" "${addr##*:}"; then
      echo "running: pid $pid, $addr, env file $ENV_FILE"; return 0
    fi
    echo "pid $pid alive but not answering PING"; return 3
  fi
  echo "not running"; return 3
}

case "${1:-}" in
  start) do_start ;;
  stop) do_stop ;;
  status) do_status ;;
  env) cat "$ENV_FILE" ;;
  *) echo "usage: $0 start|stop|status|env" >&2; exit 2 ;;
esac
