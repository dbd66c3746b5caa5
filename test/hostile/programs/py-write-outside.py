# about: writes outside its temp dir in several ways
# expect: success|exception
# must-not: file-created
import os, shutil, tempfile
t = '{{OUTSIDE_DIR}}'
out = []
def attempt(name, fn):
    try:
        fn()
        out.append(name + ': written')
    except Exception as e:
        out.append(name + ': ' + type(e).__name__)
attempt('open', lambda: open(t + '/a', 'w').write('x'))
attempt('mkdir', lambda: os.mkdir(t + '/d'))
attempt('os.open', lambda: os.close(os.open(t + '/b', os.O_CREAT | os.O_WRONLY)))
src = os.path.join(tempfile.gettempdir(), 'src')
attempt('copy', lambda: (open(src, 'w').write('x'), shutil.copy(src, t + '/c')))
attempt('rename', lambda: (open(src, 'w').write('x'), os.rename(src, t + '/r')))
attempt('cwd-relative', lambda: open('relative-write', 'w').write('x'))
return out
