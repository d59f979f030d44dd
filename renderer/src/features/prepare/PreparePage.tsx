import { useEffect, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { Workspace } from '../../../../shared/contract';
import {
  DEFAULT_REFERENCE_KEY,
  findTemplateForHeaders,
  suggestMapping,
  type MappingSuggestion,
} from '../../../../shared/mapping';
import { emptyTemplate, parseWorkspaceMapping, type WorkspaceMapping } from '../../../../shared/workspace';
import { desk } from '../../app/deskClient';
import { count } from '../../../../shared/i18n';
import { uniqueWorkspaceName, workspaceNameFor } from '../../../../shared/spreadsheet/sourceNames';
import { base64ToBytes } from '../../app/bytes';
import { OPEN_SAMPLE_KEY, OPEN_WORKSPACE_KEY, REPAIR_KEY } from '../../app/routes';
import { FileOpener, type OpenedFile } from './FileOpener';
import { fileDigest } from '../../lib/fileDigest';
import type { PreparedChecks } from './import/importClient';
import { MappingStep } from './MappingStep';
import { ReviewScreen } from './ReviewScreen';
import { WorkspaceList } from './WorkspaceList';
import { usePageTitleDetail } from '../../app/pageTitle';
import { announce } from '../../app/announce';

type Stage =
  | { kind: 'home' }
  | {
      kind: 'mapping';
      file: OpenedFile;
      suggestion: MappingSuggestion;
      initial: WorkspaceMapping;
      templateName?: string;
    }
  | { kind: 'opening' }
  | { kind: 'review'; workspace: Workspace; repairIntentId?: string; prepared?: PreparedChecks };

/** Rows sent to main ahead of workspace.create, per file read: the id main holds them by, or null. */
const stagedRows = new WeakMap<OpenedFile, Promise<string | null>>();

/** Sends a file's rows to main once (see workspace.stageRows); null when that failed. */
function stageRows(file: OpenedFile): Promise<string | null> {
  let staged = stagedRows.get(file);
  if (!staged) {
    staged = file.result
      .packedInput()
      .then((packedRows) => desk['workspace.stageRows']({ packedRows }))
      .then((answer) => (answer.ok ? answer.value.stageId : null))
      .catch(() => null);
    stagedRows.set(file, staged);
  }
  return staged;
}

/** Prepare: open a spreadsheet, match its columns, then fix every row in a workspace that saves itself. */
export default function PreparePage() {
  const [stage, setStage] = useState<Stage>({ kind: 'home' });
  // The window's title names the workspace or the file open here.
  usePageTitleDetail(
    stage.kind === 'review' ? stage.workspace.name : stage.kind === 'mapping' ? stage.file.fileName : null,
  );
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState<{ fileName: string; bytes: Uint8Array } | null>(null);
  /** A spreadsheet (the sample or the person's) is being fetched or read: it cannot be opened twice. */
  const [reading, setReading] = useState(false);
  /** The saved mappings, asked for while a file is read. */
  const templatesAhead = useRef<ReturnType<(typeof desk)['templates.list']> | null>(null);

  // The worker that read the file in the mapping step ends when that step does, unless it was
  // handed the check of every row.
  const mappingSession = stage.kind === 'mapping' ? stage.file.session : undefined;
  useEffect(() => () => mappingSession?.dispose(), [mappingSession]);
  // While the person looks at the mapping, the grid's rows are made in small steps (the rows for
  // main were sent ahead as the file opened), so that confirming it has little left to do.
  const mappingFile = stage.kind === 'mapping' ? stage.file : undefined;
  useEffect(() => {
    mappingFile?.result.prepare().catch(() => undefined);
  }, [mappingFile]);

  async function openSample() {
    setReading(true);
    const result = await desk['assets.sampleSpreadsheet']();
    if (!result.ok) {
      setReading(false);
      return setError(result.error.message);
    }
    setPending({ fileName: result.value.fileName, bytes: base64ToBytes(result.value.base64) });
  }

  useEffect(() => {
    const repair = sessionStorage.getItem(REPAIR_KEY);
    if (repair) {
      sessionStorage.removeItem(REPAIR_KEY);
      const { workspaceId, intentId } = JSON.parse(repair) as { workspaceId: string; intentId: string };
      void Promise.resolve().then(() => openWorkspace(workspaceId, intentId));
      return;
    }
    const toOpen = sessionStorage.getItem(OPEN_WORKSPACE_KEY);
    if (toOpen) {
      sessionStorage.removeItem(OPEN_WORKSPACE_KEY);
      void Promise.resolve().then(() => openWorkspace(toOpen));
      return;
    }
    if (sessionStorage.getItem(OPEN_SAMPLE_KEY) !== '1') return;
    sessionStorage.removeItem(OPEN_SAMPLE_KEY);
    void Promise.resolve().then(openSample);
  }, []);

  async function onOpened(file: OpenedFile) {
    // The sample's bytes are read once; coming back to this page must not open it again.
    setPending(null);
    // The rows go to main as soon as they are here, while the mapping step renders and shows.
    void stageRows(file);
    const { headers } = file.result;
    const suggestion = suggestMapping(headers, { samples: file.result.head(50).map((r) => r.cells) });
    // Asked for as the file started being read, when it was (the list is there by now).
    const saved = await (templatesAhead.current ?? desk['templates.list']());
    templatesAhead.current = null;
    const templates = saved.ok ? saved.value : [];
    const match = findTemplateForHeaders(
      templates.map((t) => t.template),
      headers,
    );
    const chosen = match ? templates[match.index] : undefined;
    const initial: WorkspaceMapping = {
      template: chosen?.template ?? suggestion.template ?? emptyTemplate(),
      numberStyle: 'auto',
      reference: { enabled: true, key: DEFAULT_REFERENCE_KEY },
    };
    // Most people confirm what the mapping step opens with: the worker starts checking every row
    // with it now, and the check is taken as it is if they do.
    file.session?.prepare(workspaceMappingFor(file, initial));
    // What was set aside (rows above the header, a totals row) is said once, as the file is read.
    if (file.result.warnings.length) announce(file.result.warnings.join(' '));
    setStage({
      kind: 'mapping',
      file,
      suggestion,
      initial,
      ...(chosen ? { templateName: chosen.name } : {}),
    });
  }

  async function openWorkspace(id: string, repairIntentId?: string) {
    setStage({ kind: 'opening' });
    const result = await desk['workspace.open']({ id });
    if (!result.ok) {
      setError(result.error.message);
      return setStage({ kind: 'home' });
    }
    setStage({ kind: 'review', workspace: result.value, ...(repairIntentId ? { repairIntentId } : {}) });
  }

  async function createWorkspace(file: OpenedFile, mapping: WorkspaceMapping, templateName: string | null) {
    setStage({ kind: 'opening' });
    const { result } = file;
    const full = workspaceMappingFor(file, mapping);
    const { template } = full;
    // The import worker checks every row while main writes the new workspace.
    const session = file.session;
    delete file.session;
    const checking = session ? session.check(full) : Promise.resolve(null);
    try {
      await result.whenRows();
    } catch (e) {
      void checking.then((prepared) => prepared?.worker.terminate());
      setError(`“${file.fileName}” could not be read: ${e instanceof Error ? e.message : String(e)}`);
      return setStage({ kind: 'home' });
    }
    // The rows go to main packed, as bytes (far cheaper than 100,000 objects), sent ahead while the
    // mapping showed; sent again here only if main no longer holds them.
    // The file's size and SHA-256 go with the import into the audit trail.
    const takenNames = desk['workspace.list']().then((r) => (r.ok ? r.value.map((w) => w.name) : []));
    const digest = await fileDigest(file.bytes);
    const details = {
      // Two imports of the same sheet get names that tell them apart ("… (November) 2").
      name: uniqueWorkspaceName(
        workspaceNameFor({ fileName: file.fileName, format: result.format, sheet: result.sheet }),
        await takenNames,
      ),
      source: {
        fileName: file.fileName,
        format: result.format,
        sheet: result.sheet,
        headerRow: result.headerRow,
        headerRowCount: result.headerRowCount,
        totalsRow: result.totalsRow ?? null,
        skippedBlankRows: result.skippedBlankRows,
        warnings: result.warnings,
        ...digest,
      },
      headers: result.headers,
      mapping: full as unknown as Record<string, unknown>,
    };
    const stageId = await stageRows(file);
    const creating = (async () => {
      if (stageId) {
        const made = await desk['workspace.create']({ ...details, stagedRows: stageId });
        if (made.ok || made.error.code !== 'STAGED_ROWS_GONE') return made;
      }
      return desk['workspace.create']({ ...details, packedRows: await result.packedInput() });
    })();
    const saving = templateName ? desk['templates.save']({ name: templateName, template }) : null;
    // The grid's rows, each unpacked when first read.
    const rows = result.workspaceRows();
    const [created] = await Promise.all([creating, saving]);
    const prepared = await checking;
    if (!created.ok) {
      prepared?.worker.terminate();
      setError(created.error.message);
      return setStage({ kind: 'home' });
    }
    // The new workspace is on disk; the rows on screen are the ones just written.
    const workspace: Workspace = {
      ...created.value,
      headers: result.headers,
      rows,
      mapping: full as unknown as Record<string, unknown>,
    };
    setStage({ kind: 'review', workspace, ...(prepared ? { prepared } : {}) });
  }

  if (stage.kind === 'review') {
    return (
      <Stack spacing={2}>
        <Typography variant="h1">Prepare</Typography>
        <ReviewScreen
          key={stage.workspace.id}
          workspace={stage.workspace}
          {...(stage.repairIntentId ? { repairIntentId: stage.repairIntentId } : {})}
          {...(stage.prepared ? { prepared: stage.prepared } : {})}
          onClose={() => setStage({ kind: 'home' })}
        />
      </Stack>
    );
  }

  return (
    <Stack spacing={3}>
      <Typography variant="h1">Prepare</Typography>
      {error && (
        <Alert severity="error" onClose={() => setError(null)} role="alert">
          {error}
        </Alert>
      )}
      {stage.kind === 'opening' && (
        <Stack direction="row" spacing={2} role="status" sx={{ alignItems: 'center' }}>
          <CircularProgress size={20} aria-hidden /> <span>Opening the workspace…</span>
        </Stack>
      )}
      {stage.kind === 'mapping' && (
        <>
          <Stack direction="row" spacing={2} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography>
              <strong>{stage.file.fileName}</strong>: {count(stage.file.result.rowCount, 'row')}, headers in
              row {stage.file.result.headerRow}
              {stage.file.result.skippedBlankRows
                ? `, ${count(stage.file.result.skippedBlankRows, 'blank row')} skipped`
                : ''}
              .
            </Typography>
            {stage.file.sheets.length > 1 && (
              <SheetPicker file={stage.file} onPicked={(file) => void onOpened(file)} />
            )}
          </Stack>
          {stage.file.result.warnings.length > 0 && (
            // Announced once when the file is read (not an alert here and again on the grid).
            <Alert severity="info" role="note">
              {stage.file.result.warnings.map((w) => (
                <div key={w}>{w}</div>
              ))}
            </Alert>
          )}
          <MappingStep
            headers={stage.file.result.headers}
            samples={stage.file.result.head(5).map((r) => r.cells)}
            suggestion={stage.suggestion}
            initial={stage.initial}
            {...(stage.templateName ? { appliedTemplateName: stage.templateName } : {})}
            onCancel={() => setStage({ kind: 'home' })}
            onConfirm={(mapping, templateName) => void createWorkspace(stage.file, mapping, templateName)}
          />
        </>
      )}
      {stage.kind === 'home' && (
        <>
          <FileOpener
            onOpened={(file) => void onOpened(file)}
            onReading={() => {
              setReading(true);
              templatesAhead.current = desk['templates.list']();
            }}
            onReadEnd={() => {
              setReading(false);
              setPending(null);
            }}
            pending={pending}
            keepReader
          />
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
            <Typography variant="h2" sx={{ flexGrow: 1 }}>
              Workspaces
            </Typography>
            {!reading && (
              <Button variant="text" onClick={() => void openSample()}>
                Open the sample spreadsheet
              </Button>
            )}
          </Stack>
          <WorkspaceList onOpen={(id, repairIntentId) => void openWorkspace(id, repairIntentId)} />
        </>
      )}
    </Stack>
  );
}

/**
 * The mapping as the workspace keeps it: templates saved in the app keep only the columns, so the
 * sheet and header row travel with them; defaults filled in as the workspace reads it back, so the
 * worker checks with exactly what the window will.
 */
function workspaceMappingFor(file: OpenedFile, mapping: WorkspaceMapping): WorkspaceMapping {
  const { sheet, headerRow } = file.result;
  const withSheet = { ...mapping, template: { ...mapping.template, sheet, headerRow } };
  return parseWorkspaceMapping(withSheet) ?? withSheet;
}

/** Another sheet of the same file: read again in the worker. */
function SheetPicker({ file, onPicked }: { file: OpenedFile; onPicked: (file: OpenedFile) => void }) {
  const [busy, setBusy] = useState(false);
  return (
    <TextField
      select
      size="small"
      label="Sheet"
      value={file.result.sheet}
      disabled={busy}
      onChange={async (e) => {
        setBusy(true);
        const { startImport } = await import('./import/importClient');
        const job = startImport(
          { bytes: file.bytes, fileName: file.fileName, sheet: e.target.value },
          () => undefined,
        );
        try {
          onPicked({ ...file, result: await job.result, session: job });
        } finally {
          setBusy(false);
        }
      }}
      sx={{ minWidth: 180 }}
    >
      {file.sheets.map((s) => (
        <MenuItem key={s} value={s}>
          {s}
        </MenuItem>
      ))}
    </TextField>
  );
}
