#!/bin/sh
# An exec hook: refuse an update whose target config lacks an RHCOS extension we rely on.
# The runner sets MCDHOOKS_* facts; REQUIRED_EXTENSIONS comes from the hook's own deployment.
# Exit 0 = PASS, exit 1 = FAIL, anything else = try again later. The last line is the message.
set -eu
cat > /dev/null   # the full GateRequest JSON arrives on stdin; this hook needs only the variables
for ext in $(echo "${REQUIRED_EXTENSIONS:-}" | tr ',' ' '); do
  case ",$MCDHOOKS_EXTENSIONS," in
    *",$ext,"*) ;;
    *) echo "target $MCDHOOKS_TARGET_CONFIG lacks extension $ext"; exit 1 ;;
  esac
done
echo "target $MCDHOOKS_TARGET_CONFIG has every required extension (${REQUIRED_EXTENSIONS:-none})"
