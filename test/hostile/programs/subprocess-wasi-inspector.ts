// about: opens the inspector to escape the permission model
// expect: success|exception
const inspector = await import('node:inspector');
try { inspector.open(0, '127.0.0.1'); return 'opened ' + String(inspector.url()); } catch (e) { return 'denied: ' + (e as NodeJS.ErrnoException).code; }
