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
    folders: ['services/core', 'services/storage'],
  },
];

/** Inside electron/services, only these folders may import team/ (team/ itself included). */
export const mayImportTeam = ['services/team', 'services/index'];

/**
 * TEMPORARY ALLOWLIST: folder edges that break the rules today and are being removed in parallel
 * (upload/ and reconcile/ move to their seams; the renderer's features stop importing each other in
 * a cycle). Empty it after merging that work: an entry whose edge no longer exists fails the test,
 * so the list can only shrink. Nothing else may be added here.
 */
export const temporaryAllowlist: Array<{ from: string; to: string; why: string }> = [
  // The renderer's features: reconcile → prepare → search → reconcile and prepare ↔ audit.
  { from: 'features/audit', to: 'features/prepare', why: 'renderer feature cycle' },
  { from: 'features/prepare', to: 'features/audit', why: 'renderer feature cycle' },
  { from: 'features/prepare', to: 'features/search', why: 'renderer feature cycle' },
  { from: 'features/search', to: 'features/reconcile', why: 'renderer feature cycle' },
  { from: 'features/reconcile', to: 'features/prepare', why: 'renderer feature cycle' },
  // The renderer's app/ both routes to every feature (App.tsx) and serves them (deskClient, routes,
  // contexts, bytes): each feature importing app/ closes a cycle with App.tsx's import of it.
  ...[
    'approvals',
    'audit',
    'locations',
    'prepare',
    'reconcile',
    'search',
    'settings',
    'uploads',
    'welcome',
  ].map((feature) => ({
    from: `features/${feature}`,
    to: 'renderer/app',
    why: 'feature imports the app shell that imports it',
  })),
];
