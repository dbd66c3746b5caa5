// `ptc test` and the Test Explorer: expectations in cell metadata, their check, the suite runner and its reports.
export { expectationFromResult, writeRunCassette, type RunCassetteWrite } from './accept.js';
export { callsOf, checkExpectation } from './check.js';
export { discoverNotebooks, type Discovery } from './discover.js';
export { callDrift, type DriftItem } from './drift.js';
export {
  EXPECTATION_KEY_ORDER,
  ExpectationSchema,
  type ExpectedCall,
  type Expectation,
} from '../notebook/expectation.js';
export { parseMaskPath } from '../json/mask-path.js';
export {
  cellDetails,
  describeMismatch,
  jsonReport,
  junitReport,
  summaryLine,
  type JsonTestReport,
} from './reporters.js';
export {
  runTestSuite,
  testCells,
  testName,
  testTitle,
  type CellTestResult,
  type NotebookTestResult,
  type SuiteOptions,
  type SuiteResult,
  type TestStatus,
} from './run-suite.js';
export { parseShard, shardOf, type ShardSpec } from './shard.js';
export { writeExpectations, type NotebookWrite } from './update-notebook.js';
