"""Picks a region.

input() in a docstring is not a call.
"""
import getpass

region = input("Region: ")  # input( in a comment
print("input( in a string")
token = getpass.getpass()
