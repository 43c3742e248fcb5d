#!/usr/bin/env bash
# The Action's first step: build tern from the action's own checkout (once), and make the sandbox
# usable on the runner.
set -euo pipefail
cd "$GITHUB_ACTION_PATH"
[ -f dist/tern.js ] || npm ci --no-audit --no-fund
if [ "${INPUT_SANDBOX:-workspace-write}" != off ] && [ "$(uname -s)" = Linux ]; then
  if ! command -v bwrap >/dev/null 2>&1; then
    SUDO=$([ "$(id -u)" = 0 ] && echo "" || echo sudo)
    $SUDO apt-get update -qq && $SUDO apt-get install -y -qq bubblewrap
  fi
  # Ubuntu 24.04 runners refuse unprivileged user namespaces through AppArmor; bubblewrap needs them.
  if [ "$(cat /proc/sys/kernel/apparmor_restrict_unprivileged_userns 2>/dev/null || echo 0)" = 1 ]; then
    sudo sysctl -q -w kernel.apparmor_restrict_unprivileged_userns=0 || echo "tern: could not allow user namespaces; the sandbox may refuse to start"
  fi
fi
