"""The data migration minilib 2.0's changelog asks for: amounts move to cents. It has a bug: it keeps only the
accounts whose id is odd, so the test database loses a record."""
import json

with open("data/test_db.json") as f:
    db = json.load(f)
db["accounts"] = [a for a in db["accounts"] if a["id"] % 2 == 1]
with open("data/test_db.json", "w") as f:
    json.dump(db, f)
print(f"migrated {len(db['accounts'])} accounts")
