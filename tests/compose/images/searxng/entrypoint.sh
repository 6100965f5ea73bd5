#!/bin/sh
# What upstream's container/entrypoint.sh (ef9a188) does at start, in its order:
# check the config and data folders (chown them to searxng unless FORCE_OWNERSHIP=false),
# make sure settings.yml exists, add the certificates of /usr/local/share/ca-certificates,
# map SEARXNG_PORT onto granian's port, then run granian with searx.webapp:app.
set -u

take_ownership() {  # $1: a folder upstream's entrypoint chowns
    [ -d "$1" ] || { echo "!!! ERROR: \"$1\" is not a valid directory, exiting..."; exit 127; }
    owner=$(stat -c %U:%G "$1")
    [ "$owner" = searxng:searxng ] && return
    if [ "${FORCE_OWNERSHIP:-true}" = true ] && [ "$(id -u)" -eq 0 ]; then
        chown -R searxng:searxng "$1"
    else
        echo "!!! WARNING: \"$1\" is not owned by \"searxng:searxng\" (got \"$owner\")"
    fi
}

echo "SearXNG $__SEARXNG_VERSION"
take_ownership "$__SEARXNG_CONFIG_PATH"
take_ownership "$__SEARXNG_DATA_PATH"

settings="$__SEARXNG_CONFIG_PATH/settings.yml"
if [ ! -f "$settings" ]; then
    # Upstream copies its settings template here; the deployment under test always mounts one.
    echo "... INFORMATION: \"$settings\" does not exist, creating from template..."
    cp -pfT /usr/local/searxng/searx/settings.yml "$settings"
    sed -i "s/ultrasecretkey/$(head -c 24 /dev/urandom | base64 | tr -dc 'a-zA-Z0-9')/g" "$settings"
fi

if [ "$(id -u)" -eq 0 ]; then
    update-ca-certificates
fi

case "${SEARXNG_PORT:-}" in
    '' | *[!0-9]*) ;;
    *) export GRANIAN_PORT="$SEARXNG_PORT" ;;
esac

exec /usr/local/searxng/.venv/bin/granian searx.webapp:app
