import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { ChannelResponse, PublicSettings } from '../../../shared/contract';
import { desk } from './deskClient';

type AppInfo = ChannelResponse<'app.info'>;

interface DeskState {
  info: AppInfo | null;
  settings: PublicSettings | null;
  /** Plain message when the app could not reach main (bridge down, no secret). */
  loadError: string | null;
  refresh(): Promise<void>;
}

const DeskContext = createContext<DeskState | null>(null);

const load = () => Promise.all([desk['app.info'](), desk['settings.get']()]);

export function DeskProvider({ children }: { children: ReactNode }) {
  const [info, setInfo] = useState<AppInfo | null>(null);
  const [settings, setSettings] = useState<PublicSettings | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);

  const apply = useCallback(([i, s]: Awaited<ReturnType<typeof load>>) => {
    if (!i.ok) return setLoadError(i.error.message);
    if (!s.ok) return setLoadError(s.error.message);
    setLoadError(null);
    setInfo(i.value);
    setSettings(s.value);
  }, []);
  const refresh = useCallback(() => load().then(apply), [apply]);

  useEffect(() => {
    let live = true;
    const reload = () => void load().then((r) => live && apply(r));
    reload();
    const unsubscribe = desk.on('settings.changed', reload);
    return () => {
      live = false;
      unsubscribe();
    };
  }, [apply]);

  const value = useMemo(() => ({ info, settings, loadError, refresh }), [info, settings, loadError, refresh]);
  return <DeskContext.Provider value={value}>{children}</DeskContext.Provider>;
}

export function useDesk(): DeskState {
  const state = useContext(DeskContext);
  if (!state) throw new Error('useDesk outside DeskProvider');
  return state;
}
