# about: urllib to the loopback listener
# expect: success|exception
# must-not: tcp-received
import urllib.request
try:
    urllib.request.urlopen('http://127.0.0.1:{{TCP_PORT}}/', timeout=1)
    return 'fetched'
except Exception as e:
    return type(e).__name__
