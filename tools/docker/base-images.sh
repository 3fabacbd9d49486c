#!/usr/bin/env bash
# Makes the local images tools/docker/ci.sh runs the self-host on, from Debian's packages
# alone (CI reaches no image registry):
#   omweso-local/debian:bookworm-slim  debootstrap's minbase without docs or apt lists, as
#                                      debian:bookworm-slim is
#   omweso-local/postgres:15           Debian's postgresql, with an entrypoint that reads
#                                      POSTGRES_USER/_PASSWORD/_DB as postgres:16 does
#   omweso-local/nats:2                Debian's nats-server (run with -js)
#   omweso-local/nginx:1               Debian's nginx, configured from conf.d as nginx:1 is
# Cached twice over: an image already in the daemon with this recipe's hash (its label
# org.omweso.recipe) is kept as it is, and each image is saved under $OMWESO_DOCKER_CACHE
# (default /var/cache/omweso-docker) named by that hash, so that a new daemon loads it
# instead of building it again. The hash covers this script and tools/docker/images/, so
# editing either makes new images.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache="${OMWESO_DOCKER_CACHE:-/var/cache/omweso-docker}"
suite=bookworm
mirror="${OMWESO_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
security_mirror="${OMWESO_DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}"
export DOCKER_BUILDKIT=0
mkdir -p "$cache"

# The recipe's hash (the mirrors are left out: any mirror serves the same packages).
recipe=$( (cat "$0"; cd "$here/images" && find . -type f | LC_ALL=C sort | xargs sha256sum) \
    | sha256sum | cut -c1-16)

has_recipe() { # IMAGE: the daemon holds IMAGE made by this recipe
    [ "$(docker image inspect --format '{{index .Config.Labels "org.omweso.recipe"}}' "$1" 2>/dev/null)" = "$recipe" ]
}

from_cache() { # IMAGE FILE: load IMAGE from its saved FILE if there is one
    [ -s "$2" ] || return 1
    docker load --quiet --input "$2" >/dev/null && has_recipe "$1"
}

save() { # IMAGE FILE
    rm -f "$cache"/"$(basename "${2%-*}")"-*.tar # older recipes' saves of this image
    docker save --output "$2.part" "$1" && mv "$2.part" "$2"
}

runtime_base() {
    local image=omweso-local/debian:bookworm-slim file="$cache/runtime-$recipe.tar"
    if has_recipe "$image" || from_cache "$image" "$file"; then return; fi
    local root
    root=$(mktemp -d /var/tmp/omweso-rootfs.XXXXXX)
    # shellcheck disable=SC2064 # the path is fixed now
    trap "rm -rf '$root'" RETURN
    echo "debootstrap $suite (minbase) from $mirror"
    mkdir -p "$cache/debs"
    debootstrap --variant=minbase --cache-dir="$cache/debs" "$suite" "$root/fs" "$mirror" \
        >"$root/debootstrap.log" 2>&1 || { tail -20 "$root/debootstrap.log"; return 1; }
    # What debian:bookworm-slim leaves out, for this install and every later one.
    cat >"$root/fs/etc/dpkg/dpkg.cfg.d/slim" <<'SLIM'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/locale/*
SLIM
    cat >"$root/fs/etc/apt/apt.conf.d/slim" <<'SLIM'
APT::Install-Recommends "false";
APT::Install-Suggests "false";
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/*.bin || true"; };
Acquire::Languages "none";
SLIM
    printf 'deb %s %s main\ndeb %s %s-updates main\ndeb %s %s-security main\n' \
        "$mirror" "$suite" "$mirror" "$suite" "$security_mirror" "$suite" \
        >"$root/fs/etc/apt/sources.list"
    (
        cd "$root/fs"
        find usr/share/doc -mindepth 1 -not -name copyright -not -type d -delete
        find usr/share/doc -mindepth 1 -type d -empty -delete
        rm -rf usr/share/man/* usr/share/info/* usr/share/groff/* usr/share/lintian/* \
            usr/share/locale/* var/cache/apt/archives/*.deb var/cache/apt/*.bin \
            var/lib/apt/lists/* var/log/*.log var/log/apt/* etc/resolv.conf etc/hostname
    )
    tar -C "$root/fs" --numeric-owner -c . \
        | docker import --change "LABEL org.omweso.recipe=$recipe" --change 'CMD ["bash"]' \
            - "$image" >/dev/null
    save "$image" "$file"
}

derived() { # NAME TAG: build tools/docker/images/NAME as omweso-local/NAME:TAG
    local image="omweso-local/$1:$2" file="$cache/$1-$recipe.tar"
    if has_recipe "$image" || from_cache "$image" "$file"; then return; fi
    echo "building $image"
    docker build --quiet --label "org.omweso.recipe=$recipe" \
        --build-arg BASE=omweso-local/debian:bookworm-slim \
        --tag "$image" "$here/images/$1" >/dev/null
    save "$image" "$file"
}

runtime_base
derived postgres 15
derived nats 2
derived nginx 1
docker image ls --format '{{.Repository}}:{{.Tag}} {{.Size}}' 'omweso-local/*' | sort
