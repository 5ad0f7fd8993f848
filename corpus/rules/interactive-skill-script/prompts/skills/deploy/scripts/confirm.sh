#!/bin/sh
# Asks first: read -p "in a comment is not a call"
read -r -p "Continue? " answer
while read -r line; do echo "$line"; done < hosts.txt
cat <<TEXT
read -p "in a heredoc is text"
TEXT
