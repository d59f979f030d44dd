import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import type { areas, AreaId } from '../app/routes';

/**
 * The list of areas, in the side bar or in the drawer of a narrow window. The current area is marked
 * by more than a tint (a bar at its edge and bold text), so it stays marked in forced colours too.
 */
export function AreaNav({
  shown,
  current,
  waiting,
  onNavigate,
}: {
  shown: readonly (typeof areas)[number][];
  current: AreaId | 'welcome';
  waiting: number;
  onNavigate?: () => void;
}) {
  return (
    <List>
      {shown.map((a) => (
        <ListItem key={a.id} disablePadding>
          <ListItemButton
            component="a"
            href={`#/${a.id}`}
            selected={current === a.id}
            aria-current={current === a.id ? 'page' : undefined}
            onClick={onNavigate}
            sx={{
              borderLeft: '4px solid transparent',
              '&[aria-current="page"]': { borderLeftColor: 'primary.main', fontWeight: 700 },
              '@media (forced-colors: active)': {
                '&[aria-current="page"]': { borderLeftColor: 'Highlight' },
              },
            }}
          >
            <ListItemText
              primary={a.label}
              slotProps={{ primary: { sx: { fontWeight: current === a.id ? 700 : undefined } } }}
            />
            {a.id === 'approvals' && waiting > 0 && (
              <Chip
                size="small"
                color="warning"
                data-testid="approvals-waiting"
                label={
                  <>
                    {waiting}
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
  );
}
