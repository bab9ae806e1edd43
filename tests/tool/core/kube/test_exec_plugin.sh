#!/bin/sh
# A client.authentication.k8s.io exec plugin for the tests: prints the token
# found in $TEST_TOKEN_FILE as an ExecCredential of $TEST_API_VERSION, counts its
# runs in $TEST_RUNS_FILE and keeps the KUBERNETES_EXEC_INFO it was given.
set -eu
echo run >> "$TEST_RUNS_FILE"
printf '%s' "$KUBERNETES_EXEC_INFO" > "$TEST_RUNS_FILE.info"
token=$(cat "$TEST_TOKEN_FILE")
expiry=${TEST_EXPIRY:-2099-01-01T00:00:00Z}
printf '{"apiVersion":"%s","kind":"ExecCredential","status":{"token":"%s","expirationTimestamp":"%s"}}\n' \
  "$TEST_API_VERSION" "$token" "$expiry"
