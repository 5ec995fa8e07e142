#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# packaging.install: cplab installs as a desktop application and as a Debian package.
#   check_install.sh BUILD_DIR VERSION
# 1. `cmake --install` into a staging prefix installs both executables, the desktop entry,
#    the AppStream metainfo, the icon, the session MIME type, the manual pages, the licence and
#    the documentation (README.md and the docs/ pages it links to, with their pictures), the
#    Debian copyright file and changelog;
#    desktop-file-validate, `appstreamcli validate --no-net` and `man --warnings` accept them;
#    both executables report VERSION and the installed cplab-cli runs a demo.
# 2. `cpack -G DEB` builds the package; its Depends come from the binaries (Qt, Clp, ...) and
#    it recommends toulbar2; installed by dpkg into a scratch root, its cplab-cli reports VERSION and
#    runs a demo and a built-in data problem (the data are inside the binary: no path into the
#    build tree).
set -eu
build=$(cd "$1" && pwd)
version=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

stage="$scratch/stage"
cmake --install "$build" --prefix "$stage" >/dev/null
for f in bin/cplab bin/cplab-cli share/applications/org.cplab.cplab.desktop \
         share/metainfo/org.cplab.cplab.metainfo.xml share/icons/hicolor/scalable/apps/cplab.svg \
         share/mime/packages/cplab.xml share/man/man1/cplab.1.gz share/man/man1/cplab-cli.1.gz \
         share/doc/cplab/copyright share/doc/cplab/changelog.gz share/doc/cplab/LICENSE share/doc/cplab/README.md share/doc/cplab/docs/cli.md; do
  [ -f "$stage/$f" ] || fail "cmake --install did not install $f"
