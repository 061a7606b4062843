# Sourced by scripts/test: the system services the test suite uses.
# - Debian's chromium, for the end-to-end browser tests (Playwright drives it
#   through executable_path; no browser download works here).
# - A PostgreSQL server on loopback, for the store's tests; exports
#   BESTIARY_TEST_PG_URL. Without root or apt, the tests that need either skip.
#
# The PostgreSQL server is this run's own: a fresh data directory and a free
# port, stopped (and the directory removed) by bestiary_services_stop, which
# scripts/test runs on exit. Variables (see README.md, "Testing"):
#   BESTIARY_PG_DIR   data directory to use (kept; reused if it holds a cluster;
#                     a server already running there is used and left running)
#   BESTIARY_PG_PORT  port for a server this run starts (default: a free one)
#   BESTIARY_PG_KEEP  1: leave the server this run started running at the end

_need=()
command -v chromium >/dev/null 2>&1 || _need+=(chromium)
ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || _need+=(postgresql)
if [ ${#_need[@]} -gt 0 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing ${_need[*]} (Debian packages)"
    apt-get update -qq >/dev/null 2>&1 || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${_need[@]}" >/dev/null 2>&1 \
        || echo "warning: could not install ${_need[*]}"
fi

_pg_started=""   # set when this run started the server (so it stops it)
_pg_tmpdir=""    # set when this run made the data directory (so it removes it)

_free_port() {
    # Bind port 0 and read what the kernel chose; released at once for PostgreSQL.
    "${PYTHON_FOR_PORT:-python3}" -c \
        'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

_pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -n "$_pgbin" ] && [ -x "$_pgbin/pg_ctl" ]; then
    _pguser=postgres
    if [ "$(id -u)" = 0 ]; then _as="runuser -u postgres --"; else _as=""; _pguser=$(id -un); fi
    if [ -n "${BESTIARY_PG_DIR:-}" ]; then
        _pgdir=$BESTIARY_PG_DIR
    else
        _pgdir=$(mktemp -d /tmp/bestiary-pg.XXXXXX)
        _pg_tmpdir=$_pgdir
    fi
    if [ ! -f "$_pgdir/PG_VERSION" ]; then
        mkdir -p "$_pgdir" && { [ -z "$_as" ] || chown postgres "$_pgdir"; }
        $_as "$_pgbin/initdb" -D "$_pgdir" -A trust -U "$_pguser" >/dev/null
    fi
    if $_as "$_pgbin/pg_ctl" -D "$_pgdir" status >/dev/null 2>&1; then
        # Someone's server: use it where it listens, and leave it running.
        _pgport=$(sed -n 4p "$_pgdir/postmaster.pid")
    else
        _pgport=${BESTIARY_PG_PORT:-$(_free_port)}
        if $_as "$_pgbin/pg_ctl" -D "$_pgdir" -l "$_pgdir/log" -w \
            -o "-p $_pgport -k $_pgdir -c listen_addresses=127.0.0.1" start >/dev/null; then
            _pg_started=1
        else
            echo "warning: PostgreSQL did not start (see $_pgdir/log)"
        fi
    fi
    export BESTIARY_TEST_PG_URL="postgresql://$_pguser@127.0.0.1:$_pgport/postgres"
fi
if command -v chromium >/dev/null 2>&1; then
    export BESTIARY_CHROMIUM=$(command -v chromium)
fi

bestiary_services_stop() {
    # Only what this run started; BESTIARY_PG_KEEP=1 keeps it for a look afterwards.
    if [ "${BESTIARY_PG_KEEP:-}" = 1 ]; then
        [ -z "$_pg_started" ] || echo "PostgreSQL left running: $BESTIARY_TEST_PG_URL ($_pgdir)"
        return 0
    fi
    if [ -n "$_pg_started" ]; then
        $_as "$_pgbin/pg_ctl" -D "$_pgdir" -m fast -w stop >/dev/null 2>&1 \
            || echo "warning: could not stop the PostgreSQL server in $_pgdir"
    fi
    if [ -n "$_pg_tmpdir" ]; then
        rm -rf "$_pg_tmpdir"
    fi
}
