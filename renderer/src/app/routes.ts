import { useEffect, useState, useTransition } from 'react';

export const areas = [
  {
    id: 'prepare',
    label: 'Prepare',
    description: 'Import a spreadsheet, map its columns and fix every row.',
  },
  { id: 'uploads', label: 'Uploads', description: 'Bulk uploads and where each one stands.' },
  {
    id: 'reconcile',
    label: 'Reconcile',
    description: 'Donations to the end of their life, declined ones put right.',
  },
  { id: 'search', label: 'Search', description: 'Find giving opportunities and causes.' },
  { id: 'locations', label: 'Locations', description: 'Locations with their contacts and tags.' },
  {
    id: 'approvals',
    label: 'Approvals',
    description: 'Uploads waiting for a second person to approve them (team mode only).',
  },
  { id: 'audit', label: 'Audit', description: 'Who did what and when: the audit trail.' },
  { id: 'settings', label: 'Settings', description: 'Environment, addresses and credentials.' },
] as const;

export type AreaId = (typeof areas)[number]['id'];

export function areaFromHash(): AreaId | 'welcome' {
  const id = window.location.hash.replace(/^#\/?/, '').split('/')[0];
  if (id === 'welcome') return 'welcome';
  return areas.some((a) => a.id === id) ? (id as AreaId) : 'prepare';
}

/** Areas shown in the side bar only when working with a team database. */
export const teamOnlyAreas: ReadonlySet<AreaId> = new Set<AreaId>(['approvals']);

/** The part of the address after the area: `#/approvals/<upload id>` → the upload id. */
export function subRoute(): string | null {
  const rest = window.location.hash.replace(/^#\/?/, '').split('/').slice(1).join('/');
  return rest ? decodeURIComponent(rest) : null;
}

/** The sub-route, kept current as the address changes. */
export function useSubRoute(): string | null {
  const [sub, setSub] = useState(subRoute);
  useEffect(() => {
    const onChange = () => setSub(subRoute());
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return sub;
}

/** Hash routes: they work the same from file:// in Electron and from the bridge in a browser. */
export function useRoute(): [
  AreaId | 'welcome',
  (area: AreaId | 'welcome') => void,
  /** True while the area asked for is not drawn yet (its code is on its way). */
  boolean,
] {
  const [area, setArea] = useState(areaFromHash);
  const [opening, startOpening] = useTransition();
  useEffect(() => {
    // A transition: while an area's code is still on its way, the area shown stays, and the new one
    // is drawn as soon as its code is there. (Shown a fallback instead, React holds the area's first
    // drawing back until 300 ms after the fallback appeared.)
    const onChange = () => startOpening(() => setArea(areaFromHash()));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return [area, (next) => (window.location.hash = `#/${next}`), opening];
}

/** Set by the welcome page: Prepare opens the sample spreadsheet once when it sees it. */
export const OPEN_SAMPLE_KEY = 'donation-desk.open-sample';

/** Set by the Uploads area: Prepare opens this workspace with the service's errors of this intent on its cells. */
export const REPAIR_KEY = 'donation-desk.repair';

/** Set by Reconcile: Prepare opens this workspace (the declined donations to fix in the grid). */
export const OPEN_WORKSPACE_KEY = 'donation-desk.open-workspace';

/** Set by Search ("Use as recipient"): Prepare offers to put that cause in a row of the grid. */
export const RECIPIENT_KEY = 'donation-desk.recipient';

/** What "Use as recipient" leaves for the single-donation form and the grid to pick up. */
export interface ChosenRecipient {
  recipientId: string;
  label: string;
  chosenAt: string;
}
