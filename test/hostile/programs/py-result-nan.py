# about: returns NaN
# expect: invalid-output
return float('nan')
