# The same model program in Python: gather the lookups, handle the failing one, return a summary.
import asyncio

names = ["Paris", "Lyon", "Berlin", "Atlantis"]
results = await asyncio.gather(*(tools.lookupCity({"name": n}) for n in names), return_exceptions=True)
found = []
for name, outcome in zip(names, results):
    if isinstance(outcome, Exception):
        print(f"skipped {name}: {outcome}")
    else:
        found.append(outcome)
print(f"found {len(found)} of {len(names)} cities")
found.sort(key=lambda c: c["population"], reverse=True)
return {"total": sum(c["population"] for c in found), "largest": found[0]["name"]}
