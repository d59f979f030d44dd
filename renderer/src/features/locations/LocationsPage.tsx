import { useCallback, useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import UploadFile from '@mui/icons-material/UploadFile';
import type { ChannelResponse } from '../../../../shared/contract';
import { desk } from '../../app/deskClient';
import { LocationDetail } from './LocationDetail';
import { LocationImport } from './LocationImport';

type Register = ChannelResponse<'locations.list'>;
type View = { kind: 'list' } | { kind: 'import' } | { kind: 'detail'; id: string };

export default function LocationsPage() {
  const [register, setRegister] = useState<Register | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [view, setView] = useState<View>({ kind: 'list' });

  const reload = useCallback(async () => {
    const result = await desk['locations.list']({});
    if (result.ok) {
      setRegister(result.value);
      setLoadError(null);
    } else setLoadError(result.error.message);
  }, []);

  useEffect(() => {
    let live = true;
    void desk['locations.list']({}).then((result) => {
      if (!live) return;
      if (result.ok) setRegister(result.value);
      else setLoadError(result.error.message);
    });
    return () => {
      live = false;
    };
  }, []);

  const known = new Set(
    (register?.locations ?? []).flatMap((l) => (l.location.referenceId ? [l.location.referenceId] : [])),
  );
  const selected =
    view.kind === 'detail' ? register?.locations.find((l) => l.location.id === view.id)?.location : undefined;

  return (
    <Stack spacing={2}>
      <Typography variant="h1">Locations</Typography>
      <Typography color="textSecondary">
        Your locations with their contacts and tags. The service has no list of locations, so this app keeps a
        register of those it has created or changed.
      </Typography>
      {loadError && (
        <Alert severity="error" role="alert">
          {loadError}
        </Alert>
      )}
      {view.kind === 'import' && (
        <LocationImport
          knownReferenceIds={known}
          onChanged={() => void reload()}
          onClose={() => setView({ kind: 'list' })}
        />
      )}
      {view.kind === 'detail' && selected && register && (
        <LocationDetail
          key={selected.id}
          location={selected}
          contacts={register.contacts}
          tags={register.tags}
          onChanged={() => void reload()}
          onBack={() => setView({ kind: 'list' })}
        />
      )}
      {view.kind === 'list' && (
        <>
          <Stack direction="row" spacing={1}>
            <Button
              variant="contained"
              startIcon={<UploadFile />}
              onClick={() => setView({ kind: 'import' })}
            >
              Import from a spreadsheet
            </Button>
          </Stack>
          {register && register.locations.length === 0 && (
            <Alert severity="info">
              No locations yet. Import a spreadsheet with a row per location: name, reference id, address,
              country, and optionally coordinates, tags and contacts.
            </Alert>
          )}
          {register && register.locations.length > 0 && (
            <Paper variant="outlined">
              <Table size="small" aria-label="Registered locations">
                <TableHead>
                  <TableRow>
                    <TableCell>Name</TableCell>
                    <TableCell>Reference id</TableCell>
                    <TableCell>City</TableCell>
                    <TableCell>Country</TableCell>
                    <TableCell>Contacts</TableCell>
                    <TableCell>Tags</TableCell>
                    <TableCell>
                      <span className="visually-hidden">Open</span>
                    </TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {register.locations.map(({ location: l }) => (
                    <TableRow key={l.id}>
                      <TableCell>{l.name}</TableCell>
                      <TableCell>{l.referenceId}</TableCell>
                      <TableCell>{l.address?.locality}</TableCell>
                      <TableCell>{l.address?.country}</TableCell>
                      <TableCell>{l.contacts?.length ?? 0}</TableCell>
                      <TableCell>{(l.tags ?? []).map((t) => `${t.name}=${t.value}`).join('; ')}</TableCell>
                      <TableCell>
                        <Button
                          size="small"
                          aria-label={`Open ${l.name ?? l.referenceId ?? l.id}`}
                          onClick={() => setView({ kind: 'detail', id: l.id })}
                        >
                          Open
                        </Button>
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </Paper>
          )}
        </>
      )}
    </Stack>
  );
}
