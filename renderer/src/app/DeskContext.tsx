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

export function DeskProvider({ children }: { children: ReactNode }) {
  const [info, setInfo] = useState<AppInfo | null>(null);
  const [settings, setSettings] = useState<PublicSettings | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);

  const refresh = useCallback(async () => {
    const [i, s] = await Promise.all([desk['app.info'](), desk['settings.get']()]);
    if (!i.ok) return setLoadError(i.error.message);
    if (!s.ok) return setLoadError(s.error.message);
    setLoadError(null);
    setInfo(i.value);
    setSettings(s.value);
  }, []);

  useEffect(() => {
    void refresh();
    return desk.on('settings.changed', () => void refresh());
  }, [refresh]);

  const value = useMemo(() => ({ info, settings, loadError, refresh }), [info, settings, loadError, refresh]);
  return <DeskContext.Provider value={value}>{children}</DeskContext.Provider>;
}

export function useDesk(): DeskState {
  const state = useContext(DeskContext);
  if (!state) throw new Error('useDesk outside DeskProvider');
  return state;
}
