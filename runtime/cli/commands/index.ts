import type { CliCommand } from '../usage-error.js';
import { importCommand } from './import.js';
import { notebookCommand } from './notebook.js';
import { runCommand } from './run.js';
import { sdkCommand } from './sdk.js';
import { evalCommand } from './eval.js';
import { testCommand } from './test.js';
import { doctorCommand } from './doctor.js';

// Every `ptc` subcommand; each lives in its own file next to this one.
export const COMMANDS: CliCommand[] = [
  runCommand,
  notebookCommand,
  sdkCommand,
  importCommand,
  testCommand,
  evalCommand,
  doctorCommand,
];
