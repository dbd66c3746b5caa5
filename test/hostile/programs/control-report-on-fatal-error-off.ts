// about: CONTROL: with the sandbox off, process.report's fatal-error report overwrites the planted .pth when the heap runs out
// expect: worker-exit
// must: file-changed
// options: {"sandbox": "off", "memoryMb": 16}
const report = process.report as NodeJS.ProcessReport;
const path = '{{TARGET_FILE}}';
report.directory = path.slice(0, path.lastIndexOf('/'));
report.filename = path.slice(path.lastIndexOf('/') + 1);
report.reportOnFatalError = true;
const hoard: unknown[] = [];
for (;;) hoard.push({ filler: new Array(1000).fill(1) });
