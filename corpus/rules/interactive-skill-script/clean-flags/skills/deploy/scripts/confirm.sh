#!/bin/sh
answer="${CONFIRM:-no}"
while read -r line; do echo "$line"; done < hosts.txt
if [ -t 0 ]; then read -p "Continue? " answer; fi
