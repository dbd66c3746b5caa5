# about: return None is null
# expect: success
# value: null
return None
