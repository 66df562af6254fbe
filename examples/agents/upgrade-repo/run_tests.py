"""The repository's tests: the invoice total over the test database."""
import json
import sys

try:
    from app import invoice_total
except ImportError as error:
    print(f"FAIL: cannot import the app: {error}")
    sys.exit(1)

with open("data/test_db.json") as f:
    accounts = json.load(f)["accounts"]
got = invoice_total(accounts)
if got != 60:
    print(f"FAIL: invoice total {got}, expected 60 ({len(accounts)} accounts in the test database)")
    sys.exit(1)
print("ok: 1 test passed")
