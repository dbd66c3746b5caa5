# about: an undeclared binding subscript
# expect: exception
# message: KeyError
return await tools['rm-rf']({})
