import { useCallback, useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { TrailCheck } from '../../../../shared/contract';
import { BROKEN_TRAIL_ADVICE, trailCheckSentence } from '../../../../shared/audit/trailCheckWords';
import { desk } from '../../app/deskClient';

type State =
  { kind: 'checking' } | { kind: 'done'; checks: TrailCheck[] } | { kind: 'failed'; message: string };

/**
 * The Audit view's status line for the trail itself: checked link by link when the view opens (as
 * `donation-desk audit verify` and Settings → Data do), whole or the first entry found broken.
 */
export function TrailStatus() {
  const [state, setState] = useState<State>({ kind: 'checking' });

  const check = useCallback(() => {
    setState({ kind: 'checking' });
    return desk['audit.verify']({}).then((r) =>
      setState(r.ok ? { kind: 'done', checks: r.value } : { kind: 'failed', message: r.error.message }),
    );
  }, []);

  useEffect(() => {
    let live = true;
    void desk['audit.verify']({}).then((r) => {
      if (!live) return;
      setState(r.ok ? { kind: 'done', checks: r.value } : { kind: 'failed', message: r.error.message });
    });
    return () => {
      live = false;
    };
  }, []);

  const again = (
    <Button size="small" onClick={() => void check()} disabled={state.kind === 'checking'}>
      Check again
    </Button>
  );

  if (state.kind === 'checking') {
    return (
      <Typography role="status" color="textSecondary" data-testid="audit-trail-status">
        Checking that no entry was changed, removed or added from outside the app…
      </Typography>
    );
  }
  if (state.kind === 'failed') {
    return (
      <Alert severity="warning" role="status" data-testid="audit-trail-status" action={again}>
        The audit trail could not be checked: {state.message}
      </Alert>
    );
  }
  const whole = state.checks.every((c) => c.whole);
  return (
    <Alert
      severity={whole ? 'success' : 'error'}
      role={whole ? 'status' : 'alert'}
      data-testid="audit-trail-status"
      action={again}
    >
      {state.checks.map((c) => (
        <Typography key={c.trail} variant="body2">
          {trailCheckSentence(c)}
        </Typography>
      ))}
      {!whole && <Typography variant="body2">{BROKEN_TRAIL_ADVICE}</Typography>}
    </Alert>
  );
}
