import { z } from 'zod';
import { environmentIdSchema } from './environment';
import { mappingTemplateSchema } from '../mapping/template';
import { uploadChannels } from './uploadChannels';
import { reconcileChannels } from './reconcileChannels';
import { searchChannels } from './searchChannels';
import { locationChannels } from './locationChannels';
import { sandboxChannels } from './sandboxChannels';
import { calendarChannels } from './calendarChannels';
import { spreadsheetChannels } from './spreadsheetChannels';
import { auditChannels } from './auditChannels';
import { dataChannels } from './dataChannels';
import { teamChannels, teamDatabaseSettingsSchema, teamDatabaseUpdateSchema } from './teamChannels';
import { packedRowsInputSchema } from './packedRows';
import {
  MAX_CELL_LENGTH,
  MAX_NAME_LENGTH,
  MAX_WORKSPACE_COLUMNS,
  workspaceCountsSchema,
  workspaceCreatedSchema,
  workspaceEditSchema,
  workspaceIdSchema,
  workspaceMappingSchema,
  workspaceMetaSchema,
  workspaceRowListSchema,
  workspaceSchema,
  workspaceSourceSchema,
  workspaceStateSchema,
  type WorkspaceEdit,
} from './workspace';

const empty = z.object({}).strict();

/** giving.example.com, or localhost / 127.0.0.1 (optionally with a port). */
export function isProgramDomain(text: string): boolean {
  if (/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i.test(text)) return true;
  const local = /^(localhost|127\.0\.0\.1)(:(\d{1,5}))?$/i.exec(text);
  return !!local && (local[3] === undefined || (Number(local[3]) >= 1 && Number(local[3]) <= 65_535));
}

/** Whether a program domain names this computer (its pages are then plain http, as the emulator serves them). */
export function isLocalProgramDomain(text: string): boolean {
  return /^(localhost|127\.0\.0\.1)(:\d{1,5})?$/i.test(text.trim());
}

/** The program's address for a domain: https on the internet, http on this computer. */
export function programUrlOf(programDomain: string): string {
  if (!programDomain) return '';
  return `${isLocalProgramDomain(programDomain) ? 'http' : 'https'}://${programDomain}`;
}

/** The most characters of cell text one call of edits may carry (a paste of a large range fits). */
const MAX_EDIT_TEXT = 64_000_000;

function editText(edits: readonly WorkspaceEdit[]): number {
  let total = 0;
  for (const edit of edits) {
    if (edit.op === 'set') total += edit.value.length;
    else if (edit.op === 'insert') for (const cell of edit.row.cells) total += cell.length;
  }
  return total;
}

const httpsUrl = z
  .string()
  .trim()
  .max(2000, 'An address has at most 2,000 characters.')
  .url('Enter a full address starting with https://')
  .refine((u) => u.startsWith('https://') || /^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?(\/|$)/.test(u), {
    message: 'Use an https:// address (plain http is allowed only for this computer).',
  });

/**
 * A program domain: a domain on the internet, or a service on this computer with its port
 * (localhost:4010, 127.0.0.1:4010), such as the emulator two people share to try team mode.
 */
const domain = z
  .string()
  .trim()
  .max(253, 'A domain has at most 253 characters.')
  .refine((d) => isProgramDomain(d), {
    message:
      'Enter a domain such as giving.example.com (or, for a service on this computer, localhost:4010 or 127.0.0.1:4010).',
  });

export const addressesSchema = z.object({
  baseUrl: z.string(),
  tokenUrl: z.string(),
  programDomain: z.string(),
});
export type Addresses = z.infer<typeof addressesSchema>;

/** The environments that need addresses and credentials entered (the Offline sandbox needs none). */
export const remoteEnvironmentIds = ['sandbox', 'production', 'custom'] as const;
export const remoteEnvironmentIdSchema = z.enum(remoteEnvironmentIds);
export type RemoteEnvironmentId = z.infer<typeof remoteEnvironmentIdSchema>;

