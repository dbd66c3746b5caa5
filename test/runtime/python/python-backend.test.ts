import fs from 'node:fs';
import { describe, expect, test } from 'vitest';
import { pendingTeardowns } from '../../../runtime/engine/fresh-child.js';
import { resolvePython } from '../../../runtime/python/python-executable.js';
import { settleTo } from '../../helpers/eventually.js';
import { alive, processesRunning } from '../../helpers/processes.js';
import { run, toolsNamespace, type RunOptions } from '../../helpers/runtime.js';

const py = (program: string, options: RunOptions = {}) => run('python', program, options);

describe.concurrent('Python backend: program shape and bindings', () => {
  test('declared functions answer as attributes and subscripts; kwargs are one JSON object', async () => {
    const bindings = [toolsNamespace({ 'my-tool': async () => 'dash', __class__: async () => 'routed' } as never)];
    const r = await py(
      "return [await tools['my-tool']({}), await tools.echo(a=1, b=[2]), await tools.__class__(), 'my-tool' in tools, 'nope' in tools, hasattr(tools, 'nope')]",
      { bindings },
    );
    expect(r.value).toEqual(['dash', { a: 1, b: [2] }, 'routed', true, false, false]);
  });

  test('undeclared names raise AttributeError (attribute) and KeyError (subscript)', async () => {
    const r = await py(
      "out = []\ntry:\n    tools.nope\nexcept AttributeError as e:\n    out.append('attr')\ntry:\n    tools['nope']\nexcept KeyError:\n    out.append('key')\nreturn out",
      { bindings: [toolsNamespace()] },
    );
    expect(r.value).toEqual(['attr', 'key']);
  });

  test("top-level await and return work, and error lines are the author's", async () => {
    const r = await py("import asyncio\nawait asyncio.sleep(0)\n\n\nraise KeyError('k')");
    expect(r.error?.location?.line).toBe(5);
    expect(r.error?.message).toMatch(/File "<program>", line 5, in <module>/);
  });

  test("tracebacks keep only the program's frames, and a 300-link chain is capped quickly", async () => {
    const r = await py(
      'def f(n):\n    try:\n        raise ValueError(n)\n    except ValueError:\n        if n:\n            f(n - 1)\n        else:\n            raise\nf(300)',
    );
    expect(r.error?.kind).toBe('exception');
    expect(r.error?.message).not.toMatch(/ptc_|asyncio|runpy/);
    expect(r.error?.message.length).toBeLessThanOrEqual(16 * 1024);
    expect(r.error?.location?.line).toBe(3);
  });

  test('without imports the program runs on the small driver; awaiting a foreign awaitable is a clear error', async () => {
    const [plain, foreign, mixed] = await Promise.all([
      py('a = await tools.add({"a": 1, "b": 2})\nb = await tools.add({"a": a, "b": 3})\nreturn b', {
        bindings: [toolsNamespace()],
      }),
      py('class Odd:\n    def __await__(self):\n        yield 42\nawait Odd()'),
      py(
        'import asyncio\nasync def one(i):\n    return await tools.echo(i)\nreturn await asyncio.gather(one(1), one(2))',
        { bindings: [toolsNamespace()] },
      ),
    ]);
    expect(plain.value).toBe(6);
    expect(foreign.error?.kind).toBe('exception');
    expect(foreign.error?.message).toMatch(/RuntimeError: the program awaited int outside an event loop/);
    expect(foreign.error?.location?.line).toBe(3);
    expect(mixed.value).toEqual([1, 2]);
  });

  test('a thread with its own event loop can call bindings; 1 000 unawaited calls at return do not break the run', async () => {
    const r = await py(
      "import asyncio, threading\nbox = {}\ndef worker():\n    box['v'] = asyncio.run(tools.echo({'from': 'thread'}))\nt = threading.Thread(target=worker)\nt.start()\nwhile t.is_alive():\n    await asyncio.sleep(0.01)\npending = [asyncio.ensure_future(tools.echo(i)) for i in range(1000)]\nreturn box['v']",
      { bindings: [toolsNamespace()] },
    );
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual({ from: 'thread' });
  });

  test('site-packages of the interpreter are on sys.path (readable inside the confined root)', async () => {
    const lookup = await resolvePython(undefined);
    if (!lookup.ok) throw new Error(lookup.message);
    const r = await py('import sys, os\nreturn [p for p in sys.path if os.path.isdir(p)]');
    for (const dir of lookup.python.sitePackages) expect(r.value).toContain(dir);
  });

  test("the runner's own modules are out of the program's reach", async () => {
    const r = await py('import ptc_json');
    expect(r.error?.message).toMatch(/ModuleNotFoundError: No module named 'ptc_json'/);
  });

  test('print(end="") then print joins into one entry; print("a", "b") is one entry; threads keep whole lines', async () => {
    const r = await py(
      "print('a', end='', flush=True)\nprint('b')\nprint('x', 'y')\nimport threading\ndef w(i):\n    for j in range(50):\n        print(f'{i}-{j}')\nts = [threading.Thread(target=w, args=(i,)) for i in range(4)]\n[t.start() for t in ts]\n[t.join() for t in ts]\nreturn 1",
    );
    expect(r.logs.slice(0, 2)).toEqual(['ab', 'x y']);
    expect(r.logs.slice(2).sort()).toEqual(
      Array.from({ length: 4 }, (_, i) => Array.from({ length: 50 }, (_, j) => `${i}-${j}`))
        .flat()
        .sort(),
    );
  });

  test('sys.exit(3) is worker-exit naming code 3; a string exit message lands in the logs', async () => {
    const [a, b] = await Promise.all([py('import sys\nsys.exit(3)'), py("import sys\nsys.exit('bye')")]);
    expect(a.error).toEqual({ kind: 'worker-exit', message: 'Python process exited before completing (code 3)' });
    expect(b.error?.message).toMatch(/code 1/);
    expect(b.logs).toEqual(['bye']);
  });
});

