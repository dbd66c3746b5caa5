# about: a 2 MB string as the completion
# expect: output-limit
return 'x' * 2_000_000
