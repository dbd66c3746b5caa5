// The inspector's views; "then" compares an imported cell's run with what its transcript recorded.
export const INSPECTOR_TABS = ['run', 'model', 'diff', 'then'] as const;
export type InspectorTab = (typeof INSPECTOR_TABS)[number];