describe.concurrent('Python backend: values', () => {
  test.each([
    ['a tuple', 'return (1, 2)', /\$ is a tuple/],
    ['a set', 'return {1, 2}', /\$ is a set/],
    ['a non-string key', 'return {"a": {1: 2}}', /\$\.a has a non-string key/],
    ['-0.0', 'return [-0.0]', /\$\[0\] is -0/],
    ['inf', "return float('inf')", /Infinity/],
    ['2**53 + 1', 'return 2**53 + 1', /cannot represent exactly/],
    ['a dict subclass', 'class D(dict):\n    pass\nreturn D()', /subclass/],
    ['an object', 'return object()', /object of type object/],
  ])('returning %s is invalid-output', async (_name, program, reason) => {
    const r = await py(program);
    expect(r.error?.kind).toBe('invalid-output');
    expect(r.error?.message).toMatch(reason);
  });

  test('integers beyond 2^53 cross when a double represents them exactly; floats keep their value', async () => {
    const r = await py('return [2**53, 2**60, -2**60, 1.5, 1e21, 1e-7, 0.1, True, None]');
    expect(r.value).toEqual([2 ** 53, 2 ** 60, -(2 ** 60), 1.5, 1e21, 1e-7, 0.1, true, null]);
  });

  test('host numbers beyond 2^53 arrive as the exact integer of the double', async () => {
    const r = await py('v = await tools.echo(2**60)\nreturn [type(v).__name__, v == 2**60]', {
      bindings: [toolsNamespace()],
    });
    expect(r.value).toEqual(['int', true]);
  });

  test('lone surrogates and astral characters cross both ways', async () => {
    const r = await py("v = await tools.echo('a\\udc80b😀')\nreturn [v == 'a\\udc80b😀', v]", {
      bindings: [toolsNamespace()],
    });
    expect(r.value).toEqual([true, 'a\udc80b😀']);
  });
});

