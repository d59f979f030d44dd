import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import type { WorkspaceMeta } from '../../../../shared/contract';
import { count } from '../../../../shared/i18n';
import { sourceFileLabel } from '../../../../shared/spreadsheet/sourceNames';
import { desk } from '../../app/deskClient';
import { standingWords } from './standingWords';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Saved workspaces, newest first: reopened days later exactly as they were left. */
export function WorkspaceList({ onOpen }: { onOpen: (id: string, repairIntentId?: string) => void }) {
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
    const rows = item.counts ? ` (${count(item.counts.rows, 'row')})` : '';
    if (!window.confirm(`Delete the workspace “${item.name}”${rows}? Your spreadsheet file is not touched.`))
      return;
    const r = await desk['workspace.delete']({ id: item.id });
    if (!r.ok) setError(r.error.message);
    setVersion((v) => v + 1);
  }

  if (error) return <Alert severity="error">{error}</Alert>;
  if (!items) return null;
  if (items.length === 0) {
    return <Typography color="textSecondary">No workspaces yet. Open a spreadsheet to start one.</Typography>;
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
          {items.map((item) => {
            const standing = standingWords(item);
            const repair = item.standing?.kind === 'needs-repair' ? item.standing.upload?.intentId : null;
            return (
              <TableRow key={item.id} hover data-testid="workspace-row">
                <TableCell>
                  {item.unopenable ? (
                    <Typography variant="body2">{item.name}</Typography>
                  ) : (
                    <Button
                      variant="text"
                      onClick={() => onOpen(item.id)}
                      sx={{ textTransform: 'none', p: 0, minWidth: 0 }}
                    >
                      {item.name}
                    </Button>
                  )}
                </TableCell>
                <TableCell>{sourceFileLabel(item.source)}</TableCell>
                <TableCell>{dateTime.format(new Date(item.updatedAt))}</TableCell>
                <TableCell>
                  {item.unopenable ? (
                    <Stack spacing={0.5} data-testid="workspace-unopenable">
                      <Chip
                        size="small"
                        label="Cannot be opened"
                        color="error"
                        sx={{ alignSelf: 'flex-start' }}
                      />
                      <Typography variant="body2" color="textSecondary">
                        {item.unopenable}
                      </Typography>
                    </Stack>
                  ) : (
                    <Stack
                      direction="row"
                      spacing={1}
                      useFlexGap
                      sx={{ alignItems: 'center', flexWrap: 'wrap' }}
                    >
                      <Chip
                        size="small"
                        label={standing.label}
                        color={standing.color}
                        data-testid="workspace-standing"
                      />
                      <Typography variant="body2" color="textSecondary">
                        {standing.detail}
                      </Typography>
                      {repair && (
                        <Button size="small" variant="outlined" onClick={() => onOpen(item.id, repair)}>
                          Fix the rows
                        </Button>
                      )}
                      {item.standing?.upload && !repair && (
                        <Button
                          size="small"
                          variant="text"
                          href="#/uploads"
                          aria-label={`See the upload of ${item.name} in Uploads`}
                        >
                          See in Uploads
                        </Button>
                      )}
                    </Stack>
                  )}
                </TableCell>
                <TableCell align="right">{item.counts?.rows.toLocaleString() ?? '—'}</TableCell>
                <TableCell align="right">
                  {item.counts ? item.counts.invalid.toLocaleString() : '—'}
                </TableCell>
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
            );
          })}
        </TableBody>
      </Table>
    </Paper>
  );
}
