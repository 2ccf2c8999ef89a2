#!/bin/sh
# A hook with no SDK at all: kcat reads GateRequests, jq writes Verdicts, kcat publishes them.
# It answers every gate: FAIL while $FREEZE names a change freeze, PASS otherwise.
# Needs kcat and jq (Debian: apt-get install kcat jq). Set BOOTSTRAP to the Kafka bootstrap servers.
set -eu
HOOK="${HOOK:-shell-change-freeze}"
REQUESTS="${REQUESTS_TOPIC:-mcdhooks.gate-requests.v1}"
VERDICTS="${VERDICTS_TOPIC:-mcdhooks.verdicts.v1}"

# One consumer group per hook; one GateRequest (the CloudEvent's data, one JSON line) per line.
kcat -C -b "$BOOTSTRAP" -G "mcdhooks.hook.$HOOK" -X auto.offset.reset=earliest -u -q -f '%s\n' "$REQUESTS" |
while IFS= read -r request; do
  if [ -n "${FREEZE:-}" ]; then
    outcome=FAIL reason=ChangeFreeze message="change freeze: $FREEZE"
  else
    outcome=PASS reason=NoChangeFreeze message="no change freeze"
  fi
  now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
  # Echo the request's identity; skip anything that is not a GateRequest.
  verdict=$(printf '%s' "$request" | jq -ce --arg hook "$HOOK" --arg outcome "$outcome" --arg reason "$reason" \
      --arg message "$message" --arg now "$now" \
      'select(.gateId and .attempt) | {cluster, gateId, attempt, hook: $hook, stage, pool: .pool.name,
        node: .node.name, targetConfig, outcome: $outcome, reason: $reason, message: $message,
        producedAt: $now} | with_entries(select(.value != null))') || continue
  key=$(printf '%s' "$verdict" | jq -r '.node // .pool')
  cluster=$(printf '%s' "$verdict" | jq -r '.cluster')
  # The same gate, attempt, outcome and reason always get the same id: a replay is a duplicate.
  id=$(printf '%s' "$verdict" | jq -r '[.gateId, (.attempt | tostring), .hook, .outcome, .reason] | join("/")')
  printf '%s\n' "$verdict" | kcat -P -b "$BOOTSTRAP" -t "$VERDICTS" -k "$key" \
      -H ce_specversion=1.0 -H "ce_id=$id" -H "ce_source=/hooks/$HOOK" \
      -H ce_type=io.mcdhooks.gate.verdict.v1 -H content-type=application/json \
      -H "ce_time=$now" -H "ce_subject=$key" -H "ce_cluster=$cluster" -H "ce_partitionkey=$key"
done
