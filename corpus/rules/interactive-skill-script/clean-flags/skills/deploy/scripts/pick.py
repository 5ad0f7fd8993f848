import argparse
import sys

parser = argparse.ArgumentParser()
parser.add_argument("--region", required=True)
args = parser.parse_args()
data = sys.stdin.read()
user_input = args.region
