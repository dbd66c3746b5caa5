# about: awaits a binding call that never answers
# expect: timeout
# calls: 1
await tools.never({})
