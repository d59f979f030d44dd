import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import AppBar from '@mui/material/AppBar';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import MenuIcon from '@mui/icons-material/Menu';
import { EnvironmentBadge } from '../components/EnvironmentBadge';
import { problemOnly, TeamBadge, UNREACHABLE_WORDS } from '../components/TeamBadge';
import { areas, teamOnlyAreas, useRoute, type AreaId } from '../app/routes';
import { useDesk } from '../app/DeskContext';
import { useTeam } from '../app/TeamContext';
import { SettingsPage } from '../features/settings/SettingsPage';
import { WelcomePage } from '../features/welcome/WelcomePage';
import { AreaPage } from '../components/AreaPage';
import { AreaNav } from './AreaNav';
import { OpeningBar } from './OpeningBar';
import { pageTitle, usePageTitleDetailValue } from '../app/pageTitle';
import { useFocusOnArrival } from './focusOnArrival';
import { Announcer } from '../app/announce';
import { startFirstReads } from '../features/reconcile/firstReads';

const NAV_WIDTH = 200;
/** Below this width (in CSS pixels, so 200% zoom on a 1280-pixel screen too) the side bar becomes a drawer. */
export const NARROW_QUERY = '(max-width: 899.95px)';

/** Each area's code, loaded the first time it is needed or, earlier, once the window is idle. */
const areaCode = {
  prepare: () => import('../features/prepare/PreparePage'),
  reconcile: () => import('../features/reconcile/ReconcilePage'),
  uploads: () => import('../features/uploads/UploadsPage'),
  search: () => import('../features/search/SearchPage'),
  locations: () => import('../features/locations/LocationsPage'),
  audit: () => import('../features/audit/AuditPage'),
  approvals: () => import('../features/approvals/ApprovalsPage'),
};
const PreparePage = lazy(areaCode.prepare);
// Reconcile's first answers are asked for with its code (just after it: the code comes first; the
// declined list once the code is in), and the page is drawn once both are there (its first page and
// totals waited for 0.3 s at most), in one drawing rather than empty first.
const ReconcilePage = lazy(() => {
  const code = areaCode.reconcile();
  return Promise.all([code, startFirstReads(300, code)]).then(([page]) => page);
});
const UploadsPage = lazy(areaCode.uploads);
const SearchPage = lazy(areaCode.search);
const LocationsPage = lazy(areaCode.locations);
const AuditPage = lazy(areaCode.audit);
const ApprovalsPage = lazy(areaCode.approvals);

/**
 * A few seconds after the first screen is drawn, when nothing else is going on, every area's code
 * is loaded, so the first visit to an area draws it without waiting for its code (it is all on
 * this computer; a failure here only means the area loads when opened, as before). Not at once: a
 * person who goes straight to an area should not wait for the others' code.
 */
const AREA_CODE_AFTER_MS = 3_000;

function useAreaCodeWhenIdle(): void {
  useEffect(() => {
    const load = (): void => {
      for (const code of Object.values(areaCode)) void code().catch(() => undefined);
    };
    let idle: number | null = null;
    const timer = window.setTimeout(() => {
      if (typeof window.requestIdleCallback === 'function')
        idle = window.requestIdleCallback(load, { timeout: 2_000 });
      else load();
    }, AREA_CODE_AFTER_MS);
    return () => {
      window.clearTimeout(timer);
      if (idle !== null) window.cancelIdleCallback(idle);
    };
  }, []);
}

function AreaContent({ area, go }: { area: AreaId | 'welcome'; go: (a: AreaId | 'welcome') => void }) {
  switch (area) {
    case 'welcome':
      return <WelcomePage go={go} />;
    case 'settings':
      return <SettingsPage />;
    case 'prepare':
      return <PreparePage />;
    case 'uploads':
      return <UploadsPage />;
    case 'reconcile':
      return <ReconcilePage />;
    case 'search':
      return <SearchPage />;
    case 'locations':
      return <LocationsPage />;
    case 'audit':
      return <AuditPage />;
    case 'approvals':
      return <ApprovalsPage />;
    default: {
      const meta = areas.find((a) => a.id === area);
      return <AreaPage title={meta?.label ?? area} description={meta?.description ?? ''} />;
    }
  }
}