describe.concurrent('Python backend: limits and process control', () => {
  test('a CPU limit hit by SIGXCPU is timeout', async () => {
    const r = await py('import resource\nresource.setrlimit(resource.RLIMIT_CPU, (1, 3))\nwhile True:\n    pass', {
      timeoutMs: 30_000,
    });
    expect(r.error?.kind).toBe('timeout');
    expect(r.error?.message).toMatch(/CPU time exhausted/);
    expect(r.logs).toEqual([]);
  });

  test('trapping and masking SIGXCPU still ends as timeout', async () => {
    const r = await py(
      'import signal\nsignal.signal(signal.SIGXCPU, lambda *a: None)\nsignal.signal(signal.SIGTERM, lambda *a: None)\nsignal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGXCPU])\nwhile True:\n    pass',
      { timeoutMs: 1_500 },
    );
    expect(r.error).toEqual({ kind: 'timeout', message: 'execution deadline reached (1500ms)' });
  });

  test('an exhausted address space is exception carrying MemoryError, at its line', async () => {
    const [big, grow] = await Promise.all([
      py('x = 1\ny = bytearray(10**10)'),
      py('keep = []\nwhile True:\n    keep.append(bytearray(10**6))', { memoryMb: 128 }),
    ]);
    expect(big.error?.kind).toBe('exception');
    expect(big.error?.message).toMatch(/MemoryError/);
    expect(big.error?.location?.line).toBe(2);
    expect(grow.error?.kind === 'exception' || grow.error?.kind === 'worker-exit').toBe(true);
    expect(grow.error?.message).toMatch(/MemoryError|out of memory/);
  });

  test('memoryMb below what the interpreter maps is a clear exception', async () => {
    const r = await py('return 1', { memoryMb: 16 });
    expect(r.error?.kind).toBe('exception');
    expect(r.error?.message).toMatch(/memoryMb 16 is too small for the Python interpreter/);
  });

  test('a program killing itself with SIGKILL is worker-exit naming the signal', async () => {
    const r = await py('import os, signal\nos.kill(os.getpid(), signal.SIGKILL)');
    expect(r.error).toEqual({
      kind: 'worker-exit',
      message: 'Python process exited before completing (signal SIGKILL)',
    });
  });

  test('5 million single-character writes stay linear and arrive as one entry', async () => {
    const r = await py("import sys\nw = sys.stdout.write\nfor _ in range(5_000_000):\n    w('x')\nreturn 'done'", {
      timeoutMs: 90_000,
    });
    expect(r.error).toBeUndefined();
    expect(r.logs).toHaveLength(1);
    expect(r.logs[0]?.length).toBe(5_000_000);
  });

  test('a 100 MB print under a small cap is output-limit with a fitting prefix, without exhausting memory', async () => {
    const r = await py("print('y' * 100_000_000)\nreturn 1", { maxOutputBytes: 1_000 });
    expect(r.error?.kind).toBe('output-limit');
    expect(r.logs[0]).toMatch(/^y+$/);
  });

  test('with child processes allowed, a forked grandchild does not outlive the run', async () => {
    const r = await py(
      "import subprocess\np = subprocess.Popen(['/bin/sleep', '31'], start_new_session=True)\nreturn p.pid",
      { sandbox: 'off' },
    );
    expect(typeof r.value).toBe('number');
    // the result does not wait for the tree to be reaped (engine/fresh-child.ts)
    expect(await settleTo(() => processesRunning(['/bin/sleep', '31'])), 'the forked `sleep 31` still running').toEqual(
      [],
    );
  });

  test('unconfined, the staged runner dir and private temp dir are removed after the run', async () => {
    const r = await py('import tempfile, os\nreturn [tempfile.gettempdir(), os.path.dirname(tempfile.gettempdir())]', {
      sandbox: 'off',
    });
    const [tmp, base] = r.value as [string, string];
    expect(base).toMatch(/ptc-py-/);
    // a child slow to die is torn down after its result returns (engine/fresh-child.ts); dispose() waits for that
    await pendingTeardowns();
    expect(fs.existsSync(tmp)).toBe(false);
    expect(fs.existsSync(base)).toBe(false);
  });

  test('deterministic settings freeze the clock and seed randomness, so runs repeat exactly', async () => {
    const program =
      'import time, random, datetime, uuid\nreturn [time.time(), time.time_ns(), random.random(), datetime.datetime.now(datetime.timezone.utc).isoformat(), str(uuid.uuid4())]';
    const deterministic = { epochMs: 1_700_000_000_000, seed: 7 };
    const [a, b, c] = await Promise.all([py(program, { deterministic }), py(program, { deterministic }), py(program)]);
    expect(a.value).toEqual(b.value);
    expect((a.value as unknown[]).slice(0, 2)).toEqual([1_700_000_000, 1_700_000_000_000_000_000]);
    expect((a.value as unknown[])[3]).toBe('2023-11-14T22:13:20+00:00');
    expect(c.value).not.toEqual(a.value);
  });
});

