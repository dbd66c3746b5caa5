# about: the environment holds none of the host variables
# expect: success
# value: [null,false,false]
# must-not: secret-leaked
import os
return [os.environ.get('PTC_HOSTILE_ENV_SECRET'), os.environ.get('HOME') == '{{HOST_HOME}}', os.environ.get('PATH') is not None and 'node_modules' in os.environ.get('PATH', '')]
