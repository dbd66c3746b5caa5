// about: points process.report at a planted .pth outside and exhausts the heap: Node's fatal-error handler writes its diagnostic report there, below the permission model
// expect: worker-exit|exception
// must-not: file-changed, file-created
// options: {"memoryMb": 16}
const report = process.report as NodeJS.ProcessReport;
const path = '{{TARGET_FILE}}';
report.directory = path.slice(0, path.lastIndexOf('/'));
report.filename = path.slice(path.lastIndexOf('/') + 1);
report.reportOnFatalError = true;
const hoard: unknown[] = [];
for (;;) hoard.push({ filler: new Array(1000).fill(1) });
