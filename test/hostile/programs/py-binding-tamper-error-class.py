# about: tampers with the error class before a failing call
# expect: success|exception
ToolCallError.__str__ = None
try:
    await tools.fail({})
except Exception as e:
    return getattr(e, 'toolName', 'no member')
