# about: a host handler throwing a value with a hostile toString
# expect: success
# value: "throwsHostile"
try:
    await tools.throwsHostile({})
    return 'no raise'
except ToolCallError as e:
    return e.toolName
