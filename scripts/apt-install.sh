# Sourced by the install scripts: `apt_install LABEL PACKAGE…` installs the Debian
# packages not already present (with sudo when not root) and says what it did, prefixed
# by LABEL. Idempotent.
apt_install() {
    local label=$1 missing=() sudo="" p
    shift
    for p in "$@"; do
        dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
    done
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    if [ ${#missing[@]} -eq 0 ]; then
        echo "$label: Debian packages present ($*)"
    else
        $sudo apt-get update -qq
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
        echo "$label: installed ${missing[*]}"
    fi
}
