import { lazy, Suspense, useEffect } from 'react';
import AppBar from '@mui/material/AppBar';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { EnvironmentBadge } from '../components/EnvironmentBadge';
import { problemOnly, TeamBadge, UNREACHABLE_WORDS } from '../components/TeamBadge';
import { areas, teamOnlyAreas, useRoute, type AreaId } from './routes';
import { useDesk } from './DeskContext';
import { useTeam } from './TeamContext';
import { SettingsPage } from '../features/settings/SettingsPage';
import { WelcomePage } from '../features/welcome/WelcomePage';
import { AreaPage } from '../components/AreaPage';

const NAV_WIDTH = 200;

const PreparePage = lazy(() => import('../features/prepare/PreparePage'));
const ReconcilePage = lazy(() => import('../features/reconcile/ReconcilePage'));
const UploadsPage = lazy(() => import('../features/uploads/UploadsPage'));
const SearchPage = lazy(() => import('../features/search/SearchPage'));
const LocationsPage = lazy(() => import('../features/locations/LocationsPage'));
const AuditPage = lazy(() => import('../features/audit/AuditPage'));
const ApprovalsPage = lazy(() => import('../features/approvals/ApprovalsPage'));

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
  const [area, go] = useRoute();
  const inTeam = team.status?.mode === 'team';
  const unreachable = team.status?.mode === 'team' && !team.status.reachable ? team.status : null;
  const shownAreas = areas.filter((a) => inTeam || !teamOnlyAreas.has(a.id));

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
        <Toolbar sx={{ gap: 2 }}>
          <Typography component="span" variant="h6" sx={{ flexGrow: 1, fontWeight: 700 }}>
            Donation Desk
          </Typography>
          <TeamBadge status={team.status} />
          <EnvironmentBadge environment={info?.environment} />
        </Toolbar>
      </AppBar>
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
        }}
      >
        <List>
          {shownAreas.map((a) => (
            <ListItem key={a.id} disablePadding>
              <ListItemButton
                component="a"
                href={`#/${a.id}`}
                selected={area === a.id}
                aria-current={area === a.id ? 'page' : undefined}
              >
                <ListItemText primary={a.label} />
                {a.id === 'approvals' && team.waiting > 0 && (
                  <Chip
                    size="small"
                    color="warning"
                    data-testid="approvals-waiting"
                    label={
                      <>
                        {team.waiting}
                        <span className="visually-hidden"> waiting</span>
                      </>
                    }
                    sx={{ fontWeight: 700, bgcolor: '#8a4b00', color: '#fff' }}
                  />
                )}
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      </Box>
      <Box
        component="main"
        id="main"
        tabIndex={-1}
        sx={{ flexGrow: 1, ml: `${NAV_WIDTH}px`, pt: 10, px: 3, pb: 4, minWidth: 0 }}
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
    </Box>
  );
}
