#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# in_x_server.sh WIDTHxHEIGHT DISPLAY COMMAND [ARGUMENTS...]
# Runs COMMAND in an X server of its own (Xvfb, one screen of that size) under a window manager
# (openbox), as on a lecturer's desktop: the window gets a title bar and borders, and the
# screen's work area is what the window manager leaves free. DISPLAY is the first display
# number tried (the next free one is taken). Exits 77, CTest's SKIP_RETURN_CODE, where Xvfb,
# openbox or xprop is missing (scripts/setup.sh installs them; CI has them).
set -u
size=$1
display=$2
shift 2
for tool in Xvfb openbox xprop; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "skipped: $tool is not installed (scripts/setup.sh installs it)"
        exit 77
    fi
done
xvfb=
wm=
# The servers go with the script, whose status stays the command's.
trap 'status=$?; kill $wm $xvfb 2>/dev/null; wait 2>/dev/null; exit $status' EXIT
# Waits up to 30 s (a busy machine) for the command "$@" to succeed; false if it does not.
await() {
    tries=300
    until "$@" >/dev/null 2>&1; do
        tries=$((tries - 1))
        [ $tries -gt 0 ] || return 1
        sleep 0.1
    done
}
# A display another X server holds is skipped; one taken between the check and the start
# makes this Xvfb exit, and the next number is tried.
last=$((display + 20))
while :; do
    [ "$display" -le "$last" ] || { echo "no free X display"; exit 1; }
    if [ ! -e "/tmp/.X$display-lock" ]; then
        Xvfb ":$display" -screen 0 "${size}x24" -nolisten tcp >/dev/null 2>&1 &
        xvfb=$!
        if await xprop -display ":$display" -root && kill -0 "$xvfb" 2>/dev/null; then break; fi
        kill "$xvfb" 2>/dev/null
        wait "$xvfb" 2>/dev/null
        xvfb=
    fi
    display=$((display + 1))
done
export DISPLAY=":$display"
# The window manager is up when it names its check window on the root; one that has not
# come up in 30 s (seen once on a loaded machine) is started once more.
log=$(mktemp)
for attempt in 1 2; do
    openbox >"$log" 2>&1 &
    wm=$!
    if await sh -c 'xprop -root _NET_SUPPORTING_WM_CHECK | grep -q "window id"'; then break; fi
    echo "openbox did not start on $DISPLAY (attempt $attempt):"
    cat "$log"
    ps -p "$wm" -o pid,stat,args
    kill "$wm" 2>/dev/null
    wait "$wm" 2>/dev/null
    wm=
    if [ "$attempt" = 2 ]; then
        rm -f "$log"
        exit 1
    fi
done
rm -f "$log"
QT_QPA_PLATFORM=xcb "$@"
