// about: replaces and deletes namespace members
// expect: success|exception
const t = tools as unknown as Record<string, unknown>;
try { t.add = async () => 99; } catch { /* frozen */ }
try { delete t.echo; } catch { /* frozen */ }
return await (t.add as (a: unknown) => Promise<unknown>)({ a: 1, b: 1 });
