# about: host failures arrive as the declared error class with the member attribute
# expect: success
# value: [true,"fail","tool exploded"]
try:
    await tools.fail({})
except ToolCallError as e:
    return [isinstance(e, Exception), e.toolName, str(e)]
