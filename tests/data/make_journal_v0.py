"""Built tests/data/journal-v0.sqlite with the journal code as it was before schema versions (commit 9c1217b).

Kept as a record of how the file was made: `python tests/data/make_journal_v0.py tests/data/journal-v0.sqlite`
at that commit. The migration test (tests/kiosk/test_journal_schema.py) reads the file, not this script.
"""
import json, random, sys
sys.path.insert(0, ".")
from companion.kiosk.journal import Journal
from companion.kiosk.controller import Controller, status_dict
from companion.tools.demo import parse_script, script_path

lines = [t for t, _ in parse_script(script_path().read_text())]
path = sys.argv[1]
j = Journal(path)
t = [1764547200.0]  # 2025-12-01 00:00 UTC
def wall():
    t[0] += 7.0
    return t[0]
c = Controller(j, wall=wall, rng=random.Random(5))
for game in range(2):
    if game == 1:
        c.handle("HS-NEW-NAMES-IGNORED", "scan")
    for text in lines:
        c.handle(text, "scan")
    c.handle("HS-NAME-1:Ann", "key") if game == 0 else c.handle("HS-NAME-2:Bram", "key")
    t[0] += 86400
c.handle("HS-NEW", "scan"); c.handle("HS-PLAYERS-3", "scan"); c.handle("HS-NAME-1:Ann", "key")
c.handle("HS-GO", "button"); c.handle("HS-GO", "button"); c.handle("HS-GO", "button")
c.handle("HS15", "scan"); c.handle("HS26", "scan"); c.handle("HS-UNDO", "button"); c.handle("HS37", "scan")
print(json.dumps({"status": status_dict(c.table), "rows": len(j.entries()), "effective": len(j.effective())}))
j.close()
