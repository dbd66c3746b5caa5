# about: rebinds os.write, os.read, os._exit and os.kill
# expect: success
# value: "through"
# logs: ^still logging$
import os
os.write = os.read = os._exit = os.kill = os.close = None
print('still logging')
return await tools.echo('through')