describe.concurrent('Python backend: hostile fd-3 traffic', () => {
  test.each([
    ['a forged second boot-ack', 'os.write(3, b\'{"type":"boot-ack","confined":true}\\n\')', /second boot-ack/],
    [
      'an out-of-sequence call id',
      'os.write(3, b\'{"type":"call","id":5,"global":"tools","name":"echo","args":1}\\n\')',
      /out of sequence/,
    ],
    ['an unknown frame type', 'os.write(3, b\'{"type":"hello"}\\n\')', /malformed control frame/],
    [
      'a forged done with a timeout kind',
      'os.write(3, b\'{"type":"done","error":{"kind":"timeout","message":"x"}}\\n\')',
      /malformed control frame/,
    ],
    ['invalid UTF-8', 'os.write(3, b\'{"type":"log","stream":"stdout","text":"\\xff"}\\n\')', /not valid UTF-8/],
    ['an empty line', "os.write(3, b'\\n')", /empty control frame/],
  ])('%s is a protocol failure', async (_name, write, message) => {
    const r = await py(`import os, asyncio\n${write}\nawait asyncio.sleep(3)`, {
      bindings: [toolsNamespace()],
      timeoutMs: 15_000,
    });
    expect(r.error?.kind).toBe('protocol');
    expect(r.error?.message).toMatch(message);
  });

  test('an oversized newline-free frame is a protocol failure and the host stays bounded', async () => {
    const r = await py("import os\nchunk = b'x' * (1 << 20)\nfor _ in range(200):\n    os.write(3, chunk)", {
      timeoutMs: 60_000,
    });
    expect(r.error?.kind).toBe('protocol');
    expect(r.error?.message).toMatch(/control frame exceeds/);
  });

  test('a forged done is re-metered by the host ledger', async () => {
    const [lossless, over] = await Promise.all([
      py('import os, asyncio\nos.write(3, b\'{"type":"done","value":5}\\n\')\nawait asyncio.sleep(3)'),
      py(
        'import os, asyncio\nos.write(3, b\'{"type":"done","value":"\' + b\'x\' * 5000 + b\'"}\\n\')\nawait asyncio.sleep(3)',
        { maxOutputBytes: 1_000 },
      ),
    ]);
    expect(lossless.value).toBe(5);
    expect(over.error?.kind).toBe('output-limit');
  });

  test('rebinding builtins and stdlib the runner renders with does not change the verdict', async () => {
    const [plain, broken, value] = await Promise.all([
      py(
        "import builtins, json, traceback\nbuiltins.RuntimeError = None\nbuiltins.setattr = None\njson.dumps = None\ntraceback.TracebackException = None\nraise ValueError('still rendered')",
      ),
      py("import builtins\nbuiltins.isinstance = None\nbuiltins.len = None\nraise ValueError('x')"),
      py("import builtins\nbuiltins.type = None\nbuiltins.len = None\nreturn {'a': [1, 'two']}"),
    ]);
    expect(plain.error?.kind).toBe('exception');
    expect(plain.error?.message).toMatch(/ValueError: still rendered/);
    expect(broken.error?.kind).toBe('exception');
    expect(value.value).toEqual({ a: [1, 'two'] });
  });
});

describe('Python backend: spare processes', () => {
  test('a warmed spare serves the next run, and dispose leaves no Python process behind', async () => {
    const { createRuntime } = await import('../../../runtime/index.js');
    const { listDescendants } = await import('../../../runtime/process/launch.js');
    const runtime = createRuntime({ spares: 1 });
    const spec = () =>
      runtime.resolve({ language: 'python', program: 'import asyncio\nprint("from a spare")\nreturn 7' });
    expect(await runtime.warm(spec())).toBe(true);
    const runners = () =>
      listDescendants(process.pid).filter((pid) => {
        try {
          return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('ptc_runner');
        } catch {
          return false;
        }
      });
    expect(runners().length).toBeGreaterThan(0);
    const first = await runtime.run(spec());
    const second = await runtime.run(spec());
    expect([first.value, second.value]).toEqual([7, 7]);
    expect(first.logs).toEqual(['from a spare']);
    await runtime.dispose();
    expect(runners()).toEqual([]);
  });

  test('under bubblewrap a spare started for one folder serves a run in another (the program sees neither)', async () => {
    const os = await import('node:os');
    const path = await import('node:path');
    const { createRuntime } = await import('../../../runtime/index.js');
    const { listDescendants } = await import('../../../runtime/process/launch.js');
    const runtime = createRuntime({ spares: 1 });
    const [first, second] = [
      fs.mkdtempSync(path.join(os.tmpdir(), 'spare-a-')),
      fs.mkdtempSync(path.join(os.tmpdir(), 'spare-b-')),
    ];
    // the interpreter itself, not the wrappers whose argv names the runner too
    const interpreter = (): number | undefined =>
      listDescendants(process.pid).find((pid) => {
        try {
          const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
          return argv.some((a) => a.includes('ptc_runner')) && !/(^|\/)(bwrap|prlimit|setpriv|sh)$/.test(argv[0] ?? '');
        } catch {
          return false;
        }
      });
    try {
      const confined = { language: 'python' as const, sandbox: 'required' as const };
      expect(await runtime.warm(runtime.resolve({ ...confined, cwd: first, program: 'return 0' }))).toBe(true);
      const spare = interpreter();
      expect(spare).toBeDefined();
      const stop = new AbortController();
      let spareServed: boolean | undefined;
      // once the program runs, the spare is still alive only if it is the process running it (a retired one was killed)
      const result = await runtime.run(
        runtime.resolve({
          ...confined,
          cwd: second,
          program: 'import os, time\nprint(os.getcwd(), flush=True)\ntime.sleep(600)',
          signal: stop.signal,
          onLog: () => {
            spareServed = alive(spare as number);
            stop.abort();
          },
        }),
      );
      expect(result.error?.kind).toBe('abort');
      expect(result.logs).toEqual(['/tmp']);
      expect(spareServed).toBe(true);
    } finally {
      await runtime.dispose();
      fs.rmSync(first, { recursive: true, force: true });
      fs.rmSync(second, { recursive: true, force: true });
    }
  });
});
