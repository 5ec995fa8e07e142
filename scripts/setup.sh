#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the Debian (bookworm) packages cplab needs to build, test and run. Idempotent:
# packages already present are left alone. Works as root or through sudo.
set -eu

PACKAGES="
  cmake
  g++
  ninja-build
  pkg-config
  qt6-base-dev
  qt6-svg-dev
  libgif-dev
  libqcustomplot-dev
  libeigen3-dev
  coinor-libclp-dev
  libocas-dev
  libocas-tools
  liblinear-dev
  libsvm-dev
  liblbfgspp-dev
  libdlib-dev
  toulbar2
  zlib1g-dev
  libpng-dev
  libopenmpi-dev
  openmpi-bin
  libgl-dev
  fonts-dejavu-core
  desktop-file-utils
  appstream
  dpkg-dev
  man-db
  file
  lintian
  xvfb
  openbox
  xdotool
  x11-utils
  libzip-dev
  libmatio-dev
  libginac-dev
  libhdf5-dev
  libsvm-tools
  liblinear-tools
"

missing=""
for p in $PACKAGES; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done

if [ -z "$missing" ]; then
  echo "setup: all $(echo $PACKAGES | wc -w) packages already installed:" $PACKAGES
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1; then
  SUDO="sudo"
else
  echo "setup: need root or sudo to install:$missing" >&2
  exit 1
fi

echo "setup: installing:$missing"
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q
# shellcheck disable=SC2086
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
echo "setup: done"