export function App() {
  const { info, settings, loadError } = useDesk();
  const team = useTeam();
  const [area, go, opening] = useRoute();
  const inTeam = team.status?.mode === 'team';
  const unreachable = team.status?.mode === 'team' && !team.status.reachable ? team.status : null;
  const shownAreas = areas.filter((a) => inTeam || !teamOnlyAreas.has(a.id));
  const narrow = useMediaQuery(NARROW_QUERY, { noSsr: true });
  const [drawerOpen, setDrawerOpen] = useState(false);
  const titleDetail = usePageTitleDetailValue();
  const areaLabel = area === 'welcome' ? 'Welcome' : (areas.find((a) => a.id === area)?.label ?? '');
  const mainElement = useCallback(() => document.getElementById('main'), []);
  useFocusOnArrival(area, mainElement);
  useAreaCodeWhenIdle();

  useEffect(() => {
    document.title = pageTitle(areaLabel, titleDetail);
  }, [areaLabel, titleDetail]);

  // A newcomer starts on the welcome page until they have chosen how to begin.
  useEffect(() => {
    if (settings && !settings.firstRunDone && area !== 'welcome' && area !== 'settings') go('welcome');
    // Only on first load of settings: later navigation is the person's choice.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settings?.firstRunDone]);

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <a
        className="skip-link"
        href="#main"
        onClick={(e) => {
          // The address's fragment holds the route, so move focus without changing it.
          e.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        Skip to content
      </a>
      <AppBar position="fixed" sx={{ zIndex: (t) => t.zIndex.drawer + 1 }} elevation={0}>
        <Toolbar sx={{ gap: { xs: 1, sm: 2 }, flexWrap: 'wrap', minWidth: 0 }}>
          {narrow && (
            <IconButton
              color="inherit"
              edge="start"
              aria-label="Areas"
              aria-expanded={drawerOpen}
              aria-controls="area-drawer"
              onClick={() => setDrawerOpen((open) => !open)}
            >
              <MenuIcon />
            </IconButton>
          )}
          <Typography component="span" variant="h6" sx={{ flexGrow: 1, fontWeight: 700 }} noWrap>
            Donation Desk
          </Typography>
          <TeamBadge status={team.status} />
          <EnvironmentBadge environment={info?.environment} />
        </Toolbar>
        <OpeningBar opening={opening} />
      </AppBar>
      {narrow ? (
        <Drawer
          id="area-drawer"
          open={drawerOpen && narrow}
          onClose={() => setDrawerOpen(false)}
          slotProps={{
            paper: { component: 'nav', 'aria-label': 'Areas', sx: { width: 240, pt: 9 } } as object,
          }}
        >
          <AreaNav
            shown={shownAreas}
            current={area}
            waiting={team.waiting}
            onNavigate={() => setDrawerOpen(false)}
          />
        </Drawer>
      ) : (
        <Box
          component="nav"
          aria-label="Areas"
          sx={{
            width: NAV_WIDTH,
            flexShrink: 0,
            borderRight: 1,
            borderColor: 'divider',
            bgcolor: 'background.paper',
            pt: 9,
            position: 'fixed',
            top: 0,
            bottom: 0,
            overflowY: 'auto',
          }}
        >
          <AreaNav shown={shownAreas} current={area} waiting={team.waiting} />
        </Box>
      )}
      <Box
        component="main"
        id="main"
        tabIndex={-1}
        sx={{
          flexGrow: 1,
          ml: narrow ? 0 : `${NAV_WIDTH}px`,
          pt: 10,
          px: narrow ? 1.5 : 3,
          pb: 4,
          minWidth: 0,
        }}
      >
        {unreachable && (
          <Alert severity="warning" role="status" sx={{ mb: 2 }} data-testid="team-unreachable">
            {UNREACHABLE_WORDS} {problemOnly(unreachable.problem)}
          </Alert>
        )}
        {loadError ? (
          <Alert severity="error" role="alert">
            {loadError}
          </Alert>
        ) : !settings ? (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }} role="status">
            <CircularProgress size={20} aria-hidden /> Starting…
          </Box>
        ) : (
          <Suspense fallback={<CircularProgress aria-label="Loading" />}>
            <AreaContent area={area} go={go} />
          </Suspense>
        )}
      </Box>
      <Announcer />
    </Box>
  );
}
