#!/bin/sh
# read-while.sh BINARY PROFILE COUNT: validates and inspects PROFILE COUNT times each, printing
# "read N" for the number of sessions each read saw ("read locked" for a status of 75).
binary=$1 profile=$2 count=$3
i=0
while [ $i -lt "$count" ]; do
  i=$((i + 1))
  for command in validate inspect; do
    out=$(SWIFT_BACKTRACE=enable=no "$binary" "$command" "$profile" --format json 2>/dev/null)
    status=$?
    if [ $status = 75 ]; then echo "read locked"; continue; fi
    if [ $command = validate ]; then
      echo "$out" | python3 -c 'import json,sys; print("read", json.load(sys.stdin)["summary"]["sessions"])' 2>/dev/null || echo "read unparsable $status"
    else
      echo "$out" | python3 -c 'import json,sys; print("read", len(json.load(sys.stdin)["sessions"]))' 2>/dev/null || echo "read unparsable $status"
    fi
  done
done
