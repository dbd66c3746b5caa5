# about: CONTROL: with the sandbox off, the write outside lands
# expect: success
# must: file-created
# options: {"sandbox": "off"}
open('{{OUTSIDE_DIR}}/written', 'w').write('x')
return 'written'
