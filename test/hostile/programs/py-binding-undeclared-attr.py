# about: an undeclared binding attribute
# expect: exception
# message: AttributeError
return await tools.rmrf({})
