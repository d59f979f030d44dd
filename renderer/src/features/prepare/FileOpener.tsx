import { useEffect, useRef, useState, type DragEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import UploadFile from '@mui/icons-material/UploadFile';
import {
  ImportCancelled,
  startImport,
  warmUpImportWorker,
  type ImportJob,
  type ImportSession,
  type ImportedSheet,
} from './import/importClient';

export const ACCEPTED_FILES = '.xlsx,.xlsm,.xls,.ods,.csv,.tsv,.txt';

export interface OpenedFile {
  fileName: string;
  bytes: Uint8Array;
  sheets: string[];
  result: ImportedSheet;
  /**
   * The worker that read the file, still holding its rows to check them all (with `keepReader`);
   * whoever takes it disposes of it.
   */
  session?: ImportSession;
}

interface Props {
  onOpened(file: OpenedFile): void;
  /** Bytes to import straight away (the sample spreadsheet). */
  pending?: { fileName: string; bytes: Uint8Array } | null;
  /** Hand the reading worker over with the file (see OpenedFile.session); otherwise it ends. */
  keepReader?: boolean;
  /** Called as a file starts being read (to fetch what the next step needs meanwhile). */
  onReading?(): void;
  /** Called once a read has ended: opened, failed or cancelled. */
  onReadEnd?(): void;
}

/** Open by dialog or drag-and-drop; the file is read in a worker with a progress bar and a cancel button. */
export function FileOpener({ onOpened, pending, keepReader = false, onReading, onReadEnd }: Props) {
  const input = useRef<HTMLInputElement>(null);
  const job = useRef<ImportJob | null>(null);
  const [progress, setProgress] = useState<{ fileName: string; fraction: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const started = useRef<unknown>(null);

  // The reader's code is loaded while the person picks a file, not after.
  useEffect(() => warmUpImportWorker(), []);

  async function read(fileName: string, bytes: Uint8Array) {
    setError(null);
    setProgress({ fileName, fraction: 0 });
    onReading?.();
    let sheets: string[] = [];
    const current = startImport(
      { bytes, fileName },
      (fraction) => setProgress({ fileName, fraction }),
      (names) => (sheets = names),
    );
    job.current = current;
    try {
      const result = await current.result;
      // Without the reader handed over, the rows must be here before it ends.
      if (!keepReader) {
        await result.whenRows();
        current.dispose();
      }
      onOpened({
        fileName,
        bytes,
        sheets: sheets.length ? sheets : result.sheetNames,
        result,
        ...(keepReader ? { session: current } : {}),
      });
    } catch (e) {
      if (!(e instanceof ImportCancelled)) {
        setError(`“${fileName}” could not be read: ${e instanceof Error ? e.message : String(e)}`);
      }
    } finally {
      job.current = null;
      setProgress(null);
      onReadEnd?.();
    }
  }

  useEffect(() => {
    if (!pending || started.current === pending) return;
    started.current = pending;
    void Promise.resolve().then(() => read(pending.fileName, pending.bytes));
    // read() is stable in behaviour; only a new pending file starts a new import.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pending]);

  async function readFile(file: File) {
    await read(file.name, new Uint8Array(await file.arrayBuffer()));
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file) void readFile(file);
  }

  return (
    <Box
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      data-testid="drop-zone"
      sx={{
        border: 2,
        borderStyle: 'dashed',
        borderColor: dragging ? 'primary.main' : 'divider',
        borderRadius: 2,
        p: 3,
        bgcolor: dragging ? '#e3f0ef' : 'background.paper',
      }}
    >
      {progress ? (
        <Stack spacing={1.5} role="status" aria-live="polite">
          <Typography>
            Reading <strong>{progress.fileName}</strong>… {Math.round(progress.fraction * 100)}%
          </Typography>
          <LinearProgress
            variant="determinate"
            value={progress.fraction * 100}
            aria-label="Reading the spreadsheet"
          />
          <Box>
            <Button variant="outlined" onClick={() => job.current?.cancel()}>
              Cancel
            </Button>
          </Box>
        </Stack>
      ) : (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
          <Button
            startIcon={<UploadFile />}
            onClick={() => input.current?.click()}
            sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}
          >
            Open a spreadsheet…
          </Button>
          <Typography color="textSecondary">
            or drop one here: Excel (xlsx, xlsm, xls), OpenDocument (ods), CSV, TSV or text. Your file is
            never changed.
          </Typography>
          <input
            ref={input}
            type="file"
            accept={ACCEPTED_FILES}
            hidden
            aria-label="Spreadsheet file"
            data-testid="file-input"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) void readFile(file);
            }}
          />
        </Stack>
      )}
      {error && (
        <Alert severity="error" sx={{ mt: 2 }} role="alert">
          {error}
        </Alert>
      )}
    </Box>
  );
}