const remoteSettingsSchema = z.object({
  addresses: addressesSchema,
  clientId: z.string(),
  /** Whether a client secret is known for this environment; the secret itself never leaves main. */
  hasClientSecret: z.boolean(),
  /** Where the secret lives: encrypted on disk, only for this session, or from the environment. */
  secretSource: z.enum(['none', 'encrypted', 'session', 'environment']),
});

/** What the renderer may see of the settings: never a client secret. */
export const publicSettingsSchema = z.object({
  environment: environmentIdSchema,
  remotes: z.object({
    sandbox: remoteSettingsSchema,
    production: remoteSettingsSchema,
    custom: remoteSettingsSchema,
  }),
  /** Whether a client secret can be kept across restarts on this computer. */
  secretStorage: z.enum(['encrypted', 'session-only']),
  secretStorageNote: z.string(),
  firstRunDone: z.boolean(),
  /** Settings → Team database: the shared PostgreSQL server, without its password. */
  teamDatabase: teamDatabaseSettingsSchema,
});
export type PublicSettings = z.infer<typeof publicSettingsSchema>;

const remoteAddressesInput = z.object({
  baseUrl: z.union([httpsUrl, z.literal('')]),
  tokenUrl: z.union([httpsUrl, z.literal('')]),
  programDomain: z.union([domain, z.literal('')]),
});

export const settingsUpdateSchema = z
  .object({
    environment: environmentIdSchema.optional(),
    remote: z
      .object({
        id: remoteEnvironmentIdSchema,
        addresses: remoteAddressesInput.optional(),
        clientId: z.string().trim().max(200).optional(),
        /** A new client secret; an empty string forgets it. Never echoed back. */
        clientSecret: z.string().max(500).optional(),
      })
      .strict()
      .optional(),
    firstRunDone: z.boolean().optional(),
    /** A team database to work with (its password kept like a client secret), or null to work alone. */
    teamDatabase: teamDatabaseUpdateSchema.optional(),
  })
  .strict();
export type SettingsUpdate = z.infer<typeof settingsUpdateSchema>;

export const environmentInfoSchema = z.object({
  id: environmentIdSchema,
  label: z.string(),
  baseUrl: z.string(),
  tokenUrl: z.string(),
  programUrl: z.string(),
  /** True when the built-in emulator serves this environment. */
  emulated: z.boolean(),
  /** The Offline sandbox's clock speed (virtual seconds per real second); absent for real services. */
  timeScale: z.number().nonnegative().optional(),
});
export type EnvironmentInfo = z.infer<typeof environmentInfoSchema>;

export const connectionResultSchema = z.object({
  ok: z.boolean(),
  environment: environmentIdSchema,
  message: z.string(),
  /** Seconds the obtained token is valid for, when one was obtained. */
  expiresIn: z.number().optional(),
});

export const savedTemplateSchema = z.object({
  name: z.string(),
  savedAt: z.string(),
  template: mappingTemplateSchema,
});

/**
 * Every channel between the renderer and main: name → request and response schema.
 * The preload, the IPC registration, the local bridge and the renderer client are all built from this.
 */
