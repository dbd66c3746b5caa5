# about: rebinds json.dumps/loads and the json module
# expect: success
# value: {"ok":3}
import json, sys
json.dumps = lambda *a, **k: '"pwned"'
json.loads = lambda *a, **k: {}
sys.modules['json'] = None
return {'ok': await tools.add({'a': 1, 'b': 2})}