done
# Every page and picture the installed documentation links to is installed beside it.
doc="$stage/share/doc/cplab"
for page in "$doc/README.md" "$doc"/docs/*.md; do
  for link in $(grep -o '](docs/[^)#]*\|]([a-z_0-9]*\.\(md\|png\)\|src="[a-z_0-9]*\.png' "$page" |
                sed 's/^](//; s/^src="//' | sort -u); do
    [ -f "$(dirname "$page")/$link" ] || fail "$page links to $link, which is not installed"
  done
done
desktop-file-validate "$stage/share/applications/org.cplab.cplab.desktop" ||
  fail "desktop-file-validate"
appstreamcli validate --no-net "$stage/share/metainfo/org.cplab.cplab.metainfo.xml" ||
  fail "appstreamcli validate"
grep -q "release version=\"$version\"" "$stage/share/metainfo/org.cplab.cplab.metainfo.xml" ||
  fail "the metainfo's release is not $version"
# Published with CPLAB_DOCS_URL, the metainfo lists the home page and screenshots from docs/ that
# exist, and still validates.
source=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")
cmake -DOUTPUT="$scratch/web.metainfo.xml" -DDOCS_URL=https://cplab.example.org/ \
      -DPROJECT_VERSION="$version" -P "$source/packaging/metainfo.cmake" || fail "metainfo.cmake"
appstreamcli validate --no-net "$scratch/web.metainfo.xml" || fail "appstreamcli validate (screenshots)"
for shot in $(sed -n 's|.*<image>https://cplab.example.org/\(.*\)</image>|\1|p' "$scratch/web.metainfo.xml"); do
  [ -f "$source/$shot" ] || fail "the metainfo's screenshot $shot is not in the source tree"
done
[ "$(grep -c '<image>' "$scratch/web.metainfo.xml")" -eq 4 ] || fail "the metainfo lists no screenshots"
for page in cplab cplab-cli; do
  warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$stage/share/man/man1/$page.1.gz" 2>&1 >/dev/null)
  [ -z "$warnings" ] || fail "man $page: $warnings"
  zgrep -q "cplab $version" "$stage/share/man/man1/$page.1.gz" || fail "man $page: not version $version"
done
# Every command and option of cplab-cli's usage is in its manual page.
for word in $("$stage/bin/cplab-cli" --help | grep -o -- '--[a-z-]*\|cplab-cli [a-z]*' | sed 's/cplab-cli //' | sort -u); do
  zgrep -q -- "$(echo "$word" | sed 's/-/\\\\-/g')" "$stage/share/man/man1/cplab-cli.1.gz" ||
    zgrep -q -- "$word" "$stage/share/man/man1/cplab-cli.1.gz" || fail "man cplab-cli lacks $word"
done
# Every option of cplab's --help is in its manual page.
for word in $(QT_QPA_PLATFORM=offscreen "$stage/bin/cplab" --help 2>/dev/null | grep -o -- '--[a-z-]*' | sort -u); do
  zgrep -q -- "$(echo "$word" | sed 's/-/\\\\-/g')" "$stage/share/man/man1/cplab.1.gz" || fail "man cplab lacks $word"
done
[ "$("$stage/bin/cplab-cli" --version)" = "cplab-cli $version" ] || fail "cplab-cli --version"
[ "$("$stage/bin/cplab" --version)" = "cplab $version" ] || fail "cplab --version"
"$stage/bin/cplab-cli" demo kelley --quiet --json | grep -q "\"cplab_version\": \"$version\"" ||
  fail "installed cplab-cli demo kelley"

command -v cpack >/dev/null || fail "cpack not found"
(cd "$scratch" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$scratch/pkg" >/dev/null) ||
  fail "cpack -G DEB"
deb=$(ls "$scratch"/pkg/cplab_"$version"_*.deb)
# Lintian-clean: no error and no warning (Debian's policy checks: copyright file, changelog,
# stripped binaries, compressed manual pages, the description, the maintainer).
command -v lintian >/dev/null || fail "lintian not found (scripts/setup.sh installs it)"
lintian --fail-on error,warning "$deb" >"$scratch/lintian.txt" 2>&1 ||
  fail "lintian: $(grep -v '^running with root' "$scratch/lintian.txt")"
info=$(dpkg-deb --field "$deb" Depends Recommends Version)
echo "$info" | grep -q 'libqt6widgets6' || fail "Depends lacks Qt: $info"
echo "$info" | grep -q 'coinor-libclp' || fail "Depends lacks Clp: $info"
echo "$info" | grep -q 'Recommends: toulbar2' || fail "Recommends lacks toulbar2: $info"
# Installed by dpkg into a scratch root with a database of its own (dependencies are this
# machine's: each Depends alternative must be installed here, checked below).
root="$scratch/root"
admin="$scratch/dpkg"
mkdir -p "$root" "$admin/info" "$admin/updates"
touch "$admin/status"
dpkg --root="$root" --admindir="$admin" --force-depends --force-not-root \
     --force-script-chrootless -i "$deb" >/dev/null 2>&1 || fail "dpkg -i into a scratch root"
[ "$(dpkg-query --admindir="$admin" -W -f='${Status}' cplab)" = "install ok installed" ] ||
  fail "dpkg does not list cplab as installed in the scratch root"
for group in $(dpkg-deb --field "$deb" Depends | sed 's/([^)]*)//g; s/ //g; s/,/ /g'); do
  ok=no
  for alternative in $(echo "$group" | tr '|' ' '); do
    if dpkg-query -W -f='${Status}\n' "$alternative" 2>/dev/null | grep -q "ok installed"; then ok=yes; fi
  done
  [ $ok = yes ] || fail "the package depends on $group, which is not installed here"
done
[ "$("$root/usr/bin/cplab-cli" --version)" = "cplab-cli $version" ] || fail "packaged --version"
"$root/usr/bin/cplab-cli" demo kelley --quiet >/dev/null || fail "packaged demo kelley"
"$root/usr/bin/cplab-cli" run ocas --problem heart_scale --quiet >/dev/null ||
  fail "packaged run on the built-in heart_scale"
if grep -q -- "$build" "$root/usr/bin/cplab-cli"; then fail "cplab-cli names the build tree"; fi
echo "packaging: installed, validated and packaged $deb"