export const channels = {
  'app.info': {
    request: empty,
    response: z.object({
      name: z.string(),
      version: z.string(),
      mode: z.enum(['electron', 'browser']),
      dataDir: z.string(),
      environment: environmentInfoSchema,
    }),
  },
  'settings.get': { request: empty, response: publicSettingsSchema },
  'settings.save': { request: settingsUpdateSchema, response: publicSettingsSchema },
  /**
   * Asks the service for a token. With `remote`, tests what is typed in Settings (a secret left
   * empty means the stored one) without saving anything: only settings.save changes the environment.
   */
  'settings.testConnection': {
    request: z
      .object({
        environment: environmentIdSchema.optional(),
        remote: z
          .object({
            addresses: remoteAddressesInput,
            clientId: z.string().trim().max(200),
            clientSecret: z.string().max(500).optional(),
          })
          .strict()
          .optional(),
      })
      .strict(),
    response: connectionResultSchema,
  },
  'assets.sampleSpreadsheet': {
    request: empty,
    response: z.object({ fileName: z.string(), base64: z.string() }),
  },
  'external.open': {
    request: z.object({ url: z.string().max(2000) }).strict(),
    response: z.object({ opened: z.boolean() }),
  },
  'workspace.list': { request: empty, response: z.array(workspaceMetaSchema) },
  'workspace.create': {
    request: z
      .object({
        name: z.string().trim().min(1).max(MAX_NAME_LENGTH),
        source: workspaceSourceSchema,
        headers: z.array(z.string().max(MAX_CELL_LENGTH)).max(MAX_WORKSPACE_COLUMNS),
        /**
         * The rows as a list, or packed (the renderer's import: 100,000 rows cost far less so), or
         * the id workspace.stageRows gave for packed rows sent ahead.
         */
        rows: workspaceRowListSchema.optional(),
        packedRows: packedRowsInputSchema.optional(),
        stagedRows: z.string().uuid().optional(),
        mapping: workspaceMappingSchema.nullable(),
      })
      .strict()
      .refine(
        (input) =>
          [input.rows, input.packedRows, input.stagedRows].filter((given) => given !== undefined).length ===
          1,
        { message: 'Give the rows in one way only: as a list, packed, or staged.' },
      ),
    /** The new workspace's details; the rows stay where they came from (no second trip with every row). */
    response: workspaceCreatedSchema,
  },
  /**
   * Packed rows sent ahead of workspace.create, while the person confirms the mapping: main holds
   * the last rows sent (for ten minutes at most) and create takes them by `stageId`.
   */
  'workspace.stageRows': {
    request: z.object({ packedRows: packedRowsInputSchema }).strict(),
    response: z.object({ stageId: z.string().uuid(), rowCount: z.number().int().nonnegative() }),
  },
  'workspace.open': { request: z.object({ id: workspaceIdSchema }).strict(), response: workspaceSchema },
  'workspace.edit': {
    request: z
      .object({
        id: workspaceIdSchema,
        /** The version the edits apply to; a mismatch means an edit was lost and the workspace must be reopened. */
        baseVersion: z.number().int().nonnegative(),
        edits: z.array(workspaceEditSchema).min(1).max(200_000),
      })
      .strict()
      .refine((input) => editText(input.edits) <= MAX_EDIT_TEXT, {
        message: `One call changes at most ${MAX_EDIT_TEXT.toLocaleString('en-US')} characters: send the edits in smaller calls.`,
      }),
    response: z.object({ version: z.number().int() }),
  },
  'workspace.summary': {
    request: z
      .object({
        id: workspaceIdSchema,
        counts: workspaceCountsSchema,
        state: workspaceStateSchema.optional(),
      })
      .strict(),
    response: workspaceMetaSchema,
  },
  'workspace.exportBulkFile': {
    request: z.object({ id: workspaceIdSchema }).strict(),
    response: z.object({
      fileName: z.string(),
      base64: z.string(),
      donations: z.number().int(),
      /** Rows left out because they still have errors. */
      skipped: z.number().int(),
    }),
  },
  'workspace.delete': {
    request: z.object({ id: workspaceIdSchema }).strict(),
    response: z.object({ deleted: z.boolean() }),
  },
  'templates.list': { request: empty, response: z.array(savedTemplateSchema) },
  'templates.save': {
    request: z.object({ name: z.string().trim().min(1).max(100), template: mappingTemplateSchema }).strict(),
    response: z.array(savedTemplateSchema),
  },
  'templates.delete': {
    request: z.object({ name: z.string().min(1).max(100) }).strict(),
    response: z.array(savedTemplateSchema),
  },
  ...uploadChannels,
  ...reconcileChannels,
  ...searchChannels,
  ...locationChannels,
  ...sandboxChannels,
  ...calendarChannels,
  ...auditChannels,
  ...dataChannels,
  ...teamChannels,
  ...spreadsheetChannels,
} as const;

export type Channels = typeof channels;
export type ChannelName = keyof Channels;
export type ChannelRequest<C extends ChannelName> = z.input<Channels[C]['request']>;
export type ChannelInput<C extends ChannelName> = z.output<Channels[C]['request']>;
export type ChannelResponse<C extends ChannelName> = z.output<Channels[C]['response']>;
export const channelNames = Object.keys(channels) as ChannelName[];
