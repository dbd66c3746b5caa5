# about: nulls every global of the __main__ module (the runner)
# expect: success
# value: "still settles"
import __main__, sys
for name in list(vars(__main__)):
    if not name.startswith('__'):
        setattr(__main__, name, None)
for mod in list(sys.modules.values()):
    if mod is not None and getattr(mod, '__file__', '') and 'ptc' in str(getattr(mod, '__file__', '')):
        for name in list(vars(mod)):
            if not name.startswith('__'):
                try:
                    setattr(mod, name, None)
                except Exception:
                    pass
return 'still settles'
