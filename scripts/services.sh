# Sourced by scripts/test: the system services the test suite uses.
# - Debian's chromium, for the end-to-end browser tests (Playwright drives it
#   through executable_path; no browser download works here).
# - A PostgreSQL server on loopback, for the store's tests; exports
#   BESTIARY_TEST_PG_URL. Without root or apt, the tests that need either skip.

_need=()
command -v chromium >/dev/null 2>&1 || _need+=(chromium)
ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || _need+=(postgresql)
if [ ${#_need[@]} -gt 0 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing ${_need[*]} (Debian packages)"
    apt-get update -qq >/dev/null 2>&1 || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${_need[@]}" >/dev/null 2>&1 \
        || echo "warning: could not install ${_need[*]}"
fi

_pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -n "$_pgbin" ] && [ -x "$_pgbin/pg_ctl" ]; then
    _pgdir=${BESTIARY_PG_DIR:-/tmp/bestiary-pg}
    _pgport=${BESTIARY_PG_PORT:-54329}
    _pguser=postgres
    if [ "$(id -u)" = 0 ]; then _as="runuser -u postgres --"; else _as=""; _pguser=$(id -un); fi
    if [ ! -f "$_pgdir/PG_VERSION" ]; then
        mkdir -p "$_pgdir" && { [ -z "$_as" ] || chown postgres "$_pgdir"; }
        $_as "$_pgbin/initdb" -D "$_pgdir" -A trust -U "$_pguser" >/dev/null
    fi
    if ! $_as "$_pgbin/pg_ctl" -D "$_pgdir" status >/dev/null 2>&1; then
        $_as "$_pgbin/pg_ctl" -D "$_pgdir" -l "$_pgdir/log" -w \
            -o "-p $_pgport -k /tmp -c listen_addresses=127.0.0.1" start >/dev/null \
            || echo "warning: PostgreSQL did not start (see $_pgdir/log)"
    fi
    export BESTIARY_TEST_PG_URL="postgresql://$_pguser@127.0.0.1:$_pgport/postgres"
fi
if command -v chromium >/dev/null 2>&1; then
    export BESTIARY_CHROMIUM=$(command -v chromium)
fi
