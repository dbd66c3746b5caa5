# about: lone surrogates in logs and value
# expect: success|exception
# value: "\udc00"
print('a\ud800b')
return '\udc00'
