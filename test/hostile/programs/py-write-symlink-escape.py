# about: symlinks the outside dir into its temp dir and writes through it
# expect: success|exception
# must-not: file-created
import os, tempfile
link = os.path.join(tempfile.gettempdir(), 'escape')
try:
    os.symlink('{{OUTSIDE_DIR}}', link)
    open(link + '/through-link', 'w').write('x')
    return 'written'
except Exception as e:
    return type(e).__name__
