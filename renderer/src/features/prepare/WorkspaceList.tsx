import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import type { WorkspaceMeta } from '../../../../shared/contract';
import { desk } from '../../app/deskClient';

const stateLabels: Record<WorkspaceMeta['state'], string> = {
  draft: 'Draft',
  ready: 'Ready to upload',
  uploading: 'Uploading',
  uploaded: 'Uploaded',
  'needs-repair': 'Needs repair',
  done: 'Done',
};

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Saved workspaces, newest first: reopened days later exactly as they were left. */
export function WorkspaceList({ onOpen }: { onOpen: (id: string) => void }) {
  const [items, setItems] = useState<WorkspaceMeta[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let live = true;
    void desk['workspace.list']().then((r) => {
      if (!live) return;
      if (r.ok) setItems(r.value);
      else setError(r.error.message);
    });
    return () => {
      live = false;
    };
  }, [version]);

  async function remove(item: WorkspaceMeta) {
    if (!window.confirm(`Delete the workspace “${item.name}”? Your spreadsheet file is not touched.`)) return;
    const r = await desk['workspace.delete']({ id: item.id });
    if (!r.ok) setError(r.error.message);
    setVersion((v) => v + 1);
  }

  if (error) return <Alert severity="error">{error}</Alert>;
  if (!items) return null;
  if (items.length === 0) {
    return (
      <Typography color="text.secondary">No workspaces yet. Open a spreadsheet to start one.</Typography>
    );
  }
  return (
    <Paper variant="outlined">
      <Table size="small" aria-label="Saved workspaces">
        <TableHead>
          <TableRow>
            <TableCell>Name</TableCell>
            <TableCell>File</TableCell>
            <TableCell>Last change</TableCell>
            <TableCell>State</TableCell>
            <TableCell align="right">Rows</TableCell>
            <TableCell align="right">Invalid</TableCell>
            <TableCell>
              <span className="visually-hidden">Actions</span>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {items.map((item) => (
            <TableRow key={item.id} hover>
              <TableCell>
                <Button
                  variant="text"
                  onClick={() => onOpen(item.id)}
                  sx={{ textTransform: 'none', p: 0, minWidth: 0 }}
                >
                  {item.name}
                </Button>
              </TableCell>
              <TableCell>
                {item.source.fileName}
                {item.source.sheet ? ` · ${item.source.sheet}` : ''}
              </TableCell>
              <TableCell>{dateTime.format(new Date(item.updatedAt))}</TableCell>
              <TableCell>
                <Chip size="small" label={stateLabels[item.state]} />
              </TableCell>
              <TableCell align="right">{item.counts?.rows.toLocaleString() ?? '—'}</TableCell>
              <TableCell align="right">{item.counts ? item.counts.invalid.toLocaleString() : '—'}</TableCell>
              <TableCell align="right">
                <IconButton
                  aria-label={`Delete workspace ${item.name}`}
                  onClick={() => void remove(item)}
                  size="small"
                >
                  <DeleteOutlined fontSize="small" />
                </IconButton>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Paper>
  );
}
