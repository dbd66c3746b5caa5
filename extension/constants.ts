// Every id the extension registers, in one place (the e2e tests import these too).
export const EXTENSION_ID = 'ptc-playground.ptc-playground';
export const NOTEBOOK_TYPE = 'ptc-notebook';
export const CONTROLLER_ID = 'ptc-playground.controller';
export const CONFIG_SECTION = 'ptcPlayground';
export const LOG_CHANNEL_NAME = 'PTC Playground';
export const SDK_SCHEME = 'ptc-sdk';

export const COMMANDS = {
  newNotebook: 'ptcPlayground.newNotebook',
  openTour: 'ptcPlayground.openTour',
  showModelView: 'ptcPlayground.showModelView',
  switchMode: 'ptcPlayground.switchMode',
  setCellMode: 'ptcPlayground.setCellMode',
  recordCell: 'ptcPlayground.recordCell',
  replayCell: 'ptcPlayground.replayCell',
  openInspector: 'ptcPlayground.openInspector',
  copyResultJson: 'ptcPlayground.copyResultJson',
  restartBindings: 'ptcPlayground.restartBindings',
  interruptBindings: 'ptcPlayground.interruptBindings',
  bindingsStatus: 'ptcPlayground.bindingsStatus',
  reviewRuntimePaths: 'ptcPlayground.reviewRuntimePaths',
  showLog: 'ptcPlayground.showLog',
  importTranscript: 'ptcPlayground.importTranscript',
  saveRunTrace: 'ptcPlayground.saveRunTrace',
  pickModel: 'ptcPlayground.pickModel',
  setModelKey: 'ptcPlayground.setModelKey',
  openModelSettings: 'ptcPlayground.openModelSettings',
  useFakeModel: 'ptcPlayground.useFakeModel',
  newTaskCell: 'ptcPlayground.newTaskCell',
  acceptExpected: 'ptcPlayground.acceptExpected',
  cellProgress: 'ptcPlayground.cellProgress',
  stopCells: 'ptcPlayground.stopCells',
  setNotebookBindings: 'ptcPlayground.setNotebookBindings',
  openFileAt: 'ptcPlayground.openFileAt',
  breakOnCalls: 'ptcPlayground.breakOnCalls',
  continueCall: 'ptcPlayground.continueCall',
  stepCall: 'ptcPlayground.stepCall',
  answerCall: 'ptcPlayground.answerCall',
  throwCall: 'ptcPlayground.throwCall',
  editCallArguments: 'ptcPlayground.editCallArguments',
  denyCall: 'ptcPlayground.denyCall',
  decideCall: 'ptcPlayground.decideCall',
  pausedCall: 'ptcPlayground.pausedCall',
  forkFromCall: 'ptcPlayground.forkFromCall',
} as const;
export type CommandId = (typeof COMMANDS)[keyof typeof COMMANDS];

// workspaceState key holding approved workspace-level interpreter paths
export const APPROVED_PATHS_KEY = 'ptcPlayground.approvedRuntimePaths';

// owned by the webview protocol: the renderer id, its mime type and the inspector's view type
export { INSPECTOR_VIEW_TYPE, PROBLEM_MIME, RENDERER_ID, RESULT_MIME } from '../webview/protocol/index.js';

// the languageId of task cells (a task in plain words for a model; `kind: "task"` in the file)
export const TASK_LANGUAGE = 'ptc-task';
// workspaceState key holding each notebook's picked model
export const PICKED_MODELS_KEY = 'ptcPlayground.pickedModels';
