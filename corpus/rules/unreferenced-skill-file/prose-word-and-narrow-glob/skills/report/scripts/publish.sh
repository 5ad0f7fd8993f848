#!/bin/sh
echo publish
