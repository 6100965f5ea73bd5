#!/bin/sh
# The official image's docker-entrypoint.sh: as root, own /data and step down to valkey.
# One difference: the official build patches protected mode off in valkey's source (ports are
# published only on purpose in Docker); Debian's binary has it on, so it is switched off here.
set -e
if [ "${1#-}" != "$1" ] || [ "${1%.conf}" != "$1" ]; then
    set -- valkey-server "$@"
fi
if [ "$1" = valkey-server ]; then
    if [ "$(id -u)" = 0 ]; then
        find . \! -user valkey -exec chown valkey '{}' +
        exec setpriv --reuid=valkey --regid=valkey --clear-groups -- "$0" "$@"
    fi
    set -- "$@" --protected-mode no
fi
umask 0077
exec "$@"
