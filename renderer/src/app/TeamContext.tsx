import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { TeamStatus } from '../../../shared/contract';
import { desk } from './deskClient';

interface TeamState {
  /** Alone or as a team (null until first read). */
  status: TeamStatus | null;
  /** Uploads waiting for approval, for the side bar's badge (0 alone). */
  waiting: number;
  refresh(): Promise<void>;
}

const TeamContext = createContext<TeamState | null>(null);

/** How often the team's status and waiting uploads are read again while the app is open. */
const REFRESH_MS = 30_000;

/** The team's status and, when reachable, how many uploads wait (null: not known now). */
async function readTeam(): Promise<{ status: TeamStatus | null; waiting: number | null }> {
  const s = await desk['team.status']({});
  if (!s.ok) return { status: null, waiting: null };
  if (s.value.mode === 'alone') return { status: s.value, waiting: 0 };
  if (!s.value.reachable) return { status: s.value, waiting: null };
  const list = await desk['approvals.list']({ state: 'waiting' });
  return { status: s.value, waiting: list.ok ? list.value.approvals.length : null };
}

/**
 * Team mode as the whole window sees it: whether a team database is in use and reachable, who the
 * server says is connected, and how many uploads wait. Read on start, when settings change, when
 * main says the waiting uploads changed or the team database told of news, and every 30 seconds.
 */
export function TeamProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<TeamStatus | null>(null);
  const [waiting, setWaiting] = useState(0);

  const refresh = useCallback(
    () =>
      readTeam().then(({ status: s, waiting: n }) => {
        if (s) setStatus(s);
        if (n !== null) setWaiting(n);
      }),
    [],
  );

  useEffect(() => {
    let live = true;
    void readTeam().then(({ status: s, waiting: n }) => {
      if (!live) return;
      if (s) setStatus(s);
      if (n !== null) setWaiting(n);
    });
    const timer = setInterval(() => void refresh(), REFRESH_MS);
    const offSettings = desk.on('settings.changed', () => void refresh());
    const offApprovals = desk.on('approvals.changed', ({ waiting: n }) => setWaiting(n));
    // The team database told of a submission or a decision (main has read the count again already).
    const offNews = desk.on('team.news', () => void refresh());
    return () => {
      live = false;
      clearInterval(timer);
      offSettings();
      offApprovals();
      offNews();
    };
  }, [refresh]);

  const value = useMemo(() => ({ status, waiting, refresh }), [status, waiting, refresh]);
  return <TeamContext.Provider value={value}>{children}</TeamContext.Provider>;
}

export function useTeam(): TeamState {
  const state = useContext(TeamContext);
  if (!state) throw new Error('useTeam outside TeamProvider');
  return state;
}
