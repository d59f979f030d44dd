import { useEffect, useRef, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Search from '@mui/icons-material/Search';
import type { GivingOpportunity } from '../../../../shared/contract/searchChannels';
import type { RegisteredLocation } from '../../../../shared/contract/locationChannels';
import { desk } from '../../app/deskClient';
import { count } from '../../../../shared/i18n';
import { searchedFor } from './searchedFor';
import { ResultCard } from './ResultCard';
import { cannotReceiveText } from '../../lib/cannotReceiveText';
import { donationPageUrl, pageLocale, parseNear } from './donationPage';
import { RECIPIENT_KEY, type ChosenRecipient } from '../../app/routes';

/** After this long a search is called slow and says so. */
const SLOW_MS = 3_000;

type SearchState =
  | { kind: 'idle' }
  | { kind: 'searching'; slow: boolean }
  | { kind: 'failed'; message: string }
  | { kind: 'done'; q: string; results: GivingOpportunity[]; programUrl: string; corrected: boolean };

/** What autocorrect searched for, read from the words the service marked in the results. */
function AutocorrectNote({ q, results }: { q: string; results: GivingOpportunity[] }) {
  const found = searchedFor(q, results);
  const searched = found.terms.map((t) => `“${t}”`).join(' ');
  return (
    <span data-testid="autocorrect-note">
      {found.changed.length
        ? `. Autocorrect searched for ${searched} (${found.changed
            .map((c) => `“${c.searched}” instead of “${c.typed}”`)
            .join(', ')}).`
        : `. Autocorrect changed nothing: it searched for ${searched}.`}
    </span>
  );
}

export default function SearchPage() {
  const [q, setQ] = useState('');
  const [near, setNear] = useState('');
  const [autocorrect, setAutocorrect] = useState(false);
  const [known, setKnown] = useState<RegisteredLocation[]>([]);
  const [state, setState] = useState<SearchState>({ kind: 'idle' });
  const [notice, setNotice] = useState<{ severity: 'success' | 'warning' | 'error'; text: string } | null>(
    null,
  );
  const [topicError, setTopicError] = useState<string | null>(null);
  const run = useRef(0);

  useEffect(() => {
    let live = true;
    void desk['locations.list']({}).then((r) => {
      if (live && r.ok) setKnown(r.value.locations.filter((l) => l.location.address?.geoCoordinate));
    });
    return () => {
      live = false;
    };
  }, []);

  const nearProblem = near.trim() && !parseNear(near) ? 'Type latitude,longitude, e.g. -33.87,151.21' : null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!q.trim()) {
      setTopicError('Enter a topic to search for.');
      return;
    }
    setTopicError(null);
    if (nearProblem) return;
    const mine = ++run.current;
    setNotice(null);
    setState({ kind: 'searching', slow: false });
    const timer = setTimeout(() => {
      if (run.current === mine) setState({ kind: 'searching', slow: true });
    }, SLOW_MS);
    const coordinates = near.trim() ? parseNear(near) : null;
    const result = await desk['search.run']({
      q: q.trim(),
      autocorrect,
      ...(coordinates ? { near: coordinates } : {}),
    });
    clearTimeout(timer);
    if (run.current !== mine) return;
    if (!result.ok) setState({ kind: 'failed', message: result.error.message });
    else
      setState({
        kind: 'done',
        q: q.trim(),
        results: result.value.results,
        programUrl: result.value.programUrl,
        corrected: autocorrect,
      });
  }

  async function open(result: GivingOpportunity) {
    if (state.kind !== 'done') return;
    const url = donationPageUrl(state.programUrl, pageLocale(navigator.language), result.id);
    const opened = await desk['external.open']({ url });
    if (!opened.ok) {
      setNotice({ severity: 'error', text: opened.error.message });
      return;
    }
    // In a browser main cannot open the system browser; the allowlisted address opens in a new tab.
    if (!opened.value.opened) window.open(url, '_blank', 'noopener,noreferrer');
    setNotice({ severity: 'success', text: `Opened the donation page for “${result.title}”.` });
  }

  async function chooseRecipient(causeName: string, projectName?: string) {
    setNotice(null);
    const found = await desk['search.recipient']({ causeName, ...(projectName ? { projectName } : {}) });
    if (!found.ok) {
      setNotice({ severity: 'error', text: found.error.message });
      return;
    }
    const chosen: ChosenRecipient = { ...found.value, chosenAt: new Date().toISOString() };
    sessionStorage.setItem(RECIPIENT_KEY, JSON.stringify(chosen));
    const unable = found.value.cannotReceive;
    setNotice({
      severity: unable ? 'warning' : 'success',
      text: `Recipient ${chosen.recipientId} (${chosen.label}) is ready: the donation form will offer it.${
        unable ? ` ${cannotReceiveText(unable)} A donation to it is likely to be declined.` : ''
      }`,
    });
  }

  return (
    <Stack spacing={2}>
      <Typography variant="h1">Search</Typography>
      <Typography color="textSecondary">
        Find giving opportunities by topic, optionally ranked near one of your locations.
      </Typography>
      <Box component="form" onSubmit={(e) => void submit(e)} role="search" aria-label="Giving opportunities">
        <Stack
          direction={{ xs: 'column', md: 'row' }}
          spacing={2}
          useFlexGap
          sx={{ alignItems: { md: 'flex-start' }, flexWrap: { md: 'wrap' } }}
        >
          <TextField
            label="Topic"
            value={q}
            onChange={(e) => setQ(e.target.value)}
            error={Boolean(topicError)}
            helperText={topicError ?? 'Words such as food, literacy or wildlife'}
            sx={{ flex: 2, minWidth: { md: '12rem' } }}
            slotProps={{ htmlInput: { maxLength: 200 } }}
          />
          <TextField
            label="Near (latitude,longitude)"
            value={near}
            onChange={(e) => setNear(e.target.value)}
            error={Boolean(nearProblem)}
            helperText={nearProblem ?? 'Optional: ranks nearby causes first'}
            sx={{ flex: 1, minWidth: { md: '15rem' } }}
          />
          <TextField
            select
            label="Or near a known location"
            value=""
            onChange={(e) => {
              const picked = known.find((l) => l.location.id === e.target.value)?.location.address
                ?.geoCoordinate;
              if (picked) setNear(`${picked.latitude},${picked.longitude}`);
            }}
            sx={{ flex: 1, minWidth: { md: '15rem' } }}
            helperText={known.length ? `${known.length} with coordinates` : 'None in the register yet'}
          >
            {known.length === 0 && (
              <MenuItem value="" disabled>
                Import locations first
              </MenuItem>
            )}
            {known.map((l) => (
              <MenuItem key={l.location.id} value={l.location.id}>
                {l.location.name ?? l.location.referenceId ?? l.location.id}
              </MenuItem>
            ))}
          </TextField>
          <FormControlLabel
            control={<Switch checked={autocorrect} onChange={(e) => setAutocorrect(e.target.checked)} />}
            label="Autocorrect"
            sx={{ pt: 1 }}
          />
          <Button type="submit" variant="contained" startIcon={<Search />} sx={{ mt: 1 }}>
            Search
          </Button>
        </Stack>
      </Box>
      {notice && (
        <Alert
          severity={notice.severity}
          role={notice.severity === 'error' ? 'alert' : 'status'}
          onClose={() => setNotice(null)}
        >
          {notice.text}
        </Alert>
      )}
      {state.kind === 'searching' && (
        <Box role="status" aria-live="polite">
          <LinearProgress aria-label="Searching" />
          <Typography sx={{ mt: 1 }} color="textSecondary">
            {state.slow
              ? 'Still searching: the service is slow to answer. You can keep waiting or change the topic.'
              : 'Searching…'}
          </Typography>
        </Box>
      )}
      {state.kind === 'failed' && (
        <Alert severity="error" role="alert">
          The search did not work. {state.message}
        </Alert>
      )}
      {state.kind === 'done' && state.results.length === 0 && (
        <Alert severity="info" role="status">
          No giving opportunities match “{state.q}”.{' '}
          {state.corrected
            ? 'Autocorrect found no word close enough to change, so it searched for the words as typed. Try fewer or other words.'
            : 'Check the spelling, try fewer words, or turn on autocorrect.'}
        </Alert>
      )}
      {state.kind === 'done' && state.results.length > 0 && (
        <Stack spacing={2}>
          <Typography role="status" data-testid="search-summary">
            {count(state.results.length, 'giving opportunity', 'giving opportunities')} for “{state.q}”
            {state.corrected && <AutocorrectNote q={state.q} results={state.results} />}
          </Typography>
          {state.results.map((r) => (
            <ResultCard
              key={r.id}
              result={r}
              onOpen={(x) => void open(x)}
              onUseRecipient={(c, p) => void chooseRecipient(c, p)}
            />
          ))}
        </Stack>
      )}
    </Stack>
  );
}
