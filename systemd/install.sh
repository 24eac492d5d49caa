#!/usr/bin/env bash
# Install Jack Table Companion as a kiosk that starts at boot, or take it away again.
#
#   sudo bash systemd/install.sh               install (or update) and start it
#   sudo bash systemd/install.sh --uninstall   stop it and remove the unit and the app;
#                                              the family's games in /var/lib/jack-companion stay
#   sudo bash systemd/install.sh --uninstall --purge   ... and remove the games and the user too
#
# Options: --user NAME (default jack-companion), --prefix DIR (default /opt/jack-companion),
# --no-start (enable only), --root DIR (stage everything under DIR instead of /: no user, no
# systemctl; what the tests use). Running it twice changes nothing the second time.
set -euo pipefail

user=jack-companion
prefix=/opt/jack-companion
root=
action=install
start=yes
purge=no

while [ $# -gt 0 ]; do
    case "$1" in
        --uninstall) action=uninstall ;;
        --purge) purge=yes ;;
        --no-start) start=no ;;
        --user) user=$2; shift ;;
        --prefix) prefix=$2; shift ;;
        --root) root=$(realpath -m "$2"); shift ;;
        -h | --help) sed -n '2,13p' "$0"; exit 0 ;;
        *) echo "unknown option: $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
unit_name=jack-companion.service
unit_dir=$root/etc/systemd/system
venv=$prefix/venv
state_dir=/var/lib/jack-companion
say() { printf '==> %s\n' "$*"; }

if [ -z "$root" ] && [ "$(id -u)" -ne 0 ]; then
    echo "run it as root: sudo bash systemd/install.sh" >&2
    exit 1
fi
systemd_running() { [ -z "$root" ] && [ -d /run/systemd/system ]; }

source_tar() {
    # The same bytes for the same files: sorted names, fixed owners and times.
    # A test run's leftovers (hypothesis's examples, pip's egg-info) are not the app's source.
    tar -C "$repo" --exclude=.venv --exclude=.git --exclude='__pycache__' --exclude=.hypothesis --exclude='*.egg-info' --sort=name \
        --owner=0 --group=0 --numeric-owner --mtime='2000-01-01 00:00Z' -cf - .
}

render_unit() {
    sed -e "s#@USER@#$user#g" -e "s#@VENV@#$venv#g" -e "s#@APP_DIR@#$prefix#g" "$repo/systemd/$unit_name"
}

install() {
    if [ -z "$root" ]; then
        bash "$repo/.ci/setup" deps
        if ! id "$user" >/dev/null 2>&1; then
            say "creating the user $user"
            useradd --system --home-dir "$state_dir" --no-create-home --shell /usr/sbin/nologin "$user"
        fi
        for group in gpio input video render dialout; do
            if getent group "$group" >/dev/null && ! id -nG "$user" | tr ' ' '\n' | grep -qx "$group"; then
                say "adding $user to $group"
                usermod -aG "$group" "$user"
            fi
        done
    fi

    if [ ! -x "$root$venv/bin/python" ]; then
        say "creating $venv"
        mkdir -p "$root$prefix"
        python3 -m venv "$root$venv"
    fi
    # A copy of the source, so the kiosk does not depend on where this checkout lives; installed
    # again only when the source differs from what was installed last (its digest is kept).
    local digest stamp="$root$prefix/installed-source.sha256"
    digest=$(source_tar | sha256sum | cut -d' ' -f1)
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$digest" ] && [ -x "$root$venv/bin/jack-companion" ]; then
        say "app unchanged in $venv"
    else
        say "installing the app into $venv"
        rm -rf "$root$prefix/src"
        mkdir -p "$root$prefix/src"
        source_tar | tar -C "$root$prefix/src" -xf -
        cp "$repo/README.md" "$root$prefix/README.md"
        "$root$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$root$prefix/src"
        printf '%s\n' "$digest" > "$stamp"
    fi

    mkdir -p "$unit_dir"
    local new
    new=$(render_unit)
    if [ -f "$unit_dir/$unit_name" ] && [ "$(cat "$unit_dir/$unit_name")" = "$new" ]; then
        say "unit unchanged"
    else
        say "writing $unit_dir/$unit_name"
        printf '%s\n' "$new" > "$unit_dir/$unit_name"
    fi
    if command -v systemd-analyze >/dev/null 2>&1; then
        if [ -n "$root" ]; then
            # Staged: check the unit against the staged app, then keep the real paths in it.
            sed "s#$venv#$root$venv#g" "$unit_dir/$unit_name" > "$root/verify-$unit_name"
            systemd-analyze verify "$root/verify-$unit_name"
            rm -f "$root/verify-$unit_name"
        else
            systemd-analyze verify "$unit_dir/$unit_name"
        fi
    fi
    if systemd_running; then
        systemctl daemon-reload
        systemctl enable "$unit_name"
        if [ "$start" = yes ]; then
            systemctl restart "$unit_name"
            say "started: journalctl -u jack-companion -f shows its log"
        fi
    else
        say "systemd is not running here: the unit is installed but not enabled"
    fi
}

uninstall() {
    if systemd_running && systemctl list-unit-files "$unit_name" >/dev/null 2>&1; then
        systemctl disable --now "$unit_name" 2>/dev/null || true
    fi
    rm -f "$unit_dir/$unit_name"
    systemd_running && systemctl daemon-reload
    rm -rf "${root:?}$prefix" 2>/dev/null || rm -rf "$prefix"
    if [ "$purge" = yes ] && [ -z "$root" ]; then
        rm -rf "$state_dir"
        id "$user" >/dev/null 2>&1 && userdel "$user"
    fi
    if [ "$purge" = yes ]; then say "uninstalled, games and user removed"; else say "uninstalled (the games in $state_dir are kept)"; fi
}

"$action"
