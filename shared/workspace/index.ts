/** A workspace's rows through its mapping and the shared rules: the same in the renderer, main and the CLI. */
export {
  checkAcrossRows,
  checkRow,
  checkWorkspace,
  makeRowChecker,
  placeFileIssue,
  summarise,
  workspaceRef,
  type CheckableRow,
  type CurrencyTotal,
  type RowChecker,
  type WorkspaceCheck,
} from './checkWorkspace';
export {
  emptyTemplate,
  parseWorkspaceMapping,
  workspaceMappingSchema,
  type WorkspaceMapping,
} from './workspaceMapping';
