# about: returns a dict with int keys
# expect: invalid-output
return {1: 'a'}
