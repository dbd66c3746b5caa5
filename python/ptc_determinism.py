"""Deterministic replays: a frozen wall clock and seeded randomness, installed before any model code runs.

Same meaning as the TypeScript backend's DeterministicSettings (runtime/replay/freeze-nondeterminism.ts):
time.time / time.time_ns / datetime.now / date.today read `epochMs`; `random`, os.urandom (and so uuid4,
secrets, SystemRandom) draw from `seed`. Monotonic clocks keep running: asyncio schedules timers with them.
"""

import datetime
import os
import random
import time


def freeze(epoch_ms, seed):
    seconds = epoch_ms / 1000.0
    nanos = epoch_ms * 1_000_000
    time.time = lambda: seconds
    time.time_ns = lambda: nanos
    real_datetime = datetime.datetime
    real_date = datetime.date

    class FrozenDateTime(real_datetime):
        @classmethod
        def now(cls, tz=None):
            return cls.fromtimestamp(seconds, tz)

        @classmethod
        def utcnow(cls):
            return cls.fromtimestamp(seconds, datetime.timezone.utc).replace(tzinfo=None)

        @classmethod
        def today(cls):
            return cls.fromtimestamp(seconds)

    class FrozenDate(real_date):
        @classmethod
        def today(cls):
            return cls.fromtimestamp(seconds)

    for cls, real in ((FrozenDateTime, real_datetime), (FrozenDate, real_date)):
        cls.__name__ = cls.__qualname__ = real.__name__
        cls.__module__ = "datetime"
    datetime.datetime = FrozenDateTime
    datetime.date = FrozenDate
    random.seed(seed)
    bytes_source = random.Random(seed ^ 0x5EED5EED)

    def urandom(size):
        return bytes_source.randbytes(size) if size > 0 else b""

    os.urandom = urandom
    random._urandom = urandom
