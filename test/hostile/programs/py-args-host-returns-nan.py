# about: a host handler answering NaN becomes a typed failure
# expect: success
# value: ["ToolCallError","lossy"]
try:
    await tools.lossy({})
    return 'no raise'
except ToolCallError as e:
    return [type(e).__name__, e.toolName]
