import { useEffect, useState } from 'react';
import LinearProgress from '@mui/material/LinearProgress';
import { areas, areaFromHash } from '../app/routes';

/** How long an area may take to open before the bar shows (a quicker one shows nothing). */
const SHOW_AFTER_MS = 150;

/**
 * A thin bar along the app bar's lower edge while an area asked for is not drawn yet: the area shown
 * stays until the new one is ready (see useRoute), and this says that the click was taken.
 */
export function OpeningBar({ opening }: { opening: boolean }) {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!opening) return;
    const timer = setTimeout(() => setShown(true), SHOW_AFTER_MS);
    return () => {
      clearTimeout(timer);
      setShown(false);
    };
  }, [opening]);
  if (!opening || !shown) return null;
  const target = areaFromHash();
  const label = target === 'welcome' ? 'Welcome' : (areas.find((a) => a.id === target)?.label ?? '');
  return (
    <LinearProgress
      aria-label={`Opening ${label}`}
      color="inherit"
      sx={{ position: 'absolute', left: 0, right: 0, bottom: 0, height: 3 }}
    />
  );
}
