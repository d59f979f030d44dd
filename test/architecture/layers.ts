// The layers of electron/services, top to bottom, and today's known exceptions. The layer test
// holds the code to this page and docs/architecture.md draws it (`npm run architecture`).

export interface Layer {
  /** Short id, also the diagram's id for the layer. */
  id: string;
  title: string;
  /** Folders as importGraph's folderOf names them. */
  folders: string[];
}

/**
 * A folder may import folders of its own layer or of any layer below it, never above it (and,
 * whatever the layers, never in a cycle). A new folder of electron/services goes into one of these.
 */
export const serviceLayers: Layer[] = [
  {
    id: 'root',
    title: 'composition root: picks local or team, wires everything',
    folders: ['services/index'],
  },
  {
    id: 'teamMode',
    title: 'team mode: implements the flows’ seams',
    folders: ['services/team'],
  },
  {
    id: 'flows',
    title: 'flows',
    folders: ['services/upload', 'services/reconcile', 'services/search', 'services/locations'],
  },
  {
    id: 'client',
    title: 'service client',
    folders: ['services/environments', 'services/api'],
  },
  {
    id: 'stores',
    title: 'stores',
    folders: [
      'services/audit',
      'services/ledger',
      'services/workspaces',
      'services/templates',
      'services/settings',
      'services/db',
    ],
  },
  {
    id: 'core',
    title: 'core: host capabilities, events, files',
    folders: ['services/core', 'services/storage', 'services/spreadsheet'],
  },
];

/** Inside electron/services, only these folders may import team/ (team/ itself included). */
export const mayImportTeam = ['services/team', 'services/index'];

/**
 * Folder edges that break the rules but are allowed for now: none. An entry whose edge no longer
 * exists fails the test, so the list can only shrink; keep it empty.
 */
export const temporaryAllowlist: Array<{ from: string; to: string; why: string }> = [];
