# about: an exception with a 5 MB message
# expect: output-limit|exception
raise ValueError('m' * 5_000_000)
